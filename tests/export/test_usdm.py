"""USDM v4.0 narrative export (clinparser/usdm.py), checked against CDISC's own schemas.

The USDM v4.0 OpenAPI document is reference data kept outside the repository, in
``../shared/usdm/USDM_API.json``; the schema tests skip with a reason when it is absent."""

from __future__ import annotations

import copy
import json
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clinparser.export.usdm import (
    DRAFT_STATUS,
    document_version,
    narrative_items,
    schema_validator,
    section_xhtml,
    study_design,
    to_usdm,
    unique_names,
    usdm_errors,
)

USDM_API = Path(__file__).resolve().parents[3] / "shared" / "usdm" / "USDM_API.json"
XHTML = "{http://www.w3.org/1999/xhtml}"


# --- the schema loader (clinparser.export.usdm.schema_validator) -------------------------------------
@pytest.fixture(scope="module")
def usdm_schema():
    """validate(name, obj) -> list of error messages, against components.schemas[name]."""
    if not USDM_API.is_file():
        pytest.skip(f"USDM v4.0 API specification not available: {USDM_API} is missing (CI has ../shared/usdm)")
    return schema_validator(USDM_API)


def assert_valid_usdm(validate, usdm: dict) -> None:
    assert validate("Code-Input", document_version(usdm)["status"]) == []
    assert validate("Wrapper-Input", usdm) == []  # the whole Wrapper, as one document
    assert usdm_errors(usdm, validate) == []


def test_the_validator_resolves_refs_and_can_fail(usdm_schema):
    good = {
        "id": "NarrativeContent_0001",
        "name": "x",
        "displaySectionNumber": True,
        "displaySectionTitle": True,
        "instanceType": "NarrativeContent",
    }
    assert usdm_schema("NarrativeContent-Input", good) == []
    missing = {k: v for k, v in good.items() if k != "instanceType"}
    assert any("instanceType" in e for e in usdm_schema("NarrativeContent-Input", missing))
    assert usdm_schema("NarrativeContent-Input", dict(good, instanceType="NarrativeContentItem"))
    # A nested $ref (status -> Code-Input, contents -> NarrativeContent-Input) is followed too.
    sddv = {
        "id": "S",
        "version": "1",
        "status": dict(DRAFT_STATUS, id="C", instanceType="Code"),
        "contents": [good],
        "instanceType": "StudyDefinitionDocumentVersion",
    }
    assert usdm_schema("StudyDefinitionDocumentVersion-Input", sddv) == []
    broken = copy.deepcopy(sddv)
    del broken["status"]["codeSystemVersion"]
    del broken["contents"][0]["instanceType"]
    errors = usdm_schema("StudyDefinitionDocumentVersion-Input", broken)
    assert any(e.startswith("status") and "codeSystemVersion" in e for e in errors)
    assert any(e.startswith("contents/0") and "instanceType" in e for e in errors)


# --- a hand-made result ----------------------------------------------------------------------------
def node(number, title, pages, text="", subsections=(), tables=(), images=()):
    level = number.count(".") + 1 if number else 1
    return {
        "number": number,
        "title": title,
        "level": level,
        "pages": list(pages),
        "text": text,
        "tables": list(tables),
        "images": list(images),
        "references": [],
        "subsections": list(subsections),
    }


def table(title, columns, data):
    return {"title": title, "page": 4, "pages": [4, 4], "columns": columns, "data": data, "path": None}


def image(title, path):
    return {"title": title, "page": 4, "bbox": [0.0, 0.0, 10.0, 10.0], "width": 10, "height": 10, "path": path}


SOA = table(
    "Table 2: Schedule of Activities",
    ["Procedure", "Day 1", "Week <4> & on"],
    [["Informed consent", "X", ""], ["ECG & vitals", "", "X\nonly if < 60"]],
)
UNTITLED = table("", ["A"], [["untitled cell"]])


