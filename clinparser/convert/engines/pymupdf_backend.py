"""Default engine: PyMuPDF's bundled layout model through ``pymupdf4llm`` (nothing downloaded).

``pymupdf4llm.to_markdown(page_chunks=True)`` gives, per page, the Markdown and the layout
boxes (class, bbox, and the slice of the Markdown each box produced): exactly our blocks.
``page_workers`` runs it page by page, on as many cores as ``--workers`` allows.
Pictures are rendered here from their bbox, which also captures vector-drawn figures that have
no embedded image; embedded images the layout model did not box are added by position.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from pathlib import Path
from typing import Callable, Optional

import pymupdf

from ...errors import ConversionError, EncryptedError, InputError, TooManyPagesError
from ...model import OCR, PICTURE, TEXT, Block, Converted, RawImage
from ..bookmarks import read_bookmarks
from ..options import ParseOptions
from ..pictures.image_tiles import join_tiles
from ..pictures.picture_words import finish_on_page, ocr_lines, start_on_page
from ..steps import on_the_document
from .page_workers import LayoutWorkers

LOGO_SHARE = 0.5  # an embedded image on at least this share of pages is decoration
WHOLE_PAGE = 0.9  # a picture covering this share of a page OCR read is the page itself


def open_pdf(path: Path, password: Optional[str] = None) -> tuple[pymupdf.Document, list[str]]:
    """Open a PDF, repairing what MuPDF can; raise a one-line error for the rest."""
    warnings: list[str] = []
    try:
        doc = pymupdf.open(path, filetype="pdf")
    except Exception as exc:  # MuPDF raises its own FileDataError and RuntimeError types
        raise InputError(f"{path.name} is damaged beyond repair: {exc}") from exc
    if doc.needs_pass:
        if not password:
            raise EncryptedError(f"{path.name} is encrypted: give its password with --password")
        if not doc.authenticate(password):
            raise EncryptedError(f"{path.name}: the password given does not open it")
    if doc.is_repaired:
        warnings.append("the PDF was damaged and has been repaired; check the output")
    try:
        pages = doc.page_count
    except Exception as exc:  # MuPDF opens some truncated files, then cannot count their pages
        raise InputError(f"{path.name} is damaged beyond repair: {exc}") from exc
    if pages == 0:
        raise InputError(f"{path.name} has no pages")
    return doc, warnings


def convert_pdf(
    path: Path,
    options: ParseOptions,
    layout: LayoutWorkers,
    *,
    progress: Optional[Callable[[int, int], None]] = None,
    picture_progress: Optional[Callable[[int, int], None]] = None,
) -> Converted:
    doc, warnings = open_pdf(path, options.password)
    total = doc.page_count
    max_pages = options.max_pages
    if total > max_pages:
        raise TooManyPagesError(
            f"{path.name} has {total} pages, more than --max-pages {max_pages}: raise the limit to parse it"
        )
    try:
        blocks = layout.convert(total, progress)
    except ConversionError as exc:
        raise ConversionError(f"{path.name}: {exc}") from exc
    warnings.extend(layout.warnings)
    blocks = on_the_document(doc, blocks, layout.ledger)  # the document-wide steps (convert/steps.py)
    read = {r.page for r in layout.ledger if r.source == OCR}
    page_sizes = {p.number + 1: (p.rect.width, p.rect.height) for p in doc}
    read_pictures = functools.partial(layout.read_pictures, progress=picture_progress)
    blocks = _with_pictures(
        doc, blocks, options.image_dpi, options.min_image_size, read, options.ocr_allowed, read_pictures
    )
    layout.release()
    if not any(b.text.strip() for b in blocks if b.kind != PICTURE):
        hint = "" if options.ocr_allowed else ": it looks scanned, try --ocr auto"
        warnings.append(f"no text found on any page{hint}")
    return Converted(
        blocks=blocks,
        page_count=total,
        engine="pymupdf",
        page_sizes=page_sizes,
        bookmarks=read_bookmarks(doc.get_toc(simple=True)),
        warnings=warnings,
        pages=layout.ledger,
    )


def _render(page: pymupdf.Page, bbox, dpi: int) -> RawImage:
    clip = pymupdf.Rect(bbox) & page.rect
    pix = page.get_pixmap(clip=clip, dpi=dpi, alpha=False)
    return RawImage(
        page=page.number + 1,
        bbox=tuple(float(v) for v in clip),
        png=pix.tobytes("png"),
        width=pix.width,
        height=pix.height,
    )


def _big_enough(bbox, min_size: float) -> bool:
    return (bbox[2] - bbox[0]) >= min_size and (bbox[3] - bbox[1]) >= min_size


def _with_pictures(
    doc: pymupdf.Document,
    blocks: list[Block],
    dpi: int,
    min_size: float,
    read: set = frozenset(),
    ocr: bool = True,
    read_pictures: Optional[Callable[[list], list]] = None,
) -> list[Block]:
    """Render picture boxes (abutting tiles as one) and read the words inside them
    (``picture_words``; OCR only if ``ocr``); add embedded images the layout did not box;
    drop logos and specks, and, on the pages ``read`` by OCR, the picture of the whole page (the
    scan whose words are now the page's text, not a figure). The pictures' OCR, the costly part,
    runs last, all pictures at once, through ``read_pictures`` (each picture's render -> its
    lines, in order: the layout workers share it out), else here."""
    pending = []
    infos = {p.number + 1: p.get_image_info(hashes=True) for p in doc}
    digest_pages = Counter(digest for items in infos.values() for digest in {i["digest"] for i in items})
    logo_min = max(3, LOGO_SHARE * doc.page_count)
    logos = {d for d, n in digest_pages.items() if n >= logo_min}

    out: list[Block] = []
    by_page: dict[int, list[Block]] = {}
    for b in blocks:
        by_page.setdefault(b.page, []).append(b)
    for page_no in sorted(by_page):
        page = doc[page_no - 1]
        page_blocks = by_page[page_no]
        added: list[Block] = []
        boxed = [pymupdf.Rect(b.bbox) for b in page_blocks if b.kind == PICTURE]
        for info in infos.get(page_no, []):
            rect = pymupdf.Rect(info["bbox"]) & page.rect
            if rect.is_empty or info["digest"] in logos or not _big_enough(rect, min_size):
                continue
            if any((rect & r).get_area() >= 0.5 * rect.get_area() for r in boxed):
                continue
            added.append(Block(page=page_no, bbox=tuple(rect), kind=PICTURE, text=""))
            boxed.append(rect)
        # Tiles of one figure are joined before rendering: the figure is rendered once, whole.
        page_blocks = join_tiles(_in_reading_order(page_blocks, added))
        for b in page_blocks:
            if b.kind == PICTURE:
                if page_no in read and _whole_page(b.bbox, page.rect):
                    continue
                if not _big_enough(b.bbox, min_size) or _is_logo(page, b.bbox, infos.get(page_no, []), logos):
                    # Not a figure, but the words the converter read in it are the page's.
                    words = picture_text(b.text)
                    if words:
                        out.append(Block(page=b.page, bbox=b.bbox, kind=TEXT, text=words))
                    continue
                b.image = _render(page, b.bbox, dpi)
                if page_no not in read:  # on a page read by OCR, its words are the page's text already
                    others = [o.bbox for o in page_blocks if o is not b and o.kind != PICTURE and o.bbox]
                    waiting = start_on_page(b.image, page, others, ocr, infos.get(page_no, []))
                    if waiting is not None:
                        pending.append(waiting)
            out.append(b)
    renders = [p.render for p in pending]
    found = read_pictures(renders) if read_pictures is not None else [ocr_lines(render()) for render in renders]
    for waiting, lines in zip(pending, found):
        finish_on_page(waiting, lines)
    return out


_PICTURE_TEXT = re.compile(r"<!--\s*(Start|End) of picture text\s*-->", re.I)
_BREAK = re.compile(r"<br\s*/?>", re.I)


def picture_text(markdown: str) -> str:
    """The text pymupdf4llm read inside a picture box, without its markers (one line per
    ``<br>``); "" when it read none."""
    lines = _BREAK.sub("\n", _PICTURE_TEXT.sub("", markdown)).splitlines()
    return "\n".join(line.strip() for line in lines if line.strip())


def _whole_page(bbox, rect) -> bool:
    return (pymupdf.Rect(bbox) & rect).get_area() >= WHOLE_PAGE * rect.get_area()


def _is_logo(page, bbox, infos, logos) -> bool:
    rect = pymupdf.Rect(bbox)
    return any(
        i["digest"] in logos and (pymupdf.Rect(i["bbox"]) & rect).get_area() >= 0.5 * rect.get_area() for i in infos
    )


def _in_reading_order(layout: list[Block], added: list[Block]) -> list[Block]:
    """Insert added pictures where they stand vertically, keeping the layout's order otherwise."""
    merged = list(layout)
    for pic in added:
        pos = next((k for k, b in enumerate(merged) if b.bbox and b.bbox[1] > pic.bbox[1]), len(merged))
        merged.insert(pos, pic)
    return merged
