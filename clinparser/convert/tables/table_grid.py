"""Ruled tables read from their drawn grid.

The layout model guesses a table's cells from where its text sits. On a fully ruled table
with many narrow columns (a schedule of activities: one column per visit day) it merges
neighbouring columns ("-3 4-7 8 9", "X X"), cuts spanning labels into pieces ("Interve" |
"ntion"), and splits the lines of one cell into rows. The PDF itself draws the answer: the
ruling lines. PyMuPDF's ``find_tables`` turns them into a grid of cells (a merged cell is one
bigger box), and each cell's text is read here from the page's characters inside it.

Which grid (the overlap rule): ``find_tables`` looks inside the block's box widened by
``MARGIN`` (the outer rules sit on or just outside the box), and of the grids it finds the one
overlapping the box most is taken. It covers the block when it holds the block's words and
only them: every page word whose centre is inside the box lies inside the grid, and no word
of the grid lies outside the box (``SLACK`` allowed): a grid reaching into a caption or a
neighbouring block would double that text, one missing an unruled column would drop it.

It replaces the model's table only where it is the better reading, measured (``shortfall``
says why not):

- it covers the block, every character inside it lies in a cell, and no character (letter or
  digit) of the model's table is lost (a label the model repeats in each column it spans
  counts once); a character printed across the grid's outer rule belongs to the edge cell;
- it can be trusted: no rule cuts through a word (two cells' texts meeting at a rule with no
  space between them, "Pre HD" | "Hematology" read as one word, are no cut: the rule stands
  between the two characters), and no cell reads as several rows (text
  lines at the same heights in two cells of one grid row, with a gap between them that no
  text of the row crosses: rows printed without rules between them, which the grid merged);
- it reads the table differently: the cells differ once markup, spaces and punctuation are
  folded away, or the header band does (the model lifted marked body rows into the header);
  with no fewer columns, and at least two rows (one row has no header to tell from its body);
- the pipeline's header lifting (``pipe_tables.lift_header``) would not take a body row of it
  into the header (an empty stub cell over a full first row invites that).

Text the model's box took in above the grid, ``BAND_GAP`` or more over its top rule (a page
header printed sideways beside a sideways table, a caption), is no word of the table: it becomes
a text block of its own before the table (``band_above``), and is not counted as lost. A line
closer than that may be a header row printed over the top rule: the grid is refused.

A table without ruling lines has no grid and stays exactly as the model wrote it.

The model's box can stop short of the table's outer rule (it hugs the text): the box is widened
sideways to the ends of the table's own horizontal rules first (``_rule_extent``), so the last
column is not lost. A last column printed with no rules of its own (a follow-up visit right of
the grid's last line) is one more column (``open_column``) when every word of the block beyond
the grid stands level with the grid's rows; its cells take the heights of the last column's.
An arrow drawn across visits (a shaft with a filled arrowhead, in a cell merged over them:
"Adverse event review" from screening to the last visit) is written as ``↔`` in each empty cell
it runs across, in a row with a label; it reads as a mark.

A cell merged over several visit columns that opens with a mark ("X", or "Xk" over "Every 6
weeks") marks each of them: its mark is written in every slot it spans (the rest of its text in
the first), as an arrow's is. In a grid of marks, a short phrase merged across columns of its row
("Ongoing", "Report as they occur": at most ``SPANNED_WORDS`` words, not starting in the label
column, where it is a group's heading across the row) is written in each slot too, as is an arrow
typed in a merged cell ("←——→": the merge shows how far it runs); longer text (a
note across the grid) stays in its first slot, as does any merged text of a table with no marks.

Header rows: the grid shows which top rows form a header, by their spans. A header cell that
spans several columns has its sub-columns split in the row below, and a cell spanning down
from a header row takes the rows it reaches into the header. In a schedule, the header-like
rows after those and before the first marked row are header rows too (the rule
``pipe_tables.header_rows`` applies). All of them are written above the pipe table's separator,
where ``parse_pipe_table`` joins them per column as ``lift_header`` would, each spanned slot
carrying the text of the cell spanning it, so an epoch label ("Inpatient Period 1") reaches
every day column under it. A spanned slot in the body is empty unless its cell opens with a mark.
"""

from __future__ import annotations

import bisect
import re
from collections import Counter
from dataclasses import dataclass, field
from itertools import groupby
from typing import Optional

import pymupdf

from ...model import TABLE, TEXT, Block
from ...shared.pipe_tables import MARK, ROW_NAME, TYPED_ARROW, header_rows, lift_header, parse_pipe_table
from ..pictures.picture_words import text_rows
from .table_chars import lean_table_chars

