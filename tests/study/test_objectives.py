"""read_objectives on hand-built documents: one per layout, with the exact items expected."""

from clinparser.study.objectives import read_objectives
from clinparser.study.trace import Tracer


def section(number, title, text="", pages=(1, 1), tables=(), subsections=()):
    return {"number": number, "title": title, "level": number.count(".") + 1, "pages": list(pages),
            "text": text, "tables": list(tables), "images": [], "references": [],
            "subsections": list(subsections)}


def document(*toc, non_toc=()):
    return {"toc": list(toc), "non_toc": list(non_toc), "metadata": {}}


def no_blocks():
    return Tracer([])


def flat(objectives):
    """The fields that say what was read (pages and boxes are checked separately)."""
    return [(o["level"], o["label"], o["text"], o["section"],
             [(e["level"], e["label"], e["text"], e["section"]) for e in o["endpoints"]]) for o in objectives]


def kinds(diagnostics):
    return [d["kind"] for d in diagnostics]


def test_table_with_spanning_level_rows():
    table = {"title": "Objectives and Endpoints", "page": 5, "pages": [5],
             "columns": ["Objectives", "Endpoints"],
             "data": [["Primary", "Primary"],
                      ["To compare drug X with placebo on weight", "Change in body weight at week 12"],
                      ["Secondary", "Secondary"],
                      ["To assess safety of drug X", "\u2022\nAdverse events\n\u2022\nVital signs"],
                      ["", "\u2022\nLaboratory values"]]}
    doc = document(section("3", "Objectives and Endpoints", "[Table]", (5, 5), [table]))
    objectives, diagnostics = read_objectives(doc, no_blocks())
    assert flat(objectives) == [
        ("primary", "Primary", "To compare drug X with placebo on weight", "3",
         [("primary", "Primary", "Change in body weight at week 12", "3")]),
        ("secondary", "Secondary", "To assess safety of drug X", "3",
         [("secondary", "Secondary", "Adverse events", "3"), ("secondary", "Secondary", "Vital signs", "3"),
          ("secondary", "Secondary", "Laboratory values", "3")]),
    ]
    assert diagnostics == []


def test_table_with_a_level_column():
    table = {"title": "", "page": 7, "pages": [7], "columns": ["Type", "Objective", "Endpoint"],
             "data": [["Primary", "To show efficacy", "Response at week 14"],
                      ["Tertiary/Exploratory", "To explore biomarkers", "Serum markers"]]}
    doc = document(section("2", "Study Objectives", "[Table]", (7, 7), [table]))
    objectives, _ = read_objectives(doc, no_blocks())
    assert flat(objectives) == [
        ("primary", "Primary", "To show efficacy", "2", [("primary", "Primary", "Response at week 14", "2")]),
        ("exploratory", "Tertiary/Exploratory", "To explore biomarkers", "2",
         [("exploratory", "Tertiary/Exploratory", "Serum markers", "2")]),
    ]


def test_headed_lists_with_endpoints_under_each_objective():
    text = ("## **Primary Objective**\n\n"
            "The primary objective is to evaluate efficacy on the basis of the following endpoint:\n\n"
            "- Clinical status at Day 28\n\n"
            "**Key Secondary Objectives:**\n\n"
            "The secondary objective is to evaluate efficacy on the basis of the following endpoints:\n\n"
            "- Time to recovery\n\n- Mortality at Day 28\n")
    doc = document(section("2", "Objectives and Endpoints", text, (3, 3)))
    objectives, diagnostics = read_objectives(doc, no_blocks())
    assert flat(objectives) == [
        ("primary", "Primary", "The primary objective is to evaluate efficacy on the basis of the following endpoint:",
         "2", [("primary", "Primary", "Clinical status at Day 28", "2")]),
        ("secondary", "Key Secondary",
         "The secondary objective is to evaluate efficacy on the basis of the following endpoints:", "2",
         [("secondary", "Key Secondary", "Time to recovery", "2"),
          ("secondary", "Key Secondary", "Mortality at Day 28", "2")]),
    ]
    assert diagnostics == []


