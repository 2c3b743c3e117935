"""Which tables of a tree are schedules, and which one is the main timeline."""

from clinparser.content.assemble import Tree
from clinparser.model import Section, Table
from clinparser.schedule.find import SCHEDULE_TITLE, attach_schedules, by_shape


def grid(title, visits, rows, page=5):
    return Table(title=title, page=page, pages=[page, page], columns=["Assessment / Week"] + visits, data=rows)


MAIN = grid(
    "Table 1: Schedule of Activities",
    ["0", "2", "4", "8"],
    [
        ["Consent", "X", "", "", ""],
        ["Vital signs", "X", "X", "X", "Xa"],
        ["ECG", "X", "", "", "X"],
    ],
)
PK = grid("Table 2: Pharmacokinetic Sampling Schedule of Assessments", ["0", "2"], [["PK sample", "X", "X"]], page=6)
UNNAMED = grid(
    "Table 9",
    ["1", "2", "3", "4", "5"],
    [
        ["Diary review", "X", "X", "X", "X", "X"],
        ["Phone call", "", "X", "", "X", ""],
        ["Weight", "X", "", "", "", "X"],
    ],
    page=40,
)
OTHER = Table(
    title="Table 3: Laboratory Tests",
    page=7,
    pages=[7, 7],
    columns=["Panel", "Tests"],
    data=[["Chemistry", "ALT, AST"], ["Hematology", "Hb, WBC"]],
)


def tree():
    soa = Section(
        "1.3",
        "Schedule of Activities",
        2,
        text="[Table 1: Schedule of Activities]\n\na Seated.\n\n"
        "[Table 2: Pharmacokinetic Sampling Schedule of Assessments]",
        tables=[MAIN, PK],
    )
    labs = Section("8.2", "Clinical Laboratory Tests", 2, text="[Table 3: Laboratory Tests]", tables=[OTHER])
    appendix = Section("APPENDIX 2", "Diary", 1, text="[Table 9]", tables=[UNNAMED])
    return Tree(
        toc=[
            Section("1", "PROTOCOL SUMMARY", 1, subsections=[soa]),
            Section("8", "ASSESSMENTS", 1, subsections=[labs]),
        ],
        non_toc=[appendix],
    )


def test_named_and_shaped_schedules_are_read_and_one_is_main():
    t = tree()
    for table in (MAIN, PK, UNNAMED, OTHER):
        table.schedule = None
    warnings = attach_schedules(t)
    assert MAIN.schedule["main"] is True
    assert PK.schedule["main"] is False and len(PK.schedule["encounters"]) == 2
    assert UNNAMED.schedule is not None and UNNAMED.schedule["main"] is False  # by its shape, in an appendix
    assert OTHER.schedule is None
    assert MAIN.schedule["footnotes"] == [{"marker": "a", "text": "Seated."}]
    assert warnings == []
    assert "schedule" not in OTHER.to_dict() and "schedule" in MAIN.to_dict()


def test_schedule_titles():
    for title in (
        "Schedule of Activities (SoA)",
        "Table 7 Schedule of Events – Main Study",
        "TIME AND EVENTS SCHEDULE",
        "Study Flow Chart",
        "Trial Flow Chart – Initial Phase",
        "STUDY CALENDAR",
        "Flowchart",
        "Schedule of Pharmacokinetic and Pharmacodynamic Assessments",
    ):
        assert SCHEDULE_TITLE.search(title), title
    for title in ("Laboratory Tests", "Schedule for dose reduction", "Activities of daily living"):
        assert not SCHEDULE_TITLE.search(title), title


def test_shape_needs_several_visit_columns_mostly_marked():
    assert by_shape(UNNAMED)
    assert not by_shape(PK)  # two visit columns: a schedule only when named as one
    assert not by_shape(OTHER)


def test_a_table_of_response_categories_is_no_schedule_by_its_shape():
    # RECIST's overall response table: two-letter codes (marks by shape) under headers naming no visit
    codes = ["CR", "PR", "SD", "PD", "NE"]
    rows = [
        [f"Case {k}", codes[k % 5], codes[(k + 1) % 5], "No", codes[(k + 2) % 5], codes[(k + 3) % 5]] for k in range(6)
    ]
    recist = Table(
        title="Table 11: For Patients with Measurable Disease",
        page=60,
        pages=[60, 60],
        columns=[
            "Case",
            "Target Lesions",
            "Non-Target Lesions",
            "New Lesions",
            "Overall Response",
            "Best Overall Response",
        ],
        data=rows,
    )
    assert not by_shape(recist)
    # the same cells under visit headers ("Cycle 1 Day 1", "End of Treatment") have a schedule's shape
    visits = Table(
        title="",
        page=61,
        pages=[61, 61],
        columns=["Assessment", "Cycle 1 Day 1", "Cycle 2 Day 1", "Cycle 3 Day 1", "End of Treatment", "Follow-up"],
        data=rows,
    )
    assert by_shape(visits)


