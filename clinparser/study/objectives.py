"""Objectives and endpoints: who the study means to show what, and how it will measure it.

Protocols print these in three layouts, often mixed:

* an objectives-and-endpoints table (an objective column, an endpoint column; the level as a
  spanning row, a first column, or the first line of the objective cell);
* headed lists: "Primary Objective(s)" / "Secondary ..." headings, subsection titles or bold
  lead-in lines, each followed by objective paragraphs or bullets (sometimes with the objective's
  endpoints bulleted under it);
* endpoints printed in a section of their own ("Endpoints", "Efficacy Outcomes", a statistics
  chapter's "Primary Endpoint"), joined to the objectives by level and order.

The body's objectives section is read; the synopsis copy only when the body has none. Every rule
is about a kind of layout, never about one sponsor's wording.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..markup import strip_markup
from .trace import Tracer, words

OBJECTIVE, ENDPOINT = "objective", "endpoint"
PRIMARY, SECONDARY, EXPLORATORY = "primary", "secondary", "exploratory"

# A printed level word; "key secondary" before "secondary" so the label keeps "Key". No \b on
# the right or left: PDF text layers glue words ("Anexploratory objectiveof").
_LEVEL = re.compile(r"((?:key|other)\s+secondary|primary|secondary|tertiary|exploratory|\bother\b)", re.IGNORECASE)
_LEVEL_OF = {
    "primary": PRIMARY,
    "secondary": SECONDARY,
    "tertiary": EXPLORATORY,
    "exploratory": EXPLORATORY,
    "other": EXPLORATORY,
}

# What protocols call their endpoints when they do not say "endpoint": "Primary Efficacy Variable",
# "Key Secondary Variables", "Period 1 Variables", "Additional efficacy parameters", "Secondary
# Efficacy Measures". A level or kind word must stand before the noun, so that prose about "the
# variables of the model" or "laboratory parameters" names no endpoint list; "measures" needs a
# level word, as "Efficacy Measures" alone titles the instruments a study uses (how a scale is
# scored), not what it will show.
_KIND_OF_MEASURE = r"(?:(?:efficacy|safety|pharmacokinetic|pharmacodynamic|pk|pd)\s+)?"
_MEASURE_NAMES = (
    r"\b(?:(?:key\s+)?(?:primary|secondary|tertiary|exploratory|additional|other|efficacy|"
    r"period\s+\d+)\s+" + _KIND_OF_MEASURE + r"(?:variables?|parameters?)\b|"
    r"(?:key\s+)?(?:primary|secondary|tertiary|exploratory)\s+" + _KIND_OF_MEASURE + r"measures?\b)"
)
# "Efficacy Assessments and Variables", "Safety and Pharmacokinetic Parameters": a section of
# the study's variables, where its endpoints are printed even when its title also names the
# assessments ("Efficacy Measures" alone titles the instruments; see above).
_KIND = r"(?:efficacy|safety|pharmacokinetic|pharmacodynamic)"
_VARIABLES_TITLE = re.compile(
    rf"\b{_KIND}(?:\s+assessments?)?(?:\s*(?:,|and|&|/)\s*{_KIND})*\s+(?:and\s+)?"
    r"(?:variables|parameters)\s*$",
    re.IGNORECASE,
)
# "Efficacy Measures", "Efficacy and Safety Measures": where some protocols print their endpoints
# under level headings, and others describe their instruments; only endpoints a level heads are
# read from such a section.
_MEASURES_SECTION = re.compile(rf"(?<!other\s)\b{_KIND}(?:\s*(?:,|and|&|/)\s*{_KIND})*\s+measures\s*$", re.IGNORECASE)
# Inside the objectives chapter, a sub-section of measures, variables or parameters is where
# its endpoints are printed ("2.1 Efficacy and Safety Measures"), whatever words stand before.
_MEASURES_TITLE = re.compile(r"\b(?:measures?|variables?|parameters?)\s*$", re.IGNORECASE)
_OBJECTIVE_WORD = re.compile(r"objectives?(?!\s+response)|\baims?\b", re.IGNORECASE)
_ENDPOINT_WORD = re.compile(
    r"end\s?-?points?|outcome\s+measures?|(?:efficacy|safety|primary|secondary|"
    r"exploratory|tertiary|study|trial)\s+outcomes?\b|" + _MEASURE_NAMES,
    re.IGNORECASE,
)
_SYNOPSIS = re.compile(r"synopsis|protocol\s+summary|summary\s+of\s+(?:the\s+)?protocol|^\s*summary\s*$", re.IGNORECASE)
# Titles that name objectives or endpoints without listing them: why they were chosen, how
# they are analysed, who adjudicates them, a tumour-response measure, the estimands.
_NOT_A_LIST = re.compile(
    r"rationale|justification|analys[ie]s\s+of|end\s?-?points?\s+analys[ie]s|adjudicat|committee|reporting|"
    r"estimand|objective\s+response|reported\s+outcome|definition|assessment",
    re.IGNORECASE,
)
# Titles that mention objectives but are no objectives section.
_NOT_ROOT = re.compile(r"objective\s+response|analys[ie]s\s+of|justification|rationale\s+for", re.IGNORECASE)
# Sub-headings inside an objectives section that open no group of objectives ("Patient-reported
# outcomes" does group them; "Definitions" or "Analysis of ..." does not).
_NOT_UNDER_OBJECTIVES = re.compile(
    r"rationale|justification|definitions?\b|analys[ie]s|committee|adjudicat", re.IGNORECASE
)
# Headings and bold labels that open something else inside an objectives section.
_OTHER_BLOCK = re.compile(r"hypothes[ie]s|estimand|rationale|justification", re.IGNORECASE)
_CROSS_REFERENCE = re.compile(
    r"\b(?:see|refer\s+to|described\s+in|listed\s+in|defined\s+in|provided\s+in)\s+"
    r"(?:the\s+)?(?:section|appendix|table)\s+\S+",
    re.IGNORECASE,
)
# "... and Associated Estimand(s)": the ICH M11 template's objectives headings name the estimands
# each objective carries ("3.1 Primary Objective(s) and Associated Estimand(s)"); the heading
# still lists objectives, and the words are no part of its level label.
_AND_ESTIMANDS = re.compile(
    r"\s*(?:,|\band\b|&)?\s*(?:(?:the|their|associated)\s+)*estimands?(?:\s*\(s\))?", re.IGNORECASE
)
# The attributes by which an estimand is described under its objective (ICH E9(R1), as the M11
# template labels them): "Population:", "Treatment:", "Intercurrent Event(s):", "Population-Level
# Summary:" ... A line so labelled describes the estimand, not another objective.
_ESTIMAND_ATTRIBUTE = re.compile(
    r"^(?:(?:target|analysis)\s+)?population(?:-level\s+summary|\s+level\s+summary)?$|"
    r"^(?:treatment|intervention)s?(?:\s+conditions?)?$|^intercurrent\s+events?|"
    r"^(?:remaining\s+)?intercurrent|^(?:population[-\s]level\s+)?summary\s+measure|"
    r"^strateg(?:y|ies)\b|^estimand\b|^variable$",
    re.IGNORECASE,
)
_EMPTY = re.compile(r"^(?:not\s+applicable|none|n/?a|not\s+done|tbd)\.?$", re.IGNORECASE)
# "The primary endpoint is ...", "The secondary efficacy outcomes are ...": a paragraph that states
# an endpoint (as opposed to prose about how it is measured or analysed).
# "Each endpoint is summarized by ...", "The endpoints are analysed ...": prose about how the
# endpoints are handled, not an endpoint.
_HANDLES_ENDPOINTS = re.compile(
    r"\b(?:is|are|will\s+be)\s+(?:summari[sz]ed|analy[sz]ed|listed|presented|reported|"
    r"tested|compared|estimated)\b",
    re.IGNORECASE,
)  # ("is defined as" states one)
_STATES_ENDPOINT = re.compile(
    r"^(?:the|an?|this|each)?\s*(?:\S+\s+){0,3}(?:end\s?-?points?|outcomes?|"
    r"(?<=efficacy\s)(?:parameters?|variables?))\s+"
    r"(?:is|are|was|include|includes|of\s+th(?:is|e)|for\s+th(?:is|e)|will\s+be|addressing)\b",
    re.IGNORECASE,
)
# "The primary objectives of this study are": a lead-in that only announces the list.
_ANNOUNCES_OBJECTIVES = re.compile(
    r"^(?:the|an?)?\s*(?:\S+\s+){0,3}objectives?\s+(?:(?:of|for)\s+(?:this|the)\s+"
    r"(?:study|trial|protocol)\s+)?(?:are|is|include|includes)(?:\s+the\s+following)?\s*:?$",
    re.IGNORECASE,
)
# "To compare ...", "The objective of this study is to ...": a paragraph that states an objective,
# whether or not a level is printed near it.
_STATES_OBJECTIVE = re.compile(
    r"^(?:to\s+[a-z]+\b|(?:the|an?)\s+(?:\S+\s+){0,3}objectives?\s+(?:(?:of|for)\s+"
    r"(?:this|the)\s+(?:study|trial|protocol)\s+)?(?:is|are|will\s+be)\s+to\b)",
    re.IGNORECASE,
)
# "Four key secondary objectives are ...", "the following objectives": a lead naming the
# objectives it lists (plural: "The objective is to assess X on:" is one objective).
_OBJECTIVES_NAMED = re.compile(r"\bobjectives\b", re.IGNORECASE)
# "To assess the effect of X on each of the following:": one objective for each item.
_EACH_OF = re.compile(r"\beach\s+of\s+the\s+following\b", re.IGNORECASE)
# A capital "To" and a verb inside a sentence, after a word: the next objective statement, run
# into the paragraph (a layer that lost the paragraph break).
_GLUED_STATEMENTS = re.compile(r"(?<=[a-z0-9)\]])\s+(?=To\s+[a-z]{3,}\b)")
# "In adults with CKD, to assess ...": an objective's verb after an opening phrase.
_TO_VERB = re.compile(r"(?:^|[,;]\s*)to\s+[a-z]{3,}\b", re.IGNORECASE)
# "... are as follows:" -- a sentence announcing a list (a label such as "Safety parameters:" is not).
_ANNOUNCES_LIST = re.compile(r"\b(?:are|is|include[sd]?|as\s+follows|following)\s*:$", re.IGNORECASE)
_SUBGROUPS = re.compile(r"\bsub-?groups?\b", re.IGNORECASE)
_DEFINITIONS = re.compile(r"\bdefinitions?\b|\bdefined\b", re.IGNORECASE)
_LIST_MARK = re.compile(r"^(?P<indent>\s*)(?:[-*+]|\d{1,2}[.)]|\(\d{1,2}\)|\([a-z]\)|[a-z][.)])\s+")
# Bullet glyphs left in the text after the list marker: a lone symbol, a Wingdings letter.
_GLYPH = re.compile(r"^(?:[^\w\s(\[\"'\u201c]|[o\u00a7\u00d8](?=\s))\s*")
_TABLE_PLACEHOLDER = re.compile(r"^\[(?:Table\b[^\]]*)\]$")
_IMAGE_PLACEHOLDER = re.compile(r"^\[(?:Image|Figure)\b[^\]]*\]$")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s")
# A whole line in bold, italics or underline: the layout model's way of printing a lead-in label.
_EMPHASIS_LINE = re.compile(r"^\s*(?:\*\*|__|<u>|<b>|_)(?P<body>.+?)(?:\*\*|__|</u>|</b>|_)\s*:?\s*$")
# "**Primary Objective:** text" or "**Objective** : text": a label glued to its item.
_LEAD_LABEL = re.compile(r"^\s*(?:\*\*|__)(?P<label>[^*_]{1,60}?)\s*:?\s*(?:\*\*|__)\s*:?\s*(?P<rest>\S.*)$")
_LABEL_WORDS = re.compile(
    r"\b(?:study|trial|objectives?|end\s?-?points?|outcomes?|and|hypothes[ie]s|variables?|"
    r"parameters?|measures?)\b|\(s\)|\(es\)|&",
    re.IGNORECASE,
)
_BULLET_LINE = re.compile(
    r"^\s*(?:[\u2022\u25aa\u25cf\u2023\u2043\uf0b7\uf0a7\uf0d8\uf076\u27a2\u25e6\-\u2013]|\d{1,2}[.)])\s*(?P<rest>.*)$"
)
_SUB_BULLET_LINE = re.compile(r"^\s*(?:o|\u25e6|\uf06f|-)\s+(?P<rest>.*)$")
_INDENT_STEP = 6.0  # points: a list item this much right of its list's left edge is a sub-item
# The raw Markdown pipe tables of blocks.json: a cell between unescaped pipes, its lines split at <br>.
_PIPE = re.compile(r"(?<!\\)\|")
_PIPE_SEPARATOR = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$")
_BR = re.compile(r"<br\s*/?>", re.IGNORECASE)
# A cell line's list mark that ``strip_markup`` drops when the converter cleans the cell (so the
# table in document.json no longer shows it): the same pattern as ``markup._BULLET``.
_DROPPED_BULLET = re.compile(r"^\s*[-*+\u2022\u25aa\u25cf]\s+")


# ---------------------------------------------------------------------------------------------
# Small text helpers


def plain(text: str) -> str:
    """Markdown-free text of a paragraph or list item, bullet marks and glyphs removed."""
    text = _LIST_MARK.sub("", text, count=1)
    text = strip_markup(text)
    text = _GLYPH.sub("", text, count=1)
    return " ".join(text.split())


def level_of(text: str) -> tuple[str, str] | None:
    """(level, printed word) of the level word in ``text``; None when there is none, or when
    the text names several levels ("Primary and Secondary Objectives")."""
    found = _LEVEL.findall(text or "")
    if not found or len({_LEVEL_OF[" ".join(w.split()).lower().split()[-1]] for w in found}) > 1:
        return None
    m = _LEVEL.search(text)
    word = " ".join(m.group(1).split())
    key = word.lower().split()[-1]
    return _LEVEL_OF[key], word.title() if word.isupper() or word.islower() else word


def label_of(heading: str) -> str:
    """The printed level label of a heading: "Primary Efficacy Objective" -> "Primary Efficacy"."""
    text = re.sub(r"\([^)]*\)", " ", plain(heading))  # "(North America sites only)"
    text = _LABEL_WORDS.sub(" ", text)
    text = re.sub(r"^\W+|\W+$", "", " ".join(text.replace(":", " ").split()))
    return text.title() if text.isupper() else text


def join_lines(lines: list[str]) -> str:
    """Lines of a table cell joined as one text; a word split at a line-end hyphen stays split."""
    out = ""
    for line in (l.strip() for l in lines):
        if not line:
            continue
        out = line if not out else (out + line if out.endswith("-") else out + " " + line)
    return out


# ---------------------------------------------------------------------------------------------
# Units: the Markdown of a section cut into headings, paragraphs, list items and tables


@dataclass
class Unit:
    kind: str  # "heading" | "para" | "item" | "table"
    text: str = ""
    indent: int = 0
    table: dict | None = None
    label: str = ""  # a bold label glued to the start of a paragraph or item
    glyph: str = ""  # the bullet glyph an item prints after its list mark ("!", a Wingdings dot)
    marker: str = ""  # the item's printed ordinal ("2.", "(b)", "a.") or list mark ("-")


_ORDINAL = re.compile(r"^\s*(\(\d{1,2}\)|\d{1,2}[.)]|\([a-z]\)|[a-z][.)])(?=\s)")


def _marker_of(line: str, mark: re.Match | None) -> str:
    """The ordinal a line prints ("2." of "2. text", "(b)" of "- (b) text" or of "(b) text"),
    else its list mark ("-"), else ""."""
    own = mark.group(0).strip() if mark else ""
    if _ORDINAL.match(own + " "):
        return own
    found = _ORDINAL.match(line[mark.end() :] if mark else line)
    return found.group(1) if found else own


def _arabic(marker: str) -> int | None:
    m = re.fullmatch(r"\(?(\d{1,2})[.)]", marker)
    return int(m.group(1)) if m else None


def units_of(section: dict) -> list[Unit]:
    tables = list(section.get("tables") or [])
    units: list[Unit] = []
    for raw in (section.get("text") or "").split("\n"):
        line = raw.rstrip()
        if not line.strip():
            continue
        stripped = line.strip()
        if _TABLE_PLACEHOLDER.match(stripped):
            if tables:
                units.append(Unit("table", table=tables.pop(0)))
            continue
        if _IMAGE_PLACEHOLDER.match(stripped) or stripped.startswith(">"):
            continue  # pictures; footnotes set as quotes
        if _HEADING.match(line):
            units.append(Unit("heading", plain(line)))
            continue
        mark = _LIST_MARK.match(line)
        kind = "item" if mark else "para"
        body = line[mark.end() :] if mark else line
        body = re.sub(r"^\s*(?:\(\d{1,2}\)|\d{1,2}[.)])\s+", "", body)  # "- (1) ...": a printed number
        emph = _EMPHASIS_LINE.match(body)
        if kind == "para" and emph and len(plain(body).split()) <= 10 and not plain(body).endswith("."):
            units.append(Unit("heading", plain(body)))  # a bold/underlined lead-in line
            continue
        label = ""
        lead = _LEAD_LABEL.match(body)
        if lead and len(lead["label"].split()) <= 6:
            label, body = lead["label"].strip(), lead["rest"]
            if not plain(body):
                units.append(Unit("heading", label))
                continue
        text = plain(body)
        if not text:
            continue
        glyph = _GLYPH.match(strip_markup(body)) if mark else None
        units.append(
            Unit(
                kind,
                text,
                indent=len(mark["indent"]) if mark else 0,
                label=label,
                glyph=glyph.group(0).strip() if glyph else "",
                marker=_marker_of(line, mark),
            )
        )
    for table in tables:  # tables the text did not place: read them after the text
        units.append(Unit("table", table=table))
    return units


# ---------------------------------------------------------------------------------------------
# Items as read, before objectives and endpoints are put together


@dataclass
class Item:
    kind: str  # OBJECTIVE | ENDPOINT
    level: str
    label: str
    text: str
    section: dict
    endpoints: list[Item] = field(default_factory=list)
    printed: bool = True  # the level was printed (by the item, its heading, row or column)


@dataclass
class Context:
    kind: str | None  # OBJECTIVE, ENDPOINT, or None when the section title says neither
    level: str | None = None
    label: str = ""
    explicit: bool = False  # the level was printed (not defaulted)


def _context_from_title(title: str, parent: Context) -> Context:
    kind = parent.kind
    has_obj, has_ep = bool(_OBJECTIVE_WORD.search(title)), bool(_ENDPOINT_WORD.search(title))
    if has_ep and not has_obj:
        kind = ENDPOINT
    elif has_obj and not has_ep:
        kind = OBJECTIVE
    found = level_of(title)
    if found:
        return Context(kind, found[0], label_of(title) or found[1], True)
    label = label_of(title)
    if label and kind and has_obj != has_ep and len(label.split()) <= 3:
        return Context(kind, None, label, False)  # "Safety Objective": a category, no level
    return Context(kind, parent.level, parent.label, parent.explicit)


class Reader:
    """Reads one document's objectives and endpoints (see module docstring)."""

    def __init__(self, document: dict, tracer: Tracer):
        self.document = document
        self.tracer = tracer
        self.diagnostics: list[dict] = []
        self._items_endpoint_lead = False  # objectives in this document list their endpoints
        self._block_states = False  # the block being read has a paragraph stating an objective
        self._raw_cells: dict[tuple[int, ...], dict[tuple[str, ...], list[list[str]]]] = {}

    # -- section choice ------------------------------------------------------------------------

    def body_sections(self) -> list[tuple[dict, list[dict]]]:
        """(section, ancestors) in reading order, the synopsis and its subsections left out."""
        out: list[tuple[dict, list[dict]]] = []

        def walk(sections, ancestors):
            for s in sections:
                if _SYNOPSIS.search(s.get("title") or ""):
                    continue
                out.append((s, ancestors))
                walk(s.get("subsections") or [], ancestors + [s])

        walk(self.document.get("toc") or [], [])
        if not out:  # no printed contents: the sections the parser found are the body
            walk(self.document.get("non_toc") or [], [])
        return out

    def synopsis_sections(self) -> list[dict]:
        out = []

        def walk(sections, inside):
            for s in sections:
                now = inside or bool(_SYNOPSIS.search(s.get("title") or ""))
                if now:
                    out.append(s)
                walk(s.get("subsections") or [], now)

        walk(self.document.get("toc") or [], False)
        walk(self.document.get("non_toc") or [], False)
        return out

    def objectives_root(self) -> dict | None:
        """The first body section whose title names objectives (its subsections with it)."""
        for section, _ in self.body_sections():
            title = section.get("title") or ""
            if _OBJECTIVE_WORD.search(title) and not _NOT_ROOT.search(title):
                return section
        return None

    def endpoint_sections(self, root: dict | None) -> list[dict]:
        """Topmost body sections, outside ``root``, whose titles name endpoints."""
        out: list[dict] = []
        inside_root = set()
        if root is not None:
            stack = [root]
            while stack:
                s = stack.pop()
                inside_root.add(id(s))
                stack.extend(s.get("subsections") or [])
        for section, ancestors in self.body_sections():
            title = section.get("title") or ""
            if id(section) in inside_root or any(id(a) in {id(o) for o in out} for a in ancestors):
                continue
            listed = (
                (_ENDPOINT_WORD.search(title) and not _NOT_A_LIST.search(title))
                or _VARIABLES_TITLE.search(title)
                or _MEASURES_SECTION.search(title)
            )
            if listed and not any(_NOT_ROOT.search(a.get("title") or "") for a in ancestors):
                out.append(section)
        return out

    # -- reading sections ----------------------------------------------------------------------

    def read_tree(self, section: dict, parent: Context, top: bool = True) -> list[Item]:
        """Items of ``section`` and its subsections. Below the top, a subsection whose title says
        something else (rationale, estimands, benefit-risk) is left out; one whose title names no
        objective, endpoint or level keeps its parent's kind only when the title is short."""
        title = _objectives_title(section.get("title") or "")
        context = None
        if not top:
            named = _OBJECTIVE_WORD.search(title) or _ENDPOINT_WORD.search(title) or _LEVEL.search(title)
            if not named and _MEASURES_TITLE.search(title) and not _OTHER_BLOCK.search(title):
                # a section of measures, variables or parameters ("Efficacy Assessments and Variables" too)
                context = _context_from_title(title, Context(ENDPOINT, parent.level, parent.label, parent.explicit))
            elif _NOT_A_LIST.search(title) or (_OTHER_BLOCK.search(title) and not _OBJECTIVE_WORD.search(title)):
                return []
            elif not named and len(title.split()) > 3:
                return []
        context = context or _context_from_title(title, parent)
        items = self.read_units(units_of(section), context, section)
        for sub in section.get("subsections") or []:
            items.extend(self.read_tree(sub, context, top=False))
        return items

    def read_units(self, units: list[Unit], context: Context, section: dict) -> list[Item]:
        """Items of one section's units; headings and lead-in labels move the context."""
        items: list[Item] = []
        block: list[Unit] = []
        current = context
        skipping = False  # under a heading that opens something else (hypotheses, a scale ...)
        last_table = None  # the last objectives table's rows and layout, for its continuation
        table_items: list[Item] = []
        endpoint_name_layout = False  # level headings followed by one heading per endpoint
        just_leveled = False  # the last unit was a level heading

        def flush():
            if block and not skipping:
                items.extend(self.read_block(block, current, section))
            block.clear()

        for unit in units:
            if unit.kind == "heading":
                flush()
                heading = unit.text
                if _OTHER_BLOCK.search(heading) and not _OBJECTIVE_WORD.search(heading):
                    skipping = True
                    continue
                has_obj, has_ep = bool(_OBJECTIVE_WORD.search(heading)), bool(_ENDPOINT_WORD.search(heading))
                found = level_of(heading)
                if found and len(heading.split()) <= 8:
                    current = _context_from_title(heading, Context(current.kind))
                    skipping = False
                    endpoint_name_layout = False
                    just_leveled = True
                    continue
                elif has_obj or has_ep:
                    current = _context_from_title(
                        heading, Context(current.kind, current.level, current.label, current.explicit)
                    )
                    skipping = False
                elif current.kind == ENDPOINT and current.level and not endpoint_name_layout and just_leveled:
                    # A level heading, then a heading naming each endpoint, its definition below.
                    endpoint_name_layout = True
                    items.append(self.make(ENDPOINT, current, heading, section))
                    skipping = True
                elif endpoint_name_layout:
                    items.append(self.make(ENDPOINT, current, heading, section))
                    skipping = True
                elif current.kind == OBJECTIVE and not _NOT_UNDER_OBJECTIVES.search(heading):
                    # "Period 1", "Effect-related:": a sub-heading that names no level groups the
                    # objectives of the level in force, which carries on under it.
                    skipping = False
                else:
                    skipping = True
                just_leveled = False
                continue
            just_leveled = False
            if unit.kind == "table":
                flush()
                found, last_table = self.read_table(unit.table, current, section, last_table)
                if not found and current.kind == ENDPOINT:
                    found = self.read_endpoint_table(unit.table, current, section)
                items.extend(found)
                table_items.extend(found)
                continue
            if unit.label:
                label = unit.label
                if _OTHER_BLOCK.search(label) or _ESTIMAND_ATTRIBUTE.search(plain(label).rstrip(": ")):
                    continue  # "Hypothesis: ..." printed after an objective; an estimand's attribute
                if level_of(label) or _ENDPOINT_WORD.search(label) or _OBJECTIVE_WORD.search(label):
                    flush()
                    current = _context_from_title(
                        label, Context(current.kind, current.level, current.label, current.explicit)
                    )
                    skipping = False
            if skipping:
                continue
            block.append(unit)
        flush()
        if table_items:  # when the objectives are tabulated, the text around the table is commentary
            return [i for i in items if any(i is t for t in table_items)]
        return items

    # -- one block: the paragraphs and list items under one heading ----------------------------

    def read_block(self, block: list[Unit], context: Context, section: dict) -> list[Item]:
        block = self._joined_continuations(block)
        block = [u for u in block if not _EMPTY.match(u.text) and not self._is_cross_reference(u.text)]
        block = self._without_other_statements(block)
        groups = self._groups(block, section)
        kind = context.kind
        if kind is None:
            return []
        items: list[Item] = []
        # Paragraphs between lists are notes when the block's objectives are bare list items; when
        # every list hangs from a lead-in sentence, a paragraph on its own is an objective too.
        has_items = any(lead is None or _ANNOUNCES_OBJECTIVES.match(lead.text) for lead, members in groups if members)
        # When some paragraph states an objective ("To compare ...", "The primary objective is to
        # ..."), the paragraphs that state none beside it are commentary on it.
        self._block_states = any(lead is not None and _STATES_OBJECTIVE.match(lead.text) for lead, _ in groups)
        for lead, members in groups:
            if kind == OBJECTIVE:
                items.extend(self._objectives_of(lead, members, has_items, context, section))
            else:
                items.extend(self._endpoints_of(lead, members, has_items, context, section))
        return items

    def _objectives_of(
        self, lead: Unit | None, members: list[str], has_items: bool, context: Context, section: dict
    ) -> list[Item]:
        if lead is None:
            return [self.make(OBJECTIVE, context, text, section) for text in members]
        lead_text = _cut_hypothesis(lead.text)
        states = bool(_STATES_OBJECTIVE.match(lead_text))
        glued = _GLUED_STATEMENTS.split(lead_text) if states and not members else []
        if len(glued) > 1:
            # "To assess X To characterize Y": statements run into one paragraph by the text layer
            return [self.make(OBJECTIVE, context, text, section) for text in glued]
        if not members:
            if has_items or lead_text.endswith(":"):
                return []
            if not states and (self._block_states or not self._has_level(context, lead_text)):
                return []
            return [self.make(OBJECTIVE, context, lead_text, section)]
        if _ANNOUNCES_OBJECTIVES.match(lead_text):
            return [self.make(OBJECTIVE, context, text, section) for text in members]
        if (
            _ENDPOINT_WORD.search(lead_text) and (states or _OBJECTIVE_WORD.search(lead_text))
        ) or self._items_endpoint_lead:
            # "... on the basis of the following endpoints:" -- the bullets are its endpoints.
            self._items_endpoint_lead = True
            objective = self.make(OBJECTIVE, context, lead_text, section)
            for text in members:
                # its objective's level, which the objective's own words may have given
                endpoint = self.make(ENDPOINT, _under(objective), text, section)
                objective.endpoints.append(endpoint)
            return [objective]
        if lead_text.endswith(":") and (
            _OBJECTIVES_NAMED.search(lead_text) or len(lead_text.split()) <= 3 or _EACH_OF.search(lead_text)
        ):
            # "Four key secondary objectives are to compare A with B for:", "Additionally:": a
            # lead-in announcing a list of objectives; each item is one.
            return [self.make(OBJECTIVE, context, text, section) for text in members]
        if states or _TO_VERB.search(lead_text) or not lead_text.endswith(":"):
            # One objective whose sentence runs on into its list ("To compare X with Y on:",
            # "In adults with CKD, to assess X in reducing:" + the outcomes).
            return [self.make(OBJECTIVE, context, " ".join([lead_text] + members), section)]
        # "... will be evaluated for subgroups defined by the following characteristics:": a
        # list of something else.
        return []

    def _endpoints_of(
        self, lead: Unit | None, members: list[str], has_items: bool, context: Context, section: dict
    ) -> list[Item]:
        if lead is None:
            return [self.make(ENDPOINT, context, text, section) for text in members]
        if members:
            if _DEFINITIONS.search(lead.text) and not _STATES_ENDPOINT.search(lead.text):
                return []  # "The definitions for each component ... are:" + the definitions
            if _SUBGROUPS.search(lead.text):
                return []  # "... will be examined in subgroups defined by the following factors:"
            return [self.make(ENDPOINT, context, text, section) for text in members]
        if lead.text.endswith(":"):
            return []
        if _CROSS_REFERENCE.search(_first_clause(lead.text)):
            return []  # "Additional efficacy variables are listed in Section 5.3.3.1.3 ...": a pointer
        if _STATES_ENDPOINT.search(lead.text) and _HANDLES_ENDPOINTS.search(_first_clause(lead.text)):
            return []
        if _STATES_ENDPOINT.search(lead.text) or (lead.label and _ENDPOINT_WORD.search(lead.label)):
            # "The primary endpoint is ..." or "**Endpoint:** change from baseline in ..."
            return [self.make(ENDPOINT, context, lead.text, section)]
        if _names_a_measure(lead.text):
            # "Change from randomisation to week 68 in body weight (%)" alone under "Primary
            # endpoint": a measure named, not prose about one.
            return [self.make(ENDPOINT, context, lead.text, section)]
        return []

    @staticmethod
    def _without_other_statements(block: list[Unit]) -> list[Unit]:
        """Leave out an estimand or hypothesis stated among the objectives, with the list it leads."""
        out: list[Unit] = []
        dropping = False
        for unit in block:
            if unit.kind == "para":
                dropping = bool(_OTHER_BLOCK.search(_first_clause(unit.text)))
            if not dropping:
                out.append(unit)
        return out

    @staticmethod
    def _has_level(context: Context, text: str) -> bool:
        return bool(context.level or context.label or level_of(_first_clause(text)))

    @staticmethod
    def _is_cross_reference(text: str) -> bool:
        return bool(_CROSS_REFERENCE.search(text)) and len(text.split()) <= 15

    @staticmethod
    def _joined_continuations(block: list[Unit]) -> list[Unit]:
        """A paragraph broken by a page turn continues in lower case: join it back."""
        out: list[Unit] = []
        for unit in block:
            if (
                out
                and unit.kind == "para"
                and out[-1].kind == "para"
                and unit.text[:1].islower()
                and not out[-1].text.endswith((".", ":"))
            ):
                out[-1] = Unit("para", out[-1].text + " " + unit.text, label=out[-1].label)
            elif out and unit.kind == "para" and unit.text[:1].islower() and out[-1].kind == "item":
                # "and to assess ...:" (or "(c) a three-category ...") keeps a list going
                out.append(Unit("item", unit.text, indent=99, marker=unit.marker))
            else:
                out.append(unit)
        return out

    def _groups(self, block: list[Unit], section: dict) -> list[tuple[Unit | None, list[str]]]:
        """(lead-in paragraph or None, list item texts) in order; sub-items joined into their item.

        A paragraph followed by list items is their lead-in; list items with no paragraph before
        them form a group of their own; a paragraph followed by a paragraph stands alone."""
        groups: list[tuple[Unit | None, list[Unit]]] = []
        for unit in block:
            if unit.kind == "para":
                if (
                    groups
                    and groups[-1][0] is not None
                    and groups[-1][1]
                    and groups[-1][0].text.endswith(":")
                    and unit.text[:1].islower()
                ):
                    groups[-1][1].append(Unit("item", unit.text, indent=99))
                    continue
                groups.append((unit, []))
            elif groups and (
                groups[-1][0] is None
                or groups[-1][0].text.endswith(":")
                or groups[-1][0].text.endswith(tuple("abcdefghijklmnopqrstuvwxyz"))
                or groups[-1][1]
            ):
                groups[-1][1].append(unit)
            else:
                groups.append((None, [unit]))
        return [(lead, self._nest(members, section)) for lead, members in groups]

    def _nest(self, members: list[Unit], section: dict) -> list[str]:
        """Item texts with each sub-item joined into the item it hangs from.

        An item ending in ":" opens sub-items; the items after it are its sub-items when they are
        indented (in the Markdown, or on the page per the tracer) or start in lower case."""
        if not members:
            return []
        xs = [self._left_edge(u.text, section) for u in members]
        known = [x for x in xs if x is not None]
        left = min(known) if known else None
        out: list[str] = []
        opener = False  # the last top-level item ended in ":" -- what follows may hang from it
        # A list whose items print a glyph after their mark ("- ! Lipids (mg/dL)") and some items
        # without one: those are the sub-items of the glyph item before them (two levels of
        # bullets, told apart by the glyph the page prints).
        glyphs = {u.glyph for u in members if u.glyph}
        two_levels = len(glyphs) == 1 and members[0].glyph and any(not u.glyph for u in members)
        # A list numbered 1, 2, 3 ...: an item that does not carry the count on ("(b)", "a.", a
        # "1." restarting under item 5, a bullet) belongs to the numbered item above it.
        expected = _arabic(members[0].marker)
        numbered = expected is not None and any(_arabic(u.marker) != expected + k for k, u in enumerate(members))
        for unit, x in zip(members, xs):
            if numbered and out:
                if _arabic(unit.marker) == expected + 1:
                    expected += 1
                    out.append(unit.text)
                else:
                    out[-1] = out[-1] + " " + unit.text
                continue
            if out and two_levels and not unit.glyph:
                out[-1] = out[-1] + " " + unit.text
                continue
            indented = unit.indent > members[0].indent or (
                x is not None and left is not None and x > left + _INDENT_STEP
            )
            at_left = (
                unit.indent == members[0].indent and x is not None and left is not None and x <= left + _INDENT_STEP
            )
            if out and opener and (indented or unit.text[:1].islower() or not at_left):
                out[-1] = out[-1] + " " + unit.text  # a sub-item (or one that cannot be placed)
                continue
            out.append(unit.text)
            opener = unit.text.endswith(":")
        return out

    def _left_edge(self, text: str, section: dict) -> float | None:
        first, last = _page_range(section)
        found = self.tracer.trace(text, first, last)
        boxes = found.get("boxes") or []
        if not boxes or not boxes[0].get("bbox"):
            return None
        return float(boxes[0]["bbox"][0])

    # -- tables ---------------------------------------------------------------------------------

    def read_table(
        self, table: dict, context: Context, section: dict, previous: tuple[list[Item], tuple, Context] | None = None
    ) -> tuple[list[Item], tuple | None]:
        """Objectives (with their endpoints) of an objectives-and-endpoints table, and the table's
        layout for a continuation. A table with no objective/endpoint header right after one of the
        same width is its continuation over a page break: its header is a data row."""
        header = [plain(str(c or "")) for c in table.get("columns") or []]
        raw_header = [str(c or "") for c in table.get("columns") or []]
        rows = [[str(c or "") for c in row] for row in table.get("data") or []]
        objective_col, endpoint_col = _columns(header, rows)
        if (objective_col is None or endpoint_col is None) and rows:  # the header may be the first data row
            first = [plain(c) for c in rows[0]]
            objective_col, endpoint_col = _columns(first, rows[1:])
            if objective_col is not None and endpoint_col is not None:
                header, rows = first, rows[1:]
        raw_cells = self._raw_cells_of(table, section)
        items: list[Item] = []
        level_col = None
        cell_label: str | None = None
        # The section's level is a default: a row's own words ("A secondary objective ...") win.
        current = Context(OBJECTIVE, context.level, context.label, False)
        if objective_col is None or endpoint_col is None or objective_col == endpoint_col:
            if previous is None or len(raw_header) != len(previous[1][3]):
                return [], None
            items, (objective_col, endpoint_col, level_col, header), current = previous
            rows = [raw_header] + rows
            items = list(items)
            start = len(items)
        else:
            level_col = next(
                (
                    i
                    for i, h in enumerate(header)
                    if re.search(r"level|type|category", h, re.IGNORECASE) and i not in (objective_col, endpoint_col)
                ),
                None,
            )
            start = 0
        estimand_rows = False  # under a spanning "Supplementary (Primary Estimand)" row
        held: list = []  # endpoints of a row whose objective cell held only its level
        numbered = False  # the table numbers its objectives ("1. To describe ...")
        estimands = False  # the endpoint cells print estimands ("Population: ... Endpoint: ...")
        for row in rows:
            cells = [c.strip() for c in row]
            if [plain(c) for c in cells] == header:
                continue  # the header repeated after a page break
            filled = {c for c in cells if c}
            if len(filled) == 1 and len(plain(next(iter(filled))).split()) <= 6:
                only = plain(next(iter(filled)))
                if _OTHER_BLOCK.search(only):
                    estimand_rows = True  # an estimand restating an objective above: no objective
                    continue
                if level_of(only):
                    current = _context_from_title(only, Context(OBJECTIVE))
                    estimand_rows = False
                    continue  # a spanning level row
            if estimand_rows:
                continue
            objective_only = plain(cells[objective_col]) if objective_col < len(cells) else ""
            if _is_level_label_cell(objective_only):
                # "Exploratory" alone in the objective cell, its objective on the rows below (the
                # cell wrapped over a page break): the level of the next objective, which also
                # takes this row's endpoints.
                current = _context_from_title(objective_only + " objective", Context(OBJECTIVE))
                held, _ = _cell_items(
                    _with_bullets(cells[endpoint_col], raw_cells) if endpoint_col < len(cells) else ""
                )
                continue
            objective_cell = cells[objective_col] if objective_col < len(cells) else ""
            endpoint_cell = _with_bullets(cells[endpoint_col], raw_cells) if endpoint_col < len(cells) else ""
            if level_col is not None and level_col < len(cells) and level_of(cells[level_col]):
                # A "Category" column that holds "Efficacy" or "Safety" names no level: the
                # spanning level row above stays in force.
                current = _context_from_title(plain(cells[level_col]), Context(OBJECTIVE))
            lines = [l for l in objective_cell.split("\n")]
            labelled = False
            if (
                lines
                and re.search(r"[A-Za-z]{3}", lines[0])
                and not _is_bullet(lines[0])
                and len(plain(lines[0]).split()) <= 3
                and len(lines) > 1
                and not plain(lines[0]).endswith((".", ","))
                and lines[0].strip()[:1].isupper()
                and not _STATES_OBJECTIVE.match(plain(lines[0]))
                and not lines[1].strip()[:1].islower()
            ):
                # (A first line "To explore biomarkers" wrapping on in lower case is the
                # objective's own start, not a label.)
                # "Primary" / "Safety" on the cell's first line: the level of this and later rows
                current = _context_from_title(plain(lines[0]) + " objective", Context(OBJECTIVE))
                lines = lines[1:]
                labelled = True
            objective_text = plain(join_lines([_strip_bullet(l) for l in lines]))
            has_number = bool(_ROW_NUMBER.match(objective_cell))
            # A row whose objective cell is empty, or goes on in lower case without a bullet of
            # its own, continues the previous row: a page break or a wrapped line split it. So
            # does one with no number of its own in a table that numbers its objectives.
            continues = not objective_text or (
                not labelled
                and not _is_bullet(objective_cell)
                and (
                    objective_text[:1] in "abcdefghijklmnopqrstuvwxyz("
                    or (numbered and not has_number and not _STATES_OBJECTIVE.match(objective_text))
                )
            )
            numbered = numbered or has_number
            host = items[-1] if items else (previous[0][-1] if previous and previous[0] else None)
            if not (continues and host):
                cell_label = None  # a level printed inside the endpoint cell holds for its objective only
            estimand = _estimand_endpoint(endpoint_cell, estimands)
            estimands = estimands or estimand is not None
            if estimand is not None:
                endpoints = [(estimand, cell_label, False)] if estimand else []
            else:
                endpoints, cell_label = _cell_items(endpoint_cell, cell_label)
            endpoints = [e for e in endpoints if not _EMPTY.match(e[0])]  # "TBD": no endpoint yet
            if continues and host:
                # (a table's first row may go on with the last table's last row)
                if objective_text:
                    host.text = host.text + " " + objective_text
                if endpoints and endpoints[0][2] and host.endpoints:  # a wrapped endpoint line
                    host.endpoints[-1].text += " " + endpoints.pop(0)[0]
                for text, label, _ in endpoints:
                    host.endpoints.append(self._table_endpoint(host, text, label, section))
                continue
            if not objective_text:
                continue
            objective = self.make(OBJECTIVE, current, objective_text, section)
            for text, label, _ in held + endpoints:
                objective.endpoints.append(self._table_endpoint(objective, text, label, section))
            held = []
            items.append(objective)
        return items[start:], (items, (objective_col, endpoint_col, level_col, header), current)

    def read_endpoint_table(self, table: dict, context: Context, section: dict) -> list[Item]:
        """Endpoints of a table with an endpoint column and no objective column ("Endpoint |
        Definition", "Variable | Time point"), printed where endpoints are listed: one per row of
        that column, the level from a spanning row ("Primary Variable", "Secondary Endpoints"),
        from the table's caption, or from the section."""
        header = [plain(str(c or "")) for c in table.get("columns") or []]
        column = _fullest(
            _matching(header, _ENDPOINT_NAME) or _matching(header, _ENDPOINT_COLUMN),
            [[str(c or "") for c in row] for row in table.get("data") or []],
        )
        if column is None:
            return []
        current = (
            _context_from_title(table.get("title") or "", context) if level_of(table.get("title") or "") else context
        )
        items: list[Item] = []
        for row in table.get("data") or []:
            cells = [plain(str(c or "")) for c in row]
            filled = [c for c in cells if c]
            if len(filled) == 1 and level_of(filled[0]) and len(filled[0].split()) <= 6:
                current = _context_from_title(filled[0], Context(ENDPOINT))
                continue
            text = plain(join_lines(str(row[column] or "").split("\n"))) if column < len(row) else ""
            if text and not _EMPTY.match(text):
                items.append(self.make(ENDPOINT, current, text, section))
        return items

    def _raw_cells_of(self, table: dict, section: dict) -> dict[tuple[str, ...], list[list[str]]]:
        """The cells of the raw pipe tables in the blocks on ``table``'s pages (the section's when
        the table gives none), as their <br>-separated lines, by their words."""
        pages = tuple(sorted({p for p in (table.get("pages") or [table.get("page")]) if isinstance(p, int)}))
        if not pages:
            first, last = _page_range(section)
            pages = tuple(range(first, last + 1)) if first is not None and last is not None else ()
        if pages not in self._raw_cells:
            found: dict[tuple[str, ...], list[list[str]]] = {}
            for block in self.tracer.blocks_on(pages):
                for lines in _pipe_cells(block.get("text") or ""):
                    key = tuple(w for line in lines for w in words(strip_markup(line)))
                    if key:
                        found.setdefault(key, []).append(lines)
            self._raw_cells[pages] = found
        return self._raw_cells[pages]

    def _table_endpoint(self, objective: Item, text: str, label: str | None, section: dict) -> Item:
        context = _under(objective)
        if label:  # "Secondary Safety Endpoints" printed inside the endpoint cell
            context = _context_from_title(label, _under(objective))
        return self.make(ENDPOINT, context, text, section)

    # -- items ----------------------------------------------------------------------------------

    def make(self, kind: str, context: Context, text: str, section: dict) -> Item:
        text = " ".join(text.split())
        if kind == OBJECTIVE:
            text = _cut_hypothesis(text)
        level, label = context.level, context.label
        if not context.explicit:
            # No printed level: the item's own words may give it ("The exploratory biomarker
            # objectives ...").
            found = level_of(_first_clause(text))
            if found:
                level, label = found[0], label or found[1]
        # Still none: settled once the whole document is read (``_settle_levels``).
        return Item(
            kind, level or SECONDARY, label or (level or SECONDARY).title(), text, section, printed=level is not None
        )


