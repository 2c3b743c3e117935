"""Numbered list items boxed as one are cut where the text layer starts the next number."""

import pymupdf

from clinparser.convert.repairs.list_splits import split_joined_items
from clinparser.model import LIST_ITEM, Block

BODY = ("Resident in the country of the study", "Male or female subject aged 18 to 70 years at screening")


def _page(numbers=("4.1.2", "4.1.3"), second_at=108):
    """Two items with hanging numbers: the number at x=108 (the second's at ``second_at``), the
    text at x=144."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    for k, (number, text) in enumerate(zip(numbers, BODY)):
        y = 300 + 20 * k
        page.insert_text((108 if k == 0 else second_at, y), number, fontname="helv", fontsize=11)
        page.insert_text((144, y), text, fontname="helv", fontsize=11)
    return doc


def _item(numbers=("4.1.2", "4.1.3")):
    return Block(
        page=1, bbox=(100, 288, 560, 326), kind=LIST_ITEM, text=f"- {numbers[0]} {BODY[0]} {numbers[1]} {BODY[1]}"
    )


def test_two_numbered_items_in_one_box_are_cut_where_the_next_number_starts_a_line():
    block = _item()
    split_joined_items(_page(), [block])
    assert block.text == f"- 4.1.2 {BODY[0]}\n\n- 4.1.3 {BODY[1]}"
    block = _item(("9.", "10."))
    split_joined_items(_page(("9.", "10.")), [block])
    assert block.text == f"- 9. {BODY[0]}\n\n- 10. {BODY[1]}"


def test_a_number_that_is_not_the_next_or_not_at_the_items_edge_stays_in_the_text():
    block = _item(("4.1.2", "4.1.4"))  # not the next number: a cross-reference
    split_joined_items(_page(("4.1.2", "4.1.4")), [block])
    assert "\n" not in block.text
    block = _item()
    split_joined_items(_page(second_at=144), [block])  # where the text runs, not where numbers stand
    assert "\n" not in block.text
    block = _item()
    split_joined_items(_page(), [block], skip_pages={1})  # a page read by OCR: no layer to ask
    assert "\n" not in block.text
