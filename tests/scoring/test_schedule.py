"""Schedule scoring against USDM (scoring.schedule) on small hand-written cases whose
answers were worked out by hand; the real reference files only for their counts."""

from __future__ import annotations

import json

import pytest
from conftest import USDM
from scoring.schedule import (
    Match,
    audit,
    evaluate,
    iso_minutes,
    label_timing,
    load_reference,
    match,
    normalize,
    score,
)

# -- builders for hand-written USDM and schedules --------------------------------------------


def _activity(aid, label, children=()):
    return {"id": aid, "name": aid, "label": label, "childIds": list(children)}


def _timing(iid, kind, value, to, label=""):
    return {
        "id": f"T_{iid}",
        "label": label,
        "type": {"decode": kind},
        "value": value,
        "relativeFromScheduledInstanceId": iid,
        "relativeToScheduledInstanceId": to,
    }


def _instance(iid, encounter, activities):
    return {
        "id": iid,
        "name": iid,
        "instanceType": "ScheduledActivityInstance",
        "encounterId": encounter,
        "activityIds": list(activities),
    }


def _usdm(activities, encounters, timelines):
    design = {
        "activities": activities,
        "encounters": [{"id": eid, "name": eid, "label": label} for eid, label in encounters],
        "scheduleTimelines": timelines,
    }
    return {"study": {"versions": [{"studyDesigns": [design]}]}}


def _timeline(tid, label, main, instances, timings):
    return {"id": tid, "label": label, "mainTimeline": main, "instances": instances, "timings": timings}


def _enc(label, unit=None, lo=None, hi=None):
    timing = {"unit": unit, "from": lo, "to": hi if hi is not None else lo, "cycle": None} if unit else None
    return {"label": label, "visit": None, "timing": timing}


def _schedule(encounters, activities, marks, groups=()):
    return {
        "name": "Schedule of Activities",
        "encounters": encounters,
        "activities": [{"label": a, "row": i, "group": None, "footnotes": []} for i, a in enumerate(activities)],
        "groups": [{"label": g, "row": 0, "footnotes": []} for g in groups],
        "marks": [{"activity": a, "encounter": e, "text": "X", "footnotes": []} for a, e in marks],
    }


# The study: screening, Day 1 (the anchor), a visit 7 days later typed "Visit 3", and an Early
# Termination timeline with one instance and no encounter.
STUDY = _usdm(
    [
        _activity("G1", "Safety", ["A2", "A3"]),
        _activity("A1", "Informed consent"),
        _activity("A2", "Vital signs"),
        _activity("A3", "Haematologyc"),  # British spelling and a glued footnote letter
        _activity("A4", "Demographics"),
        _activity("A5", "Check adverse events"),
    ],
    [("E1", "Screening"), ("E2", "Day 1"), ("E3", "Visit 3")],
    [
        _timeline(
            "TL1",
            "Main Timeline",
            True,
            [
                _instance("I1", "E1", ["A1", "A2", "A4"]),
                _instance("I2", "E2", ["A2", "A3"]),
                _instance("I3", "E3", ["A2", "A3"]),
            ],
            [
                _timing("I1", "Before", "P14D", "I2"),
                _timing("I2", "Fixed Reference", "P1D", "I2"),
                _timing("I3", "After", "P7D", "I2"),
            ],
        ),
        _timeline(
            "TL2",
            "Early Termination Timeline",
            False,
            [_instance("X1", None, ["A2", "A5"])],
            [_timing("X1", "Fixed Reference", "PT0M", "X1")],
        ),
    ],
)

OURS = [
    _schedule(
        [
            _enc("Screening"),
            _enc("Day 1", "day", 1),
            _enc("Week 1", "week", 1),
            _enc("ET"),
            _enc("Follow-up", "day", 30),
        ],
        ["Informed consent", "Vital signs", "Hematology", "Physical exam"],
        # IC@Scr, VS@Scr, VS@D1, Hem@D1, VS@Wk1, VS@ET: right; PE@D1, IC@Follow-up, IC@D1: wrong
        [(0, 0), (1, 0), (1, 1), (2, 1), (1, 2), (1, 3), (3, 1), (0, 4), (0, 1)],
        groups=["Safety"],
    )
]


def _f1(p, r):
    return 2 * p * r / (p + r)


