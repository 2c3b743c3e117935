"""The words inside a picture: a scanned form, a table or a reference list printed as an image,
the labels of a diagram.

Two sources, the exact one first:

* **The text layer.** A figure drawn by the PDF itself (a flow chart, a study design) carries
  its labels as text; the lines inside the picture's box that no other layout block holds are
  its words, as the PDF prints them.
* **OCR** (the bundled RapidOCR models, nothing downloaded) of the picture's pixels, where the
  picture holds an embedded image (a scan, a screenshot) or has no text layer at all (a DOCX's
  pictures). A line OCR reads where the layer already has one is the layer's. Labels the layer
  draws over an embedded image that holds no words itself (a photo, a chart, a shaded box: the
  quick look below, on the image as the PDF stores it) are the picture's words without OCR.

A picture is OCR'd only when its pixels look like text on a page (``text_like``): mostly light
background with some dark ink, most of it in thin strokes. A picture that does not (a photo, a
shaded table, a banner) gets a second quick check: the detection model alone on the picture
shrunk to 480 pixels (``ocr.finds_text``, 0.02-0.15 s); it is OCR'd only if that finds a line
(a URL on a banner, a label on a photographed parcel, a colour-shaded score table). A picture too small to hold a line
of text costs nothing. Words are kept in the picture's pixels (``RawImage.words``), one entry
per line read, in reading order; a line with no letter or digit (a box, a bullet, a redaction
bar read as a glyph) is not a word.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from ...model import RawImage
from ...shared.geometry import share_covered

MIN_HEIGHT = 12  # pixels: a picture lower than a line of text holds none
MIN_WIDTH = 24
LIGHT = 200  # grey level (0-255) of paper
INK = 128  # grey level under which a pixel is ink
MIN_PAPER = 0.4  # share of light pixels in a picture of text on a page (a photo has less)
INK_SHARE = (0.002, 0.5)  # share of ink pixels: less is blank, more is a dark picture
THIN_STROKE = 8  # pixels: a run of ink this short across a row is a letter's stroke
MIN_THIN = 0.45  # share of the runs of ink that are thin strokes in text (a bar chart: 0.17)
MIN_SCORE = 0.5  # RapidOCR's own confidence under which a line is not kept
# A picture on a PDF page is OCR'd from its own render at this resolution, not from the PNG
# written at --image-dpi: scanned forms print 5-6 pt text, and two readings of such a scan at
# different resolutions agree on barely half their words (Amgen's contingency forms: 54 % of
# words the same at 150 and 200 dpi, 98 % for two readings at 200 dpi). 200 dpi is also the
# resolution the coverage benchmark's reference reads pages at.
OCR_DPI = 200
LAYER = "text-layer"
OCR = "ocr"
NOT_READ = "not read: --ocr never"  # why a picture that looks like text was left unread
UNDECODABLE = "not read: its image data cannot be decoded"


def text_like(rgb) -> bool:
    """Pixels that look like text printed on paper: a light background, some dark ink, and
    that ink mostly in thin strokes (a letter's stems), not in bars, fills or shading."""
    import numpy as np

    if rgb.shape[0] < MIN_HEIGHT or rgb.shape[1] < MIN_WIDTH:
        return False
    grey = rgb.mean(axis=2)
    ink = grey < INK
    share = float(ink.mean())
    if float((grey >= LIGHT).mean()) < MIN_PAPER or not INK_SHARE[0] <= share <= INK_SHARE[1]:
        return False
    # Horizontal runs of ink, row by row (where each starts and ends): a row crossing a line of
    # text crosses many thin stems; one crossing a bar, a fill or a photo's dark patch crosses
    # few wide runs. A rule is one run, however long.
    edges = np.diff(np.pad(ink, ((0, 0), (1, 1))).astype(np.int8), axis=1)
    runs = np.flatnonzero(edges == -1) - np.flatnonzero(edges == 1)
    return runs.size > 0 and float((runs <= THIN_STROKE).mean()) >= MIN_THIN


def decode(png: bytes):
    """The picture as an RGB array (height x width x 3), or None when it cannot be decoded."""
    import numpy as np
    import pymupdf

    try:
        pix = pymupdf.Pixmap(png)
    except Exception:  # MuPDF's own error types: not a picture it can decode
        return None
    if pix.alpha:
        pix = pymupdf.Pixmap(pix, 0)
    if pix.n != 3:
        pix = pymupdf.Pixmap(pymupdf.csRGB, pix)
    return np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.width, 3).copy()


def worth_ocr(rgb) -> bool:
    """Pixels that may hold words: they look like text on paper, or, when they do not, the
    detection model finds a line in them at low resolution."""
    if rgb.shape[0] < MIN_HEIGHT or rgb.shape[1] < MIN_WIDTH:
        return False
    from ..runtime.ocr import finds_text

    return text_like(rgb) or finds_text(rgb)