# A finite verb of prose ("will be assessed", "is defined", "are"): a sentence, not a name.
_PROSE_VERB = re.compile(
    r"\b(?:will|shall|should|must|may|can|is|are|was|were|has\s+been|have\s+been)\b", re.IGNORECASE
)


def _names_a_measure(text: str) -> bool:
    """A short line naming what is measured, as endpoint lists print their items: no full stop,
    no colon, no verb of prose, at most 30 words."""
    return (
        len(text.split()) <= 30
        and not text.rstrip().endswith((".", ":", ";"))
        and not _PROSE_VERB.search(text)
        and text[:1].isupper()
        and "=" not in text
    )  # no formula


def _under(objective: Item) -> Context:
    """The context of an endpoint printed with its objective: the objective's level when it was
    printed; else none yet (it follows the objective's once settled)."""
    return Context(ENDPOINT, objective.level if objective.printed else None, objective.label, True)


_ROW_NUMBER = re.compile(r"^\s*\d{1,2}[.)]\s")
# The attributes by which an estimand is printed in an endpoint cell (ICH E9(R1)): "Population:",
# "Treatment Condition:", "Endpoint:", "Summary Measure:", "Intercurrent Event(s) ...".
_ESTIMAND_LINE = re.compile(
    r"^\s*(?P<name>(?:target\s+|analysis\s+)?population|treatments?(?:\s+conditions?)?|"
    r"endpoints?(?:\s*\(s\))?|variables?|(?:population[-\s]level\s+)?summary\s+measures?|"
    r"intercurrent\s+events?[^:]{0,40})\s*:\s*(?P<rest>.*)$",
    re.IGNORECASE,
)


