"""ClinParser: clinical-trial protocols (PDF, DOCX) -> a JSON tree of their numbered sections."""

from . import offline  # noqa: F401  (must run before docling or huggingface_hub is imported)
from .version import __version__

__all__ = ["PDFParser", "__version__"]


def __getattr__(name: str):
    # PDFParser is imported on first use, so layout worker processes, which import this
    # package only for the converter, do not pay for pandas and the rest of the pipeline.
    if name == "PDFParser":
        from .api import PDFParser

        return PDFParser
    raise AttributeError(f"module 'clinparser' has no attribute {name!r}")
