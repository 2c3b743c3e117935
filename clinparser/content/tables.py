"""Attach tables: parsed pipe tables -> ``Table`` (columns + rows as strings, via pandas).

Ragged rows are padded (extra cells kept), and tables that continue over pages (same columns
or a "(continued)" caption) are merged into one. Reading the Markdown itself is
``convert.pipe_tables``."""

from __future__ import annotations

import re
from typing import Optional

import pandas as pd

from ..model import Block, Table
from ..shared.geometry import horizontal_overlap
from ..shared.markup import strip_markup
from ..shared.pipe_tables import header_like, header_rows, join_cells, lift_header

CAPTION = re.compile(r"^(?:\*\*|#+\s*|_)*(?P<caption>(?:Table|TABLE)\s+[A-Z]{0,6}[.\-]?\d+[a-z]?\b.*)$")
_CONTINUED = re.compile(r"\(?\b(continued|cont'?d|concluded)\b\)?|\(cont\.?\)", re.I)


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
    return (
        table.page is not None
        and previous.pages[1] is not None
        and table.page == previous.pages[1] + 1
        and same_header(previous, table)
    )


RECORD_LABEL_WORDS = 8  # a row label of a record table is a few words


def continues_record(previous: Table, table: Table) -> bool:
    """A record table (a label down the left of each row: "Study intervention name | Drug A |
    Drug B", "Dosage level | ...") cut at a page break, its next-page part read with its first
    row as a header: on the next page, as wide, labels down the left of both parts, and none of
    the part's labels repeating one of the table's (a second record of the same form would
    repeat them)."""
    if not (table.page is not None and previous.pages[1] is not None and table.page == previous.pages[1] + 1):
        return False
    if len(table.columns) != len(previous.columns) or len(table.columns) < 2 or not table.data:
        return False
    labels_a = [_norm(previous.columns[0])] + [_norm(r[0]) for r in previous.data]
    labels_b = [_norm(table.columns[0])] + [_norm(r[0]) for r in table.data]
    if len(labels_a) < 3 or not all(_is_label(x) for x in labels_a + labels_b):
        return False
    return not set(labels_a) & set(labels_b)


def _is_label(text: str) -> bool:
    return bool(text) and len(text.split()) <= RECORD_LABEL_WORDS and not text[:1].isdigit()


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
    lifted_prev, lifted = (
        Table(t.title, t.page, list(t.pages), *lift_header(t.columns, t.data)) for t in (previous, table)
    )
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
        return -ROW_GAP <= b[1] - a[3] <= ROW_GAP and horizontal_overlap(a, b) >= 0.8 * min(a[2] - a[0], b[2] - b[0])
    m, text = line.bbox, strip_markup(line.text).strip()
    if m is None or line.page != above.page:
        return False
    height = m[3] - m[1]
    if "\n" in text or not text or len(text.split()) > SPANNING_ROW_WORDS or height <= 0:
        return False
    inside = m[0] >= min(a[0], b[0]) - 5 and m[2] <= max(a[2], b[2]) + 5
    return inside and -height <= m[1] - a[3] <= 2 * height and -height <= b[1] - m[3] <= 2 * height


ROW_GAP = 24.0  # points between two parts of one table cut at a row (two lines of text)


def continues_below_row(previous: Table, table: Table) -> bool:
    """The part below a spanning row: the same number of columns and no header of its own
    (its first row is body text, not a header: a new table would bring one)."""
    sentence = any(len(str(c).split()) >= SENTENCE_WORDS for c in table.columns)
    return len(table.columns) == len(previous.columns) and (sentence or not header_like(table.columns))


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
        if rows and _norm(rows[0][0]) == _norm(first[0]) and _norm(first[0]) and header_like(rows[0]):
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
    pd.DataFrame(table.data, columns=table.columns, dtype=str).to_csv(
        path, index=False, encoding="utf-8", lineterminator="\n"
    )
