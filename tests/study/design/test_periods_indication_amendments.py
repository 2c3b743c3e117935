"""Epochs, the indication and the amendment history."""

from clinparser.study.design.amendments import iso_date, read_amendments
from clinparser.study.design.fields import Field
from clinparser.study.design.indication import read_indication
from clinparser.study.design.periods import read_epochs
from clinparser.study.trace import Tracer

NO_TRACE = Tracer([])


def test_periods_named_in_the_design_sentence_in_order():
    fields = [
        Field(
            "Overall Design",
            "The study has a screening period of up to 28 days, a 12-week treatment period "
            "and a 4-week safety follow-up period.",
            "4.1",
            (20, 20),
            False,
            "section",
        )
    ]
    assert [e["name"] for e in read_epochs(fields, [], NO_TRACE)] == ["Screening", "Treatment", "Safety follow-up"]


def test_the_field_naming_most_periods_wins_and_a_period_named_twice_is_one():
    fields = [
        Field(
            "Methodology",
            "Patients continue into a blinded extension period after the treatment period.",
            "1.2",
            (3, 3),
            True,
            "paragraph",
        ),
        Field(
            "Overall Design",
            "The study has a screening/washout period of 14 days, a 6-week double-blind treatment "
            "period and a safety follow-up period. Treatment period visits are weekly. Extension beyond this "
            "period needs approval. See the washout period for prior therapies in Section 5.",
            "4.1",
            (20, 20),
            False,
            "section",
        ),
    ]
    assert [e["name"] for e in read_epochs(fields, [], NO_TRACE)] == [
        "Screening/washout",
        "Double-blind treatment",
        "Safety follow-up",
    ]


def test_without_such_a_sentence_the_main_schedules_epochs_less_its_visit_names():
    schedule = {
        "main": True,
        "epochs": [
            {"label": "Screening"},
            {"label": "Treatment Period"},
            {"label": "End of Treatment"},
            {"label": "Follow-up"},
        ],
    }
    assert [e["name"] for e in read_epochs([], [schedule], NO_TRACE)] == ["Screening", "Treatment Period", "Follow-up"]
    # a label's abbreviation in brackets leaves it a period's name
    schedule["epochs"] = [
        {"label": "Screening (SCR)"},
        {"label": "Intervention period"},
        {"label": "Safety Follow-up (SFU)"},
    ]
    assert [e["name"] for e in read_epochs([], [schedule], NO_TRACE)] == [
        "Screening (SCR)",
        "Intervention period",
        "Safety Follow-up (SFU)",
    ]


def test_the_indication_field_first_then_the_title():
    fields = [Field("Indication", "Secondary hyperparathyroidism.", None, (3, 3), True, "paragraph")]
    assert read_indication(fields, None, NO_TRACE)["value"] == "Secondary hyperparathyroidism"
    title = {
        "text": "A Phase 3 Study of Drug X in Participants With Previously Treated Metastatic Breast Cancer (STUDY-1)",
        "page": 1,
    }
    assert read_indication([], title, NO_TRACE)["value"] == "Previously Treated Metastatic Breast Cancer"
    # a condition printed in lower case after "in" (not "in a sub-study"), up to "utilizing"
    lower = {
        "text": "A single arm study to assess the effect of Drugmab on airway structure in asthma with type 2 "
        "inflammation utilizing quantitative CT in a sub-study",
        "page": 1,
    }
    assert read_indication([], lower, NO_TRACE)["value"] == "asthma with type 2 inflammation"
    # a statistics table's "Treatment Condition(s)" names the arms, not the disease
    arms = [
        Field("Treatment Condition(s)", "A single dose of Drug X 300 mg or placebo", "17.2", (54, 54), False, "table")
    ]
    assert read_indication(arms, title, NO_TRACE)["value"] == "Previously Treated Metastatic Breast Cancer"


def test_amendment_history_table_without_the_original_and_administrative_changes():
    table = {
        "columns": ["Document", "Date"],
        "data": [
            ["Original Protocol", "01 March 2019"],
            ["Amendment 1", "14 June 2019"],
            ["Administrative Change 1", "20 July 2019"],
            ["Amendment 2", "03 January 2020"],
            ["Amendment 2 (JP 01)", "05 February 2020"],
        ],
    }
    document = {
        "non_toc": [{"title": "Protocol Amendment History", "text": "", "tables": [table], "pages": [2, 2]}],
        "toc": [],
    }
    found = read_amendments(document, NO_TRACE)
    assert [(a["number"], a["date"]) for a in found] == [("1", "2019-06-14"), ("2", "2020-01-03")]


