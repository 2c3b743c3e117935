"""Numbered list items the layout model boxed as one.

A criteria list with hanging numbers ("4.1.2  Resident in ...", "4.1.3  Male or female ...",
each number at the list's left edge, its text indented) can come back from the layout model
with two items in one list box. pymupdf4llm starts a new item inside a box only where a line
begins left of the one before, and the next item's number begins exactly where the last one's
did: the two items are written as one ("- 4.1.2 Resident in Mainland China and of Chinese
ancestry 4.1.3 Male or female ..."), and a reader of the list (eligibility) loses one.

The page's text layer shows where each item starts: a line whose first word is the next number
of the item's own sequence ("4.1.2" -> "4.1.3", "9." -> "10."), standing where the item's own
number stands. The item is cut there into two, as the model writes two items it sees apart.
"""

from __future__ import annotations

import re

from ...model import LIST_ITEM, Block

# An item line of the Markdown: its bullet (if any) and its decimal number.
_ITEM = re.compile(r"^(?P<lead>\s*(?:-\s+)?)(?P<number>\d{1,3}(?:\.\d{1,3})*\.?)\s+\S")
SAME_EDGE = 3.0  # points: a number starting this close to the item's own stands where it does


def split_joined_items(doc, blocks: list[Block], skip_pages: set = frozenset()) -> None:
    """Cut each list item holding the next item of its numbered list in two, in place (see the
    module docstring). Pages in ``skip_pages`` (read by OCR) have no text layer to ask."""
    for block in blocks:
        if block.kind != LIST_ITEM or block.dropped or not block.bbox or block.page is None or block.page in skip_pages:
            continue
        if not any(_ITEM.match(line) for line in block.text.split("\n")):
            continue
        starts = _line_starts(doc[block.page - 1], block.bbox)
        text = "\n".join(_split_line(line, starts) for line in block.text.split("\n"))
        if text != block.text:
            block.text = text


def _split_line(line: str, starts: dict[str, list[float]]) -> str:
    """One Markdown item line, cut before each following number of its sequence that the text
    layer shows starting a line at the item's number's edge."""
    m = _ITEM.match(line)
    if m is None or m["number"] not in starts:
        return line
    lead, number = m["lead"], m["number"]
    edges = starts[number]
    pieces, rest = [], line
    while True:
        following = _next_number(number)
        # an item's text starts with a capital ("4.1.3 Male ..."); "2 instances" is a count
        cut = re.search(rf"\s{re.escape(following)}\s+(?=[A-Z(\[])", rest)
        if cut is None or not any(abs(x - e) <= SAME_EDGE for x in starts.get(following, ()) for e in edges):
            break
        pieces.append(rest[: cut.start()].rstrip())
        rest = lead + rest[cut.start() :].lstrip()
        number = following
    return "\n\n".join(pieces + [rest]) if pieces else line


def _next_number(number: str) -> str:
    """The next sibling: "4.1.2" -> "4.1.3", "9." -> "10."."""
    dot = number.endswith(".")
    parts = number.rstrip(".").split(".")
    parts[-1] = str(int(parts[-1]) + 1)
    return ".".join(parts) + ("." if dot else "")


def _line_starts(page, bbox) -> dict[str, list[float]]:
    """The first word of each text line inside ``bbox`` -> where those lines start (x)."""
    import pymupdf

    first: dict[tuple[int, int], tuple[float, str]] = {}  # (block, line) -> its leftmost word
    for x0, _, _, _, word, block_no, line_no, _ in page.get_text("words", clip=pymupdf.Rect(bbox) + (-1, -1, 1, 1)):
        key = (block_no, line_no)
        if key not in first or x0 < first[key][0]:
            first[key] = (x0, word)
    out: dict[str, list[float]] = {}
    for x0, word in first.values():
        out.setdefault(word, []).append(x0)
    return out
