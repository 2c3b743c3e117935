"""Arms: from fields, tables of sequences, the study schema, sentences and the title; their types and
the interventions each receives."""

import pytest

from clinparser.study.design.arms import read_arms, single_arm
from clinparser.study.design.fields import Field
from clinparser.study.design.interventions import read_interventions
from clinparser.study.trace import Tracer

NO_TRACE = Tracer([])
WHERE = Field("table", "", "6.1", (30, 30), False, "table")


def test_arms_listed_in_a_field_or_named_in_the_assigning_sentence():
    products = [{"name": "Drug X", "role": "investigational"}, {"name": "Placebo", "role": "placebo"}]
    listed = [
        Field(
            "Treatment Groups", "Arm A: Drug X 10 mg (N = 100)\nArm B: Placebo (N = 50)", "1.1", (3, 3), True, "table"
        )
    ]
    assert [(a["name"], a["type"]) for a in read_arms(listed, products, NO_TRACE)] == [
        ("Arm A: Drug X 10 mg", "experimental"),
        ("Arm B: Placebo", "placebo comparator"),
    ]
    prose = [
        Field(
            "Study Design",
            "Participants will be randomized 2:1 to receive either Drug X 10 mg once daily or matching placebo "
            "for 12 weeks.",
            "1.1",
            (3, 3),
            True,
            "paragraph",
        )
    ]
    arms = read_arms(prose, products, NO_TRACE)
    assert [a["name"] for a in arms] == ["Drug X 10 mg once daily", "placebo"]
    assert arms[0]["interventions"] == ["Drug X"]


# a synopsis sentence whose ratio has more parts (three) than it lists arms (two)
RATIO_SENTENCE = Field(
    "Study Design",
    "Subjects will be randomized 2:2:1 to receive one of two oral doses of Drug X or placebo in tablet form.",
    "1.1",
    (3, 3),
    True,
    "paragraph",
)
DRUG_AND_PLACEBO = [{"name": "Drug X", "role": "investigational"}, {"name": "Placebo", "role": "placebo"}]


def test_a_sentence_listing_fewer_arms_than_its_ratio_has_parts_gives_way_to_one_listing_them_all():
    products = DRUG_AND_PLACEBO
    synopsis = RATIO_SENTENCE
    body = Field(
        "Rationale for Study Design",
        "Patients will be randomized to one of three treatment groups: (1) 1 mg Drug X, (2) 2.5 mg Drug X, "
        "or (3) placebo in a 2:2:1 ratio.",
        "4.2",
        (20, 20),
        False,
        "section",
    )
    assert [a["name"] for a in read_arms([synopsis, body], products, NO_TRACE)] == [
        "1 mg Drug X",
        "2.5 mg Drug X",
        "placebo",
    ]
    # with no sentence listing them all, the one printed is read as printed
    assert [a["name"] for a in read_arms([synopsis], products, NO_TRACE)] == [
        "two oral doses of Drug X",
        "placebo in tablet form",
    ]


def test_the_labelled_groups_of_the_section_assigning_participants_are_the_arms():
    products = DRUG_AND_PLACEBO
    sentence = RATIO_SENTENCE
    fields = [
        sentence,
        Field(
            "Treatment Assignment/ Randomization",
            "Subjects will be randomized to the treatment groups shown below:\n"
            "- Treatment Group 1 (N=50); Drug X 1 mg orally for 12 weeks\n"
            "- Treatment Group 2 (N=50); Drug X 2.5 mg orally for 12 weeks\n"
            "- Treatment Group 3 (N=25); Placebo orally for 12 weeks",
            "5.6",
            (40, 40),
            False,
            "section",
        ),
    ]
    assert [(a["name"], a["type"]) for a in read_arms(fields, products, NO_TRACE)] == [
        ("Treatment Group 1; Drug X 1 mg orally for 12 weeks", "experimental"),
        ("Treatment Group 2; Drug X 2.5 mg orally for 12 weeks", "experimental"),
        ("Treatment Group 3; Placebo orally for 12 weeks", "placebo comparator"),
    ]
    # a schema picture's text lost Group 2's label to the randomization mark: the fuller list wins
    fields[0] = Field(
        "Overall Design",
        "Group 1: Drug X 1 mg\nN = 50\nR Group 2: Drug X 2.5 mg\nGroup 3: Placebo",
        "3.1",
        (20, 20),
        False,
        "section",
    )
    assert len(read_arms(fields, products, NO_TRACE)) == 3
    # one labelled line is no list of arms: the sentence's arms stand
    fields[0] = sentence
    fields[1] = Field("Randomization", "Group 1 is randomized first.", "5.6", (40, 40), False, "section")
    assert len(read_arms(fields, products, NO_TRACE)) == 2


