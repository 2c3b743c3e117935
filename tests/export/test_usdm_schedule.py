"""Schedules of activities exported as USDM v4.0 study-design objects (clinparser/usdm_schedule.py).

The result below is written by hand per the ``schedule`` contract (issue 17); the expected links
are written out here, not taken from the code. Schema checks use CDISC's OpenAPI document in
``../shared/usdm`` and skip with a reason when it is absent."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clinparser.export.usdm import (
    document_version,
    narrative_items,
    schema_validator,
    study_design,
    to_usdm,
    usdm_errors,
)

USDM_API = Path(__file__).resolve().parents[3] / "shared" / "usdm" / "USDM_API.json"

FOOTNOTES = [
    {"marker": "a", "text": "Seated, after 5 minutes of rest."},
    {"marker": "b", "text": "Before the first dose."},
    {"marker": "c", "text": "Done by the local laboratory."},
]


def encounter(label, column, epoch, visit, timing, window=None):
    return {"label": label, "column": column, "epoch": epoch, "visit": visit, "timing": timing, "window": window}


def timing(unit, low, high=None, cycle=None):
    return {"unit": unit, "from": low, "to": low if high is None else high, "cycle": cycle}


def main_schedule() -> dict:
    # Columns: label, Visit 1..4. Rows: Informed consent, the Safety group, Vital signs, Laboratory tests.
    return {
        "name": "Table 2: Schedule of Activities",
        "main": True,
        "label_column": 0,
        "epochs": [{"label": "Screening", "encounters": [0]}, {"label": "Treatment Period", "encounters": [1, 2, 3]}],
        "encounters": [
            encounter("Visit 1 / Day -3", 1, "Screening", "1", timing("day", -3)),
            encounter("Visit 2 / Day 1", 2, "Treatment Period", "2", timing("day", 1)),
            encounter(
                "Visit 3 / Day 8 (±2 days)",
                3,
                "Treatment Period",
                "3",
                timing("day", 8),
                {"text": "±2 days", "before": 2, "after": 2, "unit": "day"},
            ),
            encounter("Visit 4 / Weeks 4-6", 4, "Treatment Period", "4", timing("week", 4, 6)),
        ],
        "activities": [
            {"label": "Informed consent", "row": 0, "group": None, "footnotes": []},
            {"label": "Vital signs", "row": 2, "group": "Safety", "footnotes": ["a"]},
            {"label": "Laboratory tests", "row": 3, "group": "Safety", "footnotes": []},
        ],
        "groups": [{"label": "Safety", "row": 1, "footnotes": ["c"]}],
        "marks": [
            {"activity": 0, "encounter": 0, "text": "X", "footnotes": []},
            {"activity": 1, "encounter": 0, "text": "X", "footnotes": []},
            {"activity": 1, "encounter": 1, "text": "X", "footnotes": ["b", "z"]},  # "z" is printed nowhere
            {"activity": 1, "encounter": 2, "text": "X", "footnotes": []},
            {"activity": 2, "encounter": 1, "text": "X", "footnotes": []},
            {"activity": 2, "encounter": 3, "text": "(X)", "footnotes": []},
        ],
        "footnotes": FOOTNOTES,
        "diagnostics": [],
    }


def pk_schedule() -> dict:
    return {
        "name": "Table 3: Pharmacokinetic Sampling",
        "main": False,
        "label_column": 0,
        "epochs": [],
        "encounters": [
            encounter("0 h", 1, None, None, timing("hour", 0)),
            encounter("2 h", 2, None, None, timing("hour", 2)),
        ],
        "activities": [{"label": "PK blood sample", "row": 0, "group": None, "footnotes": []}],
        "groups": [],
        "marks": [
            {"activity": 0, "encounter": 0, "text": "X", "footnotes": []},
            {"activity": 0, "encounter": 1, "text": "X", "footnotes": []},
        ],
        "footnotes": [],
        "diagnostics": [],
    }


def empty_schedule() -> dict:
    """A schedule whose rows could not be read: it must add nothing."""
    return dict(pk_schedule(), name="Table 4: Unreadable", activities=[], marks=[])


def table(title, schedule=None):
    columns = ["Procedure"] + [e["label"] for e in schedule["encounters"]] if schedule else ["A"]
    t = {"title": title, "page": 5, "pages": [5, 5], "columns": columns, "data": [["x"] * len(columns)], "path": None}
    if schedule is not None:
        t["schedule"] = schedule
    return t


def node(number, title, pages, text="", subsections=(), tables=()):
    return {
        "number": number,
        "title": title,
        "level": number.count(".") + 1,
        "pages": list(pages),
        "text": text,
        "tables": list(tables),
        "images": [],
        "references": [],
        "subsections": list(subsections),
    }


def result_with(schedules: list[dict]) -> dict:
    tables = [table(s["name"], s) for s in schedules]
    soa = node("1.3", "Schedule of Activities", [4, 6], "\n\n".join(f"[{t['title']}]" for t in tables), tables=tables)
    return {
        "toc": [
            node(
                "1", "PROTOCOL SUMMARY", [3, 6], "Summary.", subsections=[node("1.1", "Synopsis", [3, 3], "Text."), soa]
            ),
            node("2", "INTRODUCTION", [7, 8], "Intro.", tables=[table("Table 5: Not a schedule")]),
        ],
        "non_toc": [node("", "Title Page", [1, 1], "Protocol")],
        "metadata": {"source": "protocol.pdf", "versions": {"clinparser": "0.1.0"}},
    }


def sample() -> dict:
    return result_with([main_schedule(), pk_schedule(), empty_schedule()])


def without_schedules(result: dict) -> dict:
    stripped = copy.deepcopy(result)
    stack = stripped["toc"] + stripped["non_toc"]
    while stack:
        n = stack.pop()
        for t in n["tables"]:
            t.pop("schedule", None)
        stack += n["subsections"]
    return stripped


@pytest.fixture(scope="module")
def usdm_schema():
    if not USDM_API.is_file():
        pytest.skip(f"USDM v4.0 API specification not available: {USDM_API} is missing (CI has ../shared/usdm)")
    return schema_validator(USDM_API)


def design() -> dict:
    return study_design(to_usdm(sample()))


def by_label(objects: list[dict]) -> dict:
    return {o["label"]: o for o in objects}


def timeline(d: dict, name: str) -> dict:
    return next(t for t in d["scheduleTimelines"] if t["name"] == name)


# --- objects and links ---------------------------------------------------------------------------
def test_one_timeline_per_readable_schedule_and_one_main():
    d = design()
    assert [(t["name"], t["mainTimeline"]) for t in d["scheduleTimelines"]] == [
        ("Table 2: Schedule of Activities", True),
        ("Table 3: Pharmacokinetic Sampling", False),
    ]
    assert [e["label"] for e in d["encounters"]] == [
        "Visit 1 / Day -3",
        "Visit 2 / Day 1",
        "Visit 3 / Day 8 (±2 days)",
        "Visit 4 / Weeks 4-6",
        "0 h",
        "2 h",
    ]
    assert [a["label"] for a in d["activities"]] == [
        "Informed consent",
        "Safety",
        "Vital signs",
        "Laboratory tests",
        "PK blood sample",
    ]
    assert [(e["name"], e["type"]["code"]) for e in d["epochs"]] == [
        ("Screening", "C202487"),
        ("Treatment Period", "C101526"),
    ]
    assert all(e["type"]["code"] == "C25716" for e in d["encounters"])  # Visit


def test_each_instance_lists_the_activities_marked_at_its_encounter():
    d = design()
    activity_label = {a["id"]: a["label"] for a in d["activities"]}
    encounter_label = {e["id"]: e["label"] for e in d["encounters"]}
    marked = {
        "Visit 1 / Day -3": ["Informed consent", "Vital signs"],
        "Visit 2 / Day 1": ["Vital signs", "Laboratory tests"],
        "Visit 3 / Day 8 (±2 days)": ["Vital signs"],
        "Visit 4 / Weeks 4-6": ["Laboratory tests"],
        "0 h": ["PK blood sample"],
        "2 h": ["PK blood sample"],
    }
    instances = [i for t in d["scheduleTimelines"] for i in t["instances"]]
    assert len(instances) == len(d["encounters"])
    assert {
        encounter_label[i["encounterId"]]: [activity_label[a] for a in i["activityIds"]] for i in instances
    } == marked
    assert all(i["timelineId"] is None for i in instances)


def test_groups_are_parents_and_rows_are_chained_in_printed_order():
    acts = by_label(design()["activities"])
    assert acts["Safety"]["childIds"] == [acts["Vital signs"]["id"], acts["Laboratory tests"]["id"]]
    assert all(acts[label]["childIds"] == [] for label in ("Informed consent", "Vital signs", "Laboratory tests"))
    order = ["Informed consent", "Safety", "Vital signs", "Laboratory tests"]
    for before, after in zip(order, order[1:]):
        assert acts[before]["nextId"] == acts[after]["id"] and acts[after]["previousId"] == acts[before]["id"]
    # Each schedule is its own sequence: no chain runs from one table's rows into another's.
    assert acts["Informed consent"]["previousId"] is None and acts["Laboratory tests"]["nextId"] is None
    assert acts["PK blood sample"]["previousId"] is None and acts["PK blood sample"]["nextId"] is None


def test_instances_epochs_and_the_timeline_chain():
    d = design()
    epoch = {e["id"]: e["name"] for e in d["epochs"]}
    main = timeline(d, "Table 2: Schedule of Activities")
    assert [epoch[i["epochId"]] for i in main["instances"]] == [
        "Screening",
        "Treatment Period",
        "Treatment Period",
        "Treatment Period",
    ]
    pk = timeline(d, "Table 3: Pharmacokinetic Sampling")
    assert [i["epochId"] for i in pk["instances"]] == [None, None]  # no epoch printed: none made up
    for t in (main, pk):
        instances = t["instances"]
        assert t["entryId"] == instances[0]["id"]
        assert [i["defaultConditionId"] for i in instances] == [i["id"] for i in instances[1:]] + [None]
        assert [i["timelineExitId"] for i in instances] == [None] * (len(instances) - 1) + [t["exits"][0]["id"]]
    epochs = d["epochs"]
    assert epochs[0]["nextId"] == epochs[1]["id"] and epochs[1]["previousId"] == epochs[0]["id"]


def test_timings_count_from_day_1_and_windows_are_durations():
    d = design()
    main = timeline(d, "Table 2: Schedule of Activities")
    enc = by_label(d["encounters"])
    instance_of = {i["encounterId"]: i["id"] for i in main["instances"]}
    timings = {t["id"]: t for t in main["timings"]}
    anchor = instance_of[enc["Visit 2 / Day 1"]["id"]]

    def timed(label):
        t = timings[enc[label]["scheduledAtId"]]
        assert t["relativeFromScheduledInstanceId"] == instance_of[enc[label]["id"]]
        assert t["relativeToScheduledInstanceId"] == anchor and t["relativeToFrom"]["decode"] == "Start to Start"
        return t["type"]["decode"], t["value"], t["windowLower"], t["windowUpper"]

    assert timed("Visit 2 / Day 1") == ("Fixed Reference", "P0D", None, None)
    assert timed("Visit 1 / Day -3") == ("Before", "P3D", None, None)  # no Day 0: Day -3 is 3 days before Day 1
    assert timed("Visit 3 / Day 8 (±2 days)") == ("After", "P7D", "P2D", "P2D")
    # A range is not one point: its text stays in the description, no Timing is claimed.
    ranged = enc["Visit 4 / Weeks 4-6"]
    assert ranged["scheduledAtId"] is None and "Weeks 4 to 6" in ranged["description"]
    assert len(timings) == 3
    assert (
        enc["Visit 3 / Day 8 (±2 days)"]["description"] == "Visit 3 / Day 8 (±2 days): Visit: 3; Day 8; Window: ±2 days"
    )
    pk = timeline(d, "Table 3: Pharmacokinetic Sampling")
    assert [(t["type"]["decode"], t["value"]) for t in pk["timings"]] == [
        ("Fixed Reference", "PT0H"),
        ("After", "PT2H"),
    ]


def test_what_cannot_be_timed_exactly_gets_no_timing():
    def timings_of(encounters):
        s = dict(pk_schedule(), encounters=encounters, marks=[])
        return [
            (t["name"], t["type"]["decode"], t["value"])
            for t in study_design(to_usdm(result_with([s])))["scheduleTimelines"][0]["timings"]
        ]

    # No Day 0/Day 1 column and no 0 in any unit: nothing to count from; the first column is only
    # where the timeline starts (USDM wants an anchor in each timeline, rule DDF00009).
    assert timings_of(
        [encounter("D-7", 1, None, None, timing("day", -7)), encounter("D8", 2, None, None, timing("day", 8))]
    ) == [("D-7: timeline start", "Fixed Reference", "P0D")]
    # Weeks against a Day 1 anchor (is Week 1 Day 7 or Day 8?) and cycle days are left out.
    assert timings_of(
        [
            encounter("D1", 1, None, None, timing("day", 1)),
            encounter("W2", 2, None, None, timing("week", 2)),
            encounter("C2D1", 3, None, None, timing("day", 1, cycle=2)),
        ]
    ) == [("Day 1", "Fixed Reference", "P0D")]
    # A printed Day 0 is the anchor, and then days count straight through it.
    assert timings_of(
        [
            encounter("D-1", 1, None, None, timing("day", -1)),
            encounter("D0", 2, None, None, timing("day", 0)),
            encounter("D1", 3, None, None, timing("day", 1)),
        ]
    ) == [("Day -1", "Before", "P1D"), ("Day 0", "Fixed Reference", "P0D"), ("Day 1", "After", "P1D")]


def test_footnotes_become_notes_and_mark_descriptions():
    d = design()
    acts = by_label(d["activities"])
    assert [n["text"] for n in acts["Vital signs"]["notes"]] == ["Seated, after 5 minutes of rest."]
    assert [n["text"] for n in acts["Safety"]["notes"]] == ["Done by the local laboratory."]
    assert acts["Informed consent"]["notes"] == []
    main = timeline(d, "Table 2: Schedule of Activities")
    descriptions = [i["description"] for i in main["instances"]]
    assert descriptions[0] is None  # plain ticks say nothing more
    assert descriptions[1] == "Vital signs: X — b: Before the first dose."  # the unknown marker "z" is left out
    assert descriptions[3] == "Laboratory tests: (X)"
    notes = [n["id"] for a in d["activities"] for n in a["notes"]]
    assert len(set(notes)) == len(notes) == 2


def test_every_reference_resolves_and_ids_are_unique():
    usdm = to_usdm(sample())
    d = study_design(usdm)
    objects = []

    def walk(value):
        if isinstance(value, dict):
            if "instanceType" in value:
                objects.append(value)
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    walk(usdm)
    ids = [o["id"] for o in objects]
    assert len(ids) == len(set(ids))
    known = set(ids)
    for o in (o for o in objects if o["instanceType"] not in ("NarrativeContent",)):
        for key, value in o.items():
            if key.endswith("Id") and key != "id" and value is not None:
                assert value in known, (o["id"], key, value)
            if key.endswith("Ids"):
                assert set(value) <= known, (o["id"], key)
    # The unreadable third schedule added nothing: 2 timelines, 6 encounters, 5 activities.
    assert (len(d["scheduleTimelines"]), len(d["encounters"]), len(d["activities"])) == (2, 6, 5)


def test_ids_are_numbered_in_document_order_and_deterministic():
    usdm = to_usdm(sample())
    d = study_design(usdm)
    assert [e["id"] for e in d["encounters"]] == [f"Encounter_{i:04d}" for i in range(1, 7)]
    assert [a["id"] for a in d["activities"]] == [f"Activity_{i:04d}" for i in range(1, 6)]
    assert [t["id"] for t in d["scheduleTimelines"]] == ["ScheduleTimeline_0001", "ScheduleTimeline_0002"]
    assert document_version(usdm)["status"]["id"] == "Code_0001"
    dump = json.dumps(usdm, ensure_ascii=False, sort_keys=True)
    assert json.dumps(to_usdm(sample()), ensure_ascii=False, sort_keys=True) == dump
    assert json.dumps(to_usdm(json.loads(json.dumps(sample()))), ensure_ascii=False) == json.dumps(
        usdm, ensure_ascii=False
    )


def test_ids_sorted_as_text_are_in_document_order_past_nine():
    # Three schedules printing the same four visits (a schedule split into captioned sub-tables):
    # 12 encounters with the same labels. Sorted as text, "Encounter_10" would come before
    # "Encounter_2"; a consumer (or a scorer) that orders ids as text must get document order.
    schedules = [dict(main_schedule(), name=f"Table 1{part}") for part in "abc"]
    d = study_design(to_usdm(result_with(schedules)))
    for key in ("encounters", "activities", "scheduleTimelines"):
        ids = [o["id"] for o in d[key]]
        assert sorted(ids) == ids, key
    assert len(d["encounters"]) == 12 and d["encounters"][9]["id"] == "Encounter_0010"
    instances = [i["id"] for t in d["scheduleTimelines"] for i in t["instances"]]
    assert len(instances) == 12 and sorted(instances) == instances


# --- nothing changes without schedules ----------------------------------------------------------
SCHEDULE_LISTS = ("epochs", "encounters", "activities", "scheduleTimelines")


def test_the_schedules_are_in_the_one_study_design_and_nothing_else_changes_without_them():
    with_schedules = to_usdm(sample())
    plain = to_usdm(without_schedules(sample()))
    # One Wrapper, no top-level studyDesign: the lists are in studyDesigns[0] (issue 47).
    assert set(with_schedules) == set(plain) == {"usdmVersion", "systemName", "systemVersion", "study"}
    assert len(with_schedules["study"]["versions"][0]["studyDesigns"]) == 1
    assert all(study_design(plain)[key] == [] for key in SCHEDULE_LISTS)
    assert [len(study_design(with_schedules)[key]) for key in SCHEDULE_LISTS] == [2, 6, 5, 2]
    assert document_version(with_schedules) == document_version(plain)
    assert narrative_items(with_schedules) == narrative_items(plain)
    # Schedules with nothing readable in them add nothing either: no empty lists, no epochs.
    assert to_usdm(result_with([empty_schedule()])) == to_usdm(without_schedules(result_with([empty_schedule()])))
    only_encounters = dict(pk_schedule(), activities=[], marks=[], epochs=[{"label": "Screening", "encounters": [0]}])
    assert all(study_design(to_usdm(result_with([only_encounters])))[key] == [] for key in SCHEDULE_LISTS)


# --- CDISC's schema -------------------------------------------------------------------------------
def test_the_design_validates_against_the_usdm_schema(usdm_schema):
    usdm = to_usdm(sample())
    assert usdm_errors(usdm, usdm_schema) == []
    assert usdm_errors(to_usdm(without_schedules(sample())), usdm_schema) == []
    # The design's objects are really checked: a missing required field is reported.
    broken = copy.deepcopy(usdm)
    del study_design(broken)["encounters"][0]["type"]
    del study_design(broken)["scheduleTimelines"][0]["instances"][1]["instanceType"]
    del study_design(broken)["scheduleTimelines"][0]["timings"][0]["relativeFromScheduledInstanceId"]
    errors = usdm_errors(broken, usdm_schema)
    assert any(e.startswith("Encounter_0001:") and "'type'" in e for e in errors)
    assert any(e.startswith("ScheduleTimeline_0001: instances/1") for e in errors)
    assert any(
        e.startswith("ScheduleTimeline_0001: timings/0") and "relativeFromScheduledInstanceId" in e for e in errors
    )


# --- any schedule the contract allows ------------------------------------------------------------

UNITS = ["minute", "hour", "day", "week", "month", "year"]
labels = st.text(alphabet="ab ±-/1X\u00e9", max_size=8)
markers = st.lists(st.sampled_from(["a", "b", "z"]), max_size=2)


@st.composite
def schedules(draw):
    n_enc, n_act = draw(st.integers(0, 4)), draw(st.integers(0, 4))

    def a_timing():
        low = draw(st.integers(-3, 3))
        return draw(
            st.none()
            | st.just(
                timing(
                    draw(st.sampled_from(UNITS)),
                    low,
                    low + draw(st.integers(0, 1)),
                    draw(st.none() | st.integers(1, 2)),
                )
            )
        )

    def a_window():
        return draw(
            st.none()
            | st.builds(
                lambda b, a, u: {"text": f"-{b}/+{a}", "before": b, "after": a, "unit": u},
                st.none() | st.integers(0, 3),
                st.integers(0, 3),
                st.sampled_from(UNITS),
            )
        )

    encounters = [
        encounter(draw(labels), i + 1, None, draw(st.none() | labels), a_timing(), a_window()) for i in range(n_enc)
    ]
    n_groups = draw(st.integers(0, 2))
    group_labels = [draw(labels) for _ in range(n_groups)]
    rows = draw(st.permutations(list(range(n_act + n_groups))))
    groups = [{"label": group_labels[i], "row": rows[i], "footnotes": draw(markers)} for i in range(n_groups)]
    activities = [
        {
            "label": draw(labels),
            "row": rows[n_groups + i],
            "group": draw(st.none() | st.sampled_from(group_labels or [None])),
            "footnotes": draw(markers),
        }
        for i in range(n_act)
    ]
    cells = [(a, e) for a in range(n_act) for e in range(n_enc)]
    marks = (
        [
            {
                "activity": a,
                "encounter": e,
                "text": draw(st.sampled_from(["X", "x", "(X)", "C"])),
                "footnotes": draw(markers),
            }
            for a, e in draw(st.lists(st.sampled_from(cells), unique=True))
        ]
        if cells
        else []
    )
    split = draw(st.integers(0, n_enc))
    epochs = draw(
        st.sampled_from(
            [
                [],
                [
                    {"label": "Screening", "encounters": list(range(split))},
                    {"label": draw(labels), "encounters": list(range(split, n_enc))},
                ],
            ]
        )
    )
    return {
        "name": draw(labels),
        "main": draw(st.booleans()),
        "label_column": 0,
        "epochs": epochs,
        "encounters": encounters,
        "activities": activities,
        "groups": groups,
        "marks": marks,
        "footnotes": FOOTNOTES[:2],
        "diagnostics": [],
    }


@settings(max_examples=150, deadline=None)
@given(st.lists(schedules(), min_size=1, max_size=3))
def test_any_schedule_gives_valid_linked_usdm(usdm_schema, drawn):
    usdm = to_usdm(result_with(drawn))
    assert usdm_errors(usdm, usdm_schema) == []
    readable = [s for s in drawn if s["encounters"] and s["activities"]]
    d = study_design(usdm)
    assert len(d.get("scheduleTimelines", [])) == len(readable)
    if readable:  # one main timeline, each with an anchor; one chain of encounters and of epochs
        assert sum(t["mainTimeline"] for t in d["scheduleTimelines"]) == 1
        for t in d["scheduleTimelines"]:
            assert any(x["type"]["decode"] == "Fixed Reference" for x in t["timings"])
        for key in ("encounters", "epochs"):
            assert sum(o["previousId"] is None for o in d[key]) == (1 if d[key] else 0)
    for key in ("encounters", "activities", "epochs"):
        names = [o["name"] for o in d[key]]
        assert len(set(names)) == len(names)
    assert len(d.get("encounters", [])) == sum(len(s["encounters"]) for s in readable)
    ids = {o["id"] for key in ("epochs", "encounters", "activities") for o in d.get(key, [])}
    for t, s in zip(d.get("scheduleTimelines", []), readable):
        ids |= {i["id"] for i in t["instances"]} | {x["id"] for x in t["timings"]} | {x["id"] for x in t["exits"]}
        for e, instance in enumerate(t["instances"]):  # one id per activity marked in the column
            marked = {m["activity"] for m in s["marks"] if m["encounter"] == e}
            assert len(set(instance["activityIds"])) == len(instance["activityIds"]) == len(marked)
        refs = [
            i[k]
            for i in t["instances"]
            for k in ("defaultConditionId", "epochId", "encounterId", "timelineExitId")
            if i[k]
        ]
        refs += [i for x in t["instances"] for i in x["activityIds"]] + [t["entryId"]]
        refs += [
            x[k] for x in t["timings"] for k in ("relativeFromScheduledInstanceId", "relativeToScheduledInstanceId")
        ]
        assert set(refs) <= ids
    refs = [c for a in d.get("activities", []) for c in a["childIds"]] + [
        e["scheduledAtId"] for e in d.get("encounters", []) if e["scheduledAtId"]
    ]
    assert set(refs) <= ids


def test_the_short_label_is_the_label_the_path_the_name_and_time_points_are_described():
    """issue 27: Encounter.label is the column's short label, the header path its name and the
    start of its description; a visit's time points are in its description and each mark's
    line says at which it is made; the timeline's kind is its description."""
    schedule = main_schedule()
    for e in schedule["encounters"]:
        e["short_label"] = e["label"].split(" / ")[-1]
        e["timepoints"] = []
    schedule["encounters"][1]["timepoints"] = [{"label": "SOI", "column": 2}, {"label": "EOI", "column": 3}]
    schedule["marks"] = [dict(m, timepoints=[]) for m in schedule["marks"]]
    schedule["marks"][2]["timepoints"] = ["SOI", "EOI"]  # Vital signs at Visit 2
    schedule["kind"] = "main"
    pk = dict(pk_schedule(), kind="pk_pd")
    d = study_design(to_usdm(result_with([schedule, pk])))
    first = d["encounters"][1]
    assert (first["label"], first["name"]) == ("Day 1", "Visit 2 / Day 1")
    assert first["description"] == "Visit 2 / Day 1: Visit: 2; Day 1; Time points: SOI, EOI"
    main = timeline(d, "Table 2: Schedule of Activities")
    assert main["instances"][1]["description"].startswith("Vital signs: X at SOI, EOI — b: ")
    assert [t["description"] for t in d["scheduleTimelines"]] == ["Main timeline", "PK/PD sampling timeline"]


