"""Figures made of tiles are one figure: the rule on boxes, and a PDF drawn as four strips."""

from __future__ import annotations

import pymupdf
from scoring.tree import flatten

from clinparser import PDFParser
from clinparser.convert.pictures.image_tiles import abut, join_tiles
from clinparser.model import PICTURE, TEXT, Block


def test_stacked_strips_and_a_grid_are_joined_apart_figures_are_not():
    strips = [Block(2, (70, 100 + 32 * k, 525, 133 + 32 * k), PICTURE, "") for k in range(4)]  # 1 pt overlaps
    grid = [Block(3, (x, y, x + 100, y + 80), PICTURE, "") for y in (100, 180) for x in (72, 172)]
    apart = [Block(4, (72, 100, 300, 200), PICTURE, ""), Block(4, (72, 260, 300, 360), PICTURE, "")]
    offset = [
        Block(5, (72, 100, 300, 200), PICTURE, ""),
        Block(5, (250, 200, 500, 260), PICTURE, ""),
    ]  # touching over a corner only
    text = Block(2, (72, 300, 500, 320), TEXT, "Figure 1: Study schema")
    out = join_tiles(strips + [text] + grid + apart + offset)
    pictures = [(b.page, b.bbox) for b in out if b.kind == PICTURE]
    assert pictures == [(2, (70, 100, 525, 229)), (3, (72, 100, 272, 260))] + [(b.page, b.bbox) for b in apart + offset]
    assert out[1] is text


def test_abut_needs_a_shared_side():
    assert abut((0, 0, 100, 50), (0, 51, 100, 90))
    assert not abut((0, 0, 100, 50), (0, 60, 100, 90))  # a gap
    assert not abut((0, 0, 100, 50), (100, 40, 200, 90))  # corners only


def _strips_pdf(path):
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 90), "1 Study Design", fontname="hebo", fontsize=14)
    page.insert_textbox(pymupdf.Rect(72, 100, 540, 140), "The schema below shows the design of the study.", fontsize=10)
    for k in range(4):
        pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 400, 40), 0)
        pix.set_rect(pix.irect, (230, 230, 230))
        for x in range(k * 5, 400, 9):  # a pattern per strip, so the strips differ
            pix.set_rect(pymupdf.IRect(x, 0, x + 3, 40), (20, 60, 120))
        page.insert_image(pymupdf.Rect(72, 160 + 40 * k, 472, 200 + 40 * k), pixmap=pix)
    page.insert_text((72, 340), "Figure 1: Study Schema", fontname="hebo", fontsize=10)
    page.insert_textbox(pymupdf.Rect(72, 360, 540, 400), "Participants are randomised after screening.", fontsize=10)
    doc.save(path)
    return path


def test_a_figure_drawn_as_four_strips_is_one_image_with_its_caption(tmp_path):
    result = PDFParser(workers=1).parse(_strips_pdf(tmp_path / "strips.pdf"), output_dir=None)
    images = [i for n in flatten(result["toc"]) for i in n["images"]]
    assert [(i["title"], i["page"]) for i in images] == [("Figure 1: Study Schema", 1)]
    (fig,) = images
    assert abs(fig["bbox"][1] - 160) < 3 and abs(fig["bbox"][3] - 320) < 3
    assert abs(fig["height"] - round(160 / 72 * 150)) <= 2  # rendered from the union box
