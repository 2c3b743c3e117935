"""Cross-references: "Section 5.2", "Appendix 2", "Table 3", "Figure 1" in a node's text,
resolved to the node (or the node's table/figure) they point at."""

from __future__ import annotations

import pytest

from clinparser.content.references import _Lookup, resolve_references
from clinparser.model import Image, Section, Table
from clinparser.shared.numbering import normalize_number


def S(number: str, title: str, text: str = "", *children: Section, tables=(), images=(), pages=(None, None)) -> Section:
    level = 1 + number.rstrip(".").count(".") if number and number[0].isdigit() else 1
    return Section(
        number,
        title,
        level,
        pages=list(pages),
        text=text,
        subsections=list(children),
        tables=list(tables),
        images=list(images),
    )


def T(title: str) -> Table:
    return Table(title=title, page=1, pages=[1, 1], columns=["a"], data=[["Section 9.9 in a cell"]])


def I(title: str) -> Image:  # noqa: E743
    return Image(title=title, page=1, bbox=(0, 0, 10, 10), width=10, height=10)


def refs(text: str, *tree: Section, non_toc=()) -> tuple[list[dict], list[dict]]:
    """(references of a node holding ``text``, unresolved) in a document made of ``tree`` + that node."""
    probe = S("99", "Probe", text)
    unresolved = resolve_references([*tree, probe], list(non_toc))
    return probe.references, unresolved


def targets(text: str, *tree: Section) -> list:
    return [r["target"] for r in refs(text, *tree)[0]]


DECIMAL = [
    S("5.", "STUDY POPULATION", "", S("5.1.", "Inclusion"), S("5.2.", "Exclusion")),
    S(
        "6",
        "STUDY INTERVENTION",
        "",
        S("6.1", "Administered", "", S("6.1.1", "Preparation")),
        S("6.2", "Dose"),
        S("6.3", "Compliance"),
        S("6.4", "Concomitant"),
    ),
    S("8", "ASSESSMENTS", "", S("8.3", "Safety", "", S("8.3.1", "Vital Signs"))),
]


# --- sections -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, mention, target",
    [
        ("as described in Section 8.3.1.", "Section 8.3.1", "8.3.1"),
        ("see section 5.2 for details", "section 5.2", "5.2."),
        ("the criteria (see 5.2) apply", "see 5.2", "5.2."),
        ("See 8.3.1 below.", "See 8.3.1", "8.3.1"),
        ("in **Section 6.2**.", "Section 6.2", "6.2"),
        ("in SECTION 6.", "SECTION 6", "6"),
        ("Section: 6.4 Concomitant", "Section: 6.4", "6.4"),
        ("Section 5 and 10 patients", "Section 5", "5."),
    ],
)
def test_section_mentions_resolve_to_the_node_as_the_document_spells_it(text, mention, target):
    (ref,), unresolved = refs(text, *DECIMAL)
    assert ref == {"text": mention, "kind": "section", "target": target}
    assert unresolved == []


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Sections 6.1 and 6.3", ["6.1", "6.3"]),
        ("Sections 6.1 to 6.3", ["6.1", "6.2", "6.3"]),
        ("Sections 6.1-6.3", ["6.1", "6.2", "6.3"]),
        ("Sections 6.1\u20136.4", ["6.1", "6.2", "6.3", "6.4"]),
        ("Sections 6.1, 6.2, and 8.3", ["6.1", "6.2", "8.3"]),
        ("Sections 6.1.1 through 6.2", ["6.1.1", "6.2"]),
    ],
)
def test_lists_and_ranges_each_give_a_reference(text, expected):
    # A range holds the nodes between its ends, no deeper than they are (6.1.1 is in 6.1).
    (references, unresolved) = refs(text, *DECIMAL)
    assert [r["target"] for r in references] == expected
    assert {r["text"] for r in references} == {text} and unresolved == []


