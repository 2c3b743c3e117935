"""Page furniture: running headers and footers that repeat on every page.

The layout model labels most of them (page-header / page-footer); what it misses is caught by
repetition: a short block near the top or bottom edge whose text (digits folded, so
"Page 3 of 97" matches "Page 4 of 97") recurs on many pages.
"""

from __future__ import annotations

import re
from collections import Counter

from .model import PAGE_FOOTER, PAGE_HEADER, Block
from .numbering import parse_number, strip_markup

EDGE = 0.12  # share of the page height, at top and bottom, where furniture lives
MIN_SHARE = 0.3  # share of pages a text must recur on to count as furniture


def _signature(block: Block) -> str:
    text = strip_markup(block.text).lower()
    return re.sub(r"\d+", "#", text)


def _at_edge(block: Block, page_sizes: dict[int, tuple[float, float]]) -> bool:
    if block.bbox is None or block.page not in page_sizes:
        return False
    height = page_sizes[block.page][1]
    return block.bbox[3] <= height * EDGE or block.bbox[1] >= height * (1 - EDGE)


def _numbered_heading(block: Block) -> bool:
    """A section heading near the top edge ("2 Study Design") is never furniture, however
    alike the headings of consecutive pages look once digits are folded."""
    number = parse_number(block.text)
    return bool(number and number.title[:1].isupper())


def mark_furniture(blocks: list[Block], page_sizes: dict[int, tuple[float, float]], page_count: int) -> None:
    """Set ``dropped = "furniture"`` on running headers/footers, in place."""
    for block in blocks:
        if block.kind in (PAGE_HEADER, PAGE_FOOTER):
            block.dropped = "furniture"
    edge_blocks = [b for b in blocks if not b.dropped and _at_edge(b, page_sizes) and len(b.text) < 300 and not _numbered_heading(b)]
    pages_with = Counter()
    for sig in {(_signature(b), b.page) for b in edge_blocks}:
        pages_with[sig[0]] += 1
    threshold = max(3, MIN_SHARE * page_count)
    for block in edge_blocks:
        if pages_with[_signature(block)] >= threshold:
            block.dropped = "furniture"