def test_options_each_ending_at_their_duration_and_a_placebo_named_for_its_product():
    products = [
        {"name": "Drug X", "role": "investigational"},
        {"name": "Drug X placebo", "role": "placebo"},
    ]
    fields = [
        Field(
            "Overall design",
            "At week 20, subjects will be randomised in a 2:1 manner to either continue receiving Drug X 2.4 mg "
            "once-weekly for additional 48 weeks or being switched to Drug X placebo once-weekly for 48 weeks.",
            "5.1",
            (20, 20),
            False,
            "section",
        )
    ]
    arms = read_arms(fields, products, NO_TRACE)
    assert [(a["name"], a["type"], a["interventions"]) for a in arms] == [
        ("Drug X 2.4 mg once-weekly", "experimental", ["Drug X"]),
        ("Drug X placebo once-weekly", "placebo comparator", ["Drug X placebo"]),
    ]


def test_a_single_arm_is_named_for_its_treatment():
    product = {
        "name": "Drug X",
        "role": "investigational",
        "doses": [{"printed": "100 mg"}],
        "pages": [],
        "boxes": [],
        "section": None,
        "printed": "",
    }
    assert [a["name"] for a in single_arm([product], NO_TRACE)] == ["Drug X 100 mg"]
    # an interaction study gives every participant both investigational products
    other = {**product, "name": "Drug Y", "doses": [{"printed": "20 mg"}]}
    placebo = {**product, "name": "Placebo", "role": "placebo", "doses": []}
    (arm,) = single_arm([other, product, placebo], NO_TRACE)
    assert arm["name"] == "Drug Y 20 mg and Drug X 100 mg" and arm["interventions"] == ["Drug Y", "Drug X"]


def test_the_two_arms_a_title_compares_when_nothing_else_names_arms():
    from clinparser.study.design.arms import arms_in_title

    products = [{"name": "Drugamab", "role": "investigational"}, {"name": "Placebo", "role": "placebo"}]
    title = {
        "text": "A Phase 3, Randomized Study of Drugamab Plus Standard Therapy Versus Placebo Plus Standard Therapy "
        "in Patients With Gout",
        "page": 1,
    }
    arms = arms_in_title(title, products, NO_TRACE)
    assert [(a["name"], a["type"]) for a in arms] == [
        ("Drugamab Plus Standard Therapy", "experimental"),
        ("Placebo Plus Standard Therapy", "placebo comparator"),
    ]
    assert arms_in_title({"text": "A Study of Drugamab in Patients With Gout"}, products, NO_TRACE) == []


def test_arms_from_an_assigning_sentence_without_to_receive_and_by_abbreviation():
    from clinparser.study.design.arms import with_aliases

    products = [{"name": "Zelomab", "role": "investigational"}, {"name": "Placebo", "role": "placebo"}]
    fields = [
        Field(
            "Study Design",
            "Patients will be randomly assigned in a 2:1 ratio to blinded treatment of either "
            "ZLM or a matching placebo group, in addition to standard care.",
            "4.1",
            (20, 20),
            False,
            "section",
        )
    ]
    arms = read_arms(fields, with_aliases(products, {"ZLM": "zelomab"}, fields), NO_TRACE)
    assert [(a["name"], a["type"], a["interventions"]) for a in arms] == [
        ("ZLM", "experimental", ["Zelomab"]),
        ("placebo", "placebo comparator", ["Placebo"]),
    ]


