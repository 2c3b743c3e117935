"""Where a study item was printed: the pages and boxes of the blocks its words came from.

Every reader in this package cuts its items out of section text, which the assemble stage joined
from layout blocks; the same words, in the same order, are in ``blocks.json``. An item is traced
by finding its opening words in the run of words of the kept blocks (inside the section's pages
when known) and following the run for as many words as the item has.
"""

from __future__ import annotations

import bisect
import re
from typing import Iterable, Optional

_WORD = re.compile(r"[a-z0-9]+")
# The converter's HTML inside block text (a table cell's <br>, <sup>): markup, not words.
_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9]*(?:\s[^<>]*)?/?>")
OPENING = 8  # words of an item that must be found in a row to place it


def words(text: str) -> list[str]:
    return _WORD.findall(_TAG.sub(" ", text or "").lower())


class Tracer:
    """Finds items' source blocks in one document's blocks (dicts as in ``blocks.json``)."""

    def __init__(self, blocks: Iterable[dict]):
        self._words: list[str] = []
        self._owner: list[int] = []  # index into self._blocks of each word
        self._blocks: list[dict] = []
        self._pictures: list[dict] = []  # pictures with the lines read in them (their words may be in no text)
        self._furniture: list[dict] = []  # running headers and footers, dropped from the text
        for block in blocks:
            if block.get("dropped") == "furniture" and block.get("page") is not None:
                self._furniture.append(block)
            if block.get("dropped") or block.get("page") is None:
                continue
            if block.get("picture_text"):
                self._pictures.append(block)
            found = words(block.get("text", ""))
            if not found:
                continue
            self._owner.extend([len(self._blocks)] * len(found))
            self._words.extend(found)
            self._blocks.append(block)
        self._pages = [b["page"] for b in self._blocks]
        # The words joined with a space, and where each word starts, for a plain substring search.
        self._starts: list[int] = []
        pos = 0
        for w in self._words:
            self._starts.append(pos)
            pos += len(w) + 1
        self._text = " ".join(self._words)

    def running_lines(self, last_page: int = 3) -> list[dict]:
        """The running headers and footers of the first pages (``{"page", "text", ...}`` blocks,
        dropped from the text as furniture): where some protocols alone print what the document
        is ("Protocol Amendment 7")."""
        return [b for b in self._furniture if b["page"] <= last_page]

    def blocks_on(self, pages: Iterable[int]) -> list[dict]:
        """The kept blocks (not dropped, with words) printed on ``pages``, in reading order."""
        wanted = set(pages)
        return [b for b in self._blocks if b["page"] in wanted]

    def picture_lines(self, page: int, bbox) -> list[dict]:
        """The lines read in the picture at ``bbox`` on ``page`` (``{"bbox", "text"}``, page
        points), as ``blocks.json`` keeps them; [] when no such picture was read."""
        for block in self._pictures:
            box = block.get("bbox") or []
            if block["page"] == page and len(box) == 4 and all(abs(a - b) <= 2 for a, b in zip(box, bbox)):
                return block["picture_text"].get("lines") or []
        return []

    def trace(self, text: str, first_page: Optional[int] = None, last_page: Optional[int] = None) -> dict:
        """``{"pages": [...], "boxes": [{"page", "bbox"}, ...]}`` of ``text``'s source; both empty
        when its opening words are not found (never a guess)."""
        target = words(text)
        if not target:
            return {"pages": [], "boxes": []}
        start = self._find(target[: min(OPENING, len(target))], first_page, last_page)
        if start is None:
            return {"pages": [], "boxes": []}
        end = min(start + len(target), len(self._words))
        owners = sorted(set(self._owner[start:end]))
        boxes = [{"page": self._blocks[i]["page"], "bbox": self._blocks[i].get("bbox")} for i in owners]
        return {"pages": sorted({b["page"] for b in boxes}), "boxes": boxes}

    def _find(self, opening: list[str], first_page: Optional[int], last_page: Optional[int]) -> Optional[int]:
        needle = " ".join(opening)
        lo = 0
        if first_page is not None:
            first_block = bisect.bisect_left(self._pages, first_page)
            lo = self._owner.index(first_block) if first_block < len(self._blocks) else len(self._words)
        at = self._starts[lo] if lo < len(self._starts) else len(self._text)
        while True:
            hit = self._text.find(needle, at)
            if hit < 0:
                return None
            # Only a hit on word boundaries counts ("on" must not match inside "one").
            index = bisect.bisect_left(self._starts, hit)
            if (
                index < len(self._starts)
                and self._starts[index] == hit
                and self._text[hit + len(needle) : hit + len(needle) + 1] in ("", " ")
            ):
                page = self._blocks[self._owner[index]]["page"]
                if last_page is not None and page > last_page:
                    return None
                return index
            at = hit + 1
