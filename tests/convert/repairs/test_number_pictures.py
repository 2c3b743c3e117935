"""Heading numbers drawn as pictures beside their titles are read into the heading's text."""

import pymupdf

from clinparser.convert.repairs.number_pictures import PICTURE, SEQUENCE, UNREAD, number_from_sequence, number_pictures
from clinparser.model import HEADING, LIST_ITEM, TEXT, Block


def _number_png(text: str) -> bytes:
    doc = pymupdf.open()
    page = doc.new_page(width=8 * len(text) + 4, height=15)
    page.insert_text((1, 12), text, fontsize=12, fontname="hebo")
    return page.get_pixmap(dpi=300).tobytes("png")


def _page(number: str, gap: float = 6):
    doc = pymupdf.open()
    page = doc.new_page(width=400, height=300)
    width = 8 * len(number) + 4
    page.insert_image(pymupdf.Rect(72, 100, 72 + width * 0.75, 112), stream=_number_png(number))
    x = 72 + width * 0.75 + gap
    page.insert_text((x, 110), "Overall Design", fontsize=12, fontname="hebo")
    heading = Block(1, (x, 100, x + 90, 113), HEADING, "### **Overall Design**")
    body = Block(1, (72, 130, 300, 142), TEXT, "Each child applies the cream.")
    return doc, page, [heading, body]


def test_a_number_drawn_beside_a_heading_is_written_into_it():
    doc, page, blocks = _page("2.1.1")
    assert number_pictures(page, blocks) == 1
    assert blocks[0].text == "### **2.1.1 Overall Design**" and blocks[0].number_source == PICTURE
    assert blocks[1].text == "Each child applies the cream." and blocks[1].number_source == ""


def test_a_picture_that_is_no_number_is_left_alone():
    doc, page, blocks = _page("Go")
    assert number_pictures(page, blocks) == 0
    assert blocks[0].text == "### **Overall Design**"


def test_a_picture_far_from_the_text_numbers_nothing():
    doc, page, blocks = _page("2.1", gap=60)
    assert number_pictures(page, blocks) == 0


def test_a_heading_already_printing_its_number_is_not_numbered_twice():
    doc, page, blocks = _page("2.1")
    blocks[0].text = "### **2.1 Overall Design**"
    assert number_pictures(page, blocks) == 0
    assert blocks[0].text == "### **2.1 Overall Design**"


def test_a_number_picture_ocr_cannot_read_beside_a_title_is_marked_unread():
    doc, page, blocks = _page("Go")  # a picture there, but no number in it
    number_pictures(page, blocks)
    assert blocks[0].number_source == UNREAD and blocks[0].number_x == 72
    assert blocks[1].number_source == ""  # the paragraph below has no picture beside it


def test_a_bullet_picture_beside_a_sentence_is_not_an_unread_number():
    doc, page, blocks = _page("Go")
    blocks[0] = Block(1, blocks[0].bbox, LIST_ITEM, "- apply the cream twice a day.")
    number_pictures(page, blocks)
    assert blocks[0].number_source == ""


def _heading(title: str, x: float, number: str = "") -> Block:
    block = Block(1, (x + 30, 0, 300, 12), HEADING, f"## **{number + ' ' if number else ''}{title}**")
    block.number_source, block.number_x = (PICTURE if number else UNREAD), x
    return block


def test_an_unread_number_follows_from_the_numbers_read_at_its_indent():
    blocks = [
        _heading("Design", 72, "5"),
        _heading("Overall Design", 90, "5.1"),
        _heading("Rationale", 90),  # unread: depth 2 at x=90, after 5.1
        _heading("Doses", 108),  # unread: depth 3 at x=108 (from 5.2.2 below), first under 5.2
        _heading("Dose Rationale", 108, "5.2.2"),
        _heading("End of Study", 90),  # depth 2 after 5.2.2: 5.3, and 6 may follow it
        _heading("Population", 72, "6"),
    ]
    assert number_from_sequence(blocks) == 3
    assert [b.text for b in blocks[2:4]] == ["## **5.2 Rationale**", "## **5.2.1 Doses**"]
    assert blocks[5].text == "## **5.3 End of Study**"
    assert {blocks[k].number_source for k in (2, 3, 5)} == {SEQUENCE}


def test_an_unread_number_the_next_one_contradicts_is_left_unnumbered():
    blocks = [_heading("Design", 90, "2.1"), _heading("Rationale", 90), _heading("Doses", 90, "2.2")]
    assert number_from_sequence(blocks) == 0
    assert blocks[1].text == "## **Rationale**" and blocks[1].number_source == ""


def test_an_unread_number_at_an_indent_with_no_number_read_is_left_unnumbered():
    blocks = [_heading("Design", 72, "2"), _heading("Rationale", 140), _heading("Doses", 72, "3")]
    assert number_from_sequence(blocks) == 0 and blocks[1].number_source == ""


def _grey_jpeg_number(text: str, height_px: int) -> bytes:
    """A number as some templates embed it: a greyscale JPEG ``height_px`` pixels high."""
    doc = pymupdf.open()
    page = doc.new_page(width=7 * len(text) + 4, height=15)
    page.insert_text((1, 12), text, fontsize=12, fontname="hebo")
    return page.get_pixmap(dpi=round(72 * height_px / 15), colorspace=pymupdf.csGRAY).tobytes("jpg", jpg_quality=70)


def test_level_three_numbers_as_small_grey_jpegs_are_all_read():
    # 45 numbers of a document's level-3 headings, each a JPEG of about 50 x 16 pixels beside its
    # title (whole-picture OCR, detection first, found 2 of 45 such): the recognizer alone, on the
    # number's render, reads every one
    numbers = [f"{a}.{b}.{c}" for a in (3, 6, 9, 10, 12) for b in (1, 4, 8) for c in (1, 2, 7)]
    doc = pymupdf.open()
    page = doc.new_page(width=400, height=60 + 18 * len(numbers))
    blocks = []
    for k, number in enumerate(numbers):
        width = 7 * len(number) + 4
        y = 30 + 18 * k
        page.insert_image(pymupdf.Rect(72, y, 72 + width * 0.75, y + 11.25), stream=_grey_jpeg_number(number, 16))
        x = 72 + width * 0.75 + 6
        page.insert_text((x, y + 10), f"Heading {k}", fontsize=12, fontname="hebo")
        blocks.append(Block(1, (x, y, x + 90, y + 13), HEADING, f"#### **Heading {k}**"))
    assert number_pictures(page, blocks) == len(numbers)
    assert [b.text for b in blocks] == [f"#### **{n} Heading {k}**" for k, n in enumerate(numbers)]
