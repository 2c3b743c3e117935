"""Heading numbers drawn as pictures: some templates print a heading's number as a small image
just left of its title ("[1.1] Background"), so the text layer holds the title alone and the
number is only in the pixels (and, with luck, in the bookmarks or the printed TOC).

Each small embedded image whose right edge meets the first line of a text block (a heading, a
paragraph, a list item that starts at most ``GAP`` points to its right, on the same line) is
read by OCR's recognition model alone (one line, no detection: ~40 ms), from a render of the
image enlarged to a legible size. When what it reads is a section number ("4.1.1.2", "A.3")
and the block does not start with it, the number is written in front of the block's text and
``number_source`` says it came from a picture: the structure stage then reads the heading as
if it were printed. Anything else read there (a bullet, an icon, a logo) is left alone.

A number picture OCR cannot read is marked (``UNREAD``); once every page is read,
``number_from_sequence`` gives it the number its place implies: pictures at the same indent
carry numbers of the same depth, so its depth is that of the numbers read at its indent, and
its number is the one that follows the previous picture's number at that depth ("5.2.3" after
"5.2.2", "5.3.1" after "5.3"), kept only when the next picture's number can follow it.
``number_source`` then says ``picture-sequence``.
"""

from __future__ import annotations

import re

from ...model import HEADING, LIST_ITEM, TEXT, Block
from ...shared.markup import strip_markup

MAX_WIDTH = 80.0  # points: a number "10.2.3.4" at 12 pt is ~50 wide
MAX_HEIGHT = 30.0
GAP = 24.0  # points between the picture's right edge and the text it numbers
RENDER_DPI = 400  # small pictures are low resolution: enlarged, the recognizer reads them
MIN_SCORE = 0.9
NUMBER = re.compile(r"^(?:\d{1,2}(?:\.\d{1,2}){0,5}\.?|[A-Z](?:\.\d{1,2}){1,5}\.?)$")
PICTURE = "picture"  # Block.number_source of a number read from a picture
UNREAD = "picture-unread"  # a number picture beside the block that OCR could not read
SEQUENCE = "picture-sequence"  # a number given by the place of an unread number picture
INDENT = 3.0  # points: number pictures this close on the left are at one indent
_LEAD = re.compile(r"^(\s*(?:#{1,6}\s+)?(?:[-*+]\s+)?(?:\*\*|__)?)")


def number_pictures(page, blocks: list[Block]) -> int:
    """Write the numbers drawn as pictures beside ``blocks`` (one page's) into their text; how many."""
    found = 0
    for info in page.get_image_info():
        x0, y0, x1, y1 = info["bbox"]
        if not (0 < x1 - x0 <= MAX_WIDTH and 0 < y1 - y0 <= MAX_HEIGHT):
            continue
        block = _numbered_by(blocks, (x0, y0, x1, y1))
        if block is None:
            continue
        number = _read(page, (x0, y0, x1, y1))
        if number and not strip_markup(block.text).startswith(number):
            _write(block, number, PICTURE)
            block.number_x = x0
            found += 1
        elif not number and not block.number_source and _title_shaped(block):
            block.number_source, block.number_x = UNREAD, x0
    return found


def _write(block: Block, number: str, source: str) -> None:
    block.text = _LEAD.sub(lambda m: f"{m[1]}{number} ", block.text, count=1)
    block.number_source = source


def number_from_sequence(blocks: list[Block]) -> int:
    """Number the blocks whose number picture was unread from the numbers read around them
    (the document's blocks, in order); how many. One left without a number loses the mark."""
    numbered = [
        (k, _parts(_number_of(b)))
        for k, b in enumerate(blocks)
        if b.number_source == PICTURE and b.number_x is not None
    ]
    depths = [(blocks[k].number_x, len(parts)) for k, parts in numbered if parts]
    given = 0
    for k, block in enumerate(blocks):
        if block.number_source != UNREAD:
            continue
        block.number_source = ""
        at_indent = sorted({d for x, d in depths if abs(x - block.number_x) <= INDENT})
        before = [p for j, p in numbered if j < k and p]
        after = [(j, p) for j, p in numbered if j > k and p]
        if len(at_indent) != 1 or not before:
            continue
        number = _following(before[-1], at_indent[0])
        if not number:
            continue
        # The next number read must come right after this one, or, with other unread numbers
        # between them, at least after it.
        unread_between = after and any(b.number_source == UNREAD for b in blocks[k + 1 : after[0][0]])
        if not after or (_comes_after(number, after[0][1]) if unread_between else _can_follow(number, after[0][1])):
            _write(block, ".".join(number), SEQUENCE)
            numbered.append((k, number))
            numbered.sort(key=lambda e: e[0])
            given += 1
    return given


