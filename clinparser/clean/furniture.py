"""Page furniture: running headers and footers that repeat on every page.

Repetition decides, whatever the layout model called the block (text, heading, table):
a line near the top or bottom edge whose text (markup, case and spacing folded, digits folded
so "Page 3 of 97" matches "Page 4 of 97" and dates match each other) recurs on many pages is
furniture. Lines are counted, not blocks, so a header block of several lines ("Sponsor /
Date: ... / Version: ... / Page: ...") is recognised whatever the converter grouped together,
and odd/even pages with different headers each reach the share on their own.

The layout model's own page-header/page-footer labels count towards the repetition (they are
where the model saw furniture) and stay dropped.

An appendix bundled into the document (protocol amendments, a manual) has its own running
header on its own pages only, too few to reach the share: a line at the edge of a run of
consecutive pages counts too (``RUN``). A long table's header row repeated at the top of its
pages is not furniture (``_heads_a_table``), and a heading's first appearance opens its section.
Header rows a converter drew into the table below them are taken out of the table.
"""

from __future__ import annotations

import re
from typing import Optional

from ..model import CAPTION, HEADING, PAGE_FOOTER, PAGE_HEADER, PICTURE, TABLE, Block
from ..shared.numbering import parse_number, strip_markup
from ..shared.pipe_tables import is_rule_row, is_table_row, row_cells

EDGE = 0.12  # share of the page height, at top and bottom, where furniture is learned
WIDE_EDGE = 0.2  # once learned, a furniture line is recognised this far in (landscape pages have wider margins)
MIN_SHARE = 0.3  # share of pages a line must recur on to count as furniture
MAX_CHARS = 300  # a longer block is body text, whatever it repeats
PIECE = 12  # characters: a piece of a furniture line cut by a table's column boundaries
MIN_PIECES = 3  # pieces a torn header row has at least (a real header row names one furniture word at most)
MIN_LABELS = 3  # document-wide furniture lines that make a table row's lines a header block's, number or not
MIN_JOINED = 2  # furniture lines with letters a line must join to be furniture by its pieces
RUN = 3  # consecutive pages a line must recur on to be a bundled appendix's own furniture
_FILLER = re.compile(r"^[#\s]*$")  # what is left of a bare page number or a rule once digits are folded
_CAPTION = re.compile(r"^(table|figure) ([a-z]{1,6} )?#")
# A date ("18 Apr 2022", "3 June 2019") reads like a section number and its title.
_DATE = re.compile(r"^\d{1,2}[ \-.]+(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?[ \-.]+\d{2,4}\b", re.I)
_OVERPRINTED = re.compile(r"^([^\W\d_]{3,}?)\1+$")  # a word repeated with nothing between
# A date once digits are folded ("# december #", "march #"): a header's date changes between
# the protocol and each amendment bundled with it, so no one date recurs on enough pages.
_DATE_SIG = re.compile(r"^(# )?(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]* #$")


def signature(line: str) -> str:
    """The words of a line, lower case, numbers as ``#``: markup, punctuation and symbols
    ("> ", "- Confidential -", a copyright glyph) vary between pages and converters. A word
    printed twice over itself (a stamp drawn twice, slightly offset, for weight) is read as
    run together ("CONFIDENTIALCONFIDENTIAL") on some pages only: it counts once."""
    words = re.findall(r"[^\W\d_]+|\d+", strip_markup(line).lower())
    return " ".join("#" if w[0].isdigit() else _OVERPRINTED.sub(r"\1", w) for w in words)


