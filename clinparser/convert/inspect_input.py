"""Check the input file before any converter sees it, so errors name what the file is."""

from __future__ import annotations

import os
import zipfile
from pathlib import Path

from ..errors import InputError

SUPPORTED = (".pdf", ".docx")


def _describe(head: bytes) -> str:
    if head.startswith(b"PK"):
        return "a ZIP archive"
    lowered = head.lstrip().lower()
    if lowered.startswith((b"<!doctype html", b"<html")):
        return "an HTML file"
    if head.startswith(b"\xd0\xcf\x11\xe0"):
        return "a legacy Office (OLE) file"
    try:
        head.decode("utf-8")
        return "a text file"
    except UnicodeDecodeError:
        return "binary data of an unknown type"


def sniff(path: Path) -> str:
    """'pdf' or 'docx', or raise ``InputError`` saying what is wrong and what to do."""
    if not path.exists():
        raise InputError(f"{path}: no such file")
    if path.is_dir():
        raise InputError(f"{path} is a directory: give a .pdf or .docx file")
    if not os.access(path, os.R_OK):
        raise InputError(f"{path}: permission denied (cannot read the file)")
    suffix = path.suffix.lower()
    if suffix not in SUPPORTED:
        raise InputError(f"{path}: unsupported file type {suffix or '(none)'!r}: give a .pdf or .docx file")
    with open(path, "rb") as f:
        head = f.read(1024)
    if not head:
        raise InputError(f"{path} is empty (0 bytes)")
    if suffix == ".pdf":
        if b"%PDF-" not in head:
            raise InputError(f"{path} is not a PDF: it is {_describe(head)}")
        return "pdf"
    if not zipfile.is_zipfile(path):
        raise InputError(f"{path} is not a valid .docx: it is {_describe(head)}, not a Word (ZIP) document")
    with zipfile.ZipFile(path) as z:
        if "word/document.xml" not in z.namelist():
            raise InputError(f"{path} is a ZIP archive but not a Word document (no word/document.xml)")
    return "docx"


def sha256_file(path: Path) -> str:
    """The file's SHA-256, read in 1 MB chunks (the result's metadata; batch's skip key)."""
    import hashlib

    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()