def _title_shaped(block: Block) -> bool:
    """A heading, or one short capitalized line without a sentence's stop, not numbered in its
    text: what an unread picture may number (not a bullet's item, a formula, a reference)."""
    lines = [strip_markup(ln) for ln in block.text.splitlines() if strip_markup(ln)]
    if not lines or _number_of(block):
        return False
    words = lines[0].split()
    shaped = (
        len(lines) == 1
        and len(words) <= 12
        and lines[0][:1].isupper()
        and not lines[0].rstrip().endswith((".", ";", ",", ":"))
    )
    return block.kind == HEADING or shaped


def _number_of(block: Block) -> str:
    first = strip_markup(block.text).split()
    return first[0].rstrip(".") if first and NUMBER.match(first[0]) else ""


def _parts(number: str) -> list[str]:
    return number.split(".") if number else []


def _following(previous: list[str], depth: int) -> list[str] | None:
    """The number at ``depth`` that comes right after ``previous``: its next sibling, its first
    descendant, or the next sibling of its ancestor at that depth."""
    if depth > len(previous):
        return previous + ["1"] * (depth - len(previous))
    last = previous[depth - 1]
    if not last.isdigit():
        return None  # a lettered chapter ("A") is not counted on from here
    return previous[: depth - 1] + [str(int(last) + 1)]


def _comes_after(number: list[str], later: list[str]) -> bool:
    """Whether ``later`` is numbered after ``number`` (in reading order of an outline)."""

    def key(parts):
        return [(0, int(p), "") if p.isdigit() else (1, 0, p) for p in parts]

    return key(later) > key(number)


def _can_follow(number: list[str], next_number: list[str]) -> bool:
    """Whether ``next_number`` may come right after ``number``: a first child, a next sibling of
    it or of one of its ancestors."""
    if len(next_number) > len(number) and next_number[: len(number)] == number:
        return all(part == "1" for part in next_number[len(number) :])
    depth = len(next_number)
    if depth > len(number) or next_number[: depth - 1] != number[: depth - 1]:
        return False
    here, there = number[depth - 1], next_number[depth - 1]
    return here.isdigit() and there.isdigit() and int(there) == int(here) + 1


def _numbered_by(blocks: list[Block], box) -> Block | None:
    """The block whose first line starts just right of ``box``, level with it."""
    x0, y0, x1, y1 = box
    height = y1 - y0
    for block in blocks:
        if block.kind not in (HEADING, TEXT, LIST_ITEM) or block.dropped or not block.bbox or not block.text.strip():
            continue
        bx0, by0, bx1, _ = block.bbox
        if x1 - 2 <= bx0 <= x1 + GAP and bx1 > x1 and abs(by0 - y0) <= max(height, 6.0):
            return block
    return None


def _read(page, box) -> str:
    """The number OCR's recognizer reads in the picture at ``box`` ("" if not a number)."""
    import numpy as np
    import pymupdf

    from ..runtime.ocr import recognize_line

    pix = page.get_pixmap(clip=pymupdf.Rect(box), dpi=RENDER_DPI, alpha=False)
    if pix.width < 4 or pix.height < 4:
        return ""
    image = np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.width, pix.n)[:, :, :3]
    pad = np.full((image.shape[0] + 20, image.shape[1] + 40, 3), 255, dtype=np.uint8)
    pad[10 : 10 + image.shape[0], 20 : 20 + image.shape[1]] = image  # a margin, as a line of text has
    text, score = recognize_line(pad)
    text = "".join(text.split())
    return text if score >= MIN_SCORE and NUMBER.match(text) else ""
