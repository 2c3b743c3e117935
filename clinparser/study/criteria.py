"""Cutting eligibility criteria out of one section's text (its Markdown, as ``document.json``
has it). Everything here is about kinds of layout, never about one sponsor's wording:

* What is one criterion: a list item that carries the list's top-level numbering style ("1.",
  "1)", "(1)", "[1]", "I1", "E 02", "INC #1", "EXC-3", "a.", "4.1.1") or, for a bullet-only
  list, each top-level bullet. Items of another style, nested bullets, notes, paragraphs and
  uncaptioned tables printed before the next criterion belong to the criterion above them. In
  a run with no list item at all that a category names, each short paragraph is one criterion.
* Which category, inside the text: a heading or bold lead-in line ("Inclusion Criteria:",
  "# Exclusion"), else the intro sentence ("... excluded if ...").
* Not criteria: the intro sentence, headings that group criteria ("Medical Conditions"), and a
  closing remark printed after the last criterion at the list's own margin ("The criteria will
  be assessed ...").

Which sections are read, and in what order, is ``eligibility``'s job.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..shared.markup import strip_markup
from ..shared.pipe_tables import is_table_row, row_cells
from .categories import category_from_heading, category_from_line, category_of, step_of
from .trace import Tracer

# --- what a line of section text is ---------------------------------------------------------

_BULLET_MARK = re.compile(r"^\s*(?:[-*+\u2022\u25aa\u25cf\u25e6\u2013\u2014o\uf0b7\uf0a7]\s+)+")
_TABLE_PLACEHOLDER = re.compile(r"^\[(Table[^\]]*)\]$")
_LONE_MARK = re.compile(r"^\s*[-*+\u2022\u25aa\u25cf\u25e6\u2013\u2014\uf0b7\uf0a7]\s*$")  # a bullet with no text
_CAPTIONED_TABLE = re.compile(r"^Table\s+[A-Z]?\d", re.IGNORECASE)
_MD_TABLE_ROW = re.compile(r"^\s*\|.*\|\s*$")
_FOOTNOTE = re.compile(r"^(?:\d{1,2}|[*\u2020\u2021\u00a7a-z])\s+\S")
_MD_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}")

# Identifiers, tried in this order on a line with its markup and bullet removed. Each gives
# (style, value, label); the style tells top-level criteria from sub-items.
_ID_PATTERNS = (
    (
        "prefixed",
        re.compile(r"^(?P<label>(?P<pre>INC|EXC|IN|EX|I|E)\s?[-#]?\s?(?P<num>\d{1,3})(?P<suf>[a-z]?)[.:)]?)\s+(?=\S)"),
    ),
    ("bracket", re.compile(r"^(?P<label>\[(?P<num>\d{1,3})(?P<suf>[a-z]?)\])(?:\s*(?=\S)|\s*$)")),
    ("paren", re.compile(r"^(?P<label>\((?P<num>\d{1,3})(?P<suf>[a-z]?)\))(?:\s+(?=\S)|\s*$)")),
    (
        "decimal",
        re.compile(r"^(?P<label>(?P<pre>\d{1,2}(?:\.\d{1,3}){0,4})\.(?P<num>\d{1,3})\.?)\s+(?=[A-Za-z(\[\"\u201c])"),
    ),
    (
        "number",
        re.compile(
            r"^(?P<label>(?P<num>\d{1,3})(?P<suf>[a-z]?)(?P<dot>[.)]))(?:\s+(?=\S)|(?=[A-Za-z(\[\"\u201c])|\s*$)"
        ),
    ),
    ("paren-letter", re.compile(r"^(?P<label>\((?P<letter>[a-z]{1,4}|[A-Z])\))\s+(?=\S)")),
    ("letter", re.compile(r"^(?P<label>(?P<letter>[a-z]{1,4}|[A-Z])(?P<dot>[.)]))(?:\s+(?=\S)|\s*$)")),
)
# An identifier printed at the end of a criterion's first line ("... at screening. **INC #3**"):
# the item carrying it opens that criterion, items after it without one belong to it.
_TRAILING_ID = re.compile(
    r"\s+(?P<label>(?P<pre>INC|EXC|IN|EX)\s?#?\s?(?P<num>\d{1,3})(?P<suf>[a-z]?))\.?$", re.IGNORECASE
)
# Headings that name a category but open something about the criteria, not the criteria
# ("Rationale for Inclusion Criteria" and its table of criterion ranges and reasons).
_ABOUT_CRITERIA = re.compile(r"\b(?:rationale|justification|reasons?\s+for)\b", re.IGNORECASE)
_ROMAN = re.compile(r"^(?:x{0,3})(?:ix|iv|v?i{0,3})$")
# A line that only names a category ("Inclusion Criteria:", "Exclusion criteria"), printed
# without heading markup: a lead-in, never a criterion's text.
_LEAD_IN = re.compile(r"^\W*(?:key\s+)?(?:inclusion|exclusion)(?:\s+criteria)?\s*:?\s*$", re.IGNORECASE)
# Paragraph-only criteria (see _paragraph_criteria): limits that tell a list printed without
# markers from prose about the criteria.
_PARAGRAPH_MAX_WORDS = 120
_PARAGRAPH_MEDIAN_WORDS = 45
_SENTENCE_END = re.compile(r"[.!?]\s+(?=[A-Z])")


@dataclass
class Identifier:
    label: str  # as printed, e.g. "1.", "[16b]", "E 02"
    style: str  # e.g. "number.", "letter-lower)", "prefixed-E", "decimal-4.2"
    value: int
    rest: str  # the line after the identifier
    trailing: bool = False  # printed at the end of the line ("... at screening. INC #3")


@dataclass
class Line:
    kind: str  # "item" | "heading" | "table" | "para" | "footnote"
    text: str  # plain text (markup removed; for items, without identifier and bullet)
    raw: str
    ident: Identifier | None = None
    bullet: bool = False
    table_title: str = ""


@dataclass
class Criterion:
    category: str | None
    identifier: str | None
    style: str
    value: int | None
    section: dict
    applies_to: str | None
    parts: list[str] = field(default_factory=list)
    # The printed lines as the section's Markdown has them: blocks.json has the same markup
    # ("m<sup>2</sup>"), so these, not the plain text, are what the tracer can find.
    source: list[str] = field(default_factory=list)
    x0: float | None = None  # left edge of its first line on the page, when traced

    def add(self, text: str, raw: str = "", continues: bool = False) -> None:
        if self.parts == [""]:  # the marker was printed on a line of its own ("1)" then the text)
            self.parts = []
        if continues and self.parts:
            self.parts[-1] = self.parts[-1] + " " + text
        else:
            self.parts.append(text)
        if raw:
            self.source.append(raw)

    @property
    def text(self) -> str:
        return "\n".join(p for p in self.parts if p)


def section_pages(section: dict) -> tuple[int | None, int | None]:
    pages = section.get("pages") or [None, None]
    first = pages[0] if pages else None
    last = pages[-1] if pages else None
    return first, last


# --- criteria of one section ----------------------------------------------------------------


def cut_criteria(section: dict, category: str | None, step: str | None, tracer: Tracer) -> list[Criterion]:
    """The criteria printed in ``section``'s own text (not its subsections'), in order; those
    of no category are dropped."""
    lines = _lines(section.get("text") or "")
    tables = list(section.get("tables") or [])
    reader = _TextReader(section, category, step, tracer, lines, tables)
    return reader.run()


def has_items(section: dict) -> bool:
    """Does the section's own text hold a list item?"""
    return any(line.kind == "item" for line in _lines(section.get("text") or ""))


