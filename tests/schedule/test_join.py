"""A schedule printed over several pages whose parts the table stage could not join (other columns,
other header rows, a page of one row): joined by their visits (rows continued down) or their
activities (columns continued sideways), through ``attach_schedules`` on hand-built trees."""

from clinparser.content.assemble import Tree
from clinparser.model import Section, Table
from clinparser.schedule.find import attach_schedules


def table(title, columns, rows, page):
    return Table(title=title, page=page, pages=[page, page], columns=columns, data=rows)


def read(*tables):
    text = "\n\n".join(f"[Table {t.title}]" if t.title else "[Table]" for t in tables)
    section = Section("1.3", "Schedule of Activities", 2, text=text, tables=list(tables))
    attach_schedules(Tree(toc=[Section("1", "PROTOCOL SUMMARY", 1, subsections=[section])], non_toc=[]))
    return [t.schedule for t in tables]


def cells(schedule):
    acts, encs = schedule["activities"], schedule["encounters"]
    return sorted((acts[m["activity"]]["label"], encs[m["encounter"]]["label"]) for m in schedule["marks"])


def test_rows_continued_under_another_header_shape_are_one_schedule():
    # Page 2 adds a group-label column and prints the epoch above every visit, not only the first.
    first = table(
        "Table 1: Schedule of Activities",
        ["Procedure", "Screening", "Treatment / V1 / Day 1", "V2 / Day 8", "V3 / Day 15"],
        [
            ["Consent", "X", "", "", ""],
            ["Vital signs", "X", "X", "X", "X"],
        ],
        10,
    )
    second = table(
        "",
        [
            "Procedure",
            "Procedure",
            "Screening",
            "Treatment / V1 / Day 1",
            "Treatment / V2 / Day 8",
            "Treatment / V3 / Day 15",
        ],
        [
            ["Laboratory", "Hematology", "X", "", "X", ""],
            ["", "Chemistry", "X", "", "", "X"],
            ["ECG", "", "X", "X", "", ""],
        ],
        11,
    )
    head, part = read(first, second)
    assert part is None
    # the first page cut the epoch header to its first visit; the second printed it over each
    assert [e["label"] for e in head["encounters"]] == [
        "Screening",
        "Treatment / V1 / Day 1",
        "Treatment / V2 / Day 8",
        "Treatment / V3 / Day 15",
    ]
    assert [a["label"] for a in head["activities"]] == ["Consent", "Vital signs", "Hematology", "Chemistry", "ECG"]
    assert [a["group"] for a in head["activities"][2:]] == ["Laboratory", "Laboratory", None]
    assert ("Chemistry", "Treatment / V3 / Day 15") in cells(head) and ("ECG", "Treatment / V1 / Day 1") in cells(head)
    assert any("continued on page 11 (down)" in d for d in head["diagnostics"])


def test_columns_continued_sideways_add_visits_to_the_same_activities():
    first = table(
        "Table 1: Schedule of Activities",
        ["Procedure", "Day 1", "Day 8", "Day 15"],
        [["Vital signs", "X", "X", "X"], ["ECG", "X", "", "X"], ["Weight", "X", "", ""]],
        10,
    )
    second = table(
        "Table 1: Schedule of Activities (continued)",
        ["Procedure", "Day 29", "Day 57", "EOS"],
        [["Vital signs", "X", "", "X"], ["ECG", "", "X", "X"], ["Weight", "", "", "X"]],
        11,
    )
    head, part = read(first, second)
    assert part is None
    assert [e["label"] for e in head["encounters"]] == ["Day 1", "Day 8", "Day 15", "Day 29", "Day 57", "EOS"]
    assert [a["label"] for a in head["activities"]] == ["Vital signs", "ECG", "Weight"]
    assert ("ECG", "Day 57") in cells(head) and ("Weight", "EOS") in cells(head)


def test_a_column_of_two_merged_visits_marks_both():
    first = table(
        "Table 1: Schedule of Activities",
        ["Procedure", "V1", "V2", "V3", "V4", "V5"],
        [["Vital signs", "X", "X", "X", "X", "X"], ["ECG", "X", "", "", "", "X"]],
        10,
    )
    second = table("", ["Procedure", "V1", "V2", "V3\nV4", "V5"], [["Diary review", "", "X", "X\nX", "X"]], 11)
    head, _ = read(first, second)
    assert [c for c in cells(head) if c[0] == "Diary review"] == [
        ("Diary review", "V2"),
        ("Diary review", "V3"),
        ("Diary review", "V4"),
        ("Diary review", "V5"),
    ]


