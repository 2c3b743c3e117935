"""How far to trust the section tree: one summary a user can act on.

The document's own outlines (bookmarks, printed TOC) are an independent witness: the share
of their numbered entries the tree found says whether the body was read right. Beside it:
how many numbers came from the outline rather than the text (drawn as images, automatic
numbering), numbering irregularities, and the documents bundled with the protocol.
"""

from __future__ import annotations

from .model import Block, OutlineEntry
from .shared.numbering import normalize_number
from .structure.bundles import Bundled
from .structure.sections import Choice

TRUSTED_SHARE = 0.95  # below this share of outline entries found, the tree needs a look
IRREGULAR_SHARE = 0.02  # more numbered headings left out of order / duplicated than this: look


def summarize(choice: Choice, entries: list[OutlineEntry], documents: list[Bundled], blocks: list[Block]) -> dict:
    # A bundled document's TOC lists its own headings: found there counts as found.
    every = choice.sections + [c for d in documents for c in d.sections]
    found = {normalize_number(c.number.label) for c in every}
    outlines = {}
    for source in ("bookmark", "printed"):
        numbers = {normalize_number(e.number) for e in entries if e.source == source and e.number}
        if numbers:
            hit = len(numbers & found)
            outlines[source] = {"entries": len(numbers), "found_in_body": hit, "share": round(hit / len(numbers), 3)}
    from_outline: dict[str, int] = {}
    for c in choice.sections:
        from_outline[c.source] = from_outline.get(c.source, 0) + 1
    irregular = len(choice.gaps) + len(choice.missing_parents) + len(choice.duplicates) + len(choice.out_of_order)
    return {
        "sections": len(choice.sections),
        "numbers_from": dict(sorted(from_outline.items())),
        "outline_entries_found": outlines,
        "numbering_irregularities": irregular,
        "bundled_documents": [_document(d, blocks) for d in documents],
        "verdict": _verdict(choice, outlines),
    }


def _document(d: Bundled, blocks: list[Block]) -> dict:
    pages = [b.page for b in blocks[d.start : d.end] if b.page is not None]
    return {"title": d.title, "pages": [min(pages), max(pages)] if pages else [None, None], "sections": len(d.sections)}


def _verdict(choice: Choice, outlines: dict) -> str:
    """ "ok", or "check: <why>" naming the first reason to look at the tree by hand."""
    if not choice.sections:
        return "check: no numbered sections found"
    if not outlines:
        return "unverified: no numbered bookmarks or printed TOC to check the tree against"
    for source, o in sorted(outlines.items()):
        if o["share"] < TRUSTED_SHARE:
            return f"check: only {o['found_in_body']} of {o['entries']} {source} entries found in the body"
    stray = len(choice.out_of_order) + len(choice.duplicates)
    if stray > max(1, IRREGULAR_SHARE * len(choice.sections)):
        return f"check: {stray} numbered headings out of order or duplicated (see out_of_order, duplicate_numbers)"
    return "ok"