def criterion_of_section(section: dict, category: str | None, step: str | None) -> Criterion:
    """A numbered sub-section printed as one criterion: its title, then its text."""
    number = section.get("number") or ""
    criterion = Criterion(category, number, "section", None, section, step)
    criterion.add(strip_markup(section.get("title") or ""), section.get("title") or "")
    for line in _lines(section.get("text") or ""):
        if line.kind not in ("table", "footnote"):
            criterion.add(_line_text(line), line.raw)
    return criterion


# --- one section's lines --------------------------------------------------------------------


def _lines(text: str) -> list[Line]:
    """The section's Markdown as a list of typed lines (blank lines dropped; a Markdown table's
    rows kept together as one table line)."""
    out: list[Line] = []
    table_rows: list[str] = []
    for raw in (text or "").split("\n"):
        if _MD_TABLE_ROW.match(raw):
            table_rows.append(raw)
            continue
        if table_rows:
            out.append(_markdown_table(table_rows))
            table_rows = []
        if raw.strip() and not _LONE_MARK.match(raw):
            out.append(_line(raw))
    if table_rows:
        out.append(_markdown_table(table_rows))
    return out


def _markdown_table(rows: list[str]) -> Line:
    cells = [[strip_markup(c) for c in row_cells(row)] for row in rows if not _MD_TABLE_RULE.match(row)]
    text = "\n".join(" ".join(c for c in row if c) for row in cells)
    return Line("table", text, "\n".join(rows))