def ocr_lines(rgb) -> list[tuple[tuple[float, float, float, float], str]]:
    """RapidOCR's lines in an RGB array, as (box in pixels, text), when the pixels may hold words."""
    if rgb is None or not worth_ocr(rgb):
        return []
    from ..runtime.ocr import read_lines

    out = []
    for box, text, score in read_lines(rgb):
        if score >= MIN_SCORE and any(ch.isalnum() for ch in text):
            xs, ys = [p[0] for p in box], [p[1] for p in box]
            out.append(((float(min(xs)), float(min(ys)), float(max(xs)), float(max(ys))), " ".join(text.split())))
    return out


def read_png(raw: RawImage, ocr: bool) -> None:
    """Words of a picture known only by its pixels (a DOCX's pictures): OCR, unless ``ocr`` is off."""
    if not ocr:
        raw.unread = NOT_READ if _worth_reading(raw) else ""
        return
    rgb = decode(raw.png)
    if rgb is None:
        raw.unread = UNDECODABLE
        return
    lines = ocr_lines(rgb)
    _keep(raw, lines, OCR if lines else "")


def read_on_page(raw: RawImage, page, others: list, ocr: bool, images: list | None = None) -> None:
    """Words of a picture on a PDF page: the layer's lines inside its box that no other block
    (``others``, their boxes) holds, and OCR of its pixels where it holds an embedded image or
    the layer has nothing there. ``images``: the page's ``get_image_info()``, when the caller
    has it already."""
    pending = start_on_page(raw, page, others, ocr, images)
    if pending is not None:
        finish_on_page(pending, ocr_lines(pending.render()))


@dataclass
class PendingPicture:
    """A picture on a PDF page whose pixels are still to be OCR'd: its text layer's lines (in
    its PNG's pixels) and its page, to render it at ``OCR_DPI`` when its OCR is due, so that
    the OCR, the costly part, can run anywhere (another process) and be finished here. Renders
    are made one at a time, when read: a document's pictures are not all held at once."""

    raw: RawImage
    layer: list
    page: Any = None
    scale: tuple[float, float] = (1.0, 1.0)  # render pixels -> PNG pixels, set by ``render``

    def render(self):
        """The picture's box rendered at ``OCR_DPI`` as an RGB array; None when it renders to nothing."""
        rgb, self.scale = _render_for_ocr(self.page, self.raw)
        return rgb


def start_on_page(raw: RawImage, page, others: list, ocr: bool, images: list | None = None) -> Optional[PendingPicture]:
    """``read_on_page`` up to its OCR: the picture is finished here (None) unless its pixels are
    to be read, in which case ``finish_on_page`` takes the OCR's lines of its ``render()``."""
    layer = _layer_lines(page, raw.bbox, others)
    images = page.get_image_info() if images is None else images
    scan = any(share_covered(info["bbox"], raw.bbox) >= 0.25 for info in images)
    lines = [(_to_pixels(box, raw), text) for box, text in layer]
    if scan and layer and ocr and not _images_hold_words(page, raw.bbox):
        scan = False  # labels drawn over a photo or a chart: the words are all in the layer
    if scan or not layer:
        if ocr:
            return PendingPicture(raw, lines, page)
        raw.unread = NOT_READ if scan and _worth_reading(raw) else ""
    _keep(raw, lines, LAYER if lines else "")
    return None


def finish_on_page(pending: PendingPicture, read_lines: list) -> None:
    """The picture's words: its layer's lines, and the OCR's lines of its render (``read_lines``,
    in the render's pixels) that no layer line already covers."""
    sx, sy = pending.scale
    read = [((b[0] * sx, b[1] * sy, b[2] * sx, b[3] * sy), text) for b, text in read_lines]
    read = [(box, text) for box, text in read if not any(_covers(b, box) for b, _ in pending.layer)]
    source = " + ".join(s for s, used in ((LAYER, pending.layer), (OCR, read)) if used)
    _keep(pending.raw, pending.layer + read, source)


def _render_for_ocr(page, raw: RawImage) -> tuple[Any, tuple[float, float]]:
    """The picture's box rendered at ``OCR_DPI`` (whatever ``--image-dpi`` the PNG has) as an
    RGB array, and the scale from its pixels to the PNG's; (None, ...) when it renders to nothing."""
    import numpy as np
    import pymupdf

    pix = page.get_pixmap(clip=pymupdf.Rect(raw.bbox), dpi=OCR_DPI, alpha=False)
    if pix.width < 1 or pix.height < 1:
        return None, (1.0, 1.0)
    rgb = np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.width, pix.n)[:, :, :3]
    return rgb, (raw.width / pix.width, raw.height / pix.height)


