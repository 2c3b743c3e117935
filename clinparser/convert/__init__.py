"""Convert stage: a document in, the shared ``Converted`` intermediate out.

Backends (one module per engine) map their converter's output to layout blocks with page and
bbox; everything downstream is engine-agnostic.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Optional

from ..errors import InputError
from ..model import Converted
from .inspect_input import sniff
from .layout_route import MODES as LAYOUT_MODES

Progress = Callable[[int, int], None]
ENGINES = ("pymupdf", "docling")
OCR_MODES = ("auto", "always", "never")  # see page_check and page_recovery


def convert(
    path: Path,
    *,
    engine: str,
    models_dir: Optional[Path],
    ocr: str,
    password: Optional[str],
    image_dpi: int,
    max_pages: int,
    min_image_size: float,
    workers: int,
    layout: str = "full",
    progress: Optional[Progress] = None,
    picture_progress: Optional[Progress] = None,
) -> Converted:
    """Check the file, then run the engine it needs (options: see ``pipeline.ParseOptions``).
    ``progress``: pages converted, of all; ``picture_progress``: pictures whose words OCR has
    read, of all it reads (that comes after the pages, and can take longer)."""
    if engine not in ENGINES:
        raise InputError(f"unknown engine {engine!r}: choose one of {', '.join(ENGINES)}")
    if ocr not in OCR_MODES:
        raise InputError(f"unknown OCR mode {ocr!r}: choose one of {', '.join(OCR_MODES)}")
    if layout not in LAYOUT_MODES:
        raise InputError(f"unknown layout mode {layout!r}: choose one of {', '.join(LAYOUT_MODES)}")
    kind = sniff(path)
    if kind == "docx":
        from .docling_backend import convert_docx

        return _with_picture_words(convert_docx(path, progress=progress), ocr, picture_progress)
    if engine == "docling":
        from .docling_backend import convert_pdf as docling_pdf

        # docling decides itself which regions need OCR: "auto" and "always" switch it on.
        converted = docling_pdf(
            path, models_dir=models_dir, ocr=ocr != "never", image_dpi=image_dpi, max_pages=max_pages, progress=progress
        )
        return _with_picture_words(converted, ocr, picture_progress)
    from .page_workers import LayoutWorkers

    # The layout workers start first: their start-up overlaps the import of PyMuPDF here.
    with LayoutWorkers(str(path), password=password, ocr=ocr, workers=workers, layout=layout) as layouts:
        from .pymupdf_backend import convert_pdf

        return convert_pdf(
            path,
            ocr=ocr,
            password=password,
            image_dpi=image_dpi,
            max_pages=max_pages,
            min_image_size=min_image_size,
            layout=layouts,
            progress=progress,
            picture_progress=picture_progress,
        )


def _with_picture_words(converted: Converted, ocr: str, progress: Optional[Progress] = None) -> Converted:
    """The words inside the pictures of a document converted by docling, known by their pixels
    only (the PyMuPDF backend reads its pictures against the page: ``pymupdf_backend``)."""
    from .picture_words import read_png

    pictures = [b.image for b in converted.blocks if b.image is not None]
    for done, image in enumerate(pictures, 1):
        read_png(image, ocr != "never")
        if progress:
            progress(done, len(pictures))
    return converted