def test_a_range_expands_only_to_sections_the_tree_has():
    tree = [S("6", "X", "", S("6.1", "A"), S("6.3", "C"), S("6.4", "D"))]  # no 6.2
    assert targets("Sections 6.1 to 6.3", *tree) == ["6.1", "6.3"]
    assert targets("Sections 6.1 to 6.9", *tree) == ["6.1", None]


def test_roman_outline_paths():
    b = S("B.", "Treatment Plan", "", S("1.", "Dose Levels"), S("2.", "Dose-Limiting Toxicity"))
    tree = [
        S("I.", "INTRODUCTION", "", S("A.", "Background"), S("B.", "Rationale", "", S("1.", "Dose Selection"))),
        S("II.", "OBJECTIVES", "", S("A.", "Primary")),
        S("III.", "STUDY DESIGN", "", S("A.", "Overall"), b),
    ]
    text = "See Section III.B for the rules, Section III.B.2 for DLTs and Section II for the aims."
    assert targets(text, *tree) == ["B.", "2.", "II."]
    lookup = _Lookup(tree, [])
    assert lookup.node("section", "III.B") is b
    assert lookup.node("section", "III.B.2") is b.subsections[1]
    assert lookup.node("section", "I.B.1") is tree[0].subsections[1].subsections[0]
    assert lookup.node("section", "B") is None  # "B." alone means nothing in an outline


def test_a_numbered_item_inside_a_node_resolves_to_that_node():
    tree = [S("4", "ELIGIBILITY", "", S("4.2", "Exclusion", "- 4.2.3 Pregnant\n\n4.2.4 Not using contraception"))]
    assert targets("as in section 4.2.4", *tree) == ["4.2"]
    assert targets("as in section 4.2.9", *tree) == [None]  # no such item: unresolved


def test_numbers_compare_normalized():
    tree = [S("1.0", "INTRODUCTION"), S("Section 3", "DESIGN")]
    assert targets("Section 1 and Section 3.", *tree) == ["1.0", "Section 3"]


# --- appendices ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, tree, target",
    [
        ("listed in Appendix 2.", [S("APPENDIX 2", "Laboratory Tests")], "APPENDIX 2"),
        ("listed in Appendix 2.", [S("Appendix 2", "Laboratory Tests")], "Appendix 2"),
        ("listed in Appendix A.", [S("Appendix A", "Additional Safety")], "Appendix A"),
        ("see Attachment LZZT.4.", [S("Protocol Attachment LZZT.4", "NPI-X")], "Protocol Attachment LZZT.4"),
        ("see Protocol Attachment LZZT.4.", [S("Protocol Attachment LZZT.4", "NPI-X")], "Protocol Attachment LZZT.4"),
        (
            "listed in Appendix 2.",
            [S("10", "SUPPORTING", "", S("10.2", "Appendix 2: Clinical Laboratory Tests"))],
            "10.2",
        ),
        ("listed in Appendix 10.3.", [S("10", "SUPPORTING", "", S("10.3", "Appendix 3: Adverse Events"))], "10.3"),
        ("listed in Appendix A.1.", [S("APPENDIX A", "LABS", "", S("A.1", "Hematology"))], "A.1"),
    ],
)
def test_appendix_styles(text, tree, target):
    (ref,), unresolved = refs(text, *tree)
    assert ref["kind"] == "appendix" and ref["target"] == target and unresolved == []


def test_a_real_appendix_number_wins_over_a_title_that_says_appendix():
    tree = [S("10", "SUPPORTING", "", S("10.2", "Appendix 2: Labs")), S("APPENDIX 2", "Other")]
    assert targets("Appendix 2", *tree) == ["APPENDIX 2"]


# --- tables and figures --------------------------------------------------------------------------