def test_a_past_studys_placebo_group_is_no_arm():
    products = [{"name": "Zelomab", "role": "investigational"}]
    fields = [
        Field(
            "Study Design",
            "In an earlier study, patients were randomized to placebo or to standard care; the "
            "placebo group was reported.",
            "4.1",
            (20, 20),
            False,
            "section",
        )
    ]
    assert read_arms(fields, products, NO_TRACE) == []


def test_arms_enumerated_by_the_sentence_naming_the_treatment_arms():
    title = {"text": "Safety and Efficacy of the Zelomab Transdermal System in Patients With Gout", "page": 1}
    fields = [
        Field(
            "Summary of Study Design",
            "Patients will be randomized to 1 of 3 treatment arms. The treatment arms will "
            "include a placebo arm, a low-dose zelomab arm (50 cm2 patch, 54 mg zelomab), and a high-dose zelomab "
            "arm (75 cm2 patch, 81 mg zelomab). Patients receiving zelomab wear one patch daily.",
            "3.1",
            (12, 12),
            False,
            "section",
        )
    ]
    products = read_interventions(fields, [], NO_TRACE, title=title)
    assert [(p["name"], p["route"]) for p in products] == [("Zelomab Transdermal System", "transdermal")]
    arms = read_arms(fields, products, NO_TRACE)
    assert [(a["name"], a["type"]) for a in arms] == [
        ("placebo", "placebo comparator"),
        ("low-dose zelomab", "experimental"),
        ("high-dose zelomab", "experimental"),
    ]


def test_a_dose_cohorts_field_and_a_list_after_its_introduction_are_the_arms():
    cohorts = Field("Dose Cohorts", "Cohort 1: Drug Q 10 mg\nCohort 2: Drug Q 30 mg", "1", (3, 3), True, "table")
    intro = Field("Arms", "As follows:\nDrug Q 10 mg\nPlacebo", "1", (3, 3), True, "paragraph")
    products = [{"name": "Drug Q", "role": "investigational"}]
    assert [a["name"] for a in read_arms([cohorts], products, NO_TRACE)] == [
        "Cohort 1: Drug Q 10 mg",
        "Cohort 2: Drug Q 30 mg",
    ]
    assert [a["name"] for a in read_arms([intro], products, NO_TRACE)] == ["Drug Q 10 mg", "Placebo"]
    one = Field("Arms", "The study has the following groups:\nDrug Q 10 mg", "1", (3, 3), True, "paragraph")
    assert "The study has the following groups" not in [a["name"] for a in read_arms([one], products, NO_TRACE)]


def test_a_crossovers_table_of_sequences_a_row_an_arm_before_any_field():
    table = {
        "columns": ["Treatment Sequence", "1st Eligible Attack", "2nd Eligible Attack", "3rd Eligible Attack"],
        "data": [["A", "Placebo", "600 mg", "300 mg"], ["B", "300 mg", "Placebo", "600 mg"]],
    }
    field = Field("Treatment Sequences", "Sequence A\nSequence B", "1", (3, 3), True, "table")
    arms = read_arms([field], [{"name": "Drug K", "role": "investigational"}], NO_TRACE, [(table, WHERE)])
    assert [a["name"] for a in arms] == [
        "Treatment Sequence A: Placebo, 600 mg, 300 mg",
        "Treatment Sequence B: 300 mg, Placebo, 600 mg",
    ]
    # a table whose first column is not the sequence is no table of sequences
    other = {"columns": ["Visit", "Period 1", "Period 2"], "data": [["1", "X", "X"], ["2", "X", "X"]]}
    assert [a["name"] for a in read_arms([field], [], NO_TRACE, [(other, WHERE)])] == ["Sequence A", "Sequence B"]