# --- what USDM's rules (usdm4) ask of a design that holds several schedules ------------------------
def test_exactly_one_main_timeline():
    def mains(*schedules):
        return [t["mainTimeline"] for t in study_design(to_usdm(result_with(list(schedules))))["scheduleTimelines"]]

    flagged, pk = main_schedule(), pk_schedule()
    assert mains(pk, flagged) == [False, True]  # the parser's flag
    assert mains(dict(flagged, name="A"), dict(flagged, name="B")) == [True, False]  # the first flagged
    unflagged = dict(flagged, main=False)
    assert mains(dict(pk, kind="pk_pd"), dict(unflagged, kind="main")) == [False, True]  # else the kind main
    assert mains(dict(pk, kind="pk_pd"), dict(unflagged, kind=None)) == [False, True]  # else one of no other kind
    assert mains(dict(pk, kind="pk_pd"), dict(unflagged, kind="extension")) == [True, False]  # else the first


def test_encounters_and_epochs_form_one_chain_across_schedules_and_names_are_unique():
    second = dict(main_schedule(), name="Table 2b: Schedule of Activities (continued)", main=False)
    d = study_design(to_usdm(result_with([main_schedule(), second])))
    for key in ("encounters", "epochs"):
        objects = d[key]
        assert [o["previousId"] for o in objects] == [None] + [o["id"] for o in objects[:-1]]
        assert [o["nextId"] for o in objects] == [o["id"] for o in objects[1:]] + [None]
    # the second table's "Visit 1 / Day -3" is named apart; its label stays as printed
    names = [e["name"] for e in d["encounters"]]
    assert names[4] == "Visit 1 / Day -3 (2)" and d["encounters"][4]["label"] == "Visit 1 / Day -3"
    for key in ("encounters", "activities", "epochs"):
        assert len({o["name"] for o in d[key]}) == len(d[key]), key
    instance_names = [i["name"] for t in d["scheduleTimelines"] for i in t["instances"]]
    timing_names = [x["name"] for t in d["scheduleTimelines"] for x in t["timings"]]
    assert len(set(instance_names)) == len(instance_names) and len(set(timing_names)) == len(timing_names)


