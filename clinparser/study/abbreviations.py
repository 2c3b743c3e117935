"""The protocol's list of abbreviations: ``[{"abbreviation", "expansion"}]`` as printed.

Read from the section titled like "List of Abbreviations", "Abbreviations and Definitions of
Terms", "Glossary" (``toc`` or ``non_toc``, at any depth; not inside an amendment or change
summary), from its two-column tables (a header row such as "Abbreviation | Definition" is
skipped; cells holding several lines pair line by line; a printed table of contents read into the
section -- "2.0 | Table of Contents", "5.3 | Safety Variables.......80", rows with dot leaders or
a page number -- is no list of abbreviations, and a row of one never is) or, when it prints a list, from lines
like "AE  adverse event", "AE: adverse event", "AE = adverse event", "AE – adverse event".
"""

from __future__ import annotations

import re
from typing import Iterable, Optional

from ..document_types import Document
from ..shared.markup import strip_markup
from ..shared.pipe_tables import is_table_row, row_cells

_SECTION = re.compile(r"abbreviation|glossary|acronym|definitions?\s+of\s+(?:key\s+)?terms", re.I)
_NOT_SECTION = re.compile(r"amendment|change|revision|history", re.I)
_HEADER_CELL = re.compile(
    r"^(?:abbreviations?|acronyms?|terms?|abbreviations?\s*(?:/|or|and)\s*terms?|"
    r"definitions?|explanations?|descriptions?|meanings?|full\s+(?:form|term|name)|expansions?|"
    r"definition\s*/\s*explanation|description of abbreviations|definition of terms)\s*:?$",
    re.I,
)
# "AE: adverse event", "AE = adverse event", "AE – adverse event", "AE<tab or 2+ spaces>adverse event"
_LIST_LINE = re.compile(r"^(?P<abbr>\S{1,15}?(?:\s\S{1,6}?)?)\s*(?::|=|–|—|\s-\s|\t|\s{2,})\s*(?P<exp>\S.*)$")
# "AE adverse event" (one space): the abbreviation is one token with a capital or a digit
_SPACE_LINE = re.compile(r"^(?P<abbr>[^\s]*[A-Z0-9][^\s]*)\s(?P<exp>[^\s].*)$")


def read_abbreviations(document: Document) -> list[dict]:
    """``[{"abbreviation", "expansion"}]`` from the document's abbreviations section(s)."""
    out: list[dict] = []
    seen = set()
    for node in _sections(document):
        for abbr, exp in _pairs(node):
            abbr, exp = _clean(abbr), _clean(exp)
            if not abbr or not exp or abbr == exp or len(abbr) > 30:
                continue
            key = (abbr, exp)
            if key in seen:
                continue
            seen.add(key)
            out.append({"abbreviation": abbr, "expansion": exp})
    return out


def _walk(nodes: Iterable[dict], blocked: bool = False):
    for node in nodes or []:
        title = strip_markup(node.get("title") or "")
        here_blocked = blocked or bool(_NOT_SECTION.search(title))
        yield node, here_blocked
        yield from _walk(node.get("subsections") or [], here_blocked)


def _sections(document: Document) -> list[dict]:
    found = []
    for node, blocked in _walk(list((document or {}).get("toc") or []) + list((document or {}).get("non_toc") or [])):
        if blocked:
            continue
        title = strip_markup(node.get("title") or "")
        if _SECTION.search(title) and not re.search(r"contents", title, re.I):
            found.append(node)
    return found


def _clean(text: str) -> str:
    text = strip_markup(re.sub(r"<br\s*/?>", " ", str(text or "")))
    return " ".join(text.split()).strip(" :;,")


def _pairs(node: dict) -> list[tuple[str, str]]:
    pairs: list[tuple[str, str]] = []
    for table in node.get("tables") or []:
        pairs.extend(_table_pairs(table))
    in_table = False
    for raw in (node.get("text") or "").split("\n"):
        line = raw.strip()
        if not line or line == "[Table]" or re.fullmatch(r"\[Table[^\]]*\]", line):
            continue
        if is_table_row(line):
            cells = [c.strip() for c in row_cells(line)]
            if all(re.fullmatch(r":?-{3,}:?", c) or not c for c in cells):
                in_table = True
                continue
            pairs.extend(_row_pairs(cells))
            continue
        in_table = False
        if line.startswith("#"):
            continue
        pair = _list_pair(raw)
        if pair:
            pairs.append(pair)
    del in_table
    return pairs