def _is_level_label_cell(text: str) -> bool:
    """A cell holding only a level ("Exploratory", "Secondary Objective(s)"), no objective."""
    return (
        bool(text)
        and len(text.split()) <= 3
        and bool(level_of(text))
        and not _STATES_OBJECTIVE.match(text)
        and not re.sub(
            r"(?i)\b(?:key|other|primary|secondary|tertiary|exploratory|objectives?|\(s\)|and|/)\b", "", text
        ).strip(" /()")
    )


def _estimand_endpoint(cell: str, in_estimands: bool = False) -> str | None:
    """The endpoint of a cell that prints an estimand by its attributes: the value of its
    "Endpoint:" (or "Variable:") line and the lines that carry it on up to the next attribute;
    "" when such a cell names no endpoint; None when the cell is no estimand. A cell is an
    estimand when it names a population among its attributes or, in a table of estimands
    (``in_estimands``), when it opens with an attribute (the rest of one over a page break)."""
    lines = cell.split("\n")
    labelled = [(i, _ESTIMAND_LINE.match(plain(line))) for i, line in enumerate(lines)]
    labelled = [(i, m) for i, m in labelled if m]
    population = any(m["name"].lower().startswith("population") for _, m in labelled)
    if not (len(labelled) >= 2 and population) and not (in_estimands and labelled and labelled[0][0] == 0):
        return None
    for k, (i, m) in enumerate(labelled):
        if re.match(r"endpoint|variable", m["name"], re.IGNORECASE):
            end = labelled[k + 1][0] if k + 1 < len(labelled) else len(lines)
            return plain(join_lines([m["rest"]] + lines[i + 1 : end]))
    return ""


