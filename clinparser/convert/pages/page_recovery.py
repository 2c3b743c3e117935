"""Recovering a page whose text layer is not what a reader sees (see ``page_check``).

Two ways, one per kind of failure:

* **OCR** for a page whose layer is missing or wrong (no layer, an invisible or covered layer,
  characters without a Unicode mapping, a letter-spaced layer). The page is edited in memory,
  on the converter's own handle, before the layout model reads it: text nobody sees (an
  invisible layer, text painted over by a picture of the page) and characters without a
  mapping are removed, the page is rendered with its readable text left out, RapidOCR reads the
  render (its models ship in its wheel: nothing is downloaded), and the lines it reads are
  written back into the page as text. The layout model then reads the page as it reads any
  other, so headings, lists and tables on a recovered page are found the same way. Where the
  verdict is about some characters (no mapping), the page's readable text is kept as it is
  and left out of the render; where it is about the whole layer, the render is the page.
  (pymupdf4llm's own ``exec_ocr_full`` does the same, but with all of a page's text unmapped
  it culls the whole page from the render and reads nothing.)
  A letter-spaced layer is OCR'd rather than rebuilt from its characters' positions: on the
  corpus's scanned page with such a layer (391 words as an independent 200 dpi OCR reads
  them), joining characters closer than 0.1, 0.2, 0.3 or 0.5 of their height gave 19, 72,
  62 and 16 % of those words (the layer's gaps do not follow its words), OCR gave 100 %.
* **Rebuild** for a page whose layer is readable but which the layout converter returned
  (nearly) empty: the layer's own blocks, in reading order. Its characters are the PDF's own,
  which OCR could only approximate.
"""

from __future__ import annotations

import re

from ...model import EMPTY, OCR, PICTURE, REBUILT, TEXT, TEXT_LAYER, Block, PageRecord
from ..options import OcrMode
from ..runtime.ocr import read_lines
from .orientation import upright
from .page_check import Verdict, after_conversion, before_conversion, layer_words, unboxed_text