def test_arms_a_sentence_labels_in_brackets_after_each_option():
    sentence = (
        "This study will randomize subjects to one of 2 arms in a 1:1 ratio, for dose selection, to receive either a "
        "5.6 mg/kg fixed dose regimen (Arm 1) or an up-titration dose regimen (Cycle 1: 3.2 mg/kg; Cycle 2: 4.8 mg/kg; "
        "Arm 2) of Drugtecan."
    )
    # a schema line "regimen and prior treatment with ..." is no arm line
    schema = Field(
        "Study Schema",
        "Dose Regimens\nregimen and prior treatment with 5.6 mg/kg IV Q3W",
        "1.2",
        (9, 9),
        True,
        "section",
    )
    design = Field("Study Design", sentence, "1.1", (8, 8), True, "paragraph")
    arms = read_arms([schema, design], [{"name": "Drugtecan", "role": "investigational"}], NO_TRACE)
    assert [a["name"] for a in arms] == ["Arm 1: 5.6 mg/kg fixed dose regimen", "Arm 2: up-titration dose regimen"]


def test_arms_drawn_as_the_boxes_of_the_study_schema():
    schema = Field(
        "Study Design and Treatment Schema",
        "Day -22 to Day -2 Day 1 Day 27b Day 55c\n5mg IV Dose AMG 416 TIW\u00aa\n"
        "g Adssiion (N=24)\nScnin EOS\nPlacebo IV Dose TIW\u00aa\n(N=8)\nTIW = Three times a week (12 doses)",
        None,
        (6, 6),
        True,
        "section",
    )
    products = [{"name": "AMG 416", "role": "investigational"}, {"name": "Placebo", "role": "placebo"}]
    arms = read_arms([], products, NO_TRACE, [], [schema])
    assert [a["name"] for a in arms] == ["5mg IV Dose AMG 416 TIW", "Placebo IV Dose TIW"]
    # one box naming a product is no list of arms
    single = Field("Schema", "Drug X 10 mg once daily\nScreening\nFollow-up", None, (6, 6), True, "section")
    assert read_arms([], products + [{"name": "Drug X", "role": "investigational"}], NO_TRACE, [], [single]) == []


def test_arms_listed_as_a_products_dose_levels_after_a_colon():
    line = (
        "Patients will be randomly assigned to receive TEV\u201148574 (single loading dose/6 induction doses): "
        "2250/900 mg, 2250/450 mg, or placebo to match TEV-48574, stratified by diagnosis."
    )
    field = Field("Trial Arms and Duration", line, "1.1", (3, 3), True, "table")
    products = [{"name": "TEV-48574", "role": "investigational"}, {"name": "Placebo", "role": "placebo"}]
    assert [a["name"] for a in read_arms([field], products, NO_TRACE)] == [
        "TEV\u201148574 2250/900 mg",
        "TEV\u201148574 2250/450 mg",
        "placebo to match TEV-48574",
    ]


def test_the_control_group_field_beside_the_treatment_groups_field_is_an_arm_too():
    products = [{"name": "Drugazine", "role": "investigational"}, {"name": "Placebo", "role": "placebo"}]
    fields = [
        Field(
            "Study Treatment Groups",
            "drugazine 1.5 mg/day + ADT and drugazine 3 mg/day + ADT",
            "1",
            (3, 3),
            True,
            "paragraph",
        ),
        Field("Controls", "matching placebo + ADT", "1", (3, 3), True, "paragraph"),
    ]
    arms = read_arms(fields, products, NO_TRACE)
    assert [(a["name"], a["type"]) for a in arms] == [
        ("drugazine 1.5 mg/day + ADT", "experimental"),
        ("drugazine 3 mg/day + ADT", "experimental"),
        ("matching placebo + ADT", "placebo comparator"),
    ]


@pytest.mark.parametrize(
    "names, expected",
    [
        # every arm adds the same therapy: it is background, named by its expansion
        (["drugazine 1.5 mg/day + ADT", "drugazine 3 mg/day + ADT", "placebo + ADT"], "antidepressant therapy (ADT)"),
        (["Drug X 10 mg plus metformin", "Placebo plus metformin"], "metformin"),
        (["Drug X on top of lisinopril", "Placebo on top of lisinopril"], "lisinopril"),
        # the standard of care is no named product
        (["Drug X in addition to standard of care", "Placebo in addition to standard of care"], None),
        (["Drug X + SOC", "Placebo + SOC"], None),
        # not every arm adds it, or they add different things, or it is a study product
        (["Drug X + ADT", "Placebo"], None),
        (["Drug X + ADT", "Placebo + metformin"], None),
        (["Drug X + Drug Y", "Placebo + Drug Y"], None),
        (["Drug X + ADT"], None),
    ],
)
def test_a_therapy_every_arms_name_adds_is_background(names, expected):
    from clinparser.study.design.arms import background_in_arms

    products = [
        {"name": "Drug X", "role": "investigational", "aliases": []},
        {"name": "Drug Y", "role": "comparator", "aliases": []},
        {"name": "Placebo", "role": "placebo", "aliases": []},
    ]
    arms = [{"name": n, "interventions": [], "pages": [3], "boxes": [], "section": "1", "printed": n} for n in names]
    found = background_in_arms(arms, products, {"ADT": "antidepressant therapy"})
    assert (found and found["name"]) == expected
    if expected:
        assert found["role"] == "background" and found["doses"] == [] and found["pages"] == [3]
        assert all(expected in a["interventions"] for a in arms)


