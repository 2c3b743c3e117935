"""Attach tables: Markdown pipe-tables -> ``Table`` (columns + rows as strings, via pandas).

Handles escaped pipes, ``<br>`` inside cells, empty header cells, multi-row headers
(``Visit / Day``), emphasis markup, ragged rows (padded; extra cells kept), and tables that
continue over pages (same columns or a "(continued)" caption) merged into one.
"""

from __future__ import annotations

import re
from typing import Optional

import pandas as pd

from .model import Block, Table
from .numbering import strip_markup

_SPLIT = re.compile(r"(?<!\\)\|")
_SEPARATOR = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")
CAPTION = re.compile(r"^(?:\*\*|#+\s*|_)*(?P<caption>(?:Table|TABLE)\s+[A-Z]{0,6}[.\-]?\d+[a-z]?\b.*)$")
_CONTINUED = re.compile(r"\(?\b(continued|cont'?d|concluded)\b\)?|\(cont\.?\)", re.I)


def _cells(line: str) -> list[str]:
    line = line.strip()
    if line.startswith("|"):
        line = line[1:]
    if line.endswith("|") and not line.endswith("\\|"):
        line = line[:-1]
    return [_clean_cell(c) for c in _SPLIT.split(line)]


def _clean_cell(cell: str) -> str:
    parts = re.split(r"<br\s*/?>", cell.replace("\\|", "|"))
    return "\n".join(strip_markup(p) for p in parts).strip()


def parse_pipe_table(markdown: str) -> Optional[pd.DataFrame]:
    """A DataFrame of strings from a Markdown pipe table, or None if there is none."""
    lines = [ln for ln in markdown.strip().splitlines() if ln.strip()]
    rows, header_rows = [], None
    for line in lines:
        if not line.lstrip().startswith("|"):
            continue
        if _SEPARATOR.match(line) and header_rows is None:
            header_rows = len(rows)
            continue
        rows.append(_cells(line))
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


def split_caption_row(df: pd.DataFrame) -> tuple[str, pd.DataFrame]:
    """A caption the table detector took in as the header row ("Table 2: ... | ...")."""
    header = join_cells([" ".join(str(c).split()) for c in df.columns if str(c).strip()])
    caption = caption_of(header) if len(df) >= 1 else None
    if not caption:
        return "", df
    body = df.values.tolist()
    return caption, pd.DataFrame(body[1:], columns=body[0], dtype=str)


def to_table(df: pd.DataFrame, *, title: str, page: Optional[int], lift: bool = True) -> Table:
    """A ``Table`` from a parsed pipe table. ``lift=False`` keeps the header rows a converter
    left in the data where they are: parts of a table continued over pages are joined on their
    first row, and the header is lifted once the table is whole (``finish_header``)."""
    columns, data = [str(c) for c in df.columns], df.astype(str).values.tolist()
    if lift:
        columns, data = lift_header(columns, data)
    table = Table(title=title, page=page, pages=[page, page], columns=columns, data=data)
    square(table)
    return table


def finish_header(table: Table) -> None:
    """Lift the header rows of a whole table (see ``lift_header``), in place."""
    rows = len(table.data)
    table.columns, table.data = lift_header(table.columns, table.data)
    lifted = rows - len(table.data)
    table.part_rows = [r - lifted for r in table.part_rows if r - lifted > 0]
    square(table)


# A cell that only marks an activity as done at a visit: the body of a schedule, never its header.
_MARK = re.compile(r"^(\([xX✓✔√•●■☒]\)|[xX✓✔√•●■☒])[a-z0-9,*†‡§¶]{0,3}$")
_NUMBER = re.compile(r"^[-+±–−]?\d+([.,]\d+)?%?$")
MAX_HEADER_ROWS = 5
MAX_HEADER_CELL = 60  # characters: a longer cell is body text
STUB = 3  # characters: the stub of a word a column boundary cut off ("al", "ity", "g")


def _filled(row: list[str]) -> int:
    return sum(bool(c.strip()) for c in row)


def _header_like(row: list[str]) -> bool:
    """Short cells, no activity mark, at least half of them filled."""
    cells = [c.strip() for c in row]
    return _filled(cells) * 2 >= len(cells) and not any(_MARK.match(c) for c in cells) and all(len(c) <= MAX_HEADER_CELL for c in cells)