def _keep(raw: RawImage, lines: list, source: str) -> None:
    raw.words = reading_order(lines)
    raw.words_from = source if raw.words else ""


def rows_of(lines: list) -> list[list]:
    """Lines grouped in rows (their middles within half a line of the row's first), top to
    bottom, each row left to right."""
    rows: list[list] = []
    for line in sorted(lines, key=lambda e: ((e[0][1] + e[0][3]) / 2, e[0][0])):
        box = line[0]
        middle, height = (box[1] + box[3]) / 2, box[3] - box[1]
        if rows:
            first = rows[-1][0][0]
            if abs((first[1] + first[3]) / 2 - middle) <= 0.5 * max(height, first[3] - first[1]):
                rows[-1].append(line)
                continue
        rows.append([line])
    return [sorted(row, key=lambda e: e[0][0]) for row in rows]


def reading_order(lines: list) -> list:
    """Lines top to bottom; lines sharing a row left to right."""
    return [line for row in rows_of(lines) for line in row]


def text_rows(lines: list) -> list[str]:
    """The words as printed: one row of the picture a line, its pieces joined by a space."""
    return [" ".join(text for _, text in row) for row in rows_of(lines)]


def _images_hold_words(page, bbox) -> bool:
    """Do the images embedded under ``bbox`` hold words of their own (their pixels, as the PDF
    stores them, without the text drawn over them)? The same quick look as for any picture:
    text-like pixels, or a line the detector finds at low resolution. An image that cannot be
    looked at counts as holding words (it is OCR'd, as before)."""
    for info in page.get_image_info(xrefs=True):
        if share_covered(info["bbox"], bbox) < 0.25:
            continue
        xref = info.get("xref") or 0
        extracted = page.parent.extract_image(xref) if xref > 0 else None
        rgb = decode(extracted["image"]) if extracted else None
        if rgb is None or worth_ocr(rgb):
            return True
    return False


def _worth_reading(raw: RawImage) -> bool:
    """Under --ocr never no model runs, so only the pixel check says a picture holds text."""
    rgb = decode(raw.png)
    return rgb is not None and text_like(rgb)


def _layer_lines(page, bbox, others: list) -> list:
    """Visible text lines of the page's layer inside ``bbox`` (their middle), less those whose
    middle is inside another block's box, as (box in points, text)."""
    import pymupdf

    clip = pymupdf.Rect(bbox)
    out = []
    for block in page.get_text("dict", clip=clip, flags=0)["blocks"]:
        for line in block.get("lines", ()):
            spans = [s for s in line["spans"] if s["text"].strip() and s["alpha"] > 0]
            text = " ".join("".join(s["text"] for s in spans).split())
            if not text:
                continue
            x0, y0, x1, y1 = line["bbox"]
            middle = ((x0 + x1) / 2, (y0 + y1) / 2)
            if not clip.contains(pymupdf.Point(middle)) or any(
                pymupdf.Rect(o).contains(pymupdf.Point(middle)) for o in others
            ):
                continue
            out.append(((x0, y0, x1, y1), text))
    return out


def _to_pixels(box, raw: RawImage) -> tuple[float, float, float, float]:
    """A box in page points as pixels of the picture's render of ``raw.bbox``."""
    x0, y0, x1, y1 = raw.bbox
    sx, sy = raw.width / max(x1 - x0, 1e-6), raw.height / max(y1 - y0, 1e-6)
    return ((box[0] - x0) * sx, (box[1] - y0) * sy, (box[2] - x0) * sx, (box[3] - y0) * sy)


def _covers(layer_box, ocr_box) -> bool:
    """An OCR line the layer already has: half of it or more under a layer line."""
    return share_covered(layer_box, ocr_box) >= 0.5


def summary(blocks: list) -> dict:
    """What was read inside the document's pictures: how many there are, how many gave words
    (and from where), and those that look like text but were left unread, with why."""
    pictures = [b for b in blocks if b.image is not None and not b.dropped]
    read = [b.image for b in pictures if b.image.words]
    return {
        "count": len(pictures),
        "with_words": len(read),
        "words_from_ocr": sum(OCR in r.words_from for r in read),
        "words_from_text_layer": sum(LAYER in r.words_from for r in read),
        "unread": [{"page": b.page, "why": b.image.unread} for b in pictures if b.image.unread],
    }


def unread_warning(blocks: list) -> list[str]:
    """One warning naming the pictures that look like text but were left unread."""
    unread = [b for b in blocks if b.image is not None and not b.dropped and b.image.unread]
    if not unread:
        return []
    pages = sorted({b.page for b in unread if b.page is not None})
    where = f" on pages {', '.join(map(str, pages))}" if pages else ""
    whys = sorted({b.image.unread for b in unread})
    return [f"{len(unread)} picture(s){where} look like text but were {'; '.join(whys)}"]
