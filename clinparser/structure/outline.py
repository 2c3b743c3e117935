"""The document's own tables of contents: printed TOC pages and PDF bookmarks.

Both are *evidence* for sectioning (a body heading that matches an entry is trusted more),
and the printed TOC pages are taken out of the body so they never leak into a section.
"List of Tables" / "List of Figures" pages are found the same way.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional

from ..model import Block, OutlineEntry
from ..shared.numbering import normalize_number, normalize_title, parse_number, spaceless_title, strip_markup
from ..shared.pipe_tables import is_table_row, join_cells, row_cells

_TOC_TITLE = re.compile(r"^(table\s+of\s+contents|contents)\b", re.I)
_LIST_TITLE = re.compile(r"^list\s+of\s+(tables|figures|in-text\s+tables|attachments|appendices)\b", re.I)
# "3.1. Study Design ........ 12", "1<TAB>Protocol Summary<TAB>10", "Synopsis   9"
_ENTRY = re.compile(r"^(?P<body>.*?[^\s.])\s*(?:\.{2,}|\u2026+|\t|\s{2,}|(?<=[a-z)])\s)[\s.\u2026]*(?P<page>\d{1,4})$")
_PIPE_ROW_SEP = re.compile(r"^\|?\s*:?-{3,}")


@dataclass
class PrintedToc:
    pages: list[int] = field(default_factory=list)  # pages holding a TOC or a list of tables/figures
    entries: list[OutlineEntry] = field(default_factory=list)  # section entries
    list_entries: list[OutlineEntry] = field(default_factory=list)  # table/figure list entries
    starts: list[int] = field(default_factory=list)  # first page of each section TOC (one per bundled document)


def toc_lines(text: str) -> list[str]:
    """Plain lines of a block. A table row is one line (its cells and <br>s joined by spaces)."""
    lines = []
    for raw in text.splitlines():
        stripped = raw.strip()
        if _PIPE_ROW_SEP.match(stripped):
            continue
        if is_table_row(stripped):
            cells = [re.sub(r"<br\s*/?>", " ", c).strip() for c in row_cells(stripped)]
            pieces = [join_cells([c for c in cells if c])]
        else:
            pieces = re.split(r"<br\s*/?>", raw)
        for piece in pieces:
            # Tabs separate number, title and page in Word TOCs: keep them as wide gaps.
            line = "  ".join(filter(None, (strip_markup(part) for part in piece.split("\t"))))
            if line:
                lines.append(line)
    return lines


def parse_entry(line: str) -> Optional[OutlineEntry]:
    """One printed TOC line -> entry, or None if the line is not an entry."""
    m = _ENTRY.match(line.replace("\t", "  "))
    if not m:
        return None
    body = " ".join(m["body"].split()).rstrip(". ")
    if not any(ch.isalpha() for ch in body):
        return None
    number = parse_number(body)
    if number and number.title:
        return OutlineEntry(number.label, number.title, int(m["page"]), "printed")
    return OutlineEntry("", body, int(m["page"]), "printed")


def find_printed_toc(blocks: list[Block]) -> PrintedToc:
    """Find TOC / list pages (a title, then entry lines) and parse their entries."""
    by_page: dict[int, list[str]] = {}
    for block in blocks:
        if block.page is not None and not block.dropped:
            by_page.setdefault(block.page, []).extend(toc_lines(block.text))
    result = PrintedToc()
    mode = None  # "sections" or "lists" while inside a run of TOC pages
    for page in sorted(by_page):
        lines = by_page[page]
        entries = [e for e in map(parse_entry, lines) if e]
        titled = next((ln for ln in lines[:6] if _TOC_TITLE.match(ln) or _LIST_TITLE.match(ln)), None)
        if titled:
            mode = "lists" if _LIST_TITLE.match(titled) else "sections"
        elif mode and len(entries) < max(3, 0.5 * len(lines)):
            mode = None  # a continuation page must be mostly entries
        if not mode or len(entries) < (1 if titled else 2):  # a titled list may hold one entry
            continue
        if titled and mode == "sections":
            result.starts.append(page)
        result.pages.append(page)
        for entry in entries:
            is_listed_item = re.match(r"^(table|figure|attachment)\b", entry.title, re.I)
            (result.list_entries if is_listed_item and not entry.number else result.entries).append(entry)
    return result


def number_bookmarks(entries: list[OutlineEntry]) -> list[OutlineEntry]:
    """Bookmarks as the converter read them (whole titles) -> entries with the number split off."""
    out = []
    for entry in entries:
        number = parse_number(entry.title)
        if number and number.title:
            out.append(OutlineEntry(number.label, number.title, entry.page, entry.source))
        else:
            out.append(entry)
    return out


class OutlineIndex:
    """Fast lookup: does the outline list this number (with this title)?

    Titles are kept as ``spaceless_title``: a printed TOC's word gaps are not to be trusted.
    """

    def __init__(self, entries: list[OutlineEntry]):
        self.titles: dict[str, set[str]] = {}
        self.unnumbered: set[str] = set()
        for e in entries:
            if e.number:
                self.titles.setdefault(normalize_number(e.number), set()).add(spaceless_title(e.title))
            else:
                self.unnumbered.add(normalize_title(e.title))

    def __bool__(self) -> bool:
        return bool(self.titles)

    def match(self, label: str, title: str) -> str:
        """'title' when number and title match an entry, 'number' when only the number does, else ''."""
        titles = self.titles.get(normalize_number(label))
        if not titles:
            return ""
        wanted = spaceless_title(title)
        for t in titles:
            if wanted and (t == wanted or t.startswith(wanted) or wanted.startswith(t)):
                return "title"
        return "number"
