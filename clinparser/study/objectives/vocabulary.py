"""The shared vocabulary: kinds and levels of items, the words that name objectives, endpoints and
their sections, and the small text helpers that read them."""

from __future__ import annotations

import re

from ...shared.markup import strip_markup

OBJECTIVE, ENDPOINT = "objective", "endpoint"
PRIMARY, SECONDARY, EXPLORATORY = "primary", "secondary", "exploratory"

# A printed level word; "key secondary" before "secondary" so the label keeps "Key". No \b on
# the right or left: PDF text layers glue words ("Anexploratory objectiveof").
LEVEL = re.compile(r"((?:key|other)\s+secondary|primary|secondary|tertiary|exploratory|\bother\b)", re.IGNORECASE)
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
VARIABLES_TITLE = re.compile(
    rf"\b{_KIND}(?:\s+assessments?)?(?:\s*(?:,|and|&|/)\s*{_KIND})*\s+(?:and\s+)?"
    r"(?:variables|parameters)\s*$",
    re.IGNORECASE,
)
# "Efficacy Measures", "Efficacy and Safety Measures": where some protocols print their endpoints
# under level headings, and others describe their instruments; only endpoints a level heads are
# read from such a section.
MEASURES_SECTION = re.compile(rf"(?<!other\s)\b{_KIND}(?:\s*(?:,|and|&|/)\s*{_KIND})*\s+measures\s*$", re.IGNORECASE)
# Inside the objectives chapter, a sub-section of measures, variables or parameters is where
# its endpoints are printed ("2.1 Efficacy and Safety Measures"), whatever words stand before.
MEASURES_TITLE = re.compile(r"\b(?:measures?|variables?|parameters?)\s*$", re.IGNORECASE)
OBJECTIVE_WORD = re.compile(r"objectives?(?!\s+response)|\baims?\b", re.IGNORECASE)
ENDPOINT_WORD = re.compile(
    r"end\s?-?points?|outcome\s+measures?|(?:efficacy|safety|primary|secondary|"
    r"exploratory|tertiary|study|trial)\s+outcomes?\b|" + _MEASURE_NAMES,
    re.IGNORECASE,
)
SYNOPSIS = re.compile(r"synopsis|protocol\s+summary|summary\s+of\s+(?:the\s+)?protocol|^\s*summary\s*$", re.IGNORECASE)
# Titles that name objectives or endpoints without listing them: why they were chosen, how
# they are analysed, who adjudicates them, a tumour-response measure, the estimands.
NOT_A_LIST = re.compile(
    r"rationale|justification|analys[ie]s\s+of|end\s?-?points?\s+analys[ie]s|adjudicat|committee|reporting|"
    r"estimand|objective\s+response|reported\s+outcome|definition|assessment",
    re.IGNORECASE,
)
# Titles that mention objectives but are no objectives section.
NOT_ROOT = re.compile(r"objective\s+response|analys[ie]s\s+of|justification|rationale\s+for", re.IGNORECASE)
# Sub-headings inside an objectives section that open no group of objectives ("Patient-reported
# outcomes" does group them; "Definitions" or "Analysis of ..." does not).
NOT_UNDER_OBJECTIVES = re.compile(
    r"rationale|justification|definitions?\b|analys[ie]s|committee|adjudicat", re.IGNORECASE
)
# Headings and bold labels that open something else inside an objectives section.
OTHER_BLOCK = re.compile(r"hypothes[ie]s|estimand|rationale|justification", re.IGNORECASE)
# "... and Associated Estimand(s)": the ICH M11 template's objectives headings name the estimands
# each objective carries ("3.1 Primary Objective(s) and Associated Estimand(s)"); the heading
# still lists objectives, and the words are no part of its level label.
_AND_ESTIMANDS = re.compile(
    r"\s*(?:,|\band\b|&)?\s*(?:(?:the|their|associated)\s+)*estimands?(?:\s*\(s\))?", re.IGNORECASE
)
# The attributes by which an estimand is described under its objective (ICH E9(R1), as the M11
# template labels them): "Population:", "Treatment:", "Intercurrent Event(s):", "Population-Level
# Summary:" ... A line so labelled describes the estimand, not another objective.
ESTIMAND_ATTRIBUTE = re.compile(
    r"^(?:(?:target|analysis)\s+)?population(?:-level\s+summary|\s+level\s+summary)?$|"
    r"^(?:treatment|intervention)s?(?:\s+conditions?)?$|^intercurrent\s+events?|"
    r"^(?:remaining\s+)?intercurrent|^(?:population[-\s]level\s+)?summary\s+measure|"
    r"^strateg(?:y|ies)\b|^estimand\b|^variable$",
    re.IGNORECASE,
)
EMPTY = re.compile(r"^(?:not\s+applicable|none|n/?a|not\s+done|tbd)\.?$", re.IGNORECASE)
# "To compare ...", "The objective of this study is to ...": a paragraph that states an objective,
# whether or not a level is printed near it.
STATES_OBJECTIVE = re.compile(
    r"^(?:to\s+[a-z]+\b|(?:the|an?)\s+(?:\S+\s+){0,3}objectives?\s+(?:(?:of|for)\s+"
    r"(?:this|the)\s+(?:study|trial|protocol)\s+)?(?:is|are|will\s+be)\s+to\b)",
    re.IGNORECASE,
)
LIST_MARK = re.compile(r"^(?P<indent>\s*)(?:[-*+]|\d{1,2}[.)]|\(\d{1,2}\)|\([a-z]\)|[a-z][.)])\s+")
# Bullet glyphs left in the text after the list marker: a lone symbol, a Wingdings letter.
GLYPH = re.compile(r"^(?:[^\w\s(\[\"'\u201c]|[o\u00a7\u00d8](?=\s))\s*")
_LABEL_WORDS = re.compile(
    r"\b(?:study|trial|objectives?|end\s?-?points?|outcomes?|and|hypothes[ie]s|variables?|"
    r"parameters?|measures?)\b|\(s\)|\(es\)|&",
    re.IGNORECASE,
)


