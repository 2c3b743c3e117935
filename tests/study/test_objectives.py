"""read_objectives on hand-built documents: one per layout, with the exact items expected."""

from clinparser.study.objectives import read_objectives
from clinparser.study.trace import Tracer


def section(number, title, text="", pages=(1, 1), tables=(), subsections=()):
    return {
        "number": number,
        "title": title,
        "level": number.count(".") + 1,
        "pages": list(pages),
        "text": text,
        "tables": list(tables),
        "images": [],
        "references": [],
        "subsections": list(subsections),
    }


def document(*toc, non_toc=()):
    return {"toc": list(toc), "non_toc": list(non_toc), "metadata": {}}


def no_blocks():
    return Tracer([])


def flat(objectives):
    """The fields that say what was read (pages and boxes are checked separately)."""
    return [
        (
            o["level"],
            o["label"],
            o["text"],
            o["section"],
            [(e["level"], e["label"], e["text"], e["section"]) for e in o["endpoints"]],
        )
        for o in objectives
    ]


def kinds(diagnostics):
    return [d["kind"] for d in diagnostics]


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


def test_headed_lists_with_endpoints_under_each_objective():
    text = (
        "## **Primary Objective**\n\n"
        "The primary objective is to evaluate efficacy on the basis of the following endpoint:\n\n"
        "- Clinical status at Day 28\n\n"
        "**Key Secondary Objectives:**\n\n"
        "The secondary objective is to evaluate efficacy on the basis of the following endpoints:\n\n"
        "- Time to recovery\n\n- Mortality at Day 28\n"
    )
    doc = document(section("2", "Objectives and Endpoints", text, (3, 3)))
    objectives, diagnostics = read_objectives(doc, no_blocks())
    assert flat(objectives) == [
        (
            "primary",
            "Primary",
            "The primary objective is to evaluate efficacy on the basis of the following endpoint:",
            "2",
            [("primary", "Primary", "Clinical status at Day 28", "2")],
        ),
        (
            "secondary",
            "Key Secondary",
            "The secondary objective is to evaluate efficacy on the basis of the following endpoints:",
            "2",
            [
                ("secondary", "Key Secondary", "Time to recovery", "2"),
                ("secondary", "Key Secondary", "Mortality at Day 28", "2"),
            ],
        ),
    ]
    assert diagnostics == []


def test_separate_endpoints_section_is_joined_by_level_and_order_and_diagnosed():
    objectives_section = section(
        "2",
        "Objectives",
        "",
        (4, 4),
        subsections=[
            section("2.1", "Primary Objective", "- To assess A\n", (4, 4)),
            section("2.2", "Secondary Objectives", "- To assess B\n- To assess C\n", (4, 4)),
            section("2.3", "Safety Objective", "- To assess safety\n", (4, 4)),
        ],
    )
    endpoints_section = section(
        "9.1",
        "Study Endpoints",
        "",
        (30, 30),
        subsections=[
            section("9.1.1", "Primary Endpoint", "The primary endpoint is A at week 4.", (30, 30)),
            section(
                "9.1.2",
                "Secondary Endpoints",
                "The secondary endpoints are:\n\n- B at week 4\n- C at week 4\n",
                (30, 30),
            ),
        ],
    )
    doc = document(objectives_section, section("9", "Statistics", "", (30, 30), subsections=[endpoints_section]))
    objectives, diagnostics = read_objectives(doc, no_blocks())
    assert flat(objectives) == [
        (
            "primary",
            "Primary",
            "To assess A",
            "2.1",
            [("primary", "Primary", "The primary endpoint is A at week 4.", "9.1.1")],
        ),
        ("secondary", "Secondary", "To assess B", "2.2", [("secondary", "Secondary", "B at week 4", "9.1.2")]),
        ("secondary", "Secondary", "To assess C", "2.2", [("secondary", "Secondary", "C at week 4", "9.1.2")]),
        ("secondary", "Safety", "To assess safety", "2.3", []),
    ]
    assert kinds(diagnostics) == [
        "objective_level_not_printed",
        "endpoints_joined_by_order",
        "endpoints_joined_by_order",
        "objective_without_endpoints",
    ]
    assert "2.3" in diagnostics[0]["detail"] and "secondary" in diagnostics[0]["detail"]
    assert "9.1.1" in diagnostics[1]["detail"] and "primary" in diagnostics[1]["detail"]
    assert "2.3" in diagnostics[3]["detail"]