# A line of a printed table of contents: dot leaders (then maybe its page number), or, after a
# section or table number ("5.3.1", "2.0", "Table 2."), a title ending in its page number.
_LEADERS = re.compile(r"(?:\.\s*){4,}\s*\d*\s*$|…+\s*\d*\s*$")
_PAGE_AT_END = re.compile(r"\s\d{1,3}$")
_TOC_HEADING = re.compile(r"^(?:table\s+of\s+)?contents$", re.I)
_SECTION_NUMBER = re.compile(r"^(?:(?:table|figure|appendix)\s+)?\d+(?:\.\d+)*\.?$", re.I)


def _toc_row(row: list) -> bool:
    cells = [_clean(c) for c in row if str(c or "").strip()]
    if len(cells) < 2:
        return False
    last = cells[-1]
    return bool(_LEADERS.search(last)) or (
        bool(_SECTION_NUMBER.match(cells[0])) and bool(_PAGE_AT_END.search(last) or _TOC_HEADING.match(last))
    )


def _table_pairs(table: dict) -> list[tuple[str, str]]:
    rows = [list(table.get("columns") or [])] + [list(r) for r in table.get("data") or []]
    filled = [r for r in rows if any(str(c or "").strip() for c in r)]
    if filled and sum(_toc_row(r) for r in filled) * 2 >= len(filled):  # a table of contents
        return []
    out = []
    for row in rows:
        if not _toc_row(row):
            out.extend(_row_pairs(row))
    return out


def _row_pairs(row: list) -> list[tuple[str, str]]:
    cells = [str(c or "").strip() for c in row]
    cells = [c for c in cells if c]
    if len(cells) < 2:
        return []
    if len(cells) > 2:  # several abbreviation/definition pairs side by side
        if len(cells) % 2 == 0:
            return [p for i in range(0, len(cells), 2) for p in _row_pairs(cells[i : i + 2])]
        cells = [cells[0], " ".join(cells[1:])]
    abbr, exp = cells
    if _HEADER_CELL.match(_clean(abbr)) and _HEADER_CELL.match(_clean(exp)):
        return []
    a_lines = [x for x in re.split(r"\n|<br\s*/?>", abbr) if x.strip()]
    e_lines = [x for x in re.split(r"\n|<br\s*/?>", exp) if x.strip()]
    if len(a_lines) > 1 and len(a_lines) == len(e_lines):
        return list(zip(a_lines, e_lines))
    return [(abbr, exp)]


def _list_pair(raw: str) -> Optional[tuple[str, str]]:
    text = strip_markup(raw.replace("\t", "  ")) if "\t" not in raw else raw.strip()
    # strip_markup collapses runs of spaces: look at the raw line for a wide gap first
    plain_raw = re.sub(r"[*_`]", "", raw).strip().lstrip("-•* ").strip()
    for candidate in (plain_raw, text):
        m = _LIST_LINE.match(candidate)
        if m and _looks_abbreviation(m.group("abbr")) and len(m.group("exp").split()) <= 25:
            return m.group("abbr"), m.group("exp")
    m = _SPACE_LINE.match(text)
    if (
        m
        and _looks_abbreviation(m.group("abbr"))
        and len(m.group("exp").split()) <= 15
        and not m.group("exp").endswith(".")
    ):
        return m.group("abbr"), m.group("exp")
    return None


def _looks_abbreviation(token: str) -> bool:
    token = token.strip()
    if not token or len(token) > 15:
        return False
    if re.fullmatch(r"[A-Z][a-z]+", token):  # an ordinary capitalised word ("The")
        return False
    return bool(re.search(r"[A-Z]{2}|[A-Z][a-z]*[A-Z0-9]|[µα-ωΑ-Ω]|^[a-z]+[A-Z]|\d[a-zA-Z]|[A-Z]\d", token)) or bool(
        re.fullmatch(r"[A-Z]", token)
    )