# ---------------------------------------------------------------------------------------------
# Small text helpers


def plain(text: str) -> str:
    """Markdown-free text of a paragraph or list item, bullet marks and glyphs removed."""
    text = LIST_MARK.sub("", text, count=1)
    text = strip_markup(text)
    text = GLYPH.sub("", text, count=1)
    return " ".join(text.split())


def level_of(text: str) -> tuple[str, str] | None:
    """(level, printed word) of the level word in ``text``; None when there is none, or when
    the text names several levels ("Primary and Secondary Objectives")."""
    found = LEVEL.findall(text or "")
    if not found or len({_LEVEL_OF[" ".join(w.split()).lower().split()[-1]] for w in found}) > 1:
        return None
    m = LEVEL.search(text)
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
    for line in (raw.strip() for raw in lines):
        if not line:
            continue
        out = line if not out else (out + line if out.endswith("-") else out + " " + line)
    return out


def objectives_title(title: str) -> str:
    """A title naming objectives, without the estimands it also names (M11: "Primary Objective(s)
    and Associated Estimand(s)" -> "Primary Objective(s)"); any other title as it is."""
    if not OBJECTIVE_WORD.search(title):
        return title
    return " ".join(_AND_ESTIMANDS.sub(" ", title).split()) or title


def first_clause(text: str) -> str:
    return re.split(r"[.:;]", text, maxsplit=1)[0][:120]


def cut_hypothesis(text: str) -> str:
    """An objective item that also prints its hypothesis ("... Hypotheses: ...") loses it."""
    m = re.search(r"\s+hypothes[ie]s\s*:", text, re.IGNORECASE)
    return text[: m.start()].strip() if m else text
