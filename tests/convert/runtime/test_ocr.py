"""convert/runtime/ocr.py: a recovered page and a picture are read with their own settings."""

from __future__ import annotations

import numpy as np
import pymupdf

from clinparser.convert.pages import page_recovery
from clinparser.convert.pictures import picture_words
from clinparser.convert.runtime import ocr
from clinparser.convert.runtime.onnx_sessions import single_threaded_sessions


def _page_with_lines(count: int = 8):
    doc = pymupdf.open()
    page = doc.new_page()
    for i in range(count):
        page.insert_text((72, 90 + 24 * i), f"Visit {i + 1} screening dose safety baseline week {i + 2}", fontsize=13)
    return doc, page


def test_a_page_render_is_read_with_the_page_settings_and_a_picture_with_the_picture_settings(monkeypatch):
    asked = []
    real = ocr._engine

    def engine(use="pictures"):
        asked.append(use)
        return real(use)

    monkeypatch.setattr(ocr, "_engine", engine)
    doc, page = _page_with_lines()
    with single_threaded_sessions():
        lines = page_recovery._read_render(page, [])
        assert asked == ["pages"] and len(lines) == 8
        pix = page.get_pixmap(dpi=100)
        picture_words.ocr_lines(np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.width, 3))
    assert asked == ["pages", "pictures"]


def test_the_page_engine_recognises_one_line_at_a_time_and_the_picture_engine_six():
    # RapidOCR reads the setting into its recogniser: a version that dropped or renamed it
    # would quietly go back to its default of 6 lines a batch.
    doc, page = _page_with_lines(2)
    pix = page.get_pixmap(dpi=100)
    image = np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.width, 3)
    with single_threaded_sessions():
        ocr.read_lines(image, whole_page=True)
        ocr.read_lines(image)
    assert ocr._engine("pages").text_rec.rec_batch_num == 1
    assert ocr._engine("pictures").text_rec.rec_batch_num == 6
