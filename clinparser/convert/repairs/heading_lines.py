"""A numbered heading the layout model boxed together with the line under it.

"17.7.1 Primary Endpoint" and, on the next line, the run-in heading "Primary Analysis
Hypothesis" (same font, same indent) come back from the layout model as one heading whose
Markdown runs both lines together: the section would be titled with both. The page's text layer
still shows where the lines break, and whether the break was the author's: a title that wraps
fills its line, so the next line's first word would not have fitted on it; a line that ends
short of the column's right edge by more than that word was ended on purpose. Such a heading
is split there into two heading blocks, as the layout model boxes them when it sees them apart.
"""

from __future__ import annotations

import re
from typing import Optional

from ...model import HEADING, Block

# A section number opening a heading: "17.7.1 Primary", "5. Study", "A.2 Forms", "10.3.4.1 Sub".
_NUMBERED = re.compile(r"^(?:\d{1,2}(?:\.\d{1,3}){0,4}\.?|[A-Z]\.\d{1,3}(?:\.\d{1,3}){0,3}\.?)\s+\S")
# The heading's Markdown: level marks, then the title in one style wrapper (bold, italic) or none.
_MARKDOWN = re.compile(r"^(?P<hashes>#+\s+)?(?P<wrap>\*\*\*|\*\*|\*|_)?(?P<title>[^*_#]+?)(?P=wrap)?$")
SLACK = 2.0  # points: a line ending this close to the room left is a full line
SAME_INDENT = 6.0  # points: a body line starting this close to the heading is in its column


def split_heading_lines(doc, blocks: list[Block]) -> list[Block]:
    """The blocks, with each numbered heading that holds a deliberately broken second line split
    in two (see the module docstring)."""
    out: list[Block] = []
    for block in blocks:
        parts = _split(doc[block.page - 1], block) if _candidate(block) else None
        out.extend(parts or [block])
    return out


def _candidate(block: Block) -> bool:
    if block.kind != HEADING or block.dropped or not block.bbox or block.page is None:
        return False
    m = _MARKDOWN.match(block.text.strip())
    return bool(m and _NUMBERED.match(m["title"].strip()))


def _split(page, block: Block) -> Optional[list[Block]]:
    lines = _lines(page, block.bbox)
    if len(lines) < 2 or not _NUMBERED.match(lines[0][1]):
        return None
    (box, text), (next_box, next_text) = lines[0], lines[1]
    first_word = next_text.split()[0]
    word_width = (next_box[2] - next_box[0]) * len(first_word) / max(len(next_text), 1)
    right = _column_right(page, box[0])
    space = (box[3] - box[1]) * 0.25
    if box[2] + space + word_width > right - SLACK:
        return None  # a full line: the title wraps onto the next one
    m = _MARKDOWN.match(block.text.strip())
    title = " ".join(m["title"].split())
    head = " ".join(text.split())
    if not title.startswith(head) or len(title) == len(head):
        return None
    hashes, wrap = m["hashes"] or "", m["wrap"] or ""
    x0, y0, x1, y1 = block.bbox
    return [
        Block(page=block.page, bbox=(x0, y0, x1, box[3]), kind=HEADING, text=f"{hashes}{wrap}{head}{wrap}"),
        Block(
            page=block.page,
            bbox=(x0, next_box[1], x1, y1),
            kind=HEADING,
            text=f"{hashes}{wrap}{title[len(head) :].strip()}{wrap}",
        ),
    ]


def _lines(page, bbox) -> list[tuple[tuple, str]]:
    """The text lines inside ``bbox``, top to bottom: (box, text); spans on one baseline are one line."""
    import pymupdf

    clip = pymupdf.Rect(bbox) + (-1, -1, 1, 1)
    rows: dict[int, list] = {}
    for block in page.get_text("dict", clip=clip, flags=0)["blocks"]:
        for line in block.get("lines", ()):
            text = "".join(s["text"] for s in line["spans"]).strip()
            if text:
                rows.setdefault(round(line["bbox"][3]), []).append((line["bbox"], text))
    out = []
    for key in sorted(rows):
        parts = sorted(rows[key], key=lambda p: p[0][0])
        box = (
            min(p[0][0] for p in parts),
            min(p[0][1] for p in parts),
            max(p[0][2] for p in parts),
            max(p[0][3] for p in parts),
        )
        out.append((box, " ".join(p[1] for p in parts)))
    return out


def _column_right(page, left: float) -> float:
    """The right edge of the text column a line starting at ``left`` stands in: the furthest
    right any line of the page starting at that indent reaches."""
    right = left
    for block in page.get_text("dict", flags=0)["blocks"]:
        for line in block.get("lines", ()):
            if abs(line["bbox"][0] - left) <= SAME_INDENT:
                right = max(right, line["bbox"][2])
    return right
