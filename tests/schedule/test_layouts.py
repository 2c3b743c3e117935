"""Schedule layouts other sponsors print: footnote markers on visit headers, a grid split over
pages under a repeated header, arrows drawn across visits, a second label column, a comments
column, and the short label of each visit column. Small hand-built tables, exact truth."""

from clinparser.content.assemble import Tree
from clinparser.model import Section, Table
from clinparser.schedule.find import attach_schedules
from clinparser.schedule.grid import header_part, read_schedule, spanned_cells, text_columns

MARKERS = {"a", "b", "c", "10", "11"}
VOCAB = {"treatment", "randomization", "screening", "contact"}


def test_footnote_markers_come_off_visit_headers():
    assert header_part("Double-Blind Treatmenta", MARKERS, VOCAB) == "Double-Blind Treatment"
    assert header_part("Randomizationa", MARKERS, VOCAB) == "Randomization"
    assert header_part("29/ETa,b", MARKERS, VOCAB) == "29/ET"
    assert header_part("EOT10", MARKERS, VOCAB) == "EOT"
    assert header_part("FU11", MARKERS, VOCAB) == "FU"
    assert header_part("35 a (±3 days)", MARKERS, VOCAB) == "35 (±3 days)"
    assert header_part("Week 39 (TC) c", MARKERS, VOCAB) == "Week 39 (TC)"
    assert header_part("Screening a, b", MARKERS, VOCAB) == "Screening"
    assert header_part("1 10, 11", MARKERS, VOCAB) == "1"
    # visit codes and words that are not markers stay
    assert header_part("12a", MARKERS, VOCAB) == "12a"
    assert header_part("V3", MARKERS, VOCAB) == "V3"
    assert header_part("EOT12", MARKERS, VOCAB) == "EOT12"
    assert header_part("Week 4 d", MARKERS, VOCAB) == "Week 4 d"
    # a marker glued to a window (after its unit) or to a timed number; a unit letter stays
    assert header_part("W26 ±7b", MARKERS, VOCAB) == "W26 ±7"
    assert header_part("EOT ±3da", MARKERS, VOCAB) == "EOT ±3d"
    assert header_part("W52 +7a", MARKERS, VOCAB) == "W52 +7"
    assert header_part("Week 0b", MARKERS, VOCAB) == "Week 0"
    assert header_part("±7d", MARKERS | {"d"}, VOCAB) == "±7d"
    assert header_part("±3 days", MARKERS | {"s"}, VOCAB) == "±3 days"
    assert header_part("Week 2e", MARKERS, VOCAB) == "Week 2e"  # "e" is no footnote here
    # before a window, a letter after the visit's number is a marker even when undefined; a unit stays
    assert header_part("35 a (±3 days)", set(), VOCAB) == "35 (±3 days)"
    assert header_part("24 h (±4 h)", set(), VOCAB) == "24 h (±4 h)"
    # glued to an end-of-visit code, a letter is a marker even when the table defines none
    assert header_part("29/ ETa (HD)", set(), VOCAB) == "29/ ET (HD)"
    assert header_part("EOTb,c", set(), VOCAB) == "EOT"
    assert header_part("EDs", set(), VOCAB) == "EDs"
    assert header_part("ETHICS", set(), VOCAB) == "ETHICS"


def _split_grid(second_title=""):
    cols = ["Procedure / Visit", "Screening / 1", "Treatment / 2", "Treatment / 3", "Follow-up / 4"]
    part1 = Table(
        title="Table 1 Schedule of Activities",
        page=12,
        pages=[12, 12],
        columns=[c.replace("Screening", "Screeninga") for c in cols],
        data=[["Informed consent", "X", "", "", ""], ["Vital signs", "X", "X", "X", "X"]],
    )
    part2 = Table(
        title=second_title,
        page=13,
        pages=[13, 13],
        columns=cols,
        data=[["PK sample", "", "X", "X", ""], ["Study drug", "", "X", "X", ""]],
    )
    section = Section(
        "1.3",
        "Schedule of Activities",
        2,
        text="[Table 1 Schedule of Activities]\n\n[Table]\n\na Screening within 28 days.",
        tables=[part1, part2],
    )
    return Tree(toc=[section], non_toc=[]), part1, part2


