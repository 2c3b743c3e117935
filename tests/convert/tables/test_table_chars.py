"""find_tables's character list, built lean: the same values and the same grids as PyMuPDF's own."""

from __future__ import annotations

import pymupdf
import pytest
from pymupdf import table as pymupdf_table

from clinparser.convert.tables.table_chars import lean_make_chars, lean_table_chars

KEYS = ("x0", "x1", "top", "bottom", "y0", "y1", "text")


def _ruled_page(doc: pymupdf.Document, rotation: int = 0, mediabox_origin: float = 0.0) -> pymupdf.Page:
    """A 4 x 3 ruled grid of words at fractional positions (single precision rounds them)."""
    page = doc.new_page(width=612, height=792)
    if mediabox_origin:
        page.set_mediabox(pymupdf.Rect(mediabox_origin, mediabox_origin, 612, 792))
    left, top, width, height = 72.3, 100.7, 101.1, 19.3
    for r in range(5):
        page.draw_line((left, top + r * height), (left + 3 * width, top + r * height))
    for c in range(4):
        page.draw_line((left + c * width, top), (left + c * width, top + 4 * height))
    for r in range(4):
        for c in range(3):
            page.insert_text((left + c * width + 2.37, top + r * height + 13.1), f"Cell {r}.{c} ÄÉ", fontsize=8.3)
    if rotation:
        page.set_rotation(rotation)
    return page


def _chars(make, page, clip=None) -> list:
    pymupdf_table._CHARS_VAR.set([])
    old = bool(pymupdf.TOOLS.set_small_glyph_heights())
    pymupdf.TOOLS.set_small_glyph_heights(True)  # as find_tables sets it
    try:
        make(page, clip)
    finally:
        pymupdf.TOOLS.set_small_glyph_heights(old)
    return list(pymupdf_table.CHARS)


@pytest.mark.parametrize("origin", [0.0, 10.5])
def test_the_lean_list_has_pymupdfs_values_bit_for_bit(origin):
    doc = pymupdf.open()
    page = _ruled_page(doc, mediabox_origin=origin)
    real = _chars(lambda p, clip: pymupdf_table.make_chars(p, clip=clip), page)
    lean = _chars(lambda p, clip: lean_make_chars(p, clip), page)
    assert len(real) > 100
    assert [tuple(c[k] for k in KEYS) for c in lean] == [tuple(c[k] for k in KEYS) for c in real]
    clip = pymupdf.Rect(60, 90, 250, 160)
    real = _chars(lambda p, c: pymupdf_table.make_chars(p, clip=c), page, clip)
    lean = _chars(lambda p, c: lean_make_chars(p, c), page, clip)
    assert 0 < len(lean) < 200
    assert [tuple(c[k] for k in KEYS) for c in lean] == [tuple(c[k] for k in KEYS) for c in real]


def test_a_rotated_page_gets_pymupdfs_own_list():
    doc = pymupdf.open()
    page = _ruled_page(doc, rotation=90)
    lean = _chars(lambda p, clip: lean_make_chars(p, clip, pymupdf_table.make_chars), page)
    assert lean and "matrix" in lean[0]  # PyMuPDF's full dict, not the lean one


def test_find_tables_finds_the_same_grid_with_the_lean_list():
    doc = pymupdf.open()
    page = _ruled_page(doc)
    real = page.find_tables(strategy="lines_strict", use_layout=False)
    with lean_table_chars():
        lean = page.find_tables(strategy="lines_strict", use_layout=False)
    assert pymupdf_table.make_chars.__name__ == "make_chars"  # put back on leaving
    assert len(real.tables) == 1
    assert [t.cells for t in lean.tables] == [t.cells for t in real.tables]
    assert len(lean.tables[0].cells) == 12
