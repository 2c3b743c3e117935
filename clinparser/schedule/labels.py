"""Short labels of visit columns, and time points within a visit.

A visit column's header is a path, top to bottom ("Treatment Phase / Cycle 1 / D8 (± 1)"). Its
short label is the lowest part as the column prints it, its window left out and a bare number
named by its row ("Day 15" under a "Day" row): "D8", "EOT", "Week 4". Where two columns of one
schedule would print the same short label (D8 of cycles 1 and 2), the parts above are put back,
one at a time, until they differ ("Cycle 1 / D8").

A time point within a visit is a header part that times a sample or a dose inside the visit
("Predose", "EOI +30 min", "2-4 h postdose", "72 h", "SOI"), under a part naming the visit.
Where a schedule of visits gives one visit several time-point columns, they are one encounter
whose ``timepoints`` list them, and each mark says at which of them it is made (``merge_time
points``): a time point is never a visit of its own. A sampling timeline (its caption names PK,
PD or sampling) keeps its time points as its encounters: that timeline is made of them.
"""

from __future__ import annotations

import re
from typing import Optional

from .header import is_time_point

# A column's header parts, top to bottom: (as printed, as a label shows it, role) -- see
# ``header.Encounter.shown``; windows and blank parts have the roles "window" and "blank".
Part = tuple[str, str, str]


def label_parts(column: list[Part]) -> list[str]:
    return [shown for _, shown, role in column if role not in ("window", "blank")]


def short_labels(columns: list[list[Part]]) -> list[str]:
    """One short label per column, unique within the schedule where the parts allow. A lowest part
    that is a span of days ("D -35 to D -1") under the visit's name ("Screening") is the visit's
    timing, not its name: the name is put back above it."""
    paths = [[_signed(p) for p in label_parts(c)] or [printed for printed, _, _ in c][-1:] for c in columns]
    depth = [2 if _named_span(c) else 1 for c in columns]
    while True:
        shown = [" / ".join(p[-d:]) for p, d in zip(paths, depth)]
        seen: dict[str, list[int]] = {}
        for i, label in enumerate(shown):
            seen.setdefault(label, []).append(i)
        grown = False
        for same in seen.values():
            if len(same) > 1:
                for i in same:
                    if depth[i] < len(paths[i]):
                        depth[i] += 1
                        grown = True
        if not grown:
            return shown


_SPAN = re.compile(r"\d\s*(?:to|through|[-\u2013])\s*\D{0,5}\d")  # "-35 to D -1", "2-5", "1 to 7"


def _named_span(column: list[Part]) -> bool:
    named = [(shown, role) for _, shown, role in column if role not in ("window", "blank")]
    return len(named) >= 2 and named[-1][1] == "timing" and bool(_SPAN.search(named[-1][0])) and named[-2][1] == "name"


def _signed(text: str) -> str:
    """An en dash or minus sign printed as a number's sign is a minus: "D \u201335" -> "D -35"."""
    return re.sub(r"[\u2013\u2212](?=\s?\d)", "-", text)


def time_point(column: list[Part]) -> Optional[tuple[str, int]]:
    """(the time point as shown, where it starts among the printed parts) when the column's
    lowest labelled part times something inside a visit named above it, else None."""
    named = [k for k, (_, _, role) in enumerate(column) if role not in ("window", "blank")]
    if len(named) < 2 or not is_time_point(column[named[-1]][1]):
        return None
    first = len(named) - 1
    while first > 1 and is_time_point(column[named[first - 1]][1]):  # "Day 1 / 0.5 h / postdose"
        first -= 1
    start = named[first]
    return " / ".join(label_parts(column[start:])), start


def _visit_key(column: list[Part], start: int) -> tuple[str, ...]:
    return tuple(label_parts(column[:start]))


def merge_time_points(schedule: dict, columns: list[list[Part]]) -> list[list[Part]]:
    """Adjacent columns of one visit that differ only by their time point become one encounter
    (``timepoints`` lists them; a mark made at some of them says at which). Returns the header
    parts of the encounters left (a merged one keeps the parts above its time points)."""
    encounters = schedule["encounters"]
    groups: list[list[int]] = []
    for i, column in enumerate(columns):
        point = time_point(column)
        if groups and point:
            prev = groups[-1][-1]
            before = time_point(columns[prev])
            if (
                before
                and _visit_key(columns[prev], before[1]) == _visit_key(column, point[1])
                and encounters[prev]["epoch"] == encounters[i]["epoch"]
            ):
                groups[-1].append(i)
                continue
        groups.append([i])
    if all(len(g) == 1 for g in groups):
        return columns
    new_index: dict[int, int] = {}
    merged, kept = [], []
    for group in groups:
        first = encounters[group[0]]
        if len(group) > 1:
            start = time_point(columns[group[0]])[1]
            points = [{"label": time_point(columns[i])[0], "column": encounters[i]["column"]} for i in group]
            label = " / ".join(printed for printed, _, _ in columns[group[0]][:start])
            first = dict(first, label=label, timepoints=points)
            visit = " / ".join(_visit_key(columns[group[0]], start))
            schedule["diagnostics"].append(
                f"columns {points[0]['column']} to {points[-1]['column']}: time points within visit {visit!r} "
                f"({'; '.join(p['label'] for p in points)}): read as timings of that visit, one encounter"
            )
            kept.append(columns[group[0]][:start])
        else:
            kept.append(columns[group[0]])
        for i in group:
            new_index[i] = len(merged)
        merged.append(first)
    _remap_marks(schedule, encounters, merged, new_index)
    schedule["encounters"] = merged
    for epoch in schedule["epochs"]:
        epoch["encounters"] = list(dict.fromkeys(new_index[i] for i in epoch["encounters"]))
    return kept


def _remap_marks(schedule: dict, old: list[dict], merged: list[dict], new_index: dict[int, int]) -> None:
    """Marks onto the merged encounters: one per activity and encounter, with the time points
    it is made at."""
    out: list[dict] = []
    seen: dict[tuple[int, int], dict] = {}
    for mark in schedule["marks"]:
        e = new_index[mark["encounter"]]
        column = old[mark["encounter"]]["column"]
        point = next((p["label"] for p in merged[e]["timepoints"] if p["column"] == column), None)
        key = (mark["activity"], e)
        if key in seen:
            seen[key]["timepoints"].append(point)
            seen[key]["footnotes"] = list(dict.fromkeys(seen[key]["footnotes"] + mark["footnotes"]))
            continue
        seen[key] = dict(mark, encounter=e, timepoints=[point] if point else [])
        out.append(seen[key])
    schedule["marks"] = out