def lift_header(columns: list[str], data: list[list[str]]) -> tuple[list[str], list[list[str]]]:
    """The header with the header rows a converter left in ``data`` taken back, joined per column.

    Converters give one header row; a schedule's header often has several (visits, then weeks,
    then days), so the rows after the first stay in ``data``. A leading data row is a header row
    when the header so far is incomplete (a column with content has no header text) and the row
    reads as a header: short cells, mostly filled, no activity mark. In a schedule (a later row
    has marks) every such row before the first marked row is a header row; elsewhere the row
    must also be full (a key/value row leaves a cell empty) and hold no bare numbers (a units
    row, not a data row). Cells cut mid-word and spanning cells are then mended (``mend_header``) and
    the rows joined per column, top to bottom: ``VISIT / WEEK``, ``1 / -2``.
    """
    width = max([len(columns)] + [len(r) for r in data])
    rows = [r + [""] * (width - len(r)) for r in data]
    lifted = header_rows(columns, data)
    header = [list(columns) + [""] * (width - len(columns))] + rows[:lifted]
    rows = rows[lifted:]
    if len(header) == 1 and not any(_cut(a, b, short=True) for a, b in zip(header[0], header[0][1:])):
        return list(columns), data
    header = mend_header(header)
    joined = [join_header([h[k] for h in header]) for k in range(width)]
    return joined, rows


def header_rows(columns: list[str], data: list[list[str]]) -> int:
    """How many leading rows of ``data`` are header rows (see ``lift_header``)."""
    width = max([len(columns)] + [len(r) for r in data])
    rows = [r + [""] * (width - len(r)) for r in data]
    header = [list(columns) + [""] * (width - len(columns))]
    used = [any(r[k].strip() for r in [header[0]] + rows) for k in range(width)]
    first_mark = next((i for i, r in enumerate(rows) if any(_MARK.match(c.strip()) for c in r)), None)
    while rows[1:] and len(header) < MAX_HEADER_ROWS:
        missing = [k for k in range(width) if used[k] and not any(h[k].strip() for h in header)]
        row = rows[0]
        schedule = first_mark is not None and first_mark > 0
        if not _header_like(row) or not (missing or schedule and len(header) > 1):
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
            while end + 1 < len(row) and _cut(row[end], row[end + 1], short=last) and not {row[end], row[end + 1]} & repeated:
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


def caption_of(text: str) -> Optional[str]:
    """The caption if this block is one ("Table 3: ...", "Table 1a ..."), else None."""
    m = CAPTION.match(strip_markup(text.strip()) if text.count("\n") < 3 else "")
    return strip_markup(m["caption"]) if m else None


def _norm(cell: str) -> str:
    return " ".join(strip_markup(str(cell)).lower().split())


def same_header(a: Table, b: Table) -> bool:
    """Same columns once markup, case and line breaks are folded, and not all empty; or the
    same header once each part's header rows are lifted and mended (the converter cut a
    spanning cell at other places on the next page: "Treatme" | "nt" there, "Treatmen" | "t" here)."""
    ha, hb = [_norm(c) for c in a.columns], [_norm(c) for c in b.columns]
    if ha == hb and any(ha):
        return True
    if len(ha) == len(hb) and any(ha) and "".join(ha).replace(" ", "") == "".join(hb).replace(" ", ""):
        return True  # the same words, the column boundaries cutting them elsewhere
    la, lb = ([_norm(c) for c in lift_header(t.columns, t.data)[0]] for t in (a, b))
    return la == lb and any(la)


def _next_page(previous: Table, table: Table) -> bool:
    return previous.pages[1] is not None and table.page is not None and table.page - previous.pages[1] in (0, 1)


def is_continued(title: str) -> bool:
    """A "(continued)" / "(cont'd)" / "(concluded)" caption."""
    return bool(_CONTINUED.search(title))


def continues(previous: Table, table: Table, title: str) -> bool:
    """Is ``table`` the next-page part of ``previous``, right after it?"""
    if not _next_page(previous, table):
        return False
    if title and _CONTINUED.search(title):
        return True
    return not title and same_header(previous, table)


def continues_down(previous: Table, table: Table) -> bool:
    """The same header repeated at the top of the next page: the table goes on, whatever
    stood between the parts (footnotes of the first part, furniture, a "continued" line)."""
    return table.page is not None and previous.pages[1] is not None and table.page == previous.pages[1] + 1 and same_header(previous, table)


def label_columns(previous: Table, table: Table) -> int:
    """How many leading columns two tables share, header and every row alike: the row labels
    of a schedule continued sideways ("Activity | Week" then the visits). 0 when they differ."""
    if not _next_page(previous, table) or len(previous.data) != len(table.data) or len(previous.data) < 2:
        return 0
    width = min(len(previous.columns), len(table.columns)) - 1
    shared = 0
    while shared < width:
        col_a = [_norm(previous.columns[shared])] + [_norm(r[shared]) for r in previous.data]
        col_b = [_norm(table.columns[shared])] + [_norm(r[shared]) for r in table.data]
        agree = sum(x == y for x, y in zip(col_a, col_b))
        if agree < 0.9 * len(col_a) or (shared == 0 and sum(bool(x) for x in col_a) < 0.5 * len(col_a)):
            break
        shared += 1
    return shared


