"""Attach text, tables and images: walk the blocks once, in reading order, filing each into the
section that is open at that point; build the tree from the numbers.

Reading order is the assignment rule: a block (text, table or picture) belongs to the last
section heading before it. A picture at the top of a page, before that page's first heading,
therefore stays with the section continuing from the previous page.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional, Sequence

from ..convert.pictures.picture_words import text_rows
from ..model import CAPTION, HEADING, PICTURE, TABLE, Block, Image, Section, Table
from ..shared.markup import picture_text_block
from ..shared.numbering import normalize_title, strip_markup
from ..shared.pipe_tables import parse_pipe_table
from ..structure.bundles import Bundled
from ..structure.sections import Candidate
from .picture_tables import beside, table_from_picture
from .tables import (
    caption_of,
    continues,
    continues_below_row,
    continues_down,
    continues_record,
    finish_header,
    is_continued,
    join_sideways,
    merge,
    merge_below_row,
    spanning_row,
    split_caption_row,
    to_table,
)

CAPTION_LENGTH = 300  # characters: longer text is more than a caption
TITLE_LENGTH = 200  # characters of an unnumbered heading kept as its node's title
CAPTION_WORDS = re.compile(r"^(table|figure|listing)\b", re.I)
# "Figure 1: Study Design", "Figure 2 Schema"; not a sentence about it ("Figure 1 shows how ...")
FIGURE_CAPTION = re.compile(
    r"^(?P<caption>(?:Figure|FIGURE|Fig\.)\s+[A-Z]{0,6}[.\-]?\d+[a-z]?\b"
    r"(?!\s+(?:shows?|presents?|illustrates?|depicts?|summari[sz]es|gives|provides|displays|outlines|describes)\b).*)$"
)


@dataclass
class Tree:
    toc: list[Section]
    non_toc: list[Section]


@dataclass
class _Open:
    """A node being filled, with the parts of its text and what it is waiting for."""

    node: Section
    parts: list[str] = field(default_factory=list)
    pages: list[int] = field(default_factory=list)
    last_was: str = ""  # "table" / "picture" / "text": what the last part was
    heading_since_table: bool = False  # an unnumbered heading came after the last table
    table_block: Optional[Block] = None  # the block of the last table part added
    since_table: list[Block] = field(default_factory=list)  # text blocks added after it
    picture_at: int = -1  # the index in ``parts`` of the last picture's placeholder
    # The table the last picture was read into, while only captions follow it: the next
    # picture may continue it sideways.
    picture_table: Optional[Table] = None
    picture_words: list = field(default_factory=list)  # the last picture's words (box, text)


def _figure_caption(text: str) -> Optional[str]:
    plain = strip_markup(text.strip())
    m = FIGURE_CAPTION.match(plain) if text.count("\n") < 3 else None
    return m["caption"] if m else None


class _Builder:
    def __init__(self, unnumbered_outline: set[str]):
        self.toc: list[Section] = []
        self.non_toc: list[Section] = []
        self.stack: list[tuple[tuple[int, ...], _Open]] = []
        self.current: Optional[_Open] = None
        self.opened: list[_Open] = []
        self.unnumbered_outline = unnumbered_outline
        self.root: list[Section] = self.toc  # where top-level numbered sections go
        self.depth = 0  # levels above the numbering (1 inside a bundled document's node)

    # --- opening nodes -------------------------------------------------------------
    def open_section(self, cand: Candidate) -> None:
        key = cand.key
        while self.stack and not (
            len(self.stack[-1][0]) < len(key) and key[: len(self.stack[-1][0])] == self.stack[-1][0]
        ):
            self.stack.pop()
        # A root node is level 1 even when its number implies a parent that is never printed
        # (a form's "A2." under no "A"); under a parent the number gives the level.
        node = Section(number=cand.number.label, title=cand.title, level=(len(key) if self.stack else 1) + self.depth)
        # A missing parent: attach to the nearest existing ancestor, by number prefix.
        (self.stack[-1][1].node.subsections if self.stack else self.root).append(node)
        self.current = _Open(node)
        self.stack.append((key, self.current))
        self.opened.append(self.current)

    def open_document(self, title: str) -> None:
        """A bundled document: one non_toc node; its numbered headings nest inside it."""
        node = Section(number="", title=title, level=1)
        self.non_toc.append(node)
        self.current = _Open(node)
        self.opened.append(self.current)
        self.stack, self.root, self.depth = [], node.subsections, 1

    def close_document(self) -> None:
        self.stack, self.root, self.depth, self.current = [], self.toc, 0, None

    def open_unnumbered(self, title: str) -> None:
        node = Section(number="", title=title, level=1)
        self.non_toc.append(node)
        self.current = _Open(node)
        self.stack = []
        self.opened.append(self.current)

    def starts_unnumbered(self, block: Block, where: str) -> bool:
        """Does this unnumbered heading open front matter (before the first section) or back
        matter (after the last one)? Inside the numbered body it never does: there an
        unnumbered heading is a sub-heading of the open section."""
        if block.kind != HEADING or where == "body":
            return False
        title = normalize_title(block.text)
        if not title or CAPTION_WORDS.match(title):  # a table/figure caption styled as a heading
            return False
        return title in self.unnumbered_outline or (where == "front" and block.text.lstrip().startswith("# "))

    # --- filling nodes ---------------------------------------------------------------
    def add(self, block: Block, text: Optional[str] = None, next_kind: str = "") -> None:
        if self.current is None:
            self.open_unnumbered(strip_markup(block.text.splitlines()[0])[:120] if block.text.strip() else "")
        cur = self.current
        if block.page is not None:
            cur.pages.append(block.page)
        if block.kind == TABLE:
            return self._add_table(cur, block)
        if block.kind == PICTURE:
            return self._add_picture(cur, block)
        text = block.text if text is None else text
        if not text.strip():
            return
        fig = _figure_caption(text)
        if fig and cur.last_was == "picture" and not cur.node.images[-1].title:
            cur.node.images[-1].title = fig  # caption below the figure
            cur.parts[cur.picture_at] = f"[{fig}]"
            self._figure_not_table(cur)
            cur.last_was = "caption"
            return
        cap = caption_of(text)
        if cap and cur.last_was == "picture" and self._table_caption_below_picture(cur, cap):
            cur.last_was = "caption"
            return
        if cap and cur.last_was == "table" and not cur.node.tables[-1].title and next_kind != TABLE:
            cur.node.tables[-1].title = cap  # caption below the table (not above the next one)
            cur.parts[-1] = f"[{cap}]"
            cur.last_was = "caption"
            return
        cur.parts.append(text.strip())
        cur.last_was = "caption" if block.kind == CAPTION else "text"
        if block.kind == HEADING or len(text) > CAPTION_LENGTH:  # more than a caption: a picture after it is new
            cur.picture_table = None
        cur.heading_since_table |= block.kind == HEADING and not is_continued(text)  # "... (continued)" is a caption
        cur.since_table.append(block)

    def add_listing(self, block: Block) -> None:
        """A listing (a TOC page) kept as plain text of the open node, tables included."""
        if self.current is not None and block.text.strip():
            self.current.parts.append(block.text.strip())
            if block.page is not None:
                self.current.pages.append(block.page)

    def _pending_caption(self, cur: _Open, matcher) -> str:
        """A caption just above (the last text part), taken out of the text."""
        if cur.parts and cur.last_was in ("text", "caption"):
            cap = matcher(cur.parts[-1])
            if cap:
                cur.parts.pop()
                return cap
        return ""

    def _add_table(self, cur: _Open, block: Block) -> None:
        df = parse_pipe_table(block.text)
        if df is None:
            if block.text.strip():
                cur.parts.append(block.text.strip())
                cur.last_was = "text"
            return
        cur.picture_table = None
        title = self._pending_caption(cur, caption_of)
        if not title:
            title, df = split_caption_row(df)
        table = to_table(df, title=title, page=block.page, lift=False)
        prev = cur.node.tables[-1] if cur.node.tables else None
        joined = prev is not None and (
            self._continued(cur, prev, table, title, _stacked(cur.table_block, block))
            or self._below_spanning_row(cur, prev, table, title, block)
        )
        if not joined:
            cur.node.tables.append(table)
            cur.parts.append(f"[{title}]" if title else "[Table]")
        cur.last_was = "table"
        cur.heading_since_table = False
        cur.table_block, cur.since_table = block, []

    @staticmethod
    def _continued(cur: _Open, prev: Table, table: Table, title: str, stacked: bool = False) -> bool:
        """Join ``table`` to ``prev`` when it is the next part of it; say whether it did.

        Sideways (the same row labels, new columns: a wide schedule's next visits) is tried
        first, unless the table stands below the previous part on the same page (``stacked``:
        boxes of the same labels one under another are records, not one table's columns); then
        downwards (right after it, or with the same header on the next page with only text such
        as footnotes between; never past a heading or a new table caption); or, right after it
        on the next page with no caption, as the rest of a record table whose first row was read
        as a header (``continues_record``).
        """
        own_caption = bool(title) and not is_continued(title) and title != prev.title
        if not cur.heading_since_table and not own_caption and not stacked and join_sideways(prev, table):
            return True
        if continues(prev, table, title) and (cur.last_was == "table" or (title and not own_caption)):
            merge(prev, table)
            return True
        if not cur.heading_since_table and not own_caption and continues_down(prev, table):
            merge(prev, table)
            return True
        if not title and cur.last_was == "table" and not stacked and continues_record(prev, table):
            merge(prev, table)  # the part's first row, read as its header, is a row of the record
            return True
        return False

    @staticmethod
    def _below_spanning_row(cur: _Open, prev: Table, table: Table, title: str, block: Block) -> bool:
        """A table's spanning row ("Section 3.3 Justification ...", across the whole width) that
        the converter took out as a line of its own, cutting the table in two: the line stands
        between the parts, close to both, and the lower part has the table's columns but no
        header. The line goes back in as a row, and the parts are one table. With no line between
        (the converter put the row into the part above), a headless part just below is the rest."""
        if title or cur.table_block is None or not continues_below_row(prev, table):
            return False
        if not cur.since_table and cur.last_was == "table":  # the row went into the part above
            if not spanning_row(cur.table_block, None, block):
                return False
            merge(prev, table)
            return True
        line = cur.since_table[0] if len(cur.since_table) == 1 else None
        if (
            line is None
            or not cur.parts
            or cur.parts[-1] != line.text.strip()
            or not spanning_row(cur.table_block, line, block)
        ):
            return False
        cur.parts.pop()
        merge_below_row(prev, strip_markup(line.text).strip(), table)
        return True

    def _add_picture(self, cur: _Open, block: Block) -> None:
        """The picture, its placeholder, then what was read inside it: a ruled grid as a table
        (joined beside the previous picture's table when it repeats its row labels: one table
        printed as several pictures), the other words as a marked block."""
        raw = block.image
        if raw is None:
            return
        title = self._pending_caption(cur, _figure_caption) or self._pending_caption(cur, caption_of)
        lines = raw.words
        cur.node.images.append(
            Image(
                title=title,
                page=raw.page,
                bbox=raw.bbox,
                width=raw.width,
                height=raw.height,
                png=raw.png,
                text="\n".join(text_rows(lines)),
                text_from=raw.words_from,
            )
        )
        cur.picture_at = len(cur.parts)
        cur.parts.append(f"[{title}]" if title else "[Image]")
        previous, cur.picture_table, cur.picture_words = cur.picture_table, None, lines
        cur.last_was = "picture"
        # A picture its caption calls a figure is one (a chart's gridlines are no table).
        got = None if _figure_caption(title) else table_from_picture(raw.png, lines, title=title, page=raw.page)
        if got is not None:
            table, lines = got
            if previous is not None and beside(previous, table):
                table = previous
            else:
                cur.node.tables.append(table)
                cur.parts.append(f"[{table.title}]" if table.title else "[Table]")
            cur.picture_table = table
        if lines:
            cur.parts.append(picture_text_block(text_rows(lines), raw.words_from))

    @staticmethod
    def _table_caption_below_picture(cur: _Open, cap: str) -> bool:
        """A table caption just below a picture read into a table titles both; say whether it did."""
        table = cur.picture_table
        if (
            table is None
            or table.title
            or not cur.node.tables
            or cur.node.tables[-1] is not table
            or cur.parts[cur.picture_at + 1 : cur.picture_at + 2] != ["[Table]"]
        ):
            return False
        table.title = cap
        cur.parts[cur.picture_at + 1] = f"[{cap}]"
        if not cur.node.images[-1].title:
            cur.node.images[-1].title = cap
            cur.parts[cur.picture_at] = f"[{cap}]"
        return True

    def _figure_not_table(self, cur: _Open) -> None:
        """A caption below calls the last picture a figure: a table read from it alone (not
        joined to an earlier picture's) goes back to being the picture's words."""
        table = cur.picture_table
        if (
            table is None
            or not cur.node.tables
            or cur.node.tables[-1] is not table
            or len(cur.parts) <= cur.picture_at + 1
            or cur.parts[cur.picture_at + 1] != (f"[{table.title}]" if table.title else "[Table]")
        ):
            return
        cur.node.tables.pop()
        del cur.parts[cur.picture_at + 1 :]
        cur.parts.append(picture_text_block(text_rows(cur.picture_words), cur.node.images[-1].text_from))
        cur.picture_table = None

    def finish(self) -> Tree:
        for o in self.opened:
            o.node.text = "\n\n".join(o.parts)
            for table in o.node.tables:  # whole now: its header rows can be lifted
                finish_header(table)
            if o.pages:
                o.node.pages = [min(o.pages), max(o.pages)]
        return Tree(self.toc, self.non_toc)


def _heading_rest(block: Block) -> str:
    """Text of a heading block after its heading line (a body paragraph merged into it)."""
    lines = [ln for ln in block.text.strip().splitlines() if ln.strip()]
    if block.kind == HEADING and len(lines) <= 3:
        return ""
    return "\n".join(lines[1:])


def assemble(
    blocks: list[Block], sections: list[Candidate], unnumbered_outline: set[str], documents: Sequence[Bundled] = ()
) -> Tree:
    """The tree of ``sections`` (the protocol); each bundled document one ``non_toc`` node."""
    every = list(sections) + [c for d in documents for c in d.sections]
    starts = {c.block: c for c in every}
    title_blocks = {c.title_block for c in every if c.title_block is not None}
    b = _Builder(unnumbered_outline)
    first = sections[0].block if sections else len(blocks)
    last = sections[-1].block if sections else len(blocks)
    toc_node: Optional[_Open] = None
    doc_at = {d.start: d for d in documents}
    doc: Optional[Bundled] = None
    for i, block in enumerate(blocks):
        if doc is not None and i >= doc.end:
            b.close_document()
            doc = None
        if i in doc_at:
            doc = doc_at[i]
            b.open_document(doc.title)
        if block.dropped == "furniture" or i in title_blocks:
            if i in title_blocks and block.page is not None and b.current:
                b.current.pages.append(block.page)
            continue
        if block.dropped == "toc" and doc is not None:
            b.add_listing(block)  # a bundled document's own TOC stays inside it
            continue
        if block.dropped == "toc":
            toc_node = _add_to_toc_node(b, toc_node, block)
            continue
        if i in starts:
            b.open_section(starts[i])
            if block.page is not None:
                b.current.pages.append(block.page)
            rest = _heading_rest(block)
            if rest:
                b.add(block, rest)
            continue
        where = "body" if doc is not None else "front" if i < first else "back" if i > last else "body"
        if b.starts_unnumbered(block, where):
            title = strip_markup(block.text)
            b.open_unnumbered(title[:TITLE_LENGTH])
            if block.page is not None:
                b.current.pages.append(block.page)
            if len(title) > TITLE_LENGTH:  # a long title (a title page's) is cut: the node's text keeps it whole
                b.add(block)
            continue
        b.add(block, next_kind=_next_kind(blocks, i))
    return b.finish()


def _next_kind(blocks: list[Block], i: int) -> str:
    return next((b.kind for b in blocks[i + 1 : i + 4] if not b.dropped), "")


def _add_to_toc_node(b: _Builder, toc_node: Optional[_Open], block: Block) -> _Open:
    """All printed-TOC pages go to one non_toc node, whatever sits between them."""
    if toc_node is None:
        title = (
            strip_markup(block.text.splitlines()[0])
            if block.kind == HEADING and block.text.strip()
            else "Table of Contents"
        )
        node = Section(number="", title=title, level=1)
        b.non_toc.append(node)
        toc_node = _Open(node)
        b.opened.append(toc_node)
        if block.kind == HEADING:
            if block.page is not None:
                toc_node.pages.append(block.page)
            return toc_node
    # Kept as text, tables included: the TOC is a listing, not data.
    if block.text.strip():
        toc_node.parts.append(block.text.strip())
    if block.page is not None:
        toc_node.pages.append(block.page)
    return toc_node


def _stacked(above: Optional[Block], block: Block) -> bool:
    """Whether ``block`` stands below ``above`` on the same page (their boxes known)."""
    if above is None or above.page is None or above.page != block.page or not above.bbox or not block.bbox:
        return False
    return block.bbox[1] >= above.bbox[3] - 2
