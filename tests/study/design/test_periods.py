"""The study's periods (epochs): sentences, section titles, the schema, the schedule."""

from design_builders import section

from clinparser.study.design.fields import Field
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


def test_periods_named_out_of_order_are_put_in_the_order_the_study_runs_them():
    fields = [
        Field(
            "Study Design",
            "Period 2 is a blinded long-term extension period for subjects who completed Period 1. "
            "The study includes a safety follow-up period of 30 days, a 35-day screening period and a "
            "14-week double-blind treatment period.",
            "5.1",
            (31, 31),
            False,
            "section",
        )
    ]
    assert [e["name"] for e in read_epochs(fields, [], NO_TRACE)] == [
        "Screening",
        "Double-blind treatment",
        "Extension",
        "Safety follow-up",
    ]


def test_a_numbered_sequence_keeps_its_order_and_the_periods_around_it_go_where_they_run():
    fields = [
        Field(
            "Study Design",
            "The study has Treatment Period 1 (Drug A), a washout period of 2 weeks and Treatment Period 2 "
            "(Drug B). A follow-up period of 2 weeks ends the study. Before Treatment Period 1 comes a run-in "
            "period of 4 weeks.",
            "5.1",
            (31, 31),
            False,
            "section",
        )
    ]
    assert [e["name"] for e in read_epochs(fields, [], NO_TRACE)] == [
        "Run-in",
        "Treatment period 1",
        "Washout",
        "Treatment period 2",
        "Follow-up",
    ]


def test_a_period_whose_name_does_not_say_when_it_runs_keeps_the_printed_order():
    fields = [
        Field(
            "Study Design",
            "After the observation period comes a follow-up period; a screening period precedes both.",
            "5.1",
            (31, 31),
            False,
            "section",
        )
    ]
    assert [e["name"] for e in read_epochs(fields, [], NO_TRACE)] == ["Observation", "Follow-up", "Screening"]


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


def test_sibling_section_titles_name_the_periods_when_no_sentence_names_more():
    procedures = section(
        "6.2",
        "Trial Procedures at Each Visit",
        section("6.2.1", "Screening"),
        section("6.2.2", "Treatment period"),
        section("6.2.3", "End of trial and follow-up period"),
        section("6.2.4", "Unscheduled visits"),
        section("6.2.5", "Period after the database lock for the final analysis"),
    )
    document = {"toc": [section("6", "Investigational Plan", procedures)], "non_toc": []}
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
            section(
                "7",
                "Study Procedures",
                section(
                    "7.2",
                    "Study Visits",
                    section("7.2.1", "Screening", text=""),
                    section("7.2.2", "Day 1 Visit"),
                    section("7.2.3", "Treatment (Day 1-27) and Follow up Periods (Day 28-55)"),
                ),
            )
        ],
        "non_toc": [],
    }
    assert [e["name"] for e in read_epochs([], [], NO_TRACE, amgen)] == ["Screening", "Treatment", "Follow up"]
    # titles that merely start like a period are not periods, nor are top-level chapters
    noise = {
        "toc": [
            section("5", "Treatment"),
            section("6", "Follow-up"),
            section(
                "8",
                "Safety",
                section("8.1", "Investigator Follow-Up"),
                section("8.2", "Sponsor Follow-Up"),
                section("8.3", "Treatment Compliance"),
            ),
        ],
        "non_toc": [],
    }
    assert read_epochs([], [], NO_TRACE, noise) == []


def test_a_baseline_titled_beside_the_periods_is_a_time_point_not_a_period():
    procedures = section(
        "8.4",
        "Study Visits",
        section("8.4.1", "Screening"),
        section("8.4.2", "Baseline"),
        section("8.4.3", "Double-blind Treatment Period"),
        section("8.4.4", "Safety Follow-up"),
    )
    document = {"toc": [section("8", "Study Procedures", procedures)], "non_toc": []}
    two = [Field("Study Design", "A screening period and a treatment period.", "3.1", (10, 10), False, "section")]
    # the headings lay out the most (four, the time point counted), less the time point
    assert [e["name"] for e in read_epochs(two, [], NO_TRACE, document)] == [
        "Screening",
        "Double-blind Treatment Period",
        "Safety Follow-up",
    ]
    # a baseline of weeks, printed as a period, is one
    procedures["subsections"][1]["title"] = "Baseline Period"
    assert "Baseline Period" in [e["name"] for e in read_epochs(two, [], NO_TRACE, document)]


def test_headings_inside_a_section_that_lays_the_study_out_name_the_periods():
    # unnumbered headings in the design section, as the converter writes them (a markdown
    # heading, a line wholly in bold); a qualifier word before "Period" stays with the name
    design = section(
        "4.1",
        "Overall Design",
        text="The study is open-label.\n\n##### **Screening**\n\nWithin 42 days.\n\n"
        "##### **Treatment and Assessment Period**\n\nDays -1 to 18.\n\n**Follow-Up:**\n\nA visit 7 days later.",
    )
    document = {"toc": [section("4", "Study Design", design)], "non_toc": []}
    assert [e["name"] for e in read_epochs([], [], NO_TRACE, document)] == [
        "Screening",
        "Treatment and Assessment Period",
        "Follow-Up",
    ]
    # a calendar's bold headings, the things done in each period left out of its name
    calendar = section(
        "8",
        "Study Calendar",
        text="**Pre-study Assessments**\n\n- History\n\n**Treatment Assessments**\n\n- Labs\n\n"
        "**Post-treatment/Follow-up Assessments**\n\n- Survival",
    )
    assert [e["name"] for e in read_epochs([], [], NO_TRACE, {"toc": [calendar], "non_toc": []})] == [
        "Pre-study",
        "Treatment",
        "Post-treatment/Follow-up",
    ]


def test_bold_lines_in_a_section_that_does_not_lay_the_study_out_are_not_periods():
    safety = section(
        "8.3",
        "Adverse Event Reporting",
        text="**Screening**\n\nEvents before the first dose.\n\n**Follow-up**\n\nEvents after the last dose.",
    )
    document = {"toc": [section("8", "Safety", safety)], "non_toc": []}
    assert read_epochs([], [], NO_TRACE, document) == []


def test_the_schemas_box_labels_name_the_periods_when_no_sentence_names_them():
    # a flow chart whose boxes came out as bold lines, a box's note beside its label
    chart = section(
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
    design = dict(section("3.1", "Overall Design"), images=[figure])
    assert [e["name"] for e in read_epochs([], [], NO_TRACE, {"toc": [design], "non_toc": []})] == [
        "Screening Period",
        "Double-blind Treatment Period",
        "Follow-up Period",
    ]
    # a schema drawn as a table: its header; a schedule of activities is no schema
    grid = dict(
        section("1.2", "Schema"),
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
        section(
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
        section("3.1", "Overall Design"),
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
    document = {"toc": [dict(section("1.2", "Schema", text=f"[{caption}]"), images=[figure])], "non_toc": []}
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
