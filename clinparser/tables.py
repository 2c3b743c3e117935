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


def continues(previous: Table, table: Table, title: str) -> bool:
    """Is ``table`` the next-page part of ``previous``?"""
    if previous.pages[1] is None or table.page is None or table.page - previous.pages[1] not in (0, 1):
        return False
    if title and _CONTINUED.search(title):
        return True
    return not title and previous.columns == table.columns


def merge(previous: Table, table: Table) -> None:
    """Append ``table``'s rows to ``previous``, skipping repeated header rows.

    When the part's first row differs from the columns, it was data, not a repeated header.
    """
    rows = table.data if table.columns == previous.columns else [table.columns] + table.data
    previous.data.extend(r for r in rows if r != previous.columns)
    previous.pages[1] = table.pages[1]
    square(previous)


def square(table: Table) -> None:
    """Every row exactly len(columns): pad short rows; widen columns when a row has more."""
    width = max([len(table.columns)] + [len(r) for r in table.data])
    table.columns += [""] * (width - len(table.columns))
    table.data = [r + [""] * (width - len(r)) for r in table.data]


def write_csv(table: Table, path) -> None:
    pd.DataFrame(table.data, columns=table.columns, dtype=str).to_csv(path, index=False, encoding="utf-8", lineterminator="\n")
