"""criteria: cutting criteria out of one section's text -- numbering styles, sub-items, notes,
tables, paragraphs, lead-ins and closing remarks -- read through ``read_eligibility`` on
hand-built documents (dicts shaped like document.json / blocks.json).

Each test builds the section text as the assemble stage writes it (Markdown) and, where the
layout matters (page breaks, indentation), the blocks the tracer reads."""

import pytest
from eligibility_builders import block, brief, doc, node, population, read  # noqa: F401

INTRO = "Participants are eligible to be included in the study only if all of the following apply:\n\n"


@pytest.mark.parametrize(
    "labels",
    [
        ["1.", "2.", "3."],
        ["1)", "2)", "3)"],
        ["(1)", "(2)", "(3)"],
        ["[1]", "[2]", "[3]"],
        ["I1", "I2", "I3"],
        ["I 01", "I 02", "I 03"],
        ["INC #1", "INC #2", "INC #3"],
        ["a.", "b.", "c."],
        ["5.1.1", "5.1.2", "5.1.3"],
    ],
)
def test_numbering_styles(labels):
    texts = [
        "Age at least 18 years at screening.",
        "Body mass index of 30 kg/m2 or more.",
        "Able to give written informed consent.",
    ]
    body = INTRO + "\n\n".join(f"{label} {text}" for label, text in zip(labels, texts))
    criteria, diagnostics = read(doc(population(body)))
    assert brief(criteria) == [("inclusion", label, text) for label, text in zip(labels, texts)]
    assert [c["section"] for c in criteria] == ["5.1"] * 3
    assert [c["applies_to"] for c in criteria] == [None] * 3
    assert diagnostics == []


def test_prefixed_exclusion_and_bulleted_styles():
    body = "- EXC-1 Prior treatment with the study drug.\n\n- EXC-2 Pregnant or breastfeeding.\n\n- E 03 Known allergy."
    criteria, _ = read(doc(node("Exclusion Criteria", body, number="6.2")))
    assert brief(criteria) == [
        ("exclusion", "EXC-1", "Prior treatment with the study drug."),
        ("exclusion", "EXC-2", "Pregnant or breastfeeding."),
        ("exclusion", "E 03", "Known allergy."),
    ]


def test_bullets_have_no_identifier_and_indented_paragraphs_belong():
    body = (
        "Patients must meet the following criteria for study entry:\n\n"
        "- Age at least 18 years\n\n"
        "- For women of childbearing potential: agreement to use contraception, as defined below:\n\n"
        "Women must remain abstinent or use contraceptive methods during the treatment period.\n\n"
        "- Ability to comply with the study protocol"
    )
    blocks = [
        block(10, "Patients must meet the following criteria for study entry:", 108),
        block(10, "- Age at least 18 years", 108, "list-item"),
        block(
            10,
            "- For women of childbearing potential: agreement to use contraception, as defined below:",
            108,
            "list-item",
        ),
        block(10, "Women must remain abstinent or use contraceptive methods during the treatment period.", 150),
        block(10, "- Ability to comply with the study protocol", 108, "list-item"),
    ]
    criteria, _ = read(doc(node("Inclusion Criteria", body, number="4.1.1")), blocks)
    assert brief(criteria) == [
        ("inclusion", None, "Age at least 18 years"),
        (
            "inclusion",
            None,
            (
                "For women of childbearing potential: agreement to use contraception, as defined below:\n"
                "Women must remain abstinent or use contraceptive methods during the treatment period."
            ),
        ),
        ("inclusion", None, "Ability to comply with the study protocol"),
    ]


