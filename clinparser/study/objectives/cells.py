"""What one table cell holds: its endpoints (one per bullet, the bullets the converter dropped
put back from the raw pipe table) or the endpoint of an estimand printed by its attributes."""

from __future__ import annotations

import re

from ...shared.markup import strip_markup
from ...shared.pipe_tables import is_rule_row, is_table_row, row_cells
from ..trace import words
from .vocabulary import join_lines, level_of, plain

# "... are as follows:" -- a sentence announcing a list (a label such as "Safety parameters:" is not).
_ANNOUNCES_LIST = re.compile(r"\b(?:are|is|include[sd]?|as\s+follows|following)\s*:$", re.IGNORECASE)
_BULLET_LINE = re.compile(
    r"^\s*(?:[\u2022\u25aa\u25cf\u2023\u2043\uf0b7\uf0a7\uf0d8\uf076\u27a2\u25e6\-\u2013]|\d{1,2}[.)])\s*(?P<rest>.*)$"
)
_SUB_BULLET_LINE = re.compile(r"^\s*(?:o|\u25e6|\uf06f|-)\s+(?P<rest>.*)$")
# The raw Markdown pipe tables of blocks.json: a cell's lines split at <br>.
_BR = re.compile(r"<br\s*/?>", re.IGNORECASE)
# A cell line's list mark that ``strip_markup`` drops when the converter cleans the cell (so the
# table in document.json no longer shows it): the same pattern as ``markup._BULLET``.
_DROPPED_BULLET = re.compile(r"^\s*[-*+\u2022\u25aa\u25cf]\s+")
# The attributes by which an estimand is printed in an endpoint cell (ICH E9(R1)): "Population:",
# "Treatment Condition:", "Endpoint:", "Summary Measure:", "Intercurrent Event(s) ...".
_ESTIMAND_LINE = re.compile(
    r"^\s*(?P<name>(?:target\s+|analysis\s+)?population|treatments?(?:\s+conditions?)?|"
    r"endpoints?(?:\s*\(s\))?|variables?|(?:population[-\s]level\s+)?summary\s+measures?|"
    r"intercurrent\s+events?[^:]{0,40})\s*:\s*(?P<rest>.*)$",
    re.IGNORECASE,
)
ENDPOINT_WORD_CELL = re.compile(r"end\s?-?points?|outcome|measure", re.IGNORECASE)


def estimand_endpoint(cell: str, in_estimands: bool = False) -> str | None:
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


def strip_bullet(line: str) -> str:
    m = _BULLET_LINE.match(line)
    return m["rest"] if m else line


def pipe_cells(markdown: str) -> list[list[str]]:
    """Every cell of the Markdown pipe table(s) in ``markdown`` as its raw lines (split at <br>)."""
    out = []
    for line in markdown.splitlines():
        if not is_table_row(line) or is_rule_row(line):
            continue
        out.extend(_BR.split(cell) for cell in row_cells(line))
    return out


def with_bullets(cell: str, raw_cells: dict[tuple[str, ...], list[list[str]]]) -> str:
    """``cell`` with the bullets its raw Markdown printed and the converter's cleaning dropped put
    back ("• " before each line that opened with one), so that ``cell_items`` reads one endpoint
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
                if not is_bullet(line):
                    out[i] = "\u2022 " + line.lstrip()
            at += n
        results.add("\n".join(out) if placed == opened and _lead_opens_list(out) else cell)
    return results.pop() if len(results) == 1 else cell


def _lead_opens_list(lines: list[str]) -> bool:
    """Do the lines before a cell's first bullet (none, a level label, or a lead-in announcing a
    list) leave its bullets as endpoints of their own? See ``with_bullets``."""
    first = next((i for i, line in enumerate(lines) if is_bullet(line)), len(lines))
    lead = plain(join_lines(lines[:first]))
    if not lead or _is_level_label(lead):
        return True
    first_sentence = re.split(r"(?<=[.:])\s", lead, maxsplit=1)[0]
    return first_sentence.endswith(":") and bool(_ANNOUNCES_LIST.search(first_sentence))


def cell_items(cell: str, label: str | None = None) -> tuple[list[tuple[str, str | None, bool]], str | None]:
    """Endpoints of one table cell as (text, level label printed above it, continues the previous
    row's last endpoint): one per bullet, sub-bullets and wrapped lines joined into it; a cell
    with no bullets is one endpoint unless it announces a list. Lead-in lines ending in ':' are
    left out; a short unbulleted line naming a level ("Secondary Safety Endpoints") labels the
    bullets under it."""
    lines = [line for line in cell.split("\n")]
    bullets = [i for i, line in enumerate(lines) if is_bullet(line)]
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
        # bullets complete the one endpoint the lead-in states (as ``with_bullets`` reads it).
        return [(plain(join_lines([strip_bullet(line) for line in lines])), label, False)], label
    items: list[list] = []  # [lines, label, continuation]
    for i, line in enumerate(lines):
        if is_bullet(line):
            rest = strip_bullet(line)
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
        and ENDPOINT_WORD_CELL.search(text)
        and len(text.split()) <= 6
        and not _ANNOUNCES_LIST.search(text)
    )


def _unbulleted_items(lines: list[str]) -> list[str]:
    """A cell that announces a list ("... are as follows:") whose bullet glyphs the text layer
    lost: a new item starts on a capitalised line after a line that ends an item (a number, a
    bracket, a full stop or a colon). Lines ending in ':' are lead-ins, left out."""
    items: list[list[str]] = []
    for line in (raw.strip() for raw in lines):
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


def is_bullet(line: str) -> bool:
    return bool(re.match(r"^\s*[\u2022\u25aa\u25cf\u2023\uf0b7\uf0a7\uf0d8\u27a2]", line))
