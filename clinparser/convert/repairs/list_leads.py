"""A list's lead-in sentence the layout model boxed as the list's first item.

"Key secondary endpoints of this trial are:" printed flush with the body text, with bulleted
items under it, can come back from the layout model as a list item. pymupdf4llm writes every
list item with a "- " in front, printed marker or not, so the sentence reads as one more item,
and a reader of the list (the study definition's endpoints) takes it for one. The page's text
layer shows what was printed: a list item has a marker, either as its first word (a bullet
glyph, "1.", "(a)") or set in front of its text (a drawn bullet, or a glyph the layout box holds
left of the text). A "list item" ending in a colon, with no marker printed, in front of a list
item, is the list's lead-in: a paragraph.
"""

from __future__ import annotations

import re

from ...model import LIST_ITEM, TEXT, Block

# A printed marker as a line's first word: a glyph on its own ("•", "−", "○", a Symbol or
# Wingdings bullet, which map into the private use area), a bullet glued to the text, or a
# number or letter with its punctuation ("1.", "a)", "(iv)", "[16b]", "4.1.2").
_MARKER = re.compile(
    r"^(?:[^\w\s]{1,3}(?:\s|$)"
    r"|[\u2022\u00b7\u25aa\u25cf\u25cb\u25a0\u25a1\u2023\u2043\u2219\u2212\u2013\u27a2\u2713\u2714\uf000-\uf8ff\ue000-\uefff]"
    r"|[(\[]?(?:\d{1,3}(?:\.\d{1,3})*[a-z]?|[a-zA-Z]|[ivxlcIVXLC]{1,6})[.):\]](?:\s|$)"
    r"|\d{1,3}(?:\.\d{1,3})+(?:\s|$)"
    r"|o(?:\s|$))"
)
FLUSH = 3.0  # points: text starting this close to its box's left edge has nothing printed before it
REACH = 40.0  # points left of the text where a drawn bullet would stand


def unmark_lead_ins(doc, blocks: list[Block], skip_pages: set = frozenset()) -> None:
    """Turn each list item that is a list's unmarked lead-in sentence into a paragraph, in place
    (see the module docstring). Pages in ``skip_pages`` (read by OCR) have no text layer to ask."""
    for k, block in enumerate(blocks):
        if not _candidate(block, blocks[k + 1 :]) or block.page in skip_pages:
            continue
        if not _marked(doc[block.page - 1], block.bbox):
            block.kind = TEXT
            block.text = re.sub(r"^-\s+", "", block.text.lstrip(), count=1)


def _candidate(block: Block, after: list[Block]) -> bool:
    if block.kind != LIST_ITEM or block.dropped or not block.bbox or block.page is None:
        return False
    if "\n" in block.text.strip() or not block.text.rstrip().rstrip("*_").endswith(":"):
        return False
    nxt = next((b for b in after if not b.dropped), None)
    return nxt is not None and nxt.page == block.page and nxt.kind == LIST_ITEM


def _marked(page, bbox) -> bool:
    """Does the page print a list marker on the first line inside ``bbox``?"""
    import pymupdf

    words = page.get_text("words", clip=pymupdf.Rect(bbox) + (-1, -1, 1, 1), sort=True)
    if not words:
        return True  # nothing to go by: leave the model's reading
    x0, y0, _, y1, first = words[0][:5]
    if _MARKER.match(first) or x0 - bbox[0] > FLUSH:
        return True
    left = pymupdf.Rect(x0 - REACH, y0, x0, y1)
    if any(pymupdf.Rect(d["rect"]).intersects(left) for d in page.get_drawings()):
        return True
    return any(pymupdf.Rect(i["bbox"]).intersects(left) for i in page.get_image_info())