def join_sideways(previous: Table, table: Table) -> bool:
    """Join ``table`` beside ``previous`` when it continues it sideways; say whether it did.
    The two parts may keep different numbers of header rows in their data (one part read from
    its ruled grid, the other by the layout model): then each part's header rows are lifted
    first (``lift_header``, which also mends the spanning cells each page cut) and the parts are
    compared, and joined, row for row below their headers."""
    shared = label_columns(previous, table)
    if shared:
        join_beside(previous, table, shared)
        return True
    if len(previous.data) == len(table.data):
        return False
    lifted_prev, lifted = (Table(t.title, t.page, list(t.pages), *lift_header(t.columns, t.data)) for t in (previous, table))
    shared = label_columns(lifted_prev, lifted)
    if not shared:
        return False
    previous.columns, previous.data = lifted_prev.columns, lifted_prev.data
    join_beside(previous, lifted, shared)
    return True


def join_beside(previous: Table, table: Table, shared: int) -> None:
    """Append ``table``'s columns (after the ``shared`` label columns) to ``previous``, row by row."""
    previous.columns = previous.columns + table.columns[shared:]
    previous.data = [a + b[shared:] for a, b in zip(previous.data, table.data)]
    previous.pages[1] = table.pages[1]
    square(previous)


SPANNING_ROW_WORDS = 25  # a spanning row is a label, not a paragraph
SENTENCE_WORDS = 8  # a header cell is a label: a first-row cell this long is body text


def spanning_row(above: Block, line: Optional[Block], below: Block) -> bool:
    """Does ``line`` sit like a row of the table whose parts are ``above`` and ``below``: on
    their page, one short line, within the table's width, each gap to the parts under two of
    its line heights? With no line, are the parts that close (under ROW_GAP)?"""
    if above.bbox is None or below.bbox is None or above.page != below.page:
        return False
    a, b = above.bbox, below.bbox
    if line is None:
        return -ROW_GAP <= b[1] - a[3] <= ROW_GAP and _overlap(a, b) >= 0.8 * min(a[2] - a[0], b[2] - b[0])
    m, text = line.bbox, strip_markup(line.text).strip()
    if m is None or line.page != above.page:
        return False
    height = m[3] - m[1]
    if "\n" in text or not text or len(text.split()) > SPANNING_ROW_WORDS or height <= 0:
        return False
    inside = m[0] >= min(a[0], b[0]) - 5 and m[2] <= max(a[2], b[2]) + 5
    return inside and -height <= m[1] - a[3] <= 2 * height and -height <= b[1] - m[3] <= 2 * height


ROW_GAP = 24.0  # points between two parts of one table cut at a row (two lines of text)


def _overlap(a, b) -> float:
    return max(0.0, min(a[2], b[2]) - max(a[0], b[0]))


def continues_below_row(previous: Table, table: Table) -> bool:
    """The part below a spanning row: the same number of columns and no header of its own
    (its first row is body text, not a header: a new table would bring one)."""
    sentence = any(len(str(c).split()) >= SENTENCE_WORDS for c in table.columns)
    return len(table.columns) == len(previous.columns) and (sentence or not _header_like(table.columns))


def merge_below_row(previous: Table, row: str, table: Table) -> None:
    """Append the spanning row (its text in the first cell), then ``table``'s rows."""
    previous.data.append([row] + [""] * (len(previous.columns) - 1))
    merge(previous, table)


def merge(previous: Table, table: Table) -> None:
    """Append ``table``'s rows to ``previous``, skipping repeated header rows.

    When the part's first row differs from the columns, it was data, not a repeated header.
    """
    rows = table.data if same_header(previous, table) else [table.columns] + table.data
    header = [_norm(c) for c in previous.columns]
    rows = [r for r in rows if [_norm(c) for c in r] != header]
    # The part repeats the header rows below the first one too ("Study week", "Study day"):
    # the same row labels, in the same order, reading as a header.
    for first in previous.data[: header_rows(previous.columns, previous.data)]:
        if rows and _norm(rows[0][0]) == _norm(first[0]) and _norm(first[0]) and _header_like(rows[0]):
            rows = rows[1:]
    if rows:
        previous.part_rows.append(len(previous.data))
    previous.data.extend(rows)
    previous.pages[1] = table.pages[1]
    square(previous)


def square(table: Table) -> None:
    """Every row exactly len(columns): pad short rows; widen columns when a row has more."""
    width = max([len(table.columns)] + [len(r) for r in table.data])
    table.columns += [""] * (width - len(table.columns))
    table.data = [r + [""] * (width - len(r)) for r in table.data]


def write_csv(table: Table, path) -> None:
    pd.DataFrame(table.data, columns=table.columns, dtype=str).to_csv(path, index=False, encoding="utf-8", lineterminator="\n")