def test_criterion_split_at_a_page_break_is_one_item():
    body = (
        "The subject must be excluded if the subject:\n\n"
        "1. Has an active infection requiring systemic therapy.\n\n"
        "2. Is pregnant or breastfeeding, or expecting to conceive within the projected duration of the trial, "
        "through 120 days after\n\n"
        "the last dose of study treatment.\n\n"
        "3. Has received a live vaccine within 30 days."
    )
    blocks = [
        block(10, "The subject must be excluded if the subject:"),
        block(10, "1. Has an active infection requiring systemic therapy.", kind="list-item"),
        block(
            10,
            "2. Is pregnant or breastfeeding, or expecting to conceive within the projected duration of the trial, "
            "through 120 days after",
            kind="list-item",
        ),
        block(11, "the last dose of study treatment.", 90),
        block(11, "3. Has received a live vaccine within 30 days.", kind="list-item"),
    ]
    criteria, _ = read(doc(node("Exclusion Criteria", body, pages=(10, 11), number="5.2")), blocks)
    assert brief(criteria)[1] == (
        "exclusion",
        "2.",
        (
            "Is pregnant or breastfeeding, or expecting to conceive within the projected "
            "duration of the trial, through 120 days after the last dose of study treatment."
        ),
    )
    assert len(criteria) == 3
    assert criteria[1]["pages"] == [10, 11]
    assert [b["page"] for b in criteria[1]["boxes"]] == [10, 11]


def test_sub_items_and_notes_belong_to_their_criterion():
    body = (
        INTRO + "1. Women must be:\n\n- a. postmenopausal, defined as\n\n"
        "- >45 years of age with amenorrhea for 18 months, or\n\n"
        "- b. surgically sterile\n\n**Note:** A serum pregnancy test is acceptable.\n\n"
        "2. Nested list printed in the same style:\n\n1. first option\n\n2. second option\n\n"
        "3. Willing to comply with the protocol."
    )
    criteria, diagnostics = read(doc(population(body)))
    assert brief(criteria) == [
        (
            "inclusion",
            "1.",
            (
                "Women must be:\na. postmenopausal, defined as\n>45 years of age with amenorrhea for 18 months, or\n"
                "b. surgically sterile\nNote: A serum pregnancy test is acceptable."
            ),
        ),
        ("inclusion", "2.", "Nested list printed in the same style:\n1. first option\n2. second option"),
        ("inclusion", "3.", "Willing to comply with the protocol."),
    ]
    assert diagnostics == []


def test_lettered_criteria_read_i_as_a_letter_after_h():
    letters = "abcdefghij"
    body = "\n\n".join(f"- {x}. Criterion {x} text." for x in letters)
    criteria, _ = read(doc(node("Patient Inclusion Criteria", body, number="5.1")))
    assert [c["identifier"] for c in criteria] == [f"{x}." for x in letters]


def test_roman_sub_items_under_a_letter_stay_sub_items():
    body = (
        "- h. Prior therapy as follows:\n\n- i. first regimen\n\n- ii. second regimen\n\n- i. Able to swallow tablets."
    )
    criteria, _ = read(doc(node("Inclusion Criteria", body, number="5.1")))
    assert brief(criteria) == [
        ("inclusion", "h.", "Prior therapy as follows:\ni. first regimen\nii. second regimen"),
        ("inclusion", "i.", "Able to swallow tablets."),
    ]


def test_uncaptioned_table_belongs_to_its_criterion_but_a_numbered_exhibit_does_not():
    body = (
        "1. Treatment with the following medications within the washout periods:\n\n[Table]\n\n"
        "2. Adequate organ function as defined in Table 1.\n\n[Table 1 Adequate Organ Function]\n\n"
        "3. Able to swallow tablets."
    )
    tables = [
        {
            "title": "",
            "page": 10,
            "pages": [10, 10],
            "columns": ["Anticonvulsants", "2 weeks"],
            "data": [["Beta blockers", "1 month"]],
        },
        {
            "title": "Table 1 Adequate Organ Function",
            "page": 10,
            "pages": [10, 10],
            "columns": ["System", "Value"],
            "data": [["Platelets", ">=100,000/mcL"]],
        },
    ]
    criteria, _ = read(doc(node("Exclusion Criteria", body, number="5.2", tables=tables)))
    assert brief(criteria) == [
        (
            "exclusion",
            "1.",
            (
                "Treatment with the following medications within the washout periods:\n"
                "Anticonvulsants 2 weeks\nBeta blockers 1 month"
            ),
        ),
        ("exclusion", "2.", "Adequate organ function as defined in Table 1."),
        ("exclusion", "3.", "Able to swallow tablets."),
    ]