def test_a_version_table_naming_no_amendment_counts_each_version_after_the_first():
    table = {
        "columns": ["Version Number", "Version Date"],
        "data": [["1.0", "12 Jan 2020"], ["2.0", "30 Jun 2020"], ["3.0", "1 Feb 2021"]],
    }
    document = {
        "non_toc": [],
        "toc": [{"number": "", "title": "Document History", "text": "", "tables": [table], "pages": [2, 2]}],
    }
    assert [a["number"] for a in read_amendments(document, NO_TRACE)] == ["2.0", "3.0"]


def test_dates_in_the_forms_protocols_print():
    assert iso_date("Amendment 3: 02Jun2016") == "2016-06-02"
    assert iso_date("March 14, 2021") == "2021-03-14" and iso_date("no date") is None


def test_bare_numbers_under_an_amendment_column_and_a_title_page_line_of_several_fields():
    table = {"columns": ["Amendment", "Date"], "data": [["Original", "24-Apr-2020"], ["1", "03-Oct-2020"]]}
    document = {"non_toc": [{"title": "Document History", "text": "", "tables": [table], "pages": [2, 2]}], "toc": []}
    assert [(a["number"], a["date"]) for a in read_amendments(document, NO_TRACE)] == [("1", "2020-10-03")]
    cover = "**Protocol Number:** DL-1 **Original Protocol:** 12-May-2021 **Amendment 1:** 19-Aug-2021"
    document = {"non_toc": [{"title": "A Study of Drug X", "text": cover, "tables": [], "pages": [1, 1]}], "toc": []}
    assert [(a["number"], a["date"]) for a in read_amendments(document, NO_TRACE)] == [("1", "2021-08-19")]


def test_a_history_table_with_month_year_dates_and_the_back_matters_amendment_headings():
    table = {
        "columns": ["Document", "Date"],
        "data": [
            ["Amendment 2 (not implemented)", "March 2020 (not implemented)"],
            ["Amendment 1", "December 2018"],
            ["Original Protocol", "July 2018"],
        ],
    }
    document = {
        "non_toc": [
            {"title": "Summary of Changes", "text": "", "tables": [table], "pages": [2, 2]},
            {
                "title": "Protocol amendment 3: (UK, 15 March 2021 version 1.0)",
                "text": "Changes.",
                "tables": [],
                "pages": [90, 91],
            },
        ],
        "toc": [],
    }
    found = read_amendments(document, NO_TRACE)
    assert [(a["number"], a["date"]) for a in found] == [("1", None), ("2", None), ("3", "2021-03-15")]


def test_a_dated_version_list_on_the_title_page_counts_each_version_after_the_first():
    text = (
        "Date of Protocol: 04 May 2023, Version 4.1\n11 October 2022 (US Only), Version 3.1\n"
        "10 February 2022, Version 2.0 18 October 2021, Version 1.0"
    )
    document = {"non_toc": [{"title": "Title Page", "text": text, "tables": [], "pages": [1, 1]}], "toc": []}
    assert [a["number"] for a in read_amendments(document, NO_TRACE)] == ["2.0", "3.1", "4.1"]
    one = {
        "non_toc": [
            {"title": "Title Page", "text": "Protocol Version 2.0, 10 February 2022", "tables": [], "pages": [1, 1]}
        ],
        "toc": [],
    }
    # one version is no list, but the title page's own version after the first is the amendment
    # the document is
    assert [a["number"] for a in read_amendments(one, NO_TRACE)] == ["2.0"]
    first = {
        "non_toc": [
            {"title": "Title Page", "text": "Protocol Version 1.0, 10 February 2022", "tables": [], "pages": [1, 1]}
        ],
        "toc": [],
    }
    assert read_amendments(first, NO_TRACE) == []  # the original protocol


def test_a_numbered_sequence_of_periods_is_one_period_per_number():
    fields = [
        Field(
            "Study Design",
            "The study consists of a screening period of up to 28 days, Treatment Period 1 "
            "(4 weeks), Washout Period 1 (at least 7 days), Treatment Period 2 (4 weeks) and a follow-up period.",
            "3.1",
            (5, 5),
            False,
            "section",
        )
    ]
    assert [e["name"] for e in read_epochs(fields, [], NO_TRACE)] == [
        "Screening",
        "Treatment period 1",
        "Washout",
        "Treatment period 2",
        "Follow-up",
    ]
    # one number alone is no sequence, and a number of days is a length
    once = [
        Field(
            "Study Design",
            "A screening period, Treatment Period 1 and a treatment period 12 days long, then follow-up period.",
            "3.1",
            (5, 5),
            False,
            "section",
        )
    ]
    assert [e["name"] for e in read_epochs(once, [], NO_TRACE)] == ["Screening", "Treatment", "Follow-up"]


