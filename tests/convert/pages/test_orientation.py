from __future__ import annotations

import pymupdf
import pytest

from clinparser.convert.pages.orientation import sideways_turn, upright_all

LINES = [f"Visit {k}: vital signs, ECG and laboratory tests at week {2 * k}" for k in range(1, 8)]


def _pdf(rotate: int) -> pymupdf.Document:
    """Page 1 upright; page 2 a portrait page with its text printed sideways (``rotate``)."""
    doc = pymupdf.open()
    upright_page = doc.new_page(width=612, height=792)
    for k, line in enumerate(LINES):
        upright_page.insert_text((72, 100 + 20 * k), line)
    page = doc.new_page(width=612, height=792)
    for k, line in enumerate(LINES):
        point = (100 + 20 * k, 700) if rotate == 90 else (500 - 20 * k, 100)
        page.insert_text(point, line, rotate=rotate)
    return pymupdf.open("pdf", doc.tobytes())


@pytest.mark.parametrize("rotate", [90, 270])
def test_a_page_printed_sideways_is_turned_to_read_left_to_right(rotate):
    doc = _pdf(rotate)
    assert sideways_turn(doc[0]) == 0 and sideways_turn(doc[1]) != 0
    assert upright_all(doc) == [2]
    page = doc[1]
    assert (page.rect.width, page.rect.height) == (792, 612) and sideways_turn(page) == 0
    text = page.get_text()
    assert all(line in text for line in LINES)
    # Read top to bottom in the order printed.
    assert text.index(LINES[0]) < text.index(LINES[-1])


def test_a_page_with_little_text_is_left_as_it_is():
    doc = pymupdf.open()
    doc.new_page(width=612, height=792).insert_text((100, 700), "Page 3", rotate=90)
    assert upright_all(doc) == []
