"""The pipeline as a whole: reproducible to the byte, nothing machine- or time-dependent inside."""

from __future__ import annotations

import json
import re
import time

from clinparser import PDFParser


def _files(folder):
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_two_runs_are_byte_identical(example, example_run, tmp_path):
    pdf, _ = example
    _, first = example_run
    parser = PDFParser()
    parser.parse(pdf, output_dir=tmp_path)
    again = _files(parser.last_output)
    assert again == _files(first)
    assert (
        {"document.json", "toc.json"} <= set(again)
        and any(n.endswith(".png") for n in again)
        and any(n.endswith(".csv") for n in again)
    )


def test_json_holds_no_path_of_this_machine_and_no_time(example, example_run):
    pdf, _ = example
    _, folder = example_run
    text = (folder / "document.json").read_text(encoding="utf-8")
    for needle in (str(pdf.parent), str(folder), "/tmp/", "/home/", "/root"):
        assert needle not in text
    assert time.strftime("%Y%m%d") not in text and not re.search(r"20\d\d-\d\d-\d\dT\d\d:", text)
    doc = json.loads(text)
    assert doc["metadata"]["source"] == "protocol_001.pdf"


def test_api_accepts_str_paths_and_can_skip_writing(example):
    pdf, _ = example
    parser = PDFParser()
    result = parser.parse(str(pdf), output_dir=None)
    assert parser.last_output is None
    nodes = [t for n in result["toc"] for t in n["subsections"]]
    assert all(t["path"] is None for n in nodes for t in n["tables"] + n["images"])


def test_by_default_each_page_says_which_model_read_it_and_full_reads_every_page_with_the_full_one(example):
    pdf, _ = example
    auto = PDFParser(workers=1).parse(pdf, save_intermediate_files=False, save_images=False, save_table_csv=False)
    full = PDFParser(workers=1, layout="full").parse(
        pdf, save_intermediate_files=False, save_images=False, save_table_csv=False
    )
    routes = [p["layout"] for p in auto["metadata"]["pages"]]
    assert {r["model"] for r in routes} == {"full", "text-only"}  # prose pages and pages with tables
    assert all(r["reason"] for r in routes)
    assert not any("layout" in p for p in full["metadata"]["pages"])  # --layout full: no routing, no entry

    def numbered(result):
        out = []

        def walk(node):
            out.append((node["number"], node["title"]))
            for child in node["subsections"]:
                walk(child)

        for node in result["toc"]:
            walk(node)
        return out

    assert numbered(auto) == numbered(full)