_ENDPOINT_COLUMN = re.compile(
    r"^(?:end\s?-?points?|variables?|parameters?|outcome\s+measures?|measures?)$", re.IGNORECASE
)
_ENDPOINT_NAME = re.compile(r"end\s?-?points?", re.IGNORECASE)
_ENDPOINT_WORD_CELL = re.compile(r"end\s?-?points?|outcome|measure", re.IGNORECASE)


def _columns(header: list[str], rows: list[list[str]]) -> tuple[int | None, int | None]:
    """(objective column, endpoint column) of a table by its header. Several columns may name
    the same thing: a narrow column of bullet glyphs under a spanning "Objectives" header, an
    "Outcome Measure" column beside "Endpoints". An "endpoint" column is preferred to an
    outcome or measure one, and among equals the column whose cells hold the most words: the
    evidence is what the cells hold, not only what the header says."""
    objective = _fullest(_matching(header, _OBJECTIVE_WORD), rows)
    named = [i for i in _matching(header, _ENDPOINT_NAME) if i != objective]
    endpoint = _fullest(named or [i for i in _matching(header, _ENDPOINT_WORD_CELL) if i != objective], rows)
    return objective, endpoint


def _matching(header: list[str], pattern: re.Pattern) -> list[int]:
    return [i for i, h in enumerate(header) if pattern.search(h)]