MARGIN = 12.0  # points added around the block's box: its outer rules sit on or just outside it
SLACK = 3.0  # points: a word this close outside the block's box still belongs to it
RULE = 3.0  # points: a filled box this thin is a rule
MIN_RULE = 5.0  # points: a rule is at least this long
ALIGN = 1.5  # points: text lines of two cells whose middles are this close sit at one height
MAX_HEADER_ROWS = 5  # as tables.MAX_HEADER_ROWS
GAP = 1.5  # points: characters of one line further apart than this have a space between them
SPANNED_LABEL = 4  # characters: a cell this long repeated in the next column is one label spanning both
BAND_GAP = 5.0  # points: words this far or further above the grid's top rule are no row of it
EDGE_GAP = 1.0  # points: a column edge this close to the gap between two characters runs between them
_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9]*(?:\s[^<>]*)?/?>")  # <br>, <sup>
_MARK_SYMBOLS = "\u2194\u2713\u2714\u221a\u2022\u25cf\u25a0\u2612"  # ↔ ✓ ✔ √ • ● ■ ☒
_SEPARATOR = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")  # |---|---|

Slot = tuple[int, int]
Line = tuple[float, float, str]  # top, bottom, text of one visual line of a cell


@dataclass
class Grid:
    """A ruled table as read from its lines: ``cells[r][c]`` is the text of the cell starting
    in that slot, or None when the slot is covered by a cell starting above or to the left
    (``owner[r][c]`` says which; None for a slot no cell covers)."""

    bbox: tuple
    cells: list[list[Optional[str]]]
    owner: list[list[Optional[Slot]]]
    lines: dict = field(default_factory=dict)  # Slot -> the cell's visual lines (Line)
    uncovered: int = 0  # characters inside the grid's box that no cell holds
    cut: int = 0  # words a rule cuts through (``_cut``)

    @property
    def shape(self) -> tuple[int, int]:
        return len(self.cells), len(self.cells[0]) if self.cells else 0


def regrid_tables(doc, blocks: list[Block], heads: Optional[list] = None) -> int:
    """Replace, in place, the text of every table block whose ruled grid reads it better
    (see the module's docstring); the number of blocks replaced. Text the model's box held
    above the grid (``band_above``) becomes a text block of its own, inserted before the
    table in ``blocks`` (and None in ``heads``, the blocks' heading ranks, kept aligned).
    ``doc``: a PDF handle whose pages are in the converter's coordinates and hold the PDF's own
    text (the caller leaves out the blocks of a page OCR read)."""
    replaced = 0
    tables = [b for b in blocks if b.kind == TABLE and b.bbox and b.page]
    for number, group in groupby(sorted(tables, key=lambda b: b.page), key=lambda b: b.page):
        page = doc[number - 1]
        rules = page_rules(page)
        for block in group:
            read = regrid(page, block, rules)
            if read is None:
                continue
            block.text, above = read
            replaced += 1
            if above is not None:
                at = next(k for k, b in enumerate(blocks) if b is block)
                block.bbox = (block.bbox[0], max(block.bbox[1], above.bbox[3]), block.bbox[2], block.bbox[3])
                blocks.insert(at, above)
                if heads is not None:
                    heads.insert(at, None)
    return replaced


def regrid(page, block: Block, rules: Optional[list] = None) -> Optional[tuple[str, Optional[Block]]]:
    """The pipe table read from the block's ruled grid and the text block of the words the
    block held above the grid (or None), or None when it has no grid or the grid is not the
    better reading. ``rules``: the page's ``page_rules``, if known."""
    box = pymupdf.Rect(block.bbox)
    grid = ruled_grid(page, box, page_rules(page) if rules is None else rules)
    if grid is None:
        return None
    words = page_words(page, grid, box)
    if shortfall(block.text, grid, words, box):
        return None
    band = band_above(words, grid)
    return grid_markdown(grid), (_band_block(block.page, band) if band else None)


def band_above(words: list, grid: Grid) -> list:
    """The words standing wholly above the grid, ``BAND_GAP`` or more over its top rule: text
    the model's box took in with the table (a page header printed sideways beside a sideways
    table, a caption). A line closer than that is read as part of the table (a header row
    printed over the top rule), and refuses the grid."""
    return [w for w in words if w[3] <= grid.bbox[1] - BAND_GAP]


def _band_block(page_number: int, words: list) -> Block:
    """A text block of ``words``: each visual line's words left to right, lines top to bottom."""
    text = "\n".join(text_rows([(w[:4], w[4]) for w in words]))
    bbox = (min(w[0] for w in words), min(w[1] for w in words), max(w[2] for w in words), max(w[3] for w in words))
    return Block(page_number, bbox, TEXT, text)


