"""Pages whose text layer is not what the page shows are recovered by default, listed in the
page ledger, and named in one warning; ``--ocr never`` keeps the old behaviour and warns.

Each fixture is protocol_001 (generated, exact truth) with page 10, which opens sections 6,
6.1 and 6.2, replaced by one kind of unreadable page.
"""

from __future__ import annotations

import json

import pymupdf
import pytest

from clinparser import PDFParser
from clinparser.model import Block

PAGE = 10  # 1-based; opens sections 6, 6.1 and 6.2 in protocol_001's truth


def _headings_on(truth: dict, page: int) -> list[tuple[str, str]]:
    def walk(nodes):
        for n in nodes:
            yield n
            yield from walk(n["subsections"])

    return [(n["number"], n["title"]) for n in walk(truth["sections"]) if n["page"] == page]


def _sections(result: dict) -> dict[str, str]:
    out = {}

    def walk(nodes):
        for n in nodes:
            out[n["number"].rstrip(".")] = n["title"]
            walk(n["subsections"])

    walk(result["toc"])
    return out


def _replace_page(doc, index: int, draw) -> None:
    """Replace page ``index`` by a new page of the same size on which ``draw(page, old)`` paints."""
    old = doc[index]
    keep = pymupdf.open()
    keep.insert_pdf(doc, from_page=index, to_page=index)
    width, height = old.rect.width, old.rect.height
    doc.delete_page(index)
    page = doc.new_page(index, width=width, height=height)
    draw(page, keep[0])


def _picture_of(page, old) -> None:
    page.insert_image(page.rect, pixmap=old.get_pixmap(dpi=150))


def _letter_spaced(text: str) -> str:
    """What a scanner's OCR layer often holds: words broken into runs of letters."""
    return " ".join(" ".join(word[i : i + 2] for i in range(0, len(word), 2)) for word in text.split())


def _scan_with_invisible_layer(page, old) -> None:
    for line in _lines(old):
        page.insert_text(line["origin"], _letter_spaced(line["text"]), fontsize=line["size"], render_mode=3)
    _picture_of(page, old)


def _scan_over_visible_layer(page, old) -> None:
    """The layer painted first, in normal (visible) mode, then the scan painted over it."""
    for line in _lines(old):
        page.insert_text(line["origin"], _letter_spaced(line["text"]), fontsize=line["size"])
    _picture_of(page, old)


def _unmapped_font(page, old) -> None:
    """The page's lines typeset in an embedded font whose ToUnicode map is then removed: the
    glyphs print right, the text layer reads glyph numbers ("$PODPSEBODF" for "Concordance")."""
    page.insert_font(fontname="F0", fontbuffer=pymupdf.Font("cjk").buffer)
    for line in _lines(old):
        page.insert_text(line["origin"], line["text"], fontsize=line["size"], fontname="F0")


def _drop_to_unicode(doc) -> None:
    for page in doc:
        for xref, _ext, _type, name, *_ in page.get_fonts():
            if "Droid" in name:
                doc.xref_set_key(xref, "ToUnicode", "null")


def _lines(page) -> list[dict]:
    out = []
    for block in page.get_text("dict")["blocks"]:
        for line in block.get("lines", []):
            spans = line["spans"]
            text = "".join(s["text"] for s in spans).strip()
            if text:
                out.append({"origin": spans[0]["origin"], "text": text, "size": spans[0]["size"]})
    return out


KINDS = {
    "image-only": _picture_of,
    "invisible-layer": _scan_with_invisible_layer,
    "hidden-layer": _scan_over_visible_layer,
    "unmapped-font": _unmapped_font,
}


@pytest.fixture(scope="module", params=sorted(KINDS))
def unreadable(request, tmp_path_factory, generator):
    """(kind, pdf, truth): protocol_001 with page 10 made unreadable in one way."""
    folder = tmp_path_factory.mktemp(request.param)
    source = folder / "protocol_001.pdf"
    truth = generator.build_named("protocol_001", source)
    doc = pymupdf.open(source)
    _replace_page(doc, PAGE - 1, KINDS[request.param])
    if request.param == "unmapped-font":
        _drop_to_unicode(doc)
    pdf = folder / f"{request.param}.pdf"
    doc.save(pdf)
    return request.param, pdf, truth


def test_fixture_page_is_really_unreadable(unreadable):
    """Guard for the fixtures: page 10's text layer must not already give its headings."""
    kind, pdf, truth = unreadable
    layer = pymupdf.open(pdf)[PAGE - 1].get_text()
    for number, title in _headings_on(truth, PAGE):
        assert title not in layer, f"{kind}: the text layer still reads {title!r}"