def test_markdown_emphasis_is_removed():
    body = "**1.** Subject has **known** _brain_ metastasis.\n\n**2.** BMI ≥ 30 kg/m<sup>2</sup>"
    criteria, _ = read(doc(node("Exclusion Criteria", body, number="3.3")))
    assert brief(criteria) == [
        ("exclusion", "1.", "Subject has known brain metastasis."),
        ("exclusion", "2.", "BMI ≥ 30 kg/m2"),
    ]


def test_grouping_sub_headings_and_bold_lead_ins():
    body = (
        "Participants are eligible for the study if they meet the criteria below.\n\n"
        "**Inclusion Criteria:**\n\n## **Medical Conditions**\n\n1. Diagnosis of the disease.\n\n"
        "_Prior/Concomitant Therapy_\n\n2. No prior biologic therapy.\n\n"
        "**Exclusion Criteria:**\n\n### **Medical Conditions**\n\n1. Active infection.\n\n2. Known allergy."
    )
    criteria, diagnostics = read(doc(node("Eligibility Criteria", body, number="5.1")))
    assert brief(criteria) == [
        ("inclusion", "1.", "Diagnosis of the disease."),
        ("inclusion", "2.", "No prior biologic therapy."),
        ("exclusion", "1.", "Active infection."),
        ("exclusion", "2.", "Known allergy."),
    ]
    assert diagnostics == []


def test_lead_in_line_inside_a_criterion_is_not_a_heading():
    body = (
        "1. Contraceptive use should follow local regulations.\n\n**Male participants:**\n\n"
        "- must use a condom.\n\n2. Signed informed consent."
    )
    criteria, _ = read(doc(node("Inclusion Criteria", body, number="5.1")))
    assert brief(criteria) == [
        (
            "inclusion",
            "1.",
            ("Contraceptive use should follow local regulations.\nMale participants:\nmust use a condom."),
        ),
        ("inclusion", "2.", "Signed informed consent."),
    ]


def test_closing_remark_at_the_margin_is_not_part_of_the_last_criterion():
    body = (
        INTRO + "1. Adults.\n\n2. Signed informed consent.\n\n"
        "Note: consent may be given by a legal representative.\n\n"
        "The criteria will be assessed at the investigator's discretion."
    )
    blocks = [
        block(20, INTRO.strip(), 92),
        block(20, "1. Adults.", 92, "list-item"),
        block(20, "2. Signed informed consent.", 92, "list-item"),
        block(20, "Note: consent may be given by a legal representative.", 110),
        block(20, "The criteria will be assessed at the investigator's discretion.", 92),
    ]
    criteria, _ = read(doc(node("Inclusion criteria", body, pages=(20, 20), number="6.1")), blocks)
    assert brief(criteria) == [
        ("inclusion", "1.", "Adults."),
        ("inclusion", "2.", "Signed informed consent.\nNote: consent may be given by a legal representative."),
    ]


def test_two_criteria_run_into_one_line_are_cut_apart():
    body = "1. Signed informed consent 2. Adults of any ethnic origin.\n\n3. Body mass index above 25 kg/m2."
    criteria, diagnostics = read(doc(node("Inclusion Criteria", body, number="3.1")))
    assert brief(criteria) == [
        ("inclusion", "1.", "Signed informed consent"),
        ("inclusion", "2.", "Adults of any ethnic origin."),
        ("inclusion", "3.", "Body mass index above 25 kg/m2."),
    ]
    assert diagnostics == []


