"""The converters' Markdown pipe tables read into cells, and their header rows told apart.

Handles escaped pipes, ``<br>`` inside cells, empty header cells, multi-row headers
(``Visit / Day``) and emphasis markup. Both the converter's own grid reading and the
content stage's tables read pipe tables through here; code that reads a row's cells
itself takes them from ``row_cells`` (``is_table_row`` and ``is_rule_row`` tell the lines apart)."""

from __future__ import annotations

import re
from typing import Optional

import pandas as pd

from .markup import strip_markup

_SPLIT = re.compile(r"(?<!\\)\|")
_SEPARATOR = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")


def is_table_row(line: str) -> bool:
    """Is ``line`` a row of a Markdown pipe table (its first character after any spaces a pipe)?"""
    return line.lstrip().startswith("|")


def is_rule_row(line: str) -> bool:
    """Is ``line`` the rule under a pipe table's header (``|---|:--:|``, two dashes or more a cell)?"""
    return bool(_SEPARATOR.match(line))


def row_cells(line: str) -> list[str]:
    """The raw cells of one pipe-table row: outer pipes dropped, split at unescaped pipes, ``\\|`` read as ``|``."""
    line = line.strip()
    if line.startswith("|"):
        line = line[1:]
    if line.endswith("|") and not line.endswith("\\|"):
        line = line[:-1]
    return [cell.replace("\\|", "|") for cell in _SPLIT.split(line)]


def _clean_cell(cell: str) -> str:
    parts = re.split(r"<br\s*/?>", cell)
    return "\n".join(strip_markup(p) for p in parts).strip()


def parse_pipe_table(markdown: str) -> Optional[pd.DataFrame]:
    """A DataFrame of strings from a Markdown pipe table, or None if there is none."""
    lines = [ln for ln in markdown.strip().splitlines() if ln.strip()]
    rows, header_rows = [], None
    for line in lines:
        if not is_table_row(line):
            continue
        if is_rule_row(line) and header_rows is None:
            header_rows = len(rows)
            continue
        rows.append([_clean_cell(c) for c in row_cells(line)])
    if not rows:
        return None
    width = max(len(r) for r in rows)
    rows = [r + [""] * (width - len(r)) for r in rows]
    n_header = header_rows if header_rows else 1
    header = [join_header(col) for col in zip(*rows[:n_header])]
    body = rows[n_header:]
    return pd.DataFrame(body, columns=header, dtype=str)


def join_header(parts) -> str:
    """A column's header rows joined top to bottom ("Visit 1 / Week -2"). A cell spanning
    several header rows comes back once per row and is said once; a number repeated is two
    rows' values (visit 8 in week 8: "8 / 8")."""
    kept: list[str] = []
    for part in (p.strip() for p in parts):
        if part and (not kept or part != kept[-1] or _NUMBER.match(part)):
            kept.append(part)
    return " / ".join(kept)


def join_cells(cells: list[str]) -> str:
    """Join cells into one line. Table detection sometimes cuts through words
    ("Tabl|e 1. Sc|hedule"): a cell that continues in lower case is glued to the one before."""
    out = ""
    for cell in cells:
        glue = out and out[-1].isalpha() and cell[:1].islower()
        out = f"{out}{cell}" if glue or not out else f"{out} {cell}"
    return out


# A cell that only marks an activity as done at a visit: the body of a schedule, never its header.
MARK = re.compile(r"^(\([xX✓✔√•●■☒]\)|[xX✓✔√•●■☒↔])[a-z0-9,*†‡§¶]{0,3}$")
# An arrow typed across visits ("←——→", "<-- -->"): a mark, as a drawn arrow is
TYPED_ARROW = re.compile(r"^[←<][-—–─=\s]+.*[-—–─=\s]*[→>]$", re.S)
_NUMBER = re.compile(r"^[-+±–−]?\d+([.,]\d+)?%?$")
MAX_HEADER_ROWS = 5
MAX_HEADER_CELL = 60  # characters: a longer cell is body text
STUB = 3  # characters: the stub of a word a column boundary cut off ("al", "ity", "g")


def _filled(row: list[str]) -> int:
    return sum(bool(c.strip()) for c in row)


# A first cell naming a header row of a schedule ("Window", "Time point", "Study Day (window)").
ROW_NAME = re.compile(
    r"^(?:study\s+|visit\s+|sampling\s+)?(?:windows?|time\s?points?|times?|days?|weeks?|hours?|cycles?|visits?|months?)"
    r"(?:\s+windows?)?(?:\s*\([^)]*\))?$",
    re.I,
)


def header_like(row: list[str], named: bool = True) -> bool:
    """Short cells, no activity mark, at least half of them filled, or fewer when the first
    cell names a header row ("Window", "Time point": a row that only some visits fill)."""
    cells = [c.strip() for c in row]
    filled = (
        _filled(cells) * 2 >= len(cells) or named and bool(cells and ROW_NAME.match(cells[0]) and _filled(cells) >= 2)
    )
    return (
        filled
        and not any(MARK.match(c) or TYPED_ARROW.match(c) for c in cells)
        and all(len(c) <= MAX_HEADER_CELL for c in cells)
    )


