"""The schedules of activities as USDM v4.0 study-design objects.

``schedule_design(schedules)`` turns the ``schedule`` objects the parser attaches to schedule
tables (see the issue 17 contract: epochs, encounters, activities, groups, marks, footnotes), in
document order, into the four lists a USDM ``StudyDesign`` holds::

    {"epochs": [StudyEpoch...], "encounters": [Encounter...], "activities": [Activity...],
     "scheduleTimelines": [ScheduleTimeline...]}     # {} when no schedule gives anything

``to_usdm`` puts the lists into the one ``study.versions[0].studyDesigns[0]`` of its Wrapper,
beside the eligibility criteria and objectives (``usdm_study.study_usdm``); each object validates
against its ``*-Input`` schema (``design_errors``) and the usdm4 rules engine's checks
(``benchmarks/usdm_check.py``). The shapes follow the published CDISC pilot and Alexion USDM files.

Decisions:

- **One timeline per schedule**, named by ``schedule.name``; its ``description`` is its kind
  ("PK/PD sampling timeline"; USDM has no attribute for it). A design has exactly one main
  timeline (USDM rule DDF00012): the first schedule the parser flagged ``main``, else the first of
  kind ``main``, else the first of no other kind, else the first. A schedule with no encounter or
  no activity gives nothing (no timeline, epoch or activity, so no id points at what is not there).
- **Names** are as printed; the export makes them unique per class across the whole Wrapper at
  the end (``usdm.unique_names``: a later "Day 1" of another table is "Day 1 (2)"), as USDM rule
  DDF00010 asks. Labels stay as printed.
- **Epochs**: one ``StudyEpoch`` per printed epoch of a schedule. A schedule that prints none
  gives none, and its instances have ``epochId`` null (the schema allows it): an epoch ClinParser
  made up would be a claim the protocol does not print. Schedules printing the same label (case,
  spaces and punctuation aside: a side table repeating the main one's "Treatment Cycles") share
  one epoch, as a study has each period once; differently printed labels stay apart (nothing
  here decides that "Treatment" and "Double-blind Treatment" are one period). The epochs of
  all schedules form one ``previousId``/``nextId`` chain in document order (USDM wants one chain
  per design). The epoch
  ``type`` is CDISC's term where the label says it (screening, run-in, follow-up, treatment;
  codes as the published files have them), else ``Other`` (C17649). An epoch printed as an
  abbreviation the table's legend spells out ("C-I = check-in") has the spelled-out words as its
  ``description``.
- **Encounters**: ``label`` is the column's short label as printed ("Day 8", "EOT", "Week 4");
  ``name`` the whole header path; ``type`` ``Visit`` (C25716) for all; ``description`` the path,
  then the visit, the timing, the window and the time points within the visit as read
  ("Treatment / Cycle 1 / D8 (±1): Day 8; Window: ±1 day"). The encounters of all schedules form
  one ``previousId``/``nextId`` chain in document order. ``contactModes`` and
  ``environmentalSettings`` (USDM rules DDF00136/DDF00157 want both lists) as the published
  Alexion file codes its visits: a column whose header names a telephone call is ``Telephone
  Call`` (C171537) with no setting; one naming a video or telehealth visit ``Audio-Videoconferencing``
  (C171525) with no setting; a home visit ``In Person`` (C175574) at ``Home`` (C18002); any other
  column, a visit on site, ``In Person`` at a ``Clinic`` (C211570).
- **Activities**: one per activity row; a group row is a parent ``Activity`` whose ``childIds``
  are the rows under it, in order. All are in row order (parent before its children), chained by
  ``previousId``/``nextId``. A label's footnotes become its ``notes`` (``CommentAnnotation``).
- **Instances**: one ``ScheduledActivityInstance`` per encounter, in column order, with the
  activities marked in that column (row order), ``encounterId``, ``epochId``, ``timelineId`` (the
  sub-timeline the instance runs: the first side timeline, PK sampling say, whose columns are this
  visit or time points within it, by their ``main_encounter``; else null), ``defaultConditionId`` the next
  instance; the last one has none and leads to the timeline's one ``ScheduleTimelineExit``.
  An instance has no ``notes`` in USDM v4, so a mark's footnotes, and a mark that is more than a
  tick, go to its ``description`` ("Vital signs: X — a: Within 42 days …").
- **Timings** are written only where they can be exact. The anchor is the column at Day 0 if one
  is printed, else at Day 1 (then there is no Day 0, the ICH/CDISC convention: Day -1 is the day
  before Day 1), else at 0 in another unit (Week 0, Hour 0). A column at a single point in the
  anchor's unit (no cycle) gets a ``Timing`` from its instance to the anchor's: ``Before`` /
  ``After`` / ``Fixed Reference`` (the anchor), value an ISO 8601 duration ("P2W"),
  ``Start to Start``, and its window as ``windowLower``/``windowUpper`` ("P3D" each side) when
  both sides and the unit were read. A range ("Days -28 to -1"), a cycle day, another unit
  (weeks against a Day 1 anchor: whether Week 1 is Day 7 or Day 8 is the protocol's convention)
  or a schedule without an anchor column keep the text in the encounter's description only.
  Each timeline has an anchor (USDM rule DDF00009): without a Day 0/1 column its first column gets
  a ``Fixed Reference`` timing ("P0D") that says it is only where the timeline starts.
- **Ids** are ``<Class>_nnnn`` (``usdm_terms.usdm_id``: zero-padded, so that ids sorted as text
  are in document order), numbered in document order across all schedules (``Code_n`` from
  ``first_code``, after the document version's status), so the same result gives the same bytes.
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Iterable, Optional

from ..document_types import Schedule
from .usdm_terms import Ids, code, note

__all__ = ["schedule_design", "design_errors", "DESIGN_SCHEMAS"]

VISIT = ("C25716", "Visit")
IN_PERSON, TELEPHONE, VIDEO = (
    ("C175574", "In Person"),
    ("C171537", "Telephone Call"),
    ("C171525", "Audio-Videoconferencing"),
)
CLINIC, HOME = ("C211570", "Clinic"), ("C18002", "Home")
# How a visit is held, by its header (first match wins): (pattern, contact mode, setting or None).
CONTACTS = [
    (re.compile(r"(?i:\b(?:tele)?phone\b|\bcall\b)|\bTC\b"), TELEPHONE, None),
    (re.compile(r"\bvideo\b|\btele[- ]?(?:health|medicine|visit)\b|\bvirtual\b", re.I), VIDEO, None),
    (re.compile(r"\bhome\b", re.I), IN_PERSON, HOME),
]
BEFORE, AFTER, FIXED = ("C201357", "Before"), ("C201356", "After"), ("C201358", "Fixed Reference")
START_TO_START = ("C201355", "Start to Start")
OTHER_EPOCH = ("C17649", "Other")
# First match wins: "post-treatment follow-up" is a follow-up; "pre-treatment" is not treatment.
EPOCH_TYPES = [
    (re.compile(r"\bfollow[- ]?up\b", re.I), ("C202578", "Follow-Up Epoch")),
    (re.compile(r"\bscreening\b", re.I), ("C202487", "Screening Epoch")),
    (re.compile(r"\brun[- ]?in\b", re.I), ("C98779", "Run-in Period")),
    (re.compile(r"(?<![-\w])treatment\b", re.I), ("C101526", "Treatment Epoch")),
]
# ISO 8601 duration of n units: (prefix, designator).
DURATION = {
    "year": ("P", "Y"),
    "month": ("P", "M"),
    "week": ("P", "W"),
    "day": ("P", "D"),
    "hour": ("PT", "H"),
    "minute": ("PT", "M"),
}
# A schedule's kind (schedule/kinds.py) as the timeline's description.
TIMELINE_KINDS = {
    "main": "Main timeline",
    "pk_pd": "PK/PD sampling timeline",
    "extension": "Extension timeline",
    "follow_up": "Follow-up timeline",
    "other": "Other timeline",
}
PLAIN_MARKS = {"x", "✓", "✔", "√", "●", "•"}  # a tick says "done here" and nothing more

#: Which schema each list of the design validates against.
DESIGN_SCHEMAS = {
    "epochs": "StudyEpoch-Input",
    "encounters": "Encounter-Input",
    "activities": "Activity-Input",
    "scheduleTimelines": "ScheduleTimeline-Input",
}


def _chain(objects: list[dict]) -> None:
    for before, after in zip(objects, objects[1:]):
        before["nextId"], after["previousId"] = after["id"], before["id"]


def _text(value) -> str:
    return " ".join(str(value or "").split())


# --- numbers and durations ---------------------------------------------------------------------
def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _num(value) -> str:
    """2 -> "2", 2.0 -> "2", 0.5 -> "0.5" (ISO 8601 allows a fraction in the last part)."""
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def _duration(amount, unit: str) -> str:
    prefix, designator = DURATION[unit]
    return f"{prefix}{_num(abs(amount))}{designator}"


def _amount_label(amount, unit: str) -> str:
    amount = abs(amount)
    return f"{_num(amount)} {unit}{'' if amount == 1 else 's'}"


def _timing_text(timing: Optional[dict]) -> str:
    """The read timing in words: "Week -2", "Days -28 to -1", "Cycle 2, Day 1"."""
    if not timing or timing.get("unit") not in DURATION or not _is_number(timing.get("from")):
        return ""
    unit, low = timing["unit"].capitalize(), timing["from"]
    high = timing.get("to") if _is_number(timing.get("to")) else low
    text = f"{unit} {_num(low)}" if high == low else f"{unit}s {_num(low)} to {_num(high)}"
    return f"Cycle {timing['cycle']}, {text}" if timing.get("cycle") is not None else text


# --- timings -------------------------------------------------------------------------------------
def _point(encounter: dict) -> Optional[tuple[str, float]]:
    """(unit, value) of a column read as one point outside any cycle, else None."""
    timing = encounter.get("timing") or {}
    low, high = timing.get("from"), timing.get("to")
    if timing.get("unit") not in DURATION or timing.get("cycle") is not None or not _is_number(low):
        return None
    if high is not None and high != low:
        return None
    return timing["unit"], low


def _anchor(encounters: list[dict]) -> Optional[tuple[int, str, float]]:
    """(encounter index, unit, value) of the column the timings count from (module docstring)."""
    points = [(i, p) for i, e in enumerate(encounters) if (p := _point(e))]
    for wanted in (("day", 0), ("day", 1)):
        found = next((i for i, p in points if p == wanted), None)
        if found is not None:
            return found, *wanted
    return next(((i, p[0], 0) for i, p in points if p[1] == 0), None)


def _offset(value: float, anchor: tuple[int, str, float]) -> Optional[float]:
    """How many anchor units after the anchor (negative: before); None when not exact."""
    _, unit, zero = anchor
    if unit == "day" and zero == 1:  # no Day 0: Day -1 is the day before Day 1
        if not float(value).is_integer():
            return None
        return value - 1 if value >= 1 else value
    return value - zero


def _window(window: Optional[dict]) -> dict:
    """windowLower/Upper/Label of a read window; all null unless both sides and the unit are known."""
    w = window or {}
    before, after, unit = w.get("before"), w.get("after"), w.get("unit")
    if not (_is_number(before) and _is_number(after) and before >= 0 and after >= 0 and unit in DURATION):
        return {"windowLower": None, "windowUpper": None, "windowLabel": None}
    return {
        "windowLower": _duration(before, unit),
        "windowUpper": _duration(after, unit),
        "windowLabel": _text(w.get("text")) or None,
    }


def _timings(encounters: list[dict], instance_ids: list[str], ids: Ids) -> dict[int, dict]:
    """encounter index -> its Timing, for the columns that can be timed exactly."""
    anchor = _anchor(encounters)
    if anchor is None:  # the timeline still needs an anchor (DDF00009): where it starts
        text = _text(encounters[0].get("short_label")) or _text(encounters[0].get("label")) or "First column"
        return {
            0: {
                "id": ids("Timing"),
                "name": f"{text}: timeline start",
                "label": _text(encounters[0].get("label")) or None,
                "description": "The timeline's first column as its reference point: "
                "no column at Day 0 or Day 1 was read, so no other column is timed from it",
                "type": code(ids, FIXED),
                "value": "P0D",
                "valueLabel": "0 days",
                "relativeToFrom": code(ids, START_TO_START),
                "relativeFromScheduledInstanceId": instance_ids[0],
                "relativeToScheduledInstanceId": instance_ids[0],
                **_window(None),
                "instanceType": "Timing",
            }
        }
    index, unit, _ = anchor
    anchor_text = _timing_text(encounters[index]["timing"])
    out: dict[int, dict] = {}
    for i, encounter in enumerate(encounters):
        point = _point(encounter)
        offset = _offset(point[1], anchor) if point and point[0] == unit else None
        if offset is None:
            continue
        kind = FIXED if i == index else BEFORE if offset < 0 else AFTER
        amount = _amount_label(offset, unit)
        text = _timing_text(encounter["timing"])
        relation = "the anchor" if i == index else f"{amount} {kind[1].lower()} {anchor_text}"
        window = _window(encounter.get("window"))
        if i == index and window["windowLower"]:
            # the anchor has no window in USDM (DDF00025): the one printed over its column is said in words
            relation += f", printed with the window {window['windowLabel'] or 'of its column'}"
            window = _window(None)
        out[i] = {
            "id": ids("Timing"),
            "name": text,
            "label": _text(encounter.get("label")) or None,
            "description": f"{text}: {relation}",
            "type": code(ids, kind),
            "value": _duration(offset, unit),
            "valueLabel": amount,
            "relativeToFrom": code(ids, START_TO_START),
            "relativeFromScheduledInstanceId": instance_ids[i],
            "relativeToScheduledInstanceId": instance_ids[index],
            **window,
            "instanceType": "Timing",
        }
    return out


# --- the objects of one schedule -----------------------------------------------------------------
def _epochs(schedule: dict, ids: Ids, known: list[dict]) -> tuple[list[dict], dict[int, str]]:
    """The schedule's new StudyEpochs and encounter index -> epoch id; an epoch labelled as one of
    ``known`` (the epochs of the schedules before) is that epoch."""
    epochs, of_encounter = [], {}
    by_label: dict[str, list[str]] = defaultdict(list)
    shared = {_epoch_key(e.get("label")): e["id"] for e in known if _epoch_key(e.get("label"))}
    legend = {_text(a.get("abbreviation")): _text(a.get("expansion")) for a in schedule.get("abbreviations") or []}
    for n, epoch in enumerate(schedule.get("epochs") or [], start=1):
        label = _text(epoch.get("label"))
        eid = shared.get(_epoch_key(label)) if label else None
        if eid is None:
            said = f"{label} {legend.get(label) or ''}"  # "FU" spelled out as "follow-up" types it too
            term = next((t for pattern, t in EPOCH_TYPES if pattern.search(said)), OTHER_EPOCH)
            eid = ids("StudyEpoch")
            epochs.append(
                {
                    "id": eid,
                    "name": label or f"Epoch {n}",
                    "label": label or None,
                    # an epoch printed as an abbreviation ("C-I") is described by the table's legend
                    "description": legend.get(label) or None,
                    "type": code(ids, term),
                    "previousId": None,
                    "nextId": None,
                    "notes": [],
                    "instanceType": "StudyEpoch",
                }
            )
            if label:
                shared[_epoch_key(label)] = eid
        if eid not in by_label[label]:
            by_label[label].append(eid)
        for index in epoch.get("encounters") or []:
            of_encounter.setdefault(index, eid)
    for i, encounter in enumerate(schedule.get("encounters") or []):
        named = by_label.get(_text(encounter.get("epoch")), [])
        if i not in of_encounter and len(named) == 1:  # listed by label only
            of_encounter[i] = named[0]
    return epochs, of_encounter  # chained with the other schedules' in schedule_design


def _epoch_key(label: object) -> str:
    """ "OL Long Term Follow- up" and "OL Long Term Follow-up" are one label."""
    return re.sub(r"[^a-z0-9]+", "", _text(label).lower())


def _encounter_description(encounter: dict) -> Optional[str]:
    """The printed header path, then what was read of it: "Treatment / Cycle 1 / D8 (±1): Day 8;
    Window: ±1", with the time points within the visit."""
    window = _text((encounter.get("window") or {}).get("text"))
    points = [_text(p.get("label")) for p in encounter.get("timepoints") or []]
    parts = [
        f"Visit: {_text(encounter['visit'])}" if _text(encounter.get("visit")) else "",
        _timing_text(encounter.get("timing")),
        f"Window: {window}" if window else "",
        f"Time points: {', '.join(points)}" if points else "",
    ]
    read = "; ".join(p for p in parts if p)
    path = _text(encounter.get("label"))
    return f"{path}: {read}" if path and read else path or read or None