def _lines(block: Block) -> list[str]:
    """The signatures of a block's lines; a table block's lines are its cells."""
    text = block.text
    if block.kind == TABLE:
        text = "\n".join(c for line in text.splitlines() if not is_rule_row(line) for c in row_cells(line))
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
    if number and number.title[:1].isupper() and not _DATE.match(strip_markup(block.text).strip()):
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
        self.by_page = {page: f" {' '.join(sigs)} " for page, sigs in by_page.items()}
        self.pages = list(self.by_page.values())
        self.threshold = max(3, MIN_SHARE * page_count)
        # The lines themselves (a header block's "Date:", "Novo Nordisk", "Page: 3 of 97"),
        # each counted once per page, for lines that join several of them (``pieced``).
        on_pages: dict[str, int] = {}
        for sigs in by_page.values():
            for sig in set(sigs):
                on_pages[sig] = on_pages.get(sig, 0) + 1
        self.lines = {sig for sig, n in on_pages.items() if n >= self.threshold}
        self._known: dict[str, bool] = {}
        self._squeezed: Optional[str] = None

    def has_piece(self, sig: str) -> bool:
        """Is this a piece of some edge text, spaces aside ("dat", "# dec", "tatus")?"""
        if self._squeezed is None:
            self._squeezed = " ".join(page.replace(" ", "") for page in self.pages)
        return sig.replace(" ", "") in self._squeezed

    def at_edge_of(self, page: int, sigs: list[str]) -> bool:
        """Does every line stand at the edge of ``page`` too?"""
        return all(f" {s} " in self.by_page.get(page, "") for s in sigs)

    def in_run(self, sig: str, page: int, here: bool = False) -> bool:
        """Does this line stand at the edge of a run of at least RUN consecutive pages around
        ``page``? An appendix bundled into the document (an amendment, a manual) has its own
        running header on its own pages, too few of all pages to reach MIN_SHARE."""
        needle = f" {sig} "

        def has(p: int) -> bool:
            return needle in self.by_page.get(p, "")

        run = 0
        for step in (-1, 1):
            p = page + step
            while has(p) and run < RUN:
                run += 1
                p += step
        return (here or has(page)) and run + 1 >= RUN

    def furniture_line(self, sig: str, page: int) -> bool:
        """A line of a table cell that is furniture: recurring, or in a run of pages around this one."""
        return (
            bool(_FILLER.match(sig))
            or (sum(c.isalpha() for c in sig) >= 3 or "#" in sig)
            and (self.recurs(sig) or self.in_run(sig, page, here=True))
        )

    def pieced(self, sig: str) -> bool:
        """Is this line recurring edge lines run together, at least MIN_JOINED of them with
        letters? A header block that the converter reads as one line on some pages, its
        lines in a varying order ("Protocol Date: 21 December 2017 Novo Nordisk Trial ID:
        ... Page: 8 of 104"), is the same lines as the block printed line by line elsewhere.
        Fewest pieces first, so that a line is cut into whole lines, not into their words. A
        date may stand between them: each bundled document prints its own."""
        words = sig.split()
        fewest: list[Optional[tuple[int, int]]] = [None] * (len(words) + 1)  # (pieces, lettered)
        fewest[0] = (0, 0)
        for i in range(len(words)):
            if fewest[i] is None:
                continue
            for j in range(i + 1, len(words) + 1):
                piece = " ".join(words[i:j])
                if piece in self.lines or _DATE_SIG.match(piece):
                    # a date is a field of the header, like its page number: it does not
                    # count as one of the recurring lines the line must join
                    lettered = not (_FILLER.match(piece) or _DATE_SIG.match(piece))
                    found = (fewest[i][0] + 1, fewest[i][1] + lettered)
                    if fewest[j] is None or found[0] < fewest[j][0]:
                        fewest[j] = found
        return fewest[-1] is not None and fewest[-1][1] >= MIN_JOINED

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
    for k, block in enumerate(blocks):
        if block.kind in (PAGE_HEADER, PAGE_FOOTER):
            block.dropped = "furniture"
            continue
        if (
            block.dropped
            or block.kind == PICTURE
            or len(block.text) > MAX_CHARS
            or not _band(block, page_sizes, WIDE_EDGE)
        ):
            continue
        sigs = _lines(block)
        if sigs and all(_FILLER.match(s) for s in sigs):
            # A bare page number or rule: at the very edge only, where page numbers sit.
            if _band(block, page_sizes, EDGE) and all(edges.recurs(s) for s in sigs):
                block.dropped = "furniture"
            continue
        # A line of one or two short words ("of", "a") is found in any edge text: it needs a
        # number or three letters to be told apart.
        telling = [_FILLER.match(s) or sum(c.isalpha() for c in s) >= 3 or "#" in s for s in sigs]
        if not sigs or not all(telling) or _kept_heading(block) or _heads_a_table(blocks, k):
            continue
        if all(_FILLER.match(s) or edges.recurs(s) for s in sigs):
            block.dropped = "furniture"
        elif block.kind not in (HEADING, CAPTION) and all(
            _FILLER.match(s) or edges.recurs(s) or edges.pieced(s) for s in sigs
        ):
            # A header block read as one line, its lines in this page's order (``pieced``).
            # Not a heading: a title may well be made of words the header also prints.
            block.dropped = "furniture"
        elif _learned_from(block, page_sizes) and all(
            _FILLER.match(s) or edges.recurs(s) or edges.in_run(s, block.page) for s in sigs
        ):
            # A heading repeated over the pages of its section is furniture, but its first
            # appearance is the heading: it opens the section.
            if block.kind not in (HEADING, CAPTION) or edges.at_edge_of(block.page - 1, sigs):
                block.dropped = "furniture"
    strip_furniture_rows(blocks, edges, page_sizes)
    strip_furniture_lines(blocks, edges, page_sizes)
    strip_furniture_from_pictures(blocks, edges, page_sizes)