def test_endpoint_with_no_objective_of_its_level_is_diagnosed():
    text = "**Primary Objective**\n\nTo show efficacy.\n\n"
    endpoints = "## Primary Endpoint\n\n- Time to relief\n\n## Exploratory Endpoint\n\n- Anxiety score\n"
    doc = document(
        section(
            "7",
            "Objectives and Endpoints",
            "",
            (9, 9),
            subsections=[section("7.1", "Objectives", text, (9, 9)), section("7.2", "Endpoints", endpoints, (9, 9))],
        )
    )
    objectives, diagnostics = read_objectives(doc, no_blocks())
    assert flat(objectives) == [
        (
            "primary",
            "Primary",
            "To show efficacy.",
            "7.1",
            [("primary", "Primary", "Time to relief", "7.2"), ("exploratory", "Exploratory", "Anxiety score", "7.2")],
        )
    ]
    assert kinds(diagnostics) == ["endpoints_joined_by_order", "endpoint_without_objective"]


def test_synopsis_copy_is_not_taken():
    synopsis = section("", "Synopsis", "**Primary Objective:**\n\nTo study X (synopsis wording).\n", (2, 2))
    body = section(
        "3",
        "Objectives",
        "",
        (10, 10),
        subsections=[section("3.1", "Primary", "To study X in adults (body wording).", (10, 10))],
    )
    objectives, diagnostics = read_objectives(document(body, non_toc=[synopsis]), no_blocks())
    assert [o["text"] for o in objectives] == ["To study X in adults (body wording)."]
    assert kinds(diagnostics) == ["objective_without_endpoints"]


def test_synopsis_is_the_fallback_and_says_so():
    synopsis = section(
        "",
        "Protocol Synopsis",
        "**Primary Objective:**\n\nTo study X.\n\n"
        "**Primary Endpoint:**\n\n- X at week 2\n\n**Study Design:**\n\nOpen label.",
        (2, 2),
    )
    body = section("5", "Study Design", "Open label, one arm.", (10, 10))
    objectives, diagnostics = read_objectives(document(body, non_toc=[synopsis]), no_blocks())
    assert flat(objectives) == [("primary", "Primary", "To study X.", "", [("primary", "Primary", "X at week 2", "")])]
    assert kinds(diagnostics)[0] == "objectives_from_synopsis"


def test_lead_in_sentence_and_its_bullets_are_one_objective_and_hypotheses_are_left_out():
    text = (
        "# **Primary Objective**\n\n"
        "_In adults with CKD, to assess the efficacy of drug X in reducing:_\n\n"
        "- The composite of ESKD and death\n\n"
        "# **Hypotheses**\n\nDrug X reduces the risk.\n"
    )
    doc = document(section("2", "Objectives and Hypotheses", text, (5, 5)))
    objectives, _ = read_objectives(doc, no_blocks())
    assert [o["text"] for o in objectives] == [
        "In adults with CKD, to assess the efficacy of drug X in reducing: The composite of ESKD and death"
    ]


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