def test_paragraphs_under_lead_ins_are_criteria_when_no_item_is_printed():
    # No bullet or number anywhere: each paragraph under a lead-in is one criterion; a paragraph
    # cut by a page break (lower-case start) carries on the one above it; a lead-in printed as
    # plain text ("Exclusion Criteria:") is a lead-in too.
    body = (
        "### _<u>Inclusion Criteria:</u>_\n\n"
        "Female patient desiring fertility preservation\n\n"
        "Age less than 45 years at time of informed consent\n\n"
        "Voluntary provision of written informed consent, prior to any procedure that was not part of\n\n"
        "normal medical care\n\n"
        "Exclusion Criteria:\n\n"
        "Patients not medically cleared by their oncologist\n\n"
        "History of alcohol or drug abuse within 12 months"
    )
    criteria, diagnostics = read(doc(node("Inclusion/Exclusion criteria:", body, number="A6.")))
    assert brief(criteria) == [
        ("inclusion", None, "Female patient desiring fertility preservation"),
        ("inclusion", None, "Age less than 45 years at time of informed consent"),
        (
            "inclusion",
            None,
            "Voluntary provision of written informed consent, "
            "prior to any procedure that was not part of normal medical care",
        ),
        ("exclusion", None, "Patients not medically cleared by their oncologist"),
        ("exclusion", None, "History of alcohol or drug abuse within 12 months"),
    ]
    assert diagnostics == []


def test_paragraphs_of_a_titled_section_are_criteria_after_the_intro():
    body = (
        "Patients must meet all of the following:\n\n"
        "Age 18 years or older\n\nHistologically confirmed ovarian cancer\n\nECOG performance status 0 or 1"
    )
    criteria, _ = read(doc(node("Inclusion Criteria", body, number="5.1")))
    assert brief(criteria) == [
        ("inclusion", None, "Age 18 years or older"),
        ("inclusion", None, "Histologically confirmed ovarian cancer"),
        ("inclusion", None, "ECOG performance status 0 or 1"),
    ]


@pytest.mark.parametrize(
    "body",
    [
        # prose about the criteria
        "All inclusion criteria will be checked at screening.\n\n"
        "The eligibility criteria are listed in the synopsis.\n\n"
        "Waivers to the criteria are not allowed.",
        # paragraphs of several sentences
        "Subjects are screened at Visit 1. The investigator reviews the history.\n\n"
        "Laboratory values are read centrally. Results are sent within a week.\n\n"
        "A subject may be rescreened once. The reason is recorded.",
        # no category names the paragraphs (the title names both, no lead-in)
        "Age 18 years or older\n\nHistologically confirmed ovarian cancer",
    ],
)
def test_prose_in_an_eligibility_section_is_not_read_as_criteria(body):
    title = "Eligibility Criteria" if body.startswith("Age") else "Inclusion Criteria"
    criteria, diagnostics = read(doc(node(title, body, number="5.1")))
    assert criteria == []
    assert [d["kind"] for d in diagnostics] == ["no_criteria", "no_eligibility"]


def test_paragraphs_are_not_criteria_when_the_run_has_list_items():
    body = (
        "Exclusion Criteria:\n\n1. Prior treatment with the study drug.\n\n"
        "Note: exposure in another trial counts\n\nNote: topical use counts"
    )
    criteria, _ = read(doc(node("Eligibility Criteria", body, number="5")))
    assert brief(criteria) == [
        (
            "exclusion",
            "1.",
            "Prior treatment with the study drug.\nNote: exposure in another trial counts\nNote: topical use counts",
        )
    ]


def test_lettered_criterion_run_into_the_previous_line_is_cut_out():
    # "c." printed on its own line but joined to b.'s paragraph upstream: the gap b. -> d. shows it.
    body = (
        "a. Weight exceeding 137 kilograms\n\n"
        "b. Abdominal surgery other than appendectomy or tubal ligation "
        "c. Positive history of chronic GI diseases, e.g., Orlistat\n\n"
        "d. Personal history of medullary thyroid carcinoma"
    )
    criteria, diagnostics = read(doc(node("Exclusion criteria:", body)))
    assert brief(criteria) == [
        ("exclusion", "a.", "Weight exceeding 137 kilograms"),
        ("exclusion", "b.", "Abdominal surgery other than appendectomy or tubal ligation"),
        ("exclusion", "c.", "Positive history of chronic GI diseases, e.g., Orlistat"),
        ("exclusion", "d.", "Personal history of medullary thyroid carcinoma"),
    ]
    assert diagnostics == []