def test_unreadable_page_is_recovered_by_default(unreadable, tmp_path):
    kind, pdf, truth = unreadable
    parser = PDFParser(workers=1)
    result = parser.parse(pdf, output_dir=tmp_path)
    found = _sections(result)
    for number, title in _headings_on(truth, PAGE):
        assert found.get(number, "").lower() == title.lower(), f"{kind}: section {number} {title!r} not recovered"
    ledger = {r["page"]: r for r in result["metadata"]["pages"]}
    assert len(ledger) == truth["page_count"]
    assert ledger[PAGE]["source"] == "ocr" and ledger[PAGE]["reason"]
    others = {r["source"] for p, r in ledger.items() if p != PAGE}
    assert others == {"text"}, f"{kind}: pages other than {PAGE} must keep their text layer"
    assert any(f"pages {PAGE}" in w and "OCR" in w for w in result["metadata"]["warnings"])
    written = (parser.last_output / "document.json").read_text(encoding="utf-8")
    assert "\ufffd" not in written and "\\ufffd" not in written


def test_ocr_never_keeps_the_layer_and_warns(tmp_path, generator):
    pdf = tmp_path / "protocol_001.pdf"
    truth = generator.build_named("protocol_001", pdf)
    doc = pymupdf.open(pdf)
    _replace_page(doc, PAGE - 1, _picture_of)
    scanned = tmp_path / "scanned.pdf"
    doc.save(scanned)
    result = PDFParser(workers=1, ocr="never").parse(scanned, output_dir=None)
    found = _sections(result)
    assert not any(number in found for number, _ in _headings_on(truth, PAGE))
    page = next(r for r in result["metadata"]["pages"] if r["page"] == PAGE)
    assert page["source"] == "empty" and "--ocr never" in page["reason"]
    assert any(str(PAGE) in w and "show content" in w for w in result["metadata"]["warnings"])


def test_ledger_is_in_the_written_json(example_run):
    result, folder = example_run
    data = json.loads((folder / "document.json").read_text(encoding="utf-8"))
    assert [r["page"] for r in data["metadata"]["pages"]] == list(range(1, data["metadata"]["page_count"] + 1))
    assert {r["source"] for r in data["metadata"]["pages"]} == {"text"}


def _page_with_words_in_a_picture(path):
    """A normal text page with a picture that has words drawn in it (a scanned figure)."""
    art = pymupdf.open()
    canvas = art.new_page(width=400, height=120)
    canvas.insert_text((20, 70), "RANDOMIZATION SCHEMA", fontsize=28)
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 90), "1 INTRODUCTION", fontsize=14)
    page.insert_text((72, 120), PROSE_LINE, fontsize=11)
    page.insert_image(pymupdf.Rect(72, 200, 472, 320), pixmap=canvas.get_pixmap(dpi=150))
    doc.save(path)
    return path


PROSE_LINE = "This protocol describes a study whose design is shown in the figure below."


def test_words_in_a_picture_are_read_except_with_ocr_never(tmp_path):
    pdf = _page_with_words_in_a_picture(tmp_path / "figure.pdf")
    auto = PDFParser(workers=1).parse(pdf, output_dir=None)
    always = PDFParser(workers=1, ocr="always").parse(pdf, output_dir=None)
    never = PDFParser(workers=1, ocr="never").parse(pdf, output_dir=None)
    # auto: the page keeps its layer, the picture's words are read into the picture's text
    assert auto["metadata"]["pages"] == [
        {
            "page": 1,
            "source": "text",
            "reason": "",
            "pictures_read": 1,
            "layout": {"model": "full", "reason": "a picture"},
        }
    ]
    assert "RANDOMIZATION" in json.dumps(auto["toc"]).upper()
    # always: the whole page is OCR'd, the picture's words with it
    assert [r["source"] for r in always["metadata"]["pages"]] == ["ocr"]
    assert "RANDOMIZATION" in json.dumps(always["toc"]).upper()
    # never: the words stay pixels, and the warning says so
    assert "RANDOMIZATION" not in json.dumps(never["toc"]).upper()
    assert any("look like text but were not read: --ocr never" in w for w in never["metadata"]["warnings"])


def test_text_ocr_read_inside_a_picture_box_of_a_scan_reaches_the_sections():
    """The layout model boxes a region of a picture-of-a-page as a picture: the OCR'd text in it
    must still follow (here a heading under a redacted block)."""
    from clinparser.convert.pages.page_recovery import _text_over_pictures
    from clinparser.model import PICTURE

    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 600), "1.3.4.2. Reproductive and Developmental Toxicity Studies", fontsize=11)
    picture = Block(1, (60, 70, 540, 630), PICTURE, "")
    header = Block(1, (60, 20, 540, 40), "page-header", "Protocol")
    blocks, heads = _text_over_pictures(page, [header, picture], [None, None])
    assert [b.kind for b in blocks] == ["page-header", "picture", "text"] and heads == [None, None, None]
    assert blocks[2].text == "1.3.4.2. Reproductive and Developmental Toxicity Studies"
    empty = Block(1, (60, 650, 540, 700), PICTURE, "")  # nothing read there: stays a picture alone
    assert _text_over_pictures(page, [empty], [None]) == ([empty], [None])