def test_a_grid_split_over_pages_with_its_header_repeated_is_one_schedule():
    tree, part1, part2 = _split_grid()
    attach_schedules(tree)
    s = part1.schedule
    assert part2.schedule is None
    assert [e["label"] for e in s["encounters"]] == ["Screening / 1", "Treatment / 2", "Treatment / 3", "Follow-up / 4"]
    assert [a["label"] for a in s["activities"]] == ["Informed consent", "Vital signs", "PK sample", "Study drug"]
    assert sorted((m["activity"], m["encounter"]) for m in s["marks"]) == [
        (0, 0),
        (1, 0),
        (1, 1),
        (1, 2),
        (1, 3),
        (2, 1),
        (2, 2),
        (3, 1),
        (3, 2),
    ]
    assert s["main"] is True
    assert any("continued on page(s) 13" in d for d in s["diagnostics"])


def test_a_second_schedule_with_its_own_caption_stays_its_own_timeline():
    tree, part1, part2 = _split_grid("Table 2 Pharmacokinetic Sampling")
    attach_schedules(tree)
    assert len(part1.schedule["activities"]) == 2 and len(part2.schedule["activities"]) == 2
    assert part1.schedule["main"] and not part2.schedule["main"]


def test_an_arrow_across_visits_marks_each_spanned_column():
    diags = []
    # centred text between a filled cell and the grid's end: both ways
    row = ["x", "", "\u2190 Optional \u2192", "", ""]
    assert spanned_cells(row, [(0, "x"), (2, row[2])], 3, diags) == [
        (0, "x"),
        (1, "Optional"),
        (2, "Optional"),
        (3, "Optional"),
        (4, "Optional"),
    ]
    # starting at the grid's left edge: rightwards only, up to the next filled cell
    row = ["", "<=== continuously ===>", "", "", "X"]
    assert spanned_cells(row, [(1, row[1]), (4, "X")], 4, diags) == [
        (1, "continuously"),
        (2, "continuously"),
        (3, "continuously"),
        (4, "X"),
    ]
    assert len(diags) == 2
    # the grid wrote one merged arrow into each slot it spans: one arrow, one diagnostic
    diags = []
    row = ["", "\u2190 continuously \u2192", "\u2190 continuously \u2192", "\u2190 continuously \u2192", "X"]
    cells = [(k, c) for k, c in enumerate(row) if c]
    assert spanned_cells(row, cells, 5, diags) == [
        (1, "continuously"),
        (2, "continuously"),
        (3, "continuously"),
        (4, "X"),
    ]
    assert len(diags) == 1


def test_a_second_label_column_and_a_comments_column_are_not_visits():
    table = Table(
        title="Schedule of Pharmacokinetic Assessments",
        page=3,
        pages=[3, 3],
        columns=["Time", "Assessment", "Study Day / 1", "Study Day / 8", "Study Day / 15", "Comments"],
        data=[
            ["Pre-dose", "PK", "X", "X", "X", "Within 30 minutes before dosing"],
            ["SDA + 10 min", "PK", "X", "", "X", "After the end of the infusion"],
            ["SDA + 30 min", "PK", "X", "", "", "Only at selected sites, see 8.5"],
        ],
    )
    s = read_schedule(table, "", set(), name="PK")
    assert [e["label"] for e in s["encounters"]] == ["Study Day / 1", "Study Day / 8", "Study Day / 15"]
    assert [a["label"] for a in s["activities"]] == ["Pre-dose / PK", "SDA + 10 min / PK", "SDA + 30 min / PK"]
    assert sorted((m["activity"], m["encounter"]) for m in s["marks"]) == [
        (0, 0),
        (0, 1),
        (0, 2),
        (1, 0),
        (1, 2),
        (2, 0),
    ]
    diags = []
    assert text_columns(table, 0, [1, 2, 3, 4, 5], diags) == ([2, 3, 4], [1])
    assert diags == [
        "column 1 ('Assessment'): a second label column, joined to the activity labels",
        "column 5 ('Comments'): comments or notes, not a visit",
    ]


def test_a_repeated_header_whose_spanning_words_were_cut_over_the_columns_still_continues_the_grid():
    tree, part1, part2 = _split_grid()
    part1.columns = ["Procedure", "Screening", "Treatment Period / 2", "Treatment Period / 3", "Treatment Period / 4"]
    part2.columns = ["Procedure", "Screening", "Treat\n2", "ment\n3", "Period\n4"]  # one header cut in three
    attach_schedules(tree)
    assert part2.schedule is None
    assert [a["label"] for a in part1.schedule["activities"]] == [
        "Informed consent",
        "Vital signs",
        "PK sample",
        "Study drug",
    ]