def _line(raw: str) -> Line:
    stripped = raw.strip()
    placeholder = _TABLE_PLACEHOLDER.match(strip_markup(stripped))
    if placeholder:
        title = (
            re.sub(r"^Table\s*[:.]?\s*", "", placeholder.group(1)).strip()
            if not _CAPTIONED_TABLE.match(placeholder.group(1))
            else placeholder.group(1)
        )
        return Line("table", "", raw, table_title=title)
    if stripped.startswith(">"):  # a quote; a page footnote ("> 1 any ...") is no criterion's text
        stripped = stripped.lstrip("> ")
        if _FOOTNOTE.match(strip_markup(stripped)):
            return Line("footnote", "", raw)
    bullet = bool(_BULLET_MARK.match(stripped)) and not stripped.startswith(("**", "__"))
    body = _BULLET_MARK.sub("", stripped, count=1) if bullet else stripped
    heading = stripped.startswith("#")
    plain = strip_markup(body)
    ident = _identifier(plain) or (_trailing_identifier(plain) if bullet else None)
    if ident and not heading:
        return Line("item", ident.rest, raw, ident, bullet)
    if bullet:
        return Line("item", plain, raw, None, True)
    if heading or _whole_emphasis(body) or _LEAD_IN.match(plain):
        # (a numbered heading keeps its number: it may be a criterion heading its sub-items)
        return Line("heading", plain, raw, ident if ident and ident.rest else None)
    return Line("para", plain, raw)


def _trailing_identifier(plain: str) -> Identifier | None:
    m = _TRAILING_ID.search(plain)
    if not m or not plain[: m.start()].strip():
        return None
    return Identifier(
        m.group("label"),
        "prefixed-" + m.group("pre").upper()[:1],
        int(m.group("num")),
        plain[: m.start()].strip(),
        trailing=True,
    )


def _whole_emphasis(body: str) -> bool:
    """A line printed entirely in bold or italics ("**Medical Conditions**", "_Age_")."""
    body = body.strip()
    for mark in ("**", "__", "*", "_"):
        if body.startswith(mark) and body.rstrip(":").endswith(mark) and len(body) > 2 * len(mark):
            inner = body[len(mark) :].rstrip(":")[: -len(mark)]
            return mark not in inner
    return False


def _identifier(plain: str) -> Identifier | None:
    for kind, pattern in _ID_PATTERNS:
        m = pattern.match(plain)
        if not m:
            continue
        rest = plain[m.end() :].strip()
        label = m.group("label").strip()
        if kind in ("letter", "paren-letter"):
            letter = m.group("letter")
            close = m.groupdict().get("dot") or ")"
            if letter.islower() and len(letter) > 1 and not _ROMAN.match(letter):
                continue  # a word like "etc." or "vs." is not a list marker
            if len(letter) > 1 or (letter in "ivx" and _ROMAN.match(letter)):
                # "i." may be a letter or a roman numeral; the roman reading is checked by
                # _same_style's neighbour test.
                return Identifier(label, f"roman{close}", _roman_value(letter), rest)
            style = ("upper" if letter.isupper() else "lower") + close
            return Identifier(label, f"{kind}-{style}", ord(letter.lower()) - 96, rest)
        number = int(m.group("num"))
        if kind == "prefixed":
            style = "prefixed-" + m.group("pre").upper()[:1]
        elif kind == "decimal":
            style = "decimal-" + m.group("pre")
        elif kind == "number":
            style = "number" + m.group("dot")
        else:
            style = kind
        return Identifier(label, style, number, rest)
    return None


def _roman_value(s: str) -> int:
    values = {"i": 1, "v": 5, "x": 10}
    total = 0
    for i, ch in enumerate(s):
        v = values[ch]
        total += -v if i + 1 < len(s) and values[s[i + 1]] > v else v
    return total


# --- walking the lines ----------------------------------------------------------------------