def test_hand_case_under_the_shown_rule():
    e = evaluate(OURS, STUDY)["shown"]
    # encounters: ours 4 of 5 match (Follow-up does not); reference E1, E2, E3 and the ET point
    assert (e.encounters.ours_matched, e.encounters.ours, e.encounters.refs_matched, e.encounters.refs) == (4, 5, 4, 4)
    assert e.encounters.f1 == pytest.approx(_f1(4 / 5, 1.0))
    # activities: ours IC, VS, Hematology, Safety of 5; reference A1-A5 and the group G1: 4 of 6
    assert (e.activities.ours_matched, e.activities.ours, e.activities.refs_matched, e.activities.refs) == (4, 5, 4, 6)
    assert e.activities.precision == pytest.approx(0.8) and e.activities.recall == pytest.approx(4 / 6)
    assert e.activities.f1 == pytest.approx(_f1(0.8, 4 / 6))
    # cells: 6 of our 9 marks; reference 9 cells (7 main + 2 ET), 6 found
    assert (e.cells.ours_matched, e.cells.ours, e.cells.refs_matched, e.cells.refs) == (6, 9, 6, 9)
    assert e.cells.f1 == pytest.approx(_f1(6 / 9, 6 / 9))


def test_hand_case_under_the_strict_main_rule():
    e = evaluate(OURS, STUDY)["main"]
    assert (e.encounters.ours_matched, e.encounters.refs) == (3, 3)  # ET is an extra now
    assert e.encounters.f1 == pytest.approx(_f1(3 / 5, 1.0))
    assert (e.activities.ours_matched, e.activities.refs_matched, e.activities.refs) == (4, 4, 5)
    assert (e.cells.ours_matched, e.cells.refs_matched, e.cells.refs) == (5, 5, 7)
    assert e.cells.f1 == pytest.approx(_f1(5 / 9, 5 / 7))
    assert "Early Termination" in e.not_counted


def test_unmatched_items_and_fuzzy_matches_are_printed():
    lines = audit(evaluate(OURS, STUDY)["shown"])
    text = "\n".join(lines)
    for item in (
        "Demographics",
        "Check adverse events",
        "Haematologyc @ Visit 3",
        "Check adverse events @ Early Termination",
    ):
        assert f"unmatched reference: {item}" in text
    for item in (
        "Physical exam",
        "Follow-up",
        "Physical exam @ Day 1",
        "Informed consent @ Follow-up",
        "Informed consent @ Day 1",
    ):
        assert f"unmatched ours:      {item}" in text
    assert "[footnote letter] 'Hematology' ~ 'Haematologyc'" in text
    assert "[abbreviation] 'ET' ~ 'Early Termination'" in text
    assert "[timing] 'Week 1' ~ 'Visit 3 (+7 d from the anchor)'" in text


def test_no_schedules_scores_zero_and_lists_the_reference():
    e = evaluate({"toc": [], "non_toc": []}, STUDY)["shown"]
    for measure in (e.activities, e.encounters, e.cells):
        assert (measure.precision, measure.recall, measure.f1) == (0.0, 0.0, 0.0)
    text = "\n".join(audit(e))
    assert "unmatched reference: Informed consent @ Screening" in text
    assert "Early Termination" in e.not_counted  # not shown by anything: not counted


def test_schedules_are_read_from_a_parse_result():
    table = {"columns": [], "data": [], "schedule": OURS[0]}
    doc = {
        "toc": [{"tables": [], "subsections": [{"tables": [{"columns": [], "data": []}, table], "subsections": []}]}],
        "non_toc": [],
    }
    assert evaluate(doc, STUDY)["shown"].cells.ours_matched == 6


# -- the rules one at a time -----------------------------------------------------------------------


def _one_activity(ref_label, our_label):
    usdm = _usdm(
        [_activity("A1", ref_label)],
        [("E1", "Day 1")],
        [
            _timeline(
                "TL1", "Main", True, [_instance("I1", "E1", ["A1"])], [_timing("I1", "Fixed Reference", "P1D", "I1")]
            )
        ],
    )
    return match([_schedule([_enc("Day 1", "day", 1)], [our_label], [(0, 0)])], usdm)


def test_footnote_letter_glued_on_the_reference_label():
    m = _one_activity("Discharge from unitf", "Discharge from unit")
    assert m.activity_refs["discharge from unit"] == {"A1"}
    assert Match("activity", "Discharge from unit", "Discharge from unitf", "footnote letter") in m.matches
    m = _one_activity("Heightl , weight, and BMI", "Height, weight, and BMI")  # inside the label too
    assert any(x.rule == "footnote letter" for x in m.matches)
    # only the reference side: our labels come with their markers split off
    assert _one_activity("Discharge from unit", "Discharge from unitf").activity_refs["discharge from unitf"] == set()


