"""Convert stage: a document in, the shared ``Converted`` intermediate out.

Backends (one module per engine) map their converter's output to layout blocks with page and
bbox; everything downstream is engine-agnostic.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Optional

from ..model import Converted
from .inspect_input import sniff
from .options import Engine, ParseOptions

Progress = Callable[[int, int], None]


def convert(
    path: Path,
    options: ParseOptions,
    *,
    progress: Optional[Progress] = None,
    picture_progress: Optional[Progress] = None,
) -> Converted:
    """Check the file, then run the engine it needs. ``progress``: pages converted, of all;
    ``picture_progress``: pictures whose words OCR has read, of all it reads (that comes after
    the pages, and can take longer)."""
    kind = sniff(path)
    if kind == "docx":
        from .engines.docling_backend import convert_docx

        return _with_picture_words(convert_docx(path, progress=progress), options, picture_progress)
    if options.engine == Engine.DOCLING:
        from .engines.docling_backend import convert_pdf as docling_pdf

        return _with_picture_words(docling_pdf(path, options, progress=progress), options, picture_progress)
    from .engines.page_workers import LayoutWorkers

    # The layout workers start first: their start-up overlaps the import of PyMuPDF here.
    with LayoutWorkers(str(path), options) as layouts:
        from .engines.pymupdf_backend import convert_pdf

        return convert_pdf(path, options, layouts, progress=progress, picture_progress=picture_progress)


def _with_picture_words(converted: Converted, options: ParseOptions, progress: Optional[Progress] = None) -> Converted:
    """The words inside the pictures of a document converted by docling, known by their pixels
    only (the PyMuPDF backend reads its pictures against the page: ``pymupdf_backend``)."""
    from .pictures.picture_words import read_png

    pictures = [b.image for b in converted.blocks if b.image is not None]
    for done, image in enumerate(pictures, 1):
        read_png(image, options.ocr_allowed)
        if progress:
            progress(done, len(pictures))
    return converted
