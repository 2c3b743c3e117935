"""One schedule printed over several pages, joined by its visits and activities.

The table stage joins the parts of a table it can see are one (the same columns, directly
following). What it cannot see, a reader of the page can: a part on the next page is the same
schedule going on when it prints the same visits (rows continued down the page) or the same
activities (columns continued sideways), even when the columns differ in number or in their
upper header rows -- a group-label column on some pages only, two visits merged into one column,
an epoch header spanning other columns, a header row printed on one page only. So the parts are
read one by one and their schedules joined here:

* **down** (most of the part's visits are the head's): the part's encounters are the head's,
  matched by label; its activities follow the head's. A part column matching no visit, between
  two that match visits further apart, is those visits' columns merged: its marks go to each.
* **sideways** (most of the part's activities are the head's): its activities are the head's,
  matched by label, and its visits are new encounters after the head's.

A part is a candidate only when it has no caption of its own (or the head's, or one saying
"continued") and starts at most a page after the head's last part. Labels match when equal
after markers, spacing and case are set aside, or when one's lowest header rows are the other's
("V1 / W0" under a spanning "Intervention period / V1 / W0"). Every join is said in the head's
diagnostics; the joined part's table keeps no schedule of its own.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from typing import Optional

from ..model import Table
from .grid import is_mark, label_column
from .header import names_a_visit

DOWN_SHARE = 0.5  # of the part's encounters matching the head's, for rows continued down
SIDEWAYS_SHARE = 0.6  # of the part's activities matching the head's, for columns continued sideways
SAME_LABEL = 0.9  # difflib ratio of two label keys that are the same label
_CONTINUED = re.compile(r"\bcont(?:inued|'d|\.)", re.IGNORECASE)
_MARKERS = re.compile(r"(?<=[a-z\)])(?:[a-z](?:,[a-z])*|\d{1,2}(?:,\s?\d{1,2})*|[*†‡§¶#]+)$")


@dataclass
class Part:
    """One candidate table in document order, with the schedule read from it (or None)."""

    table: Table
    schedule: Optional[dict]
    rows: int  # body rows the schedule's row numbers count
    last_page: Optional[int]  # of the table and the parts the table stage joined to it
    small: bool = False  # too small to be a schedule alone: kept only as a part of the one before
    joined: list["Part"] = field(default_factory=list)


def join_parts(parts: list[Part], vocabulary: set[str]) -> list[Part]:
    """The heads, each with the later parts joined into its schedule (in place)."""
    heads: list[Part] = []
    for part in parts:
        if part.schedule is None:
            continue
        head = heads[-1] if heads else None
        if head is not None and _may_continue(head, part) and _join(head, part, vocabulary):
            head.joined.append(part)
            continue
        if not part.small:
            heads.append(part)
    return heads


def _may_continue(head: Part, part: Part) -> bool:
    caption = " ".join(part.table.title.split())
    own = not caption or caption == " ".join(head.table.title.split()) or bool(_CONTINUED.search(caption))
    end = (head.joined or [head])[-1].last_page
    near = part.table.page is not None and end is not None and 0 <= part.table.page - end <= 1
    return own and near


def _join(head: Part, part: Part, vocabulary: set[str]) -> bool:
    """Join ``part``'s schedule into ``head``'s when it continues it down or sideways."""
    ours, theirs = head.schedule, part.schedule
    encounters = _by_position(
        _match(ours["encounters"], theirs["encounters"], _encounter_keys),
        len(ours["encounters"]),
        len(theirs["encounters"]),
    )
    activities = _match(ours["activities"], theirs["activities"], _activity_keys)
    n_enc, n_act = len(theirs["encounters"]), len(theirs["activities"])
    offset = head.rows + sum(p.rows for p in head.joined)
    if n_enc and len(encounters) >= DOWN_SHARE * n_enc:
        spans = _merged_columns(encounters, n_enc)
        if not part.small:  # a row or two is no guide to the header
            _relabel(ours["encounters"], theirs["encounters"], encounters, vocabulary)
        e_map = {k: [v] for k, v in encounters.items()} | spans
        e_map |= {k: [_add_encounter(ours, theirs["encounters"][k])] for k in range(n_enc) if k not in e_map}
        a_map = {k: _add_activity(ours, a, offset) for k, a in enumerate(theirs["activities"])}
        how = f"{len(encounters)} of its {n_enc} visits matched by label" + (
            f", {len(spans)} column(s) of merged visits spread over them" if spans else ""
        )
        direction = "down"
    elif n_act >= 2 and len(activities) >= SIDEWAYS_SHARE * n_act:
        e_map = {k: [_add_encounter(ours, e)] for k, e in enumerate(theirs["encounters"])}
        a_map = {k: activities.get(k, None) for k in range(n_act)}
        a_map = {
            k: v if v is not None else _add_activity(ours, theirs["activities"][k], offset) for k, v in a_map.items()
        }
        how = f"{len(activities)} of its {n_act} activities matched by label, its {n_enc} visits added"
        direction = "sideways"
    else:
        return False
    _add_marks(ours, theirs, e_map, a_map)
    if direction == "down":  # sideways, the part repeats the same rows and their groups
        _add_groups(ours, theirs, offset)
    known = {f["marker"] for f in ours["footnotes"]}
    ours["footnotes"] += [f for f in theirs["footnotes"] if f["marker"] not in known]
    spelled = {a["abbreviation"] for a in ours["abbreviations"]}
    ours["abbreviations"] += [a for a in theirs["abbreviations"] if a["abbreviation"] not in spelled]
    page = part.table.page
    ours["epochs"] = _epochs(ours["encounters"])
    ours["diagnostics"].append(f"continued on page {page} ({direction}): joined as one schedule, {how}")
    ours["diagnostics"] += [f"page {page} part: {d}" for d in theirs["diagnostics"] if not d.startswith("continued on")]
    return True


def _epochs(encounters: list[dict]) -> list[dict]:
    """Runs of adjacent encounters under one epoch label."""
    out: list[dict] = []
    for i, encounter in enumerate(encounters):
        label = encounter.get("epoch")
        if not label:
            continue
        if out and out[-1]["label"] == label and out[-1]["encounters"][-1] == i - 1:
            out[-1]["encounters"].append(i)
        else:
            out.append({"label": label, "encounters": [i]})
    return out


# --- matching labels ---------------------------------------------------------------------------


def _key(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", _MARKERS.sub("", (text or "").strip()).lower())


def _encounter_keys(encounter: dict) -> list[str]:
    """The label whole first, then each tail of its header path ("Intervention period / V1 /
    W0": also "V1 / W0"; never the last part alone)."""
    parts = [p for p in re.split(r"\s*/\s*", " ".join((encounter.get("label") or "").split())) if p.strip()]
    tails = [" ".join(parts[i:]) for i in range(max(len(parts) - 1, 1))]
    return [k for k in dict.fromkeys(_key(t) for t in tails) if k]


def _activity_keys(activity: dict) -> list[str]:
    key = _key(activity.get("label") or "")
    return [key] if key else []


def _same(a: list[str], b: list[str]) -> bool:
    """One label whole is the other whole or one of its tails (the page that printed fewer header
    rows); or the two whole labels are alike but for a letter or two (a marker, a broken hyphen)
    with the same numbers: "Cycle 1 / Day 1" is never "Cycle 2 / Day 1"."""
    if not a or not b:
        return False
    x, y = a[0], b[0]
    if x in b or y in a:
        return True
    return (
        min(len(x), len(y)) >= 4
        and re.findall(r"\d+", x) == re.findall(r"\d+", y)
        and difflib.SequenceMatcher(None, x, y).ratio() >= SAME_LABEL
    )


def _match(heads: list[dict], parts: list[dict], keys) -> dict[int, int]:
    """Part index -> head index, one to one, in order: each part item takes the first head item
    after the last one taken whose label is the same."""
    head_keys = [keys(h) for h in heads]
    out: dict[int, int] = {}
    start = 0
    for k, item in enumerate(parts):
        mine = keys(item)
        for i in range(start, len(heads)):
            if i not in out.values() and _same(mine, head_keys[i]):
                out[k] = i
                start = i + 1
                break
    return out


def _by_position(matched: dict[int, int], n_head: int, n_part: int) -> dict[int, int]:
    """As many visit columns on both pages, and every visit whose label both pages print alike in
    the same place: the columns are the same visits, those whose header one page printed
    garbled or cut included."""
    if n_head == n_part and len(matched) >= 2 and all(k == i for k, i in matched.items()):
        return {k: k for k in range(n_part)}
    return matched


def _merged_columns(matched: dict[int, int], n_part: int) -> dict[int, list[int]]:
    """Unmatched part columns standing between two matched ones whose head visits are further
    apart: the visits in between, whose columns the part merged (one cell "● / ●" over V3 and V4)."""
    out: dict[int, list[int]] = {}
    for k in range(n_part):
        if k in matched:
            continue
        before = max((j for j in matched if j < k), default=None)
        after = min((j for j in matched if j > k), default=None)
        if before is None or after is None or any(j not in matched for j in range(before + 1, after) if j != k):
            continue
        between = list(range(matched[before] + 1, matched[after]))
        if len(between) >= 2:
            out[k] = between
    return out


def _relabel(heads: list[dict], parts: list[dict], matched: dict[int, int], vocabulary: set[str]) -> None:
    """A head label the page printed garbled ("R / Tissu / equire") or cut ("Day -5" under a
    cycle header the page did not repeat) takes the part's label for the same visit when the
    part's reads as more of the document's words, or as many and more header rows."""
    for k, i in matched.items():
        mine, theirs = heads[i], parts[k]
        known, theirs_known = _known_words(mine.get("label"), vocabulary), _known_words(theirs.get("label"), vocabulary)
        if theirs_known > known or (theirs_known == known and _fuller(theirs.get("label"), mine.get("label"))):
            for name in ("label", "short_label", "visit", "window", "timing", "epoch"):
                if name in theirs:
                    mine[name] = theirs[name]


def _fuller(theirs: Optional[str], mine: Optional[str]) -> bool:
    """``theirs`` prints every word and number of ``mine`` and more ("Cycle 1 / Day 1 / Pre-I"
    against "Cycle / Day / Pre-I")."""
    a, b = (re.findall(r"[a-z]+|\d+", (t or "").lower()) for t in (theirs, mine))
    rest = list(a)
    for token in b:
        if token not in rest:
            return False
        rest.remove(token)
    return bool(rest)


def _known_words(label: Optional[str], vocabulary: set[str]) -> float:
    words = re.findall(r"[A-Za-z]{3,}", label or "")
    if not words:
        return 0.0
    return sum(w.lower() in vocabulary for w in words) / len(words)


# --- adding the part's items -------------------------------------------------------------------


def _add_encounter(schedule: dict, encounter: dict) -> int:
    schedule["encounters"].append(dict(encounter))
    return len(schedule["encounters"]) - 1


def _add_activity(schedule: dict, activity: dict, offset: int) -> int:
    moved = dict(activity)
    if isinstance(moved.get("row"), int):
        moved["row"] += offset
    schedule["activities"].append(moved)
    return len(schedule["activities"]) - 1


def _add_marks(ours: dict, theirs: dict, e_map: dict[int, list[int]], a_map: dict[int, int]) -> None:
    seen = {(m["activity"], m["encounter"]) for m in ours["marks"]}
    for mark in theirs["marks"]:
        activity = a_map.get(mark["activity"])
        for encounter in e_map.get(mark["encounter"], []):
            if activity is None or (activity, encounter) in seen:
                continue
            seen.add((activity, encounter))
            ours["marks"].append({**mark, "activity": activity, "encounter": encounter})


def _add_groups(ours: dict, theirs: dict, offset: int) -> None:
    for group in theirs.get("groups") or []:
        moved = dict(group)
        if isinstance(moved.get("row"), int):
            moved["row"] += offset
        ours["groups"].append(moved)


# --- one table holding parts printed side by side ------------------------------------------------


def restated_headers(table: Table) -> list[tuple[int, int]]:
    """Body rows that print the header again for other visits, as (first row, rows): the label
    column's header restated ("Study Visit"; perhaps with a header row the first page printed in
    its body, "Study Visit / Window"; or over two rows, "Visit" then "Study Day" under a "Visit /
    Study Day" header) and visits named in most other cells, none a mark. The table stage stacked
    a schedule's sideways parts (the next page's visits) under one header."""
    label = label_column(table)
    head = _key(table.columns[label])
    found: list[tuple[int, int]] = []
    r = 1
    while head and r < len(table.data):
        size = 1
        row = table.data[r]
        key = _key(row[label])
        while key and head.startswith(key) and key != head and r + size < len(table.data) and size < 3:
            row = _stacked(row, table.data[r + size])  # the header restated over more rows
            key, size = _key(row[label]), size + 1
        if _restates(row, label, key, head):
            found.append((r, size))
            r += size
        else:
            r += 1
    return found


def _stacked(upper: list[str], lower: list[str]) -> list[str]:
    return [" / ".join(c for c in (a.strip(), b.strip()) if c) for a, b in zip(upper, lower)]


def _restates(row: list[str], label: int, key: str, head: str) -> bool:
    others = [c.strip() for k, c in enumerate(row) if k > label and c.strip()]
    # a visit code shaped like a mark ("ET") may stand among them, not a mark that names none
    shaped = [c for c in others if is_mark(c)]
    return (
        key.startswith(head)
        and len(others) >= 2
        and all(names_a_visit(c) for c in shaped)
        and len(shaped) * 2 < len(others)
        and sum(names_a_visit(c) for c in others) * 2 > len(others)
    )


def split_at(table: Table, rows: list[tuple[int, int]]) -> list[Table]:
    """The table's pieces, each under its own header: the first under the table's, the others
    under the restated header rows that start them (``restated_headers``)."""
    pieces, start, columns = [], 0, table.columns
    for r, size in rows + [(len(table.data), 0)]:
        pieces.append(
            Table(
                title=table.title if not pieces else "",
                page=table.page,
                pages=table.pages,
                columns=list(columns),
                data=table.data[start:r],
                path=table.path,
            )
        )
        if r < len(table.data):
            columns = table.data[r]
            for lower in table.data[r + 1 : r + size]:
                columns = _stacked(columns, lower)
            start = r + size
    return pieces