def test_m11_objectives_and_estimands_headings_are_read_and_estimand_attributes_left_out():
    # ICH M11: "3 Trial Objectives and Associated Estimands", "3.1 Primary Objective(s) and
    # Associated Estimand(s)"; the estimand's attributes are labelled lines under the objective.
    primary = (
        "**Primary Objective:** To compare drug X with placebo on symptom score\n\n"
        "**Estimand:** the treatment effect at Week 24\n\n"
        "**Population:** Adults with mild to moderate disease\n\n"
        "**Treatment:** Drug X 10 mg or placebo\n\n"
        "**Endpoint:** Change from baseline in symptom score at Week 24\n\n"
        "**Intercurrent Events:** Treatment discontinuation, handled by treatment policy\n\n"
        "**Population-Level Summary:** Difference in mean change\n"
    )
    secondary = "The secondary objectives of this study are\n\n- To assess safety of drug X\n"
    doc = document(
        section(
            "3",
            "Trial Objectives and Associated Estimands",
            "",
            (16, 17),
            subsections=[
                section("3.1", "Primary Objective(s) and Associated Estimand(s)", primary, (16, 16)),
                section("3.2", "Secondary Objective(s) and Associated Estimand(s)", secondary, (17, 17)),
                section("3.3", "Exploratory Objective(s)", "Not applicable.", (17, 17)),
            ],
        )
    )
    objectives, diagnostics = read_objectives(doc, no_blocks())
    assert flat(objectives) == [
        (
            "primary",
            "Primary",
            "To compare drug X with placebo on symptom score",
            "3.1",
            [("primary", "Primary", "Change from baseline in symptom score at Week 24", "3.1")],
        ),
        ("secondary", "Secondary", "To assess safety of drug X", "3.2", []),
    ]
    assert kinds(diagnostics) == ["endpoints_joined_by_order", "objective_without_endpoints"]


def test_m11_body_objectives_take_their_endpoints_from_the_synopsis_table():
    # The body lists the objectives (with how each is measured run into the same bullet) but no
    # endpoints; the M11 synopsis table 1.1.1 pairs each objective with its endpoint. The body's
    # wording is kept, the synopsis gives the endpoints, a "TBD" endpoint is no endpoint.
    table = {
        "title": "",
        "page": 10,
        "pages": [10],
        "columns": ["Objectives", "Endpoints"],
        "data": [
            ["Primary", ""],
            ["To compare drug X with placebo on cognition.", "Change in ADAS-Cog at Week 24"],
            ["Secondary", ""],
            [
                "To assess the dose-dependent improvement in behavior.",
                "Improved scores on the NPI-X will indicate improvement",
            ],
            ["To assess the treatment response as a function of genotype.", "TBD"],
        ],
    }
    synopsis = section(
        "1.1",
        "Protocol Synopsis",
        "",
        (10, 10),
        subsections=[section("1.1.1", "Primary and Secondary Objectives and Estimands", "[Table]", (10, 10), [table])],
    )
    body = section(
        "3",
        "Trial Objectives and Estimands",
        "",
        (16, 17),
        subsections=[
            section(
                "3.1",
                "Primary Objective(s) and Associated Estimand(s)",
                "The primary objectives of this study are:\n\n- To compare drug X with placebo on cognition.\n",
                (16, 16),
            ),
            section(
                "3.2",
                "Secondary Objective(s) and Associated Estimand(s)",
                "The secondary objectives of this study are\n\n"
                "- To assess the dose-dependent improvement in behavior. Improved scores on the NPI-X will "
                "indicate improvement.\n\n- To assess the treatment response as a function of genotype.\n",
                (17, 17),
            ),
        ],
    )
    doc = document(section("1", "Protocol Summary", "", (10, 10), subsections=[synopsis]), body)
    objectives, diagnostics = read_objectives(doc, no_blocks())
    assert flat(objectives) == [
        (
            "primary",
            "Primary",
            "To compare drug X with placebo on cognition.",
            "3.1",
            [("primary", "Primary", "Change in ADAS-Cog at Week 24", "1.1.1")],
        ),
        (
            "secondary",
            "Secondary",
            "To assess the dose-dependent improvement in behavior. Improved scores on the NPI-X will indicate improvement.",
            "3.2",
            [("secondary", "Secondary", "Improved scores on the NPI-X will indicate improvement", "1.1.1")],
        ),
        ("secondary", "Secondary", "To assess the treatment response as a function of genotype.", "3.2", []),
    ]
    assert kinds(diagnostics) == ["endpoints_from_synopsis", "objective_without_endpoints"]
    assert "2 endpoint(s) of 2 objective(s)" in diagnostics[0]["detail"] and "1.1.1" in diagnostics[0]["detail"]


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


