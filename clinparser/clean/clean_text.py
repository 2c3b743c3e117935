"""Clean stage, characters: every string that reaches the output is Unicode NFC, with no
replacement or control characters.

One documented way for each kind of character a PDF's text layer carries:

* **NFC.** Text is composed ("e" + combining acute -> "é"), so the same word compares equal
  whichever way the PDF encoded it.
* **Ligatures** of the Alphabetic Presentation Forms block (U+FB00-FB06: ﬀ ﬁ ﬂ ﬃ ﬄ ﬅ ﬆ) are
  spelled out as their letters ("ﬁrst" -> "first"), as NFKC would; nothing else is
  compatibility-folded (NFKC would also turn "m²" into "m2" and "½" into "1⁄2").
* **Soft hyphens** (U+00AD) mark where a word may be broken: removed, and a line that ends in
  one is joined to the next ("treat\u00ad\\nment" -> "treatment").
* **Control characters** (C0 and C1, other than newline and tab) are removed; a carriage
  return becomes a newline.
* **U+FFFD** (a character whose font has no Unicode mapping, left on a page ``page_check``
  did not judge unreadable, e.g. a few math glyphs) is removed and counted: the pipeline
  warns with the pages it came from, so its loss is never silent.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from typing import Iterable

from ..model import Block, OutlineEntry

REPLACEMENT = "\ufffd"
_LIGATURES = {chr(c): unicodedata.normalize("NFKC", chr(c)) for c in range(0xFB00, 0xFB07)}
_SOFT_HYPHEN_BREAK = re.compile("\u00ad[ \t]*\r?\n[ \t]*")
_ASCII_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f]")  # carriage return included
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u00ad]")


def clean(text: str) -> str:
    """``text`` as the output carries it (see the module docstring); U+FFFD removed."""
    if text.isascii() and not _ASCII_CONTROL.search(text):
        return text  # the common case, unchanged
    text = _SOFT_HYPHEN_BREAK.sub("", text).replace("\r\n", "\n").replace("\r", "\n")
    text = _CONTROL.sub("", text).replace(REPLACEMENT, "")
    text = "".join(_LIGATURES.get(c, c) for c in text)
    return unicodedata.normalize("NFC", text)


def clean_blocks(blocks: Iterable[Block]) -> Counter:
    """Clean every block's text, and the words read inside its picture, in place; return the
    U+FFFD removed, counted per page."""
    lost: Counter = Counter()
    for block in blocks:
        lines = block.image.words if block.image is not None else []  # the words read inside a picture
        count = block.text.count(REPLACEMENT) + sum(text.count(REPLACEMENT) for _, text in lines)
        if count:
            lost[block.page] += count
        block.text = clean(block.text)
        if lines:
            block.image.words = [(box, " ".join(clean(text).split())) for box, text in lines]
            block.image.words = [(box, text) for box, text in block.image.words if text]
    return lost


def clean_entries(entries: Iterable[OutlineEntry]) -> None:
    """Bookmark and printed-TOC titles reach the output too (diagnostics)."""
    for entry in entries:
        entry.number, entry.title = clean(entry.number), clean(entry.title)


def unmapped_warning(lost: Counter) -> list[str]:
    """One warning naming the pages that lost characters without a Unicode mapping."""
    if not lost:
        return []
    pages = ", ".join(str(p) for p in sorted(p for p in lost if p is not None)) or "no page number (DOCX)"
    return [
        f"{sum(lost.values())} characters without a Unicode mapping (a font's symbols, e.g. math) "
        f"were removed on pages {pages}"
    ]
