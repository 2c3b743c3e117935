"""The review page's page pictures: every page of the source PDF drawn for the screen into
``pages/page_NNNN.png`` in the output folder, or the pictures an earlier build left there.
"""

from __future__ import annotations

import io
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Optional

from ..errors import InputError

PAGES_DIR = "pages"
# Screen-sized page pictures: 96 dpi is a page at 100% zoom on a laptop. Pages are mostly text,
# so they are drawn in 16 grey levels and stored as 4-bit PNG: sharp letters (no JPEG ringing),
# about half JPEG's bytes (40-90 KB a page against 60-170 KB), 10-35 ms a page with fast zlib.
PAGE_DPI = 96
GREY_LEVELS = 16
_TO_4_BITS = [v * GREY_LEVELS // 256 for v in range(256)]


def page_name(n: int) -> str:
    return f"{PAGES_DIR}/page_{n:04d}.png"


def _write_png(picture, path: Path) -> None:
    buffer = io.BytesIO()
    picture.save(buffer, "PNG", bits=4, compress_level=1)
    path.write_bytes(buffer.getvalue())


def render_pages(source: Path, folder: Path, password: Optional[str] = None) -> list[dict]:
    """Render every page of the PDF to ``pages/page_NNNN.png``; return their sizes in points.

    MuPDF draws the pages one by one in this thread; two threads compress them (zlib lets go of
    the GIL), so drawing and compressing overlap. Each file's bytes depend only on its page."""
    import pymupdf
    from PIL import Image as PILImage

    (folder / PAGES_DIR).mkdir(exist_ok=True)
    try:
        doc = pymupdf.open(source)
    except Exception as exc:
        raise InputError(f"{source} cannot be opened as a PDF for page pictures ({exc})") from exc
    with doc, ThreadPoolExecutor(max_workers=2) as pool:
        if doc.needs_pass and not doc.authenticate(password or ""):
            raise InputError(f"{source} is encrypted: give its --password to render its pages")
        pages, writes = [], []
        for k, page in enumerate(doc, 1):
            pix = page.get_pixmap(dpi=PAGE_DPI, colorspace=pymupdf.csGRAY, alpha=False)
            picture = PILImage.frombytes("L", (pix.width, pix.height), pix.samples).point(_TO_4_BITS)
            writes.append(pool.submit(_write_png, picture, folder / page_name(k)))
            pages.append({"n": k, "w": round(page.rect.width, 2), "h": round(page.rect.height, 2), "img": page_name(k)})
        for done in writes:
            done.result()  # an error writing a page is raised here
    return pages


def existing_pages(folder: Path, page_count: int) -> list[dict]:
    """The pictures an earlier build left in ``pages/``, their size in points from their pixels."""
    from PIL import Image as PILImage

    pages = []
    for k in range(1, page_count + 1):
        path = folder / page_name(k)
        if not path.is_file():
            return []
        with PILImage.open(path) as im:
            w, h = im.size
        pages.append({"n": k, "w": round(w * 72 / PAGE_DPI, 2), "h": round(h * 72 / PAGE_DPI, 2), "img": page_name(k)})
    return pages


def blank_pages(blocks: Optional[list[dict]], page_count: int) -> list[dict]:
    """Page frames without pictures (Letter-sized unless blocks reach further), so boxes still show."""
    size = {k: [612.0, 792.0] for k in range(1, page_count + 1)}
    for b in blocks or []:
        if b.get("page") in size and b.get("bbox"):
            frame = size[b["page"]]
            frame[0], frame[1] = max(frame[0], b["bbox"][2]), max(frame[1], b["bbox"][3])
    return [{"n": k, "w": w, "h": h, "img": None} for k, (w, h) in size.items()]
