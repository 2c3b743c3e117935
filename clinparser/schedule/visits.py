"""The main timeline's visits in the side schedules.

A side schedule (PK or biomarker sampling, a laboratory table printed apart) repeats visits of
the main schedule: "Day 1 / Pre-dose", "Day 1 / 4 h" are time points within the main
timeline's Day 1, "Week 4 (Visit 4)" is its Week 4. Each side encounter that is such a visit gets
``main_encounter``: the index of that visit among the main schedule's encounters (null when it
is none of them, or when it could be more than one). The side schedule keeps its own columns as
its encounters (its marks are made at them, and a sampling table's time points are its grid),
but a reader joining the two timelines needs no label matching of its own.

A side encounter is the main visit that is the only one with
* the same timing (unit, numbers and cycle; a day printed with no cycle is the first cycle's:
  "Day 8" = "D8" = "Cycle 1 / Day 8"), or else
* the same visit number ("Visit 4", "V4"), or else
* the same label once the time point is set aside (equal but for markers, spaces and case), or
  else
* for a "Baseline" column, the main visit named so, else the one at the start of treatment (Day 1
  or Week 0).
"""

from __future__ import annotations

import re
from typing import Callable, Optional

__all__ = ["link_side_schedules"]


def link_side_schedules(schedules: list[dict]) -> None:
    """Set ``main_encounter`` on every encounter of every schedule (in place). Not a reading
    problem, so not in the diagnostics: the field says it where it is set."""
    main = next((s for s in schedules if s.get("main")), None)
    for schedule in schedules:
        for encounter in schedule["encounters"]:
            encounter["main_encounter"] = None
    if main is None:
        return
    for schedule in schedules:
        if schedule is main:
            continue
        linked = [_main_visit(e, main["encounters"]) for e in schedule["encounters"]]
        for encounter, index in zip(schedule["encounters"], linked):
            encounter["main_encounter"] = index


def _main_visit(encounter: dict, mains: list[dict]) -> Optional[int]:
    tests: list[Callable[[dict], object]] = [_timing_key, _visit_key, _label_key]
    for key in tests:
        mine = key(encounter)
        if not mine:
            continue
        same = [i for i, m in enumerate(mains) if _same(key(m), mine)]
        if len(same) == 1:
            return same[0]
        if same:
            return None  # the same timing or number twice in the main timeline: which one is not said
    if _baseline_key(encounter) == "baseline":
        for wanted in ("baseline", "start"):
            same = [i for i, m in enumerate(mains) if _baseline_key(m) == wanted]
            if same:
                return same[0] if len(same) == 1 else None
    return None


def _same(theirs: object, mine: object) -> bool:
    """Equal keys; a day printed with no cycle ("Day 8") is also the first cycle's day: the
    study's Day 8 is Cycle 1 Day 8, whichever of the two prints the cycle."""
    if isinstance(theirs, tuple) and isinstance(mine, tuple) and None in (theirs[3], mine[3]):
        return theirs[:3] == mine[:3] and {theirs[3], mine[3]} <= {None, 1}
    return theirs == mine


def _timing_key(encounter: dict) -> Optional[tuple]:
    timing = encounter.get("timing") or {}
    if timing.get("from") is None:
        return None
    return timing.get("unit"), timing.get("from"), timing.get("to"), timing.get("cycle")


def _visit_key(encounter: dict) -> Optional[str]:
    visit = re.sub(r"^(?:visit|v)\s*", "", str(encounter.get("visit") or "").strip(), flags=re.I)
    return visit.lower() or None


def _baseline_key(encounter: dict) -> Optional[str]:
    """ "Baseline" for the baseline visit as a side table names it, and for the main visit named
    so or, where none is, at the start of treatment (Day 1, Week 0)."""
    label = encounter.get("label") or ""
    if re.search(r"\bbaseline\b", label, re.I):
        return "baseline"
    timing = encounter.get("timing") or {}
    start = (timing.get("unit"), timing.get("from"), timing.get("to")) in (("day", 1, 1), ("week", 0, 0))
    return "start" if start and timing.get("cycle") in (None, 1) else None


def _label_key(encounter: dict) -> Optional[str]:
    """The label without its time points and windows, letters and digits only."""
    parts = [p for p in (encounter.get("label") or "").split(" / ") if p.strip()]
    points = {" ".join((p.get("label") or "").split()) for p in encounter.get("timepoints") or []}
    kept = [p for p in parts if " ".join(p.split()) not in points]
    key = re.sub(r"[^a-z0-9]+", "", " ".join(kept).lower())
    return key or None
