"""Short labels of visit columns, and a visit's time points read as one encounter."""

from clinparser.model import Table
from clinparser.schedule.grid import read_schedule, vocabulary_of
from clinparser.schedule.header import read_encounter
from clinparser.schedule.labels import short_labels, time_point

VOCAB = vocabulary_of(["Vital signs are measured."])


def column(parts, kinds=()):
    enc = read_encounter(parts, list(kinds))
    return [(p, shown, role) for p, (shown, role) in zip(parts, enc.shown)]


def test_the_lowest_part_without_its_window_and_a_bare_number_named_by_its_row():
    assert short_labels([column(["Treatment Phase", "Cycle 1", "D8 (± 1)"])]) == ["D8"]
    assert short_labels([column(["3", "2", "15 ±3"], ["visit", "week", "day"])]) == ["Day 15"]
    assert short_labels([column(["1", "-2"], ["visit", "week"])]) == ["Week -2"]
    assert short_labels([column(["Follow-up", "EOT"])]) == ["EOT"]
    assert short_labels([column(["Study Visit (Day)", "1 (HD)"])]) == ["1 (HD)"]  # brackets kept whole
    assert short_labels([column(["6a", "18"], ["visit", "week"])]) == ["Week 18"]


def test_parts_above_come_back_only_where_two_columns_would_print_the_same():
    cols = [
        column(["Treatment", "Cycle 1", "D1"]),
        column(["Treatment", "Cycle 1", "D8"]),
        column(["Treatment", "Cycle 2", "D1"]),
        column(["Treatment", "Cycle 2", "D15"]),
    ]
    assert short_labels(cols) == ["Cycle 1 / D1", "D8", "Cycle 2 / D1", "D15"]


def test_a_time_point_is_the_lowest_part_under_a_visit():
    assert time_point(column(["Week 4 (Visit 4)", "0.5-1.5h Postdose"]))[0] == "0.5-1.5h Postdose"
    assert time_point(column(["Cycle 1", "D1", "EOI +30 min"]))[0] == "EOI +30 min"
    assert time_point(column(["Cycle 1", "D1"])) is None
    assert time_point(column(["Predose"])) is None  # nothing above it names a visit


def test_a_visits_time_point_columns_are_one_encounter_and_marks_say_at_which():
    t = Table(
        title="Table 1: Schedule of Activities",
        page=3,
        pages=[3, 3],
        columns=[
            "Procedure",
            "Screening",
            "Cycle 1 / D1 / SOI",
            "Cycle 1 / D1 / EOI",
            "Cycle 1 / D1 / 72 h",
            "Cycle 1 / D8",
        ],
        data=[["Vital signs", "X", "X", "X", "", "X"], ["PK sample", "", "X", "", "X", "X"]],
    )
    s = read_schedule(t, "", VOCAB, name=t.title)
    labels = [(e["label"], e["short_label"]) for e in s["encounters"]]
    assert labels == [("Screening", "Screening"), ("Cycle 1 / D1", "D1"), ("Cycle 1 / D8", "D8")]
    assert [p["label"] for p in s["encounters"][1]["timepoints"]] == ["SOI", "EOI", "72 h"]
    assert [p["column"] for p in s["encounters"][1]["timepoints"]] == [2, 3, 4]
    got = {(m["activity"], m["encounter"]): m["timepoints"] for m in s["marks"]}
    assert got == {(0, 0): [], (0, 1): ["SOI", "EOI"], (0, 2): [], (1, 1): ["SOI", "72 h"], (1, 2): []}
    assert any("time points within visit 'Cycle 1 / D1'" in d for d in s["diagnostics"])


def test_a_sampling_timeline_keeps_its_time_points_as_encounters():
    t = Table(
        title="Table 3: Pharmacokinetic Sampling Schedule",
        page=3,
        pages=[3, 3],
        columns=["Sample", "Day 1 / Predose", "Day 1 / 2 h", "Day 8 / Predose"],
        data=[["PK sample", "X", "X", "X"], ["ADA sample", "X", "", "X"]],
    )
    s = read_schedule(t, "", VOCAB, name=t.title)
    assert s["kind"] == "pk_pd"
    assert [e["short_label"] for e in s["encounters"]] == ["Day 1 / Predose", "2 h", "Day 8 / Predose"]
    assert [e["timepoints"] for e in s["encounters"]][1] == [{"label": "2 h", "column": 2}]


def test_a_span_of_days_under_the_visit_name_keeps_the_name_and_a_dash_before_a_number_is_a_minus():
    assert short_labels([column(["Screening", "D \u201335 to D \u20131"]), column(["BL", "D1"])]) == [
        "Screening / D -35 to D -1",
        "D1",
    ]
    assert short_labels([column(["Screening", "-35D"])]) == ["Screening"]  # "-35D" alone is its window
    assert short_labels([column(["Day 1"]), column(["Days 2 to 5"])]) == ["Day 1", "Days 2 to 5"]
