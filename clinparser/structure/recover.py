"""Numbers that are not in the text: a heading line that carries only its title gets the number
the document's own outline (bookmarks, printed TOC) gives that title.

Some protocols draw section numbers as small images beside the heading text, or let Word
number headings automatically, or carry a heading on a scanned page: the text layer then has
"Trial Design" where the bookmarks say "2.1 Trial Design". Each such line becomes an extra
*candidate* with the outline's number; the sequence rule in ``sections`` still decides, so a
title repeated elsewhere (a synopsis sub-heading "Background") cannot jump the order.
"""

from __future__ import annotations

import statistics
from dataclasses import replace
from typing import Optional

from ..model import HEADING, PICTURE, TABLE, Block, OutlineEntry
from ..shared.numbering import DECIMAL, normalize_number, normalize_title, parse_number, spaceless_title, strip_markup
from .sections import MAX_TITLE_CHARS, Candidate, first_line, heading_weight

RECOVERED_PENALTY = 1.0  # a number read from the outline is a little less sure than one in the text
MIN_TITLE_CHARS = 4
PAGE_SLACK = 1  # a bookmark may point at the page before its heading (heading at the top)


def outline_candidates(blocks: list[Block], entries: list[OutlineEntry], found: list[Candidate]) -> list[Candidate]:
    """Candidates for title-only heading lines that match a numbered outline entry."""
    numbered = [e for e in entries if e.number and len(normalize_title(e.title)) >= MIN_TITLE_CHARS]
    if not numbered:
        return []
    offsets = {"bookmark": 0, "printed": _printed_offset(numbered, found)}
    by_title: dict[str, list[OutlineEntry]] = {}
    for e in numbered:
        by_title.setdefault(spaceless_title(e.title), []).append(e)
    has_number = {c.block for c in found}
    out: list[Candidate] = []
    for i, block in enumerate(blocks):
        if i in has_number or block.dropped or block.kind in (TABLE, PICTURE) or not _looks_like_heading(block):
            continue
        line = first_line(block)
        title = strip_markup(line)
        for e in by_title.get(spaceless_title(title), []):
            offset = offsets.get(e.source)
            if (
                offset is None
                or block.page is None
                or e.page is None
                or abs(block.page - (e.page + offset)) > PAGE_SLACK
            ):
                continue
            number = parse_number(f"{e.number} {title}")
            if number is None:
                continue
            weight = heading_weight(block, line, title, number.label, None, len(number.key)) + 5.0 - RECOVERED_PENALTY
            out.append(Candidate(i, number, title, weight, block.page, source=e.source))
    return _dedupe(out)


def outline_titled_candidates(
    blocks: list[Block], entries: list[OutlineEntry], found: list[Candidate]
) -> list[Candidate]:
    """Candidates for sub-section numbers printed alone whose title the page does not show
    (blacked out by a redaction: "8.4.7." and then a black bar), titled as the outline titles
    that number on that page. Chapters ("3." alone is more often a list marker) are left out.
    The line after a bare number may be taken for its title (``find_candidates``); this
    reading stands beside that one and the sequence rule picks."""
    numbered = [e for e in entries if e.number and normalize_title(e.title)]
    if not numbered:
        return []
    offsets = {"bookmark": 0, "printed": _printed_offset(numbered, found)}
    by_number: dict[str, list[OutlineEntry]] = {}
    for e in numbered:
        by_number.setdefault(normalize_number(e.number), []).append(e)
    out: list[Candidate] = []
    for i, block in enumerate(blocks):
        if block.dropped or block.kind in (TABLE, PICTURE) or block.page is None:
            continue
        line = first_line(block)
        number = parse_number(line)
        if number is None or number.title or number.scheme != DECIMAL or len(number.key) < 2:
            continue
        for e in by_number.get(normalize_number(number.label), []):
            offset = offsets.get(e.source)
            if offset is None or e.page is None or abs(block.page - (e.page + offset)) > PAGE_SLACK:
                continue
            titled = replace(number, title=e.title)
            weight = heading_weight(block, line, e.title, number.label, None, len(number.key)) + 5.0 - RECOVERED_PENALTY
            out.append(
                Candidate(
                    i, titled, e.title, weight, block.page, source=block.number_source or "text", title_source=e.source
                )
            )
    return _dedupe(out)


def merge(found: list[Candidate], recovered: list[Candidate]) -> list[Candidate]:
    """Both lists in block order (the order the sequence rule reads them in)."""
    return sorted(found + recovered, key=lambda c: c.block)


def _looks_like_heading(block: Block) -> bool:
    """A heading block, or a short line set wholly in bold (a heading the layout model missed)."""
    line = first_line(block).lstrip("# ").strip()
    if block.kind == HEADING:
        return True
    return line.startswith("**") and line.endswith("**") and len(line) <= MAX_TITLE_CHARS


def _printed_offset(entries: list[OutlineEntry], found: list[Candidate]) -> Optional[int]:
    """Body page minus printed page, from sections whose number is in the text (None if unknown)."""
    printed = {normalize_number(e.number): e.page for e in entries if e.source == "printed" and e.page is not None}
    diffs = [
        c.page - printed[normalize_number(c.number.label)]
        for c in found
        if c.page is not None and normalize_number(c.number.label) in printed
    ]
    return round(statistics.median(diffs)) if len(diffs) >= 3 else None


def _dedupe(cands: list[Candidate]) -> list[Candidate]:
    """One candidate per (block, number): a bookmark and a printed entry may both match."""
    seen, out = set(), []
    for c in cands:
        if (c.block, c.key) not in seen:
            seen.add((c.block, c.key))
            out.append(c)
    return out
