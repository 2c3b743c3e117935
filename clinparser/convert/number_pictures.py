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
"""

from __future__ import annotations

import re

from ..markup import strip_markup
from ..model import HEADING, LIST_ITEM, TEXT, Block

MAX_WIDTH = 80.0  # points: a number "10.2.3.4" at 12 pt is ~50 wide
MAX_HEIGHT = 30.0
GAP = 24.0  # points between the picture's right edge and the text it numbers
RENDER_DPI = 400  # small pictures are low resolution: enlarged, the recognizer reads them
MIN_SCORE = 0.9
NUMBER = re.compile(r"^(?:\d{1,2}(?:\.\d{1,2}){0,5}\.?|[A-Z](?:\.\d{1,2}){1,5}\.?)$")
PICTURE = "picture"  # Block.number_source of a number read from a picture
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
            block.text = _LEAD.sub(lambda m: f"{m[1]}{number} ", block.text, count=1)
            block.number_source = PICTURE
            found += 1
    return found


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

    from .ocr import recognize_line

    pix = page.get_pixmap(clip=pymupdf.Rect(box), dpi=RENDER_DPI, alpha=False)
    if pix.width < 4 or pix.height < 4:
        return ""
    image = np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.width, pix.n)[:, :, :3]
    pad = np.full((image.shape[0] + 20, image.shape[1] + 40, 3), 255, dtype=np.uint8)
    pad[10 : 10 + image.shape[0], 20 : 20 + image.shape[1]] = image  # a margin, as a line of text has
    text, score = recognize_line(pad)
    text = "".join(text.split())
    return text if score >= MIN_SCORE and NUMBER.match(text) else ""