def test_schedules_printing_the_same_epoch_share_it_and_other_labels_stay_apart():
    side = dict(
        main_schedule(),
        name="Table 6: Biomarker Sampling",
        main=False,
        epochs=[{"label": "treatment  period", "encounters": [1, 2]}, {"label": "Extension", "encounters": [3]}],
    )
    d = study_design(to_usdm(result_with([main_schedule(), side])))
    assert [e["name"] for e in d["epochs"]] == ["Screening", "Treatment Period", "Extension"]
    first, second = d["scheduleTimelines"][0]["instances"], d["scheduleTimelines"][1]["instances"]
    assert [i["epochId"] for i in second[1:]] == [first[1]["epochId"], first[2]["epochId"], d["epochs"][2]["id"]]


def test_an_epoch_printed_as_an_abbreviation_is_described_by_the_tables_legend():
    main = dict(
        main_schedule(),
        epochs=[{"label": "SCR", "encounters": [0]}, {"label": "Treatment Period", "encounters": [1, 2, 3]}],
        abbreviations=[
            {"abbreviation": "AE", "expansion": "adverse event"},
            {"abbreviation": "SCR", "expansion": "screening"},
        ],
    )
    d = study_design(to_usdm(result_with([main])))
    assert [(e["name"], e["description"]) for e in d["epochs"]] == [("SCR", "screening"), ("Treatment Period", None)]
    assert d["epochs"][0]["type"]["decode"] == "Screening Epoch"  # typed by its spelled-out words


