"""Table cells with the words as printed.

The layout converter builds a table's cells from characters and guesses the spaces between
them: a narrow gap loses its space ("Creatinekinase"), a wide letter gap gains one ("Apo
Egenotyping" for "ApoE genotyping"). The page's own words (``page.get_text("words")`` inside
the table's box) have the spacing the PDF prints. So each cell's characters are looked up,
spaces ignored, in the run of the table's words, and the spaces are put back where the page's
word boundaries fall. A cell whose characters are not found there as one run (markup, an
escaped character, text the converter changed) is left as it is.

Before that, cells that cut a word are joined. A paragraph printed across a row, in one cell
spanning several columns, comes out cut at the column lines the rows above draw ("As access
to nintedan | ib outsid | e of th | e clinical"). Read line by line across the row, such
cells follow the page's word run, and a cell boundary falls inside a word: those cells are one
cell, and its text goes to the first of them (the others are left empty, as a spanning cell's
are). In the table's leading rows of short labels (at most five), its header, the text goes to every column
it spans instead ("Treat | ment" over visits 6 and 7 is "Treatment" above each), as the
header's own mending does. Cells that meet only at word boundaries ("X | X") are never joined.
"""

from __future__ import annotations

import re

from ...model import TABLE, Block
from ...shared.pipe_tables import row_cells
from ..pages.page_check import letter_spaced

LABEL_WORDS = 4  # a header row's cells are labels of at most this many words
HEADER_ROWS = 5  # and a header has at most this many rows (a schedule's: period, visit, day, window...)
MIN_CHARS = 4  # shorter cells ("X", "Yes", "12") have nothing to re-space and match anywhere
_BREAK = re.compile(r"(<br\s*/?>)", re.I)
_BOLD = re.compile(r"^(\s*\*\*)([^*]+)(\*\*\s*)$")
_PLAIN = re.compile(r"^[^<>*_`|\\]+$")  # a cell part without markup or escapes


def respace_tables(doc, blocks: list[Block]) -> None:
    """Join cut cells and re-space the cells of every table block in place (``doc``: the
    caller's PDF handle, its pages in the converter's coordinates). A table whose words in this
    handle are letter-spaced is left alone: they are no guide to spacing ("S t u d y"), and on
    a page OCR read, the cells hold OCR's words, not these. (Where the handle's words are
    sound, they re-space OCR's cells too: "Completephysical" as the page prints it.)"""
    for block in blocks:
        if block.kind == TABLE and block.bbox and block.page:
            words = [w[4] for w in doc[block.page - 1].get_text("words", clip=block.bbox)]
            if words and not letter_spaced(words):
                block.text = respace(join_cut_cells(block.text, words), words)


def _word_run(words: list[str]) -> tuple[str, set]:
    """The words run together, and the offsets in that run where a word ends."""
    ends, at = set(), 0
    for word in words:
        at += len(word)
        ends.add(at)
    return "".join(words), ends


def join_cut_cells(markdown: str, words: list[str]) -> str:
    """``markdown`` (a pipe table) with the cells of a row that cut a word joined (see above)."""
    run, ends = _word_run(words)
    cursor = 0
    lines = []
    heading = True  # still in the table's leading rows of labels (its header)
    rows = 0
    for line in markdown.split("\n"):
        if not line.startswith("|") or not line.endswith("|") or set(line) <= set("|-: "):
            lines.append(line)
            continue
        cells = row_cells(line)
        rows += 1
        heading = heading and rows <= HEADER_ROWS and all(len(_BREAK.sub(" ", c).split()) <= LABEL_WORDS for c in cells)
        cells, cursor = _join_row(cells, run, ends, cursor, spread=heading)
        lines.append(_with_cells(line, cells))
    return "\n".join(lines)


def _with_cells(row: str, cells: list[str]) -> str:
    """The pipe-table ``row`` (a line opening with a pipe) with ``cells`` for its cells, their pipes
    escaped; its closing pipe, or the lack of one, and any spaces after it kept."""
    body = row.rstrip()
    closed = len(body) > 1 and body.endswith("|") and not body.endswith("\\|")
    return "|" + "|".join(c.replace("|", "\\|") for c in cells) + ("|" if closed else "") + row[len(body) :]


def _join_row(cells: list[str], run: str, ends: set, cursor: int, spread: bool = False) -> tuple[list[str], int]:
    """The row's cells with the ones that cut a word joined. Within each run of joinable
    cells, the longest stretch that reads across in the page's order is taken first (a cell
    the layer prints elsewhere, a stamp, breaks the reading, not the join of its neighbours)."""
    cells = list(cells)
    for group in _plain_groups(cells):
        i = 0
        while i < len(group) - 1:
            for j in range(len(group), i + 1, -1):
                window = group[i:j]
                if sum(bool(cells[k].strip()) for k in window) < 2:
                    continue
                found = _read_across(window, cells, run, ends, cursor)
                spans = _cut_spans(found[0], ends) if found else []
                if spans:
                    printed, cursor = found
                    for first, last in spans:
                        lines = [
                            _line_of(line, first, last, ends)
                            for line in printed
                            if any(first <= k <= last for k, _, _ in line)
                        ]
                        if all(_bold(cells[k]) for k in range(first, last + 1) if cells[k].strip()):
                            lines = [f"**{line}**" for line in lines]
                        joined = "<br>".join(lines)
                        cells[first : last + 1] = (
                            [joined] * (last - first + 1) if spread else [joined] + [""] * (last - first)
                        )
                    i = j - 1
                    break
            i += 1
    return cells, cursor