# The converter's table cells lose their bullets ("• " / "- " at a line start); the raw pipe table
# in the blocks keeps them, with <br> between a cell's lines.
RAW_TABLE = (
    "|**Objectives**|**Endpoints**|\n|---|---|\n|**Primary**||\n"
    "|To evaluate the effect of drug X on<br>itch at Week 12|Change from baseline to Week 12 in the<br>itch score|\n"
    "|**Secondary**||\n"
    "|To compare drug X with placebo on<br>hive control|\u2022 Proportion of participants with a hive<br>"
    "score of 6 or lower at Week 12<br>\u2022 Change from baseline to Week 12 in the<br>hive severity score|\n"
    "|To assess metabolic control|The secondary endpoints are as follows:<br>- Change from baseline in HbA1c<br>"
    "- Body weight|\n"
    "|To assess safety|Safety parameters:<br>\u2022 Adverse events<br>\u2022 Vital signs|"
)
CLEANED_TABLE = {
    "title": "Table 1: Objectives and Endpoints",
    "page": 3,
    "pages": [3],
    "columns": ["Objectives", "Endpoints"],
    "data": [
        ["Primary", ""],
        ["To evaluate the effect of drug X on\nitch at Week 12", "Change from baseline to Week 12 in the\nitch score"],
        ["Secondary", ""],
        [
            "To compare drug X with placebo on\nhive control",
            (
                "Proportion of participants with a hive\nscore of 6 or lower at Week 12\n"
                "Change from baseline to Week 12 in the\nhive severity score"
            ),
        ],
        [
            "To assess metabolic control",
            "The secondary endpoints are as follows:\nChange from baseline in HbA1c\nBody weight",
        ],
        ["To assess safety", "Safety parameters:\nAdverse events\nVital signs"],
    ],
}


def bulleted_table_document():
    return document(
        section("3", "Objectives and Endpoints", "[Table 1: Objectives and Endpoints]", (3, 3), [CLEANED_TABLE])
    )


def test_endpoint_cell_is_split_on_the_bullets_of_its_raw_table_block():
    blocks = [
        {
            "page": 3,
            "kind": "text",
            "bbox": [72, 90, 540, 110],
            "dropped": "",
            "text": "The objectives and endpoints are given in Table 1.",
        },
        {"page": 3, "kind": "table", "bbox": [72, 120, 540, 400], "dropped": "", "text": RAW_TABLE},
    ]
    objectives, diagnostics = read_objectives(bulleted_table_document(), Tracer(blocks))
    assert flat(objectives) == [
        (
            "primary",
            "Primary",
            "To evaluate the effect of drug X on itch at Week 12",
            "3",
            [("primary", "Primary", "Change from baseline to Week 12 in the itch score", "3")],
        ),
        (
            "secondary",
            "Secondary",
            "To compare drug X with placebo on hive control",
            "3",
            [
                (
                    "secondary",
                    "Secondary",
                    "Proportion of participants with a hive score of 6 or lower at Week 12",
                    "3",
                ),
                ("secondary", "Secondary", "Change from baseline to Week 12 in the hive severity score", "3"),
            ],
        ),
        # a lead-in announcing a list: its bullets are the endpoints (the unbulleted guess would
        # have kept "HbA1c Body weight" together)
        (
            "secondary",
            "Secondary",
            "To assess metabolic control",
            "3",
            [
                ("secondary", "Secondary", "Change from baseline in HbA1c", "3"),
                ("secondary", "Secondary", "Body weight", "3"),
            ],
        ),
        # a label: its bullets are one endpoint's parameters, as the cell reads without them
        (
            "secondary",
            "Secondary",
            "To assess safety",
            "3",
            [("secondary", "Secondary", "Safety parameters: Adverse events Vital signs", "3")],
        ),
    ]
    assert diagnostics == []
    second = objectives[1]["endpoints"][1]
    assert second["pages"] == [3] and second["boxes"] == [{"page": 3, "bbox": [72, 120, 540, 400]}]


