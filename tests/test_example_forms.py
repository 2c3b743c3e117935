"""Generated fixtures for the numbering forms real protocols use, each exact against its truth.

protocol_004: numbers glued to their titles ("1.1.1.Prior Studies"), a tab between number and
title, appendix labels alone on the line above their title. protocol_005: a research-plan form's
outline (A1. ... A6.). protocol_006: heading numbers drawn as images beside the title (read
from the images by OCR; with --ocr never, from the bookmarks and the printed TOC), and an
amendment bound after the protocol with its own title page, contents and "1 Introduction /
2 Changes" numbering.
"""

from __future__ import annotations

import pytest
from helpers import truth_nodes
from scoring.tree import flatten

FORMS = ["protocol_004", "protocol_005", "protocol_006"]


@pytest.fixture(scope="module", params=FORMS)
def form_example(request, tmp_path_factory, generator):
    from clinparser import PDFParser

    folder = tmp_path_factory.mktemp(request.param)
    pdf = folder / f"{request.param}.pdf"
    truth = generator.build_named(request.param, pdf)
    return truth, PDFParser(workers=1).parse(pdf, output_dir=None)


def _shape(nodes, level_offset=0):
    return [
        (n["number"], n["title"], n["level"] + level_offset, [c["number"] for c in n["subsections"]]) for n in nodes
    ]


def test_tree_is_exactly_the_generated_outline(form_example):
    truth, result = form_example
    assert _shape(flatten(result["toc"])) == _shape(truth_nodes(truth["sections"]))
    got = [(n["number"], n["pages"][0]) for n in flatten(result["toc"])]
    assert got == [(n["number"], n["page"]) for n in truth_nodes(truth["sections"])]


def test_bundled_documents_are_one_non_toc_node_each_with_their_own_sections(form_example):
    truth, result = form_example
    bundled = truth.get("bundled", [])
    nodes = [n for n in result["non_toc"] if any(s["number"] for s in n["subsections"])]
    assert [n["title"] for n in nodes] == [b["title"] for b in bundled]
    for node, b in zip(nodes, bundled):
        # nested one level below the document's own node
        assert _shape(flatten(node["subsections"])) == _shape(truth_nodes(b["sections"]), level_offset=1)
    summary = result["metadata"]["diagnostics"]["summary"]
    assert [d["title"] for d in summary["bundled_documents"]] == [b["title"] for b in bundled]
    assert [d["pages"] for d in summary["bundled_documents"]] == [b["pages"] for b in bundled]


def test_numbers_drawn_as_images_are_read_from_the_images_and_reported(form_example, generator):
    truth, result = form_example
    name = {"CP-004": "protocol_004", "CP-005": "protocol_005", "CP-006": "protocol_006"}[truth["protocol_number"]]
    pictured = [s.number for s in generator.PROTOCOLS[name].outline if s.form == "image"]
    diagnostics = result["metadata"]["diagnostics"]
    assert diagnostics["numbers_from_outline"] == []
    numbers_from = diagnostics["summary"]["numbers_from"]
    assert sum(numbers_from.values()) == len(truth_nodes(truth["sections"]))
    assert numbers_from.get("picture", 0) == len(pictured)
    assert numbers_from.get("text", 0) == len(truth_nodes(truth["sections"])) - len(pictured)
    assert diagnostics["summary"]["verdict"] == "ok"
    assert diagnostics["toc_entries_missing_in_body"] == []


def test_with_ocr_never_numbers_drawn_as_images_come_from_the_outline(tmp_path, generator):
    from clinparser import PDFParser

    pdf = tmp_path / "protocol_006.pdf"
    truth = generator.build_named("protocol_006", pdf)
    result = PDFParser(workers=1, ocr="never").parse(pdf, output_dir=None)
    pictured = [s.number for s in generator.PROTOCOLS["protocol_006"].outline if s.form == "image"]
    diagnostics = result["metadata"]["diagnostics"]
    assert _shape(flatten(result["toc"])) == _shape(truth_nodes(truth["sections"]))
    assert [d["number"] for d in diagnostics["numbers_from_outline"]] == pictured
    assert {d["source"] for d in diagnostics["numbers_from_outline"]} <= {"bookmark", "printed"}
    assert diagnostics["summary"]["numbers_from"].get("text", 0) == len(truth_nodes(truth["sections"])) - len(pictured)
    assert diagnostics["summary"]["verdict"] == "ok"