def test_normalization_and_leading_words():
    assert normalize("Patient randomised") == normalize("Patient randomized")
    assert normalize("Vital signs/Temperature") == normalize("Vital Signs and Temperature")
    assert normalize("Study drug record\nMedications dispensed") == normalize(
        "Study drug record , Medications dispensed"
    )
    m = _one_activity("MMSE", "MMSE 10-23")
    assert [x.rule for x in m.matches if x.kind == "activity"] == ["leading words"]
    assert _one_activity("ECG", "EEG").activity_refs["eeg"] == set()


def _days_study(labels_and_offsets):
    """Main timeline anchored at "Day 1"; each (label, days after the anchor) is an encounter."""
    encounters = [("E0", "Day 1")] + [(f"E{k + 1}", lab) for k, (lab, _) in enumerate(labels_and_offsets)]
    instances = [_instance("I0", "E0", ["A1"])] + [
        _instance(f"I{k + 1}", f"E{k + 1}", ["A1"]) for k in range(len(labels_and_offsets))
    ]
    timings = [_timing("I0", "Fixed Reference", "P1D", "I0")] + [
        _timing(f"I{k + 1}", "After", f"P{days}D", "I0") for k, (_, days) in enumerate(labels_and_offsets)
    ]
    return _usdm([_activity("A1", "Vital signs")], encounters, [_timeline("TL1", "Main", True, instances, timings)])


def test_a_range_column_covers_each_reference_day_in_it():
    study = _days_study([("Day 4", 3), ("Day 5", 4), ("Day 7", 6), ("Day 8", 7), ("Visit 6", 5), ("Visit 8", 7)])
    m = match([_schedule([_enc("Days 4-7", "day", 4, 7)], ["Vital signs"], [(0, 0)])], study)
    covered = {
        study["study"]["versions"][0]["studyDesigns"][0]["encounters"][int(k[1:])]["label"] for k in m.encounter_refs[0]
    }
    assert covered == {"Day 4", "Day 5", "Day 7", "Visit 6"}  # Visit 6 by its Timing: 5 days after Day 1
    rules = {x.ref.split(" (")[0]: x.rule for x in m.matches if x.kind == "encounter"}
    assert rules["Day 5"] == "label timing" and rules["Visit 6"] == "timing"
    e = score(m, "shown")
    # one mark covers the reference cells of the 4 encounters it spans, not the 3 others
    assert (e.cells.ours_matched, e.cells.refs_matched, e.cells.refs) == (1, 4, 7)


def test_a_single_printed_day_lies_in_a_reference_range():
    study = _days_study([("Day -6 through -5", -6)])
    m = match([_schedule([_enc("-6", "day", -6)], ["Vital signs"], [(0, 0)])], study)
    assert m.encounter_refs[0] == {"E1"}


def test_study_days_skip_zero_unless_the_schedule_prints_day_zero():
    study = _days_study([("Visit A", 6), ("Visit B", 7)])
    without_zero = match([_schedule([_enc("Day 7", "day", 7)], ["Vital signs"], [])], study)
    assert without_zero.encounter_refs[0] == {"E1"}  # Day 7 is 6 days after Day 1
    with_zero = match([_schedule([_enc("Day 0", "day", 0), _enc("Day 7", "day", 7)], ["Vital signs"], [])], study)
    assert with_zero.encounter_refs[1] == {"E2"}


def test_hours_never_meet_days_and_a_lone_anchor_has_no_time():
    pk = _timeline(
        "TL2",
        "PK Timeline",
        False,
        [_instance("P0", None, []), _instance("P2", None, ["A1"])],
        [_timing("P0", "Fixed Reference", "PT0M", "P0", "Predose"), _timing("P2", "After", "PT2H", "P0", "Post dose")],
    )
    event = _timeline(
        "TL3",
        "Adverse Event Timeline",
        False,
        [_instance("X1", None, ["A1"])],
        [_timing("X1", "Fixed Reference", "PT0M", "X1")],
    )
    study = _days_study([])
    design = study["study"]["versions"][0]["studyDesigns"][0]
    design["scheduleTimelines"] += [pk, event]
    m = match(
        [
            _schedule(
                [_enc("0 h", "hour", 0), _enc("2 h", "hour", 2), _enc("Day 1", "day", 1)], ["Vital signs"], [(0, 1)]
            )
        ],
        study,
    )
    assert m.encounter_refs == [{"P0"}, {"P2"}, {"E0"}]
    e = score(m, "shown")
    assert (e.cells.ours_matched, e.cells.refs_matched, e.cells.refs) == (1, 1, 2)  # E0's cell and P2's


