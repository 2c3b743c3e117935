"""Each page's layout model is chosen from its text layer and drawings before any model runs:
the text-only model for plain text, the full model where the pixels carry the layout."""

import pymupdf

from clinparser.convert.engines.layout_route import FULL, TEXT_ONLY, choose

PROSE = (
    "Participants apply the cream twice a day for twelve weeks and record each application "
    "in a diary that the site reviews at every visit."
)


def _page(lines=12, **extra):
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    for k in range(lines):
        page.insert_text((72, 120 + 16 * k), PROSE[:90], fontsize=10)
    if extra.get("header_rule"):  # a ruled running header, in the top band
        page.draw_line((72, 40), (540, 40))
        page.insert_text((72, 35), "CP-001 Protocol Version 1.0", fontsize=8)
    if extra.get("grid"):  # a ruled table in the body
        for y in (400, 420, 440, 460):
            page.draw_line((72, y), (540, y))
        for x in (72, 300, 540):
            page.draw_line((x, 400), (x, 460))
    if extra.get("columns"):  # two columns of text
        for k in range(4):
            page.insert_text((72, 500 + 14 * k), "Left column words here", fontsize=10)
            page.insert_text((330, 500 + 14 * k), "Right column words here", fontsize=10)
    if extra.get("picture"):
        pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 60, 60), False)
        pix.clear_with(200)
        page.insert_image(pymupdf.Rect(72, 500, 272, 700), pixmap=pix)
    if extra.get("sideways"):
        page.insert_text((560, 600), "Table 3 continued on the next page", fontsize=10, rotate=90)
    if extra.get("numbered"):  # headings with their number before a tab: not columns
        for k in range(3):
            page.insert_text((72, 400 + 20 * k), f"5.{k + 1}", fontsize=11)
            page.insert_text((120, 400 + 20 * k), "Overall Design", fontsize=11)
    return doc, page


def test_plain_text_takes_the_text_only_model():
    doc, page = _page()
    assert choose(page) == choose(page, "auto")
    assert choose(page).model == TEXT_ONLY and choose(page).reason == "plain text"


def test_a_ruled_header_and_numbered_headings_are_still_plain_text():
    doc, page = _page(header_rule=True, numbered=True)
    assert choose(page).model == TEXT_ONLY


def test_pages_whose_pixels_carry_the_layout_take_the_full_model():
    for extra, reason in (
        ({"grid": True}, "ruled lines or filled boxes"),
        ({"columns": True}, "text side by side (columns or a table)"),
        ({"picture": True}, "a picture"),
        ({"sideways": True}, "text not running left to right"),
        ({"lines": 2}, "little text"),
    ):
        doc, page = _page(**extra)
        route = choose(page)
        assert (route.model, route.reason) == (FULL, reason), extra


def test_full_mode_reads_every_page_with_the_full_model():
    doc, page = _page()
    assert choose(page, "full").model == FULL and choose(page, "full").reason == "--layout full"
