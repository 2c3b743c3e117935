"""Bundled documents: where the main protocol ends and another document begins.

A PDF may hold more than the protocol: amendments or summaries of changes appended after it,
each with its own title page, its own table of contents and its own "1 Introduction / 2
Changes" numbering; or a wrapper (a clinical study report appendix "16.1.1 Protocol") around
it. One numbering chain over the whole file would weave through all of them. So:

1. Each printed table of contents opens a *part* (from its title page, the page before it
   when that page holds no numbered heading). A part is a document only if its numbering
   *restarts*: parts whose chains continue each other (a protocol summary numbered 1 printed
   before the TOC, chapter 2 after it) are one document.
2. In each part the sequence rule (``sections.choose_sections``) picks the chain.
3. The main protocol is the part with the most sections; every other part is a bundled
   document, kept whole in ``non_toc`` with its own headings nested inside it.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..model import HEADING, Block
from ..shared.numbering import strip_markup
from .sections import HEADING_LIKE, Candidate, Choice, choose_sections, first_line

MAX_TITLE_WORDS = 6  # a short bold line under a title page's heading ("no 3") belongs to the title


@dataclass
class Bundled:
    """A document bundled with the protocol: blocks [start, end), its title and its sections."""

    title: str
    start: int
    end: int
    sections: list[Candidate]


@dataclass
class _Part:
    start: int
    end: int
    cands: list[Candidate]
    choice: Choice


def split_documents(blocks: list[Block], cands: list[Candidate], toc_starts: list[int]) -> tuple[Choice, list[Bundled]]:
    """The main protocol's sections, and the other documents of the file."""
    bounds = _part_starts(blocks, cands, toc_starts)
    if not bounds:
        return choose_sections(cands), []
    edges = [0, *bounds, len(blocks)]
    parts: list[_Part] = []
    for start, end in zip(edges, edges[1:]):
        inside = [c for c in cands if start <= c.block < end]
        part = _Part(start, end, inside, choose_sections(inside))
        if parts and _continues(parts[-1], part):
            merged = parts[-1].cands + inside
            parts[-1] = _Part(parts[-1].start, end, merged, choose_sections(merged))
        else:
            parts.append(part)
    if len(parts) == 1:
        return parts[0].choice, []
    main = max(parts, key=lambda p: (len(p.choice.sections), -p.start))
    documents = [
        Bundled(_title(blocks, p), p.start, p.end, p.choice.sections)
        for p in parts
        if p is not main and p.choice.sections
    ]
    # Parts without numbered sections (a cover page, a signature packet) stay as they are:
    # their blocks fall into front or back matter as in a single document.
    return main.choice, documents


def _part_starts(blocks: list[Block], cands: list[Candidate], toc_starts: list[int]) -> list[int]:
    """First block of each part opened by a printed TOC, moved back over its title page."""
    pages_with_headings = {c.page for c in cands if c.weight >= HEADING_LIKE}
    first_block: dict[int, int] = {}
    for i, b in enumerate(blocks):
        if b.page is not None:
            first_block.setdefault(b.page, i)
    starts = []
    for page in toc_starts:
        if page - 1 in first_block and page - 1 not in pages_with_headings:
            page -= 1  # the document's title page
        if page in first_block and first_block[page] > 0:
            starts.append(first_block[page])
    return sorted(set(starts))


def _continues(before: _Part, after: _Part) -> bool:
    """Does ``after``'s numbering go on from ``before``'s (one document), rather than restart?"""
    a, b = before.choice.sections, after.choice.sections
    if not _opens_a_document(a) or not _opens_a_document(b):
        return True  # no evidence of two documents (a synopsis' numbered criteria are not one)
    both = choose_sections(a + b)
    return len(both.sections) == len(a) + len(b)


def _opens_a_document(sections: list[Candidate]) -> bool:
    """A restarted numbering that looks like a document's: it starts at the first chapter,
    has headings, and numbers on two levels at least. A contents page inside an appendix
    followed by a flat list of numbered items (a questionnaire) does not open a document."""
    if not sections or sections[0].key not in ((1,), (0, 1)):
        return False
    return sum(c.weight >= HEADING_LIKE for c in sections) >= 2 and any(len(c.key) >= 2 for c in sections)


def _title(blocks: list[Block], part: _Part) -> str:
    """The first heading of the part (its title page), with a short line under it ("no 3")."""
    first_section = part.choice.sections[0].block if part.choice.sections else part.end
    for i in range(part.start, first_section):
        block = blocks[i]
        if block.dropped or block.kind != HEADING:
            continue
        title = strip_markup(first_line(block))
        nxt = next((b for b in blocks[i + 1 : first_section] if not b.dropped), None)
        if nxt is not None and nxt.kind != HEADING and len(strip_markup(first_line(nxt)).split()) <= MAX_TITLE_WORDS:
            title = f"{title} {strip_markup(first_line(nxt))}"
        if title:
            return title[:200]
    return strip_markup(first_line(blocks[first_section]))[:200] if first_section < len(blocks) else "Bundled document"
