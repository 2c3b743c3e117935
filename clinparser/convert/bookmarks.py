"""The PDF's bookmarks (its outline) as the document states them.

Titles are kept whole: telling a section number from its title is the numbering grammar's job,
done by the structure stage (``structure.outline.number_bookmarks``)."""

from __future__ import annotations

from ..model import OutlineEntry


def read_bookmarks(toc: list[list]) -> list[OutlineEntry]:
    """PyMuPDF's outline ``[[level, title, page], ...]`` -> unnumbered entries, titles whole."""
    return [OutlineEntry("", str(item[1]).strip(), int(item[2]) if len(item) > 2 else None, "bookmark") for item in toc]