def _contact(encounter: dict, ids: Ids) -> dict:
    """contactModes and environmentalSettings of a column, by what its header says (docstring)."""
    said = " ".join(_text(encounter.get(k)) for k in ("label", "short_label", "visit"))
    mode, setting = next(((m, s) for pattern, m, s in CONTACTS if pattern.search(said)), (IN_PERSON, CLINIC))
    return {"contactModes": [code(ids, mode)], "environmentalSettings": [code(ids, setting)] if setting else []}


def _footnote_texts(markers: Iterable[str], footnotes: dict[str, str]) -> list[tuple[str, str]]:
    """(marker, text) of each marker printed below the table; unknown markers are left out."""
    return [(m, footnotes[m]) for m in markers or [] if m in footnotes]


def _activities(schedule: dict, footnotes: dict[str, str], ids: Ids) -> tuple[list[dict], list[str]]:
    """The Activities in row order (a group before its rows) and each activity's id (by index)."""
    groups, activities = schedule.get("groups") or [], schedule["activities"]
    rows = [(None, g) for g in groups] + list(enumerate(activities))  # (activity index or None, row)
    rows.sort(key=lambda r: r[1].get("row") if isinstance(r[1].get("row"), int) else float("inf"))
    objects: list[dict] = []
    activity_ids: list[str] = [""] * len(activities)
    last_group: dict[str, dict] = {}  # group label -> its Activity, the latest one above
    for index, row in rows:
        label = _text(row.get("label"))
        aid = ids("Activity")
        obj = {
            "id": aid,
            "name": label or f"Row {row.get('row')}",
            "label": label or None,
            "description": None,
            "previousId": None,
            "nextId": None,
            "childIds": [],
            "timelineId": None,
            "notes": [note(ids, text) for _, text in _footnote_texts(row.get("footnotes"), footnotes)],
            "instanceType": "Activity",
        }
        objects.append(obj)
        if index is None:
            last_group[label] = obj
            continue
        activity_ids[index] = aid
        parent = last_group.get(_text(row.get("group"))) if row.get("group") is not None else None
        if parent is not None:
            parent["childIds"].append(aid)
    _chain(objects)
    return objects, activity_ids