def test_separate_endpoints_section_is_joined_by_level_and_order_and_diagnosed():
    objectives_section = section("2", "Objectives", "", (4, 4), subsections=[
        section("2.1", "Primary Objective", "- To assess A\n", (4, 4)),
        section("2.2", "Secondary Objectives", "- To assess B\n- To assess C\n", (4, 4)),
        section("2.3", "Safety Objective", "- To assess safety\n", (4, 4)),
    ])
    endpoints_section = section("9.1", "Study Endpoints", "", (30, 30), subsections=[
        section("9.1.1", "Primary Endpoint", "The primary endpoint is A at week 4.", (30, 30)),
        section("9.1.2", "Secondary Endpoints", "The secondary endpoints are:\n\n- B at week 4\n- C at week 4\n",
                (30, 30)),
    ])
    doc = document(objectives_section, section("9", "Statistics", "", (30, 30), subsections=[endpoints_section]))
    objectives, diagnostics = read_objectives(doc, no_blocks())
    assert flat(objectives) == [
        ("primary", "Primary", "To assess A", "2.1", [("primary", "Primary", "The primary endpoint is A at week 4.", "9.1.1")]),
        ("secondary", "Secondary", "To assess B", "2.2", [("secondary", "Secondary", "B at week 4", "9.1.2")]),
        ("secondary", "Secondary", "To assess C", "2.2", [("secondary", "Secondary", "C at week 4", "9.1.2")]),
        ("secondary", "Safety", "To assess safety", "2.3", []),
    ]
    assert kinds(diagnostics) == ["objective_level_not_printed", "endpoints_joined_by_order",
                                  "endpoints_joined_by_order", "objective_without_endpoints"]
    assert "2.3" in diagnostics[0]["detail"] and "secondary" in diagnostics[0]["detail"]
    assert "9.1.1" in diagnostics[1]["detail"] and "primary" in diagnostics[1]["detail"]
    assert "2.3" in diagnostics[3]["detail"]


def test_endpoint_with_no_objective_of_its_level_is_diagnosed():
    text = ("**Primary Objective**\n\nTo show efficacy.\n\n")
    endpoints = ("## Primary Endpoint\n\n- Time to relief\n\n## Exploratory Endpoint\n\n- Anxiety score\n")
    doc = document(section("7", "Objectives and Endpoints", "", (9, 9), subsections=[
        section("7.1", "Objectives", text, (9, 9)), section("7.2", "Endpoints", endpoints, (9, 9))]))
    objectives, diagnostics = read_objectives(doc, no_blocks())
    assert flat(objectives) == [("primary", "Primary", "To show efficacy.", "7.1",
                                 [("primary", "Primary", "Time to relief", "7.2"),
                                  ("exploratory", "Exploratory", "Anxiety score", "7.2")])]
    assert kinds(diagnostics) == ["endpoints_joined_by_order", "endpoint_without_objective"]


def test_synopsis_copy_is_not_taken():
    synopsis = section("", "Synopsis", "**Primary Objective:**\n\nTo study X (synopsis wording).\n", (2, 2))
    body = section("3", "Objectives", "", (10, 10), subsections=[
        section("3.1", "Primary", "To study X in adults (body wording).", (10, 10))])
    objectives, diagnostics = read_objectives(document(body, non_toc=[synopsis]), no_blocks())
    assert [o["text"] for o in objectives] == ["To study X in adults (body wording)."]
    assert kinds(diagnostics) == ["objective_without_endpoints"]


def test_synopsis_is_the_fallback_and_says_so():
    synopsis = section("", "Protocol Synopsis", "**Primary Objective:**\n\nTo study X.\n\n"
                                                "**Primary Endpoint:**\n\n- X at week 2\n\n**Study Design:**\n\nOpen label.",
                       (2, 2))
    body = section("5", "Study Design", "Open label, one arm.", (10, 10))
    objectives, diagnostics = read_objectives(document(body, non_toc=[synopsis]), no_blocks())
    assert flat(objectives) == [("primary", "Primary", "To study X.", "", [("primary", "Primary", "X at week 2", "")])]
    assert kinds(diagnostics)[0] == "objectives_from_synopsis"


