"""The review page's page pictures: screen-sized, 16 grey levels, the same bytes every time."""

from __future__ import annotations

import pymupdf
import pytest
from PIL import Image

from clinparser.errors import InputError
from clinparser.review.page_pictures import existing_pages, render_pages


def _pdf(path, encrypt=False):
    doc = pymupdf.open()
    for text in ("Page one", "Page two"):
        page = doc.new_page(width=612, height=792)  # Letter
        page.insert_text((72, 72), text, fontsize=12)
        page.draw_rect(pymupdf.Rect(72, 100, 300, 200), color=(1, 0, 0), fill=(0.2, 0.4, 0.9))
    options = {"encryption": pymupdf.PDF_ENCRYPT_AES_256, "user_pw": "secret", "owner_pw": "owner"} if encrypt else {}
    doc.save(path, **options)
    return path


def test_pages_are_96_dpi_grey_4_bit_pngs_and_the_same_bytes_twice(tmp_path):
    pdf = _pdf(tmp_path / "a.pdf")
    first, second = tmp_path / "one", tmp_path / "two"
    first.mkdir(), second.mkdir()
    pages = render_pages(pdf, first)
    render_pages(pdf, second)
    assert pages == [
        {"n": 1, "w": 612.0, "h": 792.0, "img": "pages/page_0001.png"},
        {"n": 2, "w": 612.0, "h": 792.0, "img": "pages/page_0002.png"},
    ]
    for page in pages:
        with Image.open(first / page["img"]) as im:
            assert im.size == (816, 1056) and im.mode == "L" and len(im.getcolors()) <= 16
        assert (first / page["img"]).read_bytes() == (second / page["img"]).read_bytes()
    assert existing_pages(first, 2) == pages  # sizes read back from the pictures' pixels


def test_an_encrypted_source_needs_its_password(tmp_path):
    pdf = _pdf(tmp_path / "locked.pdf", encrypt=True)
    with pytest.raises(InputError, match="password"):
        render_pages(pdf, tmp_path)
    assert len(render_pages(pdf, tmp_path, password="secret")) == 2


def test_a_missing_picture_means_no_pictures(tmp_path):
    pdf = _pdf(tmp_path / "a.pdf")
    render_pages(pdf, tmp_path)
    (tmp_path / "pages" / "page_0002.png").unlink()
    assert existing_pages(tmp_path, 2) == []
