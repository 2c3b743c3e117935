"""A list's lead-in sentence boxed as the list's first item is a paragraph; printed items stay."""

import pymupdf

from clinparser.convert.repairs.list_leads import unmark_lead_ins
from clinparser.model import LIST_ITEM, TEXT, Block

LEAD = "Key secondary endpoints of this trial are:"
ITEMS = ["Time to first decrease from baseline within 12 hours.", "Time to resolution within 24 hours."]


def _page(lead_marker: str = "", drawn_bullets: bool = True, lead_x: float = 54):
    """A lead-in at ``lead_x`` (with ``lead_marker`` printed before it, if any), then two items
    whose bullets are drawn circles at x=60 and whose text starts at x=90."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((lead_x, 100), f"{lead_marker} {LEAD}".strip(), fontname="helv", fontsize=11)
    for k, item in enumerate(ITEMS):
        y = 130 + 30 * k
        if drawn_bullets:
            page.draw_circle((62, y - 4), 2, color=(0, 0, 0), fill=(0, 0, 0))
        page.insert_text((90, y), item, fontname="helv", fontsize=11)
    return doc


def _blocks(lead_box=(54, 88, 300, 104)):
    return [
        Block(page=1, bbox=lead_box, kind=LIST_ITEM, text=f"- {LEAD}"),
        Block(page=1, bbox=(54, 118, 560, 134), kind=LIST_ITEM, text=f"- {ITEMS[0]}"),
        Block(page=1, bbox=(54, 148, 560, 164), kind=LIST_ITEM, text=f"- {ITEMS[1]}"),
    ]


def test_an_unmarked_lead_in_boxed_as_an_item_is_a_paragraph_and_the_items_stay():
    blocks = _blocks()
    unmark_lead_ins(_page(), blocks)
    assert [(b.kind, b.text) for b in blocks] == [
        (TEXT, LEAD),
        (LIST_ITEM, f"- {ITEMS[0]}"),
        (LIST_ITEM, f"- {ITEMS[1]}"),
    ]


def test_an_item_with_a_printed_marker_stays_an_item():
    for marker in ("\u2022", "\u2212", "1.", "(a)", "[16b]", "4.1.2", "-"):
        blocks = _blocks()
        unmark_lead_ins(_page(lead_marker=marker), blocks)
        assert blocks[0].kind == LIST_ITEM, marker


def test_an_item_whose_bullet_is_drawn_in_front_of_it_stays_an_item():
    # The bullet drawn at x=60, outside the item's box, which starts at the text (x=72).
    doc = _page(lead_x=72)
    blocks = _blocks(lead_box=(72, 88, 320, 104))
    unmark_lead_ins(doc, blocks)
    assert blocks[0].kind == TEXT  # nothing drawn in front of it yet
    doc[0].draw_circle((62, 96), 2, color=(0, 0, 0), fill=(0, 0, 0))
    blocks = _blocks(lead_box=(72, 88, 320, 104))
    unmark_lead_ins(doc, blocks)
    assert blocks[0].kind == LIST_ITEM


def test_only_a_line_ending_in_a_colon_before_an_item_and_not_on_a_page_read_by_ocr():
    blocks = _blocks()
    blocks[0].text = "- Key secondary endpoints of this trial are listed below."
    unmark_lead_ins(_page(), blocks)
    assert blocks[0].kind == LIST_ITEM
    blocks = _blocks()[:1] + [Block(page=1, bbox=(54, 118, 560, 134), kind=TEXT, text=ITEMS[0])]
    unmark_lead_ins(_page(), blocks)
    assert blocks[0].kind == LIST_ITEM
    blocks = _blocks()
    unmark_lead_ins(_page(), blocks, skip_pages={1})
    assert blocks[0].kind == LIST_ITEM
