"""The header band of a schedule table, found by what its cells hold rather than where the
table stage put the line between header and body.

A caption printed right above the grid, inside its frame ("Appendix B Schedule of Assessments"),
can be taken by the table stage as the grid's header row: each column then heads with a piece of
the caption ("Appendix B | Schedule | Schedule | of | Assessments"), and the real header rows
(the visits, the days, the windows) are the first body rows. Such a header names no visit: its
cells, joined in order with repeats dropped, read as a schedule's title. The table then takes
that text as its caption and the caption row out of its header; the leading body rows are read
as the header band by the grid reader (``grid.header_rows_in_data``: rows before the first mark,
holding visit cells, no mark).
"""

from __future__ import annotations

import re

from ..model import Table
from .header import names_a_visit


def caption_in_header(table: Table, title_pattern: re.Pattern) -> str | None:
    """The caption a table's header row holds in pieces, or None when its header is a header."""
    cells = [" ".join(c.split()) for c in table.columns]
    pieces = [c for k, c in enumerate(cells) if c and (k == 0 or c != cells[k - 1])]
    if len(pieces) < 2 or " / " in " ".join(cells):
        return None  # one header row only: a caption is one printed line
    caption = " ".join(pieces)
    if not title_pattern.search(caption) or len(caption.split()) > 20:
        return None
    # The pieces are words of a sentence, not visit headings ("Day 1", "Week 4", "Screening").
    if sum(names_a_visit(p) and bool(re.search(r"\d", p)) for p in pieces) > 1:
        return None
    return caption


def take_caption_from_header(table: Table, title_pattern: re.Pattern) -> str | None:
    """Move a caption out of the header row (in place): the table's title becomes it and its
    columns are left unnamed, so its leading body rows are its header. Returns the caption."""
    caption = caption_in_header(table, title_pattern)
    if caption is None:
        return None
    table.title = table.title or caption
    table.columns = [""] * len(table.columns)
    return caption