def _fullest(candidates: list[int], rows: list[list[str]]) -> int | None:
    """The candidate column with the most words in its cells (the first on a tie)."""
    if len(candidates) <= 1:
        return candidates[0] if candidates else None
    counts = {i: sum(len(words(row[i])) for row in rows if i < len(row)) for i in candidates}
    return max(candidates, key=lambda i: (counts[i], -i))


def _objectives_title(title: str) -> str:
    """A title naming objectives, without the estimands it also names (M11: "Primary Objective(s)
    and Associated Estimand(s)" -> "Primary Objective(s)"); any other title as it is."""
    if not _OBJECTIVE_WORD.search(title):
        return title
    return " ".join(_AND_ESTIMANDS.sub(" ", title).split()) or title


def _first_clause(text: str) -> str:
    return re.split(r"[.:;]", text, maxsplit=1)[0][:120]


def _cut_hypothesis(text: str) -> str:
    """An objective item that also prints its hypothesis ("... Hypotheses: ...") loses it."""
    m = re.search(r"\s+hypothes[ie]s\s*:", text, re.IGNORECASE)
    return text[: m.start()].strip() if m else text


def _strip_bullet(line: str) -> str:
    m = _BULLET_LINE.match(line)
    return m["rest"] if m else line


def _page_range(section: dict) -> tuple[int | None, int | None]:
    pages = section.get("pages") or []
    if not pages:
        return None, None
    return pages[0], pages[-1]


