"""Statements (``objectives/statements.py``): what a lead-in paragraph and its list items state."""

from objectives_builders import document, flat, no_blocks, section

from clinparser.study.objectives import read_objectives


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


# --- layouts of protocols the readers were not developed on (issue 45) -----------------------


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


def test_a_singular_announcement_over_several_bullets_lists_them_all():
    # "The primary objective of the study is as follows:" announces the list under it, however
    # many bullets follow; each is one objective
    text = (
        "The primary objective of the study is as follows:\n\n"
        "- To evaluate change in ALT levels\n\n"
        "- To evaluate the safety and tolerability of Drug X\n"
    )
    doc = document(section("2.1.1", "Primary Objective", text, (39, 39)))
    objectives, _ = read_objectives(doc, no_blocks())
    assert [(o[0], o[2]) for o in flat(objectives)] == [
        ("primary", "To evaluate change in ALT levels"),
        ("primary", "To evaluate the safety and tolerability of Drug X"),
    ]
