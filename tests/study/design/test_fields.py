"""Labelled fields in each layout protocols print them in."""

from clinparser.study.design.fields import labelled_fields, table_pairs, text_pairs


def test_a_two_column_synopsis_table_gives_its_pairs_with_continuation_rows_joined():
    table = {
        "columns": ["Study Phase", "2"],
        "data": [
            ["Number of Participants", "Approximately 120"],
            ["", "participants will be randomized."],
            ["Study Intervention", "Dose: 10 mg\nRoute: oral"],
        ],
    }
    pairs = dict(table_pairs(table))
    assert pairs["Number of Participants"] == "Approximately 120\nparticipants will be randomized."
    assert pairs["Dose"] == "10 mg" and pairs["Route"] == "oral"  # "Label: value" lines of a cell


def test_a_schedule_or_a_table_of_contents_is_no_field_table():
    assert table_pairs({"columns": ["Procedure", "Day 1"], "data": [["Consent", "X"]], "schedule": {"marks": []}}) == []
    toc = {"columns": ["4.1 Study Design ..........", "20"], "data": [["4.2 Number of Subjects .........", "21"]]}
    assert table_pairs(toc) == []


def test_bold_and_underlined_labels_take_the_paragraphs_below_them_up_to_the_next_label():
    text = (
        "**Indication:** Plaque psoriasis\n\n### **Study Design:**\n\nThis is a randomized study.\n\nIt has two arms."
        "\n\n<u>SAMPLE SIZE</u>\n\n300 participants\n\n## 2 Introduction\n\nNot a field."
    )
    pairs = dict(text_pairs(text))
    assert pairs["Indication"] == "Plaque psoriasis"
    assert pairs["Study Design"] == "This is a randomized study.\nIt has two arms."
    assert pairs["SAMPLE SIZE"] == "300 participants"


def test_synopsis_fields_come_before_the_body_and_amendment_histories_are_left_out():
    document = {
        "non_toc": [{"title": "Summary of Changes", "text": "**Study Design:** old design", "tables": []}],
        "toc": [
            {
                "number": "1.1",
                "title": "Synopsis",
                "text": "**Study Design:** synopsis design",
                "tables": [],
                "pages": [3, 4],
            },
            {"number": "4.1", "title": "Overall Design", "text": "Body design text.", "tables": [], "pages": [20, 21]},
        ],
    }
    fields = labelled_fields(document)
    assert [(f.label, f.value, f.synopsis) for f in fields if f.kind != "section"] == [
        ("Study Design", "synopsis design", True)
    ]
    assert ("Overall Design", "Body design text.") in [(f.label, f.value) for f in fields if f.kind == "section"]


def test_the_sections_of_a_document_without_a_numbered_outline_label_their_text():
    body = {
        "title": "APPROACH: GENERAL METHODS Overall Design, Randomization and Allocation",
        "text": "We shall perform a placebo-controlled, parallel-group trial of drug X.",
        "tables": [],
        "pages": [2, 2],
    }
    title_page = {"title": "Effects of Drug X", "text": "Version 7", "tables": [], "pages": [1, 1]}
    unnumbered = labelled_fields({"non_toc": [title_page, body], "toc": []})
    assert (body["title"], body["text"]) in [(f.label, f.value) for f in unnumbered if f.kind == "section"]
    # beside a numbered outline, the front matter's sections label nothing
    numbered = {"non_toc": [title_page, body], "toc": [dict(body, number="4.1", title="Overall Design")]}
    assert [f.label for f in labelled_fields(numbered) if f.kind == "section"] == ["Overall Design"]


def test_a_row_of_labels_over_a_row_of_their_values():
    table = {
        "columns": ["Sponsor:", "Protocol Number:"],
        "data": [
            ["Acme Pharma", "AC-101-301"],
            ["Name of Study Drug:", "Phase of Development:"],
            ["Drugamab", "Phase 3"],
        ],
    }
    pairs = table_pairs(table)
    assert ("Name of Study Drug", "Drugamab") in pairs and ("Protocol Number", "AC-101-301") in pairs


def test_a_forms_label_with_its_instruction_in_brackets_is_the_label_alone():
    # an IRB form's research plan: "**Study Design** (for example, ...):" over the investigator's text
    text = (
        "**Study Design** (for example, hypothesis, research question, standard and experimental procedures):\n\n"
        "Participants will be randomized to fixed or titrated dosing.\n\n"
        "**Sample size** (e.g. justification for the number of participants):\n\n50 patients"
    )
    pairs = dict(text_pairs(text))
    assert pairs["Study Design"] == "Participants will be randomized to fixed or titrated dosing."
    assert pairs["Sample size"] == "50 patients"


def test_a_section_with_no_text_of_its_own_labels_its_childrens_text_as_a_chapter_apart():
    from clinparser.study.design.fields import chapter_fields

    document = {
        "non_toc": [],
        "toc": [
            {
                "number": "5.2",
                "title": "Administration",
                "text": "",
                "pages": [30, 31],
                "subsections": [
                    {
                        "number": "5.2.1",
                        "title": "Main Study",
                        "text": "Zelomab 300 mg is taken orally.",
                        "pages": [30],
                    },
                    {"number": "5.2.2", "title": "Sub-Study", "text": "A single dose of 300 mg.", "pages": [31]},
                ],
            }
        ],
    }
    chapters = chapter_fields(document)
    assert [(f.label, f.value, f.kind) for f in chapters] == [
        ("Administration", "Zelomab 300 mg is taken orally.\nA single dose of 300 mg.", "chapter")
    ]
    assert not any(f.label == "Administration" for f in labelled_fields(document))  # the text once there


def test_a_bracket_after_a_bold_word_that_is_no_instruction_makes_no_label():
    # "**Arm A** (Zelomab 10 mg QD): ..." keeps its bracket: not read as the label "Arm A"
    assert dict(text_pairs("**Arm A** (Zelomab 10 mg QD): twelve weeks of treatment")) == {}