def _pipe_cells(markdown: str) -> list[list[str]]:
    """Every cell of the Markdown pipe table(s) in ``markdown`` as its raw lines (split at <br>)."""
    out = []
    for line in markdown.splitlines():
        line = line.strip()
        if not line.startswith("|") or _PIPE_SEPARATOR.match(line):
            continue
        line = line[1:]
        if line.endswith("|") and not line.endswith("\\|"):
            line = line[:-1]
        out.extend(_BR.split(cell.replace("\\|", "|")) for cell in _PIPE.split(line))
    return out


def _with_bullets(cell: str, raw_cells: dict[tuple[str, ...], list[list[str]]]) -> str:
    """``cell`` with the bullets its raw Markdown printed and the converter's cleaning dropped put
    back ("• " before each line that opened with one), so that ``_cell_items`` reads one endpoint
    per bullet. The raw cell is the one with the same words on the table's pages; with none, or
    several that disagree, or lines that do not line up, the cell is returned as it is.

    Put back only when the bullets list endpoints: they open the cell, or follow a level label
    ("Secondary Endpoints") or a lead-in that announces a list ("... are as follows:"). After a
    label ("Safety parameters:") or a sentence stating one endpoint ("The primary endpoint is
    response ... defined as follows:"), the bullets are that endpoint's parts: one endpoint, as
    the cell without its bullets reads."""
    lines = cell.split("\n")
    counts = [len(words(line)) for line in lines]
    key = tuple(w for line in lines for w in words(line))
    results = set()
    for raw in raw_cells.get(key, []) if key else []:
        starts, at = [], 0  # word offsets at which a dropped bullet opened a line
        for line in raw:
            if _DROPPED_BULLET.match(line):
                starts.append(at)
            at += len(words(strip_markup(line)))
        opened = {s for s in starts if s < len(key)}  # a bullet on a line of its own opens the next
        out, at, placed = list(lines), 0, set()
        for i, (line, n) in enumerate(zip(lines, counts)):
            if n and at in opened:
                placed.add(at)
                if not _is_bullet(line):
                    out[i] = "\u2022 " + line.lstrip()
            at += n
        results.add("\n".join(out) if placed == opened and _lead_opens_list(out) else cell)
    return results.pop() if len(results) == 1 else cell