def test_bullets_are_only_taken_from_a_raw_table_on_the_tables_pages():
    """Without the raw table (no blocks, or only on another page, or dropped) the cell is one
    endpoint, as the document prints it."""
    joined = (
        "secondary",
        "Secondary",
        "To compare drug X with placebo on hive control",
        "3",
        [
            (
                "secondary",
                "Secondary",
                (
                    "Proportion of participants with a hive score of 6 or lower at Week 12 "
                    "Change from baseline to Week 12 in the hive severity score"
                ),
                "3",
            )
        ],
    )
    elsewhere = [
        {"page": 9, "kind": "table", "bbox": [72, 120, 540, 400], "dropped": "", "text": RAW_TABLE},
        {"page": 3, "kind": "table", "bbox": [72, 120, 540, 400], "dropped": "header", "text": RAW_TABLE},
    ]
    for tracer in (no_blocks(), Tracer(elsewhere)):
        objectives, _ = read_objectives(bulleted_table_document(), tracer)
        assert flat(objectives)[1] == joined


# --- layouts of protocols the readers were not developed on (issue 45) -----------------------


def test_unlevelled_sub_headings_carry_on_and_unprinted_levels_follow_the_order():
    text = (
        "## **<u>Period 1</u>**\n\nTo compare drug X with placebo in adults with RA.\n\n"
        "## **<u>Period 2</u>**\n\nTo evaluate the long-term safety of drug X.\n"
    )
    doc = document(section("4.0", "Study Objectives", text, (30, 30)))
    objectives, diagnostics = read_objectives(doc, no_blocks())
    assert [(o["level"], o["text"]) for o in objectives] == [
        ("primary", "To compare drug X with placebo in adults with RA."),
        ("secondary", "To evaluate the long-term safety of drug X."),
    ]
    assert "objective_levels_not_printed" in kinds(diagnostics)


def test_a_sub_heading_inside_a_level_keeps_that_level():
    text = (
        "## _Effect-related: randomisation to week 68_\n\nTo compare drug X with placebo on body weight.\n\n"
        "## _Safety and tolerability: week 0 to week 20_\n\nTo investigate the safety of drug X.\n"
    )
    doc = document(
        section(
            "4.1", "Objectives", "", (18, 18), subsections=[section("4.1.2", "Secondary objectives", text, (18, 18))]
        )
    )
    objectives, _ = read_objectives(doc, no_blocks())
    assert [(o["level"], o["text"]) for o in objectives] == [
        ("secondary", "To compare drug X with placebo on body weight."),
        ("secondary", "To investigate the safety of drug X."),
    ]


def test_endpoints_called_variables_in_a_section_of_their_own():
    objectives_section = section("4", "Study Objectives", "## Primary\n\nTo compare A with B.\n", (3, 3))
    variables = section(
        "5.3.3",
        "Efficacy Variables",
        "",
        (9, 9),
        subsections=[
            section("5.3.3.1", "Primary Variable", "The primary endpoint is ACR20 at Week 14.", (9, 9)),
            section(
                "5.3.3.2",
                "Key Secondary Variables",
                "Ranked key secondary endpoints are:\n\n1. Change in DAS28;\n\n2. Change in HAQ-DI;\n",
                (9, 9),
            ),
        ],
    )
    doc = document(objectives_section, section("5", "Methods", "", (9, 9), subsections=[variables]))
    objectives, _ = read_objectives(doc, no_blocks())
    endpoints = [(e["level"], e["text"]) for o in objectives for e in o["endpoints"]]
    assert endpoints == [
        ("primary", "The primary endpoint is ACR20 at Week 14."),
        ("secondary", "Change in DAS28;"),
        ("secondary", "Change in HAQ-DI;"),
    ]


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
        "Summary Measure: Mean change.\nIntercurrent Event and Handling strategies:\n\u2022\nTreatment switch: hypothetical"
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


