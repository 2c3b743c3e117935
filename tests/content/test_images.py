"""Pictures: decoration dropped, figures rendered and filed where they stand."""

from __future__ import annotations

import pymupdf
from scoring.tree import flatten

from clinparser import PDFParser


def _pixmap(w, h, shade):
    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, w, h), 0)
    pix.set_rect(pix.irect, shade)
    for x in range(0, w, 7):  # a pattern, so the figure is not a flat colour
        pix.set_rect(pymupdf.IRect(x, 0, x + 3, h), (20, 60, 120))
    return pix


def _pdf(path, pages=4):
    doc = pymupdf.open()
    logo, figure, speck = (
        _pixmap(120, 60, (200, 30, 30)),
        _pixmap(300, 160, (230, 230, 230)),
        _pixmap(10, 10, (0, 0, 0)),
    )
    for p in range(pages):
        page = doc.new_page()
        page.insert_image(pymupdf.Rect(470, 20, 540, 55), pixmap=logo)  # the sponsor logo, every page
        page.insert_text((72, 100), f"{p + 1} Section {p + 1}", fontname="hebo", fontsize=14)
        page.insert_textbox(
            pymupdf.Rect(72, 120, 540, 200), f"Text of section {p + 1} explains the design in detail.", fontsize=10
        )
        if p == 1:
            page.insert_image(pymupdf.Rect(72, 220, 372, 380), pixmap=figure)
            page.insert_text((72, 400), "Figure 1: Dosing Timeline", fontname="hebo", fontsize=10)
            page.insert_image(pymupdf.Rect(72, 420, 80, 428), pixmap=speck)  # a bullet-sized speck
    doc.save(path)
    return path


def test_logo_on_every_page_and_specks_are_dropped_figures_are_kept(tmp_path):
    result = PDFParser().parse(_pdf(tmp_path / "logo.pdf"), output_dir=tmp_path / "out")
    images = [(n["number"], i["title"], i["page"]) for n in flatten(result["toc"]) for i in n["images"]]
    assert images == [("2", "Figure 1: Dosing Timeline", 2)]
    (fig,) = [i for n in flatten(result["toc"]) for i in n["images"]]
    assert abs(fig["bbox"][0] - 72) < 3 and abs(fig["bbox"][3] - 380) < 3
    assert fig["width"] == round(300 / 72 * 150) or abs(fig["width"] - 625) <= 2


def test_image_dpi_and_min_size_options(tmp_path):
    pdf = _pdf(tmp_path / "logo.pdf")
    low = PDFParser(image_dpi=72).parse(pdf, output_dir=None)
    (fig,) = [i for n in flatten(low["toc"]) for i in n["images"]]
    assert abs(fig["width"] - 300) <= 2
    strict = PDFParser(min_image_size=200).parse(pdf, output_dir=None)
    assert [i for n in flatten(strict["toc"]) for i in n["images"]] == []