def _history(*tables, text=""):
    return {
        "non_toc": [{"title": "Title Page", "text": text, "tables": [], "pages": [1, 1]}],
        "toc": [
            {
                "number": "11",
                "title": "Description of Global Amendments",
                "text": "",
                "pages": [58, 60],
                "tables": list(tables),
            }
        ],
    }


def test_one_labelled_box_per_amendment_even_when_the_boxes_were_joined():
    box1 = {
        "columns": ["Number of global amendment", "", "1"],
        "data": [
            ["Date of CTP revision", "", "15 October 2012"],
            ["Section to be changed", "", "Flow chart"],
            ["Rationale for change", "", "Clarity."],
        ],
    }
    joined = {
        "columns": ["Amendment No.", "2"],
        "data": [
            ["Date of amendment", "09 January 2015"],
            ["Description of change", "Visits added."],
            ["Amendment No.", "3"],
            ["Date of amendment", "28 March 2017"],
        ],
    }
    found = read_amendments(_history(box1, joined), NO_TRACE)
    assert [(a["number"], a["date"]) for a in found] == [("1", "2012-10-15"), ("2", "2015-01-09"), ("3", "2017-03-28")]
    # a labelled table whose number row is no amendment's is not a box
    other = {"columns": ["Number of participants", "120"], "data": [["Date of first visit", "1 May 2020"]]}
    assert read_amendments(_history(other), NO_TRACE) == []


def test_the_title_pages_own_version_and_the_earlier_version_its_rationale_names():
    title_table = {
        "columns": ["Protocol Number:", "AB-123"],
        "data": [["Version Number:", "3"], ["Date:", "5 April 2024"]],
    }
    document = {
        "non_toc": [
            {
                "title": "A Study of X",
                "tables": [title_table],
                "pages": [1, 1],
                "text": "## **PROTOCOL AMENDMENT, VERSION 3: RATIONALE**\n\nVersion 2 of the protocol was updated "
                "to extend the screening window.\n\nVersion 1 of the protocol was the original.",
            }
        ],
        "toc": [],
    }
    assert [(a["number"], a["date"]) for a in read_amendments(document, NO_TRACE)] == [("2", None), ("3", "2024-04-05")]
    # where amendments are named, a version number is another numbering and is not added
    named = {
        "non_toc": [
            {
                "title": "Title",
                "text": "Version: 4.0, 1 May 2021\n\nAmendment 2: 14 March 2021",
                "tables": [],
                "pages": [1, 1],
            }
        ],
        "toc": [],
    }
    assert [a["number"] for a in read_amendments(named, NO_TRACE)] == ["2"]


def test_a_bare_number_under_a_version_column_is_a_version():
    table = {"columns": ["Version", "Protocol / Date Final"], "data": [["2", "14 April 2020"], ["1", "18 March 2020"]]}
    document = {"non_toc": [{"title": "Protocol History", "text": "", "tables": [table], "pages": [2, 2]}], "toc": []}
    assert [(a["number"], a["date"]) for a in read_amendments(document, NO_TRACE)] == [("2", "2020-04-14")]


def _section(number, title, *subsections, text="Some text."):
    return {
        "number": number,
        "title": title,
        "text": text,
        "pages": [40, 40],
        "tables": [],
        "subsections": list(subsections),
    }