OCR_DPI = 150  # pymupdf4llm's default; see the module docstring for what was measured
_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)
PICTURE_TEXT_WORDS = 3  # words OCR read inside a picture box of a scanned page that make it text too
_UNMAPPED = re.compile("[\ufffd\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def ocr_page(page, verdict: Verdict) -> None:
    """OCR ``page`` in place: read its render with its readable text left out, remove the text
    that is not what the page shows, write the lines read into the page."""
    import pymupdf

    readable, unreadable = _spans(page, keep_readable=verdict.kind in ("unmapped", "always"))
    lines = _read_render(page, readable)
    mark_for_removal(page, [_middle(rect) for rect in unreadable])
    if unreadable:
        page.apply_redactions(
            images=pymupdf.PDF_REDACT_IMAGE_NONE,
            graphics=pymupdf.PDF_REDACT_LINE_ART_NONE,
            text=pymupdf.PDF_REDACT_TEXT_REMOVE,
        )
    _write_lines(page, lines)


def mark_for_removal(page, rects: list) -> None:
    """Add a redaction annotation on each of ``rects`` (for ``apply_redactions``), with MuPDF's
    own calls. PyMuPDF's ``add_redact_annot`` also gives each annotation a unique name, and
    finds one by listing every annotation on the page, so marking n spans costs n squared: on
    Tesaro's 11 pages with unmapped characters (1,499 spans) it took 6.8 s, more than the
    redaction itself. The name plays no part in applying a redaction (and the annotations are
    gone once applied), so the page comes out the same (``test_page_recovery`` compares)."""
    import pymupdf
    from pymupdf import mupdf

    if not rects:
        return
    # PyMuPDF's own steps around an annotation: boxes are given on the unrotated page.
    rotation = pymupdf.annot_preprocess(page)
    try:
        pdf_page = pymupdf._as_pdf_page(page)
        for rect in rects:
            r = pymupdf.Rect(rect)
            annot = mupdf.pdf_create_annot(pdf_page, mupdf.PDF_ANNOT_REDACT)
            mupdf.pdf_set_annot_rect(annot, mupdf.FzRect(r.x0, r.y0, r.x1, r.y1))
            mupdf.pdf_update_annot(annot)
    finally:
        if rotation:
            page.set_rotation(rotation)


def _middle(bbox):
    """The middle band of a span's box. A redaction removes every character whose box touches
    it, and a line's box overlaps its neighbours' (ascenders, descenders): the whole box of a
    heading's span took the readable line under it with it (mid-line, "CCI - [This section
    contained Clinical Outcome Assessme]nt data"). Every character of the span crosses the
    band, so the span still goes whole."""
    import pymupdf

    rect = pymupdf.Rect(bbox)
    delta = 0.3 * rect.height
    return pymupdf.Rect(rect.x0, rect.y0 + delta, rect.x1, rect.y1 - delta)


_PAINTED = 16 | 32  # MuPDF's FZ_STEXT_FILLED | FZ_STEXT_STROKED


def _spans(page, keep_readable: bool) -> tuple[list, list]:
    """The page's text spans as (readable, unreadable) rectangles. Readable: visible, every
    character mapped. Where the verdict is about the whole layer (a scan's layer, a letter-spaced
    layer), nothing is kept: the render is the page."""
    readable, unreadable = [], []
    for block in page.get_text("dict", flags=0)["blocks"]:
        for line in block.get("lines", ()):
            for span in line["spans"]:
                if not span["text"].strip():
                    continue
                visible = span["alpha"] > 0 and span["char_flags"] & _PAINTED  # render mode 3 is neither
                mapped = not _UNMAPPED.search(span["text"])
                (readable if keep_readable and visible and mapped else unreadable).append(span["bbox"])
    return readable, unreadable


def _read_render(page, readable: list) -> list:
    """RapidOCR's lines on a render of the page without its readable text, in page points."""
    import numpy as np
    import pymupdf
    from pymupdf4llm.ocr.get_culled_pixmap import get_pixmap

    # An empty list would cull all text (get_pixmap's default): cull nothing instead.
    pix, empty = get_pixmap(page.get_displaylist(), dpi=OCR_DPI, rects=readable or [pymupdf.EMPTY_RECT()])
    if empty:
        return []
    image = np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.width, 3)
    matrix = pymupdf.Rect(pix.irect).torect(page.rect)
    lines = []
    for box, text, _score in read_lines(image, whole_page=True):
        if text.strip():
            rect = pymupdf.Rect(
                min(p[0] for p in box), min(p[1] for p in box), max(p[0] for p in box), max(p[1] for p in box)
            )
            lines.append((rect * matrix, text))
    return lines


def _write_lines(page, lines: list) -> None:
    """Each line as text in its box, in the font pymupdf4llm's OCR writes with, stretched to the
    box's width (what ``exec_ocr_full`` does)."""
    from pymupdf4llm.ocr.exec_ocr_interface import FONT, FONTNAME, adjust_width

    if not lines:
        return
    page.insert_font(fontname=FONTNAME, fontbuffer=FONT.buffer)
    for rect, text in lines:
        size = rect.height
        page.insert_text(
            rect.bl + (0, -0.2 * size),
            text,
            fontsize=size,
            fontname=FONTNAME,
            morph=(rect.bl, adjust_width(text, size, rect)),
        )


