"""The data model every stage shares.

The journey of a document:

    convert  -> ``Converted``  (layout blocks with page + bbox, from any engine)
    clean    -> the same blocks, minus page furniture and printed-TOC pages
    sections -> ``Heading`` marks on blocks (which block starts which section)
    assemble -> a tree of ``Section`` nodes carrying text, ``Table`` and ``Image``
    write    -> the output folder

Everything here is plain data; no stage keeps hidden state elsewhere.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Optional

BBox = tuple[float, float, float, float]  # PDF points, origin top-left


class BlockKind(StrEnum):
    """What a layout block is: the vocabulary both engines map into (a str, as JSON writes it)."""

    HEADING = "heading"
    TEXT = "text"
    LIST_ITEM = "list-item"
    TABLE = "table"
    PICTURE = "picture"
    CAPTION = "caption"
    PAGE_HEADER = "page-header"
    PAGE_FOOTER = "page-footer"
    FOOTNOTE = "footnote"


# The module's names for the kinds, as every stage imports them.
HEADING, TEXT, LIST_ITEM, TABLE, PICTURE = (
    BlockKind.HEADING,
    BlockKind.TEXT,
    BlockKind.LIST_ITEM,
    BlockKind.TABLE,
    BlockKind.PICTURE,
)
CAPTION, PAGE_HEADER, PAGE_FOOTER, FOOTNOTE = (
    BlockKind.CAPTION,
    BlockKind.PAGE_HEADER,
    BlockKind.PAGE_FOOTER,
    BlockKind.FOOTNOTE,
)


@dataclass
class Block:
    """One layout block as a converter saw it: its Markdown, where it sits, what it is."""

    page: Optional[int]  # 1-based; None for formats without pages (DOCX)
    bbox: Optional[BBox]
    kind: BlockKind
    text: str
    # Filled by the clean stage: why the block is left out of the section text.
    dropped: str = ""
    image: Optional["RawImage"] = None  # set on PICTURE blocks
    # Where a number the text did not carry came from (e.g. "word-numbering"); "" = the text.
    number_source: str = ""
    # The left edge (points) of a picture of this block's heading number ("number_pictures").
    number_x: Optional[float] = None

    def to_dict(self) -> dict:
        """The block as ``blocks.json`` lists it (and as the study readers trace items to); a
        picture's block also lists the lines read inside it, with their boxes (page points, or
        the picture's pixels when it has no place on a page)."""
        out = {
            "page": self.page,
            "bbox": [round(v, 2) for v in self.bbox] if self.bbox else None,
            "kind": self.kind,
            "dropped": self.dropped,
            "text": self.text,
        }
        if self.image is not None and (self.image.words or self.image.unread):
            out["picture_text"] = self.image.words_dict()
        return out


@dataclass
class OutlineEntry:
    """An entry of the document's own table of contents (printed TOC or PDF bookmark)."""

    number: str  # as printed, e.g. "3.1." or "APPENDIX 4"; "" when unnumbered
    title: str
    page: Optional[int]
    source: str  # "printed" or "bookmark"


@dataclass
class RawImage:
    """A picture found by a converter, before it is assigned to a section."""

    page: Optional[int]
    bbox: Optional[BBox]
    png: bytes = field(repr=False)
    width: int
    height: int
    # The words inside the picture (convert/pictures/picture_words.py): one (box in the picture's pixels,
    # text) per line read, in reading order; where they came from ("text-layer", "ocr", both);
    # and, when a picture that looks like text was left unread, why.
    words: list[tuple[BBox, str]] = field(default_factory=list)
    words_from: str = ""
    unread: str = ""

    def words_dict(self) -> dict:
        bbox = self.bbox

        def place(box):
            if bbox is None or not self.width or not self.height:
                return [round(v, 2) for v in box]
            sx, sy = (bbox[2] - bbox[0]) / self.width, (bbox[3] - bbox[1]) / self.height
            return [
                round(bbox[0] + box[0] * sx, 2),
                round(bbox[1] + box[1] * sy, 2),
                round(bbox[0] + box[2] * sx, 2),
                round(bbox[1] + box[3] * sy, 2),
            ]

        out = {"from": self.words_from, "lines": [{"bbox": place(box), "text": text} for box, text in self.words]}
        if self.unread:
            out["unread"] = self.unread
        return out


