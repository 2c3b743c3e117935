"""Attach tables: Markdown pipe-tables -> ``Table`` (columns + rows as strings, via pandas).

Handles escaped pipes, ``<br>`` inside cells, empty header cells, multi-row headers
(``Visit / Day``), emphasis markup, ragged rows (padded; extra cells kept), and tables that
continue over pages (same columns or a "(continued)" caption) merged into one.
"""

from __future__ import annotations

import re
from typing import Optional

import pandas as pd

from .model import Table
from .numbering import strip_markup

_SPLIT = re.compile(r"(?<!\\)\|")
_SEPARATOR = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")
CAPTION = re.compile(r"^(?:\*\*|#+\s*|_)*(?P<caption>(?:Table|TABLE)\s+[A-Z]{0,6}[.\-]?\d+[a-z]?\b.*)$")
_CONTINUED = re.compile(r"\(?\b(continued|cont'?d|concluded)\b\)?", re.I)


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
    header = [" / ".join(dict.fromkeys(h for h in col if h)) for col in zip(*rows[:n_header])]
    body = rows[n_header:]
    return pd.DataFrame(body, columns=header, dtype=str)


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


def to_table(df: pd.DataFrame, *, title: str, page: Optional[int]) -> Table:
    table = Table(title=title, page=page, pages=[page, page], columns=[str(c) for c in df.columns], data=df.astype(str).values.tolist())
    square(table)
    return table


def caption_of(text: str) -> Optional[str]:
    """The caption if this block is one ("Table 3: ...", "Table 1a ..."), else None."""
    m = CAPTION.match(strip_markup(text.strip()) if text.count("\n") < 3 else "")
    return strip_markup(m["caption"]) if m else None


def _norm(cell: str) -> str:
    return " ".join(strip_markup(str(cell)).lower().split())


def same_header(a: Table, b: Table) -> bool:
    """Same columns once markup, case and line breaks are folded, and not all empty."""
    ha, hb = [_norm(c) for c in a.columns], [_norm(c) for c in b.columns]
    return ha == hb and any(ha)


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


def join_beside(previous: Table, table: Table, shared: int) -> None:
    """Append ``table``'s columns (after the ``shared`` label columns) to ``previous``, row by row."""
    previous.columns = previous.columns + table.columns[shared:]
    previous.data = [a + b[shared:] for a, b in zip(previous.data, table.data)]
    previous.pages[1] = table.pages[1]
    square(previous)


def merge(previous: Table, table: Table) -> None:
    """Append ``table``'s rows to ``previous``, skipping repeated header rows.

    When the part's first row differs from the columns, it was data, not a repeated header.
    """
    rows = table.data if same_header(previous, table) else [table.columns] + table.data
    header = [_norm(c) for c in previous.columns]
    previous.data.extend(r for r in rows if [_norm(c) for c in r] != header)
    previous.pages[1] = table.pages[1]
    square(previous)


def square(table: Table) -> None:
    """Every row exactly len(columns): pad short rows; widen columns when a row has more."""
    width = max([len(table.columns)] + [len(r) for r in table.data])
    table.columns += [""] * (width - len(table.columns))
    table.data = [r + [""] * (width - len(r)) for r in table.data]


def write_csv(table: Table, path) -> None:
    pd.DataFrame(table.data, columns=table.columns, dtype=str).to_csv(path, index=False, encoding="utf-8", lineterminator="\n")