class _TextReader:
    """Walks one section's lines, opening a criterion at each top-level item."""

    def __init__(self, section, category, step, tracer, lines, tables):
        self.section = section
        self.category = category
        self.section_step = step
        self.step = step
        self.tracer = tracer
        self.lines = lines
        self.tables = tables
        self.table_index = 0
        self.criteria: list[Criterion] = []
        self.current: Criterion | None = None
        self.top_style: str | None = None
        self.in_sublist = False  # a nested list restarted in the top-level style
        self.closed = False  # a closing remark ended the list
        self.first_page, self.last_page = section_pages(section)
        self.trailing_tags = any(line.ident is not None and line.ident.trailing for line in lines)  # "... INC #3"
        self.paragraph_criteria = _paragraph_criteria(lines, category_of(section.get("title") or "") is not None)

    def run(self) -> list[Criterion]:
        for index, line in enumerate(self.lines):
            if line.kind == "footnote":
                continue
            if line.kind == "table":
                self._table(line)
            elif line.kind == "heading":
                self._heading(line, index)
            elif line.kind == "item":
                self._item(line, index)
            else:
                self._para(line, index)
        self._close()
        return [c for c in self.criteria if c.category]

    # headings --------------------------------------------------------------------------------

    def _heading(self, line: Line, index: int) -> None:
        text = line.text
        names_category = bool(re.search(r"\b(?:inclu|exclu)\w*", text, re.IGNORECASE)) and len(text.split()) <= 12
        if line.ident is not None and not names_category and self._heads_sub_items(line, index):
            # "**1. Target population:**" over "a) ...", "b) ...": the numbered heading is the
            # criterion and the lettered items under it are its sub-items.
            self._item(Line("item", line.ident.rest, line.raw, line.ident), index)
            return
        if self.current is not None and not names_category and not self._groups_next(index):
            self._para(line, index)  # a lead-in inside a criterion ("Male participants:")
            return
        self._close()
        self.closed = False
        if names_category and _ABOUT_CRITERIA.search(text):
            self.category = None  # what follows explains the criteria: none of it is one
            self.top_style = None
            return
        if names_category:
            self.category = category_from_heading(text) or self.category
        step = step_of([text])
        self.step = step if step else self.section_step
        self.in_sublist = False
        self.top_style = None if names_category else self.top_style

    def _heads_sub_items(self, line: Line, index: int) -> bool:
        """Is the next content line an item of another numbering style than this numbered
        heading's (so the heading is a criterion, not a heading grouping criteria of its own style)?"""
        for later in self.lines[index + 1 :]:
            if later.kind == "footnote":
                continue
            return later.kind == "item" and _style(later) != line.ident.style
        return False

    def _groups_next(self, index: int) -> bool:
        """Is the next content line a top-level criterion (so the heading groups criteria)?"""
        for line in self.lines[index + 1 :]:
            if line.kind in ("heading", "footnote"):
                continue
            if line.kind != "item":
                return False
            return self.top_style is None or _style(line) == self.top_style
        return True

    # items -----------------------------------------------------------------------------------

    def _item(self, line: Line, index: int) -> None:
        self._letter_or_roman(line, index)
        style = _style(line)
        if self.current is None or self.closed:
            self._open(line, style)
            return
        if self._tag_of_pending(line):
            return
        if self._opens_untagged(line):
            # Tags printed at the line's end: an untagged item that announces a list ("Participants
            # who:") after a tagged criterion opens the next criterion, whose tag comes below.
            self._close()
            self.current = Criterion(self.category, None, self.top_style, None, self.section, self.step)
            self.current.add(line.text, line.raw)
            self.current.x0 = self._x0(line.raw)
            return
        if style == self.top_style and self._is_next_top(line, index):
            self._open(line, style)
            return
        # A sub-item: keep its printed marker, drop bullet glyphs.
        marker = line.ident.label + " " if line.ident else ""
        self.current.add(marker + line.text, line.raw)

    def _opens_untagged(self, line: Line) -> bool:
        current = self.current
        return (
            line.ident is None
            and current.identifier is not None
            and current.style.startswith("prefixed")
            and self.trailing_tags
            and line.text.rstrip().endswith(":")
            and not self._indented(line)
        )

    def _tag_of_pending(self, line: Line) -> bool:
        """A trailing tag under a criterion opened untagged: the tag is that criterion's."""
        current = self.current
        if line.ident is None or not line.ident.trailing or current.identifier is not None or current.value is not None:
            return False
        current.identifier, current.value = line.ident.label, line.ident.value
        current.add(line.text, line.raw)
        return True

    def _letter_or_roman(self, line: Line, index: int) -> None:
        """ "i.", "v.", "x." read as the next letter when the criteria are lettered and the
        previous one is "h.", "u.", "w." -- unless the list goes on with "ii." (a roman sub-list)."""
        ident = line.ident
        if ident is None or not ident.style.startswith("roman") or self.current is None or not self.top_style:
            return
        letter = re.match(r"\(?([a-z]+)", ident.label).group(1)
        close = ident.style[len("roman") :]
        lettered = self.top_style.endswith("lower" + close) and self.top_style.startswith(("letter", "paren-letter"))
        if not lettered or len(letter) != 1 or self.current.value is None or ord(letter) - 96 != self.current.value + 1:
            return
        for later in self.lines[index + 1 :]:
            if later.ident is not None and later.ident.style.startswith(("roman", "letter", "paren-letter")):
                if later.ident.style.startswith("roman") and later.ident.value == 2:
                    return
                break
        line.ident = Identifier(ident.label, self.top_style, ord(letter) - 96, ident.rest)

    def _is_next_top(self, line: Line, index: int) -> bool:
        """An item in the top-level style opens a criterion unless it starts or continues a
        nested list printed in the same style (numbers restarting at 1 under a criterion)."""
        if line.ident is None:
            return not self._indented(line)
        value, last = line.ident.value, self.current.value
        if self.in_sublist:
            if last is not None and value == last + 1:
                self.in_sublist = False
                return True
            return False
        if last is not None and value <= 1 < last + 1 and value != last + 1:
            self.in_sublist = True
            return False
        return True

    def _indented(self, line: Line) -> bool:
        """A bullet printed further right than the criterion's own bullet (nested)."""
        if self.current is None or self.current.x0 is None:
            return False
        x0 = self._x0(line.raw)
        return x0 is not None and x0 > self.current.x0 + 8

    def _open(self, line: Line, style: str) -> None:
        self._split_run_on(line, style)
        self._close()
        self.closed = False
        self.in_sublist = False
        self.top_style = style
        ident = line.ident
        criterion = Criterion(
            self.category,
            ident.label if ident else None,
            style,
            ident.value if ident else None,
            self.section,
            self.step,
        )
        criterion.add(line.text, line.raw)
        criterion.x0 = self._x0(line.raw) if line.text else None  # a lone marker cannot be placed
        self.current = criterion

    def _split_run_on(self, line: Line, style: str) -> None:
        """Two criteria run into one line ("... dated by the subject 2. Male and female ...")
        show as a gap of one in the numbering: cut the missing one out where its number stands."""
        current = self.current
        if (
            current is None
            or line.ident is None
            or current.value is None
            or current.style != style
            or not style.startswith(("number", "letter-"))
            or line.ident.value != current.value + 2
        ):
            return
        missing = current.value + 1
        if style.startswith("number"):
            printed = str(missing)
        else:  # "b." then "d.": "c." run into b.'s line
            printed = chr(ord("A" if "upper" in style else "a") + missing - 1)
        mark = re.compile(rf"\s({printed}{re.escape(style[-1])})\s+(?=[A-Z])")
        for i, part in enumerate(current.parts):
            found = mark.search(part)
            if not found:
                continue
            tail = [part[found.end() :]] + current.parts[i + 1 :]
            current.parts = current.parts[:i] + [part[: found.start()]]
            self._close()
            split = Criterion(current.category, found.group(1), style, missing, self.section, current.applies_to)
            split.parts = tail
            split.source = [found.group(1) + " " + tail[0]]
            self.current = split
            return

    def _close(self) -> None:
        if self.current is not None:
            self.criteria.append(self.current)
        self.current = None

    # paragraphs and tables -------------------------------------------------------------------

    def _para(self, line: Line, index: int) -> None:
        text = line.text
        if index in self.paragraph_criteria:
            self._open(line, "paragraph")
            return
        if self.current is None or self.closed:
            if not self.criteria and self.category is None:
                self.category = category_from_line(text)
            return
        if self._only_prose_follows(index) and self._closing_remark(line):
            self.closed = True
            return
        self.current.add(text, line.raw, continues=_continues(self.current.parts, text))

    def _only_prose_follows(self, index: int) -> bool:
        """Nothing but paragraphs up to the next heading or the section's end: where a closing
        remark can stand (items or tables after it would still be the criterion's)."""
        for line in self.lines[index + 1 :]:
            if line.kind == "heading":
                return True
            if line.kind not in ("para", "footnote"):
                return False
        return True

    def _closing_remark(self, line: Line) -> bool:
        """A paragraph after the last criterion that is about the list, not the criterion: it
        starts at the list's own margin (criteria's notes are indented under them)."""
        text = line.text
        if _continues(self.current.parts, text) or re.match(r"^\W*note\b", text, re.IGNORECASE):
            return False
        x0 = self._x0(line.raw)
        if x0 is not None and self.current.x0 is not None:
            return x0 <= self.current.x0 + 4
        return bool(re.search(r"\bcriteri|\bwaiver", text, re.IGNORECASE))

    def _table(self, line: Line) -> None:
        data = self._table_text(line)
        if self.current is None or self.closed:
            return
        if line.table_title and _CAPTIONED_TABLE.match(line.table_title):
            return  # a numbered exhibit the criterion refers to, not part of its text
        if data:
            self.current.add(data)

    def _table_text(self, line: Line) -> str:
        if is_table_row(line.raw):
            return line.text
        if self.table_index >= len(self.tables):
            return ""
        table = self.tables[self.table_index]
        self.table_index += 1
        rows = [table.get("columns") or []] + list(table.get("data") or [])
        text_rows = [" ".join(" ".join(str(c or "").split()) for c in row if str(c or "").strip()) for row in rows]
        return "\n".join(r for r in text_rows if r)

    def _x0(self, text: str) -> float | None:
        found = self.tracer.trace(text, self.first_page, self.last_page)
        for box in found.get("boxes") or []:
            bbox = box.get("bbox")
            if bbox:
                return float(bbox[0])
        return None


