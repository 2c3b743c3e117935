"""A caption the table stage took as the grid's header row: the schedule's visits are read from the
rows below it, and the caption becomes the table's title."""

from clinparser.content.assemble import Tree
from clinparser.model import Section, Table
from clinparser.schedule.band import caption_in_header
from clinparser.schedule.find import SCHEDULE_TITLE, attach_schedules


def test_a_header_row_of_caption_pieces_is_the_caption():
    columns = ["Appendix B", "Schedule", "Schedule", "of", "Assessments", "Assessments", "", ""]
    assert caption_in_header(Table("", 1, [1, 1], columns, []), SCHEDULE_TITLE) == "Appendix B Schedule of Assessments"
    for header in (
        ["Assessment", "Screening", "Day 1", "Day 8"],  # visits
        ["Procedure", "Week 0 / Day 1", "Week 4 / Day 29"],  # two header rows
        ["Parameter", "Schedule", "Dose"],
    ):  # no schedule title
        assert caption_in_header(Table("", 1, [1, 1], header, []), SCHEDULE_TITLE) is None


def test_the_visits_come_from_the_rows_under_a_caption_header():
    table = Table(
        "",
        64,
        [64, 64],
        ["Appendix B", "Schedule", "Schedule", "of", "Assessments"],
        [
            ["", "Screen", "Day 0", "Study Day", "Study Day"],
            ["Day", "-1/0", "0", "1", "2"],
            ["Informed consent", "X", "", "", ""],
            ["Vital signs", "X", "X", "X", "X"],
        ],
    )
    section = Section("A", "Sample Informed Consent Form", 1, text="[Table]", tables=[table])
    attach_schedules(Tree(toc=[], non_toc=[section]))
    schedule = table.schedule
    assert table.title == "Appendix B Schedule of Assessments" and schedule["name"] == table.title
    assert [e["label"] for e in schedule["encounters"]] == [
        "Screen / -1/0",
        "Day 0 / 0",
        "Study Day / 1",
        "Study Day / 2",
    ]
    assert [a["label"] for a in schedule["activities"]] == ["Informed consent", "Vital signs"]
    assert any("held the caption" in d for d in schedule["diagnostics"])