def page_words(page, grid: Grid, box: pymupdf.Rect) -> list:
    """The page's words inside the grid's box and the block's box."""
    return page.get_text("words", clip=pymupdf.Rect(grid.bbox) | box)


def page_rules(page) -> list[tuple[float, float, float, float]]:
    """The page's straight rules as boxes: drawn lines, thin filled boxes, and the sides of
    stroked boxes. Cheap (no text read): it tells where ``find_tables`` has no grid to find."""
    rules = []
    for path in page.get_cdrawings():
        stroked = "s" in path["type"]
        for item in path["items"]:
            if item[0] == "l":
                (x0, y0), (x1, y1) = item[1], item[2]
                rules.append((min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)))
            elif item[0] in ("re", "qu"):
                x0, y0, x1, y1 = pymupdf.Rect(item[1]) if item[0] == "re" else pymupdf.Quad(item[1]).rect
                if stroked:
                    rules += [(x0, y0, x1, y0), (x0, y1, x1, y1), (x0, y0, x0, y1), (x1, y0, x1, y1)]
                elif min(x1 - x0, y1 - y0) <= RULE:
                    rules.append((x0, y0, x1, y1))
    return rules


def _has_rules(rules: list, clip: pymupdf.Rect) -> bool:
    """At least two vertical and two horizontal rules reach into ``clip``: a grid may be there."""
    across = down = 0
    for x0, y0, x1, y1 in rules:
        if x1 < clip.x0 or x0 > clip.x1 or y1 < clip.y0 or y0 > clip.y1:
            continue
        if y1 - y0 >= MIN_RULE and x1 - x0 <= RULE:
            down += 1
        elif x1 - x0 >= MIN_RULE and y1 - y0 <= RULE:
            across += 1
        if across >= 2 and down >= 2:
            return True
    return False


REACH = 3 * 12.0  # points: how far past the box a rule of the box's own table may end
WIDE_EMPTY = 0.6  # share of the usual column width at which an empty column is a column
MIN_ROW_RULES = 3  # rules ending together further out: the rows of the table itself


def _rule_extent(box: pymupdf.Rect, rules: list) -> pymupdf.Rect:
    """The box widened sideways to the ends of the table's own horizontal rules: the layout
    model's box can stop short of a table's last column (its outer rule then falls outside the
    margin, and the column with it). A rule is the table's own when it crosses the box, starts
    and ends near the box's sides (at most ``REACH`` past them) and covers most of its width:
    a page-wide line or a neighbouring table's rule is not."""
    out = pymupdf.Rect(box)
    ends: Counter = Counter()
    for x0, y0, x1, y1 in rules:
        across = x1 - x0 >= MIN_RULE and y1 - y0 <= RULE
        starts = box.x0 - REACH <= x0 <= box.x0 + MARGIN
        near = starts and box.x1 - MARGIN <= x1 <= box.x1 + REACH
        if across and near and box.y0 <= y0 <= box.y1:
            out.x0, out.x1 = min(out.x0, x0), max(out.x1, x1)
        elif across and box.x0 - REACH <= x0 < box.x1 and x1 > box.x1 and box.y0 - MARGIN <= y0 <= box.y1 + MARGIN:
            ends[round(x1)] += 1
    # Further out only where the table's rows say so: an empty last column (no words for the
    # model to see) makes every row's rule end at the same place past the box; one page-wide
    # line does not.
    far = [x for x, n in ends.items() if n >= MIN_ROW_RULES]
    if far:
        out.x1 = max(out.x1, max(far))
    return out


def ruled_grid(page, box: pymupdf.Rect, rules: list) -> Optional[Grid]:
    """The grid of ruling lines around ``box`` that overlaps it most, read; None if none."""
    clip = (_rule_extent(box, rules) + (-MARGIN, -MARGIN, MARGIN, MARGIN)) & page.rect
    if not _has_rules(rules, clip):
        return None
    # "lines_strict": the "lines" strategy without shading. A shaded cell is a filled box
    # whose edges would count as rules, and Word draws the shading of a cell inset from its
    # rules, per text line: it would add columns and rows the table does not have. Thin fills
    # (how many producers draw rules) still count. use_layout=False: the lines alone (gating
    # them by the layout model would run the model once more per page). Its character list
    # is built lean (``table_chars``): the same values, a third of the time.
    with lean_table_chars():
        finder = page.find_tables(clip=clip, strategy="lines_strict", use_layout=False)
    found = finder.tables if finder is not None else []  # None: PyMuPDF failed on this page
    overlap = [(pymupdf.Rect(t.bbox) & box).get_area() for t in found]
    if not found or max(overlap) <= 0:
        return None
    cells = [c for c in found[overlap.index(max(overlap))].cells if c]
    return read_grid(page, cells + open_column(page, cells, box))