def test_a_garbled_header_keeps_its_columns_when_the_next_page_prints_them_alike():
    first = table(
        "Table 1: Schedule of Events",
        ["Assessment", "Scr / een", "Cycle / Day / Pre", "Cycle 1 / Day 8", "Cycle 2 / Day 1"],
        [["Consent", "X", "", "", ""], ["Dosing", "", "X", "", "X"]],
        10,
    )
    second = table(
        "",
        ["Assessment", "Screening", "Cycle 1 / Day 1", "Cycle 1 / Day 8", "Cycle 2 / Day 1"],
        [["ECG", "X", "X", "", "X"]],
        11,
    )
    head, part = read(first, second)
    assert part is None and len(head["encounters"]) == 4
    assert head["encounters"][2]["label"] == "Cycle 1 / Day 8"
    assert ("ECG", head["encounters"][1]["label"]) in cells(head)


def test_a_page_of_one_row_joins_but_never_stands_alone():
    first = table(
        "Table 1: Schedule of Activities",
        ["Procedure", "Day 1", "Day 8", "Day 15"],
        [["Vital signs", "X", "X", "X"], ["ECG", "X", "", "X"]],
        10,
    )
    one_row = table("", ["Procedure", "Day 1", "Day 8", "Day 15"], [["Adverse events", "", "X", ""]], 11)
    stray = table("", ["Item", "Value"], [["Version", "2"]], 30)
    head, part, other = read(first, one_row, stray)
    assert part is None and other is None
    assert ("Adverse events", "Day 8") in cells(head)


def test_other_visits_on_a_page_far_away_or_under_their_own_caption_are_another_schedule():
    first = table(
        "Table 1: Schedule of Activities",
        ["Procedure", "Day 1", "Day 8", "Day 15"],
        [["Vital signs", "X", "X", "X"], ["ECG", "X", "", "X"]],
        10,
    )
    pk = table(
        "Table 2: Pharmacokinetic Sampling",
        ["Sample", "Day 1", "Day 8", "Day 15"],
        [["PK sample", "X", "X", "X"], ["ADA sample", "X", "", "X"]],
        11,
    )
    later = table(
        "", ["Procedure", "Day 1", "Day 8", "Day 15"], [["Weight", "X", "", "X"], ["Height", "X", "", ""]], 14
    )
    head, second, third = read(first, pk, later)
    assert second is not None and third is not None
    assert len(head["activities"]) == 2


def test_a_page_printed_without_its_header_is_rows_of_the_schedule_before_it():
    # The table stage lifted the second page's first row into its header: marks under the visits.
    first = table(
        "Table 1: Schedule of Activities",
        ["Procedure", "V1 / Day 1", "V2 / Day 8", "V3 / Day 15"],
        [["Consent", "X", "", ""], ["Vital signs", "X", "X", "X"]],
        10,
    )
    second = table(
        "", ["Disease activity score", "\u2022", "\u2022", ""], [["Diary review", "", "\u2022", "\u2022"]], 11
    )
    head, part = read(first, second)
    assert part is None
    assert [a["label"] for a in head["activities"]] == [
        "Consent",
        "Vital signs",
        "Disease activity score",
        "Diary review",
    ]
    assert ("Disease activity score", "V2 / Day 8") in cells(head) and ("Diary review", "V3 / Day 15") in cells(head)
    assert any("prints no header" in d for d in head["diagnostics"])


def test_a_headerless_page_after_a_schedule_whose_header_band_is_in_its_rows_is_more_of_its_rows():
    # The first page's header row held the caption; its header band (period / visit / week) is
    # in its rows, and the visit row holds "ET", a code shaped like a mark. The next page prints
    # rows only: the table stage gave it no header at all.
    blank = ["", "", "", "", ""]
    first = table(
        "",
        ["Schedule", "of", "Activities", "(SoA)", "(SoA)"],
        [
            ["Period", "Screening", "Treatment", "", ""],
            ["Visit No.", "Visit 1", "Visit 2", "Visit 3", "ET"],
            ["Study Week", "Week -4 to -1", "Week 0", "Week 6", ""],
            ["Consent", "X", "", "", ""],
            ["Vital signs", "X", "X", "X", "X"],
        ],
        10,
    )
    second = table("", blank, [["ECG", "X", "", "X", "X"], ["Weight", "", "X", "", ""]], 11)
    head, part = read(first, second)
    assert part is None
    assert [e["label"] for e in head["encounters"]] == [
        "Screening / Visit 1 / Week -4 to -1",
        "Treatment / Visit 2 / Week 0",
        "Visit 3 / Week 6",
        "ET",
    ]  # its epoch cell is empty
    assert [a["label"] for a in head["activities"]] == ["Consent", "Vital signs", "ECG", "Weight"]
    assert ("ECG", "ET") in cells(head) and ("Weight", "Treatment / Visit 2 / Week 0") in cells(head)