class PageSource(StrEnum):
    """How a page's text was obtained (the page ledger in ``metadata.pages``)."""

    TEXT_LAYER = "text"  # the PDF's own text layer, untouched
    OCR = "ocr"  # recovered by OCR of the page's render
    REBUILT = "rebuilt"  # re-read from a usable layer's character positions
    EMPTY = "empty"  # no words reached the output from this page


TEXT_LAYER, OCR, REBUILT, EMPTY = PageSource.TEXT_LAYER, PageSource.OCR, PageSource.REBUILT, PageSource.EMPTY


@dataclass
class PageRecord:
    """One line of the page ledger: where page ``page``'s words came from, and why."""

    page: int  # 1-based
    source: PageSource
    reason: str = ""  # why the text layer was not used (or could not be recovered); "" if it was
    pictures: bool = False  # the page kept a picture (an empty page may still show a figure)
    unboxed: int = 0  # text-layer blocks added because no layout box held them
    turn: int = 0  # degrees the page was turned because its text ran sideways (orientation.py)
    pictures_read: int = 0  # pictures on the page whose words were read (picture_words.py)
    layout: str = ""  # the layout model that read the page: "full" or "text-only" (layout_route.py)
    layout_reason: str = ""  # why that model

    def to_dict(self) -> dict:
        out = {"page": self.page, "source": self.source, "reason": self.reason}
        if self.layout:
            out["layout"] = {"model": self.layout, "reason": self.layout_reason}
        if self.pictures_read:
            out["pictures_read"] = self.pictures_read
        return out


@dataclass
class Converted:
    """What every engine hands downstream: one intermediate, one pipeline."""

    blocks: list[Block]
    page_count: int
    engine: str
    page_sizes: dict[int, tuple[float, float]] = field(default_factory=dict)
    bookmarks: list[OutlineEntry] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    pages: list[PageRecord] = field(default_factory=list)  # the page ledger; empty for DOCX


@dataclass
class Table:
    title: str
    page: Optional[int]
    pages: list[Optional[int]]
    columns: list[str]
    data: list[list[str]]
    path: Optional[str] = None
    # A schedule of activities read from the table (schedules.py); None for any other table.
    schedule: Optional[dict] = None
    # Rows of ``data`` where a part from a later page starts (a row cut by the page break
    # continues there); kept in memory for the schedule reader, not written.
    part_rows: list[int] = field(default_factory=list, repr=False)
    # Read by OCR from a picture of a table (content/picture_tables.py); written only when true.
    from_ocr: bool = False

    def to_dict(self) -> dict:
        out = {
            "title": self.title,
            "page": self.page,
            "pages": self.pages,
            "columns": self.columns,
            "data": self.data,
            "path": self.path,
        }
        if self.from_ocr:
            out["from_ocr"] = True
        if self.schedule is not None:
            out["schedule"] = self.schedule
        return out


@dataclass
class Image:
    title: str
    page: Optional[int]
    bbox: Optional[BBox]
    width: int
    height: int
    png: bytes = field(repr=False, default=b"")
    path: Optional[str] = None
    # The words inside the picture, one line each in reading order, and where they came from
    # ("text-layer", "ocr" or both; "" when it holds none): see convert/pictures/picture_words.py.
    text: str = ""
    text_from: str = ""

    def to_dict(self) -> dict:
        return {
            "title": self.title,
            "page": self.page,
            "bbox": [round(v, 2) for v in self.bbox] if self.bbox else None,
            "width": self.width,
            "height": self.height,
            "path": self.path,
            "text": self.text,
            "text_from": self.text_from,
        }


@dataclass
class Section:
    """A node of the output tree. Unnumbered front/back matter has number ""."""

    number: str
    title: str
    level: int
    pages: list[Optional[int]] = field(default_factory=lambda: [None, None])
    text: str = ""
    tables: list[Table] = field(default_factory=list)
    images: list[Image] = field(default_factory=list)
    subsections: list["Section"] = field(default_factory=list)
    # Mentions in this node's text of other sections, appendices, tables and figures:
    # {"text": "Section 5.2", "kind": "section"|"appendix"|"table"|"figure", "target": ...}
    references: list[dict] = field(default_factory=list)

    def walk(self):
        yield self
        for child in self.subsections:
            yield from child.walk()

    def to_dict(self) -> dict:
        return {
            "number": self.number,
            "title": self.title,
            "level": self.level,
            "pages": self.pages,
            "text": self.text,
            "tables": [t.to_dict() for t in self.tables],
            "images": [i.to_dict() for i in self.images],
            "references": self.references,
            "subsections": [s.to_dict() for s in self.subsections],
        }
