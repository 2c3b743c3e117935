"""The words inside a picture: the text layer's lines in its box, OCR of its pixels where it is
an image (or has no layer), a quick look first so that pictures without text cost no OCR."""

import numpy as np
import pymupdf
import pytest

from clinparser.convert.pictures import picture_words
from clinparser.convert.pictures.picture_words import (
    LAYER,
    NOT_READ,
    OCR,
    decode,
    read_on_page,
    read_png,
    rows_of,
    text_like,
    text_rows,
)
from clinparser.model import RawImage


def _text_png(lines, width=300, height=120, dpi=150) -> bytes:
    doc = pymupdf.open()
    page = doc.new_page(width=width, height=height)
    for k, line in enumerate(lines):
        page.insert_text((10, 25 + 20 * k), line, fontsize=12)
    return page.get_pixmap(dpi=dpi).tobytes("png")


def _bars_png() -> bytes:
    """A bar chart: light paper, wide dark bars, no words."""
    image = np.full((200, 400, 3), 250, dtype=np.uint8)
    for x in range(20, 380, 60):
        image[40:180, x : x + 25] = (30, 60, 120)
    return pymupdf.Pixmap(pymupdf.csRGB, 400, 200, image.tobytes(), False).tobytes("png")


def _photo_png() -> bytes:
    rng = np.random.default_rng(7)
    image = rng.integers(0, 255, size=(200, 300, 3), dtype=np.uint8)
    return pymupdf.Pixmap(pymupdf.csRGB, 300, 200, image.tobytes(), False).tobytes("png")


def test_text_looks_like_text_and_bars_a_photo_a_blank_and_a_speck_do_not():
    assert text_like(decode(_text_png(["Did itching wake you last night?", "Return this diary."])))
    assert not text_like(decode(_bars_png()))
    assert not text_like(decode(_photo_png()))
    assert not text_like(np.full((100, 100, 3), 255, dtype=np.uint8))
    assert not text_like(decode(_text_png(["x"]))[:8, :8])


def test_a_picture_known_by_its_pixels_is_read_by_ocr_in_reading_order():
    raw = RawImage(None, None, _text_png(["Daily Itch Diary", "Did you apply the cream?"]), 625, 250)
    read_png(raw, ocr=True)
    assert [text for _, text in raw.words] == ["Daily Itch Diary", "Did you apply the cream?"]
    assert raw.words_from == OCR and raw.unread == ""


def test_a_picture_without_text_costs_no_ocr(monkeypatch):
    def no_ocr(_):
        raise AssertionError("OCR ran on a picture without text")

    monkeypatch.setattr("clinparser.convert.runtime.ocr.read_lines", no_ocr)
    for png in (_bars_png(), _photo_png()):
        raw = RawImage(None, None, png, 1, 1)
        read_png(raw, ocr=True)
        assert raw.words == [] and raw.words_from == "" and raw.unread == ""


def _banner_png() -> bytes:
    """A banner: words in white on a shaded band, no paper to speak of (not ``text_like``)."""
    doc = pymupdf.open()
    page = doc.new_page(width=400, height=160)
    for k in range(16):  # a vertical shading from mid to dark grey
        grey = 0.55 - 0.02 * k
        page.draw_rect(pymupdf.Rect(0, 10 * k, 400, 10 * k + 10), color=None, fill=(grey, grey, grey))
    page.insert_text((60, 90), "www.trial-registry.org", fontsize=26, color=(1, 1, 1))
    return page.get_pixmap(dpi=150).tobytes("png")


def test_words_on_a_shaded_banner_are_found_by_the_detector_and_read():
    png = _banner_png()
    assert not text_like(decode(png))  # the pixel check alone would have passed it by
    raw = RawImage(None, None, png, 833, 333)
    read_png(raw, ocr=True)
    assert text_rows(raw.words) == ["www.trial-registry.org"] and raw.words_from == OCR


def test_a_line_of_symbols_is_not_words(monkeypatch):
    box = [[0, 0], [50, 0], [50, 20], [0, 20]]
    lower = [[p[0], p[1] + 40] for p in box]
    monkeypatch.setattr(
        "clinparser.convert.runtime.ocr.read_lines", lambda _: [(box, "\u25a0", 0.9), (lower, "Pak", 0.99)]
    )
    raw = RawImage(None, None, _text_png(["Pak"]), 625, 250)
    read_png(raw, ocr=True)
    assert text_rows(raw.words) == ["Pak"]