def _lead_opens_list(lines: list[str]) -> bool:
    """Do the lines before a cell's first bullet (none, a level label, or a lead-in announcing a
    list) leave its bullets as endpoints of their own? See ``_with_bullets``."""
    first = next((i for i, line in enumerate(lines) if _is_bullet(line)), len(lines))
    lead = plain(join_lines(lines[:first]))
    if not lead or _is_level_label(lead):
        return True
    first_sentence = re.split(r"(?<=[.:])\s", lead, maxsplit=1)[0]
    return first_sentence.endswith(":") and bool(_ANNOUNCES_LIST.search(first_sentence))


def _cell_items(cell: str, label: str | None = None) -> tuple[list[tuple[str, str | None, bool]], str | None]:
    """Endpoints of one table cell as (text, level label printed above it, continues the previous
    row's last endpoint): one per bullet, sub-bullets and wrapped lines joined into it; a cell
    with no bullets is one endpoint unless it announces a list. Lead-in lines ending in ':' are
    left out; a short unbulleted line naming a level ("Secondary Safety Endpoints") labels the
    bullets under it."""
    lines = [l for l in cell.split("\n")]
    bullets = [i for i, l in enumerate(lines) if _is_bullet(l)]
    if not bullets:
        whole = plain(join_lines(lines))
        if _is_level_label(whole):
            return [], whole
        first_sentence = re.split(r"(?<=[.:])\s", whole, maxsplit=1)[0]
        if first_sentence.endswith(":") and _ANNOUNCES_LIST.search(first_sentence):
            return [(text, label, False) for text in _unbulleted_items(lines)], label
        return ([(whole, label, whole[:1].islower())] if whole else []), label
    lead = plain(join_lines(lines[: bullets[0]]))
    if lead[:1].isupper() and not _lead_opens_list(lines):
        # "Change from baseline at Week 26 in the following scores:" and its bullets: the
        # bullets complete the one endpoint the lead-in states (as ``_with_bullets`` reads it).
        return [(plain(join_lines([_strip_bullet(l) for l in lines])), label, False)], label
    items: list[list] = []  # [lines, label, continuation]
    for i, line in enumerate(lines):
        if _is_bullet(line):
            rest = _strip_bullet(line)
            items.append([[rest] if rest.strip() else [], label, False])
            continue
        if _SUB_BULLET_LINE.match(line) and items:
            items[-1][0].append(_SUB_BULLET_LINE.match(line)["rest"])
            continue
        text = plain(line)
        if _is_level_label(text):
            label = text
            continue
        if not items:
            if i == 0 and text[:1].islower():  # the previous row's last endpoint goes on here
                items.append([[line], None, True])
            continue  # a lead-in before the first bullet
        items[-1][0].append(line)
    out = []
    last_label = label
    for lines_of_item, label, continuation in items:
        # a lead-in for the next bullets printed after an item ("The ... endpoints for CD are as follows:")
        text = plain(join_lines(lines_of_item))
        lead = re.search(r"(?<=[a-z0-9)\]])\s+(?:The|These)\s[^:]{0,160}:\s*$", text)
        if lead:
            text = text[: lead.start()]
        if text:
            out.append((text, label, continuation))
    return out, last_label


def _is_level_label(text: str) -> bool:
    """ "Secondary Safety Endpoints": a short line naming a level; a lead-in announcing a list
    ("The secondary endpoints are as follows:") is none."""
    return bool(
        level_of(text)
        and _ENDPOINT_WORD_CELL.search(text)
        and len(text.split()) <= 6
        and not _ANNOUNCES_LIST.search(text)
    )


def _unbulleted_items(lines: list[str]) -> list[str]:
    """A cell that announces a list ("... are as follows:") whose bullet glyphs the text layer
    lost: a new item starts on a capitalised line after a line that ends an item (a number, a
    bracket, a full stop or a colon). Lines ending in ':' are lead-ins, left out."""
    items: list[list[str]] = []
    for line in (l.strip() for l in lines):
        if not line:
            continue
        previous = items[-1][-1] if items else ":"
        starts = re.match(r"[A-Z][a-z]", line) and re.search(r"[0-9)\].:%]$", previous)
        if starts or not items:
            items.append([line])
        else:
            items[-1].append(line)
    out = []
    for item in items:
        text = plain(join_lines(item))
        if text and not text.endswith(":"):
            out.append(text)
    return out


def _is_bullet(line: str) -> bool:
    return bool(re.match(r"^\s*[\u2022\u25aa\u25cf\u2023\uf0b7\uf0a7\uf0d8\u27a2]", line))


# ---------------------------------------------------------------------------------------------
# Putting objectives and endpoints together


def _join(objectives: list[Item], endpoints: list[Item], diagnostics: list[dict]) -> None:
    """Attach endpoints printed apart from their objectives: by level, in order; the surplus of a
    level goes to its last objective; a level with no objective goes to the nearest earlier one."""
    if not endpoints:
        return
    order = [PRIMARY, SECONDARY, EXPLORATORY]
    by_level: dict[str, list[Item]] = {}
    for e in endpoints:
        by_level.setdefault(e.level, []).append(e)
    for level in order:
        found = by_level.get(level) or []
        if not found:
            continue
        where = _sections_of(found)
        targets = [o for o in objectives if o.level == level]
        if targets:
            for i, e in enumerate(found):
                targets[min(i, len(targets) - 1)].endpoints.append(e)
            diagnostics.append(
                {
                    "kind": "endpoints_joined_by_order",
                    "detail": f"{len(found)} {level} endpoint(s) from section {where} joined to "
                    f"{len(targets)} {level} objective(s) by order",
                }
            )
            continue
        earlier = [o for o in objectives if order.index(o.level) < order.index(level)]
        host = earlier[-1] if earlier else (objectives[-1] if objectives else None)
        if host is None:
            diagnostics.append(
                {
                    "kind": "endpoint_without_objective",
                    "detail": f"{len(found)} {level} endpoint(s) in section {where}; no objectives found",
                }
            )
            continue
        host.endpoints.extend(found)
        diagnostics.append(
            {
                "kind": "endpoint_without_objective",
                "detail": f"{len(found)} {level} endpoint(s) in section {where} have no {level} "
                f"objective; attached to {host.level} objective in section "
                f"{host.section.get('number')}",
            }
        )


