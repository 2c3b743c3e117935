"""A table printed as a picture, read back into a table: its ruling lines from the picture's
pixels, its words by OCR (the bundled RapidOCR models), each word in the cell its centre falls in.

``table_from_picture(image)`` returns the ``Table`` (``from_ocr`` true) and the text printed under
the grid (its footnotes and legend), or None when the picture draws no grid: fewer than three
horizontal or three vertical rules. The rules are found before any OCR runs (a row or column of
pixels mostly dark is a rule), so a photo, a logo or a chart without a ruled grid costs a pass
over its pixels and nothing more.

Rows are the bands between horizontal rules and columns the bands between vertical rules; a
cell's OCR lines are joined top to bottom. A line that crosses a vertical rule and has one word
per column it covers is split there ("X X" read as one line over two visits). The leading rows
with no mark in them are the header: each column's header cells joined top to bottom with
" / ", as the table stage joins header rows.
"""

from __future__ import annotations

import bisect
from typing import Optional

from ..convert.pipe_tables import MARK
from ..model import Table

DARK = 160  # a pixel darker than this (0-255 grey) is ink
RULE_SHARE = 0.5  # a rule inks at least this share of the grid's width (or height)
MIN_RULES = 3  # a grid has at least this many rules each way


def table_from_picture(png: bytes, title: str = "", page: Optional[int] = None) -> Optional[tuple[Table, str]]:
    """(the table, the text under the grid) a ruled picture holds, else None."""
    image = _rgb(png)
    if image is None:
        return None
    rows, columns = _rules(image)
    if len(rows) < MIN_RULES or len(columns) < MIN_RULES:
        return None
    from ..convert.ocr import read_lines

    cells = [[[] for _ in range(len(columns) - 1)] for _ in range(len(rows) - 1)]
    below: list[tuple[float, float, str]] = []
    for box, text, _score in read_lines(image):
        xs, ys = [p[0] for p in box], [p[1] for p in box]
        cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
        if cy > rows[-1]:
            below.append((cy, min(xs), text))
            continue
        if not (rows[0] < cy < rows[-1] and columns[0] < cx < columns[-1]):
            continue
        r = bisect.bisect_right(rows, cy) - 1
        for c, word in _split_over_rules(min(xs), max(xs), text, columns):
            cells[r][c].append((cy, word))
    grid = [[" ".join(w for _, w in sorted(cell)) for cell in row] for row in cells]
    grid = [row for row in grid if any(row)]
    if len(grid) < 2:
        return None
    head = 0  # header rows: filled under most columns, no mark ("VISIT | 1 | 2 …", "WEEK | -2 | …")
    while head < len(grid) - 1 and sum(bool(c) for c in grid[head][1:]) * 2 >= len(grid[head]) - 1 \
            and not any(_marked(c) for c in grid[head][1:]):
        head += 1
    head = max(head, 1)
    header = [" / ".join(row[c] for row in grid[:head] if row[c]) for c in range(len(grid[0]))]
    table = Table(title=title, page=page, pages=[page, page], columns=header, data=grid[head:], from_ocr=True)
    notes = "\n\n".join(text for _, _, text in sorted(below))
    return table, notes


def _marked(cell: str) -> bool:
    """A mark, OCR's space before a footnote letter taken out ("X a")."""
    return bool(MARK.match(cell.replace(" ", "")))


def _rgb(png: bytes):
    """The picture as an RGB array (height x width x 3), or None when it cannot be decoded."""
    import numpy as np
    import pymupdf

    try:
        pix = pymupdf.Pixmap(png)
    except (RuntimeError, ValueError):
        return None
    if pix.alpha:
        pix = pymupdf.Pixmap(pix, 0)
    if pix.n != 3:
        pix = pymupdf.Pixmap(pymupdf.csRGB, pix)
    return np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.width, 3).copy()


def _rules(image) -> tuple[list[float], list[float]]:
    """The y of each horizontal rule and the x of each vertical one (between the first and the
    last horizontal rule), in pixels: runs of mostly inked rows or columns, one rule per run."""
    ink = image.mean(axis=2) < DARK
    rows = _runs([i for i, share in enumerate(ink.mean(axis=1)) if share >= RULE_SHARE])
    if len(rows) < 2:
        return rows, []
    band = ink[int(rows[0]): int(rows[-1]) + 1]
    columns = _runs([i for i, share in enumerate(band.mean(axis=0)) if share >= RULE_SHARE])
    return rows, columns


def _runs(indices: list[int]) -> list[float]:
    """Consecutive indices as one position each (the middle of the run)."""
    out: list[list[int]] = []
    for i in indices:
        if out and i - out[-1][-1] <= 2:
            out[-1].append(i)
        else:
            out.append([i])
    return [(run[0] + run[-1]) / 2 for run in out]


def _split_over_rules(x0: float, x1: float, text: str, columns: list[float]) -> list[tuple[int, str]]:
    """(column, text) for an OCR line: its own column, or one word per column when it crosses
    vertical rules and has exactly as many words as the columns it covers."""
    first = max(0, bisect.bisect_right(columns, x0) - 1)
    last = min(len(columns) - 2, bisect.bisect_right(columns, x1) - 1)
    words = text.split()
    if last > first and len(words) == last - first + 1:
        return list(zip(range(first, last + 1), words))
    centre = min(len(columns) - 2, max(0, bisect.bisect_right(columns, (x0 + x1) / 2) - 1))
    return [(centre, text)]
