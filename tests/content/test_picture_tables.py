"""A table printed as a picture is read back by its rules and the words read in it (the bundled
RapidOCR): header, rows (ruled or not), the lines outside its grid; a boxed figure is no table."""

import pymupdf

from clinparser.content.picture_tables import table_from_picture
from clinparser.convert.pictures.picture_words import decode, ocr_lines

XS = [10, 170, 250, 330, 410]


def _picture(rows, ruled=True, rule_rows=True, xs=XS, below="X = performed at this visit", ruled_from=0) -> bytes:
    doc = pymupdf.open()
    page = doc.new_page(width=420, height=40 + 30 * len(rows))
    top, h = 10, 30
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            page.insert_text((xs[c] + 6, top + r * h + 20), text, fontsize=12)
    if ruled:
        lines = range(len(rows) + 1) if rule_rows else (0, 1, len(rows))
        for r in lines:
            page.draw_line((xs[ruled_from], top + r * h), (xs[-1], top + r * h), width=1.5)
        for x in xs[ruled_from:]:
            page.draw_line((x, top), (x, top + len(rows) * h), width=1.5)
    if below:
        page.insert_text((12, top + len(rows) * h + 22), below, fontsize=11)
    return page.get_pixmap(dpi=150).tobytes("png")


def _read(png, **kwargs):
    return table_from_picture(png, ocr_lines(decode(png)), **kwargs)


ROWS = [["Visit", "1", "2", "3"], ["Week", "0", "4", "8"], ["Consent", "X", "", ""], ["Vital signs", "X", "X", "X"]]


def test_a_ruled_picture_becomes_a_table_with_its_header_and_the_lines_outside_its_grid():
    table, outside = _read(_picture(ROWS), title="Schedule", page=3)
    assert table.from_ocr and table.page == 3 and table.title == "Schedule"
    assert table.columns == ["Visit / Week", "1 / 0", "2 / 4", "3 / 8"]
    assert table.data == [["Consent", "X", "", ""], ["Vital signs", "X", "X", "X"]]
    assert [text for _, text in outside] == ["X = performed at this visit"]


def test_a_picture_without_rules_is_no_table():
    assert _read(_picture(ROWS, ruled=False)) is None


def test_rows_the_grid_does_not_rule_are_told_apart_by_their_first_column():
    days = [["Day", "Site"], ["Sunday", "upper arm"], ["Monday", "upper back"], ["Tuesday", "lower back"]]
    table, _ = _read(_picture(days, rule_rows=False, xs=[10, 170, 410], below=""))
    # a table without marks has one header row
    assert table.columns == ["Day", "Site"]
    assert table.data == [["Sunday", "upper arm"], ["Monday", "upper back"], ["Tuesday", "lower back"]]


def test_a_boxed_figure_with_one_row_under_its_header_is_no_table():
    assert _read(_picture([["Placebo", "Drug", "Placebo", "Drug"], ["0", "6", "6", "15"]], below="")) is None


def test_a_grid_that_leaves_the_row_labels_beside_it_is_no_table():
    # a colour-filled table whose label column's rules are not found: the grid found would
    # cut the labels off their rows, so the words stay the picture's text
    assert _read(_picture(ROWS, ruled_from=1, below="")) is None
