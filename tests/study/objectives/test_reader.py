"""Headings and labels inside a section (``objectives/reader.py``): levels they put in force, M11
headings, estimand attributes left out."""

from objectives_builders import document, flat, kinds, no_blocks, section

from clinparser.study.objectives import read_objectives


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


# --- layouts of protocols the readers were not developed on (issue 45) -----------------------


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
