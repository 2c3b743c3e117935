"""Where a page is judged unreadable: each kind of page, built here, gets its verdict; a
normal page, a table of marks and a translucent watermark get none."""

from __future__ import annotations

import pymupdf
import pytest

from clinparser.convert.pages.page_check import after_conversion, before_conversion, unboxed_text

PROSE = "Participants will receive the study intervention once weekly for twelve weeks at the site."


def _page(draw) -> pymupdf.Page:
    doc = pymupdf.open()
    page = doc.new_page()
    draw(page)
    data = doc.tobytes()
    return pymupdf.open("pdf", data)[0]


def _text(page, mode=0):
    for k in range(20):
        page.insert_text((72, 72 + 14 * k), PROSE, fontsize=10, render_mode=mode)


def _picture(page, rect=None, alpha=False):
    rect = rect or page.rect
    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 200, 260), alpha)
    pix.set_rect(pix.irect, (180, 180, 180, 90) if alpha else (180, 180, 180))
    page.insert_image(rect, pixmap=pix)


def test_a_normal_page_has_no_verdict():
    assert before_conversion(_page(_text)) is None


def test_picture_of_a_page_without_text():
    assert before_conversion(_page(_picture)).kind == "no-layer"


def test_a_small_picture_alone_is_not_a_scan():
    assert before_conversion(_page(lambda p: _picture(p, pymupdf.Rect(72, 72, 200, 200)))) is None


def test_invisible_layer_only():
    verdict = before_conversion(_page(lambda p: (_picture(p), _text(p, mode=3))))
    assert verdict.kind == "invisible-layer"


def test_visible_layer_painted_over_by_a_picture_of_the_page():
    assert before_conversion(_page(lambda p: (_text(p), _picture(p)))).kind == "hidden-layer"


def test_picture_first_then_text_on_top_is_fine():
    assert before_conversion(_page(lambda p: (_picture(p), _text(p)))) is None


def test_translucent_picture_over_text_is_a_watermark_not_a_scan():
    assert before_conversion(_page(lambda p: (_text(p), _picture(p, alpha=True)))) is None


def _never():
    raise AssertionError("the text layer was read for a page that converted to many words")


def test_unmapped_characters_by_share_and_by_count():
    assert after_conversion(["\ufffd" * 30 + " " + "word " * 50], _never).kind == "unmapped"
    assert after_conversion(["\x03\x13\x10" * 30 + " " + "word " * 400], _never).kind == "unmapped"
    assert after_conversion(["A formula \ufffd= 4 " + PROSE * 10], _never) is None


def test_letter_spaced_layer_but_not_a_table_of_marks_or_markup():
    spaced = "St u d y i nter ve nt i on is defi ne d as a ny i n vesti gat io nal pr o du ct " * 3
    assert after_conversion([spaced], _never).kind == "letter-spaced"
    marks = "|Vital signs|X|X|X|X|X|X|<br>|ECG|X|X|X|X|<br>" * 20 + PROSE
    assert after_conversion([marks], _never) is None
    # Marks typed in lower case, with footnote letters on the activities: a schedule still.
    lower = "|Complete physical examination c|x|x|x|<br>|Pregnancy test f|x||x|<br>|SpO2 h|x|x|x|x|<br>" * 8
    assert after_conversion([lower], _never) is None


def test_converted_to_nothing_reads_the_layer_only_for_a_page_with_few_words():
    assert after_conversion(["Sponsor"], lambda: 80).kind == "converted-to-nothing"
    assert after_conversion(["Sponsor signatory page"], lambda: 10) is None  # a short page
    assert after_conversion([PROSE * 10], _never) is None


@pytest.mark.parametrize("kind", ["no-layer", "invisible-layer", "hidden-layer"])
def test_verdicts_have_a_reason_in_words(kind):
    draw = {
        "no-layer": _picture,
        "invisible-layer": lambda p: (_picture(p), _text(p, 3)),
        "hidden-layer": lambda p: (_text(p), _picture(p)),
    }[kind]
    verdict = before_conversion(_page(draw))
    assert verdict.kind == kind and len(verdict.reason.split()) >= 5


def test_unboxed_text_is_the_layer_text_no_layout_box_covers():
    def draw(page):
        page.insert_text((72, 30), "Running header of the protocol", fontsize=9)  # top band
        page.insert_text((72, 200), "2.2.2 Outcomes From Earlier Studies", fontsize=12)
        page.insert_text((72, 300), PROSE, fontsize=10)
        page.insert_text((72, 400), "Alone", fontsize=10)  # one word

    page = _page(draw)
    body = (60, 285, 560, 310)  # the layout box around the prose only
    found = unboxed_text(page, page.get_bboxlog(), [body])
    assert [" ".join(x[4].split()) for x in found] == ["2.2.2 Outcomes From Earlier Studies"]
    heading_box = (60, 185, 560, 205)
    assert unboxed_text(page, page.get_bboxlog(), [body, heading_box]) == []


def test_a_dropped_picture_keeps_the_words_read_in_it():
    from clinparser.convert.engines.pymupdf_backend import picture_text

    read = (
        "<!-- Start of picture text -->\nThe information contained in this<br>"
        "protocol is confidential.<br><!-- End of picture text -->"
    )
    assert picture_text(read) == "The information contained in this\nprotocol is confidential."
    assert picture_text("<!-- Start of picture text --><!-- End of picture text -->") == ""


def test_glyphs_drawn_as_outlines_and_no_text_layer():
    def outlines(page):  # a page of "letters" drawn as small filled paths, no text at all
        for k in range(400):
            x, y = 72 + (k % 40) * 11, 100 + (k // 40) * 20
            page.draw_rect(pymupdf.Rect(x, y, x + 6, y + 9), fill=(0, 0, 0), color=None)

    assert before_conversion(_page(outlines)).kind == "drawn-text"
    assert (
        before_conversion(
            _page(lambda p: [p.draw_rect(pymupdf.Rect(72, 72, 300, 300), fill=(0, 0, 0)) for _ in range(5)])
        )
        is None
    )