def test_sibling_section_titles_name_the_periods_when_no_sentence_names_more():
    procedures = _section(
        "6.2",
        "Trial Procedures at Each Visit",
        _section("6.2.1", "Screening"),
        _section("6.2.2", "Treatment period"),
        _section("6.2.3", "End of trial and follow-up period"),
        _section("6.2.4", "Unscheduled visits"),
        _section("6.2.5", "Period after the database lock for the final analysis"),
    )
    document = {"toc": [_section("6", "Investigational Plan", procedures)], "non_toc": []}
    one = [Field("Trial Design", "Patients enter a 52-week observation period.", "3.1", (10, 10), False, "section")]
    assert [e["name"] for e in read_epochs(one, [], NO_TRACE, document)] == [
        "Screening",
        "Treatment period",
        "End of trial and follow-up period",
        "Period after the database lock for the final analysis",
    ]
    # "Treatment (Day 1-27) and Follow up Periods (Day 28-55)" is two periods; a section of no
    # text of its own counts (its subsections hold the text)
    amgen = {
        "toc": [
            _section(
                "7",
                "Study Procedures",
                _section(
                    "7.2",
                    "Study Visits",
                    _section("7.2.1", "Screening", text=""),
                    _section("7.2.2", "Day 1 Visit"),
                    _section("7.2.3", "Treatment (Day 1-27) and Follow up Periods (Day 28-55)"),
                ),
            )
        ],
        "non_toc": [],
    }
    assert [e["name"] for e in read_epochs([], [], NO_TRACE, amgen)] == ["Screening", "Treatment", "Follow up"]
    # titles that merely start like a period are not periods, nor are top-level chapters
    noise = {
        "toc": [
            _section("5", "Treatment"),
            _section("6", "Follow-up"),
            _section(
                "8",
                "Safety",
                _section("8.1", "Investigator Follow-Up"),
                _section("8.2", "Sponsor Follow-Up"),
                _section("8.3", "Treatment Compliance"),
            ),
        ],
        "non_toc": [],
    }
    assert read_epochs([], [], NO_TRACE, noise) == []


def test_boxes_set_side_by_side_or_left_as_lines_of_text():
    side = {
        "columns": ["Amendment No.", "2", "3"],
        "data": [
            ["Date of revision", "27-Jul-2022", "28-Feb-2023"],
            ["Sections changed", "Statistical methods", "Study procedures"],
        ],
    }
    text = (
        "The changes made by each global amendment follow.\n\n"
        "Amendment No. 1\nDate of revision 04-Apr-2022\nSections changed Flow chart"
    )
    document = _history(side)
    document["toc"][0]["text"] = text
    found = read_amendments(document, NO_TRACE)
    assert [(a["number"], a["date"]) for a in found] == [("1", "2022-04-04"), ("2", "2022-07-27"), ("3", "2023-02-28")]


def test_a_history_run_on_in_one_line_with_two_series_of_amendments():
    text = (
        "_Protocol History:_\n\nVersion 1.0 [10Nov2015] Version 1.1 [FR] Nonsubstantial Amendment 1 [21Apr2016] "
        "Version 2.0 Substantial Amendment 1 [02Jun2016] Version 2.1 [CA, US] Nonsubstantial Amendment 2 [04Oct2017] "
        "Version 3.0 Substantial Amendment 2 [14Dec2017]"
    )
    document = {"non_toc": [{"title": "Title Page", "text": text, "tables": [], "pages": [1, 1]}], "toc": []}
    found = read_amendments(document, NO_TRACE)
    assert sorted((a["number"], a["date"]) for a in found) == [
        ("Nonsubstantial Amendment 1", "2016-04-21"),
        ("Nonsubstantial Amendment 2", "2017-10-04"),
        ("Substantial Amendment 1", "2016-06-02"),
        ("Substantial Amendment 2", "2017-12-14"),
    ]


