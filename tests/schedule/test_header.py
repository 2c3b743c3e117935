"""Visit column headers read into visit, timing and window."""

import pytest

from clinparser.schedule.header import read_encounter, row_kinds, window


def test_row_kinds_name_the_numbered_header_rows_in_order():
    assert row_kinds(["ACTIVITY", "VISIT", "WEEK"]) == ["visit", "week"]
    assert row_kinds(["Study Procedures", "Days"]) == ["day"]
    assert row_kinds(["Procedure", "Visit day (window)"]) == ["day"]  # "Visit day" holds days
    assert row_kinds(["Timepoint(hours)a"]) == ["hour"]
    assert row_kinds(["Assessment"]) == []


@pytest.mark.parametrize(
    "parts, kinds, visit, timing",
    [
        (["1", "-2"], ["visit", "week"], "1", ("week", -2, -2, None)),
        (["2", "-.3"], ["visit", "week"], "2", ("week", -0.3, -0.3, None)),
        (["8", "8"], ["visit", "week"], "8", ("week", 8, 8, None)),
        (["Screening", "-42 to\n-9"], ["day"], None, ("day", -42, -9, None)),
        (["Period 1", "-6 through\n-5"], ["day"], None, ("day", -6, -5, None)),
        (["Period 1", "4-7"], ["day"], None, ("day", 4, 7, None)),
        (["Day \u221242 to \u22129"], [], None, ("day", -42, -9, None)),
        (["Cycle 2 Day 8"], [], None, ("day", 8, 8, 2)),
        (["C3D1"], [], None, ("day", 1, 1, 3)),
        (["c1/d14"], [], None, ("day", 14, 14, 1)),
        (["Visit 3", "Week 12"], [], "3", ("week", 12, 12, None)),
        (["V4"], [], "4", None),
        (["\u22120.5"], ["hour"], None, ("hour", -0.5, -0.5, None)),
    ],
)
def test_visit_and_timing(parts, kinds, visit, timing):
    enc = read_encounter(parts, kinds)
    assert enc.visit == visit
    got = (enc.timing["unit"], enc.timing["from"], enc.timing["to"], enc.timing["cycle"]) if enc.timing else None
    assert got == timing


def test_a_row_named_by_its_unit_gives_the_timing_and_a_week_name_above_it_stays_a_name():
    enc = read_encounter(["Week 2", "15 +/- 3"], ["day"])
    assert enc.timing == {"unit": "day", "from": 15, "to": 15, "cycle": None}
    assert enc.window == {"text": "+/- 3", "before": 3, "after": 3, "unit": "day"}
    assert enc.words == ["Week 2"]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("±3 days", (3, 3, "day")),
        ("(-3/+7 d)", (3, 7, "day")),
        ("+/- 2 weeks", (2, 2, "week")),
        ("Day 54+/-2", (2, 2, None)),
        ("Week 4", None),
    ],
)
def test_windows(text, expected):
    got = window(text, None)
    assert (None if got is None else (got["before"], got["after"], got["unit"])) == expected


def test_a_window_without_a_unit_takes_the_timing_unit():
    enc = read_encounter(["EOS", "Week 52 ±1"], [])
    assert enc.window["unit"] == "week" and enc.timing["from"] == 52


def test_words_alone_are_names_and_unread_numbers_are_reported():
    enc = read_encounter(["EOS or ET"], ["visit", "week"])
    assert enc.words == ["EOS or ET"] and enc.visit is None and enc.timing is None
    odd = read_encounter(["1", "2", "3"], ["visit", "week"])
    assert odd.unread == ["3"]


def test_cycle_rows_window_rows_and_visit_codes():
    assert row_kinds(["Cycle1", "Day"]) == ["cycle", "day"]  # a footnote number glued to the row name
    enc = read_encounter(["2", "1"], ["cycle", "day"])
    assert enc.timing == {"unit": "day", "from": 1, "to": 1, "cycle": 2}
    kinds = row_kinds(["Visit (V), Phone (P)", "Timing of Visit (Weeks)", "Visit Window (Days)"])
    assert kinds == ["visit", "week", "window-day"]
    first = read_encounter(["Screening", "V1", "-1", "-7 to 0"], kinds)
    assert (first.visit, first.timing["from"], first.timing["unit"]) == ("1", -1, "week")
    assert first.window == {"text": "-7 to 0", "before": 7, "after": 0, "unit": "day"}
    phone = read_encounter(["P13", "24", "±3"], kinds)
    assert (phone.visit, phone.timing["from"], phone.window["unit"]) == ("P13", 24, "day")
    assert read_encounter(["D8"], []).visit is None  # Day 8, not a visit code