def test_the_arms_an_intervention_tables_arm_name_row_heads_a_column_each():
    # the Common Protocol Template's table: "Arm Name" heading a column per arm, the attributes'
    # labels down the first column (even though "low dose" in a column header reads as a dose)
    table = {
        "columns": ["Arm name", "Drugaban\nlow dose", "Drugaban\nhigh dose", "Placebo"],
        "data": [
            ["Intervention Name", "Drugaban", "Drugaban", "Placebo"],
            ["Unit dose strengths", "5 mg", "5 mg and 15 mg", "NA"],
            ["Dosage Level(s)", "10mg", "20mg", "NA"],
            ["Route of\nAdministration", "Oral", "Oral", "Oral"],
            ["Use", "experimental", "Experimental", "Placebo"],
        ],
    }
    where = Field("Study Interventions Administered", "", "6.1", (40, 40), False, "table")
    products = read_interventions([], [(table, where)], NO_TRACE)
    assert [(p["name"], p["role"], p["route"], sorted(d["value"] for d in p["doses"])) for p in products] == [
        ("Drugaban", "investigational", "oral", [5, 10, 15, 20]),  # both columns' doses, one product
        ("Placebo", "placebo", "oral", []),
    ]
    # a sentence about a study part is no arm line; the table's arms are the arms
    fields = [
        Field(
            "Overall Design",
            "Part A will enroll participants with minor stroke only.\nPart B enrollment will be extended to all.",
            "1",
            (3, 3),
            True,
            "paragraph",
        )
    ]
    arms = read_arms(fields, products, NO_TRACE, [(table, where)])
    assert [(a["name"], a["type"]) for a in arms] == [
        ("Drugaban low dose", "experimental"),
        ("Drugaban high dose", "experimental"),
        ("Placebo", "placebo comparator"),
    ]
    # a row per arm ("Arm Name | Arm Type | Intervention Name ...") names arms "Arm A": not read here
    by_row = {
        "columns": ["Arm Name", "Arm Type", "Intervention Name", "Dosage Level(s)"],
        "data": [["Arm A", "Experimental", "Drugaban", "10 mg"]],
    }
    assert read_arms([], products, NO_TRACE, [(by_row, where)]) == []


def test_a_design_chosen_to_do_something_assigns_nobody_to_arms():
    products = [{"name": "Semaglutide", "role": "investigational"}, {"name": "Semaglutide placebo", "role": "placebo"}]
    prose = [
        Field(
            "Rationale for Study Design",
            "A randomised, double-blinded, placebo-controlled trial design is chosen to minimise bias in the "
            "assessment of the effect of semaglutide 2.4 mg once-weekly versus semaglutide placebo.",
            "5.4",
            (20, 20),
            False,
            "section",
        )
    ]
    assert read_arms(prose, products, NO_TRACE) == []
    prose[0] = Field(
        "Overall Design",
        "Participants will be randomised in a 2:1 ratio to semaglutide 2.4 mg once-weekly or semaglutide placebo.",
        "5.1",
        (20, 20),
        False,
        "section",
    )
    assert [a["name"] for a in read_arms(prose, products, NO_TRACE)] == [
        "semaglutide 2.4 mg once-weekly",
        "semaglutide placebo",
    ]


