"""Python API: ``PDFParser().parse(path)`` -> ``{"toc": [...], "non_toc": [...], "metadata": {...}}``."""

from __future__ import annotations

from pathlib import Path
from typing import Optional, Union

from .convert.options import OcrMode, ParseOptions
from .export.artifacts import SaveOptions, write_output
from .pipeline import Reporter, parse_document
from .workers.cores import default_workers

PathLike = Union[str, Path]
DEFAULTS = ParseOptions()


class PDFParser:
    """Parse clinical protocols (.pdf, .docx) into their numbered section tree.

    ``engine`` is "pymupdf" (default; nothing to download) or "docling" (needs ``models_dir``,
    a local folder of docling's models, or ``DOCLING_ARTIFACTS_PATH``). ``workers`` is the number
    of processes that run the layout model, this one included (default: the cores available,
    at most one per GB of free memory); the result is the same for any number. ``parse`` works
    in any script (no ``if __name__ == "__main__":`` needed), a notebook or a thread: worker
    processes run ClinParser's own module, never the caller's ``__main__``, and have all exited
    when it returns.
    """

    def __init__(
        self,
        engine: str = DEFAULTS.engine,
        models_dir: Optional[PathLike] = None,
        ocr: Union[str, bool] = DEFAULTS.ocr,
        password: Optional[str] = None,
        image_dpi: int = DEFAULTS.image_dpi,
        max_pages: int = DEFAULTS.max_pages,
        min_image_size: float = DEFAULTS.min_image_size,
        workers: Optional[int] = None,
        layout: str = DEFAULTS.layout,
    ):
        if isinstance(ocr, bool):  # the old on/off flag: on OCR'd every page that needed it
            ocr = OcrMode.ALWAYS if ocr else OcrMode.NEVER
        if workers is not None and workers < 1:
            raise ValueError(f"workers must be at least 1, not {workers}")
        self.options = ParseOptions(
            engine=engine,
            models_dir=Path(models_dir) if models_dir else None,
            ocr=ocr,
            password=password,
            image_dpi=image_dpi,
            max_pages=max_pages,
            min_image_size=min_image_size,
            workers=workers or default_workers(),
            layout=layout,
        )
        self.last_output: Optional[Path] = None  # the folder the last parse wrote

    def parse(
        self,
        path: PathLike,
        save_intermediate_files: bool = True,
        save_images: bool = True,
        save_table_csv: bool = True,
        save_report: bool = True,
        output_dir: Optional[PathLike] = "output",
        reporter: Optional[Reporter] = None,
    ) -> dict:
        """Parse ``path``; write artifacts under ``output_dir/<timestamp>/`` unless it is None."""
        parsed = parse_document(Path(path), self.options, reporter)
        if output_dir is None:
            self.last_output = None
            return parsed.to_dict()
        save = SaveOptions(save_intermediate_files, save_images, save_table_csv, save_report)
        self.last_output = write_output(
            parsed, Path(output_dir), save, source=Path(path), password=self.options.password
        )
        return parsed.to_dict()