def _paragraph_criteria(lines: list[Line], titled: bool) -> set[int]:
    """Criteria printed as plain paragraphs, with no bullet or number: in a run of lines that
    holds no list item at all and that a category names -- the section's title ("Exclusion
    Criteria", ``titled``) for the run before its first heading, else the heading or lead-in
    right above the run ("Inclusion Criteria:") -- each paragraph is one criterion. The indexes
    of the lines that open one.

    Prose about the criteria is told apart by its shape: a list has at least two paragraphs,
    short ones (a median of at most 45 words, none over 120), nearly all of one sentence, and it
    does not keep talking about "criteria" or eligibility. A first paragraph ending in a colon
    is the list's intro; a paragraph that carries on the previous one's sentence (cut by a page
    break) is the same criterion."""
    out: set[int] = set()
    run: list[int] = []
    named = titled  # does a category name the current run?
    for index, line in enumerate(lines + [Line("heading", "", "")]):
        if line.kind != "heading":
            run.append(index)
            continue
        if named:
            out.update(_paragraph_run(lines, run))
        run = []
        named = category_from_heading(line.text) is not None and len(line.text.split()) <= 12
    return out


def _paragraph_run(lines: list[Line], run: list[int]) -> list[int]:
    """The paragraphs of ``run`` that open a criterion each, or none when the run is not a list."""
    if any(lines[i].kind == "item" for i in run):
        return []
    paragraphs: list[int] = []
    texts: list[str] = []
    for i in run:
        if lines[i].kind != "para":
            continue
        text = lines[i].text
        if not paragraphs and text.rstrip().endswith(":"):
            continue  # the intro: not a criterion
        if paragraphs and _continues([texts[-1]], text):
            texts[-1] += " " + text
            continue
        paragraphs.append(i)
        texts.append(text)
    if len(paragraphs) < 2:
        return []
    counts = sorted(len(t.split()) for t in texts)
    if counts[-1] > _PARAGRAPH_MAX_WORDS or counts[len(counts) // 2] > _PARAGRAPH_MEDIAN_WORDS:
        return []
    if sum(bool(_SENTENCE_END.search(t)) for t in texts) * 4 > len(texts):
        return []  # paragraphs of several sentences: prose
    if sum(bool(re.search(r"\bcriteri|\beligib", t, re.IGNORECASE)) for t in texts) * 3 > len(texts):
        return []  # prose about the criteria
    if any(t.rstrip().endswith(":") for t in texts):
        return []  # a paragraph that introduces something below is not one criterion
    return paragraphs


def _style(line: Line) -> str:
    return line.ident.style if line.ident else "bullet"


def _continues(parts: list[str], text: str) -> bool:
    """A paragraph that carries on the previous one's sentence (cut by a page break)."""
    if not parts or not text:
        return False
    previous = parts[-1].rstrip()
    return bool(previous) and previous[-1] not in ".:;!?)" and (text[0].islower() or previous[-1] in ",(-")


def _line_text(line: Line) -> str:
    if line.kind == "item" and line.ident:
        return line.ident.label + " " + line.text
    return line.text
