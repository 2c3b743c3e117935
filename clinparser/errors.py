"""Errors a user can hit, each with its own exit code; the CLI prints ``str(error)`` as one line.

Exit codes (also in the README): 0 ok, 1 internal error (a bug), 2 bad command line,
3 bad input file, 4 encrypted PDF, 5 docling models missing, 6 conversion failed,
7 cannot write output, 8 result does not match the schema, 9 too many pages,
10 ``batch``: some documents failed (the CLI's ``BATCH_FAILED``; each is a line of the manifest).
"""

from __future__ import annotations


class ClinParserError(Exception):
    exit_code = 1


class InputError(ClinParserError):
    """The input path is missing, not a file, unreadable, or not a supported document."""

    exit_code = 3


class EncryptedError(ClinParserError):
    exit_code = 4


class ModelsMissingError(ClinParserError):
    """The docling engine was asked for but its local model folder is missing or incomplete."""

    exit_code = 5


class ConversionError(ClinParserError):
    """The converter failed on a document that looked valid."""

    exit_code = 6


class OutputError(ClinParserError):
    exit_code = 7


class SchemaError(ClinParserError):
    exit_code = 8


class TooManyPagesError(ClinParserError):
    exit_code = 9