def read_pages(doc, unit, mode: OcrMode, parse) -> list:
    """Convert the pages ``unit`` (0-based) of ``doc`` with ``parse(doc, pages)``, recovering
    the pages ``page_check`` judges unreadable first (``mode`` "auto"), every page ("always"),
    or none ("never": they are converted as they are and the ledger says why they need it).
    Returns, per page, ``(blocks, heads, PageRecord)``."""
    recover = mode != OcrMode.NEVER
    verdicts: dict[int, Verdict] = {}
    logs: dict[int, list] = {}
    turns: dict[int, int] = {}
    for number in unit:
        page = doc[number]
        # Un-rotated as the converter does, and turned if its text runs sideways (a landscape
        # table printed on a portrait page): checks, OCR and conversion in those coordinates.
        turns[number] = upright(page)
        logs[number] = page.get_bboxlog()
        verdict = Verdict("always", "--ocr always") if mode == OcrMode.ALWAYS else before_conversion(page, logs[number])
        if verdict is not None:
            verdicts[number] = verdict
            if recover:
                ocr_page(page, verdict)
    out = []
    for number, (blocks, heads) in zip(unit, parse(doc, unit)):
        added = 0
        if number not in verdicts or not recover:
            loose = unboxed_text(doc[number], logs[number], [b.bbox for b in blocks if b.bbox])
            blocks, heads = _with_unboxed(blocks, heads, loose, number + 1)
            added = len(loose)
        if number not in verdicts:
            verdict = after_conversion([b.text for b in blocks], lambda: layer_words(doc[number]))
            if verdict is not None:
                verdicts[number] = verdict
                if recover and verdict.kind == "converted-to-nothing":
                    blocks = rebuild_blocks(doc[number], blocks)
                    heads = [None] * len(blocks)
                elif recover:
                    ocr_page(doc[number], verdict)
                    ((blocks, heads),) = parse(doc, (number,))
        if number in verdicts and recover and verdicts[number].kind != "converted-to-nothing":
            blocks, heads = _text_over_pictures(doc[number], blocks, heads)
        record = _record(number, blocks, verdicts.get(number), mode)
        record.unboxed = added
        record.turn = turns[number]
        if record.source == OCR:
            for block in blocks:  # numbers read on this page were read by OCR
                block.number_source = "ocr"
        out.append((blocks, heads, record))
    return out


def _text_over_pictures(page, blocks: list, heads: list) -> tuple[list, list]:
    """On a page read by OCR, the layout model boxes regions of the picture of the page as
    pictures (a redacted passage with its heading, a scanned table), and the words OCR read in
    them would reach no section. The OCR'd text inside such a box follows it, block by block
    in reading order; the picture stays (it may be a real figure: its labels are then text too)."""
    out_blocks, out_heads = [], []
    for block, head in zip(blocks, heads):
        out_blocks.append(block)
        out_heads.append(head)
        if block.kind == PICTURE and block.bbox:
            found = [x for x in page.get_text("blocks", clip=block.bbox, sort=True) if x[6] == 0 and _WORD.search(x[4])]
            if sum(len(_WORD.findall(x[4])) for x in found) >= PICTURE_TEXT_WORDS:
                for x in found:
                    out_blocks.append(_layer_block(page.number + 1, x, " ".join(x[4].split())))
                    out_heads.append(None)
    return out_blocks, out_heads


def _with_unboxed(blocks: list, heads: list, loose: list, page_number: int) -> tuple[list, list]:
    """``blocks`` with the text-layer blocks no layout box covered inserted where they stand
    vertically (``heads`` kept aligned: an added block is not a ranked heading)."""
    blocks, heads = list(blocks), list(heads)
    for x in loose:
        block = _layer_block(page_number, x, " ".join(x[4].split()))
        at = next((k for k, b in enumerate(blocks) if b.bbox and b.bbox[1] > block.bbox[1]), len(blocks))
        blocks.insert(at, block)
        heads.insert(at, None)
    return blocks, heads


def rebuild_blocks(page, blocks: list) -> list:
    """The page's own text layer, block by block in reading order, in place of what the layout
    converter returned for it (which lost most of its words); the pictures it found are kept.
    For a readable layer the converter dropped (e.g. text boxed as part of a picture), this
    is more faithful than OCR: the characters are the PDF's own."""
    pictures = [b for b in blocks if b.kind == PICTURE]
    text = [
        _layer_block(page.number + 1, x, x[4].strip())
        for x in page.get_text("blocks", sort=True)
        if x[6] == 0 and _WORD.search(x[4])
    ]
    return sorted(pictures + text, key=lambda b: (b.bbox[1], b.bbox[0]))