def test_numbered_headings_with_lettered_sub_items_are_one_criterion_each():
    body = (
        INTRO + "# **1. Target population:**\n\na) Adults aged 18 to 75 years.\n\nb) Psoriasis for 6 months.\n\n"
        "# **2. Informed consent:**\n\na) Signed consent before any procedure.\n\n"
        "**3. Contraception:**\n\na) Women of childbearing potential use contraception.\n\nb) Men use condoms.\n"
    )
    criteria, diagnostics = read(doc(population(body)))
    assert brief(criteria) == [
        ("inclusion", "1.", "Target population:\na) Adults aged 18 to 75 years.\nb) Psoriasis for 6 months."),
        ("inclusion", "2.", "Informed consent:\na) Signed consent before any procedure."),
        (
            "inclusion",
            "3.",
            "Contraception:\na) Women of childbearing potential use contraception.\nb) Men use condoms.",
        ),
    ]
    assert diagnostics == []


def test_a_numbered_heading_over_criteria_of_its_own_style_still_groups_them():
    body = INTRO + "# **1. Medical history**\n\n1. Age at least 18 years.\n\n2. Signed consent.\n"
    criteria, _ = read(doc(population(body)))
    assert brief(criteria) == [("inclusion", "1.", "Age at least 18 years."), ("inclusion", "2.", "Signed consent.")]


def test_identifiers_printed_at_the_end_of_a_line_open_their_criterion():
    body = (
        INTRO + "- Participants must be 18 years of age or older. **INC #1**\n\n"
        "- Documented asthma along with the following: **INC #2**\n\n- Eosinophils of 300 cells/uL or more.\n\n"
        "- FeNO of 25 ppb or more.\n\n-\n\n- Uncontrolled asthma at screening. **INC #3**\n"
    )
    criteria, _ = read(doc(population(body)))
    assert brief(criteria) == [
        ("inclusion", "INC #1", "Participants must be 18 years of age or older."),
        (
            "inclusion",
            "INC #2",
            "Documented asthma along with the following:\nEosinophils of 300 cells/uL or more.\n"
            "FeNO of 25 ppb or more.",
        ),
        ("inclusion", "INC #3", "Uncontrolled asthma at screening."),
    ]


def test_the_rationale_for_the_criteria_is_not_criteria():
    body = (
        INTRO + "1. Adults aged 18 years or more.\n\n2. Signed consent.\n\n"
        "# **<u>Rationale for Inclusion Criteria</u>**\n\n- 1 \u2013 7 To select the appropriate population\n\n"
        "- 8 In accordance with Good Clinical Practice\n"
    )
    criteria, _ = read(doc(population(body)))
    assert brief(criteria) == [
        ("inclusion", "1.", "Adults aged 18 years or more."),
        ("inclusion", "2.", "Signed consent."),
    ]


def test_a_tag_printed_below_its_criterions_first_line_still_names_that_criterion():
    body = (
        INTRO + "- Male participants: no additional requirements. **INC#7**\n\n"
        "- **Female participants:** eligible if one of the following applies:\n\n- Is of non-childbearing potential\n\n"
        "OR\n\n- Is of childbearing potential and uses contraception. **INC#8**\n\n"
        "- A pregnancy test is negative before the first dose.\n\n- Capable of giving consent. **INC#9**\n"
    )
    criteria, _ = read(doc(population(body)))
    assert brief(criteria) == [
        ("inclusion", "INC#7", "Male participants: no additional requirements."),
        (
            "inclusion",
            "INC#8",
            "Female participants: eligible if one of the following applies:\n"
            "Is of non-childbearing potential\nOR\nIs of childbearing potential and uses contraception.\n"
            "A pregnancy test is negative before the first dose.",
        ),
        ("inclusion", "INC#9", "Capable of giving consent."),
    ]