def test_a_grid_of_the_same_days_in_another_cycle_is_not_a_continuation():
    tree, part1, part2 = _split_grid()
    part1.columns = ["Procedure", "Screening", "Cycle 1 / Day 1", "Cycle 1 / Day 8", "Cycle 1 / Day 15"]
    part2.columns = [
        "Procedure",
        "Screening",
        "Cycles 2 and later / Day 1",
        "Cycles 2 and later / Day 8",
        "Cycles 2 and later / Day 15",
    ]
    attach_schedules(tree)
    assert part2.schedule is not None
    assert [a["label"] for a in part1.schedule["activities"]] == ["Informed consent", "Vital signs"]


def test_a_printed_row_cut_at_each_line_of_text_is_put_back_together():
    cols = ["Procedure", "Day 1", "Day 2", "Day 3"]
    data = [
        ["Informed consent", "X", "", ""],
        ["", "P, 0.5,", "", "P, 1,"],  # a time list's first line, above the label's middle
        ["PK samples", "1, 2,", "24 h", "2, 4,"],
        ["", "4 h", "", "8 h"],  # and its last line, below it
        ["Adverse event", "", "", ""],  # a label's first line, its marks on the next
        ["review", "X", "X", "X"],
        ["Genetic sample for", "X", "", ""],
        ["pharmacogenetics", "", "", ""],  # a label's next line, no cells
        ["Vital signs", "X", "X", "X"],
    ]
    table = Table(title="Schedule of Activities", page=5, pages=[5, 5], columns=cols, data=data)
    s = read_schedule(table, "", {"review"}, name="SoA")
    assert [a["label"] for a in s["activities"]] == [
        "Informed consent",
        "PK samples",
        "Adverse event review",
        "Genetic sample for pharmacogenetics",
        "Vital signs",
    ]
    assert s["groups"] == []
    cells = {
        (s["activities"][m["activity"]]["label"], s["encounters"][m["encounter"]]["short_label"]): m["text"]
        for m in s["marks"]
    }
    assert cells[("PK samples", "Day 1")] == "P, 0.5, 1, 2, 4 h"
    assert cells[("PK samples", "Day 2")] == "24 h"
    assert cells[("PK samples", "Day 3")] == "P, 1, 2, 4, 8 h"
    assert [e for a, e in cells if a == "Adverse event review"] == ["Day 1", "Day 2", "Day 3"]
    assert sum("one printed row cut at its lines" in d for d in s["diagnostics"]) == 4


def test_rows_of_marks_and_lower_case_names_that_are_not_pieces_stay_apart():
    cols = ["Procedure", "Day 1", "Day 2"]
    data = [["Laboratory", "", ""], ["hCG test", "X", ""], ["Vital signs", "X", "X"], ["", "X", "X"], ["ECG", "X", "X"]]
    table = Table(title="Schedule of Activities", page=5, pages=[5, 5], columns=cols, data=data)
    s = read_schedule(table, "", set(), name="SoA")
    assert [a["label"] for a in s["activities"]] == ["hCG test", "Vital signs", "ECG"]
    assert [g["label"] for g in s["groups"]] == ["Laboratory"]
    assert any("row 3: 2 mark(s) with no activity label" in d for d in s["diagnostics"])


def test_a_unit_in_brackets_on_a_spanning_header_names_the_numbers_under_it():
    cols = [
        "Procedure",
        "Screening (D-28 to -2)",
        "Treatment Period (Study Days) / -1",
        "Treatment Period (Study Days) / 1",
        "Treatment Period (Study Days) / 8",
    ]
    table = Table(
        title="Schedule of Activities",
        page=5,
        pages=[5, 5],
        columns=cols,
        data=[["Vital signs", "X", "X", "X", "X"], ["ECG", "X", "", "X", ""]],
    )
    s = read_schedule(table, "", set(), name="SoA")
    assert [e["short_label"] for e in s["encounters"]] == ["Screening (D-28 to -2)", "Day -1", "Day 1", "Day 8"]
    assert [e["timing"] for e in s["encounters"][1:3]] == [
        {"unit": "day", "from": -1, "to": -1, "cycle": None},
        {"unit": "day", "from": 1, "to": 1, "cycle": None},
    ]
    assert not any("not read" in d for d in s["diagnostics"])


