"""Side schedules' columns as the main timeline's visits (clinparser/schedule/visits.py).

The schedules are written by hand; the expected indexes are read off them here."""

from __future__ import annotations

from clinparser.schedule.visits import link_side_schedules


def enc(label, visit=None, timing=None, timepoints=()):
    return {
        "label": label,
        "visit": visit,
        "timing": timing,
        "timepoints": [{"label": p, "column": 1} for p in timepoints],
    }


def day(n, cycle=None, unit="day"):
    return {"unit": unit, "from": n, "to": n, "cycle": cycle}


def schedules(main_encounters, side_encounters):
    main = {"name": "Table 1", "main": True, "encounters": main_encounters, "diagnostics": []}
    side = {"name": "Table 2: PK", "main": False, "encounters": side_encounters, "diagnostics": []}
    link_side_schedules([main, side])
    return main, side


def test_a_day_printed_with_no_cycle_is_the_first_cycles_day():
    main, side = schedules(
        [
            enc("Screening"),
            enc("Cycle 1 / D1", timing=day(1, 1)),
            enc("Cycle 1 / D8", timing=day(8, 1)),
            enc("Cycle 2 / D1", timing=day(1, 2)),
        ],
        [
            enc("Day 1 / Predose", timing=day(1), timepoints=["Predose"]),
            enc("Day 8 / 2 h", timing=day(8), timepoints=["2 h"]),
            enc("Cycle 2 / Day 1 / Predose", timing=day(1, 2), timepoints=["Predose"]),
            enc("Day 22", timing=day(22)),
        ],
    )
    assert [e["main_encounter"] for e in side["encounters"]] == [1, 2, 3, None]
    assert all(e["main_encounter"] is None for e in main["encounters"])


def test_two_main_visits_with_the_same_timing_link_neither():
    _, side = schedules(
        [enc("Day 1 / a", timing=day(1)), enc("Day 1 / b", timing=day(1))], [enc("Day 1", timing=day(1))]
    )
    assert side["encounters"][0]["main_encounter"] is None


def test_visit_numbers_then_labels_without_the_time_point():
    _, side = schedules(
        [
            enc("V3 / Week 2", visit="V3", timing=day(2, unit="week")),
            enc("Visit 4", visit="4"),
            enc("EOT"),
            enc("Follow-up"),
        ],
        [
            enc("Visit 3", visit="3"),
            enc("V4", visit="V4"),
            enc("EOT / Predose", timepoints=["Predose"]),
            enc("Unscheduled"),
        ],
    )
    assert [e["main_encounter"] for e in side["encounters"]] == [0, 1, 2, None]


def test_no_main_schedule_links_nothing():
    side = {"name": "PK", "main": False, "encounters": [enc("Day 1", timing=day(1))], "diagnostics": []}
    link_side_schedules([side])
    assert side["encounters"][0]["main_encounter"] is None


def test_baseline_is_the_main_visit_named_so_else_the_one_at_the_start_of_treatment():
    _, side = schedules(
        [
            enc("Screening / W-4 to -1", timing=day(-4, unit="week")),
            enc("2 / W0", visit="2", timing=day(0, unit="week")),
            enc("3 / W2", visit="3", timing=day(2, unit="week")),
        ],
        [
            enc("Baseline / Pre-dose", timepoints=["Pre-dose"]),
            enc("Week 2 / Pre-dose", timing=day(2, unit="week"), timepoints=["Pre-dose"]),
        ],
    )
    assert [e["main_encounter"] for e in side["encounters"]] == [1, 2]
    _, named = schedules(
        [enc("Day -1"), enc("Baseline / Day 1", timing=day(1)), enc("Day 8", timing=day(8))],
        [enc("Baseline / 2 h", timepoints=["2 h"])],
    )
    assert named["encounters"][0]["main_encounter"] == 1


def test_the_first_cycle_printed_on_either_side_is_the_day_printed_without_one():
    _, side = schedules(
        [enc("V2 / 1", timing=day(1)), enc("V3 / 8", timing=day(8))],
        [
            enc("Cycle 1 Day 1 / Pre-dose", timing=day(1, 1), timepoints=["Pre-dose"]),
            enc("Cycle 2 Day 1", timing=day(1, 2)),
        ],
    )
    assert [e["main_encounter"] for e in side["encounters"]] == [0, None]
