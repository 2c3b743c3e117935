"""A table printed as a picture, read back into a table: its ruling lines from the picture's
pixels, its words by OCR (the bundled RapidOCR models), each word in the cell its centre falls in.

``table_from_picture(png, lines)`` takes the picture and the lines read inside it
(``convert/picture_words``) and returns the ``Table`` (``from_ocr`` true) and the lines outside
its grid (a title above, footnotes and legend below), or None when the picture draws no grid:
fewer than three horizontal or three vertical rules (a row or column of pixels mostly dark is a
rule), so a photo, a logo or a chart costs a pass over its pixels and nothing more.

Rows are the bands between horizontal rules and columns the bands between vertical rules; a
cell's OCR lines are joined top to bottom. A line that crosses a vertical rule and has one word
per column it covers is split there ("X X" read as one line over two visits). The leading rows
with no mark in them are the header: each column's header cells joined top to bottom with
" / ", as the table stage joins header rows.
"""

from __future__ import annotations

import bisect
import dataclasses
from typing import Optional

from ..convert.pictures.picture_words import decode
from ..model import Table
from ..shared.pipe_tables import MARK
from .tables import join_beside, label_columns

DARK = 160  # a pixel darker than this (0-255 grey) is ink
RULE_SHARE = 0.5  # a rule inks at least this share of the grid's width (or height)
MIN_RULES = 3  # a grid has at least this many rules each way


def table_from_picture(
    png: bytes, lines: list, title: str = "", page: Optional[int] = None
) -> Optional[tuple[Table, list]]:
    """(the table, the lines outside its grid) of a ruled picture, else None. ``lines`` are the
    words read inside the picture (``convert/picture_words``): (box in its pixels, text)."""
    image = decode(png) if lines else None
    if image is None:
        return None
    rows, columns = _rules(image)
    if len(rows) < MIN_RULES or len(columns) < MIN_RULES:
        return None
    bands: dict[int, list[tuple[float, float, float, int, str]]] = {}  # band -> (middle, top, height, column, text)
    outside = []
    for line in lines:
        (x0, y0, x1, y1), text = line
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        if not (rows[0] < cy < rows[-1] and columns[0] < cx < columns[-1]):
            outside.append(line)
            continue
        band = bands.setdefault(bisect.bisect_right(rows, cy) - 1, [])
        band.extend((cy, y0, y1 - y0, c, word) for c, word in _split_over_rules(x0, x1, text, columns))
    if _beside_grid(outside, rows, len(lines)):
        return None
    grid = []
    for r in sorted(bands):
        for part in _unruled_rows(bands[r]):
            row = [[] for _ in range(len(columns) - 1)]
            for cy, _, _, c, word in sorted(part):
                row[c].append(word)
            grid.append([" ".join(cell) for cell in row])
    head = _header_rows(grid)
    if not _table_like(grid, head):
        return None
    header = [" / ".join(row[c] for row in grid[:head] if row[c]) for c in range(len(grid[0]))]
    table = Table(title=title, page=page, pages=[page, page], columns=header, data=grid[head:], from_ocr=True)
    return table, outside


def _beside_grid(outside: list, rows: list[float], total: int) -> bool:
    """Words standing left or right of the ruled grid, level with its rows: the rules found
    bound only part of the table (a colour-filled table whose light rules are missed between
    its label column and the rest), so the grid would cut the table apart. A title above the
    grid or notes under it are not beside it. Two such lines, and a tenth of the ``total`` read
    in the picture, say so."""
    level = [line for line in outside if rows[0] < (line[0][1] + line[0][3]) / 2 < rows[-1]]
    return len(level) >= 2 and len(level) >= 0.1 * total


def beside(previous: Table, table: Table) -> bool:
    """Join ``table`` beside ``previous`` when it repeats its row labels (the next columns of a
    table too wide for one picture); say whether it did. Pictures of one section follow each
    other, whatever pages they are given (a DOCX's have none)."""
    shared = label_columns(
        dataclasses.replace(previous, page=0, pages=[0, 0]), dataclasses.replace(table, page=1, pages=[1, 1])
    )
    if shared:
        join_beside(previous, table, shared)
    return bool(shared)


MIN_BODY_ROWS = 2  # a ruled box with fewer rows under its header is a figure's frame
MAX_EMPTY_COLUMNS = 0.2  # share of columns with nothing in them: more is a chart's gridlines


def _table_like(grid: list[list[str]], head: int) -> bool:
    """A grid of words that reads as a table, not a chart's gridlines or a framed diagram: at
    least ``MIN_BODY_ROWS`` rows under its header, a header filled under half its columns or
    more, and few columns with nothing in them."""
    if len(grid) - head < MIN_BODY_ROWS:
        return False
    columns = len(grid[0])
    empty = sum(not any(row[c] for row in grid) for c in range(columns))
    header = sum(any(row[c] for row in grid[:head]) for c in range(columns))
    return empty <= MAX_EMPTY_COLUMNS * columns and 2 * header >= columns