def test_removing_an_unmapped_line_keeps_the_readable_line_its_box_overlaps(monkeypatch):
    """A heading in a font without a mapping, and right under it a readable line whose box
    its descenders overlap: OCR replaces the heading, the readable line stays whole."""
    from clinparser.convert.pages import page_recovery
    from clinparser.convert.pages.page_check import Verdict

    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_font(fontname="F0", fontbuffer=pymupdf.Font("cjk").buffer)
    page.insert_text((72, 100), "Performance Status", fontsize=22, fontname="F0")
    page.insert_text((72, 112), "This section contained the questionnaires that were excluded.", fontsize=11)
    _drop_to_unicode(doc)
    doc = pymupdf.open("pdf", doc.tobytes())
    boxes = [line["bbox"] for block in doc[0].get_text("dict")["blocks"] for line in block.get("lines", [])]
    assert len(boxes) == 2 and boxes[0][3] > boxes[1][1], "the fixture's two lines must overlap"

    def readable_line(page) -> str:
        return " ".join(page.get_text().split())

    whole = pymupdf.open("pdf", doc.tobytes())
    page_recovery.ocr_page(whole[0], Verdict("unmapped", "test"))
    assert "This section contained the questionnaires that were excluded." in readable_line(whole[0])
    assert "Performance" in readable_line(whole[0])  # read back by OCR
    monkeypatch.setattr(page_recovery, "_middle", lambda bbox: bbox)  # the span's whole box
    cut = pymupdf.open("pdf", doc.tobytes())
    page_recovery.ocr_page(cut[0], Verdict("unmapped", "test"))
    assert "This section contained the questionnaires that were excluded." not in readable_line(cut[0])


def test_a_picture_counts_as_read_only_if_its_words_are_kept():
    from clinparser.convert.pages.page_recovery import count_pictures_read
    from clinparser.model import EMPTY, OCR, PICTURE, PageRecord, RawImage

    def picture(page, words, dropped=""):
        image = RawImage(page, (0, 0, 100, 100), b"", 100, 100)
        image.words, image.words_from = [((0, 0, 50, 10), w) for w in words], "ocr" if words else ""
        return Block(page, (0, 0, 100, 100), PICTURE, "", dropped=dropped, image=image)

    ledger = [
        PageRecord(1, EMPTY, "no text layer"),
        PageRecord(2, EMPTY, "no text layer"),
        PageRecord(3, EMPTY, "no text layer"),
    ]
    blocks = [picture(1, ["Daily Itch Diary"]), picture(2, []), picture(3, ["CP-012 Protocol"], dropped="furniture")]
    count_pictures_read(ledger, blocks)
    assert [(r.source, r.pictures_read) for r in ledger] == [(OCR, 1), (EMPTY, 0), (EMPTY, 0)]


def _page_with_spans(rotation: int = 0):
    doc = pymupdf.open()
    page = doc.new_page()
    for k in range(40):  # enough spans that the old way's quadratic naming would show
        page.insert_text((72, 60 + 17 * k), f"line {k}: unmapped text stands here", fontsize=10)
    if rotation:
        page.set_rotation(rotation)
    return doc


@pytest.mark.parametrize("rotation", [0, 90])
def test_marking_spans_for_removal_removes_what_add_redact_annot_removes(rotation):
    from clinparser.convert.pages.page_recovery import _middle, mark_for_removal

    pages = []
    for way in ("pymupdf", "ours"):
        doc = _page_with_spans(rotation)
        page = doc[0]
        spans = [s["bbox"] for b in page.get_text("dict")["blocks"] for line in b["lines"] for s in line["spans"]]
        doomed = [_middle(box) for box in spans[::2]]  # every other line goes
        if way == "pymupdf":
            for rect in doomed:
                page.add_redact_annot(rect)
        else:
            mark_for_removal(page, doomed)
        assert len(list(page.annots())) == len(doomed)
        page.apply_redactions(
            images=pymupdf.PDF_REDACT_IMAGE_NONE,
            graphics=pymupdf.PDF_REDACT_LINE_ART_NONE,
            text=pymupdf.PDF_REDACT_TEXT_REMOVE,
        )
        assert not list(page.annots())
        pages.append((page.get_text("rawdict", flags=0), page.rotation, doc.tobytes(garbage=4, no_new_id=True)))
    ours, theirs = pages[1], pages[0]
    assert ours[0] == theirs[0] and ours[1] == theirs[1] == rotation
    assert ours[2] == theirs[2]  # the whole file, byte for byte
    kept = " ".join(
        "".join(c["c"] for c in s["chars"]) for b in ours[0]["blocks"] for line in b["lines"] for s in line["spans"]
    )
    assert "line 1:" in kept and "line 0:" not in kept and "line 39:" in kept and "line 38:" not in kept