def test_tables_and_figures_resolve_to_their_node_and_index():
    tree = [
        S(
            "1",
            "SUMMARY",
            "",
            S("1.2", "Schema", images=[I("Figure 1: Study Schema")]),
            S("1.3", "SoA", tables=[T("Table 1a: Visits"), T("Table 1b: Labs")]),
        ),
        S("3", "OBJECTIVES", tables=[T("Table 2: Objectives"), T("**Table 3:** Dosing"), T("Table LZZT.1. Labs")]),
    ]
    text = (
        "Table 3 gives the doses; Figure 1 the design; Table 1b the labs, Table LZZT.1 the panel; "
        "Table 1 the schedule (its first part is Table 1a)."
    )
    references, unresolved = refs(text, *tree)
    assert [(r["text"], r["kind"], r["target"]) for r in references] == [
        ("Table 3", "table", {"section": "3", "index": 2}),
        ("Figure 1", "figure", {"section": "1.2", "index": 1}),
        ("Table 1b", "table", {"section": "1.3", "index": 2}),
        ("Table LZZT.1", "table", {"section": "3", "index": 3}),
        ("Table 1", "table", {"section": "1.3", "index": 1}),
        ("Table 1a", "table", {"section": "1.3", "index": 1}),
    ]
    assert unresolved == []


def test_a_figure_mention_does_not_resolve_to_a_table():
    tree = [S("3", "X", tables=[T("Table 2: Objectives")])]
    assert targets("Figure 2", *tree) == [None]


# --- unresolved, order, what is not a reference --------------------------------------------------


def test_unresolved_mentions_get_a_null_target_and_are_returned():
    tree = [S("5", "POP", "Details are in Section 12.4 and Table 9.\n\nSee Appendix 7.", pages=(4, 4))]
    unresolved = resolve_references(tree, [])
    assert [(r["text"], r["target"]) for r in tree[0].references] == [
        ("Section 12.4", None),
        ("Table 9", None),
        ("Appendix 7", None),
    ]
    assert unresolved == [
        {"text": "Section 12.4", "kind": "section", "section": "5", "page": 4},
        {"text": "Table 9", "kind": "table", "section": "5", "page": 4},
        {"text": "Appendix 7", "kind": "appendix", "section": "5", "page": 4},
    ]


def test_order_of_appearance_and_no_duplicates():
    text = "Section 6.2 and Table 9 first. Then Section 5.2 and again Section 6.2; also section 6.2."
    references, _ = refs(text, *DECIMAL)
    assert [(r["text"], r["target"]) for r in references] == [
        ("Section 6.2", "6.2"),
        ("Table 9", None),
        ("Section 5.2", "5.2."),
        ("section 6.2", "6.2"),
    ]


def test_a_mention_wrapped_over_two_lines_is_found():
    assert targets("as described in Section\n6.2 of this protocol", *DECIMAL) == ["6.2"]


@pytest.mark.parametrize(
    "text",
    [
        "[Table 2: Schedule of Activities]",
        "[Figure 1: Study Schema]",
        "[Table]\n\n[Image]",
        "|Section 5.2|Table 3|",
        "5.2 Exclusion Criteria ........................ 23",
        "This section describes the design; the following sections give details.",
        "See the Table of Contents.",
        "see Table below",
        "Page 5 of 80",
        "dosed at 10 mg/kg (see 2.5 mg/kg for children)",
        "exposure rose (see 1.5 times the dose)",
        "under Section 505(i) of the Act",
        "as defined in Section 5(a)",
        "per 21 CFR Section 312.32",
        "in accordance with Section 4.8 of ICH E6",
        "refer to Part II, Sections 7, 8, and 10 of the Xanomeline Clinical Investigator's Brochure",
        "described in Section 9.1 of the Statistical Analysis Plan",
    ],
)
def test_what_is_not_a_reference(text):
    assert refs(text, *DECIMAL) == ([], [])


def test_table_cells_and_the_node_own_heading_are_not_read():
    node = S("5.2.", "Exclusion", "# 5.2. Exclusion (see Section 5.2)\n\nNot in Section 6.2.", tables=[T("Table 4: X")])
    resolve_references([S("5.", "POP", "", node), *DECIMAL[1:]], [])
    assert [r["target"] for r in node.references] == ["6.2"]  # the table's "Section 9.9" cell is not read


