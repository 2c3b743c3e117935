"""Put Word's automatic heading numbers (``docx_numbering``) in front of the DOCX heading blocks.

Docling's Word backend hands back items in document order but says nothing about which
paragraph each came from, so the two sequences are aligned by text (``difflib``'s longest
matching runs): every one-paragraph block (not only headings) against every paragraph,
compared on letters and digits after any leading number. Aligning whole runs, not headings
one by one, keeps a heading from matching an earlier paragraph with the same words (a
title-page line, a cross-reference), and one block docling reads differently, or a table
docling keeps whole, costs only that block.

Docling prefixes its own count to numbered headings (decimal only, counting headings alone);
that prefix is replaced by the number Word displays. A number already typed at the start of
the heading (the same label, or any multi-part decimal such as "5.4.2") is not doubled.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from typing import Optional

from ..model import CAPTION, HEADING, LIST_ITEM, TEXT, Block
from .docx_numbering import NumberedParagraph

WORD_NUMBERING = "word-numbering"  # Block.number_source of a number computed here
_ALIGNED = (HEADING, TEXT, LIST_ITEM, CAPTION)  # blocks that are one paragraph each

_LEADING_NUMBER = re.compile(r"^\d+(?:\.\d+)*\.?\s+")
_TYPED_DECIMAL = re.compile(r"^\d{1,3}(?:\.\d{1,3})+\.?(?=\s|$)")
_HASHES = re.compile(r"^#{1,6}\s*")


@dataclass
class HeadingNumbers:
    """What the alignment did, for diagnostics."""

    numbered: int = 0  # headings given Word's number
    typed_kept: int = 0  # auto-numbered headings whose text already carried a number
    unmatched: list[str] = field(default_factory=list)  # heading texts found in no paragraph

    def summary(self) -> Optional[str]:
        if not (self.numbered or self.typed_kept or self.unmatched):
            return None
        parts = [f"{self.numbered} heading numbers come from Word's automatic numbering (not in the text)"]
        if self.typed_kept:
            parts.append(f"{self.typed_kept} auto-numbered headings kept the number typed in their text")
        if self.unmatched:
            parts.append(f"{len(self.unmatched)} headings could not be matched to a Word paragraph: their numbers, if any, are the converter's")
        return "; ".join(parts)


def key(text: str) -> str:
    """Letters and digits only, lower case: what both sides surely agree on."""
    return "".join(ch for ch in text.lower() if ch.isalnum())


def number_headings(blocks: list[Block], paragraphs: list[NumberedParagraph]) -> HeadingNumbers:
    """Rewrite the heading blocks' text with Word's numbers, in place; report what was done."""
    report = HeadingNumbers()
    block_keys = {i: key(_bare(b)) for i, b in enumerate(blocks) if b.kind in _ALIGNED}
    para_keys = {j: key(_LEADING_NUMBER.sub("", p.text.strip(), count=1)) for j, p in enumerate(paragraphs)}
    block_ids = [i for i, k in block_keys.items() if k]
    para_ids = [j for j, k in para_keys.items() if k]
    matcher = SequenceMatcher(None, [block_keys[i] for i in block_ids], [para_keys[j] for j in para_ids], autojunk=False)
    source: dict[int, NumberedParagraph] = {}
    for a, b, size in matcher.get_matching_blocks():
        for k in range(size):
            source[block_ids[a + k]] = paragraphs[para_ids[b + k]]
    numbered_doc = any(p.label for p in paragraphs)
    for i, block in enumerate(blocks):
        if block.kind != HEADING:
            continue
        para = source.get(i)
        if para is not None:
            _renumber(block, para, report)
        elif numbered_doc and key(_heading_text(block)):
            report.unmatched.append(_heading_text(block))
    return report


def _heading_text(block: Block) -> str:
    return _HASHES.sub("", block.text).strip()


def _bare(block: Block) -> str:
    """A block's text as the paragraph holds it, less any leading number (the converter's
    count, a list marker, or one typed in the text: the same on both sides)."""
    text = _heading_text(block) if block.kind == HEADING else block.text.strip()
    if block.kind == LIST_ITEM:
        text = text.split(" ", 1)[1] if " " in text else ""
    return _LEADING_NUMBER.sub("", text, count=1)


def _renumber(block: Block, para: NumberedParagraph, report: HeadingNumbers) -> None:
    text = _heading_text(block)
    rest = _without_converter_count(text, para.text)
    if rest is None:
        report.unmatched.append(text)
        return
    label = para.label
    if not label:
        block.text = f"## {rest}"  # Word shows no number: drop any count the converter invented
    elif _typed_number(rest, label):
        report.typed_kept += 1
        block.text = f"## {rest}"
    else:
        block.text = f"## {label} {rest}"
        block.number_source = WORD_NUMBERING
        report.numbered += 1


def _without_converter_count(text: str, paragraph: str) -> Optional[str]:
    """The heading text less the count docling puts before a numbered heading; None when
    the text differs from the paragraph's in more than that."""
    if key(text) == key(paragraph):
        return text
    bare = _LEADING_NUMBER.sub("", text, count=1)
    return bare if key(bare) == key(paragraph) else None


def _typed_number(text: str, label: str) -> bool:
    """Does the heading text already open with a section number?"""
    text, label = text.lstrip(), label.rstrip(".:")
    if text.lower().startswith(label.lower()) and not text[len(label) : len(label) + 1].isalnum():
        return True
    return bool(_TYPED_DECIMAL.match(text))
