"""A body row the table stage took into the header (clinparser/schedule/body_rows.py), on
hand-built tables."""

from clinparser.model import Table
from clinparser.schedule.body_rows import lift_body_row
from clinparser.schedule.grid import read_schedule


def grid(columns, rows):
    return Table(title="Table 1: Schedule of Activities", page=4, pages=[4, 4], columns=columns, data=rows)


def test_the_same_words_under_every_visit_are_an_activity_row_put_back_first():
    t = grid(
        [
            "Study Visit / Concomitant medications",
            "Scr / Continuous",
            "BL / Continuous",
            "W4 / ±3 days / Continuous",
            "Notes",
        ],
        [["Vital signs", "X", "X", "X", ""], ["ECG", "X", "", "X", "Before dosing"]],
    )
    assert lift_body_row(t, 0) == "Concomitant medications"
    assert t.columns == ["Study Visit", "Scr", "BL", "W4 / ±3 days", "Notes"]
    assert t.data[0] == ["Concomitant medications", "Continuous", "Continuous", "Continuous", ""]
    s = read_schedule(t, "", set(), name=t.title)
    assert [e["label"] for e in s["encounters"]] == ["Scr", "BL", "W4 / ±3 days"]
    assert [a["label"] for a in s["activities"]] == ["Concomitant medications", "Vital signs", "ECG"]


def test_a_label_spanning_the_group_column_goes_to_the_leftmost():
    t = grid(
        ["Visit / AE review", "Visit / AE review", "1 / Ongoing", "2 / Ongoing", "3 / Ongoing"],
        [["Safety", "Vital signs", "X", "X", "X"], ["", "ECG", "X", "", "X"]],
    )
    assert lift_body_row(t, 0) == "AE review"
    assert t.data[0] == ["AE review", "", "Ongoing", "Ongoing", "Ongoing"]


def test_header_rows_stay_where_they_are():
    day = grid(["Visit / Study Day", "1 / 1", "2 / 8", "3 / 15"], [["Vital signs", "X", "X", "X"]])
    same_epoch = grid(
        ["Procedure / Period", "Scr / Treatment", "V2 / Treatment", "V3 / Treatment"], [["ECG", "X", "X", "X"]]
    )
    visit_row = grid(
        ["Assessment / Cycle", "Day 1 / Cycle 1", "Day 8 / Cycle 1", "Day 15 / Cycle 1"], [["ECG", "X", "X", "X"]]
    )
    assert [lift_body_row(t, 0) for t in (day, same_epoch, visit_row)] == [None, None, None]
    assert day.columns[0] == "Visit / Study Day" and len(day.data) == 1