def _pieces(cell: str) -> list[str]:
    """A cell's lines, each without a bold wrapper ("**Appendi**" is "Appendi")."""
    out = []
    for part in _BREAK.split(cell)[::2]:
        bold = _BOLD.match(part)
        if part.strip():
            out.append((bold.group(2) if bold else part).strip())
    return out


def _bold(cell: str) -> bool:
    parts = [p for p in _BREAK.split(cell)[::2] if p.strip()]
    return bool(parts) and all(_BOLD.match(p) for p in parts)


def _plain_groups(cells: list[str]) -> list[list[int]]:
    """Runs of adjacent cells holding plain (or wholly bold) text or nothing, at least two of
    them filled."""
    groups, current = [], []
    for k, cell in enumerate(cells + ["<"]):  # a sentinel that ends the last run
        if all(_PLAIN.match(p) for p in _pieces(cell)) and "<" not in _BREAK.sub("", cell):
            current.append(k)
            continue
        if sum(bool(cells[j].strip()) for j in current) >= 2:
            groups.append(current)
        current = []
    return groups


def _read_across(group: list[int], cells: list[str], run: str, ends: set, cursor: int):
    """The group's cell lines in the order the page prints them: printed line by printed line,
    each left to right, every piece following the last in the word run. A list of printed
    lines, each a list of (cell, piece, offset in the run), and the cursor after them; None
    when the cells do not read that way."""
    pieces = {k: _pieces(cells[k]) for k in group}
    pieces = {k: v for k, v in pieces.items() if v}
    keys = {k: ["".join(p.split()) for p in v] for k, v in pieces.items()}
    if len(keys) < 2:  # cells filled only with line breaks: nothing to read across
        return None
    first = keys[min(keys)][0]
    at = run.find(first, cursor)
    if at < 0:
        at = run.find(first)
    if at < 0:
        return None
    taken = {k: 0 for k in pieces}
    printed = []
    while any(taken[k] < len(v) for k, v in pieces.items()):
        line = []
        for k in sorted(pieces):
            if taken[k] < len(pieces[k]) and run.startswith(keys[k][taken[k]], at):
                line.append((k, pieces[k][taken[k]], at))
                at += len(keys[k][taken[k]])
                taken[k] += 1
        if not line:
            return None
        printed.append(line)
    return printed, at


def _cut_spans(printed: list[list[tuple]], ends: set) -> list[tuple[int, int]]:
    """Spans of cells (first, last) joined because, on some printed line, a piece of one
    continues a word a piece of an earlier one began."""
    joined = set()
    for line in printed:
        for (k, _, _), (m, _, at) in zip(line, line[1:]):
            if at not in ends:
                joined.update(range(k, m))
    spans = []
    for k in sorted(joined):
        if spans and spans[-1][1] == k:
            spans[-1][1] = k + 1
        else:
            spans.append([k, k + 1])
    return [tuple(span) for span in spans]


def _line_of(line: list[tuple], first: int, last: int, ends: set) -> str:
    """One printed line of a joined cell: its pieces, a space where a word ends between them."""
    out = ""
    for k, piece, at in line:
        if first <= k <= last:
            out += (" " if out and at in ends else "") + piece
    return out


def respace(markdown: str, words: list[str]) -> str:
    """``markdown`` (a pipe table) with each cell's spaces taken from ``words``."""
    run, ends = _word_run(words)
    cursor = 0
    lines = []
    for line in markdown.split("\n"):
        if not line.startswith("|") or set(line) <= set("|-: "):
            lines.append(line)
            continue
        cells = row_cells(line)
        for k, cell in enumerate(cells):
            parts = _BREAK.split(cell)
            for j, part in enumerate(parts):
                if j % 2 == 0:  # not a <br> separator
                    parts[j], cursor = _respace_part(part, run, ends, cursor)
            cells[k] = "".join(parts)
        lines.append(_with_cells(line, cells))
    return "\n".join(lines)


def _respace_part(part: str, run: str, ends: set, cursor: int) -> tuple[str, int]:
    bold = _BOLD.match(part)
    if bold:  # "**Clinical Chemistry**": the words inside the emphasis
        inner, cursor = _respace_part(bold.group(2), run, ends, cursor)
        return bold.group(1) + inner + bold.group(3), cursor
    key = "".join(part.split())
    if len(key) < MIN_CHARS or not _PLAIN.match(part):
        return part, cursor
    start = run.find(key, cursor)
    if start < 0:
        start = run.find(key)
        if start < 0:
            return part, cursor
    out = []
    for i, char in enumerate(key):
        if i and start + i in ends:
            out.append(" ")
        out.append(char)
    lead = part[: len(part) - len(part.lstrip())]
    tail = part[len(part.rstrip()) :]
    return lead + "".join(out) + tail, start + len(key)