def _mark_line(mark: dict, activity: dict, footnotes: dict[str, str]) -> str:
    """ "Vital signs: X — a: Within 42 days …" for a mark with footnotes or more than a tick."""
    text = _text(mark.get("text"))
    notes = _footnote_texts(mark.get("footnotes"), footnotes)
    points = [_text(p) for p in mark.get("timepoints") or [] if p]
    if not notes and not points and text.lower() in PLAIN_MARKS | {""}:
        return ""
    line = f"{_text(activity.get('label'))}: {text}" + (f" at {', '.join(points)}" if points else "")
    return line + "".join(f" — {m}: {_text(t)}" for m, t in notes)


def _add_schedule(design: dict, schedule: dict, ids: Ids, n: int) -> None:
    encounters, activities = schedule.get("encounters") or [], schedule.get("activities") or []
    if not encounters or not activities:
        return
    footnotes: dict[str, str] = {}
    for f in schedule.get("footnotes") or []:
        footnotes.setdefault(str(f.get("marker")), _text(f.get("text")))

    timeline_id = ids("ScheduleTimeline")
    epochs, epoch_of = _epochs(schedule, ids, design["epochs"])
    activity_objects, activity_ids = _activities(schedule, footnotes, ids)
    encounter_ids = [ids("Encounter") for _ in encounters]
    instance_ids = [ids("ScheduledActivityInstance") for _ in encounters]
    exit_id = ids("ScheduleTimelineExit")
    timings = _timings(encounters, instance_ids, ids)

    marked: dict[int, set[int]] = defaultdict(set)
    lines: dict[int, list[tuple[int, str]]] = defaultdict(list)  # encounter -> (activity, line)
    for mark in schedule.get("marks") or []:
        a, e = mark.get("activity"), mark.get("encounter")
        if not (isinstance(a, int) and isinstance(e, int) and 0 <= a < len(activities) and 0 <= e < len(encounters)):
            continue  # a mark pointing nowhere would give a dangling id
        marked[e].add(a)
        if line := _mark_line(mark, activities[a], footnotes):
            lines[e].append((a, line))

    encounter_objects, instances = [], []
    for i, encounter in enumerate(encounters):
        path = _text(encounter.get("label"))
        label = _text(encounter.get("short_label")) or path
        name = path or f"Column {encounter.get('column')}"
        encounter_objects.append(
            {
                "id": encounter_ids[i],
                "name": name,
                "label": label or None,
                "description": _encounter_description(encounter),
                "type": code(ids, VISIT),
                "previousId": None,
                "nextId": None,
                "scheduledAtId": timings[i]["id"] if i in timings else None,
                **_contact(encounter, ids),
                "notes": [],
                "instanceType": "Encounter",
            }
        )
        last = i == len(encounters) - 1
        instances.append(
            {
                "id": instance_ids[i],
                "name": name,
                "label": label or None,
                "description": "\n".join(line for _, line in sorted(lines[i])) or None,
                "defaultConditionId": None if last else instance_ids[i + 1],
                "epochId": epoch_of.get(i),
                "timelineId": None,
                "timelineExitId": exit_id if last else None,
                "activityIds": [activity_ids[a] for a in sorted(marked[i])],
                "encounterId": encounter_ids[i],
                "instanceType": "ScheduledActivityInstance",
            }
        )
    name = _text(schedule.get("name")) or f"Schedule {n}"
    design["epochs"] += epochs
    design["encounters"] += encounter_objects
    design["activities"] += activity_objects
    design["scheduleTimelines"].append(
        {
            "id": timeline_id,
            "name": name,
            "label": name,
            "description": TIMELINE_KINDS.get(schedule.get("kind")),
            "mainTimeline": False,  # set for one timeline in schedule_design
            "entryCondition": "",  # the protocol's entry condition is not read; the schema needs the key
            "entryId": instance_ids[0],
            "exits": [{"id": exit_id, "instanceType": "ScheduleTimelineExit"}],
            "timings": [timings[i] for i in sorted(timings)],
            "instances": instances,
            "plannedDuration": None,
            "instanceType": "ScheduleTimeline",
        }
    )


