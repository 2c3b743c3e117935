"""Heading numbers drawn as pictures beside their titles are read into the heading's text."""

import pymupdf

from clinparser.convert.number_pictures import PICTURE, number_pictures
from clinparser.model import HEADING, TEXT, Block


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
