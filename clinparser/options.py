"""What a parse may be told: the single place for the defaults (API and CLI use them).

Kept apart from ``pipeline`` so the command line can show its options without importing the
pipeline, and layout worker processes never import more than the converter.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from .convert.page_workers import default_workers


@dataclass
class ParseOptions:
    engine: str = "pymupdf"
    models_dir: Optional[Path] = None
    ocr: str = "auto"  # "auto": recover unreadable pages (page_check); "always"; "never"
    password: Optional[str] = None
    image_dpi: int = 150
    max_pages: int = 10000  # a guard against runaway inputs in batch runs
    min_image_size: float = 24.0  # points a side; smaller pictures are bullets and specks
    # "auto": each page's model chosen from its text and drawings (convert/layout_route.py);
    # "full": the full layout model on every page. On the corpus auto gives the same trees,
    # schedules, study definition and coverage in about 0.9 of the time
    # (benchmarks/layout_sameness.py, benchmarks/coverage.py, docs/benchmarks.md).
    layout: str = "auto"
    workers: int = field(
        default_factory=default_workers
    )  # processes running the layout model, this one included (default engine); output does not depend on it