def test_time_parsing():
    assert label_timing("Day -6 through -5") == (None, "day", -6, -5)
    assert label_timing("Week 2") == (None, "week", 2, 2)
    assert label_timing("2 hours") == (None, "hour", 2, 2)
    assert label_timing("-30 minutes") == (None, "minute", -30, -30)
    assert label_timing("C2 Day 1") == (2, "day", 1, 1)
    assert label_timing("Screening 1") is None
    assert iso_minutes("P2W") == ("date", 2 * 7 * 1440)
    assert iso_minutes("PT30M") == ("time", 30)
    assert iso_minutes("P1DT2H") == ("date", 1440 + 120)
    assert iso_minutes("soon") is None


def test_unknown_rule_is_one_clear_error():
    with pytest.raises(ValueError, match="rule must be one of"):
        score(match(OURS, STUDY), "everything")


# -- the published references (counts read off the files by hand) ------------------------------------


@pytest.mark.skipif(not USDM.is_dir(), reason="../shared/usdm is absent (a fresh clone)")
def test_published_references_load():
    cdisc = json.loads((USDM / "CDISC_Pilot_Study.usdm.json").read_text(encoding="utf-8"))
    e = evaluate({"toc": [], "non_toc": []}, cdisc)
    # 12 main-timeline encounters; 30 activities named on the main timeline plus the "Scores"
    # group (the other group has no label)
    assert (e["main"].encounters.refs, e["main"].activities.refs) == (12, 31)
    alexion = json.loads((USDM / "Alexion_NCT04573309_Wilsons.usdm.json").read_text(encoding="utf-8"))
    e = evaluate({"toc": [], "non_toc": []}, alexion)
    # 50 encounters; the main timeline also has one instance with no encounter (Day -6/-5 start)
    assert (e["shown"].encounters.refs, e["main"].encounters.refs) == (50, 51)
    assert e["main"].activities.refs == 35 + 8  # Activity_1..35 and 8 labelled groups
    assert len(load_reference(alexion).points) == 50 + 1 + 1 + 1 + 11 + 1  # + AE, ET, 11 PK points, Unscheduled


def test_an_epoch_spanning_several_columns_names_none_of_them():
    study = _usdm(
        [_activity("A1", "Vital signs")],
        [("E1", "Screening"), ("E2", "Day -21")],
        [_timeline("TL1", "Main", True, [_instance("I1", "E1", ["A1"]), _instance("I2", "E2", ["A1"])], [])],
    )
    first, second = _enc("Screening / Screening visit"), _enc("Screening / -21", "day", -21)
    for e in (first, second):
        e["epoch"] = "Screening"
    spanning = _schedule([first, second], ["Vital signs"], [])
    spanning["epochs"] = [{"label": "Screening", "encounters": [0, 1]}]
    # "Screening" is the period over both columns: neither column is the Screening encounter by it
    assert match([spanning], study).encounter_refs == [set(), {"E2"}]
    alone = _schedule([dict(first, epoch="Screening")], ["Vital signs"], [])
    alone["epochs"] = [{"label": "Screening", "encounters": [0]}]
    assert match([alone], study).encounter_refs == [{"E1"}]


def test_what_a_rule_leaves_out_is_listed():
    e = evaluate({"toc": [], "non_toc": []}, STUDY)
    assert e["shown"].activities_not_counted == ["Check adverse events"]  # only on the ET timeline
    assert "reference activities not counted under rule 'main': Check adverse events" in audit(e["main"])


def test_abbreviated_and_misspelt_words():
    from scoring.schedule import normalize, words_within

    ours = normalize("Laboratory (Chem/Hemat):")
    assert words_within(normalize("Hematology"), ours) == "abbreviated"
    assert words_within(normalize("Chemistry"), ours) == "abbreviated"
    assert words_within(normalize("Uninalysis"), normalize("Laboratory (Urinalysis)")) == "misspelt"
    assert words_within(normalize("Hemoglobin A1C"), ours) is None
    assert words_within(normalize("ECG"), normalize("EEG")) is None  # short words are never typos
    assert words_within(normalize("Chemistry"), normalize("Laboratory (Che)")) is None  # 3 letters abbreviate nothing
