"""The PDF's bookmarks (its outline) as the document states them.

Titles are kept whole: telling a section number from its title is the numbering grammar's job,
done by the structure stage (``structure.outline.number_bookmarks``)."""

from __future__ import annotations

from ..model import OutlineEntry


def read_bookmarks(toc: list[list]) -> list[OutlineEntry]:
    """PyMuPDF's outline ``[[level, title, page], ...]`` -> unnumbered entries, titles whole.

    A bookmark whose destination is missing or points outside the document (PyMuPDF gives
    page -1 or 0) has no page: None, never a page number no page has."""
    return [OutlineEntry("", str(item[1]).strip(), _page(item), "bookmark") for item in toc]


def _page(item: list) -> int | None:
    page = int(item[2]) if len(item) > 2 and item[2] is not None else 0
    return page if page >= 1 else None