def open_column(page, cells: list[tuple], box: pymupdf.Rect) -> list[tuple]:
    """Cell boxes for a last column printed without its outer rule ("FU" right of the grid's
    last line): the block's words standing right of the grid, level with its rows, get one
    more column, each of its cells level with a cell of the grid's last column. [] when the
    block has no such words, or some of them stand above or below the grid."""
    right = max(c[2] for c in cells)
    top, bottom = min(c[1] for c in cells), max(c[3] for c in cells)
    beyond = [w for w in page.get_text("words", clip=box + (-SLACK, -SLACK, SLACK, SLACK)) if (w[0] + w[2]) / 2 > right]
    if not beyond or any(not top <= (w[1] + w[3]) / 2 <= bottom for w in beyond):
        return []
    edge = max(w[2] for w in beyond) + SLACK
    return [(right, c[1], edge, c[3]) for c in cells if abs(c[2] - right) <= RULE]


def read_grid(page, boxes: list[tuple]) -> Optional[Grid]:
    """The grid of the cell boxes ``boxes`` (merged cells are larger boxes), each cell's text
    read from the page's characters whose centre falls inside it."""
    if not boxes:
        return None
    xs = sorted({b[0] for b in boxes})
    ys = sorted({b[1] for b in boxes})
    owner: list[list[Optional[Slot]]] = [[None] * len(xs) for _ in ys]
    for x0, y0, x1, y1 in boxes:
        r0, c0 = ys.index(y0), xs.index(x0)
        for r in range(r0, bisect.bisect_left(ys, y1 - 1)):  # the slots starting inside the cell
            for c in range(c0, bisect.bisect_left(xs, x1 - 1)):
                owner[r][c] = (r0, c0)
    bbox = (xs[0], ys[0], max(b[2] for b in boxes), max(b[3] for b in boxes))

    def slot_at(x: float, y: float) -> Optional[Slot]:
        # A character printed across the outer rule ("Time" starting a point left of the
        # table's edge) belongs to the edge cell it overhangs, not to no cell.
        x = min(max(x, xs[0]), bbox[2]) if xs[0] - SLACK <= x <= bbox[2] + SLACK else x
        y = min(max(y, ys[0]), bbox[3]) if ys[0] - SLACK <= y <= bbox[3] + SLACK else y
        r, c = bisect.bisect_right(ys, y) - 1, bisect.bisect_right(xs, x) - 1
        return owner[r][c] if r >= 0 and c >= 0 and x <= bbox[2] and y <= bbox[3] else None

    pieces: dict[Slot, list] = {}
    uncovered = cut = 0
    for word in _words(page, pymupdf.Rect(bbox)):
        slots = [slot_at((x0 + x1) / 2, (y0 + y1) / 2) for x0, y0, x1, y1, _ in word]
        cut += _cut(word, slots, xs)
        for slot, char in zip(slots, word):
            if slot is None:
                uncovered += 1
            else:
                pieces.setdefault(slot, []).append(char)
    lines = {slot: _cell_lines(chars) for slot, chars in pieces.items()}
    text = {slot: "<br>".join(t for _, _, t in cell) for slot, cell in lines.items()}
    cells = [[text.get((r, c), "") if owner[r][c] == (r, c) else None for c in range(len(xs))] for r in range(len(ys))]
    _mark_arrows(cells, owner, xs, ys, bbox, drawn_arrows(page, bbox))
    widths = [b - a for a, b in zip(xs, xs[1:] + [bbox[2]])]
    return _without_empty_slivers(Grid(bbox, cells, owner, lines, uncovered, cut), widths)


def _cut(word: list, slots: list, xs: list) -> bool:
    """Whether a rule cuts through the word: two neighbouring characters fall into different
    cells and the column edge between them does not pass through the gap between them. Two
    cells' texts can meet with no space ("Pre HD" | "Hematology" read as "HDHematology"):
    the rule then stands between the two characters, and the word is two cells' words."""
    for (a, slot_a), (b, slot_b) in zip(zip(word, slots), zip(word[1:], slots[1:])):
        if slot_a == slot_b:
            continue
        if slot_a is None or slot_b is None or slot_a[1] == slot_b[1]:
            return True
        edge = xs[slot_b[1]]
        if a[2] > edge + EDGE_GAP or b[0] < edge - EDGE_GAP:
            return True
    return False