def test_sideways_parts_the_table_stage_stacked_under_one_header_are_joined():
    # The second page's header ("Study Visit | Day 29 | ...") sits in the body of one table
    stacked = table(
        "Table 1: Schedule of Activities",
        ["Study Visit", "Day 1", "Day 8", "Day 15"],
        [
            ["Vital signs", "X", "X", "X"],
            ["ECG", "X", "", "X"],
            ["Weight", "X", "", ""],
            ["Study Visit", "Day 29", "Day 57", "EOS"],
            ["Vital signs", "X", "", "X"],
            ["ECG", "", "X", "X"],
            ["Weight", "", "", "X"],
        ],
        10,
    )
    (head,) = read(stacked)
    assert [e["label"] for e in head["encounters"]] == ["Day 1", "Day 8", "Day 15", "Day 29", "Day 57", "EOS"]
    assert [a["label"] for a in head["activities"]] == ["Vital signs", "ECG", "Weight"]
    assert (
        ("ECG", "Day 57") in cells(head) and ("Weight", "EOS") in cells(head) and ("Weight", "Day 8") not in cells(head)
    )
    assert any("print the header again" in d for d in head["diagnostics"])


def test_a_headerless_page_opening_with_a_group_row_is_rows_of_the_schedule_before_it():
    # The table stage took the group row spanning the grid for the header (one label copied)
    first = table(
        "Table 1: Schedule of Activities",
        ["Procedure", "V1 / Day 1", "V2 / Day 8", "V3 / Day 15"],
        [["Consent", "X", "", ""], ["Vital signs", "X", "X", "X"]],
        10,
    )
    second = table(
        "",
        ["Efficacy", "Efficacy", "Efficacy", "Efficacy"],
        [["Disease score", "X", "", "X"], ["Diary review", "", "X", "X"]],
        11,
    )
    head, part = read(first, second)
    assert part is None
    assert [a["label"] for a in head["activities"]] == ["Consent", "Vital signs", "Disease score", "Diary review"]
    assert [a["group"] for a in head["activities"]][2:] == ["Efficacy", "Efficacy"]
    assert ("Disease score", "V3 / Day 15") in cells(head)


def test_a_headerless_page_opening_with_a_group_row_named_like_a_visit_is_rows_too():
    # "TREATMENT" could name a visit, but none of the head's: a group row spanning the grid,
    # copied into every column (the label column's too).
    first = table(
        "Table 1: Schedule of Activities",
        ["Activity", "Screening", "Day 1", "Day 15", "EOT"],
        [["Consent", "X", "", "", ""], ["Vital signs", "X", "X", "X", "X"]],
        4,
    )
    second = table("", ["TREATMENT"] * 5, [["Study drug administration", "", "X", "X", ""]], 5)
    head, part = read(first, second)
    assert part is None
    assert [a["label"] for a in head["activities"]] == ["Consent", "Vital signs", "Study drug administration"]
    assert [e["label"] for e in head["encounters"]] == ["Screening", "Day 1", "Day 15", "EOT"]


def test_a_restated_header_with_a_row_the_first_page_printed_in_its_body_is_still_one():
    # Page one prints its window row in the body; page two prints it in the restated header.
    stacked = table(
        "Table 1: Schedule of Activities",
        ["Study Visit", "Day 1", "Day 8", "Day 15"],
        [
            ["Window", "", "±1", "±1"],
            ["Vital signs", "X", "X", "X"],
            ["ECG", "X", "", "X"],
            ["Study Visit / Window", "Day 29 / ±3", "Day 57 / ±3", "EOS"],
            ["Vital signs", "X", "", "X"],
            ["ECG", "", "X", "X"],
        ],
        10,
    )
    (head,) = read(stacked)
    assert [e["short_label"] for e in head["encounters"]] == ["Day 1", "Day 8", "Day 15", "Day 29", "Day 57", "EOS"]
    assert [a["label"] for a in head["activities"]] == ["Vital signs", "ECG"]
    assert ("ECG", "Day 57 / ±3") in cells(head)


