"""Lists (``objectives/lists.py``): sub-items nested by indent, numbering and glyphs."""

from objectives_builders import document, no_blocks, section

from clinparser.study.objectives import read_objectives
from clinparser.study.trace import Tracer


def test_sub_items_hang_from_an_item_ending_in_a_colon():
    text = "- Change from baseline in:\n- Body weight (kg)\n- Waist (cm)\n- Number of adverse events\n"
    doc = document(
        section(
            "4",
            "Objectives and endpoints",
            "",
            (20, 20),
            subsections=[
                section("4.1", "Primary objective", "To compare weight loss.", (20, 20)),
                section("4.2", "Primary endpoints", text, (20, 20)),
            ],
        )
    )
    blocks = [
        {"page": 20, "bbox": [90, 100 + 15 * i, 300, 110 + 15 * i], "text": t, "kind": "list-item"}
        for i, t in enumerate(
            ["- Change from baseline in:", "- Body weight (kg)", "- Waist (cm)", "- Number of adverse events"]
        )
    ]
    for block in blocks[1:3]:
        block["bbox"][0] = 126  # the sub-items are indented on the page
    objectives, _ = read_objectives(doc, Tracer(blocks))
    assert [e["text"] for e in objectives[0]["endpoints"]] == [
        "Change from baseline in: Body weight (kg) Waist (cm)",
        "Number of adverse events",
    ]
    assert objectives[0]["endpoints"][1]["pages"] == [20]
    assert objectives[0]["endpoints"][1]["boxes"] == [{"page": 20, "bbox": [90, 145, 300, 155]}]


# --- layouts of protocols the readers were not developed on (issue 45) -----------------------


def test_a_numbered_list_keeps_lettered_and_restarted_items_inside_their_number():
    text = (
        "Several secondary endpoints will be assessed:\n\n1. All-cause mortality through Day 90\n\n"
        "2. (a) Composite of days at home and death;\n\n- (b) a dichotomous composite at Day 90;\n\n"
        "3. Clinical organ failure defined by any of the following:\n\n- a. Respiratory dysfunction\n\n"
        "1. Increase in respiratory support\n\n4. Safety and tolerability\n"
    )
    doc = document(
        section("2", "Objectives", "## Secondary\n\nTo compare X with control.\n", (3, 3)),
        section("4.1.2", "Secondary outcomes", text, (15, 15)),
    )
    objectives, _ = read_objectives(doc, no_blocks())
    assert [e["text"] for o in objectives for e in o["endpoints"]] == [
        "All-cause mortality through Day 90",
        "Composite of days at home and death; a dichotomous composite at Day 90;",
        (
            "Clinical organ failure defined by any of the following: "
            "Respiratory dysfunction Increase in respiratory support"
        ),
        "Safety and tolerability",
    ]


def test_items_without_the_list_glyph_are_sub_items_and_bare_measure_names_are_endpoints():
    doc = document(
        section(
            "4.1",
            "Objectives",
            "## Primary objective\n\nTo compare X with placebo on weight.\n\n"
            "## Secondary objective\n\nTo compare X with placebo on lipids.\n",
            (18, 18),
        ),
        section(
            "4.2",
            "Endpoints",
            "",
            (20, 20),
            subsections=[
                section("4.2.1", "Primary endpoint", "Change from week 20 to week 68 in body weight (%)\n", (20, 20)),
                section(
                    "4.2.2",
                    "Secondary endpoints",
                    "Change in:\n\n- ! Waist circumference (cm)\n\n- ! Lipids (mg/dL)\n\n"
                    "- Total cholesterol\n\n- Triglycerides\n\nThe analysis is described in section 9.\n",
                    (20, 20),
                ),
            ],
        ),
    )
    objectives, _ = read_objectives(doc, no_blocks())
    assert [(e["level"], e["text"]) for o in objectives for e in o["endpoints"]] == [
        ("primary", "Change from week 20 to week 68 in body weight (%)"),
        ("secondary", "Waist circumference (cm)"),
        ("secondary", "Lipids (mg/dL) Total cholesterol Triglycerides"),
    ]