def test_the_schemas_box_labels_name_the_periods_when_no_sentence_names_them():
    # a flow chart whose boxes came out as bold lines, a box's note beside its label
    chart = _section(
        "5",
        "Flow Chart and Schedule of Assessments",
        text=(
            "## **Flow Chart**\n\n**Screening** Weeks -4 to -1\n\n**Double-blind Treatment Period**\n\n"
            "**Safety Follow-up**\n\n[Image]\n\nRandomized 1:1\n\n**Long-term Follow-up**\n\n"
            "Every 12 weeks For those subjects who discontinue the "
            "Treatment Period without progression, scans continue."
        ),
    )
    one = [
        Field(
            "Study Design", "Subjects are randomized 1:1 and followed for survival.", "3.1", (10, 10), False, "section"
        )
    ]
    assert [e["name"] for e in read_epochs(one, [], NO_TRACE, {"toc": [chart], "non_toc": []})] == [
        "Screening",
        "Double-blind Treatment Period",
        "Safety Follow-up",
        "Long-term Follow-up",
    ]
    # a schema figure's words: boxes side by side read as one line; a box below a column repeats
    # its period ("Screening" under "Screening Period"); an arm's row is no period
    figure = {
        "title": "Figure 1: Study Schema",
        "page": 4,
        "bbox": [72, 100, 540, 300],
        "text": "Screening Period Double-blind Treatment Period Follow-up Period\n"
        "(up to 6 weeks) (52 weeks) (8 weeks)\n"
        "Arm A: Drug X 50 mg\nScreening R Arm B: Placebo Follow-up\n1:1 N = 60",
    }
    design = dict(_section("3.1", "Overall Design"), images=[figure])
    assert [e["name"] for e in read_epochs([], [], NO_TRACE, {"toc": [design], "non_toc": []})] == [
        "Screening Period",
        "Double-blind Treatment Period",
        "Follow-up Period",
    ]
    # a schema drawn as a table: its header; a schedule of activities is no schema
    grid = dict(
        _section("1.2", "Schema"),
        tables=[
            {
                "columns": [
                    "**Screening**<br>(up to 28 days)",
                    "**Treatment Period**<br>(12 weeks)",
                    "**Follow-up**<br>(4 weeks)",
                ],
                "data": [["Screening", "Drug X", "Follow-up"]],
            },
            {
                "columns": ["Visit", "Screening", "Run-in Period", "Day 1", "Extension Period", "Follow-up"],
                "data": [],
                "schedule": {},
            },
        ],
    )
    assert [e["name"] for e in read_epochs([], [], NO_TRACE, {"toc": [grid], "non_toc": []})] == [
        "Screening",
        "Treatment Period",
        "Follow-up",
    ]
    # the same drawn in boxes read as a table in the design section, its figure caption below it
    boxes = {
        "columns": ["Screening Period", "Treatment Period", "Follow-up Period"],
        "data": [["Screening", "Drug X", "Follow-up"]],
    }
    other = {"columns": ["Product", "Dose Period", "Route"], "data": [["Drug X", "10 mg", "Oral"]]}
    design2 = dict(
        _section(
            "3.1",
            "Overall Design",
            text="All receive Drug X.\n\n[Table 2: Products]\n\n[Table]\n\n**Figure 1: Study Design**",
        ),
        tables=[dict(other, title="Table 2: Products"), boxes],
    )
    assert [e["name"] for e in read_epochs([], [], NO_TRACE, {"toc": [design2], "non_toc": []})] == [
        "Screening Period",
        "Treatment Period",
        "Follow-up Period",
    ]
    uncaptioned = dict(design2, text="All receive Drug X.\n\n[Table 2: Products]\n\n[Table]\n\nThe end.")
    assert read_epochs([], [], NO_TRACE, {"toc": [uncaptioned], "non_toc": []}) == []
    # a sentence naming as many periods wins over the schema; a label run on with others'
    # words ("Screening R Safety Follow-up") is none
    said = [
        Field(
            "Overall Design",
            "The study has a screening period, a treatment period and a follow-up period.",
            "3.1",
            (10, 10),
            False,
            "section",
        )
    ]
    assert [e["name"] for e in read_epochs(said, [], NO_TRACE, {"toc": [design], "non_toc": []})] == [
        "Screening",
        "Treatment",
        "Follow-up",
    ]
    muddled = dict(
        _section("3.1", "Overall Design"),
        images=[dict(figure, text="Screening R Safety Follow-up\nScreening Follow-up")],
    )
    assert read_epochs([], [], NO_TRACE, {"toc": [muddled], "non_toc": []}) == []


# a crossover schema's periods, as its header boxes name them
CROSSOVER_PERIODS = [
    "Screening",
    "Treatment Period 1",
    "Washout Period 1",
    "Treatment Period 2",
    "Safety Follow-up Period",
]


def _line(x: float, y: float, text: str, height: float) -> dict:
    """A picture's line of ``text`` centred on ``x``, its top at ``y``."""
    return {"bbox": [x - 5 * len(text) / 2, y, x + 5 * len(text) / 2, y + height], "text": text}


def _schema_picture(caption: str, text: str, lines: list[dict], source: str) -> tuple[dict, list[dict]]:
    """A "1.2 Schema" section holding one picture captioned ``caption`` whose words are ``text``,
    and the picture's block in blocks.json, its lines (``source``: how they were read) in place."""
    figure = {"title": caption, "page": 4, "bbox": [50, 70, 560, 190], "text": text}
    document = {"toc": [dict(_section("1.2", "Schema", text=f"[{caption}]"), images=[figure])], "non_toc": []}
    block = {"page": 4, "bbox": [50, 70, 560, 190], "kind": "picture", "text": ""}
    return document, [{**block, "picture_text": {"from": source, "lines": lines}}]


