"""protocol_012 (committed in examples/input): words that are pixels, parsed end to end and
compared with what the generator printed into each picture.

A ruled table printed as a picture becomes a table of its section (``from_ocr``), after the
picture's placeholder; a form printed as a picture gives its lines to the picture's ``text``
and to the section text, as a marked block after the placeholder; a picture with no words
(a bar timeline) gives none and costs no OCR. Heading numbers drawn as pictures beside their
titles, with no bookmarks, are read from the pictures (``numbers_from`` says "picture"); with
``--ocr never`` they come from the printed TOC, and the warning names the pictures left unread.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from helpers import truth_nodes
from scoring.tree import flatten

from clinparser import PDFParser
from clinparser.shared.markup import PICTURE_TEXT

INPUT = Path(__file__).resolve().parent.parent / "examples" / "input"


@pytest.fixture(scope="module")
def p012():
    truth = json.loads((INPUT / "protocol_012.truth.json").read_text(encoding="utf-8"))
    return truth, PDFParser(workers=1).parse(INPUT / "protocol_012.pdf", output_dir=None)


def _images(truth, result):
    """(truth image, parsed image, parsed section) in printed order."""
    nodes = {n["number"]: n for n in flatten(result["toc"])}
    pairs = []
    for node in truth_nodes(truth["sections"]):
        got = nodes[node["number"]]
        assert [i["title"] for i in got["images"]] == [i["title"] for i in node["images"]]
        pairs += [(want, have, got) for want, have in zip(node["images"], got["images"])]
    return pairs


def _blankless(line: str) -> str:
    """A form's line as OCR reads it: the blanks to fill in ("________") are ink, no words."""
    return " ".join(re.sub(r"_{2,}", " ", line).split())


def test_the_tree_is_exact_and_the_pictured_numbers_are_read_from_their_pictures(p012):
    truth, result = p012
    want = truth_nodes(truth["sections"])
    assert [(n["number"], n["title"], n["pages"][0]) for n in flatten(result["toc"])] == [
        (n["number"], n["title"], n["page"]) for n in want
    ]
    summary = result["metadata"]["diagnostics"]["summary"]
    pictured = sum(1 for n in want if n["number"].count(".") == 1)  # every level-2 number is a picture here
    assert summary["numbers_from"] == {"picture": pictured, "text": len(want) - pictured}
    assert result["metadata"]["diagnostics"]["numbers_from_outline"] == []


def test_a_form_printed_as_a_picture_gives_its_lines_to_the_picture_and_the_section_text(p012):
    ((want, have, section),) = [p for p in _images(*p012) if p[0]["kind"] == "form"]
    lines = [_blankless(line) for line in want["text"].split("\n")]
    assert have["text"].split("\n") == lines and have["text_from"] == "ocr"
    block = "<!-- text in the picture (ocr) -->\n" + "\n".join(lines) + "\n<!-- end of text in the picture -->"
    assert f"[{want['title']}]\n\n{block}" in section["text"]
    assert PICTURE_TEXT.search(section["text"])["text"] == "\n".join(lines)


def test_a_table_printed_as_a_picture_is_a_table_of_its_section(p012):
    ((want, have, section),) = [p for p in _images(*p012) if p[0]["kind"] == "table"]
    (table,) = section["tables"]
    assert table["from_ocr"] is True and table["page"] == want["page"]
    assert table["columns"] == want["table"]["columns"] and table["data"] == want["table"]["data"]
    # the picture stays, then the table's placeholder; no words are left over for a text block
    assert table["title"] == want["title"]  # the caption below the picture titles both
    assert f"[{want['title']}]\n\n[{want['title']}]" in section["text"] and not PICTURE_TEXT.search(section["text"])
    assert have["text_from"] == "ocr" and "Pregnancy test" in have["text"]


def test_a_picture_with_no_words_gives_none(p012):
    ((want, have, section),) = [p for p in _images(*p012) if p[0]["kind"] == "raster"]
    assert have["text"] == "" and have["text_from"] == ""
    assert section["text"].endswith(f"[{want['title']}]")


def test_the_summary_and_the_ledger_count_the_pictures_read(p012):
    truth, result = p012
    pictures = result["metadata"]["pictures"]
    assert pictures == {
        "count": 3,
        "with_words": 2,
        "words_from_ocr": 2,
        "words_from_text_layer": 0,
        "unread": [],
        "tables": 1,
    }
    pages = {want["page"] for want, _, _ in _images(truth, result) if want["kind"] != "raster"}
    assert {p["page"] for p in result["metadata"]["pages"] if p.get("pictures_read")} == pages


def test_with_ocr_never_the_numbers_come_from_the_printed_toc_and_the_unread_pictures_are_named(p012):
    truth, _ = p012
    result = PDFParser(workers=1, ocr="never").parse(INPUT / "protocol_012.pdf", output_dir=None)
    want = truth_nodes(truth["sections"])
    assert [(n["number"], n["title"]) for n in flatten(result["toc"])] == [(n["number"], n["title"]) for n in want]
    assert "picture" not in result["metadata"]["diagnostics"]["summary"]["numbers_from"]
    pages = sorted({i["page"] for n in want for i in n["images"] if i["kind"] != "raster"})
    assert (
        f"2 picture(s) on pages {', '.join(map(str, pages))} look like text but were not read: --ocr never"
        in result["metadata"]["warnings"]
    )
    assert all(i["text"] == "" for n in flatten(result["toc"]) for i in n["images"])
