"""benchmarks/ocr_accuracy.py: a reading scored on the text layer it was rendered from."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pymupdf
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

import ocr_accuracy  # noqa: E402

WORDS = ("protocol", "visit", "screening", "dose", "safety", "baseline", "week", "subject", "adverse", "event")


def test_words_found_and_read_wrong_are_counted_as_a_multiset():
    got = ocr_accuracy.score("the dose the week\nsafety", ["the dose", "theweek safety", "extra"])
    # Layer: the x2, dose, week, safety (5). Read: the, dose, theweek, safety, extra.
    assert got == {"words": 5, "found": 3, "wrong": 2}


def test_a_line_added_or_lost_counts_once_not_for_every_line_after_it():
    ours = ["Version 5.0", "ADVERSE EVENT", "dose", "week 4", "safety"]
    # One line split in two at the top: counted position by position, all five pairs would
    # differ and the extra line count once more (6); aligned, it is one changed run whose
    # longer side is 2 lines.
    assert ocr_accuracy.differing_lines(ours, ["Version", "5.0", *ours[1:]]) == 2
    assert ocr_accuracy.differing_lines(ours, ours[:2] + ours[3:]) == 1  # one line lost
    assert ocr_accuracy.differing_lines(ours, ours[:3] + ["week 4."] + ours[4:]) == 1  # one read differently
    assert ocr_accuracy.differing_lines(ours, list(ours)) == 0


def test_settings_are_read_with_their_types():
    assert ocr_accuracy.setting("Rec.rec_batch_num=6") == ("Rec.rec_batch_num", 6)
    assert ocr_accuracy.setting("Det.box_thresh=0.5") == ("Det.box_thresh", 0.5)
    assert ocr_accuracy.setting("Global.use_cls=false") == ("Global.use_cls", False)
    with pytest.raises(argparse.ArgumentTypeError):
        ocr_accuracy.setting("Rec.rec_batch_num")


def _text_page(path: Path) -> str:
    doc = pymupdf.open()
    page = doc.new_page()
    lines = [" ".join(WORDS[(i + j) % len(WORDS)] for j in range(6)) for i in range(16)]
    for i, line in enumerate(lines):
        page.insert_text((72, 90 + 22 * i), line, fontsize=14)
    doc.save(path)
    return "\n".join(lines)


def test_a_printed_page_is_read_nearly_word_for_word_by_both_settings(tmp_path, capsys):
    pdf = tmp_path / "printed.pdf"
    text = _text_page(pdf)
    assert ocr_accuracy.main([str(pdf), "--per-document", "1", "--against", "Rec.rec_batch_num=6"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "pages against: Rec.rec_batch_num=6; 150 dpi"
    cells = [c.strip() for c in out[3].strip("|").split("|")]
    assert cells[0] == "printed" and cells[1] == "1"
    assert int(cells[2]) == len(text.split())  # every layer word is counted once
    assert float(cells[3]) >= 0.95 and float(cells[4]) >= 0.95  # 14 pt print reads cleanly
    assert out[-1].startswith("| **all 1** | 1 |")


def test_without_a_setting_to_compare_it_says_what_to_give(tmp_path, capsys):
    pdf = tmp_path / "printed.pdf"
    _text_page(pdf)
    assert ocr_accuracy.main([str(pdf)]) == 2
    assert "--against" in capsys.readouterr().err


def _render(fontsize: float, dpi: int, count: int = 12):
    """A page of ``count`` lines at ``fontsize``, rendered at ``dpi`` as an RGB array."""
    import numpy as np

    doc = pymupdf.open()
    page = doc.new_page()
    for i in range(count):
        line = " ".join(WORDS[(i + j) % len(WORDS)] for j in range(6))
        page.insert_text((60, 80 + fontsize * 2 * i), line, fontsize=fontsize)
    pix = page.get_pixmap(dpi=dpi, alpha=False)
    return np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.width, 3)


def test_the_print_size_doubles_with_the_resolution_and_sets_the_detection_scale():
    page = ocr_accuracy.glyph_height(_render(11, 150))
    assert 9 <= page <= 14  # a protocol page's print at recovery's 150 dpi
    assert abs(ocr_accuracy.glyph_height(_render(11, 300)) - 2 * page) <= 2
    assert ocr_accuracy.glyph_scale(_render(11, 150), page) == 1.0  # never enlarged
    assert 0.45 <= ocr_accuracy.glyph_scale(_render(11, 300), page) <= 0.55


def test_small_print_small_images_and_blank_ones_are_not_shrunk():
    import numpy as np

    assert ocr_accuracy.glyph_scale(_render(6, 200), 12) == 1.0  # a scanned form's 6 pt print
    assert ocr_accuracy.glyph_scale(_render(24, 150)[:300, :700], 12) == 1.0  # RapidOCR enlarges it
    assert ocr_accuracy.glyph_scale(np.full((1650, 1275, 3), 255, np.uint8), 12) == 1.0


def test_large_print_detected_at_half_size_reads_the_same_lines():
    from rapidocr import RapidOCR

    from clinparser.convert.runtime.ocr import PAGE_PARAMS

    image = _render(11, 300)
    reader = RapidOCR(params=dict(PAGE_PARAMS))
    whole, _ = ocr_accuracy.read(reader, image)
    half, _ = ocr_accuracy.read(reader, image, lambda im: 0.5)
    assert (reader.text_det.limit_type, reader.text_det.limit_side_len) == ("max", max(image.shape[:2]) // 2)
    assert len(whole) == 12 and half == whole
    ocr_accuracy.read(reader, image, lambda im: 1.0)  # back to the reader's own rule
    assert (reader.text_det.limit_type, reader.text_det.limit_side_len) == ("min", ocr_accuracy.DET_MIN_SIDE)


def test_a_shrunk_detection_is_compared_without_a_rapidocr_setting(tmp_path, capsys):
    pdf = tmp_path / "printed.pdf"
    _text_page(pdf)
    assert ocr_accuracy.main([str(pdf), "--per-document", "1", "--against-glyph-pixels", "12"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "pages against: detection with print 12 px tall; 150 dpi"
    assert out[-1].startswith("| **all 1** | 1 |")