def test_labelled_groups_heading_paragraphs_are_named_by_their_labels():
    # "Group #1-... Group: <a paragraph about what its participants do>": the label names the arm
    products = [{"name": "Zelomab", "role": "investigational"}]
    fields = [
        Field(
            "Study Design",
            "Participants will be randomized to one of two groups.\n"
            "Group#1-Fixed Zelomab Group: Provided their tests are normal, patients who are randomized to the "
            "fixed dose will start Zelomab 5mg daily (orally).\n"
            "Group #2-Titrated Group: Provided their tests are normal, patients who are randomized to titration "
            "will start Zelomab 2.5 mg daily and will be titrated up to 7.5 mg.",
            "A",
            (3, 3),
            True,
            "paragraph",
        )
    ]
    arms = read_arms(fields, products, NO_TRACE)
    assert [(a["name"], a["interventions"]) for a in arms] == [
        ("Group#1-Fixed Zelomab Group", ["Zelomab"]),
        ("Group #2-Titrated Group", ["Zelomab"]),  # its label names none: its paragraph does
    ]


def test_a_result_reported_of_patients_treated_with_a_product_is_no_arm():
    products = [{"name": "Zelomab", "role": "investigational"}]
    fields = [
        Field(
            "Abstract",
            "Almost 20% of patients treated with zelomab developed adverse events including nausea.",
            "Abstract",
            (1, 1),
            True,
            "section",
        )
    ]
    assert read_arms(fields, products, NO_TRACE) == []


def test_active_drug_is_the_one_investigational_product_when_no_comparator_is_read():
    from clinparser.study.design.arms import with_aliases

    design = Field(
        "Overall Design", "All patients will be randomized to active drug or placebo.", "Plan", (2, 2), True, "section"
    )
    products = [{"name": "Zelomab", "role": "investigational"}, {"name": "Placebo", "role": "placebo"}]
    arms = read_arms([design], with_aliases(products, None, [design]), NO_TRACE)
    assert [(a["name"], a["interventions"]) for a in arms] == [("active drug", ["Zelomab"]), ("placebo", ["Placebo"])]
    compared = products + [{"name": "Gotinib", "role": "comparator"}]  # "active" may be either product
    assert read_arms([design], with_aliases(compared, None, [design]), NO_TRACE) == []


def test_reviewed_arm_lines_keep_their_names_and_other_actives_are_not_the_study_drug():
    from clinparser.study.design.arms import with_aliases

    products = [
        {"name": "Zelomab", "role": "investigational"},
        {"name": "Gotinib", "role": "comparator"},
        {"name": "Placebo", "role": "placebo"},
    ]
    lines = (
        "Arm A: Participants will receive zelomab 10 mg once daily for 52 weeks.\n"
        "Arm B: Participants will receive gotinib 5 mg once daily for 52 weeks.\n"
        "Arm C: Participants will receive matching placebo once daily for 52 weeks."
    )
    arms = read_arms([Field("Treatment Groups", lines, "1.1", (3, 3), True, "table")], products, NO_TRACE)
    # a label with nothing of its own ("Arm A") keeps its line, and the line gives the type
    assert [(a["name"][:5], a["type"]) for a in arms] == [
        ("Arm A", "experimental"),
        ("Arm B", "active comparator"),
        ("Arm C", "placebo comparator"),
    ]
    assert all(len(a["name"]) > 20 for a in arms)
    one = [{"name": "Zelomab", "role": "investigational"}, {"name": "Placebo", "role": "placebo"}]
    control = Field(
        "Treatment Groups",
        "Arm A: Zelomab 10 mg\nArm B: Active control (standard of care alone)",
        "1.1",
        (3, 3),
        True,
        "table",
    )
    arms = read_arms([control], with_aliases(one, None, [control]), NO_TRACE)
    assert [a["interventions"] for a in arms] == [["Zelomab"], []]
    treated = Field(
        "Study Design",
        "Patients will be treated with zelomab 10 mg once daily until they had disease progression.",
        "4.1",
        (20, 20),
        False,
        "section",
    )
    assert [a["interventions"] for a in read_arms([treated], one, NO_TRACE)] == [["Zelomab"]]