ARROW = "\u2194"  # what a drawn arrow across cells is written as, in each cell it crosses
HEAD = 10.0  # points: an arrowhead's box is at most this on a side
MIN_SHAFT = 20.0  # points: an arrow's shaft is at least this long


def drawn_arrows(page, bbox: tuple) -> list[tuple[float, float, float]]:
    """Horizontal arrows drawn inside the box, (x0, x1, y): a straight shaft with a filled
    arrowhead (a small closed path) at one end at least. Schedules draw them across the visits
    an activity runs through ("Adverse event review" from screening to the last visit)."""
    box = pymupdf.Rect(bbox)
    shafts, heads = [], []
    for path in page.get_drawings():
        rect = path["rect"]
        if not (box.x0 - 1 <= rect.x0 <= box.x1 + 1 and box.y0 - 1 <= rect.y0 <= box.y1 + 1):
            continue
        items = path["items"]
        if (
            path.get("fill") is not None
            and rect.width <= HEAD
            and rect.height <= HEAD
            and len(items) >= 2
            and all(i[0] == "l" for i in items)
        ):
            heads.append(rect)
            continue
        for item in items:
            if item[0] == "l":
                (x0, y0), (x1, y1) = item[1], item[2]
                if abs(y1 - y0) < 0.5 and abs(x1 - x0) >= MIN_SHAFT:
                    shafts.append((min(x0, x1), max(x0, x1), (y0 + y1) / 2))
    arrows = []
    for x0, x1, y in shafts:
        ends = [
            h for h in heads if h.y0 - 1 <= y <= h.y1 + 1 and (h.x0 - 3 <= x0 <= h.x1 + 3 or h.x0 - 3 <= x1 <= h.x1 + 3)
        ]
        if ends:
            arrows.append((min([x0] + [h.x0 for h in ends]), max([x1] + [h.x1 for h in ends]), y))
    return arrows


def _mark_arrows(cells, owner, xs: list, ys: list, bbox: tuple, arrows: list) -> None:
    """Each empty slot an arrow runs across (half its width or more) holds ``ARROW``, a cell
    of its own: a merged cell the arrow is drawn in is split into the visits it spans."""
    for x0, x1, y in arrows:
        r = bisect.bisect_right(ys, y) - 1
        if 1 < r < len(ys) and not any(cells[r]) and any(cells[r - 1]):
            r -= 1  # drawn at the middle of a row that another column's cells cut in two slots
        if r < 1 or r >= len(ys) or not any(cells[r]):  # not inside a body row with a label
            continue
        for c in range(len(xs)):
            right = xs[c + 1] if c + 1 < len(xs) else bbox[2]
            if min(x1, right) - max(x0, xs[c]) >= (right - xs[c]) / 2 and not cells[r][c]:
                cells[r][c] = ARROW
                owner[r][c] = (r, c)


def _words(page, clip: pymupdf.Rect):
    """The page's words inside ``clip``, each as its characters (x0, y0, x1, y1, character).
    Characters, because a text line may run across a rule with no space ("2628" for "26" |
    "28"); a word is a run of characters between spaces (or gaps) of one line. A line that does
    not run left to right (vertical text in a narrow cell) is one piece, its text in order."""
    for block in page.get_text("rawdict", clip=clip)["blocks"]:
        for line in block.get("lines", ()):
            chars = [ch for span in line["spans"] for ch in span["chars"]]
            if not chars:
                continue
            if abs(line["dir"][0] - 1) > 1e-3:
                text = "".join(ch["c"] for ch in chars).strip()
                if text:
                    yield [(*line["bbox"], text)]
                continue
            word: list = []
            for ch in chars:
                x0, y0, x1, y1 = ch["bbox"]
                if ch["c"].isspace() or (word and x0 - word[-1][2] > GAP):
                    if word:
                        yield word
                    word = []
                if not ch["c"].isspace():
                    word.append((x0, y0, x1, y1, ch["c"]))
            if word:
                yield word