def test_a_lead_in_naming_objectives_lists_one_objective_per_item_and_subgroups_are_none():
    text = (
        "Four key secondary objectives are to compare each agent with control for:\n\n"
        "1. Time to death through Day 90\n\n2. Time to recovery\n\n"
        "In addition, the primary endpoint will be evaluated for subgroups defined by the following "
        "characteristics:\n\n- Age\n\n- Sex\n"
    )
    doc = document(
        section(
            "5",
            "Objectives",
            "",
            (17, 17),
            subsections=[
                section(
                    "5.1",
                    "Primary Objective",
                    "The primary objective is to determine whether X is superior.\n\n"
                    "Standard of care may be modified during the trial.\n",
                    (17, 17),
                ),
                section("5.2", "Secondary Objectives", text, (18, 18)),
            ],
        )
    )
    objectives, _ = read_objectives(doc, no_blocks())
    assert [(o["level"], o["text"]) for o in objectives] == [
        ("primary", "The primary objective is to determine whether X is superior."),
        ("secondary", "Time to death through Day 90"),
        ("secondary", "Time to recovery"),
    ]
    assert all(not o["endpoints"] for o in objectives)


def test_an_objective_statement_running_into_its_list_stays_one_objective():
    text = "To compare the effect of X versus placebo, on:\n\n- cardiovascular risk factors\n\n- glucose metabolism\n"
    doc = document(section("4.1.2", "Secondary objectives", text, (18, 18)))
    objectives, _ = read_objectives(doc, no_blocks())
    assert [o["text"] for o in objectives] == [
        "To compare the effect of X versus placebo, on: cardiovascular risk factors glucose metabolism"
    ]


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
        "Clinical organ failure defined by any of the following: Respiratory dysfunction Increase in respiratory support",
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


def test_an_objectives_section_read_to_nothing_says_so():
    doc = document(section("3", "Objectives", "See the protocol summary for details of the design.\n", (5, 5)))
    objectives, diagnostics = read_objectives(doc, no_blocks())
    assert objectives == []
    assert kinds(diagnostics) == ["objectives_not_read"] and "'Objectives'" in diagnostics[0]["detail"]
    objectives, diagnostics = read_objectives(document(section("3", "Design", "Text.", (5, 5))), no_blocks())
    assert kinds(diagnostics) == ["no_objectives"]


def test_endpoints_stated_in_two_chapters_are_read_once_and_pointers_and_formulas_are_none():
    doc = document(
        section("2", "Study Objective", "The objective of this study is to evaluate drug X in depression.\n", (22, 22)),
        section(
            "6.2",
            "Efficacy Endpoints",
            "",
            (37, 37),
            subsections=[
                section(
                    "6.2.1",
                    "Primary Efficacy",
                    "The primary efficacy parameter will be the change from baseline to "
                    "Week 6 in the MADRS total score.\n\nMADRS = sum of the 10 item scores\n",
                    (37, 37),
                )
            ],
        ),
        section(
            "7.2",
            "Collection and Derivation of Efficacy Assessments",
            "",
            (46, 46),
            subsections=[
                section(
                    "7.2.1",
                    "Primary Efficacy Variable",
                    "The primary efficacy parameter is the change from baseline to Week 6 in the MADRS total score.\n",
                    (46, 46),
                ),
                section(
                    "7.2.2",
                    "Additional Efficacy Variables",
                    "Additional efficacy variables are listed in Section "
                    "7.2.3.1 and will be summarized.\n\nAdditional efficacy parameters will include:\n\n"
                    "- CGI-I score\n\n- CGI-I score\n",
                    (46, 46),
                ),
            ],
        ),
    )
    objectives, _ = read_objectives(doc, no_blocks())
    assert [(e["level"], e["text"]) for o in objectives for e in o["endpoints"]] == [
        (
            "primary",
            "The primary efficacy parameter will be the change from baseline to Week 6 in the MADRS total score.",
        ),
        ("secondary", "CGI-I score"),
        ("secondary", "CGI-I score"),
    ]  # a repeat within one section is the protocol's
