"""Table cells with the words as printed.

The layout converter builds a table's cells from characters and guesses the spaces between
them: a narrow gap loses its space ("Creatinekinase"), a wide letter gap gains one ("Apo
Egenotyping" for "ApoE genotyping"). The page's own words (``page.get_text("words")`` inside
the table's box) have the spacing the PDF prints. So each cell's characters are looked up,
spaces ignored, in the run of the table's words, and the spaces are put back where the page's
word boundaries fall. A cell whose characters are not found there as one run (markup, an
escaped character, text the converter changed) is left as it is.
"""

from __future__ import annotations

import re

from ..model import TABLE, Block

MIN_CHARS = 4  # shorter cells ("X", "Yes", "12") have nothing to re-space and match anywhere
_BREAK = re.compile(r"(<br\s*/?>)", re.I)
_BOLD = re.compile(r"^(\s*\*\*)([^*]+)(\*\*\s*)$")
_PLAIN = re.compile(r"^[^<>*_`|\\]+$")  # a cell part without markup or escapes


def respace_tables(doc, blocks: list[Block]) -> None:
    """Re-space the cells of every table block in place (``doc``: the caller's PDF handle, its
    pages in the converter's coordinates)."""
    for block in blocks:
        if block.kind == TABLE and block.bbox and block.page:
            words = [w[4] for w in doc[block.page - 1].get_text("words", clip=block.bbox)]
            if words:
                block.text = respace(block.text, words)


def respace(markdown: str, words: list[str]) -> str:
    """``markdown`` (a pipe table) with each cell's spaces taken from ``words``."""
    run = "".join(words)
    ends, at = set(), 0
    for word in words:
        at += len(word)
        ends.add(at)
    cursor = 0
    lines = []
    for line in markdown.split("\n"):
        if not line.startswith("|") or set(line) <= set("|-: "):
            lines.append(line)
            continue
        cells = line.split("|")
        for k, cell in enumerate(cells):
            parts = _BREAK.split(cell)
            for j, part in enumerate(parts):
                if j % 2 == 0:  # not a <br> separator
                    parts[j], cursor = _respace_part(part, run, ends, cursor)
            cells[k] = "".join(parts)
        lines.append("|".join(cells))
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