def test_listings_are_not_references():
    toc_node = S("", "Table of Contents", "5.2 Exclusion 23\n\nAppendix 2 Labs 40")
    front = S("", "Title Page", "Protocol X\n\n### **List of Attachments**\n\n- Protocol Attachment LZZT.1. Schedule")
    assert refs("", *DECIMAL, non_toc=[toc_node, front]) == ([], [])
    assert toc_node.references == [] and front.references == []


def test_non_toc_nodes_are_filled_too():
    front = S("", "Protocol Synopsis", "The design is in Section 6.1; the schedule in Section 1.3.")
    unresolved = resolve_references(DECIMAL, [front])
    assert [r["target"] for r in front.references] == ["6.1", None]
    assert unresolved == [{"text": "Section 1.3", "kind": "section", "section": ""}]


def test_every_node_is_reset_and_the_result_is_deterministic():
    tree = [S("6", "X", "See Section 6.1.", S("6.1", "Y", "See Section 6."))]
    first = resolve_references(tree, [])
    before = [n.references for n in tree[0].walk()]
    assert resolve_references(tree, []) == first
    assert (
        [n.references for n in tree[0].walk()]
        == before
        == [
            [{"text": "Section 6.1", "kind": "section", "target": "6.1"}],
            [{"text": "Section 6", "kind": "section", "target": "6"}],
        ]
    )


# --- the generated examples, end to end ----------------------------------------------------------


def _is_outline(truth_sections: list[dict]) -> bool:
    return bool(truth_sections) and normalize_number(truth_sections[0]["number"]) == "i"


def _by_key(nodes, number, children, roman: bool) -> dict:
    """Nodes by normalized number; in a Roman outline by path ("iii.b"), as mentions name them."""
    out: dict = {}

    def walk(items, path):
        for n in items:
            key = (*path, normalize_number(number(n)))
            out.setdefault(".".join(key), n)
            walk(children(n), key if roman else ())

    walk(nodes, ())
    return out


def _check_against_truth(pdf, truth):
    from clinparser.pipeline import ParseOptions, parse_document

    tree = parse_document(pdf, ParseOptions()).tree
    unresolved = resolve_references(tree.toc, tree.non_toc)
    roman = _is_outline(truth["sections"])
    truth_nodes = _by_key(truth["sections"], lambda n: n["number"], lambda n: n["subsections"], roman)
    nodes = _by_key(tree.toc, lambda n: n.number, lambda n: n.subsections, roman)
    assert any(t["references"] for t in truth_nodes.values())
    for key, t in truth_nodes.items():
        assert key in nodes, key
        sections = [r for r in nodes[key].references if r["kind"] == "section"]
        named = [r["text"].split()[-1].lower() for r in sections]  # "Section III.B" -> "iii.b"
        assert set(named) == {normalize_number(x) for x in t["references"]}, key
        for ref, name in zip(sections, named):
            # Resolved, and to the node the mention names: none resolves to a wrong node.
            assert ref["target"] is not None and nodes[name].number == ref["target"], (key, ref)
    assert [u for u in unresolved if u["kind"] in ("section", "appendix")] == []


def test_generated_example_references_match_its_truth(example):
    _check_against_truth(*example)


@pytest.mark.parametrize("name", ["protocol_002", "protocol_003"])
def test_other_generated_protocols_references_match_their_truth(name, generator, tmp_path):
    pdf = tmp_path / f"{name}.pdf"
    _check_against_truth(pdf, generator.build_named(name, pdf))


def test_pipeline_output_carries_the_references(example, example_run):
    """When the pipeline fills ``references``, the result carries what the truth records."""
    _, truth = example
    result, _ = example_run
    by_number = lambda n: n["number"]  # noqa: E731
    nodes = _by_key(result["toc"], by_number, lambda n: n["subsections"], False)
    for key, t in _by_key(truth["sections"], by_number, lambda n: n["subsections"], False).items():
        got = {
            normalize_number(r["target"]) for r in nodes[key]["references"] if r["kind"] == "section" and r["target"]
        }
        assert got == {normalize_number(x) for x in t["references"]}, key
