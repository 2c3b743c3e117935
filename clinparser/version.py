"""The version of ClinParser: one place, below every module that records it."""

__version__ = "0.1.0"
