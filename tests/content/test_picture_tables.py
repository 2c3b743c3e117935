"""A table printed as a picture is read back by its rules and OCR (the bundled RapidOCR)."""

import pymupdf

from clinparser.content.picture_tables import table_from_picture


def _picture(rows, ruled=True) -> bytes:
    doc = pymupdf.open()
    page = doc.new_page(width=420, height=220)
    xs, top, h = [10, 170, 250, 330, 410], 10, 30
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            page.insert_text((xs[c] + 6, top + r * h + 20), text, fontsize=12)
    if ruled:
        for r in range(len(rows) + 1):
            page.draw_line((xs[0], top + r * h), (xs[-1], top + r * h), width=1.5)
        for x in xs:
            page.draw_line((x, top), (x, top + len(rows) * h), width=1.5)
    page.insert_text((12, top + len(rows) * h + 22), "X = performed at this visit", fontsize=11)
    return page.get_pixmap(dpi=150).tobytes("png")


ROWS = [["Visit", "1", "2", "3"], ["Week", "0", "4", "8"], ["Consent", "X", "", ""], ["Vital signs", "X", "X", "X"]]


def test_a_ruled_picture_becomes_a_table_with_its_header_and_the_text_below():
    table, notes = table_from_picture(_picture(ROWS), title="Schedule", page=3)
    assert table.from_ocr and table.page == 3
    assert table.columns == ["Visit / Week", "1 / 0", "2 / 4", "3 / 8"]
    assert table.data == [["Consent", "X", "", ""], ["Vital signs", "X", "X", "X"]]
    assert "performed at this visit" in notes


def test_a_picture_without_rules_is_no_table():
    assert table_from_picture(_picture(ROWS, ruled=False)) is None
