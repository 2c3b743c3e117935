"""Page furniture: running headers and footers that repeat on every page.

Repetition decides, whatever the layout model called the block (text, heading, table):
a line near the top or bottom edge whose text (markup, case and spacing folded, digits folded
so "Page 3 of 97" matches "Page 4 of 97" and dates match each other) recurs on many pages is
furniture. Lines are counted, not blocks, so a header block of several lines ("Sponsor /
Date: ... / Version: ... / Page: ...") is recognised whatever the converter grouped together,
and odd/even pages with different headers each reach the share on their own.

The layout model's own page-header/page-footer labels count towards the repetition (they are
where the model saw furniture) and stay dropped.
"""

from __future__ import annotations

import re
from .model import PAGE_FOOTER, PAGE_HEADER, PICTURE, TABLE, Block
from .numbering import parse_number, strip_markup

EDGE = 0.12  # share of the page height, at top and bottom, where furniture is learned
WIDE_EDGE = 0.2  # once learned, a furniture line is recognised this far in (landscape pages have wider margins)
MIN_SHARE = 0.3  # share of pages a line must recur on to count as furniture
MAX_CHARS = 300  # a longer block is body text, whatever it repeats
_FILLER = re.compile(r"^[#\s]*$")  # what is left of a bare page number or a rule once digits are folded
_CAPTION = re.compile(r"^(table|figure) ([a-z]{1,6} )?#")


def signature(line: str) -> str:
    """The words of a line, lower case, numbers as ``#``: markup, punctuation and symbols
    ("> ", "- Confidential -", a copyright glyph) vary between pages and converters."""
    words = re.findall(r"[^\W\d_]+|\d+", strip_markup(line).lower())
    return " ".join("#" if w[0].isdigit() else w for w in words)


def _lines(block: Block) -> list[str]:
    """The signatures of a block's lines; a table block's lines are its cells."""
    text = block.text
    if block.kind == TABLE:
        text = "\n".join(c for line in text.splitlines() if not re.fullmatch(r"[\s|:\-]*", line) for c in line.split("|"))
    sigs = (signature(ln) for ln in re.split(r"\n|<br\s*/?>", text))
    return [s for s in sigs if s]


def _band(block: Block, page_sizes: dict[int, tuple[float, float]], share: float) -> bool:
    if block.bbox is None or block.page not in page_sizes:
        return False
    height = page_sizes[block.page][1]
    return block.bbox[3] <= height * share or block.bbox[1] >= height * (1 - share)


def _learned_from(block: Block, page_sizes: dict[int, tuple[float, float]]) -> bool:
    """Does the block start at the very top (or end at the very bottom) and stay within the
    wide band? A header block drawn as a table reaches further down than one line does."""
    if block.bbox is None or block.page not in page_sizes:
        return False
    h = page_sizes[block.page][1]
    top = block.bbox[1] <= h * EDGE and block.bbox[3] <= h * WIDE_EDGE
    bottom = block.bbox[3] >= h * (1 - EDGE) and block.bbox[1] >= h * (1 - WIDE_EDGE)
    return top or bottom


def _kept_heading(block: Block) -> bool:
    """A section heading ("2 Study Design") or a table/figure caption repeated on the pages
    of a long table is never furniture, however alike its repeats look once digits are folded."""
    number = parse_number(block.text)
    if number and number.title[:1].isupper():
        return True
    first = signature(block.text.strip().splitlines()[0]) if block.text.strip() else ""
    return bool(_CAPTION.match(first))


class _EdgeText:
    """What each page shows at its top and bottom edge, to look lines up in.

    A line is looked up as a phrase (on word boundaries) inside a page's whole edge text, not
    as a line of it: converters group furniture differently from page to page ("Sponsor: X" on
    one line and "- Confidential -" below it here, both on one line there).
    """

    def __init__(self, blocks: list[Block], page_sizes: dict[int, tuple[float, float]], page_count: int):
        by_page: dict[int, list[str]] = {}
        for b in blocks:
            if b.kind != PICTURE and len(b.text) <= MAX_CHARS and _learned_from(b, page_sizes):
                by_page.setdefault(b.page, []).extend(_lines(b))
        self.pages = [f" {' '.join(sigs)} " for sigs in by_page.values()]
        self.threshold = max(3, MIN_SHARE * page_count)
        self._known: dict[str, bool] = {}

    def recurs(self, sig: str) -> bool:
        """Does this line recur at the edge of at least MIN_SHARE of the pages?"""
        if sig not in self._known:
            needle = f" {sig} "
            self._known[sig] = sum(needle in page for page in self.pages) >= self.threshold
        return self._known[sig]


def mark_furniture(blocks: list[Block], page_sizes: dict[int, tuple[float, float]], page_count: int) -> None:
    """Set ``dropped = "furniture"`` on running headers/footers, in place.

    A block is furniture when every line of it is a furniture line (or a bare page number)
    and it sits near an edge; labelled page headers/footers always are.
    """
    edges = _EdgeText(blocks, page_sizes, page_count)
    for block in blocks:
        if block.kind in (PAGE_HEADER, PAGE_FOOTER):
            block.dropped = "furniture"
            continue
        if block.dropped or block.kind == PICTURE or len(block.text) > MAX_CHARS or not _band(block, page_sizes, WIDE_EDGE):
            continue
        sigs = _lines(block)
        if sigs and all(_FILLER.match(s) for s in sigs):
            # A bare page number or rule: at the very edge only, where page numbers sit.
            if _band(block, page_sizes, EDGE) and all(edges.recurs(s) for s in sigs):
                block.dropped = "furniture"
            continue
        # A line of one or two short words ("of", "a") is found in any edge text: it needs a
        # number or three letters to be told apart.
        furniture = [_FILLER.match(s) or ((sum(c.isalpha() for c in s) >= 3 or "#" in s) and edges.recurs(s)) for s in sigs]
        if sigs and all(furniture) and not _kept_heading(block):
            block.dropped = "furniture"