def sample() -> dict:
    body = (
        "Intro with **bold**, *italic* and 5 < 6 & 7 > 3.\n\n"
        "[Table 2: Schedule of Activities]\n\n"
        "- first bullet\n- second bullet\n\n"
        "1. criterion one\n\n2. criterion two\n\n"
        "[Table]\n\n"
        "[Figure 1: Study Schema]\n\n"
        "[Figure 2: Not written]\n\n"
        "Closing paragraph."
    )
    s12 = node("1.2", "Design", [4, 5], "Design text.", [node("1.2.1", "Detail", [5, 5], "Detail text.")])
    return {
        "toc": [
            node(
                "1",
                "SUMMARY",
                [3, 5],
                "Summary text.",
                [
                    node(
                        "1.1",
                        "Synopsis & <Scope>",
                        [3, 4],
                        body,
                        tables=[SOA, UNTITLED],
                        images=[
                            image("Figure 1: Study Schema", "images/1.1_Synopsis/image_001.png"),
                            image("Figure 2: Not written", None),
                        ],
                    ),
                    s12,
                ],
            ),
            node("2", "INTRODUCTION", [6, 8], "Intro."),
        ],
        "non_toc": [
            node("", "Title Page", [1, 1], "**Protocol** CP-001"),
            node("", "TABLE OF CONTENTS", [2, 2], "1 SUMMARY .... 3"),
            node("", "Signature Page", [9, 9], "Signed."),
        ],
        "metadata": {"source": "protocol.pdf", "versions": {"clinparser": "0.1.0"}},
    }


def contents_of(usdm):
    return document_version(usdm)["contents"]