def test_number_footnote_markers_glued_to_known_words_come_off_and_nothing_else_does():
    from clinparser.schedule.grid import split_markers

    vocab = {"informed", "consent", "events", "adverse", "day", "visit"}
    assert split_markers("Informed Consent7", {"7"}, vocab) == ("Informed Consent", ["7"])
    assert split_markers("Adverse Events11", {"11"}, vocab) == ("Adverse Events", ["11"])
    # a number that is no marker, a word the document does not use, a unit or visit word: kept
    assert split_markers("Informed Consent8", {"7"}, vocab) == ("Informed Consent8", [])
    assert split_markers("CYP3A4 and HbA1c", {"1", "4"}, vocab) == ("CYP3A4 and HbA1c", [])
    assert split_markers("Day1 and Visit2", {"1", "2"}, vocab) == ("Day1 and Visit2", [])
    # with number markers only, nothing after a bracket is taken for a letter marker
    assert split_markers("Vital signs (PR)x and (BP)(", {"1", "2"}, vocab) == ("Vital signs (PR)x and (BP)(", [])


def test_a_plural_keeps_a_number_that_ranges_and_loses_a_glued_footnote_number():
    from clinparser.schedule.grid import split_markers

    vocab = {"subsequent", "cycles", "days", "visits"}
    assert split_markers("Subsequent Cycles2", {"2"}, vocab) == ("Subsequent Cycles", ["2"])
    assert split_markers("Cycles2-6", {"2"}, vocab) == ("Cycles2-6", [])
    assert split_markers("Days1, 8", {"1"}, vocab) == ("Days1, 8", [])
    assert split_markers("Visits2 to 4", {"2"}, vocab) == ("Visits2 to 4", [])


def test_a_word_a_header_line_break_cut_at_a_hyphen_is_whole_again():
    vocab = {"randomisation", "follow-up", "followup", "treatment"}
    assert header_part("Rando-\nmisation", set(), vocab) == "Randomisation"
    assert header_part("Long Term Follow-\nup", set(), vocab) == "Long Term Follow-up"
    assert header_part("Post-\nTreatment", set(), vocab) == "Post-Treatment"
    assert header_part("Day -\n1", set(), vocab) == "Day - 1"


def test_a_table_continued_row_is_a_note_and_a_header_row_not_repeated_still_continues_the_grid():
    tree, part1, part2 = _split_grid()
    part1.columns = [
        c + " / ±3" if i else c + " / Window" for i, c in enumerate(part1.columns)
    ]  # windows on page 12 only
    part1.data.append(["Table continued on next page", "", "", "", ""])
    attach_schedules(tree)
    s = part1.schedule
    assert part2.schedule is None
    assert [a["label"] for a in s["activities"]] == ["Informed consent", "Vital signs", "PK sample", "Study drug"]
    assert s["notes"] == [{"text": "Table continued on next page", "row": 2}]


def test_header_rows_printed_inside_the_grid_take_the_kind_their_own_label_names():
    # the visit header's last rows came out as data rows: one with no label heading the last
    # columns, one the label column names as the windows
    cols = [
        "Trial Period: / Treatment Cycle:",
        "Screening Phase / Screening (Visit 1)",
        "Treatment / 1",
        "Treatment / 2",
        "End of Treatment / Discon",
        "Post-Treatment / Safety Follow-up",
    ]
    data = [
        ["", "", "", "", "At time of discon", "30 days post discon"],
        ["Scheduling Window (Days)", "-28 to -1", "", "± 3", "± 3", "± 7"],
        ["Informed Consent", "X", "", "", "", ""],
        ["Vital Signs", "X", "X", "X", "X", "X"],
    ]
    table = Table(title="Trial Flow Chart", page=5, pages=[5, 5], columns=cols, data=data)
    s = read_schedule(table, "", set(), name="Trial Flow Chart")
    assert [a["label"] for a in s["activities"]] == ["Informed Consent", "Vital Signs"]
    encounters = s["encounters"]
    assert [e["short_label"] for e in encounters] == [
        "Screening (Visit 1)",
        "Cycle 1",
        "Cycle 2",
        "At time of discon",
        "30 days post discon",
    ]
    assert encounters[0]["timing"] is None  # "-28 to -1" is the screening window's days, not a cycle
    assert [e["window"] and (e["window"]["before"], e["window"]["after"], e["window"]["unit"]) for e in encounters] == [
        (28, 0, "day"),
        None,
        (3, 3, "day"),
        (3, 3, "day"),
        (7, 7, "day"),
    ]