def test_lead_in_sentence_and_its_bullets_are_one_objective_and_hypotheses_are_left_out():
    text = ("# **Primary Objective**\n\n"
            "_In adults with CKD, to assess the efficacy of drug X in reducing:_\n\n"
            "- The composite of ESKD and death\n\n"
            "# **Hypotheses**\n\nDrug X reduces the risk.\n")
    doc = document(section("2", "Objectives and Hypotheses", text, (5, 5)))
    objectives, _ = read_objectives(doc, no_blocks())
    assert [o["text"] for o in objectives] == [
        "In adults with CKD, to assess the efficacy of drug X in reducing: The composite of ESKD and death"]


def test_sub_items_hang_from_an_item_ending_in_a_colon():
    text = "- Change from baseline in:\n- Body weight (kg)\n- Waist (cm)\n- Number of adverse events\n"
    doc = document(section("4", "Objectives and endpoints", "", (20, 20), subsections=[
        section("4.1", "Primary objective", "To compare weight loss.", (20, 20)),
        section("4.2", "Primary endpoints", text, (20, 20))]))
    blocks = [{"page": 20, "bbox": [90, 100 + 15 * i, 300, 110 + 15 * i], "text": t, "kind": "list-item"}
              for i, t in enumerate(["- Change from baseline in:", "- Body weight (kg)", "- Waist (cm)",
                                     "- Number of adverse events"])]
    for block in blocks[1:3]:
        block["bbox"][0] = 126  # the sub-items are indented on the page
    objectives, _ = read_objectives(doc, Tracer(blocks))
    assert [e["text"] for e in objectives[0]["endpoints"]] == [
        "Change from baseline in: Body weight (kg) Waist (cm)", "Number of adverse events"]
    assert objectives[0]["endpoints"][1]["pages"] == [20]
    assert objectives[0]["endpoints"][1]["boxes"] == [{"page": 20, "bbox": [90, 145, 300, 155]}]


def test_m11_objectives_and_estimands_headings_are_read_and_estimand_attributes_left_out():
    # ICH M11: "3 Trial Objectives and Associated Estimands", "3.1 Primary Objective(s) and
    # Associated Estimand(s)"; the estimand's attributes are labelled lines under the objective.
    primary = ("**Primary Objective:** To compare drug X with placebo on symptom score\n\n"
               "**Estimand:** the treatment effect at Week 24\n\n"
               "**Population:** Adults with mild to moderate disease\n\n"
               "**Treatment:** Drug X 10 mg or placebo\n\n"
               "**Endpoint:** Change from baseline in symptom score at Week 24\n\n"
               "**Intercurrent Events:** Treatment discontinuation, handled by treatment policy\n\n"
               "**Population-Level Summary:** Difference in mean change\n")
    secondary = "The secondary objectives of this study are\n\n- To assess safety of drug X\n"
    doc = document(section("3", "Trial Objectives and Associated Estimands", "", (16, 17), subsections=[
        section("3.1", "Primary Objective(s) and Associated Estimand(s)", primary, (16, 16)),
        section("3.2", "Secondary Objective(s) and Associated Estimand(s)", secondary, (17, 17)),
        section("3.3", "Exploratory Objective(s)", "Not applicable.", (17, 17))]))
    objectives, diagnostics = read_objectives(doc, no_blocks())
    assert flat(objectives) == [
        ("primary", "Primary", "To compare drug X with placebo on symptom score", "3.1",
         [("primary", "Primary", "Change from baseline in symptom score at Week 24", "3.1")]),
        ("secondary", "Secondary", "To assess safety of drug X", "3.2", []),
    ]
    assert kinds(diagnostics) == ["endpoints_joined_by_order", "objective_without_endpoints"]