def test_a_lettered_number_in_a_row_of_days_is_the_day_and_its_footnote():
    # "(Study Days)" names the row below it; "18a" there is day 18 with footnote a.
    enc = read_encounter(["Treatment Period (Study Days)", "18a"], [])
    assert enc.timing == {"unit": "day", "from": 18, "to": 18, "cycle": None}
    assert enc.footnoted == ["18a"] and enc.unread == [] and enc.visit is None
    assert enc.shown[-1] == ("Day 18", "timing")
    # in a row of visits the letter is the visit's own: "6a" is a visit added after visit 6
    visit = read_encounter(["6a", "18"], ["visit", "week"])
    assert visit.visit == "6a" and visit.footnoted == []


def test_a_cycle_and_day_code_under_a_study_day_leaves_no_name():
    # "c1/d14" in a "Cycle" row below the study day: no "c1/" left over to be taken for a period
    enc = read_encounter(["14", "\u00b14", "c1/d14", "3"], ["day", "window-day", "cycle", "visit"])
    assert enc.words == []
    assert (enc.timing["unit"], enc.timing["from"]) == ("day", 14)


def test_a_spanning_name_keeps_its_brackets_whole():
    assert read_encounter(["Treatment Period (Study Days)", "3"], []).words == ["Treatment Period (Study Days)"]
    assert read_encounter(["End of Treatment (EOT)"], []).words == ["End of Treatment (EOT)"]
    assert read_encounter(["(Follow-up)"], []).words == ["Follow-up"]


def test_a_bare_number_printed_with_a_window_in_days_is_a_day():
    # "FU/ED" over "24 (± 2 days)", in no row named by a unit: the window counts days, so 24 is a day
    enc = read_encounter(["FU/ ED", "24 (\u00b1 2 days)"], [])
    assert enc.timing == {"unit": "day", "from": 24, "to": 24, "cycle": None} and enc.visit is None
    assert enc.window["before"] == enc.window["after"] == 2
    assert enc.shown[-1] == ("Day 24", "timing")
    # with no window, or under a "Visit" row, a bare number stays the visit's number
    assert read_encounter(["FU/ ED", "24"], []).visit == "24"
    assert read_encounter(["5 (\u00b1 2 days)"], ["visit"]).visit == "5"


def test_a_lettered_number_under_a_named_visit_is_its_day_and_a_footnote():
    # "Visit 2" over "1b": the visit is named already, so "1b" is no second visit number
    enc = read_encounter(["Visit 2", "1b"], [])
    assert enc.visit == "2" and enc.footnoted == ["1b"]
    assert [shown for shown, _ in enc.shown][-1] == "1"


def test_words_above_fewer_numbers_than_named_rows_stand_in_the_upper_rows():
    # "Cycle / Study Day" names two rows; "Follow-up" and "Cycle 2" fill the cycle row with
    # words, so the one number under each is a day, not a cycle.
    follow_up = read_encounter(["Follow-up", "134"], ["cycle", "day"], kinds_of_all=True)
    assert follow_up.timing == {"unit": "day", "from": 134, "to": 134, "cycle": None}
    assert follow_up.shown[-1] == ("Day 134", "timing")
    cycle = read_encounter(["Cycle 2", "1b"], ["cycle", "day"], kinds_of_all=True)
    assert cycle.timing == {"unit": "day", "from": 1, "to": 1, "cycle": 2} and cycle.footnoted == ["1b"]
    # a number in every named row, or a dash standing for one, keeps the rows in order
    assert read_encounter(["Treatment", "3", "8"], ["cycle", "day"], kinds_of_all=True).timing["cycle"] == 3
    dashed = read_encounter(
        ["Screening", "1", "-28 to -1", "\u2014"], ["visit", "day", "window-day"], kinds_of_all=True
    )
    assert (dashed.visit, dashed.timing["from"], dashed.timing["to"]) == ("1", -28, -1)
    # an unnamed row above the named ones ("Phase / Visit No. / Study Day / Window"): the word is
    # in it, and a window left blank takes no row from the numbers
    phase = read_encounter(["Treatment", "2", "1"], ["visit", "day", "window-day"])
    assert (phase.visit, phase.timing["from"]) == ("2", 1)


def test_a_number_with_a_window_in_days_under_a_cycle_row_is_a_day():
    # "Follow-up" in the unnamed period row, its cycle cell blank: "43 (+7 days)" is Day 43.
    enc = read_encounter(["Follow-up", "43 (+7 days)"], ["cycle", "day"])
    assert enc.timing == {"unit": "day", "from": 43, "to": 43, "cycle": None}
    assert read_encounter(["Treatment", "2", "15 (±1 days)"], ["cycle", "day"]).timing["cycle"] == 2
