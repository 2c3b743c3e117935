"""A body row the table stage took into the header.

The converter decides where a grid's header ends from its look (bold, fill, rules). A first body
row printed alike, "Concomitant medications | Continuous | Continuous | ...", a row of the same
words in every visit column, then ends up as the lowest header row: every visit's label gains
" / Continuous" and the activity is lost. Such a row is told by what it holds: the label
column's lowest header part names no header row (no visit, day, week, window, period...), and
the visit columns' lowest parts are one text, the same in each, that names no visit or time.
It is put back as the first body row (in place), its label in the leftmost label column.
"""

from __future__ import annotations

import re
from typing import Optional

from ..model import Table
from .header import names_a_visit, reads_as_time, row_kinds

__all__ = ["lift_body_row"]

_HEADER_WORDS = re.compile(
    r"\b(?:visits?|days?|weeks?|months?|years?|hours?|cycles?|windows?|periods?|phases?|epochs?"
    r"|time\s?points?|timepoints?|procedures?|activit(?:y|ies)|assessments?|evaluations?|study)\b",
    re.I,
)


def lift_body_row(table: Table, label: int) -> Optional[str]:
    """Move the lowest header row back into the body when it is an activity's row (module
    docstring); the row's label when moved, else None."""
    parts = [_parts(c) for c in table.columns]
    own = parts[label]
    if len(own) < 2 or _HEADER_WORDS.search(own[-1]) or row_kinds([own[-1]]):
        return None
    # (the activity column right of a group column has the same header as the group's)
    visits = [k for k in range(label + 1, len(parts)) if len(parts[k]) >= 2 and parts[k] != own]
    lows = {parts[k][-1] for k in visits}
    if len(visits) < 2 or len(lows) != 1:
        return None
    low = next(iter(lows))
    if names_a_visit(low) or reads_as_time(low) or re.search(r"\d", low):
        return None
    first = min(k for k in range(len(parts)) if parts[k] == own)  # a label spanning a group column
    row = [""] * len(table.columns)
    for k, p in enumerate(parts):
        if p == own or k in visits:
            table.columns[k] = " / ".join(p[:-1])
            row[k] = p[-1] if k in visits else ""
    row[first] = own[-1]
    table.data.insert(0, row)
    table.part_rows = [r + 1 for r in table.part_rows]  # where each later page's rows start
    return own[-1]


def _parts(header: str) -> list[str]:
    return [" ".join(p.split()) for p in header.split(" / ") if p.strip()]
