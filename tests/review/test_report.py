"""report.html without a browser: what it is built from, its bytes, its command. What it does in a
browser is tests/test_report_browser.py."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

from clinparser.review.page_pictures import PAGES_DIR
from clinparser.review.report import (
    REPORT_FILE,
    Node,
    boxes,
    build_report,
    diagnostics,
    flatten,
    locate_starts,
    owners,
    render_html,
    report_data,
    section_html,
)


def run(*args):
    return subprocess.run([sys.executable, "-m", "clinparser", *map(str, args)], capture_output=True, text=True)


def _data(folder: Path) -> dict:
    page = (folder / REPORT_FILE).read_text(encoding="utf-8")
    blob = re.search(r'<script type="application/json" id="report-data">(.*?)</script>', page, re.S)[1]
    return json.loads(blob)


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_placeholders_become_the_tables_and_figures_they_stand_for_and_nothing_is_lost():
    node = {
        "text": "Intro with <b>tags</b>.\n\n[Table 1: Visits]\n\nBetween.\n\n[Figure 1: Schema]\n\nEnd.",
        "tables": [
            {"title": "Table 1: Visits", "page": 3, "columns": ["Visit", "Day"], "data": [["Screening", "-28"]]},
            {"title": "Table 2: Never placed", "page": 4, "columns": ["A"], "data": [["x"]]},
        ],
        "images": [{"title": "Figure 1: Schema", "path": "images/1_A/image_001.png"}],
    }
    out = section_html(node)
    assert (
        out.index("Intro")
        < out.index("<caption>Table 1: Visits")
        < out.index("Between")
        < out.index("<figcaption>Figure 1")
        < out.index("End.")
    )
    assert "[Table 1: Visits]" not in out and "<td>Screening</td>" in out
    assert "Table 2: Never placed" in out  # not in the text, still shown
    assert "<b>" not in out and "&lt;b&gt;" in out  # raw HTML in a protocol is text, never markup
    assert 'src="images/1_A/image_001.png"' in out


def test_markdown_images_and_raw_html_cannot_make_the_page_fetch_anything():
    out = section_html(
        {"text": "![x](https://example.com/t.png) <img src=http://e.com/a.png>", "tables": [], "images": []}
    )
    assert "<img" not in out


def _nodes(*items):
    return [
        Node(id=f"s{i}", data={"number": n, "title": t, "pages": [p, p]}, group="toc", depth=0)
        for i, (n, t, p) in enumerate(items)
    ]


def test_each_section_starts_at_its_heading_and_blocks_belong_to_the_last_heading_before_them():
    blocks = [
        {
            "page": 2,
            "bbox": [0, 0, 1, 1],
            "kind": "page-header",
            "dropped": "furniture",
            "text": "3 Objectives",
        },  # dropped
        {
            "page": 2,
            "bbox": [0, 0, 1, 1],
            "kind": "heading",
            "dropped": "",
            "text": "## **<u>3 OBJECTIVES</u>**",
        },  # HTML in Markdown
        {"page": 2, "bbox": [0, 0, 1, 1], "kind": "table", "dropped": "", "text": "|a|"},
        {
            "page": 2,
            "bbox": [0, 0, 1, 1],
            "kind": "text",
            "dropped": "",
            "text": "3.1 participants were screened",
        },  # a number, not the heading
        {
            "page": 2,
            "bbox": [0, 0, 1, 1],
            "kind": "heading",
            "dropped": "",
            "text": "**3.1**",
        },  # number alone; title next
        {"page": 2, "bbox": [0, 0, 1, 1], "kind": "heading", "dropped": "", "text": "Primary Objective"},
        {
            "page": 3,
            "bbox": [0, 0, 1, 1],
            "kind": "text",
            "dropped": "",
            "text": "3.1 Primary Objective is repeated here",
        },
    ]
    nodes = _nodes(("3", "Objectives", 2), ("3.1", "Primary Objective", 2))
    locate_starts(nodes, blocks)
    assert [n.start_block for n in nodes] == [1, 4]
    assert owners(nodes, blocks) == [None, "s0", "s0", "s0", "s1", "s1", "s1"]


def test_a_table_box_is_labelled_with_the_table_on_its_page_even_in_the_middle_of_a_long_table():
    nodes = _nodes(("1.3", "Schedule of Activities", 4))
    nodes[0].data["tables"] = [{"title": "Table 1: Schedule", "page": 4, "pages": [4, 7]}]
    blocks = [
        {"page": 4, "bbox": [70, 70, 300, 90], "kind": "heading", "dropped": "", "text": "1.3 Schedule of Activities"},
        {"page": 6, "bbox": [70, 100, 540, 700], "kind": "table", "dropped": "", "text": "|a|b|"},
    ]
    locate_starts(nodes, blocks)
    table = [b for b in boxes(nodes, blocks) if b["kind"] == "table"]
    assert table == [
        {"page": 6, "bbox": [70, 100, 540, 700], "kind": "table", "section": "s0", "label": "Table 1: Schedule"}
    ]


def test_a_heading_that_cannot_be_found_leaves_no_start_mark():
    nodes = _nodes(("4", "Design", 5))
    locate_starts(nodes, [{"page": 5, "bbox": [0, 0, 1, 1], "kind": "text", "dropped": "", "text": "no heading here"}])
    assert nodes[0].start_block is None


def test_front_matter_before_the_numbered_tree_and_back_matter_after_it():
    doc = {
        "toc": [
            {
                "number": "1",
                "title": "A",
                "pages": [3, 4],
                "subsections": [{"number": "1.1", "title": "B", "pages": [4, 4], "subsections": []}],
            }
        ],
        "non_toc": [
            {"number": "", "title": "Title page", "pages": [1, 1]},
            {"number": "", "title": "Signatures", "pages": [9, 9]},
        ],
    }
    nodes = flatten(doc)
    assert [n.data["title"] for n in nodes] == ["Title page", "A", "B", "Signatures"]
    assert nodes[1].children == [nodes[2].id] and [n.depth for n in nodes] == [0, 0, 1, 0]


def test_every_diagnostic_keeps_its_page_and_points_to_its_section():
    nodes = _nodes(("8.1", "Efficacy", 7), ("8.3", "Safety", 7))
    metadata = {
        "page_count": 3,
        "warnings": ["the PDF was damaged and has been repaired; check the output"],
        "diagnostics": {
            "numbering_gaps": [{"number": "8.3", "title": "Safety", "page": 7}],
            "unresolved_references": [{"text": "Section 9.9", "kind": "section", "section": "8.1", "page": 7}],
            "toc_entries_missing_in_body": [{"number": "8.2", "title": "Gone", "page": 6, "source": "printed"}],
        },
    }
    blocks = [{"page": 1}, {"page": 3}]  # nothing was read on page 2
    found = {(d["kind"], d["page"], d["section"]) for d in diagnostics(metadata, nodes, blocks)}
    assert ("numbering gap", 7, "s1") in found and ("unresolved reference", 7, "s0") in found
    assert ("TOC entry not found in the body", 6, None) in found and ("page empty", 2, None) in found
    assert ("warning", None, None) in found and len(found) == 5
    gap = next(d for d in diagnostics(metadata, nodes, blocks) if d["kind"] == "numbering gap")
    assert gap["label"] == "8.3 Safety (follows 8.1)"


def test_pages_recovered_or_empty_come_from_the_page_ledger_when_the_output_has_one():
    nodes = _nodes(("1", "Intro", 1))
    nodes[0].data["pages"] = [1, 3]
    metadata = {
        "page_count": 3,
        "pages": [
            {"page": 1, "source": "text", "reason": ""},
            {"page": 2, "source": "ocr", "reason": "no text layer"},
            {"page": 3, "source": "empty", "reason": "a blank page"},
        ],
    }
    found = [(d["kind"], d["page"]) for d in diagnostics(metadata, nodes, blocks=[{"page": 1}])]
    assert found == [("page ocr", 2), ("page empty", 3)]  # the ledger, not a guess from blocks
    data = report_data(
        {"toc": [nodes[0].data | {"subsections": []}], "non_toc": [], "metadata": metadata}, None, [], ""
    )
    assert [b["text"] for b in data["sections"][0]["badges"]] == ["empty", "OCR"]


def test_bundled_documents_the_verdict_and_numbers_read_from_the_outline_are_shown():
    doc = {
        "toc": [{"number": "1", "title": "Intro", "pages": [3, 3], "subsections": []}],
        "non_toc": [{"number": "", "title": "Protocol Amendment Summary", "pages": [40, 44]}],
        "metadata": {
            "page_count": 44,
            "diagnostics": {
                "numbers_from_outline": [{"number": "1", "title": "Intro", "page": 3, "source": "bookmark"}],
                "summary": {
                    "verdict": "check: 80% of bookmark entries found",
                    "bundled_documents": [{"title": "Protocol Amendment Summary", "pages": [40, 44], "sections": 6}],
                },
            },
        },
    }
    data = report_data(doc, None, [], "")
    assert data["verdict"] == "check: 80% of bookmark entries found"
    bundled = [d for d in data["diagnostics"] if d["kind"] == "bundled document"]
    assert len(bundled) == 1 and bundled[0]["page"] == 40 and bundled[0]["section"] == data["sections"][1]["id"]
    assert [b["text"] for b in data["sections"][1]["badges"]] == ["bundled document"]
    assert [b["text"] for b in data["sections"][0]["badges"]] == ["no. from outline"]


def test_the_report_is_written_with_every_parse_and_is_the_same_bytes_again(example_run, tmp_path):
    _, folder = example_run
    assert (folder / REPORT_FILE).is_file() and len(list((folder / PAGES_DIR).glob("page_*.png"))) == 14
    data = _data(folder)
    assert [s["number"] for s in data["sections"] if s["group"] == "toc"][:4] == ["1", "1.1", "1.2", "1.3"]
    located = [s for s in data["sections"] if s["group"] == "toc"]
    starts = {b["section"] for b in data["boxes"] if b["kind"] == "start"}
    assert all(s["id"] in starts for s in located)  # every numbered heading of the example is marked
    copy = tmp_path / "copy"
    shutil.copytree(folder, copy)
    before = _files(copy)
    build_report(copy)  # without the source: the pictures already there are kept
    assert _files(copy) == before, "rebuilding the report changed bytes"
    assert "http://" not in (copy / REPORT_FILE).read_text() and "https://" not in (copy / REPORT_FILE).read_text()


def test_report_command_redraws_the_pages_from_the_source_and_refuses_another_file(example, example_run, tmp_path):
    pdf, _ = example
    _, folder = example_run
    copy = tmp_path / "copy"
    shutil.copytree(folder, copy)
    shutil.rmtree(copy / PAGES_DIR)
    (copy / REPORT_FILE).unlink()
    proc = run("report", copy, "--source", pdf)
    assert proc.returncode == 0, proc.stderr
    assert _files(copy) == _files(folder)  # same bytes as the report the parse wrote
    other = tmp_path / "other.pdf"
    other.write_bytes(pdf.read_bytes() + b"\n%")
    proc = run("report", copy, "--source", other)
    assert (
        proc.returncode == 3
        and "not the file this output was parsed from" in proc.stderr
        and "Traceback" not in proc.stderr
    )


def test_report_command_on_a_folder_that_is_not_an_output_is_one_line_and_exit_3(tmp_path):
    proc = run("report", tmp_path)
    lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
    assert proc.returncode == 3 and len(lines) == 1 and "no document.json" in lines[0]


def test_no_report_writes_neither_the_page_nor_its_pictures(example, tmp_path):
    pdf, _ = example
    proc = run(pdf, "--output-dir", tmp_path, "--quiet", "--no-report")
    assert proc.returncode == 0, proc.stderr
    folder = Path(proc.stdout.strip())
    assert (
        (folder / "document.json").is_file()
        and not (folder / REPORT_FILE).exists()
        and not (folder / PAGES_DIR).exists()
    )


def test_without_pictures_or_blocks_the_report_says_what_is_missing(example_run, tmp_path):
    _, folder = example_run
    copy = tmp_path / "copy"
    shutil.copytree(folder, copy)
    shutil.rmtree(copy / PAGES_DIR)
    build_report(copy)
    data = _data(copy)
    assert len(data["pages"]) == 14 and all(p["img"] is None for p in data["pages"])
    assert "rebuild with the source PDF" in data["no_pages_reason"] and any(b["kind"] == "table" for b in data["boxes"])
    (copy / "blocks.json").unlink()
    build_report(copy)
    data = _data(copy)
    assert "no blocks.json" in data["no_pages_reason"] and len(data["pages"]) == 14
    assert data["boxes"] and all(b["kind"] == "figure" for b in data["boxes"])  # figures carry their own bbox


# --- the Study tab --------------------------------------------------------------------------------


def _study_document(study):
    toc = [
        {
            "number": "3",
            "title": "Objectives",
            "level": 1,
            "pages": [4, 4],
            "text": "",
            "tables": [],
            "images": [],
            "subsections": [],
        },
        {
            "number": "5",
            "title": "Population",
            "level": 1,
            "pages": [6, 7],
            "text": "",
            "tables": [],
            "images": [],
            "subsections": [
                {
                    "number": "5.2.",
                    "title": "Exclusion Criteria",
                    "level": 2,
                    "pages": [7, 7],
                    "text": "",
                    "tables": [],
                    "images": [],
                    "subsections": [],
                },
            ],
        },
    ]
    non_toc = [
        {
            "number": "",
            "title": "Inclusion criteria:",
            "pages": [1, 1],
            "text": "",
            "tables": [],
            "images": [],
            "subsections": [],
        }
    ]
    return {"toc": toc, "non_toc": non_toc, "metadata": {"source": "p.pdf", "page_count": 8}, "study": study}


NASTY = "eGFR < 30 mL/min & dialysis </script><img src=x onerror=alert(1)>"


def _study():
    def box(page, y):
        return {"page": page, "bbox": [72.0, y, 540.0, y + 12.0]}

    return {
        "titles": {
            "official": {"text": "A Study of X & Y", "page": 1},
            "short": None,
            "acronym": {"text": "XY", "page": 1},
        },
        "identifiers": [{"kind": "nct", "text": "NCT01234567", "page": 1, "source": "title page"}],
        "phase": {"value": "3", "printed": "Phase IIIa"},
        "sponsor": {"text": "Acme <Pharma>", "page": 1},
        "eligibility": [
            {
                "category": "inclusion",
                "identifier": "a.",
                "text": "Adults.",
                "section": "Inclusion criteria:",
                "pages": [1],
                "boxes": [box(1, 300.0)],
                "applies_to": None,
            },
            {
                "category": "exclusion",
                "identifier": "7.",
                "text": NASTY,
                "section": "5.2.",
                "pages": [7],
                "boxes": [box(7, 100.0), box(7, 114.0)],
                "applies_to": "run-in",
            },
        ],
        "objectives": [
            {
                "level": "primary",
                "label": "Primary",
                "text": "To compare X with placebo.",
                "section": "3",
                "pages": [4],
                "boxes": [box(4, 200.0)],
                "endpoints": [
                    {
                        "level": "primary",
                        "label": "Primary",
                        "text": "Change at week 52.",
                        "section": "3",
                        "pages": [4],
                        "boxes": [box(4, 240.0)],
                    }
                ],
            }
        ],
        "abbreviations": [{"abbreviation": "AE", "expansion": "adverse event"}],
        "diagnostics": [{"reader": "identity", "kind": "protocol_number_not_found", "detail": "no protocol number"}],
    }


def test_the_study_tab_lists_the_study_definition_with_its_boxes_and_sections():
    document = _study_document(_study())
    data = report_data(document, None, [], "")
    study = data["study"]
    ids = {s["number"] or s["title"]: s["id"] for s in data["sections"]}
    assert study["empty"] is False
    assert study["titles"] == [
        {"kind": "official", "text": "A Study of X & Y", "page": 1},
        {"kind": "acronym", "text": "XY", "page": 1},
    ]
    assert study["identifiers"] == [{"kind": "nct", "text": "NCT01234567", "page": 1, "source": "title page"}]
    assert study["phase"] == {"value": "3", "printed": "Phase IIIa"} and study["sponsor"] == {
        "text": "Acme <Pharma>",
        "page": 1,
    }
    first, seventh = study["criteria"]
    assert (first["id"], first["section_id"], first["category"], first["identifier"]) == (
        "c0",
        ids["Inclusion criteria:"],
        "inclusion",
        "a.",
    )
    assert seventh == {
        "id": "c1",
        "category": "exclusion",
        "identifier": "7.",
        "text": NASTY,
        "section": "5.2.",
        "pages": [7, 7],
        "section_id": ids["5.2."],
        "applies_to": "run-in",
        "boxes": [{"page": 7, "bbox": [72.0, 100.0, 540.0, 112.0]}, {"page": 7, "bbox": [72.0, 114.0, 540.0, 126.0]}],
    }
    objective = study["objectives"][0]
    assert (objective["id"], objective["section_id"], objective["level"]) == ("o0", ids["3"], "primary")
    assert [(e["id"], e["text"]) for e in objective["endpoints"]] == [("o0e0", "Change at week 52.")]
    assert study["diagnostics"] == [
        {"reader": "identity", "kind": "protocol_number_not_found", "detail": "no protocol number"}
    ]
    assert data["boxes"] == []  # the study's boxes travel with its items, not with the sections'


def test_the_study_tab_lists_the_design_items_each_with_where_it_was_read():
    def traced(page, y, **fields):
        return {
            "pages": [page],
            "boxes": [{"page": page, "bbox": [72.0, y, 540.0, y + 12.0]}],
            "section": "5",
            "printed": "as  printed\nhere",
            **fields,
        }

    population = {
        "planned_enrollment": traced(6, 300.0, value=240),
        "age": None,
        "sex": traced(7, 100.0, value="female"),
        "healthy_volunteers": None,
    }
    design = {
        "arms": [traced(6, 200.0, name="Placebo", type="placebo comparator", interventions=[])],
        "epochs": [],
        "interventions": [],
        "population": population,
        "allocation": None,
        "model": None,
        "masking": None,
        "ratio": None,
        "indication": None,
        "amendments": [],
    }
    study = report_data(_study_document({**_study(), "design": design}), None, [], "")["study"]
    ids = {s["number"]: s["id"] for s in report_data(_study_document(_study()), None, [], "")["sections"]}
    assert [(d["id"], d["part"], d["label"], d["text"]) for d in study["design"]] == [
        ("d0", "population", "Planned enrollment", "Planned enrollment: 240 participants"),
        ("d1", "population", "Sex", "Sex: female"),
        ("d2", "arm", "Arm", "Arm: Placebo (placebo comparator)"),
    ]
    arm = study["design"][2]
    assert arm["boxes"] == [{"page": 6, "bbox": [72.0, 200.0, 540.0, 212.0]}] and arm["pages"] == [6, 6]
    assert arm["printed"] == "as printed here" and arm["section_id"] == ids["5"]
    no_design = report_data(_study_document(_study()), None, [], "")["study"]
    assert no_design["design"] == []


def test_study_text_is_escaped_in_the_page_and_comes_back_whole():
    page = render_html(report_data(_study_document(_study()), None, [], ""))
    assert 'id="tab-study"' in page and 'id="study"' in page
    assert (
        "<img src=x" not in page and "</script><img" not in page and "<Pharma>" not in page
    )  # no markup from the protocol
    assert page.count("</script>") == 2  # the data and the script elements, nothing closed early
    blob = re.search(r'<script type="application/json" id="report-data">(.*?)</script>', page, re.S)[1]
    assert "\\u003c 30 mL/min & dialysis" in blob
    assert json.loads(blob)["study"]["criteria"][1]["text"] == NASTY
    assert render_html(report_data(_study_document(_study()), None, [], "")) == page  # same bytes again


def test_no_study_no_tab_and_an_empty_one_says_so():
    document = _study_document(None)
    del document["study"]
    assert report_data(document, None, [], "")["study"] is None  # the script leaves the tab hidden
    empty = {
        "titles": {"official": None, "short": None, "acronym": None},
        "identifiers": [],
        "phase": {"value": None, "printed": None},
        "sponsor": None,
        "eligibility": [],
        "objectives": [],
        "abbreviations": [],
        "diagnostics": [{"reader": "eligibility", "kind": "no_eligibility", "detail": "no criteria section"}],
    }
    study = report_data(_study_document(empty), None, [], "")["study"]
    assert study["empty"] is True and study["phase"] is None and study["diagnostics"][0]["kind"] == "no_eligibility"
    assert "No study definition found." in _asset_js()


def _asset_js() -> str:
    from clinparser.review.report import _asset

    return _asset("report.js")
