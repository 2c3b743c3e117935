"""ClinParser: clinical-trial protocols (PDF, DOCX) -> a JSON tree of their numbered sections."""

from . import offline  # noqa: F401  (must run before docling or huggingface_hub is imported)

__version__ = "0.1.0"

from .api import PDFParser  # noqa: E402

__all__ = ["PDFParser", "__version__"]