def _main_index(schedules: list[dict]) -> int:
    """Which timeline is the design's main one (module docstring)."""
    tests = (
        lambda s: bool(s.get("main")),
        lambda s: s.get("kind") == "main",
        lambda s: s.get("kind") in (None, "other"),
        lambda s: True,
    )
    return next(i for test in tests for i, s in enumerate(schedules) if test(s))


def schedule_design(schedules: Iterable[Schedule], first_code: int = 2) -> dict:
    """The schedules (document order) as USDM study-design lists; {} when none gives anything."""
    design: dict = {key: [] for key in DESIGN_SCHEMAS}
    ids = Ids({"Code": first_code})
    used: list[dict] = []  # the schedules that gave a timeline, in its order
    for n, schedule in enumerate(schedules, start=1):
        before = len(design["scheduleTimelines"])
        _add_schedule(design, schedule, ids, n)
        if len(design["scheduleTimelines"]) > before:
            used.append(schedule)
    if not used:
        return {}
    main = _main_index(used)
    design["scheduleTimelines"][main]["mainTimeline"] = True
    _link_side_timelines(design["scheduleTimelines"], used, main, design["encounters"])
    _chain(design["epochs"])  # one chain each per design (USDM rules DDF00087/DDF00088)
    _chain(design["encounters"])
    return design