def _header_rows(grid: list[list[str]]) -> int:
    """How many leading rows are the header: the first; in a table of marks (a schedule), the
    leading rows filled under most columns with no mark in them ("VISIT | 1 | 2 …", "WEEK | -2
    | …"), and the sparse rows above them (a "Study Visit (Day)" cell spanning the visits)."""
    if not any(_marked(c) for row in grid for c in row[1:]):
        return 1

    def full(row: list[str]) -> bool:
        return sum(bool(c) for c in row[1:]) * 2 >= len(row) - 1 and not any(_marked(c) for c in row[1:])

    first = next((k for k in range(min(len(grid) - 1, MAX_SPANNING_ROWS + 1)) if full(grid[k])), None)
    if first is None:
        return 1
    head = first
    while head < len(grid) - 1 and full(grid[head]):
        head += 1
    return max(head, 1)


MAX_SPANNING_ROWS = 2  # sparse header rows above a schedule's full ones


PROSE_LINES = 1.5  # a column with this many times the first column's lines holds paragraphs


def _unruled_rows(band: list) -> list[list]:
    """The lines between two horizontal rules, as rows: one row, unless the rows are not ruled
    ("Sunday | right or left upper arm", "Monday | …" in one band). A row starts at each line of
    the band's first filled column that has a line of another column beside it; a label wrapped
    over two lines has nothing beside its second line and stays one row; a band whose cells are
    paragraphs stays one row."""
    first = min(c for _, _, _, c, _ in band)
    starts = sorted(
        top
        for cy, top, height, c, _ in band
        if c == first and any(c2 != first and abs(cy2 - cy) <= 0.5 * max(height, h2) for cy2, _, h2, c2, _ in band)
    )
    # Cells of paragraphs (a column with many more lines than the first) are one row of prose.
    lines = [sum(c == k for *_, c, _ in band) for k in {c for *_, c, _ in band}]
    if len(starts) < 2 or max(lines) > PROSE_LINES * sum(c == first for *_, c, _ in band):
        return [band]
    parts: list[list] = [[] for _ in starts]
    for line in band:
        parts[max(0, bisect.bisect_right(starts, line[0]) - 1)].append(line)
    return [part for part in parts if part]


def _marked(cell: str) -> bool:
    """A mark, OCR's space before a footnote letter taken out ("X a")."""
    return bool(MARK.match(cell.replace(" ", "")))


def _rules(image) -> tuple[list[float], list[float]]:
    """The y of each horizontal rule and the x of each vertical one, in pixels: runs of mostly
    inked rows or columns, one rule per run (a double rule is one). The grid is where its
    vertical rules run: horizontal rules above or below them (a letterhead's line, a rule
    under a page's title) are not the table's."""
    ink = image.mean(axis=2) < DARK
    rows = _runs([i for i, share in enumerate(ink.mean(axis=1)) if share >= RULE_SHARE], image.shape[0])
    if len(rows) < 2:
        return rows, []
    columns: list[float] = []
    for _ in range(2):  # the columns of the rows' band, then the rows those columns span
        band = ink[int(rows[0]) : int(rows[-1]) + 1]
        columns = _runs([i for i, share in enumerate(band.mean(axis=0)) if share >= RULE_SHARE], image.shape[1])
        if len(columns) < 2:
            return rows, columns
        spans = [_longest_run(band[:, int(x)]) for x in columns]  # the frame: from the highest to the lowest
        top, bottom = min(a for a, _ in spans), max(b for _, b in spans)
        inside = [y for y in rows if rows[0] + top - SLACK <= y <= rows[0] + bottom + SLACK]
        if inside == rows:
            break
        rows = inside
        if len(rows) < 2:
            return rows, []
    return rows, columns


SLACK = 4  # pixels a rule may stop short of the one it meets


def _longest_run(column) -> tuple[int, int]:
    """(first, last) index of the longest run of ink in one column of pixels."""
    best, start = (0, -1), None
    for i, inked in enumerate(list(column) + [False]):
        if inked and start is None:
            start = i
        elif not inked and start is not None:
            if i - 1 - start > best[1] - best[0]:
                best = (start, i - 1)
            start = None
    return best


def _runs(indices: list[int], size: int) -> list[float]:
    """Consecutive indices as one position each (the middle of the run); rules closer than
    ``DOUBLE_RULE`` of the picture's size (at least a few pixels) are one (a double rule)."""
    gap = max(4, DOUBLE_RULE * size)
    out: list[list[int]] = []
    for i in indices:
        if out and i - out[-1][-1] <= gap:
            out[-1].append(i)
        else:
            out.append([i])
    return [(run[0] + run[-1]) / 2 for run in out]


DOUBLE_RULE = 0.006


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