def xhtml(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == f"{XHTML}div"
    return root


def all_text(el: ET.Element) -> str:
    return "".join(el.itertext())


def test_document_order_puts_front_matter_first_and_back_matter_last():
    usdm = to_usdm(sample())
    order = [(c["sectionNumber"], c["sectionTitle"]) for c in contents_of(usdm)]
    assert order == [
        (None, "Title Page"),
        (None, "TABLE OF CONTENTS"),
        ("1", "SUMMARY"),
        ("1.1", "Synopsis & <Scope>"),
        ("1.2", "Design"),
        ("1.2.1", "Detail"),
        ("2", "INTRODUCTION"),
        (None, "Signature Page"),
    ]
    flags = [c["displaySectionNumber"] for c in contents_of(usdm)]
    assert flags == [False, False, True, True, True, True, True, False]
    assert all(c["displaySectionTitle"] for c in contents_of(usdm))
    without = to_usdm(sample(), include_non_toc=False)
    assert [c["sectionNumber"] for c in contents_of(without)] == ["1", "1.1", "1.2", "1.2.1", "2"]


def test_unnumbered_nodes_go_where_their_pages_put_them():
    # A printed TOC after a numbered signature page; front matter sharing section 1's page;
    # a node with no page stays with the one before it; back matter on the last section's page.
    result = {
        "toc": [
            node("1.", "SIGNATURE PAGE", [2, 2]),
            node("2.", "DECLARATION", [3, 4]),
            node("3.", "SYNOPSIS", [9, 10], subsections=[node("3.1", "Design", [10, 10])]),
        ],
        "non_toc": [
            node("", "PROTOCOL TITLE", [1, 2]),
            node("", "Cover note", [2, 2]),
            node("", "TABLE OF CONTENTS", [5, 8]),
            node("", "No page", [None, None]),
            node("", "Signatures", [10, 10]),
        ],
        "metadata": {},
    }
    titles = [c["sectionTitle"] for c in contents_of(to_usdm(result))]
    assert titles == [
        "PROTOCOL TITLE",
        "Cover note",
        "SIGNATURE PAGE",
        "DECLARATION",
        "TABLE OF CONTENTS",
        "No page",
        "SYNOPSIS",
        "Design",
        "Signatures",
    ]
    assert_tree_consistent(contents_of(to_usdm(result)))
    only_front = dict(result, toc=[])
    assert [c["sectionTitle"] for c in contents_of(to_usdm(only_front))] == [n["title"] for n in result["non_toc"]]


def test_ids_are_positional_and_deterministic():
    usdm = to_usdm(sample())
    contents, items = contents_of(usdm), narrative_items(usdm)
    assert [c["id"] for c in contents] == [f"NarrativeContent_{i:04d}" for i in range(1, 9)]
    assert [i["id"] for i in items] == [f"NarrativeContentItem_{i:04d}" for i in range(1, 9)]
    assert [c["contentItemId"] for c in contents] == [i["id"] for i in items]
    assert [c["name"] for c in contents] == [i["name"] for i in items]
    assert contents[3]["name"] == "1.1 Synopsis & <Scope>"
    dump = json.dumps(usdm, sort_keys=True)
    assert json.dumps(to_usdm(copy.deepcopy(sample())), sort_keys=True) == dump
    assert json.dumps(to_usdm(json.loads(json.dumps(sample()))), ensure_ascii=False) == json.dumps(
        usdm, ensure_ascii=False
    )


def test_links_match_the_tree():
    contents = contents_of(to_usdm(sample()))
    by_number = {c["sectionNumber"]: c for c in contents if c["sectionNumber"]}
    assert by_number["1"]["childIds"] == [by_number["1.1"]["id"], by_number["1.2"]["id"]]
    assert by_number["1.2"]["childIds"] == [by_number["1.2.1"]["id"]]
    assert by_number["1.2.1"]["childIds"] == by_number["2"]["childIds"] == []
    assert contents[0]["previousId"] is None and contents[-1]["nextId"] is None
    for before, after in zip(contents, contents[1:]):
        assert before["nextId"] == after["id"] and after["previousId"] == before["id"]
    assert_tree_consistent(contents)


def assert_tree_consistent(contents: list[dict]) -> None:
    """childIds form a forest whose depth-first walk is exactly the previousId/nextId chain."""
    by_id = {c["id"]: c for c in contents}
    assert len(by_id) == len(contents)
    children = Counter(cid for c in contents for cid in c["childIds"])
    assert all(n == 1 and cid in by_id for cid, n in children.items())
    roots = [c for c in contents if c["id"] not in children]

    def walk(cs):
        for c in cs:
            yield c["id"]
            yield from walk(by_id[i] for i in c["childIds"])

    chain, cur = [], contents[0]
    while cur is not None:
        chain.append(cur["id"])
        cur = by_id.get(cur["nextId"]) if cur["nextId"] else None
    assert list(walk(roots)) == chain == [c["id"] for c in contents]


def test_xhtml_is_well_formed_escaped_and_namespaced():
    usdm = to_usdm(sample())
    for item in narrative_items(usdm):
        assert item["text"].startswith('<div xmlns="http://www.w3.org/1999/xhtml">')
        xhtml(item["text"])
    synopsis = xhtml(narrative_items(usdm)[3]["text"])
    first = synopsis.find(f"{XHTML}p")
    assert all_text(first) == "Intro with bold, italic and 5 < 6 & 7 > 3."
    assert first.find(f"{XHTML}strong").text == "bold" and first.find(f"{XHTML}em").text == "italic"
    raw = narrative_items(usdm)[3]["text"]
    assert "5 &lt; 6 &amp; 7 &gt; 3" in raw and "Week &lt;4&gt; &amp; on" in raw
    title = xhtml(narrative_items(usdm)[0]["text"])
    assert title.find(f"{XHTML}p/{XHTML}strong").text == "Protocol"


def test_table_placeholders_become_tables():
    root = xhtml(section_xhtml(sample()["toc"][0]["subsections"][0]))
    tables = root.findall(f"{XHTML}table")
    assert len(tables) == 2
    soa, untitled = tables
    assert soa.find(f"{XHTML}caption").text == "Table 2: Schedule of Activities"
    assert [all_text(th) for th in soa.findall(f"{XHTML}thead/{XHTML}tr/{XHTML}th")] == SOA["columns"]
    rows = soa.findall(f"{XHTML}tbody/{XHTML}tr")
    assert [[all_text(td) for td in tr.findall(f"{XHTML}td")] for tr in rows] == [
        ["Informed consent", "X", ""],
        ["ECG & vitals", "", "Xonly if < 60"],
    ]
    assert rows[1].findall(f"{XHTML}td")[2].find(f"{XHTML}br") is not None  # a cell's line break
    assert untitled.find(f"{XHTML}caption") is None  # "[Table]" took the next unused table
    assert all_text(untitled.find(f"{XHTML}tbody")) == "untitled cell"
    text = all_text(root)
    assert "[Table" not in text and "[Figure 1" not in text
    # Tables stand where their placeholders stood: after the intro, around the lists.
    kinds = [child.tag.removeprefix(XHTML) for child in root]
    assert kinds == ["p", "table", "ul", "ol", "table", "p", "p", "p", "p"]


def test_images_lists_and_leftovers():
    root = xhtml(section_xhtml(sample()["toc"][0]["subsections"][0]))
    img = root.find(f"{XHTML}p/{XHTML}img")
    assert img.get("src") == "images/1.1_Synopsis/image_001.png" and img.get("alt") == "Figure 1: Study Schema"
    assert len(root.findall(f".//{XHTML}img")) == 1  # Figure 2 has no file: its caption only
    paragraphs = [all_text(p) for p in root.findall(f"{XHTML}p")]
    assert "Figure 1: Study Schema" in paragraphs and "Figure 2: Not written" in paragraphs
    assert [li.text for li in root.findall(f"{XHTML}ul/{XHTML}li")] == ["first bullet", "second bullet"]
    # Blank lines between the items make a loose list: each item's text is in a <p> of its own.
    assert [all_text(li).strip() for li in root.findall(f"{XHTML}ol/{XHTML}li")] == ["criterion one", "criterion two"]
    # A table no placeholder names is appended; a placeholder naming nothing stays text.
    extra = node("3", "X", [1, 1], "[Table 9: Missing]\n\nText.", tables=[table("Table 5: Orphan", ["c"], [["v"]])])
    root = xhtml(section_xhtml(extra))
    assert [child.tag.removeprefix(XHTML) for child in root] == ["p", "p", "table"]
    assert all_text(root[0]) == "[Table 9: Missing]"
    assert root[2].find(f"{XHTML}caption").text == "Table 5: Orphan"


def test_nested_and_numbered_lists_keep_their_numbers():
    # CommonMark nests a list indented to its parent item's text (docling indents by 4).
    text = "3. third\n\n4. fourth\n    - sub a\n    - sub b\n\n6. sixth\ncontinued"
    root = xhtml(section_xhtml(node("1", "L", [1, 1], text)))
    # XHTML 1.1 (USDM's) has no ol/@start or li/@value: the printed numbers are in the items.
    ol = root.find(f"{XHTML}ol")
    assert ol.get("start") is None and ol.get("style") == "list-style-type: none"
    items = ol.findall(f"{XHTML}li")
    assert [li.get("value") for li in items] == [None, None, None]
    assert [all_text(li).split()[0] for li in items] == ["3.", "4.", "6."]
    assert [li.text for li in items[1].findall(f"{XHTML}ul/{XHTML}li")] == ["sub a", "sub b"]
    assert all_text(items[2]).split() == ["6.", "sixth", "continued"] and items[2].find(f".//{XHTML}br") is not None
    # a list numbered 1, 2, 3 keeps its own numbering; an empty item still shows its number
    plain = xhtml(section_xhtml(node("1", "L", [1, 1], "1. one\n2. two")))
    assert plain.find(f"{XHTML}ol").get("style") is None and [li.text for li in plain.iter(f"{XHTML}li")] == [
        "one",
        "two",
    ]
    gap = xhtml(section_xhtml(node("1", "L", [1, 1], "2) a\n3)\n4) c")))
    assert [all_text(li) for li in gap.iter(f"{XHTML}li")] == ["2) a", "3) ", "4) c"]


def test_status_and_wrapper(usdm_schema):
    usdm = to_usdm(sample())
    sddv = document_version(usdm)
    assert sddv["status"] == {
        "id": "Code_0001",
        "code": "C85255",
        "decode": "Draft",
        "codeSystem": "http://www.cdisc.org",
        "codeSystemVersion": "2025-09-26",
        "instanceType": "Code",
    }
    assert sddv["version"] == "1" and sddv["instanceType"] == "StudyDefinitionDocumentVersion"
    # One Wrapper: its four keys only; the narrative in the study, where the published files have it.
    assert set(usdm) == {"usdmVersion", "systemName", "systemVersion", "study"}
    assert usdm["usdmVersion"] == "4.0.0" and usdm["systemName"] == "ClinParser" and usdm["systemVersion"] == "0.1.0"
    document = usdm["study"]["documentedBy"][0]
    assert document["instanceType"] == "StudyDefinitionDocument" and document["versions"] == [sddv]
    assert (document["type"]["code"], document["language"]["code"]) == ("C70817", "en")
    assert document["description"] == "Read by ClinParser from protocol.pdf"
    version = usdm["study"]["versions"][0]
    assert version["documentVersionIds"] == [sddv["id"]] and version["narrativeContentItems"] == narrative_items(usdm)
    assert {i["id"] for i in narrative_items(usdm)} == {c["contentItemId"] for c in sddv["contents"]}
    assert_valid_usdm(usdm_schema, usdm)
    # A result with nothing in it is still a whole Wrapper, with a minimal Study.
    empty = to_usdm({"toc": [], "non_toc": [], "metadata": {}})
    assert_valid_usdm(usdm_schema, empty)
    assert empty["study"]["name"] == "Study" and study_design(empty)["encounters"] == []


def test_usdm_errors_can_fail(usdm_schema):
    usdm = to_usdm(sample())
    assert usdm_errors(usdm, usdm_schema) == []
    broken = copy.deepcopy(usdm)
    broken["studyDesign"] = {}
    del contents_of(broken)[1]["instanceType"]
    del narrative_items(broken)[2]["text"]
    study_version = broken["study"]["versions"][0]
    study_version["roles"] = [
        {
            "id": "StudyRole_9",
            "name": "R",
            "code": DRAFT_STATUS | {"id": "C", "instanceType": "Code"},
            "appliesToIds": ["Nowhere"],
            "instanceType": "StudyRole",
        }
    ]
    errors = usdm_errors(broken, usdm_schema)
    assert "Wrapper: unexpected key studyDesign" in errors
    assert any(e.startswith("NarrativeContent_0002: ") and "instanceType" in e for e in errors)
    assert any(e.startswith("NarrativeContentItem_0003: ") and "text" in e for e in errors)
    assert "StudyRole_9: appliesToIds Nowhere names neither the version nor a design" in errors


def test_names_are_made_unique_per_class_in_document_order():
    tree = {
        "a": [{"name": "Day 1", "instanceType": "Encounter"}, {"name": "Day 1", "instanceType": "Timing"}],
        "b": {
            "name": "Day 1",
            "instanceType": "Encounter",
            "x": [{"name": "Day 1 (2)", "instanceType": "Encounter"}, {"name": "Day 1", "instanceType": "Encounter"}],
        },
    }
    unique_names(tree)
    assert [o["name"] for o in (tree["a"][0], tree["b"], tree["b"]["x"][0], tree["b"]["x"][1])] == [
        "Day 1",
        "Day 1 (3)",
        "Day 1 (2)",
        "Day 1 (4)",
    ]
    assert tree["a"][1]["name"] == "Day 1"  # another class
    # the export: two sections of one title are two names
    result = sample()
    result["toc"].append(node("", "INTRODUCTION", [9, 9], "Again."))
    result["toc"][1]["number"] = ""
    names = [c["name"] for c in contents_of(to_usdm(result))]
    assert len(set(names)) == len(names) and "INTRODUCTION (2)" in names


def test_a_section_number_printed_twice_is_qualified_by_its_parent():
    result = {
        "toc": [
            node("1", "Body", [1, 1]),
            node("Appendix 2", "Forms", [2, 3], subsections=[node("1", "Consent", [2, 2]), node("2", "Diary", [3, 3])]),
        ],
        "non_toc": [],
        "metadata": {},
    }
    contents = contents_of(to_usdm(result))
    assert [c["sectionNumber"] for c in contents] == ["1", "Appendix 2", "Appendix 2 / 1", "2"]
    assert all(c["displaySectionNumber"] for c in contents)
    twice = {"toc": [node("1", "A", [1, 1]), node("1", "B", [2, 2])], "non_toc": [], "metadata": {}}
    assert [(c["sectionNumber"], c["displaySectionNumber"], c["name"]) for c in contents_of(to_usdm(twice))] == [
        ("1", True, "1 A"),
        (None, False, "1 B"),
    ]


_PIECES = list("ab <>&\"'*_`~#-|[]()\\1.\n\t\x00\x0c\u00e9") + [
    "**",
    "\n\n",
    "[Table]",
    "<br>",
    "- ",
    "1. ",
    "](x)",
    "[a](b)",
    "`",
]
markdownish = st.lists(st.sampled_from(_PIECES), max_size=60).map("".join)


@settings(max_examples=300, deadline=None)
@given(markdownish, markdownish)
def test_any_text_gives_well_formed_xhtml(text, title):
    n = node("1", title, [1, 1], text, tables=[table(title, [title], [[text]])], images=[image(title, title or None)])
    xhtml(section_xhtml(n))


# --- end to end --------------------------------------------------------------------------------
def _preorder(nodes):
    for n in nodes:
        yield n
        yield from _preorder(n["subsections"])


def test_example_protocol_exports_valid_usdm(example_run, usdm_schema):
    result, _folder = example_run
    usdm = to_usdm(result)
    assert_valid_usdm(usdm_schema, usdm)
    contents, items = contents_of(usdm), narrative_items(usdm)
    assert usdm["study"]["documentedBy"][0]["description"] == f"Read by ClinParser from {result['metadata']['source']}"
    # Every section of the tree, toc and non_toc, appears exactly once.
    expected = Counter((n["number"] or None, n["title"]) for n in _preorder(result["toc"] + result["non_toc"]))
    assert Counter((c["sectionNumber"], c["sectionTitle"]) for c in contents) == expected
    numbered = [c["sectionNumber"] for c in contents if c["sectionNumber"]]
    assert numbered == [n["number"] for n in _preorder(result["toc"])]
    assert len(items) == len(contents) and len({i["id"] for i in items}) == len(items)
    assert_tree_consistent(contents)
    # Every table and figure is rendered once, in the section that holds it.
    by_item = {i["id"]: i for i in items}
    sections = list(_preorder(result["toc"]))
    numbered_contents = [c for c in contents if c["sectionNumber"]]
    for section, content in zip(sections, numbered_contents):
        root = xhtml(by_item[content["contentItemId"]]["text"])
        assert len(root.findall(f".//{XHTML}table")) >= len(section["tables"]), section["number"]
        captions = [c.text for c in root.findall(f".//{XHTML}table/{XHTML}caption")]
        assert captions == [t["title"] for t in section["tables"] if t["title"]]
        assert [i.get("src") for i in root.findall(f".//{XHTML}img")] == [
            im["path"] for im in section["images"] if im["path"]
        ]
        for t in section["tables"]:
            assert f"[{t['title']}]" not in all_text(root)
    assert sum(len(s["tables"]) for s in sections) >= 3 and sum(len(s["images"]) for s in sections) >= 2
    assert json.dumps(to_usdm(result), sort_keys=True) == json.dumps(usdm, sort_keys=True)


CORPUS_DOCS = [
    "Alexion_NCT04573309_Wilsons.pdf",
    "Amgen_NCT03283098_Kidney.pdf",
    "CDISC_Pilot_Study.pdf",
    "CDISC_Pilot_Study_ICH_M11.docx",
    "Inv_NCT03523273_Weight.pdf",
    "KalVista_NCT05259917_Angioedema.pdf",
]


@pytest.mark.corpus
@pytest.mark.parametrize("name", CORPUS_DOCS)
def test_real_protocols_export_valid_usdm(corpus_run, usdm_schema, name):
    """Real text (multi-page schedules of activities; a printed TOC after numbered signature
    pages) exports to valid USDM with every section once and well-formed XHTML."""
    result, _ = corpus_run(name)
    usdm = to_usdm(result)
    assert_valid_usdm(usdm_schema, usdm)
    contents = contents_of(usdm)
    expected = Counter((n["number"] or None, n["title"]) for n in _preorder(result["toc"] + result["non_toc"]))
    assert Counter((c["sectionNumber"], c["sectionTitle"]) for c in contents) == expected
    assert_tree_consistent(contents)
    for item in narrative_items(usdm):
        xhtml(item["text"])
    rendered = sum(len(xhtml(i["text"]).findall(f".//{XHTML}table")) for i in narrative_items(usdm))
    assert rendered >= sum(len(n["tables"]) for n in _preorder(result["toc"] + result["non_toc"]))
    # the printed TOC's node: its title as printed, or, when the heading was read into the TOC's
    # table (KalVista under --layout auto), the node's own "Table of Contents"
    titles = [c["sectionTitle"].upper() for c in contents]
    if name.startswith(("Alexion", "KalVista")):  # printed TOCs the body follows
        assert contents[titles.index("TABLE OF CONTENTS") + 1]["displaySectionNumber"]


def test_raw_inline_html_from_the_converter_becomes_wellformed_xhtml():
    import xml.etree.ElementTree as ET

    from clinparser.export.usdm import section_xhtml

    node = {
        "number": "1",
        "title": "T",
        "level": 1,
        "pages": [1, 1],
        "tables": [],
        "images": [],
        "references": [],
        "subsections": [],
        "text": "Dose in mg/m<sup>2</sup> on the <u>first</u> day<br>next line "
        "<!-- Start of picture text --> and <u>unclosed",
    }
    xhtml = section_xhtml(node)
    root = ET.fromstring(xhtml)
    assert root.tag == "{http://www.w3.org/1999/xhtml}div"
    # USDM's XHTML 1.1 has no <u>: an underline is a styled span
    assert (
        "<sup>2</sup>" in xhtml
        and '<span style="text-decoration: underline">first</span>' in xhtml
        and "<br />" in xhtml
    )
    assert "<u>" not in xhtml
    assert "Start of picture text" not in xhtml and "&lt;u&gt;" not in xhtml
