"""Objectives-and-endpoints tables (``objectives/tables.py``): level rows and columns, column
choice, placeholder and estimand cells."""

from objectives_builders import document, flat, no_blocks, section

from clinparser.study.objectives import read_objectives


def test_table_with_spanning_level_rows():
    table = {
        "title": "Objectives and Endpoints",
        "page": 5,
        "pages": [5],
        "columns": ["Objectives", "Endpoints"],
        "data": [
            ["Primary", "Primary"],
            ["To compare drug X with placebo on weight", "Change in body weight at week 12"],
            ["Secondary", "Secondary"],
            ["To assess safety of drug X", "\u2022\nAdverse events\n\u2022\nVital signs"],
            ["", "\u2022\nLaboratory values"],
        ],
    }
    doc = document(section("3", "Objectives and Endpoints", "[Table]", (5, 5), [table]))
    objectives, diagnostics = read_objectives(doc, no_blocks())
    assert flat(objectives) == [
        (
            "primary",
            "Primary",
            "To compare drug X with placebo on weight",
            "3",
            [("primary", "Primary", "Change in body weight at week 12", "3")],
        ),
        (
            "secondary",
            "Secondary",
            "To assess safety of drug X",
            "3",
            [
                ("secondary", "Secondary", "Adverse events", "3"),
                ("secondary", "Secondary", "Vital signs", "3"),
                ("secondary", "Secondary", "Laboratory values", "3"),
            ],
        ),
    ]
    assert diagnostics == []


def test_table_with_a_level_column():
    table = {
        "title": "",
        "page": 7,
        "pages": [7],
        "columns": ["Type", "Objective", "Endpoint"],
        "data": [
            ["Primary", "To show efficacy", "Response at week 14"],
            ["Tertiary/Exploratory", "To explore biomarkers", "Serum markers"],
        ],
    }
    doc = document(section("2", "Study Objectives", "[Table]", (7, 7), [table]))
    objectives, _ = read_objectives(doc, no_blocks())
    assert flat(objectives) == [
        ("primary", "Primary", "To show efficacy", "2", [("primary", "Primary", "Response at week 14", "2")]),
        (
            "exploratory",
            "Tertiary/Exploratory",
            "To explore biomarkers",
            "2",
            [("exploratory", "Tertiary/Exploratory", "Serum markers", "2")],
        ),
    ]


def test_a_placeholder_endpoint_cell_gives_no_endpoint():
    table = {
        "title": "",
        "page": 5,
        "pages": [5],
        "columns": ["Objectives", "Endpoints"],
        "data": [
            ["Primary", ""],
            ["To show efficacy", "Response at week 14"],
            ["To explore biomarkers", "TBD"],
            ["To explore exposure", "Not applicable"],
        ],
    }
    objectives, _ = read_objectives(
        document(section("3", "Objectives and Endpoints", "[Table]", (5, 5), [table])), no_blocks()
    )
    assert [(o["text"], [e["text"] for e in o["endpoints"]]) for o in objectives] == [
        ("To show efficacy", ["Response at week 14"]),
        ("To explore biomarkers", []),
        ("To explore exposure", []),
    ]


# --- layouts of protocols the readers were not developed on (issue 45) -----------------------


def test_endpoints_column_before_outcome_measure_and_a_category_column_sets_no_level():
    table = {
        "title": "",
        "page": 44,
        "pages": [44],
        "columns": ["Objectives", "Outcome Measure", "Endpoints", "Category"],
        "data": [
            ["Primary", "", "", ""],
            [
                "To investigate the activity of X",
                "Title:ORR\nTime frame: baseline",
                "ORR is the share of responders.",
                "Efficacy",
            ],
            ["Exploratory", "", "", ""],
            ["To explore biomarkers\nthat predict benefit", "Not applicable", "Gene expression", "Biomarker"],
        ],
    }
    doc = document(section("3", "Objectives, Outcome Measures, and Endpoints", "[Table]", (44, 44), [table]))
    objectives, _ = read_objectives(doc, no_blocks())
    assert flat(objectives) == [
        (
            "primary",
            "Primary",
            "To investigate the activity of X",
            "3",
            [("primary", "Primary", "ORR is the share of responders.", "3")],
        ),
        (
            "exploratory",
            "Exploratory",
            "To explore biomarkers that predict benefit",
            "3",
            [("exploratory", "Exploratory", "Gene expression", "3")],
        ),
    ]


def test_a_column_of_bullet_glyphs_is_not_the_objectives_column():
    table = {
        "title": "",
        "page": 5,
        "pages": [5],
        "columns": ["Objectives", "Objectives", "Endpoints"],
        "data": [
            ["Primary", "", ""],
            ["\u2022", "To compare X with placebo on pain", "Pain score at week 12"],
            ["\u2022", "To describe the safety of X", "Adverse events"],
        ],
    }
    doc = document(section("3", "Objectives and Endpoints", "[Table]", (5, 5), [table]))
    objectives, _ = read_objectives(doc, no_blocks())
    assert [(o["text"], [e["text"] for e in o["endpoints"]]) for o in objectives] == [
        ("To compare X with placebo on pain", ["Pain score at week 12"]),
        ("To describe the safety of X", ["Adverse events"]),
    ]


def test_estimand_cells_give_their_endpoint_and_a_supplementary_estimand_row_no_objective():
    estimand = (
        "Population: Adults with asthma.\nEndpoint: Change from baseline in mucus plug volume at\nWeek 26.\n"
        "Summary Measure: Mean change.\nIntercurrent Event and Handling strategies:\n"
        "\u2022\nTreatment switch: hypothetical"
    )
    table = {
        "title": "",
        "page": 44,
        "pages": [44],
        "columns": ["Objective", "Endpoint and Estimand"],
        "data": [
            ["Primary", ""],
            ["To describe the change in mucus plug volume", estimand],
            ["Other Secondary", ""],
            [
                "1. To describe the change in wall\nthickness at",
                "Population: Same.\nEndpoint: Wall thickness at Week 52",
            ],
            ["Week 52 after treatment", "Summary Measure: Mean change at Week 52."],
            ["Supplementary (Primary Estimand)", ""],
            ["To describe the change in mucus plug volume", estimand],
        ],
    }
    doc = document(section("3", "Objectives, Endpoints and Estimands", "[Table]", (44, 44), [table]))
    objectives, _ = read_objectives(doc, no_blocks())
    assert [(o["level"], o["text"], [e["text"] for e in o["endpoints"]]) for o in objectives] == [
        (
            "primary",
            "To describe the change in mucus plug volume",
            ["Change from baseline in mucus plug volume at Week 26."],
        ),
        (
            "secondary",
            "To describe the change in wall thickness at Week 52 after treatment",
            ["Wall thickness at Week 52"],
        ),
    ]