def lift_header(
    columns: list[str], data: list[list[str]], named_rows: bool = True
) -> tuple[list[str], list[list[str]]]:
    """The header with the header rows a converter left in ``data`` taken back, joined per column.

    Converters give one header row; a schedule's header often has several (visits, then weeks,
    then days), so the rows after the first stay in ``data``. A leading data row is a header row
    when the header so far is incomplete (a column with content has no header text) and the row
    reads as a header: short cells, mostly filled, no activity mark. In a schedule (a later row
    has marks) every such row before the first marked row is a header row when the header has
    more than one row, and so is a row only some visits fill whose first cell names it
    ("Window", "Time point"); elsewhere the row
    must also be full (a key/value row leaves a cell empty) and hold no bare numbers (a units
    row, not a data row). Cells cut mid-word and spanning cells are then mended (``mend_header``) and
    the rows joined per column, top to bottom: ``VISIT / WEEK``, ``1 / -2``.
    """
    width = max([len(columns)] + [len(r) for r in data])
    rows = [r + [""] * (width - len(r)) for r in data]
    lifted = header_rows(columns, data, named_rows)
    header = [list(columns) + [""] * (width - len(columns))] + rows[:lifted]
    rows = rows[lifted:]
    if len(header) == 1 and not any(_cut(a, b, short=True) for a, b in zip(header[0], header[0][1:])):
        return list(columns), data
    header = mend_header(header)
    joined = [join_header([h[k] for h in header]) for k in range(width)]
    return joined, rows


def header_rows(columns: list[str], data: list[list[str]], named_rows: bool = True) -> int:
    """How many leading rows of ``data`` are header rows (see ``lift_header``); ``named_rows``
    False leaves out the sparse rows named as header rows."""
    width = max([len(columns)] + [len(r) for r in data])
    rows = [r + [""] * (width - len(r)) for r in data]
    header = [list(columns) + [""] * (width - len(columns))]
    used = [any(r[k].strip() for r in [header[0]] + rows) for k in range(width)]
    first_mark = next((i for i, r in enumerate(rows) if any(MARK.match(c.strip()) for c in r)), None)
    while rows[1:] and len(header) < MAX_HEADER_ROWS:
        missing = [k for k in range(width) if used[k] and not any(h[k].strip() for h in header)]
        row = rows[0]
        schedule = first_mark is not None and first_mark > 0
        # a row only some visits fill, named as a header row ("Window", "Time point")
        named = (
            named_rows
            and bool(row)
            and bool(ROW_NAME.match(row[0].strip()))
            and _filled([c.strip() for c in row]) * 2 < len(row)
        )
        if not header_like(row, named_rows) or not (missing or schedule and (len(header) > 1 or named)):
            break
        if not schedule and not (all(c.strip() for c in row) and not any(_NUMBER.match(c.strip()) for c in row)):
            break
        header.append(row)
        rows = rows[1:]
        first_mark = None if first_mark is None else first_mark - 1
    return len(header) - 1


def _cut(left: str, right: str, *, short: bool = False) -> bool:
    """Was a word cut at the boundary between two adjacent cells ("Interve" | "ntion")? Both
    sides lower case, or a lone capital on the left ("P" | "retreatment"); "IUD" |
    "intrauterine" is an acronym and its meaning. ``short``: one side must also be a short
    stub ("Origin" | "al text", "Con" | "tinue"), as in a header row whose cells name single
    columns ("Dose" | "mg/kg", "Visit type" | "site" stay apart)."""
    left, right = left.strip(), right.strip()
    if not (left and right and right[0].islower() and (left[-1].islower() or len(left) == 1 and left.isupper())):
        return False
    return not short or min(len(right.split()[0]), len(left.split()[-1])) <= STUB


def mend_header(header: list[list[str]]) -> list[list[str]]:
    """Header rows with spanning cells made whole.

    A spanning cell's text is cut by the column boundaries it crosses ("Interve" | "ntion
    period"): in the rows above the last, the pieces are glued back and the whole text is given
    to every column of the run.
    In a two-row header whose top row is sparse and starts at the first column after the row
    labels ("Treatment period | | | Follow-up | "), each top cell also covers the empty cells
    to its right: the sub-columns under it. Only there: a top row whose labels sit in the
    middle of their span (centred text cut by the converter's columns) cannot be told apart.
    """
    rows = [[c.strip() for c in r] for r in header]
    for i, row in enumerate(rows):
        # Spanning cells sit above the last row; the last row names single columns.
        last = i == len(rows) - 1
        # A value repeated along the row ("site", "site") is a column's own value, not a piece.
        repeated = {c for c in row if c and row.count(c) > 1}
        k = 0
        while k < len(row):
            end = k
            while (
                end + 1 < len(row)
                and _cut(row[end], row[end + 1], short=last)
                and not {row[end], row[end + 1]} & repeated
            ):
                end += 1
            text = "".join(row[k : end + 1])
            row[k : end + 1] = [text] * (end + 1 - k)
            k = end + 1
    top = pd.Series(rows[0], dtype=str) if rows else pd.Series(dtype=str)
    if len(rows) == 2 and len(top) > 2 and top.iloc[1] and _filled(rows[0]) * 2 <= len(top):
        spans = top.replace("", pd.NA).mask(top.index == 0).ffill().fillna("")
        under = pd.Series(rows[1], dtype=str) != ""
        rows[0] = top.where((top != "") | ~under, spans).tolist()
    return rows
