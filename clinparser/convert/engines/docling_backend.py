"""Docling engine: DOCX through docling's Word backend (no models), PDF through docling's
standard pipeline with its layout and table models read from a local folder only.

Docling would download missing models from a hub; air-gapped sites have none, so the folder
is checked first and hub access is off (``clinparser.offline``) before docling is imported.
"""

from __future__ import annotations

import contextlib
import io
import logging
import os
from pathlib import Path
from typing import Callable, Optional

from ...errors import ConversionError, ModelsMissingError, TooManyPagesError
from ...model import (
    CAPTION,
    FOOTNOTE,
    HEADING,
    LIST_ITEM,
    PAGE_FOOTER,
    PAGE_HEADER,
    PICTURE,
    TABLE,
    TEXT,
    Block,
    Converted,
    RawImage,
)
from ..options import ParseOptions

# The sub-folders `docling-tools models download` creates that the standard PDF pipeline reads.
REQUIRED_MODELS = ("docling-project--docling-layout-heron", "docling-project--docling-models")
PROVISION_HINT = (
    "on a connected machine run `docling-tools models download layout tableformer -o DIR`, "
    "copy DIR here and pass --models DIR"
)

_KINDS = {
    "title": HEADING,
    "section_header": HEADING,
    "list_item": LIST_ITEM,
    "table": TABLE,
    "picture": PICTURE,
    "chart": PICTURE,
    "caption": CAPTION,
    "page_header": PAGE_HEADER,
    "page_footer": PAGE_FOOTER,
    "footnote": FOOTNOTE,
}


def models_folder(models_dir: Optional[Path]) -> Path:
    """The local model folder, checked; raise the one-line provisioning error otherwise."""
    folder = models_dir or (
        Path(os.environ["DOCLING_ARTIFACTS_PATH"]) if os.environ.get("DOCLING_ARTIFACTS_PATH") else None
    )
    if folder is None:
        raise ModelsMissingError(
            "the docling engine needs its models in a local folder (--models DIR or DOCLING_ARTIFACTS_PATH): "
            f"{PROVISION_HINT}"
        )
    missing = [name for name in REQUIRED_MODELS if not (folder / name).is_dir()]
    if missing:
        raise ModelsMissingError(f"docling models folder {folder} lacks {', '.join(missing)}: {PROVISION_HINT}")
    return folder


@contextlib.contextmanager
def _quiet():
    """Docling logs and prints freely; keep stdout clean for --json."""
    logging.getLogger("docling").setLevel(logging.WARNING)
    with contextlib.redirect_stdout(io.StringIO()):
        yield


def convert_docx(path: Path, *, progress: Optional[Callable[[int, int], None]] = None) -> Converted:
    with _quiet():
        from docling.document_converter import DocumentConverter

        try:
            result = DocumentConverter().convert(path, raises_on_error=True)
        except Exception as exc:
            raise ConversionError(
                f"{path.name}: docling could not read this Word document ({type(exc).__name__}): is it corrupt?"
            ) from exc
    if progress:
        progress(1, 1)
    blocks, texts = _read_items(result.document)
    converted = Converted(blocks=blocks, page_count=0, engine="docling", page_sizes=_page_sizes(result.document))
    _word_numbers(path, converted, texts)
    return converted


def _word_numbers(path: Path, converted: Converted, texts: list[str]) -> None:
    """Numbers Word draws from its numbering definitions are not in the text: write them in."""
    from ..docx.docx_align import apply_word_numbers
    from ..docx.docx_numbering import read_numbered_paragraphs

    try:
        summary = apply_word_numbers(converted.blocks, texts, read_numbered_paragraphs(path)).summary()
    except Exception as exc:  # the text is still good: say the numbers may not be, never fail the parse
        converted.warnings.append(
            f"Word's automatic numbering could not be computed ({type(exc).__name__}): "
            "heading numbers are the converter's and may be wrong"
        )
        return
    if summary:
        converted.warnings.append(summary)


def convert_pdf(path: Path, options: ParseOptions, *, progress=None) -> Converted:
    folder = models_folder(options.models_dir)
    max_pages = options.max_pages
    from .pymupdf_backend import open_pdf

    doc, warnings = open_pdf(path)  # the same checks (encryption, damage, page limit) as the default engine
    if doc.page_count > max_pages:
        raise TooManyPagesError(
            f"{path.name} has {doc.page_count} pages, more than --max-pages {max_pages}: raise the limit to parse it"
        )
    doc.close()
    with _quiet():
        from docling.datamodel.base_models import InputFormat
        from docling.datamodel.pipeline_options import PdfPipelineOptions
        from docling.document_converter import DocumentConverter, PdfFormatOption

        options = PdfPipelineOptions(
            artifacts_path=folder,
            do_ocr=options.ocr_allowed,  # docling decides itself which regions need OCR
            do_table_structure=True,
            generate_picture_images=True,
            images_scale=options.image_dpi / 72,
        )
        converter = DocumentConverter(format_options={InputFormat.PDF: PdfFormatOption(pipeline_options=options)})
        try:
            result = converter.convert(path, raises_on_error=True)
        except Exception as exc:
            raise ConversionError(f"{path.name}: docling failed: {exc}") from exc
    if progress:
        progress(1, 1)
    converted = _to_converted(result.document, engine="docling", page_count=len(result.document.pages))
    converted.warnings.extend(warnings)
    return converted


def _to_converted(doc, *, engine: str, page_count: int) -> Converted:
    blocks, _texts = _read_items(doc)
    return Converted(blocks=blocks, page_count=page_count, engine=engine, page_sizes=_page_sizes(doc))


def _page_sizes(doc) -> dict[int, tuple[float, float]]:
    return {no: (p.size.width, p.size.height) for no, p in doc.pages.items()}


def _read_items(doc) -> tuple[list[Block], list[str]]:
    """The blocks, and beside each the item's own text (no Markdown, no list marker)."""
    page_sizes = _page_sizes(doc)
    blocks, texts = [], []
    for item, _level in doc.iterate_items(with_groups=False):
        label = str(getattr(item.label, "value", item.label))
        kind = _KINDS.get(label, TEXT)
        page, bbox = _position(item, page_sizes)
        block = Block(page=page, bbox=bbox, kind=kind, text=_markdown(item, doc, kind))
        if kind == PICTURE:
            block.image = _picture(item, doc, page, bbox)
            if block.image is None:
                continue
        blocks.append(block)
        texts.append(getattr(item, "text", "") or "")
    return blocks, texts


def _position(item, page_sizes):
    prov = getattr(item, "prov", None) or []
    if not prov:
        return None, None
    p = prov[0]
    height = page_sizes.get(p.page_no, (0, 0))[1]
    box = p.bbox.to_top_left_origin(page_height=height)
    return p.page_no, (box.l, box.t, box.r, box.b)


def _markdown(item, doc, kind: str) -> str:
    if kind == TABLE:
        return item.export_to_markdown(doc=doc)
    text = getattr(item, "text", "") or ""
    if kind == HEADING:
        return f"## {text}"
    if kind == LIST_ITEM:
        marker = getattr(item, "marker", "") or "-"
        return f"{marker} {text}"
    return text


def _picture(item, doc, page, bbox) -> Optional[RawImage]:
    try:
        pil = item.get_image(doc)
    except Exception:  # a picture docling could not decode is left out, not fatal
        pil = None
    if pil is None:
        return None
    buf = io.BytesIO()
    pil.save(buf, format="PNG", optimize=False)
    return RawImage(page=page, bbox=bbox, png=buf.getvalue(), width=pil.width, height=pil.height)