def test_a_restated_header_may_hold_a_visit_code_shaped_like_a_mark():
    # "ET" could be a letter mark, but it names a visit, beside visits that are no marks
    stacked = table(
        "Table 1: Schedule of Activities",
        ["Visit No.", "Visit 1", "Visit 2", "Visit 3"],
        [
            ["Vital signs", "X", "X", "X"],
            ["ECG", "X", "", "X"],
            ["Visit No.", "Visit 4", "Visit 5", "ET"],
            ["Vital signs", "X", "", "X"],
            ["ECG", "", "X", "X"],
        ],
        10,
    )
    (head,) = read(stacked)
    assert [e["label"] for e in head["encounters"]] == ["Visit 1", "Visit 2", "Visit 3", "Visit 4", "Visit 5", "ET"]
    assert ("ECG", "ET") in cells(head) and ("Vital signs", "Visit 5") not in cells(head)


def test_headerless_pages_whose_header_is_an_unmarked_row_or_a_group_over_a_marked_row():
    head_columns = ["Procedure", "Screening", "Day 1", "Day 8", "Day 15", "Notes"]
    first = table(
        "Table 1: Schedule of Activities",
        head_columns,
        [["Consent", "X", "", "", "", ""], ["Vital signs", "X", "X", "X", "X", "Seated"]],
        4,
    )
    # a row marked only at the first visit, beside a note that names a day: still a body row
    notes = table(
        "", ["Viral serology", "X", "", "", "", "Before dosing on dosing days."], [["ECG", "X", "", "X", "", ""]], 5
    )
    head, part = read(first, notes)
    assert part is None and [a["label"] for a in head["activities"]] == [
        "Consent",
        "Vital signs",
        "Viral serology",
        "ECG",
    ]
    # a row with no mark on this page (its label alone)
    first = table("Table 1: Schedule of Activities", head_columns, [["Consent", "X", "", "", "", ""]], 4)
    empty = table(
        "", ["Study drug administration", "", "", "", "", ""], [["Dispense study drug", "", "X", "X", "X", ""]], 5
    )
    head, part = read(first, empty)
    assert part is None and [a["label"] for a in head["activities"]] == ["Consent", "Dispense study drug"]
    # a group row over the first marked row, both taken for the header
    first = table("Table 1: Schedule of Activities", head_columns, [["Consent", "X", "", "", "", ""]], 4)
    grouped = table(
        "",
        [
            "Study Intervention / Study drug administration",
            "Study Intervention",
            "Study Intervention / C",
            "Study Intervention / C",
            "Study Intervention / R",
            "Study Intervention",
        ],
        [["Dispense study drug", "", "C", "C", "C", ""]],
        5,
    )
    head, part = read(first, grouped)
    assert part is None
    assert [a["label"] for a in head["activities"]] == ["Consent", "Study drug administration", "Dispense study drug"]
    assert [a["group"] for a in head["activities"]][1:] == ["Study Intervention", "Study Intervention"]
    assert ("Study drug administration", "Day 15") in cells(head) and (
        "Study drug administration",
        "Screening",
    ) not in cells(head)


def test_a_header_restated_over_two_rows_starts_a_sideways_part():
    # "Visit / Study Day" over two header rows; the stacked part restates them as two body rows
    stacked = table(
        "Table 1: Schedule of Activities",
        ["Visit / Study Day", "1 / -28 to -1", "2 / 1", "3 / 8"],
        [
            ["Vital signs", "X", "X", "X"],
            ["ECG", "X", "", "X"],
            ["Visit", "4", "5", "6"],
            ["Study Day", "15", "22", "29"],
            ["Vital signs", "X", "", "X"],
            ["ECG", "", "X", "X"],
        ],
        10,
    )
    (head,) = read(stacked)
    assert [e["label"] for e in head["encounters"]] == ["1 / -28 to -1", "2 / 1", "3 / 8", "4 / 15", "5 / 22", "6 / 29"]
    assert [a["label"] for a in head["activities"]] == ["Vital signs", "ECG"]
    assert ("ECG", "5 / 22") in cells(head) and ("Vital signs", "5 / 22") not in cells(head)
    assert any("rows 2-3 print the header again" in d for d in head["diagnostics"])