def test_a_schedule_printed_as_a_picture_is_said_in_one_warning():
    from clinparser.model import Image

    pictured = Section(
        "1.3",
        "Schedule of Activities",
        2,
        pages=[7, 8],
        text="[Image]\n\n[Image]",
        images=[Image("", 7, (72, 90, 540, 700), 800, 1100), Image("", 8, (72, 90, 540, 700), 800, 1100)],
    )
    design = Section(
        "1.2", "Trial Schema", 2, pages=[6, 6], text="[Image]", images=[Image("", 6, (72, 90, 540, 400), 800, 500)]
    )
    warnings = attach_schedules(Tree(toc=[design, pictured], non_toc=[]))
    # no table was read from the pictures: said, and the section left as it was
    assert warnings == [
        "section '1.3 Schedule of Activities': its schedule is printed as a picture (page 7, 8) "
        "(2 picture(s), no table) and its grid could not be read from it"
    ]
    assert pictured.tables == [] and pictured.text == "[Image]\n\n[Image]"


def test_a_table_read_from_a_picture_in_a_schedule_section_is_a_schedule_that_says_so():
    table = Table(
        title="",
        page=7,
        pages=[7, 7],
        columns=["Visit / Week", "1 / 0", "2 / 4", "3 / 8"],
        data=[["Consent", "X", "", ""], ["Vital signs", "X", "X", "X"]],
        from_ocr=True,
    )
    section = Section("1.3", "Schedule of Activities", 2, pages=[7, 7], text="[Image]\n\n[Table]", tables=[table])
    assert attach_schedules(Tree(toc=[section], non_toc=[])) == [
        "schedule 'Schedule of Activities' (page 7): 1 reading problem(s), see its diagnostics"
    ]
    s = table.schedule
    assert s["main"] and [e["short_label"] for e in s["encounters"]] == ["Week 0", "Week 4", "Week 8"]
    assert sorted((m["activity"], m["encounter"]) for m in s["marks"]) == [(0, 0), (1, 0), (1, 1), (1, 2)]
    assert s["diagnostics"] == ["read by OCR from a picture of the table: check it against the page"]


def test_with_ocr_off_a_schedule_picture_is_not_read_and_the_warning_says_why():
    from clinparser.model import Image

    section = Section(
        "1.3",
        "Schedule of Activities",
        2,
        pages=[7, 7],
        text="[Image]",
        images=[Image("", 7, (72, 90, 540, 400), 875, 458)],
    )
    warnings = attach_schedules(Tree(toc=[section], non_toc=[]), ocr=False)
    assert section.tables == []
    assert warnings == [
        "section '1.3 Schedule of Activities': its schedule is printed as a picture (page 7) "
        "(1 picture(s), no table) and it is not read with --ocr never"
    ]


def test_a_small_table_captioned_as_sampling_is_a_schedule_where_its_shape_alone_is_not():
    small = grid(
        "Table 3: Blood Sampling for Pharmacokinetics",
        ["Day 1 / Pre-dose", "Day 1 / 2 h", "Day 8 / Pre-dose"],
        [["Plasma sample", "•", "•", "•"], ["Biomarker panel", "", "•", ""]],
        page=41,
    )
    plain = grid(
        "Table 4: Dispensing", ["Day 1", "Day 8", "Day 15"], [["Kit", "X", "X", "X"], ["Diary", "", "X", ""]], page=42
    )
    section = Section(
        "9.4",
        "Pharmacokinetics",
        2,
        text="[Table 3: Blood Sampling for Pharmacokinetics]\n\n[Table 4: Dispensing]",
        tables=[small, plain],
    )
    attach_schedules(Tree(toc=[Section("9", "ASSESSMENTS", 1, subsections=[section])], non_toc=[]))
    assert small.schedule is not None and small.schedule["kind"] != "main" or small.schedule["main"]
    assert [e["label"] for e in small.schedule["encounters"]] == ["Day 1 / Pre-dose", "Day 1 / 2 h", "Day 8 / Pre-dose"]
    assert plain.schedule is None  # three columns and four marks: too little to be a schedule by shape