def test_contact_modes_and_settings_as_the_published_files_code_visits():
    schedule = dict(
        main_schedule(),
        encounters=[
            encounter("Visit 1 / Day -3", 1, None, "1", timing("day", -3)),
            encounter("Follow-up phone call", 2, None, None, timing("day", 30)),
            encounter("Week 8 TC", 3, None, None, timing("week", 8)),
            encounter("Telehealth visit", 4, None, None, None),
            encounter("Home visit / Day 15", 5, None, None, timing("day", 15)),
        ],
        epochs=[],
        marks=[{"activity": 0, "encounter": e, "text": "X", "footnotes": []} for e in range(5)],
    )
    d = study_design(to_usdm(result_with([schedule])))
    got = [
        ([c["decode"] for c in e["contactModes"]], [c["decode"] for c in e["environmentalSettings"]])
        for e in d["encounters"]
    ]
    assert got == [
        (["In Person"], ["Clinic"]),
        (["Telephone Call"], []),
        (["Telephone Call"], []),
        (["Audio-Videoconferencing"], []),
        (["In Person"], ["Home"]),
    ]
    assert (
        d["encounters"][0]["contactModes"][0]["code"] == "C175574"
        and d["encounters"][0]["environmentalSettings"][0]["code"] == "C211570"
    )