def _layer_block(page_number: int, entry: tuple, text: str) -> Block:
    """A text block from one ``page.get_text("blocks")`` entry of the page's layer."""
    return Block(page=page_number, bbox=tuple(float(v) for v in entry[:4]), kind=TEXT, text=text)


def _record(number: int, blocks, verdict, mode: OcrMode) -> PageRecord:
    words = any(_WORD.search(b.text) for b in blocks if b.kind != PICTURE)
    pictures = any(b.kind == PICTURE for b in blocks)
    if verdict is None:
        return PageRecord(number + 1, TEXT_LAYER if words else EMPTY, "", pictures)
    if mode == OcrMode.NEVER:
        return PageRecord(
            number + 1, TEXT_LAYER if words else EMPTY, f"not recovered (--ocr never): {verdict.reason}", pictures
        )
    if verdict.kind == "always":
        return PageRecord(number + 1, OCR if words else EMPTY, "", pictures)
    if words:
        return PageRecord(
            number + 1, REBUILT if verdict.kind == "converted-to-nothing" else OCR, verdict.reason, pictures
        )
    return PageRecord(number + 1, EMPTY, f"{verdict.reason}; OCR found no text", pictures)


def count_pictures_read(ledger: list[PageRecord], blocks: list[Block]) -> None:
    """Each page's kept pictures whose words reached the output; a page that gave words only
    through its pictures is no longer empty. Run once the blocks are cleaned and furniture is
    marked: a picture whose only words were a running header gave the page nothing."""
    by_page = {r.page: r for r in ledger}
    for block in blocks:
        record = by_page.get(block.page)
        if record is not None and block.image is not None and block.image.words and not block.dropped:
            record.pictures_read += 1
            if record.source == EMPTY:
                record.source = OCR if "ocr" in block.image.words_from else TEXT_LAYER


def ledger_warnings(ledger: list[PageRecord]) -> list[str]:
    """One warning naming the recovered pages, and one naming the pages that show content but
    gave no words (and those left unrecovered under --ocr never): never silent about a page."""
    out = []
    recovered = [r.page for r in ledger if r.source == OCR and r.reason]
    if recovered:
        out.append(f"recovered by OCR (text layer missing or unreadable): pages {_pages(recovered)}")
    rebuilt = [r.page for r in ledger if r.source == REBUILT]
    if rebuilt:
        out.append(f"read from the text layer directly (the layout converter lost its words): pages {_pages(rebuilt)}")
    lost = [r for r in ledger if r.source == EMPTY and r.reason]
    if lost:
        kept = [r.page for r in lost if r.pictures]
        note = f" ({'page' if len(kept) == 1 else 'pages'} {_pages(kept)} kept as a picture)" if kept else ""
        out.append(f"no text recovered from pages {_pages([r.page for r in lost])}, which show content{note}")
    unboxed = [r.page for r in ledger if r.unboxed]
    if unboxed:
        count = sum(r.unboxed for r in ledger)
        out.append(
            f"{count} text blocks the layout model left out of every box were added from the text layer: "
            f"pages {_pages(unboxed)}"
        )
    skipped = [r.page for r in ledger if r.source != EMPTY and r.reason.startswith("not recovered")]
    if skipped:
        out.append(
            f"pages {_pages(skipped)} need OCR (text layer missing or unreadable) "
            "and were left as they are: --ocr never"
        )
    return out


def _pages(numbers: list[int]) -> str:
    """1, 2, 3, 7 -> "1-3, 7"."""
    runs: list[list[int]] = []
    for n in sorted(numbers):
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(f"{r[0]}-{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs)