def strip_furniture_from_pictures(
    blocks: list[Block], edges: "_EdgeText", page_sizes: dict[int, tuple[float, float]]
) -> None:
    """Take running-header/footer lines out of the words read inside a picture, in place: a
    header drawn inside a box the layout model calls a picture ("Protocol Date: … Novo Nordisk
    / Trial ID: … / CONFIDENTIAL") is furniture, as it is on the pages that print it as text.
    A line goes when it stands in a page's edge band and is a furniture line; a bare number
    (a page number's shape) only when nothing else of the picture stands in its row, so a
    timeline's "cycle days 1 2 3 ..." axis stays."""
    for block in blocks:
        image = block.image
        if (
            block.dropped
            or image is None
            or not image.words
            or block.bbox is None
            or block.page not in page_sizes
            or not image.height
        ):
            continue
        height = page_sizes[block.page][1]
        scale = (block.bbox[3] - block.bbox[1]) / image.height

        def at_edge(box) -> bool:
            top, bottom = block.bbox[1] + box[1] * scale, block.bbox[1] + box[3] * scale
            return bottom <= height * WIDE_EDGE or top >= height * (1 - WIDE_EDGE)

        def alone(box) -> bool:  # a page number stands alone in its row, not in a row of ticks
            return not any(other is not box and other[1] < box[3] and box[1] < other[3] for other, _ in image.words)

        kept = [
            (box, text)
            for box, text in image.words
            if not (at_edge(box) and _picture_furniture(signature(text), edges, alone(box)))
        ]
        if len(kept) != len(image.words):
            image.words = kept
            if not kept:
                image.words_from = ""


def _picture_furniture(sig: str, edges: "_EdgeText", alone: bool) -> bool:
    if not sig or _FILLER.match(sig):
        return bool(sig) and alone
    return (sum(c.isalpha() for c in sig) >= 3 or "#" in sig) and (edges.recurs(sig) or edges.pieced(sig))


def strip_furniture_lines(blocks: list[Block], edges: "_EdgeText", page_sizes: dict[int, tuple[float, float]]) -> None:
    """Take running-header/footer lines off the ends of body blocks that swallowed them, in
    place: the converter sometimes makes the page's last paragraph or list item and the footer
    below it one block ("... records kept at / 18 Apr 2022 Astellas Page 77 of 106"). The
    block's last lines go when the block ends within the edge band and each of them is a
    furniture line, whole or run together (``pieced``); its first lines likewise at the top."""
    for block in blocks:
        if block.dropped or block.kind in (TABLE, PICTURE) or block.bbox is None or block.page not in page_sizes:
            continue
        h = page_sizes[block.page][1]
        lines = block.text.split("\n")
        start, end = 0, len(lines)
        if block.bbox[3] >= h * (1 - EDGE):
            while end > start and _edge_line(lines[end - 1], edges, keep_blank=end < len(lines)):
                end -= 1
        if block.bbox[1] <= h * EDGE:
            while start < end and _edge_line(lines[start], edges, keep_blank=start > 0):
                start += 1
        kept = "\n".join(lines[start:end]).strip("\n")
        if kept != block.text.strip("\n") and kept.strip():
            block.text = kept


def _edge_line(line: str, edges: "_EdgeText", keep_blank: bool) -> bool:
    """Is this line of a block furniture (a blank line between such lines goes with them)?"""
    sig = signature(line)
    if not sig:
        return keep_blank and not line.strip()
    return (sum(c.isalpha() for c in sig) >= 3 or "#" in sig) and (edges.recurs(sig) or edges.pieced(sig))


def _heads_a_table(blocks: list[Block], k: int) -> bool:
    """Is block ``k`` a table's header row standing on its own, the table going on below it
    (a table of as many columns)? A long table repeats its header at the top of every page:
    that is a table, not furniture."""
    nxt = next((b for b in blocks[k + 1 :] if not b.dropped), None)
    if blocks[k].kind != TABLE or nxt is None or nxt.kind != TABLE or nxt.page != blocks[k].page:
        return False
    return _width(blocks[k].text) == _width(nxt.text)


# A row with nothing but dashes, colons and spaces in its cells: the rule under the header, and
# rows with no text ("| | |", "| - |"), which are no rows of the table's content.
_NO_TEXT = re.compile(r"^\s*\|?[\s|:\-]+\|?\s*$")


def _rows(markdown: str) -> list[str]:
    return [ln for ln in markdown.splitlines() if is_table_row(ln) and not _NO_TEXT.match(ln)]


def _width(markdown: str) -> int:
    rows = _rows(markdown)
    if not rows:
        return 0
    return len(row_cells(rows[0]))