def test_a_side_timeline_runs_within_the_main_visits_it_names():
    """The PK table's columns are time points within Visit 2 (main_encounter 1): Visit 2's
    instance runs the PK timeline, and the PK encounters say whose visit they are."""
    pk = pk_schedule()
    for e in pk["encounters"]:
        e["main_encounter"] = 1
    d = study_design(to_usdm(result_with([main_schedule(), pk])))
    main, side = timeline(d, "Table 2: Schedule of Activities"), timeline(d, "Table 3: Pharmacokinetic Sampling")
    assert [i["timelineId"] for i in main["instances"]] == [None, side["id"], None, None]
    assert all(i["timelineId"] is None for i in side["instances"])
    pk_encounters = [e for e in d["encounters"] if e["label"] in ("0 h", "2 h")]
    assert [e["description"].endswith("within the main timeline's visit 'Visit 2 / Day 1'") for e in pk_encounters] == [
        True,
        True,
    ]


def test_a_side_timeline_naming_no_main_visit_runs_nowhere():
    d = design()  # the sample's PK columns carry no main_encounter
    assert all(i["timelineId"] is None for t in d["scheduleTimelines"] for i in t["instances"])


def test_the_anchor_has_no_window_and_says_the_printed_one_in_words():
    # USDM: an anchor (Fixed Reference) timing has no window (DDF00025); the schedule printed one
    s = dict(
        pk_schedule(),
        marks=[],
        encounters=[
            encounter(
                "Day 1 (±1 day)",
                1,
                None,
                None,
                timing("day", 1),
                {"text": "±1 day", "before": 1, "after": 1, "unit": "day"},
            ),
            encounter(
                "Day 8 (±2 days)",
                2,
                None,
                None,
                timing("day", 8),
                {"text": "±2 days", "before": 2, "after": 2, "unit": "day"},
            ),
        ],
    )
    timings = study_design(to_usdm(result_with([s])))["scheduleTimelines"][0]["timings"]
    anchor, later = timings
    assert anchor["type"]["decode"] == "Fixed Reference"
    assert (anchor["windowLower"], anchor["windowUpper"], anchor["windowLabel"]) == (None, None, None)
    assert "printed with the window ±1 day" in anchor["description"]
    assert (later["windowLower"], later["windowUpper"], later["windowLabel"]) == ("P2D", "P2D", "±2 days")