def test_with_ocr_off_a_picture_of_text_is_left_unread_and_says_why():
    raw = RawImage(None, None, _text_png(["Daily Itch Diary"]), 625, 250)
    read_png(raw, ocr=False)
    assert raw.words == [] and raw.unread == NOT_READ
    bars = RawImage(None, None, _bars_png(), 400, 200)
    read_png(bars, ocr=False)
    assert bars.unread == ""  # nothing that looks like words was left


def test_undecodable_picture_data_is_said():
    raw = RawImage(None, None, b"\x89PNG not really", 10, 10)
    read_png(raw, ocr=True)
    assert raw.words == [] and raw.unread == picture_words.UNDECODABLE


def _page_with(figure_text: bool, embedded: bool):
    doc = pymupdf.open()
    page = doc.new_page(width=400, height=400)
    page.insert_text((50, 40), "A paragraph above the figure.", fontsize=11)
    box = pymupdf.Rect(50, 60, 350, 200)
    page.draw_rect(box, width=1)
    if figure_text:  # a flow chart drawn by the PDF: its labels are text
        page.insert_text((70, 100), "Screening", fontsize=11)
        page.insert_text((200, 100), "Treatment", fontsize=11)
        page.insert_text((70, 180), "Follow-up", fontsize=11)
    if embedded:  # a scan pasted in
        page.insert_image(pymupdf.Rect(60, 120, 340, 160), stream=_text_png(["Weekly visit"], width=280, height=40))
    return doc, page, box


def _raw(page, box, dpi=150):
    pix = page.get_pixmap(clip=box, dpi=dpi)
    return RawImage(page.number + 1, tuple(box), pix.tobytes("png"), pix.width, pix.height)


def test_a_drawn_figure_gives_its_layer_lines_without_ocr(monkeypatch):
    doc, page, box = _page_with(figure_text=True, embedded=False)
    monkeypatch.setattr(picture_words, "ocr_lines", lambda _: pytest.fail("OCR ran on a drawn figure"))
    raw = _raw(page, box)
    read_on_page(raw, page, others=[], ocr=True)
    assert text_rows(raw.words) == ["Screening Treatment", "Follow-up"] and raw.words_from == LAYER


def test_a_line_another_block_holds_is_not_the_pictures():
    doc, page, box = _page_with(figure_text=True, embedded=False)
    raw = _raw(page, box)
    read_on_page(raw, page, others=[(65, 170, 200, 185)], ocr=True)
    assert text_rows(raw.words) == ["Screening Treatment"]


def test_an_embedded_image_is_read_by_ocr_beside_the_layer_lines():
    doc, page, box = _page_with(figure_text=True, embedded=True)
    raw = _raw(page, box)
    read_on_page(raw, page, others=[], ocr=True)
    assert text_rows(raw.words) == ["Screening Treatment", "Weekly visit", "Follow-up"]
    assert raw.words_from == f"{LAYER} + {OCR}"
    # blocks.json places each line on the page, in points
    lines = raw.words_dict()["lines"]
    weekly = next(line for line in lines if line["text"] == "Weekly visit")
    assert 60 <= weekly["bbox"][0] < weekly["bbox"][2] <= 340 and 120 <= weekly["bbox"][1] < weekly["bbox"][3] <= 160


def test_with_ocr_off_an_embedded_image_is_left_unread_but_the_layer_lines_are_kept():
    doc, page, box = _page_with(figure_text=True, embedded=True)
    raw = _raw(page, box)
    read_on_page(raw, page, others=[], ocr=False)
    assert text_rows(raw.words) == ["Screening Treatment", "Follow-up"] and raw.unread == NOT_READ


def test_rows_are_read_top_to_bottom_and_left_to_right():
    lines = [((200, 10, 260, 22), "Week 4"), ((10, 11, 80, 23), "Visit"), ((10, 40, 90, 52), "Consent")]
    assert [[t for _, t in row] for row in rows_of(lines)] == [["Visit", "Week 4"], ["Consent"]]


def test_labels_drawn_over_an_image_with_no_words_of_its_own_cost_no_ocr(monkeypatch):
    # a chart pasted as an image, its labels drawn by the PDF over it: the layer has every word
    doc = pymupdf.open()
    page = doc.new_page(width=400, height=400)
    box = pymupdf.Rect(50, 60, 350, 200)
    page.insert_image(box, stream=_bars_png())
    page.insert_text((70, 80), "Screening", fontsize=11)
    page.insert_text((200, 80), "Treatment", fontsize=11)
    monkeypatch.setattr(picture_words, "ocr_lines", lambda _: pytest.fail("OCR ran on an image holding no words"))
    raw = _raw(page, box)
    read_on_page(raw, page, others=[], ocr=True)
    assert text_rows(raw.words) == ["Screening Treatment"] and raw.words_from == LAYER