def strip_furniture_rows(blocks: list[Block], edges: "_EdgeText", page_sizes: dict[int, tuple[float, float]]) -> None:
    """Take running-header/footer rows out of tables that swallowed them, in place.

    A converter sometimes draws the page's header block and the table below it as one table
    (a landscape schedule, an appendix under a boxed header): the rows at the table's top
    (bottom) whose every line is furniture are removed when the table starts (ends) within the
    edge band; the first row left becomes the header. A row may also be the header block torn
    by the table's columns (a landscape page's header sits lower): a whole furniture line and
    at least MIN_PIECES short pieces of edge text, when the table starts within the wide band.
    """
    for k, block in enumerate(blocks):
        if (
            block.kind != TABLE
            or block.dropped
            or block.bbox is None
            or block.page not in page_sizes
            or _heads_a_table(blocks, k)
        ):
            continue
        h = page_sizes[block.page][1]
        rows = _rows(block.text)

        def furniture_row(row: str) -> bool:
            sigs = _lines(Block(block.page, None, TABLE, row))
            return bool(sigs) and all(edges.furniture_line(s, block.page) for s in sigs)

        def torn_row(row: str) -> bool:
            # The header block cut by the table's columns ("Dat" | "e:", "21 Dec" | "embe"):
            # whole furniture lines, the rest only short pieces.
            sigs = _lines(Block(block.page, None, TABLE, row))
            whole = [s for s in sigs if not _FILLER.match(s) and edges.furniture_line(s, block.page)]
            pieces = [s for s in sigs if s not in whole]
            return (
                bool(whole)
                and len(pieces) >= MIN_PIECES
                and all(len(s) <= PIECE and edges.has_piece(s) for s in pieces)
            )

        start, end = 0, len(rows)
        at_top = block.bbox[1] <= h * EDGE
        if block.bbox[1] <= h * WIDE_EDGE:
            while start < end and (at_top and furniture_row(rows[start]) or torn_row(rows[start])):
                start += 1
        if block.bbox[3] >= h * (1 - EDGE):
            while end > start and furniture_row(rows[end - 1]):
                end -= 1
        if (start, end) != (0, len(rows)):
            # A table's own header row repeated at the top of its pages also recurs in a run: the
            # rows taken out must hold a line of the document-wide furniture (sponsor, "Page").
            cut = rows[:start] + rows[end:]
            if not any(edges.recurs(s) for row in cut for s in _lines(Block(block.page, None, TABLE, row))):
                start, end = 0, len(rows)
        if start == end:
            block.dropped = "furniture"
            continue
        kept = rows[start:end]
        at_bottom = block.bbox[3] >= h * (1 - EDGE)
        if at_bottom:
            kept[-1] = _without_furniture_lines(kept[-1], edges, block.page)
        if at_top and (len(kept) > 1 or not at_bottom):  # a one-row table's row is looked at once
            kept[0] = _without_furniture_lines(kept[0], edges, block.page)
        kept = [row for row in kept if row.strip("| ")]
        if not kept:
            block.dropped = "furniture"
        elif kept != rows:
            block.text = "\n".join([kept[0], "|" + "---|" * _width(kept[0])] + kept[1:])


def _without_furniture_lines(row: str, edges: "_EdgeText", page: int) -> str:
    """A table's edge row with the lines of running header/footer its cells hold taken out,
    the cells' own lines kept: a footer the table's box swallowed, its lines put into the cell
    above them ("18 Apr 2022 / Astellas / Page 2 of / 4 / TREATMENT(S) .... 45"). Only when at
    least two lines go, one of them document-wide furniture and one holding a number (a date,
    a page number: what a footer has and a cell naming the sponsor has not), or at least
    MIN_LABELS of them document-wide (a header block's labels: "Date:", "Version:", "Status:");
    a bare number stays (it may be the cell's own: "4" is the section's number)."""
    cells = row_cells(row)
    # Empty cells at either end of the row ("||Page 2 of 4|") are left out, as they always were.
    while cells and not cells[0]:
        cells.pop(0)
    while cells and not cells[-1]:
        cells.pop()
    kept_cells, gone = [], []
    for cell in cells:
        lines = re.split(r"<br\s*/?>", cell)
        keep = []
        for line in lines:
            sig = signature(line)
            if sum(c.isalpha() for c in sig) >= 3 and edges.furniture_line(sig, page):
                gone.append(sig)
            else:
                keep.append(line)
        kept_cells.append("<br>".join(keep))
    recurring = [sig for sig in gone if edges.recurs(sig)]
    if len(gone) < 2 or not recurring or not (any("#" in sig for sig in gone) or len(recurring) >= MIN_LABELS):
        return row
    return "|" + "|".join(c.replace("|", "\\|") for c in kept_cells) + "|"
