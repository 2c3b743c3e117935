"""Objectives and endpoints put together (``objectives/joining.py``): by level and order, once each,
levels settled, endpoints from the synopsis table."""

from objectives_builders import document, flat, kinds, no_blocks, section

from clinparser.study.objectives import read_objectives


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
            (
                "To assess the dose-dependent improvement in behavior. "
                "Improved scores on the NPI-X will indicate improvement."
            ),
            "3.2",
            [("secondary", "Secondary", "Improved scores on the NPI-X will indicate improvement", "1.1.1")],
        ),
        ("secondary", "Secondary", "To assess the treatment response as a function of genotype.", "3.2", []),
    ]
    assert kinds(diagnostics) == ["endpoints_from_synopsis", "objective_without_endpoints"]
    assert "2 endpoint(s) of 2 objective(s)" in diagnostics[0]["detail"] and "1.1.1" in diagnostics[0]["detail"]


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