def test_a_footnote_number_glued_to_a_day_and_a_screening_range_under_cycle_and_day_rows():
    cols = [
        "Cycle / Day",
        "Screening / -28 to -1",
        "1 / 13",
        "1 / 8",
        "1 / 15",
        "2 / 1",
    ]  # "1" with footnote 3 reads "13"
    data = [["Vital signs", "X", "X", "X", "X", "X"], ["ECG", "X", "X", "", "", "X"]]
    table = Table(title="Schedule of Events", page=5, pages=[5, 5], columns=cols, data=data)
    s = read_schedule(table, "1 Within 28 days.\n\n2 Predose.\n\n3 Before dosing.", set(), name="Schedule of Events")
    timings = [(e["timing"]["cycle"], e["timing"]["from"], e["timing"]["to"]) for e in s["encounters"]]
    assert timings == [(None, -28, -1), (1, 1, 1), (1, 8, 8), (1, 15, 15), (2, 1, 1)]
    assert [e["short_label"] for e in s["encounters"]] == [
        "Screening / Day -28 to -1",
        "Cycle 1 / Day 1",
        "Day 8",
        "Day 15",
        "Cycle 2 / Day 1",
    ]  # the span under the visit name keeps the name
    assert any("day 13 read as day 1 with footnote 3" in d for d in s["diagnostics"])
    # with no footnote 3 defined, or days in order, nothing is changed
    s = read_schedule(table, "", set(), name="Schedule of Events")
    assert s["encounters"][1]["timing"]["from"] == 13


def test_a_visit_column_copied_into_two_grid_columns_is_read_once():
    cols = ["Procedure", "Screening", "Day 1", "Day 1", "Day 8", "Day 8", "Day 15"]
    data = [
        ["Consent", "X", "", "", "", "", ""],
        ["Vital signs", "X", "X", "X", "X", "X", "X"],
        ["PK", "", "X", "X", "X", "", "X"],
    ]
    table = Table(title="Schedule of Events", page=None, pages=[None, None], columns=cols, data=data)
    s = read_schedule(table, "", set(), name="Schedule of Events")
    # Day 1 twice with the same cells is one visit; the two Day 8 columns differ (PK): two columns
    assert [e["column"] for e in s["encounters"]] == [1, 2, 4, 5, 6]
    assert sum("repeats column" in d for d in s["diagnostics"]) == 1


def test_a_later_pages_header_row_left_in_the_body_is_not_an_activity():
    cols = ["Procedure", "Screening", "Cycle 1", "End of Treatment", "Follow-up"]
    data = [
        ["", "", "", "At time of discon", "30 days post discon"],
        ["Vital signs", "X", "X", "X", "X"],
        ["", "", "", "At time of discon", "30 days post discon"],  # the next page's header
        ["ECG", "X", "", "X", ""],
        ["", "", "X", "X", ""],  # marks with no label: said so, not taken for a header
    ]
    table = Table(title="Trial Flow Chart", page=5, pages=[5, 6], columns=cols, data=data)
    s = read_schedule(table, "", set(), name="Trial Flow Chart")
    assert [a["label"] for a in s["activities"]] == ["Vital signs", "ECG"]
    assert any("row 2: repeats the visit header" in d for d in s["diagnostics"])
    assert any("row 4: 2 mark(s) with no activity label" in d for d in s["diagnostics"])


def test_a_repeated_header_row_with_the_label_columns_header_and_renumbered_notes_is_not_an_activity():
    # The next page prints the whole header again as one body row: the label column's "Day",
    # each visit's header path in one cell, and its footnotes numbered anew ("Cycle1" -> "Cycle12").
    cols = ["Day", "Screening / -28 to -1", "Cycle1 / C1 / 1", "Cycle1 / C1 / 15", "Treatment Discontinuation"]
    data = [
        ["Informed consent", "X", "", "", ""],
        ["Vital signs", "X", "X", "X", "X"],
        ["Day", "Screening / -28 to -1", "Cycle12 / C1 / 1", "Cycle12 / C1 / 15", "Treatment Discontinuation"],
        ["Adverse events", "X", "X", "X", "X"],
    ]
    s = read_schedule(
        Table(title="Schedule of Events", page=5, pages=[5, 6], columns=cols, data=data),
        "",
        set(),
        name="Schedule of Events",
    )
    assert [a["label"] for a in s["activities"]] == ["Informed consent", "Vital signs", "Adverse events"]
    assert any("row 2: repeats the visit header" in d for d in s["diagnostics"])
    assert not any("several marks" in d for d in s["diagnostics"])
    # a row whose label is an activity stays one, whatever its cells print
    data[2][0] = "Day 1 diary"
    s = read_schedule(
        Table(title="Schedule of Events", page=5, pages=[5, 6], columns=cols, data=data),
        "",
        set(),
        name="Schedule of Events",
    )
    assert "Day 1 diary" in [a["label"] for a in s["activities"]]