def test_a_schemas_labels_wrapped_in_narrow_boxes_are_stacked_back_by_their_places():
    # a crossover's schema: each header box's label over two or three lines, the boxes side by
    # side (read row by row, the words of several boxes interleave); the picture's lines keep
    # their boxes in blocks.json, so each box's label is whole again
    def line(x, y, text):
        return _line(x, y, text, 9)

    heads = [
        (100, ["Screening", "(up to 6 weeks)"]),
        (200, ["Treatment", "Period 1", "(4 weeks)"]),
        (300, ["Washout", "Period 1", "(2 weeks)"]),
        (400, ["Treatment", "Period 2", "(4 weeks)"]),
        (500, ["Safety", "Follow-up", "Period", "(14 days)"]),
    ]
    lines = [line(x, 100 + 10 * k - 5 * len(words), w) for x, words in heads for k, w in enumerate(words)]
    lines += [
        line(200, 160, "Sequence AB"),
        line(300, 160, "Washout"),
        line(400, 160, "Placebo"),
        line(200, 170, "Drug X 10 mg"),
    ]
    text = "\n".join(
        " ".join(e["text"] for e in sorted((e for e in lines if abs(e["bbox"][1] - y) < 5), key=lambda e: e["bbox"][0]))
        for y in sorted({round(e["bbox"][1]) for e in lines})
    )
    document, blocks = _schema_picture("Figure 1: Study Schema", text, lines, "text-layer")
    assert [e["name"] for e in read_epochs([], [], Tracer(blocks), document)] == CROSSOVER_PERIODS
    # without the lines' places (no block for the picture), the interleaved words name none whole
    assert [e["name"] for e in read_epochs([], [], NO_TRACE, document)] != CROSSOVER_PERIODS


def test_a_schemas_wrapped_labels_whose_ocr_boxes_overlap_are_stacked_back_too():
    # OCR draws each line's box a little taller than the line, so the boxes of a wrapped label
    # overlap (here by 1.5 points of a 10-point box); the label is still one box, and the body's
    # shorter box labels ("Safety Follow-up", "Screening") are those periods again
    def line(x, y, text):
        return _line(x, y, text, 10)

    heads = [
        (100, ["Screening", "(up to 28", "days)"]),
        (200, ["Treatment", "Period 1", "(3 days)"]),
        (300, ["Washout", "Period 1", "(2 weeks)"]),
        (400, ["Treatment", "Period 2", "(3 days)"]),
        (500, ["Safety", "Follow-up", "Period", "(7 days)"]),
    ]
    lines = [line(x, 100 + 8.5 * k - 4 * len(words), w) for x, words in heads for k, w in enumerate(words)]
    lines += [
        line(100, 160, "Screening"),
        line(300, 160, "Washout 1"),
        line(500, 156, "Safety"),
        line(500, 164.5, "Follow-up"),
    ]
    document, blocks = _schema_picture("Figure 1: Study Design Schematic", "", lines, "ocr")
    assert [e["name"] for e in read_epochs([], [], Tracer(blocks), document)] == CROSSOVER_PERIODS


def test_the_documents_own_amendment_printed_only_in_its_running_header():
    table = {
        "columns": ["Document", "Date"],
        "data": [
            ["Original Protocol", "01 March 2019"],
            ["Amendment 1", "14 June 2019"],
            ["Amendment 2", "03 Jan 2020"],
        ],
    }
    document = {"toc": [], "non_toc": [dict(_section(None, "Protocol Amendment History"), tables=[table])]}
    header = {"page": 1, "bbox": [72, 30, 540, 42], "kind": "text", "dropped": "furniture"}
    blocks = [
        {**header, "text": "Drugamab M15-555 Protocol Amendment 3 EudraCT 2015-003376-75"},
        {**header, "page": 2, "text": "Version 5.1 Incorporating Nonsubstantial Amendment 6"},  # another's
    ]
    found = read_amendments(document, Tracer(blocks))
    assert [(a["number"], a["date"]) for a in found] == [("1", "2019-06-14"), ("2", "2020-01-03"), ("3", None)]
    assert found[-1]["pages"] == [1] and found[-1]["printed"].startswith("Drugamab M15-555")
    # the header of a later page is no title page's
    blocks[0]["page"] = 9
    assert [a["number"] for a in read_amendments(document, Tracer(blocks))] == ["1", "2"]
