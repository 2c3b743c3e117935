"""Write Word's automatic numbers (``docx_numbering``) into the blocks docling made of a DOCX.

Docling's Word backend hands back items in document order but says nothing about which
paragraph each came from, so the two sequences are aligned by text (``difflib``'s longest
matching runs): every one-paragraph block (not only headings) against every paragraph,
compared on letters and digits after any leading numbers. Aligning whole runs, not headings
one by one, keeps a heading from matching an earlier paragraph with the same words (a
title-page line, a cross-reference), and a block docling reads differently, or a table docling
keeps whole, costs only that block.

Then, for each block matched to a paragraph Word numbers:

- a heading gets Word's number in place of the count docling puts before numbered headings
  (decimal, headings only: it ignores start values, overrides, formats and numbered body
  paragraphs on the same list);
- a list item gets Word's number in place of docling's marker (docling counts per list
  instance, so "1.d.1." can stand where Word shows "1.");
- a list item or text block whose paragraph has an outline level (a heading for Word's
  navigation pane and TOC, e.g. a custom appendix heading style) becomes a heading;
- a number already typed at the start of a heading (the same label, or a multi-part decimal
  such as "5.4.2") is not doubled.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from typing import Optional

from ...model import CAPTION, HEADING, LIST_ITEM, TEXT, Block
from .docx_numbering import NumberedParagraph

WORD_NUMBERING = "word-numbering"  # Block.number_source of a number written here
_ALIGNED = (HEADING, TEXT, LIST_ITEM, CAPTION)  # blocks that are one paragraph each
MAX_REPEATS = 50

_LEADING_NUMBER = re.compile(r"^\d+(?:\.\d+)*\.?\s+")
_LEADING_NUMBERS = re.compile(r"^(?:\d+(?:\.\d+)*\.?\s+)+")
_TYPED_DECIMAL = re.compile(r"^\d{1,3}(?:\.\d{1,3})+\.?(?=\s|$)")


@dataclass
class WordNumbers:
    """What was written, for diagnostics."""

    headings: int = 0  # headings given Word's number
    list_items: int = 0  # list items given Word's number in place of the converter's marker
    typed_kept: int = 0  # auto-numbered paragraphs whose text already carried the number
    unmatched: list[str] = field(default_factory=list)  # headings found in no paragraph

    def summary(self) -> Optional[str]:
        if not (self.headings or self.list_items or self.typed_kept or self.unmatched):
            return None
        parts = [f"{self.headings} heading numbers come from Word's automatic numbering (not in the text)"]
        if self.list_items:
            parts.append(f"{self.list_items} list items numbered as Word shows them, not as the converter counted")
        if self.typed_kept:
            parts.append(f"{self.typed_kept} auto-numbered paragraphs kept the number typed in their text")
        if self.unmatched:
            names = ", ".join(repr(t[:60]) for t in self.unmatched[:5]) + (" ..." if len(self.unmatched) > 5 else "")
            parts.append(
                f"{len(self.unmatched)} headings could not be matched to a Word paragraph, "
                f"their numbers (if any) are the converter's: {names}"
            )
        return "; ".join(parts)


def key(text: str) -> str:
    """Letters and digits only, lower case: what both sides surely agree on."""
    return "".join(ch for ch in text.lower() if ch.isalnum())


def apply_word_numbers(blocks: list[Block], texts: list[str], paragraphs: list[NumberedParagraph]) -> WordNumbers:
    """Rewrite the blocks' numbers with Word's, in place; report what was done.

    ``texts[i]`` is the converter's own text of ``blocks[i]``: no Markdown, no list marker.
    """
    report = WordNumbers()
    source = align(blocks, texts, paragraphs)
    numbered_doc = any(p.label for p in paragraphs)
    for i, block in enumerate(blocks):
        para = source.get(i)
        if para is None:
            if block.kind == HEADING and numbered_doc and key(texts[i]):
                report.unmatched.append(texts[i].strip())
        elif block.kind == HEADING:
            _number_heading(block, texts[i], para, report)
        elif block.kind in (LIST_ITEM, TEXT) and para.label:
            text = _mark_superscript(texts[i].strip(), para.trailing_superscript) if para.heading else texts[i].strip()
            _write(block, para, text, report, heading=para.heading)
    return report


def align(blocks: list[Block], texts: list[str], paragraphs: list[NumberedParagraph]) -> dict[int, NumberedParagraph]:
    """{block index: the paragraph it came from} for the blocks that could be placed."""
    block_keys = {i: _key(texts[i]) for i, b in enumerate(blocks) if b.kind in _ALIGNED}
    para_keys = {j: _key(p.text) for j, p in enumerate(paragraphs)}
    block_ids = [i for i, k in block_keys.items() if k]
    para_ids = [j for j, k in para_keys.items() if k]
    b = [para_keys[j] for j in para_ids]
    counts = Counter(b)
    # A text repeated very often ("Yes" in form tables) only extends matches, never starts
    # one: that keeps the matcher fast and keeps it from pairing far-apart repeats.
    matcher = SequenceMatcher(lambda k: counts[k] > MAX_REPEATS, [block_keys[i] for i in block_ids], b, autojunk=False)
    source = {}
    for a, b, size in matcher.get_matching_blocks():
        for k in range(size):
            source[block_ids[a + k]] = paragraphs[para_ids[b + k]]
    return source


def _key(text: str) -> str:
    """The alignment key: leading numbers (the converter's count, one typed in the text)
    stripped the same way on both sides."""
    return key(_LEADING_NUMBERS.sub("", text.strip()))


def _number_heading(block: Block, text: str, para: NumberedParagraph, report: WordNumbers) -> None:
    text = text.strip()
    rest = _without_converter_count(text, para.text)
    if rest is None:
        report.unmatched.append(text)
        return
    rest = _mark_superscript(rest, para.trailing_superscript)
    if not para.label:
        block.text = f"## {rest}"  # Word shows no number: drop any count the converter invented
    else:
        _write(block, para, rest, report, heading=True)


def _write(block: Block, para: NumberedParagraph, text: str, report: WordNumbers, heading: bool) -> None:
    typed = heading and _typed_number(text, para.label)  # "1. 1 mg daily" is a list item's own text
    line = text if typed else f"{para.label} {text}"
    if heading:
        block.kind, block.text = HEADING, f"## {line}"
    else:
        block.text = line
    if typed:
        report.typed_kept += 1
        return
    block.number_source = WORD_NUMBERING
    if heading:
        report.headings += 1
    else:
        report.list_items += 1


def _mark_superscript(text: str, mark: str) -> str:
    """Give back the superscript the converter flattened at the end of a heading
    ("Ibrutinib68" -> "Ibrutinib<sup>68</sup>"), so a citation is never read as title."""
    if mark and text.endswith(mark) and len(text) > len(mark):
        return f"{text[: -len(mark)].rstrip()}<sup>{mark}</sup>"
    return text


def _without_converter_count(text: str, paragraph: str) -> Optional[str]:
    """The heading text less the count docling puts before a numbered heading; None when
    the text differs from the paragraph's in more than that."""
    if key(text) == key(paragraph):
        return text
    bare = _LEADING_NUMBER.sub("", text, count=1)
    return bare if key(bare) == key(paragraph) else None


def _typed_number(text: str, label: str) -> bool:
    """Does the text already open with a section number?"""
    text, label = text.lstrip(), label.rstrip(".:)")
    if text.lower().startswith(label.lower()) and not text[len(label) : len(label) + 1].isalnum():
        return True
    return bool(_TYPED_DECIMAL.match(text))