def _once(per_section: list[list[Item]]) -> list[Item]:
    """Endpoints printed apart, from each endpoints section in turn; an endpoint that an earlier
    section already stated is left out: a protocol that states its endpoints in the design
    chapter and again in the statistics chapter ("... will be the change ..." / "... is the
    change ...") has each of them once. Within one section, a repeat is the protocol's own (the
    same measure for two regions, or two periods) and is kept."""
    out: list[Item] = []
    for endpoints in per_section:
        earlier = list(out)
        for e in endpoints:
            mine = set(_words(e.text))
            if not any(o.level == e.level and _dice(mine, set(_words(o.text))) >= 0.9 for o in earlier):
                out.append(e)
    return out


def _dice(a: set, b: set) -> float:
    return 2 * len(a & b) / (len(a) + len(b)) if a or b else 1.0


def _settle_levels(objectives: list[Item], diagnostics: list[dict]) -> None:
    """Objectives printed with no level take the one their place implies. When the document
    prints no level at all, the objectives are listed in order of importance: the first is the
    primary, the rest secondary. Otherwise an unlevelled objective (a category such as "Safety")
    counts as secondary. Table endpoints with no level of their own follow their objective.
    Either way a diagnostic says so: the level was not printed."""
    unlevelled = [o for o in objectives if not o.printed]
    if not unlevelled:
        return
    if len(unlevelled) == len(objectives):
        for k, o in enumerate(objectives):
            _set_level(o, PRIMARY if k == 0 else SECONDARY)
        diagnostics.append(
            {
                "kind": "objective_levels_not_printed",
                "detail": f"no objective prints a level: the first (section {objectives[0].section.get('number')}) "
                f"is taken as primary, the other {len(objectives) - 1} as secondary",
            }
        )
        return
    for o in unlevelled:
        _set_level(o, SECONDARY)
    diagnostics.append(
        {
            "kind": "objective_level_not_printed",
            "detail": f"{len(unlevelled)} objective(s) print no level (section {_sections_of(unlevelled)}): "
            "taken as secondary",
        }
    )


def _settle_endpoint_levels(objectives: list[Item], loose: list[Item], diagnostics: list[dict]) -> None:
    """Endpoints printed apart with no level anywhere, for objectives of one level (the study's
    single objective): they measure those objectives and take their level."""
    levels = {o.level for o in objectives}
    if not loose or any(e.printed for e in loose) or len(levels) != 1:
        return
    level = levels.pop()
    for e in loose:
        if e.label == e.level.title():
            e.label = level.title()
        e.level = level
    diagnostics.append(
        {
            "kind": "endpoint_levels_not_printed",
            "detail": f"no endpoint prints a level (section {_sections_of(loose)}): they take the "
            f"level of the {level} objective(s) they measure",
        }
    )


def _set_level(objective: Item, level: str) -> None:
    if objective.label == objective.level.title():
        objective.label = level.title()
    for e in objective.endpoints:
        if not e.printed:
            e.level = level
            if e.label == SECONDARY.title():
                e.label = level.title()
    objective.level = level


def _sections_of(items: list[Item]) -> str:
    numbers = []
    for i in items:
        n = i.section.get("number") or i.section.get("title") or "?"
        if n not in numbers:
            numbers.append(n)
    return ", ".join(numbers)


def read_objectives(document: dict, tracer: Tracer) -> tuple[list[dict], list[dict]]:
    """(objectives, diagnostics) of one parsed document (``document.json`` as plain dicts).

    Each objective: ``{"level", "label", "text", "section", "pages", "boxes", "endpoints"}``, each
    endpoint ``{"level", "label", "text", "section", "pages", "boxes"}``; level is primary,
    secondary or exploratory (tertiary and "other" count as exploratory)."""
    reader = Reader(document, tracer)
    diagnostics = reader.diagnostics
    root = reader.objectives_root()
    items: list[Item] = []
    if root is not None:
        items = reader.read_tree(root, Context(OBJECTIVE))
    if not any(i.kind == OBJECTIVE for i in items):
        synopsis_items: list[Item] = []
        for section in reader.synopsis_sections():
            synopsis_items.extend(reader.read_units(units_of(section), Context(None), section))
        if any(i.kind == OBJECTIVE for i in synopsis_items):
            diagnostics.append(
                {
                    "kind": "objectives_from_synopsis",
                    "detail": "the protocol body has no objectives section; objectives read from "
                    f"the synopsis (section {_sections_of(synopsis_items)})",
                }
            )
            items = synopsis_items
    objectives = [i for i in items if i.kind == OBJECTIVE]
    loose = [i for i in items if i.kind == ENDPOINT]
    if not loose and not any(o.endpoints for o in objectives):
        per_section = [
            [
                e
                for e in reader.read_tree(section, Context(ENDPOINT))
                if e.kind == ENDPOINT and (e.printed or not _MEASURES_SECTION.search(section.get("title") or ""))
            ]
            for section in reader.endpoint_sections(root)
        ]
        loose = _once(per_section)
    if objectives and not loose and not any(o.endpoints for o in objectives):
        _endpoints_from_synopsis(reader, objectives, diagnostics)
    if not objectives and root is None:
        diagnostics.append({"kind": "no_objectives", "detail": "no objectives section found in the body or synopsis"})
    elif not objectives:
        diagnostics.append(
            {
                "kind": "objectives_not_read",
                "detail": f"objectives section {root.get('number') or ''} {root.get('title') or ''!r} found, "
                "but no objective could be read from it (nor from the synopsis)",
            }
        )
    _settle_levels(objectives, diagnostics)
    _settle_endpoint_levels(objectives, loose, diagnostics)
    _join(objectives, loose, diagnostics)
    for o in objectives:
        if not o.endpoints:
            diagnostics.append(
                {
                    "kind": "objective_without_endpoints",
                    "detail": f"{o.level} objective in section {o.section.get('number')} has no "
                    f"endpoint: {o.text[:80]}",
                }
            )
    return [_objective_dict(o, tracer) for o in objectives], diagnostics


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", plain(text).lower())


def _same_objective(synopsis_text: str, body_text: str) -> bool:
    """The synopsis prints the body's objective, or its first sentences (the body goes on with
    how it is measured: "To assess X. Improved scores on Y will indicate ...")."""
    short, long = _words(synopsis_text), _words(body_text)
    return len(short) >= 4 and long[: len(short)] == short


def _endpoints_from_synopsis(reader: Reader, objectives: list[Item], diagnostics: list[dict]) -> None:
    """Body objectives printed without endpoints, and no endpoints section: the endpoints the
    synopsis's objectives-and-endpoints table prints beside the same objectives (the ICH M11
    template's 1.1.1 "Primary and Secondary Objectives and Estimands" table). Each synopsis
    objective gives its endpoints to the body objective of its level whose text it is, or opens."""
    found: list[Item] = []
    for section in reader.synopsis_sections():
        found.extend(
            i
            for i in reader.read_units(units_of(section), Context(None), section)
            if i.kind == OBJECTIVE and i.endpoints
        )
    taken: set[int] = set()
    joined = 0
    for body in objectives:
        for i, synopsis in enumerate(found):
            if i not in taken and synopsis.level == body.level and _same_objective(synopsis.text, body.text):
                taken.add(i)
                for e in synopsis.endpoints:
                    body.endpoints.append(Item(ENDPOINT, body.level, body.label, e.text, e.section))
                    joined += 1
                break
    if joined:
        diagnostics.append(
            {
                "kind": "endpoints_from_synopsis",
                "detail": f"the body prints no endpoints; {joined} endpoint(s) of {len(taken)} "
                f"objective(s) read from the synopsis table (section {_sections_of(found)})",
            }
        )


def _where(item: Item, tracer: Tracer) -> dict:
    first, last = _page_range(item.section)
    found = tracer.trace(item.text, first, last)
    if not found.get("pages"):
        found = {"pages": [first] if first is not None else [], "boxes": []}
    return found


def _objective_dict(o: Item, tracer: Tracer) -> dict:
    where = _where(o, tracer)
    return {
        "level": o.level,
        "label": o.label,
        "text": o.text,
        "section": o.section.get("number"),
        "pages": where["pages"],
        "boxes": where["boxes"],
        "endpoints": [_endpoint_dict(e, tracer) for e in o.endpoints],
    }


def _endpoint_dict(e: Item, tracer: Tracer) -> dict:
    where = _where(e, tracer)
    return {
        "level": e.level,
        "label": e.label,
        "text": e.text,
        "section": e.section.get("number"),
        "pages": where["pages"],
        "boxes": where["boxes"],
    }
