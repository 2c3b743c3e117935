"""Damaged, encrypted, scanned and unnumbered PDFs: a clear outcome, nothing half-written."""

from __future__ import annotations

import re

import pymupdf
import pytest

from clinparser import PDFParser
from clinparser.errors import EncryptedError, InputError, TooManyPagesError


def _protocol_pdf(path, *, pages=2, numbered=True, **save):
    doc = pymupdf.open()
    for p in range(pages):
        page = doc.new_page()
        heading = f"{p + 1} Section Number {p + 1}" if numbered else f"Unnumbered Heading {p + 1}"
        page.insert_text((72, 90), heading, fontname="hebo", fontsize=14)
        page.insert_textbox(
            pymupdf.Rect(72, 110, 540, 300),
            f"Body text of page {p + 1} with enough words to be a paragraph.",
            fontsize=10,
        )
    doc.save(path, **save)
    return path


def _files(folder):
    return [p for p in folder.rglob("*") if p.is_file()] if folder.exists() else []


def test_encrypted_pdf_needs_its_password(tmp_path):
    pdf = _protocol_pdf(
        tmp_path / "locked.pdf", encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="s3cret", owner_pw="owner"
    )
    out = tmp_path / "out"
    with pytest.raises(EncryptedError, match="--password"):
        PDFParser().parse(pdf, output_dir=out)
    with pytest.raises(EncryptedError, match="does not open it"):
        PDFParser(password="wrong").parse(pdf, output_dir=out)
    assert _files(out) == []
    result = PDFParser(password="s3cret").parse(pdf, output_dir=out)
    assert [n["number"] for n in result["toc"]] == ["1", "2"]


def test_truncated_pdf_is_repaired_with_a_warning_or_refused_in_one_line(example, tmp_path):
    pdf, _ = example
    data = pdf.read_bytes()
    cut = tmp_path / "truncated.pdf"
    cut.write_bytes(data[: int(len(data) * 0.7)])
    try:
        result = PDFParser().parse(cut, output_dir=tmp_path / "out")
    except InputError as exc:
        assert "\n" not in str(exc) and "damaged" in str(exc)
        assert _files(tmp_path / "out") == []
    else:
        assert any("repaired" in w for w in result["metadata"]["warnings"])


def test_pdf_cut_before_its_page_tree_is_one_line(tmp_path, generator):
    # MuPDF opens what is left of the file, then cannot count its pages.
    pdf = tmp_path / "ok.pdf"
    generator.build_named("protocol_002", pdf)
    cut = tmp_path / "cut.pdf"
    cut.write_bytes(pdf.read_bytes()[:1000])
    with pytest.raises(InputError, match="cut.pdf is damaged beyond repair") as info:
        PDFParser(workers=1).parse(cut, output_dir=None)
    assert "\n" not in str(info.value)


def test_broken_xref_is_repaired_with_a_warning(tmp_path):
    pdf = _protocol_pdf(tmp_path / "ok.pdf")
    data = pdf.read_bytes()
    broken = tmp_path / "xref.pdf"
    broken.write_bytes(re.sub(rb"startxref\s+\d+", b"startxref\n999999", data))
    result = PDFParser().parse(broken, output_dir=None)
    assert [n["number"] for n in result["toc"]] == ["1", "2"]
    assert any("repaired" in w for w in result["metadata"]["warnings"])


def _blank_scan(path):
    """A page that is only a picture of a page, with nothing on it to read."""
    doc = pymupdf.open()
    page = doc.new_page()
    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 400, 500), 0)
    pix.set_rect(pix.irect, (200, 200, 200))
    page.insert_image(page.rect, pixmap=pix)
    doc.save(path)
    return path


def test_scanned_pdf_with_nothing_to_read_gives_valid_output_and_says_so(tmp_path):
    result = PDFParser(workers=1).parse(_blank_scan(tmp_path / "scan.pdf"), output_dir=tmp_path / "out")
    assert result["toc"] == []
    assert [r["source"] for r in result["metadata"]["pages"]] == ["empty"]
    assert any("no text recovered from pages 1" in w for w in result["metadata"]["warnings"])


def test_scanned_pdf_under_ocr_never_suggests_ocr(tmp_path):
    result = PDFParser(workers=1, ocr="never").parse(_blank_scan(tmp_path / "scan.pdf"), output_dir=None)
    assert any("--ocr auto" in w for w in result["metadata"]["warnings"])


def test_pdf_without_numbered_sections_goes_to_non_toc_with_a_warning(tmp_path):
    pdf = _protocol_pdf(tmp_path / "plain.pdf", numbered=False)
    result = PDFParser().parse(pdf, output_dir=None)
    assert result["toc"] == [] and result["non_toc"]
    assert "Body text of page 2" in " ".join(n["text"] for n in result["non_toc"])
    assert any("no numbered sections" in w for w in result["metadata"]["warnings"])


def test_max_pages_guard(tmp_path):
    pdf = _protocol_pdf(tmp_path / "long.pdf", pages=5)
    with pytest.raises(TooManyPagesError, match="--max-pages 3"):
        PDFParser(max_pages=3).parse(pdf, output_dir=tmp_path / "out")
    assert _files(tmp_path / "out") == []


def test_corrupt_docx_is_one_line(tmp_path):
    import zipfile

    bad = tmp_path / "bad.docx"
    with zipfile.ZipFile(bad, "w") as z:
        z.writestr("word/document.xml", "<not xml")
        z.writestr("[Content_Types].xml", "<also not xml")
    with pytest.raises(Exception) as info:
        PDFParser().parse(bad, output_dir=tmp_path / "out")
    assert "\n" not in str(info.value) and "bad.docx" in str(info.value)
    assert getattr(info.value, "exit_code", 1) != 1
    assert _files(tmp_path / "out") == []