def test_m11_body_objectives_take_their_endpoints_from_the_synopsis_table():
    # The body lists the objectives (with how each is measured run into the same bullet) but no
    # endpoints; the M11 synopsis table 1.1.1 pairs each objective with its endpoint. The body's
    # wording is kept, the synopsis gives the endpoints, a "TBD" endpoint is no endpoint.
    table = {"title": "", "page": 10, "pages": [10], "columns": ["Objectives", "Endpoints"],
             "data": [["Primary", ""],
                      ["To compare drug X with placebo on cognition.", "Change in ADAS-Cog at Week 24"],
                      ["Secondary", ""],
                      ["To assess the dose-dependent improvement in behavior.",
                       "Improved scores on the NPI-X will indicate improvement"],
                      ["To assess the treatment response as a function of genotype.", "TBD"]]}
    synopsis = section("1.1", "Protocol Synopsis", "", (10, 10), subsections=[
        section("1.1.1", "Primary and Secondary Objectives and Estimands", "[Table]", (10, 10), [table])])
    body = section("3", "Trial Objectives and Estimands", "", (16, 17), subsections=[
        section("3.1", "Primary Objective(s) and Associated Estimand(s)",
                "The primary objectives of this study are:\n\n- To compare drug X with placebo on cognition.\n",
                (16, 16)),
        section("3.2", "Secondary Objective(s) and Associated Estimand(s)",
                "The secondary objectives of this study are\n\n"
                "- To assess the dose-dependent improvement in behavior. Improved scores on the NPI-X will "
                "indicate improvement.\n\n- To assess the treatment response as a function of genotype.\n",
                (17, 17))])
    doc = document(section("1", "Protocol Summary", "", (10, 10), subsections=[synopsis]), body)
    objectives, diagnostics = read_objectives(doc, no_blocks())
    assert flat(objectives) == [
        ("primary", "Primary", "To compare drug X with placebo on cognition.", "3.1",
         [("primary", "Primary", "Change in ADAS-Cog at Week 24", "1.1.1")]),
        ("secondary", "Secondary",
         "To assess the dose-dependent improvement in behavior. Improved scores on the NPI-X will indicate improvement.",
         "3.2", [("secondary", "Secondary", "Improved scores on the NPI-X will indicate improvement", "1.1.1")]),
        ("secondary", "Secondary", "To assess the treatment response as a function of genotype.", "3.2", []),
    ]
    assert kinds(diagnostics) == ["endpoints_from_synopsis", "objective_without_endpoints"]
    assert "2 endpoint(s) of 2 objective(s)" in diagnostics[0]["detail"] and "1.1.1" in diagnostics[0]["detail"]


def test_a_placeholder_endpoint_cell_gives_no_endpoint():
    table = {"title": "", "page": 5, "pages": [5], "columns": ["Objectives", "Endpoints"],
             "data": [["Primary", ""], ["To show efficacy", "Response at week 14"],
                      ["To explore biomarkers", "TBD"], ["To explore exposure", "Not applicable"]]}
    objectives, _ = read_objectives(document(section("3", "Objectives and Endpoints", "[Table]", (5, 5), [table])),
                                    no_blocks())
    assert [(o["text"], [e["text"] for e in o["endpoints"]]) for o in objectives] == [
        ("To show efficacy", ["Response at week 14"]), ("To explore biomarkers", []), ("To explore exposure", [])]


# The converter's table cells lose their bullets ("• " / "- " at a line start); the raw pipe table
# in the blocks keeps them, with <br> between a cell's lines.
RAW_TABLE = ("|**Objectives**|**Endpoints**|\n|---|---|\n|**Primary**||\n"
             "|To evaluate the effect of drug X on<br>itch at Week 12|Change from baseline to Week 12 in the<br>itch score|\n"
             "|**Secondary**||\n"
             "|To compare drug X with placebo on<br>hive control|\u2022 Proportion of participants with a hive<br>"
             "score of 6 or lower at Week 12<br>\u2022 Change from baseline to Week 12 in the<br>hive severity score|\n"
             "|To assess metabolic control|The secondary endpoints are as follows:<br>- Change from baseline in HbA1c<br>"
             "- Body weight|\n"
             "|To assess safety|Safety parameters:<br>\u2022 Adverse events<br>\u2022 Vital signs|")