def _cell_lines(chars: list) -> list[Line]:
    """The visual lines of one cell, top to bottom, from its characters: characters whose
    vertical middles are close share a line (a superscript joins its line), read left to
    right, a space where the characters stand apart."""
    rows: list[list] = []
    top = bottom = 0.0  # the last row's extent, kept as it grows (not found again per character)
    for ch in sorted(chars, key=lambda ch: (ch[1] + ch[3]) / 2):
        mid, height = (ch[1] + ch[3]) / 2, ch[3] - ch[1]
        if rows and abs(mid - (top + bottom) / 2) < 0.45 * max(height, bottom - top):
            rows[-1].append(ch)
            top, bottom = min(top, ch[1]), max(bottom, ch[3])
            continue
        rows.append([ch])
        top, bottom = ch[1], ch[3]
    out = []
    for row in rows:
        row.sort(key=lambda ch: ch[0])
        text, end = "", None
        for x0, _, x1, _, c in row:
            if end is not None and x0 - end > GAP:
                text += " "
            text += c
            end = x1
        out.append((min(c[1] for c in row), max(c[3] for c in row), " ".join(text.split())))
    return out


def _without_empty_slivers(grid: Grid, widths: list[float]) -> Optional[Grid]:
    """The grid without the rows that hold no text at all and the columns that hold none and
    are narrow (a sliver between two rules drawn close together, the head of an arrow drawn
    across a row). An empty column as wide as the others stays: a visit with no mark on this
    page of a schedule printed without its header, whose columns are known by position only."""
    cells, owner = grid.cells, grid.owner
    keep_rows = [r for r, row in enumerate(cells) if any(row)]
    filled = [c for c in range(len(cells[0])) if any(row[c] for row in cells)]
    usual = sorted(widths[c] for c in filled)[len(filled) // 2] if filled else 0.0
    keep_cols = [c for c in range(len(cells[0])) if c in filled or widths[c] >= WIDE_EMPTY * usual]
    if not keep_rows or not keep_cols:
        return None
    row_at = {r: i for i, r in enumerate(keep_rows)}
    col_at = {c: i for i, c in enumerate(keep_cols)}

    def moved(slot):
        # A slot owned by a cell starting in a dropped row or column (so: empty) is free.
        if slot is None or slot[0] not in row_at or slot[1] not in col_at:
            return None
        return row_at[slot[0]], col_at[slot[1]]

    new_cells = [[cells[r][c] for c in keep_cols] for r in keep_rows]
    new_owner = [[moved(owner[r][c]) for c in keep_cols] for r in keep_rows]
    for r, row in enumerate(new_cells):  # a slot left without a cell is an empty cell
        for c, text in enumerate(row):
            if text is None and new_owner[r][c] is None:
                row[c] = ""
                new_owner[r][c] = (r, c)
    lines = {moved(slot): v for slot, v in grid.lines.items() if moved(slot) is not None}
    return Grid(grid.bbox, new_cells, new_owner, lines, grid.uncovered, grid.cut)


def header_count(grid: Grid) -> int:
    """How many top rows are a header (see the module's docstring). At least the first row:
    a pipe table has one."""
    rows, cols = grid.shape
    count = 1
    while count < min(rows - 1, MAX_HEADER_ROWS):
        if _marked([[_plain(c or "") for c in grid.cells[count]]]):
            break  # a row of marks is the body, whatever spans end above it (two label columns)
        if _label_only(grid, count):
            break  # a group row, or an activity with no marks on this page, under the header
        above, below = grid.owner[count - 1], grid.owner[count]
        spans_down = any(below[c] is not None and below[c][0] < count for c in range(cols))
        split = any(
            above[c] is not None and above[c] == above[c + 1] and below[c] != below[c + 1] for c in range(cols - 1)
        )
        if not (spans_down or split):
            break
        count += 1
    if count > 1:  # a schedule's further header rows (week, day) before its first marked row
        body = [[_plain(c) for c in row] for row in _filled_rows(grid, count)[count:]]
        count += header_rows([""] * cols, body) if _marked(body) else 0
    return min(count, MAX_HEADER_ROWS)


def _label_only(grid: Grid, r: int) -> bool:
    """Is row ``r`` written only under the top-left header cell (the label columns it spans,
    "Study Procedures" over a group and an activity column)? Header rows below it head the
    visit columns too; a row with nothing under them is the body's."""
    rows, cols = grid.shape
    corner = grid.owner[0][0]
    labels = [c for c in range(cols) if grid.owner[0][c] == corner and corner is not None]
    filled = [c for c in range(cols) if (grid.cells[r][c] or "").strip()]
    return len(labels) < cols - 1 and bool(filled) and all(c in labels for c in filled)


def _marked(rows: list[list[str]]) -> bool:
    return any(MARK.match(c.strip()) or TYPED_ARROW.match(c.strip()) for row in rows for c in row)


def _plain(cell: str) -> str:
    return "\n".join(cell.split("<br>"))


def _filled_rows(grid: Grid, header: int) -> list[list[str]]:
    """The grid as rows of strings: a spanned slot of the first ``header`` rows takes the
    text of the cell spanning it; one below them takes the mark of a cell that opens with a
    mark ("X", "Xk" over "Every 6 weeks": the activity at each visit the cell spans), and is
    otherwise empty."""
    marked = any(MARK.match(_plain(c or "").split("\n")[0].strip()) for row in grid.cells[header:] for c in row)
    rows = []
    for r, row in enumerate(grid.cells):
        out = []
        for c, text in enumerate(row):
            if text is None:
                owner = grid.owner[r][c]
                spanning = grid.cells[owner[0]][owner[1]] or "" if owner else ""
                # (words spanning from the label column are a group's heading across the row, no
                # mark; a row the label names as a header row, "Visit window", holds no marks)
                across = (
                    marked
                    and owner is not None
                    and owner[0] == r
                    and owner[1] > 0
                    and not ROW_NAME.match(_plain(row[0] or "").strip())
                )
                text = spanning if r < header else _spanned_mark(spanning, across)
            out.append(text or "")
        rows.append(out)
    return rows


SPANNED_WORDS = 6  # a merged cell of at most this many words, in a grid of marks, marks the visits it spans


def _spanned_mark(cell: str, in_marked_row_span: bool) -> str:
    """What a body slot covered by ``cell`` reads as: the cell's opening mark ("X", "Xk" over
    "Every 6 weeks"); in a grid of marks, a short phrase merged across columns of its row
    ("Ongoing", "Report as they occur") too, since it says the activity happens at each of
    them; else nothing."""
    first = cell.split("<br>")[0].strip()
    if MARK.match(first):
        return first
    text = " ".join(_plain(cell).split())
    if in_marked_row_span and TYPED_ARROW.match(text):
        return text  # "←——→" typed in a merged cell: the merge is its extent, each visit marked
    if _SPAN_NOT_MARK.search(text):
        return ""  # a window ("±3 days based on previous visit") or a text arrow, which the reader spans
    return text if in_marked_row_span and text and len(text.split()) <= SPANNED_WORDS else ""


_SPAN_NOT_MARK = re.compile(r"[\u00b1\u2190-\u21ff]|\+\s?/\s?-|<-|->|\bwindow\b", re.IGNORECASE)


def grid_markdown(grid: Grid) -> str:
    """A pipe table of the grid: its header rows above the separator, pipes escaped."""
    header = header_count(grid)
    rows = _filled_rows(grid, header)
    lines = ["|" + "|".join(c.replace("|", "\\|") for c in row) + "|" for row in rows]
    return "\n".join(lines[:header] + ["|" + "---|" * len(rows[0])] + lines[header:])


def _model_shape(markdown: str) -> tuple[int, int]:
    """Rows (header included) and columns of the model's pipe table."""
    rows = [ln for ln in markdown.splitlines() if ln.lstrip().startswith("|") and not _SEPARATOR.match(ln)]
    cols = max((len(re.split(r"(?<!\\)\|", ln.strip().strip("|"))) for ln in rows), default=0)
    return len(rows), cols


def _header_rows(markdown: str) -> int:
    """Pipe-table rows above the separator."""
    rows = [ln for ln in markdown.splitlines() if ln.lstrip().startswith("|")]
    return next((k for k, ln in enumerate(rows) if _SEPARATOR.match(ln)), 0)


def _folded(markdown: str) -> list[list[str]]:
    """The cells of a pipe table, each folded to its letters and digits."""
    rows = [ln for ln in markdown.splitlines() if ln.lstrip().startswith("|") and not _SEPARATOR.match(ln)]
    return [[_fold(cell) for cell in re.split(r"(?<!\\)\|", ln.strip().strip("|"))] for ln in rows]


def _chars(text: str) -> Counter:
    """The letters and digits of a pipe table: what its words are made of."""
    return Counter(_fold(text))


def _model_chars(markdown: str) -> Counter:
    """The letters and digits of the model's pipe table, a label it repeated in each column it
    spans ("Study Visit (Day) 13 15 17 20" four times over) counted once: the grid holds it
    once, in its spanning cell. Only labels of ``SPANNED_LABEL`` characters or more: two
    neighbouring marks ("X" | "X") are two marks."""
    count: Counter = Counter()
    for row in _folded(markdown):
        for k, cell in enumerate(row):
            if not (k and cell == row[k - 1] and len(cell) >= SPANNED_LABEL):
                count.update(cell)
    return count


def _fold(text: str) -> str:
    """The letters and digits of a text, in order, and the mark symbols (an arrow drawn across
    visits is read as "\u2194"). Punctuation and spaces are left out: Markdown uses punctuation
    for markup ("**", "~~", escapes), and the model's spacing is a guess."""
    return "".join(ch for ch in _TAG.sub(" ", text) if ch.isalnum() or ch in _MARK_SYMBOLS)


def stacked_rows(grid: Grid) -> bool:
    """Does a body cell of the grid read as several rows? Two cells of one grid row (cells
    spanning no further row) each have text lines at the same two heights, and no text of the
    row crosses the gap between those heights: rows printed without a rule between them. The
    header is left out (its rows by their spans, and in a schedule every row above the first
    mark): its labels are centred in tall cells, and lines centred in two cells can fall at the
    same heights."""
    rows, cols = grid.shape
    for r in range(max(header_count(grid), _first_marked(grid)), rows):
        own = [
            c
            for c in range(cols)
            if grid.owner[r][c] == (r, c) and not (r + 1 < rows and grid.owner[r + 1][c] == (r, c))
        ]
        cells = [grid.lines.get((r, c), []) for c in own]
        everything = [line for cell in cells for line in cell]
        for cell in cells:
            for upper, lower in zip(cell, cell[1:]):
                middle = (upper[1] + lower[0]) / 2
                if upper[1] >= lower[0] or any(top < middle < bottom for top, bottom, _ in everything):
                    continue
                if sum(_at(other, upper) and _at(other, lower) for other in cells) >= 2:
                    return True
    return False


def _first_marked(grid: Grid) -> int:
    """The first row whose filled cells are mostly marks (a schedule's first activity), 0 in a
    table with none: the rows above it are header rows ("Day" over "Time window (days)" in one
    ruled row)."""

    def marked(row: list) -> bool:  # most of its filled cells marks ("X" can name a visit: "Xa", "X")
        filled = [c.strip() for c in row[1:] if c and c.strip()]
        return bool(filled) and 2 * sum(bool(MARK.match(c)) for c in filled) >= len(filled)

    return next((r for r, row in enumerate(grid.cells) if marked(row)), 0)


def _at(cell: list[Line], line: Line) -> bool:
    """Has ``cell`` a line at the height of ``line``?"""
    mid = (line[0] + line[1]) / 2
    return any(abs((top + bottom) / 2 - mid) <= ALIGN for top, bottom, _ in cell)


def shortfall(markdown: str, grid: Grid, words: list, box: pymupdf.Rect) -> str:
    """Why the grid is not the better reading of the model's ``markdown`` ("" when it is; see
    the module's docstring): ``words`` are the page's words inside the grid's box and the
    block's box ``box``."""
    if grid.uncovered:
        return "text between the rules that no cell holds"
    inside, ruled = box + (-SLACK, -SLACK, SLACK, SLACK), pymupdf.Rect(grid.bbox)
    band = band_above(words, grid)
    above = set(band)  # words are tuples: membership by value, in constant time
    for w in words:
        centre = pymupdf.Point((w[0] + w[2]) / 2, (w[1] + w[3]) / 2)
        if not inside.contains(centre):
            return "the grid reaches past the block"
        if not ruled.contains(centre) and w not in above:
            return "a word of the block outside the grid"
    if grid.cut:
        return "a rule cuts through a word"
    rows, cols = grid.shape
    model_rows, model_cols = _model_shape(markdown)
    if rows < 2:
        return "a single row"
    if cols < model_cols:
        return "fewer columns"
    ours = grid_markdown(grid)
    same_band = _header_rows(markdown) == _header_rows(ours)  # body rows of marks lifted into the header differ
    if (cols, rows) == (model_cols, model_rows) and _folded(markdown) == _folded(ours) and same_band:
        return "the same reading"
    if stacked_rows(grid):
        return "a cell reads as several rows"
    kept = " ".join([c for row in grid.cells for c in row if c] + [w[4] for w in band])
    lost = _model_chars(markdown) - _chars(kept)
    if lost:
        return f"loses {''.join(sorted(lost.elements()))[:20]!r}"
    if _lifted_later(ours):
        return "its first body row would be lifted into the header"
    return ""


def _lifted_later(markdown: str) -> bool:
    """Would ``pipe_tables.lift_header`` take a body row of this pipe table into its header? It does
    when a header cell is empty over a column with content (an empty stub cell) and the first
    body row reads as a header: the grid's header is complete, that row is the body."""
    df = parse_pipe_table(markdown)
    columns, data = [str(c) for c in df.columns], df.astype(str).values.tolist()
    # a sparse row named as a header row ("Visit window") the grid leaves in its body is no
    # sign of an empty stub cell: it does not count here
    return len(lift_header(columns, data, named_rows=False)[1]) < len(data)
