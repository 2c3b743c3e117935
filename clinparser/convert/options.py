"""What a parse may be told: the single place for the defaults (API, CLI and batch use them).

Every option but one is the converter's, so the options live here, at the converter, and travel
down as one object. Kept free of heavy imports: the command line shows its options, and layout
worker processes start, without importing the pipeline.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Optional

from ..errors import InputError
from ..workers.cores import default_workers


class Engine(StrEnum):
    PYMUPDF = "pymupdf"
    DOCLING = "docling"


class OcrMode(StrEnum):
    AUTO = "auto"  # recover the pages judged unreadable (pages/page_check.py), read pictures' words
    ALWAYS = "always"  # every page read by OCR
    NEVER = "never"  # no OCR at all: unreadable pages and pictures' words stay unread (and are reported)


class LayoutMode(StrEnum):
    FULL = "full"  # the full layout model on every page
    AUTO = "auto"  # each page's model chosen from its text and drawings (engines/layout_route.py)


@dataclass
class ParseOptions:
    engine: Engine = Engine.PYMUPDF
    models_dir: Optional[Path] = None
    ocr: OcrMode = OcrMode.AUTO
    password: Optional[str] = None
    image_dpi: int = 150
    max_pages: int = 10000  # a guard against runaway inputs in batch runs
    min_image_size: float = 24.0  # points a side; smaller pictures are bullets and specks
    # On the corpus "auto" gives the same trees, schedules, study definition and coverage as
    # "full" in about 0.9 of the time (benchmarks/layout_sameness.py, benchmarks/coverage.py).
    layout: LayoutMode = LayoutMode.AUTO
    # processes running the layout model, this one included (default engine); output does not depend on it
    workers: int = field(default_factory=default_workers)

    def __post_init__(self) -> None:
        # A user's string becomes its mode here, once, so a wrong one is named before any work.
        self.engine = _choice(Engine, self.engine, "engine")
        self.ocr = _choice(OcrMode, self.ocr, "OCR mode")
        self.layout = _choice(LayoutMode, self.layout, "layout mode")

    @property
    def ocr_allowed(self) -> bool:
        """Whether any OCR may run (pages, pictures, heading numbers drawn as pictures)."""
        return self.ocr != OcrMode.NEVER


def _choice(kind: type[StrEnum], value, what: str) -> StrEnum:
    try:
        return kind(value)
    except ValueError:
        raise InputError(f"unknown {what} {value!r}: choose one of {', '.join(kind)}") from None