CLEANED_TABLE = {"title": "Table 1: Objectives and Endpoints", "page": 3, "pages": [3],
                 "columns": ["Objectives", "Endpoints"],
                 "data": [["Primary", ""],
                          ["To evaluate the effect of drug X on\nitch at Week 12",
                           "Change from baseline to Week 12 in the\nitch score"],
                          ["Secondary", ""],
                          ["To compare drug X with placebo on\nhive control",
                           ("Proportion of participants with a hive\nscore of 6 or lower at Week 12\n"
                            "Change from baseline to Week 12 in the\nhive severity score")],
                          ["To assess metabolic control",
                           "The secondary endpoints are as follows:\nChange from baseline in HbA1c\nBody weight"],
                          ["To assess safety", "Safety parameters:\nAdverse events\nVital signs"]]}


def bulleted_table_document():
    return document(section("3", "Objectives and Endpoints", "[Table 1: Objectives and Endpoints]", (3, 3),
                            [CLEANED_TABLE]))


def test_endpoint_cell_is_split_on_the_bullets_of_its_raw_table_block():
    blocks = [{"page": 3, "kind": "text", "bbox": [72, 90, 540, 110], "dropped": "",
               "text": "The objectives and endpoints are given in Table 1."},
              {"page": 3, "kind": "table", "bbox": [72, 120, 540, 400], "dropped": "", "text": RAW_TABLE}]
    objectives, diagnostics = read_objectives(bulleted_table_document(), Tracer(blocks))
    assert flat(objectives) == [
        ("primary", "Primary", "To evaluate the effect of drug X on itch at Week 12", "3",
         [("primary", "Primary", "Change from baseline to Week 12 in the itch score", "3")]),
        ("secondary", "Secondary", "To compare drug X with placebo on hive control", "3",
         [("secondary", "Secondary", "Proportion of participants with a hive score of 6 or lower at Week 12", "3"),
          ("secondary", "Secondary", "Change from baseline to Week 12 in the hive severity score", "3")]),
        # a lead-in announcing a list: its bullets are the endpoints (the unbulleted guess would
        # have kept "HbA1c Body weight" together)
        ("secondary", "Secondary", "To assess metabolic control", "3",
         [("secondary", "Secondary", "Change from baseline in HbA1c", "3"),
          ("secondary", "Secondary", "Body weight", "3")]),
        # a label: its bullets are one endpoint's parameters, as the cell reads without them
        ("secondary", "Secondary", "To assess safety", "3",
         [("secondary", "Secondary", "Safety parameters: Adverse events Vital signs", "3")]),
    ]
    assert diagnostics == []
    second = objectives[1]["endpoints"][1]
    assert second["pages"] == [3] and second["boxes"] == [{"page": 3, "bbox": [72, 120, 540, 400]}]


def test_bullets_are_only_taken_from_a_raw_table_on_the_tables_pages():
    """Without the raw table (no blocks, or only on another page, or dropped) the cell is one
    endpoint, as the document prints it."""
    joined = ("secondary", "Secondary", "To compare drug X with placebo on hive control", "3",
              [("secondary", "Secondary", ("Proportion of participants with a hive score of 6 or lower at Week 12 "
                                           "Change from baseline to Week 12 in the hive severity score"), "3")])
    elsewhere = [{"page": 9, "kind": "table", "bbox": [72, 120, 540, 400], "dropped": "", "text": RAW_TABLE},
                 {"page": 3, "kind": "table", "bbox": [72, 120, 540, 400], "dropped": "header", "text": RAW_TABLE}]
    for tracer in (no_blocks(), Tracer(elsewhere)):
        objectives, _ = read_objectives(bulleted_table_document(), tracer)
        assert flat(objectives)[1] == joined