def _link_side_timelines(timelines: list[dict], schedules: list[dict], main: int, encounters: list[dict]) -> None:
    """A side timeline whose columns are visits of the main one (``main_encounter``) runs within
    them: each such main instance names the first side timeline as its sub-timeline
    (``timelineId``), and the side encounter's description names the main visit."""
    by_id = {e["id"]: e for e in encounters}
    main_instances = timelines[main]["instances"]
    for timeline, schedule in zip(timelines, schedules):
        if timeline is timelines[main]:
            continue
        for instance, encounter in zip(timeline["instances"], schedule.get("encounters") or []):
            m = encounter.get("main_encounter")
            if not isinstance(m, int) or not 0 <= m < len(main_instances):
                continue
            host = main_instances[m]
            if host["timelineId"] is None:
                host["timelineId"] = timeline["id"]
            side = by_id[instance["encounterId"]]
            visit = f"within the main timeline's visit {host['label'] or host['name']!r}"
            side["description"] = f"{side['description']}; {visit}" if side["description"] else visit


def design_errors(design: dict, validate) -> list[str]:
    """Every schema error of the design lists (``validate`` from ``usdm.schema_validator``)."""
    errors = []
    for key, schema in DESIGN_SCHEMAS.items():
        for obj in design.get(key) or []:
            errors += [f"{obj.get('id')}: {e}" for e in validate(schema, obj)]
    return errors
