"""Read one schedule-of-activities table into a schedule: epochs, encounters, activities, marks.

The table stage hands over a whole table (parts continued over pages or sideways already joined,
header rows joined per column with " / "). Here each column is told apart (the activity labels,
header-label columns such as "VISIT / WEEK" that name the header rows, and visit columns), each
row (group rows, activities), and each cell (a mark and its footnote markers). The footnotes
printed under the table are read from the section text that follows it.

Footnote markers lose their superscript in table cells ("Discharge from unitf", "Xa"). A marker
is split off only when it is a marker the footnotes define, and, inside a word, only when the word
without it is a word of the document and the word with it is not ("unitf" -> "unit" + f, while
"consent" keeps its t).

What cannot be read cleanly is said in ``diagnostics``, one line each; nothing is guessed silently.
The shape of the result is documented in ``schemas/document.schema.json`` (``schedule``).
"""

from __future__ import annotations

import re
from typing import Optional

from ..document_types import Schedule
from ..model import Table
from ..shared.markup import PICTURE_TEXT, SYMBOL_FONT
from .body_rows import lift_body_row
from .header import is_numbered, names_a_visit, read_encounter, reads_as_time, row_kinds
from .kinds import timeline_kind
from .labels import merge_time_points, short_labels, time_point

# A mark as schedules print them, and the footnote markers glued after it ("Xa", "X b,c", "•1").
_MARK = re.compile(
    r"^(?P<mark>\(?[Xx]\)?|[✓✔√•●○■□☒◊↔]|[A-Z]{1,2})\s?(?P<markers>(?:[a-z]|\d{1,2}|[*†‡§¶#]+)(?:\s?,\s?(?:[a-z]|\d{1,2}|[*†‡§¶#]+))*)?$"
)
_SYMBOL_MARKERS = re.compile(r"[*†‡§¶#]+$")
_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*[A-Za-z]")
# A footnote line under a table: "a Within 42 days…", "b. Text", "(c) Text", "X<sup>a</sup> = Text", "1 Text".
_NOTE = re.compile(
    r"^(?:[-•*>]\s+)?(?:[A-Z•]?\s?<sup>\s*(?P<sup>[^<]{1,4})\s*</sup>|X(?P<legend>[a-z])(?=\s*=)|\(?(?P<marker>[a-z]|\d{1,2}|[*†‡§¶#]{1,3})\)?)"
    r"(?:\s*[=:.)]\s*|\s+)(?P<text>\S.*)$",
    re.S,
)
MIN_ENCOUNTERS = 2
MIN_MARKS = 2
_PLACEHOLDER = re.compile(r"^\[(?:Table|Image|Figure)\b.*\]$")
_HEADER_NAMES = re.compile(
    r"^(?:visit|week|day|days|study day|study week|cycle|month|hour|hours|time ?points?|window|visit window|"
    r"period|epoch|procedures?|activit(?:y|ies)|assessments?)$",
    re.I,
)


def read_schedule(
    table: Table, notes: str, vocabulary: set[str], *, name: str, part: bool = False
) -> Optional[Schedule]:
    """The schedule a table holds, or None when it has no visit column or no marked activity.
    ``part``: the table may be a later page's part of a schedule (a row or two), so it needs no
    more than one visit column and one mark; whether it is one, ``join`` decides."""
    label = label_column(table)
    diagnostics: list[str] = []
    lifted = lift_body_row(table, label)
    if lifted:
        diagnostics.append(
            f"the lowest header row ({lifted!r}, the same words under every visit) is a body row: "
            "put back as the first row"
        )
    names, visit_columns = _split_columns(table, label)
    visit_columns, extra = text_columns(table, label, visit_columns, diagnostics)
    visit_columns = without_repeated_columns(table, visit_columns, diagnostics)
    if not visit_columns:
        return None
    footnotes = read_footnotes(notes)
    legend = read_legend(notes)
    markers = {f["marker"] for f in footnotes}
    lead = header_rows_in_data(table, label, visit_columns)
    # a label cell of two lines names two header rows ("Day\nTime window (days)")
    lead_kinds = [
        row_kinds([" ".join(line.split()) for line in r[label].split("\n") if line.strip()]) for r in table.data[:lead]
    ]
    kinds = row_kinds(names)
    # every header row named by a kind ("Cycle / Study Day"): a word in a column's header then
    # stands in one of those rows (header.Encounter)
    kinds_of_all = bool(kinds) and len(kinds) == len(names)
    encounters = _encounters(
        table, visit_columns, kinds, markers, vocabulary, diagnostics, lead, lead_kinds, kinds_of_all
    )
    unglue_day_markers(encounters, markers, diagnostics)
    groups, activities, marks, notes_rows = _rows(
        table, label, visit_columns, markers, vocabulary, diagnostics, lead, extra
    )
    least = 1 if part else MIN_ENCOUNTERS, 1 if part else MIN_MARKS
    if len(encounters) < least[0] or sum(is_mark(m["text"]) for m in marks) < least[1]:
        return None  # a list, a legend, a table of contents: not a grid of visits
    _check_footnotes(encounters, activities, marks, groups, markers, diagnostics)
    schedule = {
        "name": name,
        "main": False,
        "kind": None,
        "label_column": label,
        "epochs": epochs(encounters),
        "encounters": encounters,
        "groups": groups,
        "activities": activities,
        "marks": marks,
        "footnotes": footnotes,
        "abbreviations": with_legend_rows(legend, notes_rows),
        "notes": notes_rows,
        "diagnostics": diagnostics,
    }
    label_encounters(schedule)
    return schedule


def label_encounters(schedule: dict) -> None:
    """Time points, the timeline's kind as its caption and columns say, and short labels. In a
    schedule of visits, one visit's time-point columns become one encounter; a sampling
    timeline keeps them as its encounters."""
    encounters = schedule["encounters"]
    columns = [e.pop("_parts") for e in encounters]
    for e, column in zip(encounters, columns):
        point = time_point(column)
        e["timepoints"] = [{"label": point[0], "column": e["column"]}] if point else []
    for m in schedule["marks"]:
        m["timepoints"] = [p["label"] for p in encounters[m["encounter"]]["timepoints"]]
    schedule["kind"] = timeline_kind(schedule["name"], encounters)
    if schedule["kind"] == "pk_pd":
        if any(e["timepoints"] for e in encounters):
            schedule["diagnostics"].append("a sampling timeline: its time-point columns are its encounters")
    else:
        columns = merge_time_points(schedule, columns)
    for e, short in zip(schedule["encounters"], short_labels(columns)):
        e["short_label"] = short


def is_mark(cell: str) -> bool:
    return bool(_MARK.match(" ".join(cell.split())))


def label_column(table: Table) -> int:
    """The column of activity labels: the first one filled in most rows with words, not marks
    (a first column holding only a category now and then, "Tier 2", is not it)."""
    for k in range(min(3, len(table.columns))):
        cells = [r[k].strip() for r in table.data if r[k].strip()]
        if len(cells) * 2 > len(table.data) and sum(len(c) > 3 and not is_mark(c) for c in cells) * 2 > len(cells):
            # Group labels in the column to its left, under the same header: the labels are two
            # columns, and a row labelled only on the left is labelled across both.
            # An empty sliver column between them (a rule drawn a little apart) is skipped.
            left = next((j for j in range(k - 1, -1, -1) if any(r[j].strip() for r in table.data)), None)
            if left is not None and is_nested_label(table, left, k) and _worded(table, left):
                return left
            return k
    return 0


def _worded(table: Table, k: int) -> bool:
    """Most of the column's filled cells are words ("Laboratory", "ECG", "BM"), not marks. Left of
    the labels a two-capital code is a group's abbreviation, though in a visit column it may be
    a mark."""
    cells = [r[k].strip() for r in table.data if r[k].strip()]
    worded = sum(
        bool(re.search(r"[A-Za-z]{2}", c)) and (not is_mark(c) or re.fullmatch(r"[A-Z]{2}", c) is not None)
        for c in cells
    )
    return bool(cells) and worded * 2 > len(cells)


def _split_columns(table: Table, label: int) -> tuple[list[str], list[int]]:
    """The header-row names (label column's header and columns such as "VISIT / WEEK" that hold
    no cell) and the visit columns (every other column with a header or a cell)."""
    names = [p for p in table.columns[label].split(" / ") if p.strip()]
    visits = []
    for k, column in enumerate(table.columns):
        if k == label:
            continue
        parts = [p.strip() for p in column.split(" / ") if p.strip()]
        filled = any(r[k].strip() for r in table.data)
        if parts and not filled and all(_HEADER_NAMES.match(" ".join(p.split())) for p in parts):
            names += parts
        elif not filled and table.columns[k] == table.columns[label]:
            continue  # an empty sliver under the label column's header, not a visit
        elif k > label and (parts or filled):
            visits.append(k)
    return names, visits


_LABEL_HEADER = re.compile(
    r"^(?:assessments?|procedures?|activit(?:y|ies)|tests?|parameters?|evaluations?|samples?|examinations?)$", re.I
)
_NOTES_HEADER = re.compile(
    r"^(?:comments?|notes?|remarks?|details?|notes?\s*/\s*comments?|comments?\s*/\s*notes?|description)$", re.I
)


def names_notes_column(header: str) -> bool:
    """A column headed as comments or notes ("Comments", "Notes", "Remarks", ...)."""
    return any(_NOTES_HEADER.match(" ".join(p.split())) for p in header.split(" / "))


def text_columns(table: Table, label: int, visits: list[int], diagnostics: list[str]) -> tuple[list[int], list[int]]:
    """Columns among the visit columns that hold words, not marks: a second label column right of
    the label column ("Time | Assessment": "Pre HD / PK"), kept as part of the activity label; a
    comment or notes column ("Comments", "Notes", or prose in most of its cells), left out. Returns
    the visit columns left and the extra label columns."""
    extra, kept = [], []
    for k in visits:
        parts = [" ".join(p.split()) for p in table.columns[k].split(" / ")]
        header = parts[-1]
        cells = [" ".join(r[k].split()) for r in table.data if r[k].strip()]
        marks = sum(is_mark(c) for c in cells)
        prose = sum(len(c) > 12 and not is_mark(c) and not _ARROW_SPAN.match(c) for c in cells)
        nested = k == (visits[0] if visits else None) and not extra and is_nested_label(table, label, k)
        if nested and cells and marks * 4 < len(cells) and not any(_NOTES_HEADER.match(p) for p in parts):
            extra.append(k)
            diagnostics.append(
                f"column {k}: the activity labels under the group labels of column {label} "
                "(a label spanning both is the activity's)"
            )
            continue
        if (
            any(_NOTES_HEADER.match(p) for p in parts)
            or cells
            and not marks
            and prose * 2 > len(cells)
            and len(cells) >= 3
        ):
            diagnostics.append(f"column {k} ({' / '.join(parts)!r}): comments or notes, not a visit")
            continue
        adjacent = k == (extra[-1] if extra else label) + 1
        alone = " / " not in table.columns[k]  # not under the visits' spanning header
        if adjacent and not kept and _LABEL_HEADER.match(header) and cells and (alone or marks * 4 < len(cells)):
            extra.append(k)
            diagnostics.append(f"column {k} ({header!r}): a second label column, joined to the activity labels")
            continue

        kept.append(k)
    return kept, extra


def is_nested_label(table: Table, label: int, k: int) -> bool:
    """A second label column under the same header as the label column (one header cell spanning
    both, copied into each) or under none: group labels on the left, activities on the right."""
    mine, theirs = (" ".join(table.columns[c].split()).lower() for c in (k, label))
    return mine == theirs or not mine


def without_repeated_columns(table: Table, columns: list[int], diagnostics: list[str]) -> list[int]:
    """The visit columns less each one that repeats the column before it in its header and in
    every cell: one cell spanning two grid columns, copied into both by the converter (a Word
    table whose rows are cut at different places). Two visits differ somewhere."""
    kept: list[int] = []
    for k in columns:
        prev = kept[-1] if kept else None
        if (
            prev is not None
            and prev == k - 1
            and table.columns[k] == table.columns[prev]
            and all(r[k] == r[prev] for r in table.data)
            and any(r[k].strip() for r in table.data)
        ):
            diagnostics.append(
                f"column {k} repeats column {prev} in every cell (one cell over two grid columns): read once"
            )
            continue
        kept.append(k)
    return kept


def header_rows_in_data(table: Table, label: int, columns: list[int]) -> int:
    """Leading rows that are more header ("Visit day (window) | -28 to -1 | 1 | 15 +/- 3"): before
    the first marked row, none of their cells a mark, and most visit cells filled, or the row
    named as a header row by its label, or with no label at all. A row its label names as a
    header row ("Visit No. | Visit 1 | ... | ET | Unsch") may hold a few visit codes shaped like
    marks ("ET")."""
    lead = 0
    for row in table.data:
        cells = [row[k].strip() for k in columns]
        if _time_row(cells):
            lead += 1
            continue
        # a row the label column names as a header row ("Scheduling Window (Days)", or "Period":
        # the epoch row, whose names span several visits), or one with no label whose few cells
        # head the last columns ("30 days post discon"): header too
        text = " ".join(row[label].split())
        named = _names_header_row(text) if text else any(cells)
        if _marked(cells, named and bool(text)) or sum(bool(c) for c in cells) * 2 < len(cells) and not named:
            break
        if len(set(cells)) == 1 and len(cells[0]) > 40:
            break  # one line of prose across the grid (a note), not a header row
        if text and not named and len(set(cells)) == 1 and cells[0] and not names_a_visit(cells[0]):
            break  # an activity done at every visit, in words ("Concomitant medications | Continuous | ...")
        lead += 1
    first_marked = next(
        (
            i
            for i, r in enumerate(table.data)
            if _marked([r[k].strip() for k in columns], _names_header_row(" ".join(r[label].split())))
            and not _time_row([r[k].strip() for k in columns])
        ),
        0,
    )
    return min(lead, first_marked)


def _names_header_row(text: str) -> bool:
    return bool(text) and bool(row_kinds([text]) or _EPOCH_ROW.match(text))


def _marked(cells: list[str], named: bool) -> bool:
    """Whether a row holds marks: any cell a mark or an arrow, or, in a row named as a header row,
    as many mark-shaped cells as others ("ET" among "Visit 1 ... Visit 5" is a visit's code)."""
    marks = sum(is_mark(c) or bool(_ARROW_SPAN.match(" ".join(c.split()))) for c in cells)  # "←——→" marks too
    return marks > 0 and (not named or marks * 2 >= sum(bool(c) for c in cells))


_EPOCH_ROW = re.compile(r"^(?:study\s+)?(?:periods?|phases?|epochs?|stages?|parts?)\s*:?$", re.I)


def _time_row(cells: list[str]) -> bool:
    """A row of times, one per visit, all different ("W-4 to -1 | W0 | W1 (±3d)", "D1 | D11 |
    EOT"): "W0" has the shape of a mark with a footnote, but a mark's letter is no unit and a
    row of times names more than one."""
    filled = [c for c in cells if c]
    times = sum(reads_as_time(c) for c in filled)
    others_named = all(reads_as_time(c) or not is_mark(c) for c in filled)  # "EOT" among the days
    return len(filled) * 2 > len(cells) and len(set(filled)) >= 2 and times * 2 > len(filled) and others_named


_END_VISIT = r"EOT|EOS|EOI|ET|EW|EDV|ED|FU|SFU|FUP|UNS|UV|PTV"


def join_broken_words(text: str, vocabulary: set[str]) -> str:
    """A word a header cell's line break cut after a hyphen, whole again: without the hyphen
    when the document writes the word so and never with one ("Rando-|misation" ->
    "Randomisation"), else with it ("Follow-|up" -> "Follow-up")."""

    def join(m: re.Match) -> str:
        whole, hyphened = m.group(1) + m.group(2), f"{m.group(1)}-{m.group(2)}"
        if m.group(2)[0].islower() and whole.lower() in vocabulary and hyphened.lower() not in vocabulary:
            return whole
        return hyphened  # a compound's own hyphen ("Post-|Treatment")

    return _BROKEN_WORD.sub(join, text)


_BROKEN_WORD = re.compile(r"([A-Za-z]+)-[ \t]*\n\s*([A-Za-z]+)")


def header_part(text: str, markers: set[str], vocabulary: set[str]) -> str:
    """A header part without the footnote markers printed on it: glued to a word ("Treatmenta",
    "(SCR)a", "ETa,h", "EWg", "EOT10"), or standing after it ("35 a (±3 days)", "Screening a, b",
    "(TC) c", "1 1, 2"). Visit codes ("12a", "6a", "V3") are never touched."""
    text = join_broken_words(text, vocabulary)
    text, _ = split_markers(" ".join(text.translate(SYMBOL_FONT).split()), markers, vocabulary)
    # a letter between a visit's number and its bracketed window is a marker even when the
    # footnotes below define none ("35 a (±3 days)"); unit letters (d, h, m, s, w, y) stay
    text = re.sub(r"(?<=\d)\s+[abcefgijklnopqrtuvxz](?=\s*\()", "", text)
    # so is a lowercase letter glued to an end-of-visit code ("29/ETa" under a table whose notes
    # are printed under another one): no such code goes on into a lowercase word; a plural "s" stays
    text = re.sub(rf"\b({_END_VISIT})[a-rt-z](?:,[a-rt-z])*\b", r"\1", text)
    if not markers:
        return text
    letters = {m for m in markers if len(m) == 1 and m.isalpha() and m.islower()}
    numbers = {m for m in markers if m.isdigit()}

    def known(found: str, pool: set[str]) -> bool:
        return all(x.strip() in pool for x in found.split(","))

    def caps(m: re.Match) -> str:  # "ETa,h" -> "ET"
        return m.group(1) if known(m.group(2), letters) else m.group(0)

    text = re.sub(r"\b([A-Z]{2,})(?:,\s?)?([a-z](?:\s?,\s?[a-z])*)\b", caps, text)
    text = re.sub(
        rf"\b({_END_VISIT})\s?(\d{{1,2}})\b", lambda m: m.group(1) if m.group(2) in numbers else m.group(0), text
    )
    # a lone marker (list) after a word, a number or a bracket, at the end or before a bracket
    text = re.sub(
        r"(?<=[\w)\]])\s+([a-z](?:\s?,\s?[a-z])*)(?=\s*(?:$|\())",
        lambda m: "" if known(m.group(1), letters) else m.group(0),
        text,
    )
    text = re.sub(
        r"^(\S+)\s+(\d{1,2}(?:\s?,\s?\d{1,2})+)$",
        lambda m: m.group(1) if known(m.group(2), numbers) else m.group(0),
        text,
    )

    # a marker letter glued to a window ("±7b", "+7a", "±3da": after its unit) or to a timed
    # number ("Week 0b", "D1b"); a unit letter is no marker ("±7d"), a bare "12a" a visit code
    def drop(m: re.Match) -> str:
        return m.group(1) if m.group(2) in letters else m.group(0)

    text = re.sub(r"([±+]\s?\d+\s?(?:days?|d|weeks?|wk|w|hours?|h))([a-rt-z])\b", drop, text)
    text = re.sub(r"([±+]\s?\d+)([abcefgijklnopqrstuvxz])\b", drop, text)
    text = re.sub(r"\b((?:Week|Wk|W|Day|D|Month)\s?-?\d+)([abcefgijklnopqrstuvxz])\b", drop, text)
    return " ".join(text.split())


def _encounters(
    table, columns, kinds, markers, vocabulary, diagnostics, lead=0, lead_kinds=(), kinds_of_all=False
) -> list[dict]:
    """The visit columns' encounters. The header rows' kinds (``kinds``, named by the label
    column's header) go to the numbered parts of the header, in order; the parts from header
    rows inside the data (``lead``) take the kinds their own row's label names (``lead_kinds``),
    so a column with no number in the header ("Screening") does not hand a header row's kind on
    to the row below it."""
    out = []

    def clean(parts: list[str]) -> list[str]:
        return [q for q in (header_part(p, markers, vocabulary) for p in parts if p.strip()) if q]

    tops = [clean(table.columns[k].split(" / ")) for k in columns]
    below = [
        [(q, row_kind) for r, row_kind in zip(table.data[:lead], lead_kinds) for q in clean([r[k]])] for k in columns
    ]
    headers = [t + [q for q, _ in b] for t, b in zip(tops, below)]
    for k, parts, low in zip(columns, unmerge_headers(headers, columns, diagnostics), below):
        below_kinds = [x for q, row_kind in low if is_numbered(q) for x in row_kind or [None]]
        enc = read_encounter(parts, kinds, (len(parts) - len(low), below_kinds) if low else None, kinds_of_all)
        words = [split_markers(w, markers, vocabulary)[0] for w in enc.words]
        for part in enc.footnoted:
            diagnostics.append(
                f"column {k} ({' '.join(table.columns[k].split())!r}): "
                f"{part!r} read as {part[:-1]} with footnote {part[-1]}"
            )
        for part in enc.unread:
            diagnostics.append(
                f"column {k} ({' '.join(table.columns[k].split())!r}): "
                f"header part {part!r} not read as a visit, time or window"
            )
        if not parts:
            diagnostics.append(f"column {k}: marks under no header (outside the visit grid): its visit is unknown")
        out.append(
            {
                "label": " / ".join(" ".join(p.split()) for p in parts),
                "column": k,
                "epoch": None,
                "visit": enc.visit,
                "timing": enc.timing,
                "window": enc.window,
                "_words": words,
                "_parts": [(p, shown, role) for p, (shown, role) in zip(parts, enc.shown)],
            }
        )
    return out


def unglue_day_markers(encounters: list[dict], markers: set[str], diagnostics: list[str]) -> None:
    """A footnote number printed after a visit's day loses its superscript: "1" with note 3 reads
    "13" ("Day 13, Day 8, Day 15"). Within one cycle the days run in order, so a day larger
    than the next one whose last digits are a footnote the table defines, and which without
    them falls between its neighbours, is that smaller day."""
    numbered = [k for k in markers if k.isdigit()]
    for i in range(len(encounters) - 1):
        here, after = encounters[i]["timing"], encounters[i + 1]["timing"]
        if not _same_run(here, after) or here["from"] <= after["from"] or here["from"] != here["to"]:
            continue
        before = encounters[i - 1]["timing"] if i else None
        low = before["to"] if _same_run(before, here) else None
        text = str(here["from"])
        for marker in sorted(numbered, key=len, reverse=True):
            day = text[: -len(marker)]
            if (
                text.endswith(marker)
                and day.lstrip("-").isdigit()
                and int(day) < after["from"]
                and (low is None or int(day) > low)
            ):
                here["from"] = here["to"] = int(day)
                for k, (printed, shown, role) in enumerate(encounters[i]["_parts"]):
                    if role == "timing" and shown.endswith(text):
                        encounters[i]["_parts"][k] = (printed, shown[: -len(marker)], role)
                diagnostics.append(
                    f"column {encounters[i]['column']}: day {text} read as day {day} with footnote {marker} "
                    f"(the days around it are {low if low is not None else 'none'} and {after['from']})"
                )
                break


def _same_run(a: Optional[dict], b: Optional[dict]) -> bool:
    return bool(
        a
        and b
        and isinstance(a.get("from"), int)
        and isinstance(b.get("from"), int)
        and a["unit"] == b["unit"]
        and a.get("cycle") == b.get("cycle")
    )


# One visit's number as a header prints it: "13", "-2", "6a", "29/ET", with a bracketed note "(HD)".
_HEADER_ITEM = re.compile(r"[-\u2212]?\d+(?:\.\d+)?[a-z]?(?:\s?/\s?[A-Z]{2,4})?(?:\s*\([^)]{1,12}\))?")


def unmerge_headers(headers: list[list[str]], columns: list[int], diagnostics: list[str]) -> list[list[str]]:
    """Adjacent columns printing one same lowest header part that lists exactly as many visit
    numbers as there are columns ("13 (HD) 15 (HD) 17 (HD) 20 (HD)" over four columns: the
    converter ran four header cells into one) get one number each, in order; words before the
    numbers ("Study Visit (Day)") stay a part of each column's header above it."""
    out = [list(h) for h in headers]
    i = 0
    while i < len(out):
        j = i
        while j + 1 < len(out) and out[j + 1] and out[i] and out[j + 1] == out[i]:
            j += 1
        if j > i:
            last = out[i][-1]
            items = list(_HEADER_ITEM.finditer(last))
            covered = items and re.fullmatch(r"\s*", _HEADER_ITEM.sub(" ", last[items[0].start() :]))
            if covered and len(items) == j - i + 1:
                lead = last[: items[0].start()].strip()
                for n, m in enumerate(items):
                    out[i + n] = out[i + n][:-1] + ([lead] if lead else []) + [m.group(0)]
                diagnostics.append(
                    f"columns {columns[i]} to {columns[j]}: one header cell {last!r} over {j - i + 1} columns, "
                    f"split into one visit each"
                )
        i = j + 1
    return out


def epochs(encounters: list[dict]) -> list[dict]:
    """Spanning header groups: the top name over a run of adjacent columns. When some name
    spans two or more columns, the top names of the row are epochs (a one-column epoch
    included); the rest of a column's names name its visit. Not epochs: a one-column top that
    names a visit event ("End of Treatment", "EOS", "Unscheduled": in no epoch, as a lone
    "ET" is), and a top that names the visit axis, not a period ("Study Visit (Day)", "Study
    Day", "Day 3 to 28"), and a visit's code over its columns ("V24ext"). A unit in brackets after an epoch
    ("[weeks]") is the axis's, not the epoch's name; nor are the period's timing in brackets or footnote markers
    (``_epoch_name``)."""
    tops = [e["_words"][0] if e["_words"] else None for e in encounters]
    spanning = any(a and a == b for a, b in zip(tops, tops[1:]))
    if spanning and len(set(tops)) == 1 and is_axis_title(tops[0]):
        spanning = False
    named: dict[int, str] = {}  # visits named by the period they are alone in
    for i, enc in enumerate(encounters):
        neighbours = (tops[i - 1] if i else None, tops[i + 1] if i + 1 < len(tops) else None)
        # A lone name over one column with no visit number names that visit ("ET", "UNS"); in a
        # row of periods, a period's name names both ("Screening (D-42 to -2)" beside "Treatment
        # Period" over many columns: the screening visit, in the Screening epoch).
        alone = enc["visit"] is None and len(enc["_words"]) == 1 and tops[i] not in neighbours
        if alone and spanning and _LONE_PERIOD.match(tops[i]):
            named[i] = tops[i]
        elif alone or (tops[i] and tops[i] not in neighbours and _VISIT_EVENT.search(tops[i])):
            tops[i] = None
        elif tops[i] and is_axis_title(tops[i]):
            tops[i] = None  # a time axis over some of the columns ("Study Day", "Day 3 to 28"): no period
        elif tops[i] and _VISIT_CODE.match(tops[i]):
            tops[i] = None  # a visit's code over its columns ("V24ext", "Visit 3"): that visit, no period
        elif tops[i] and _DANGLING.search(tops[i]):
            tops[i] = None  # a phrase the cell's line breaks cut ("Screen or" / "Day 0"): one visit's name
    out: list[dict] = []
    for i, enc in enumerate(encounters):
        words = enc.pop("_words")
        top = tops[i] if spanning else None
        if top:
            words = words[1:]
            label = _epoch_name(top)
            enc["epoch"] = label
            if out and out[-1]["label"] == label and out[-1]["encounters"][-1] == i - 1:
                out[-1]["encounters"].append(i)
            else:
                out.append({"label": label, "encounters": [i]})
        if enc["visit"] is None and words:
            enc["visit"] = words[-1]
        elif enc["visit"] is None and i in named:
            enc["visit"] = named[i]
    return out


# A visit that happens once, not a period: it closes or interrupts the period it sits in.
_VISIT_EVENT = re.compile(
    r"^\s*(?:end\s+of\b|EO[STP]\b|E?ET\b|early\s+(?:termination|withdrawal|discontinuation)|unscheduled|"
    r"randomi[sz]ation|premature|final\s+visit|"
    r"(?:(?:study|trial|treatment|drug|intervention)\s+){0,2}(?:discontinuation|withdrawal))"
    r"(?!\s+(?:period|phase)\b)",  # a "Treatment Withdrawal Period" is a period
    re.I,
)
# A period before treatment that a single visit column may stand for, named first in its header
# (the screening period is often one visit). A lone "Follow-up" or "Long-Term Follow-up" column
# is left a visit: it is as often one contact in a longer follow-up period.
_LONE_PERIOD = re.compile(
    r"^\s*(?:pre-?screening|screening|pre-?study|pre-?treatment|run[- ]?in|lead[- ]?in|wash[- ]?out)\b", re.I
)
_VISIT_CODE = re.compile(r"^\s*(?:V|Visit\s*)\d+[A-Za-z]*\s*$", re.I)
# A name ending in a word that joins it to what follows ("Screen or") is not a name: the rest
# is below it. A word ("Run-in") is not cut.
_DANGLING = re.compile(r"(?:(?<!\S)(?:or|and|to|of|for|with|at|by|in)|\s[&+])\s*$", re.I)
_AXIS_UNIT = re.compile(r"\s*[\[(](?:study\s+)?(?:days?|weeks?|months?|hours?|visits?)[\])]\s*$", re.I)
_PERIOD_WORD = re.compile(
    r"\b(?:period|phase|epoch|stage|part|screening|run[- ]?in|wash[- ]?out|treatment|follow[- ]?up|"
    r"extension|maintenance|induction|titration|baseline|cycles?|intervention|observation)\b",
    re.I,
)
_AXIS_WORD = re.compile(r"\b(?:days?|weeks?|months?|hours?|visits?|time\s*points?)\b", re.I)


def _epoch_name(top: str) -> str:
    """An epoch as a name: without the axis's unit ("[weeks]"), the period's own timing in
    brackets ("Screening (-42 to -1)") or footnote markers after a comma ("Follow-up,b")."""
    name = _AXIS_UNIT.sub("", top) or top
    name = re.sub(r",\s?[a-z](?:\s?,\s?[a-z])*$", "", name)
    name = re.sub(r"\s*\([^()]*\d[^()]*\)$", "", name)
    name = re.sub(r"\s*\([^()]*$", "", name)  # a bracket the header's line break cut ("Screening (")
    return name.strip() or top


def is_axis_title(text: Optional[str]) -> bool:
    """Whether a header over every visit column names the visit axis ("Study Visit (Day)",
    "Study Day", "Assessments per Planned Study Day") rather than a period."""
    text = _AXIS_UNIT.sub("", text or "")
    return bool(_AXIS_WORD.search(text)) and not _PERIOD_WORD.search(text)


_NOTES_START = re.compile(r"^(?:notes?|abbreviations?|key|legend|footnotes?|source|[xX✓•●]\s*=|\*)\b\s*[:.=-]?", re.I)


_CONTINUED = re.compile(
    r"^\(?(?:table\s+)?(?:continued|cont'd)\b|\bcontinued\s+(?:on|from)\s+(?:the\s+)?(?:next|previous|following)\s+page\b",
    re.I,
)


def is_notes_row(text: str, r: int, rows, columns, markers: set[str]) -> bool:
    """A row with no mark that is a note printed inside the grid, not an activity or a group:
    it opens like a note or a legend ("Note:", "Abbreviations:", "X = required"), it says the
    table goes on ("Table continued on next page"), or it opens like a
    footnote with a marker the table uses ("a A cycle is 21 days"), or it is prose (a sentence)
    after the last marked row."""
    if _NOTES_START.match(text) or _CONTINUED.search(text):
        return True
    note = _NOTE.match(text)
    if note and (note["sup"] or note["marker"] or "").strip() in markers and len(note["text"]) > 12:
        return True
    marked_after = any(any(is_mark(x[k].strip()) for k in columns) for x in rows[r + 1 :])
    return not marked_after and len(text) > 40 and bool(re.search(r"[a-z]\s+[a-z]+.*[.;]$", text))


def _rows(table, label, columns, markers, vocabulary, diagnostics, lead=0, extra=()):
    groups, activities, marks, notes_rows = [], [], [], []
    rows = join_row_pieces(table.data, [label, *extra], columns, lead, diagnostics)
    group = None
    nested = [k for k in extra if is_nested_label(table, label, k)]
    for r, row in enumerate(rows):
        if r < lead:
            continue
        texts = [" ".join(row[k].split()) for k in [label, *extra]]
        text = " / ".join(dict.fromkeys(t for t in texts if t))
        if nested:
            outer, inner = texts[0], " ".join(row[nested[-1]].split())
            if outer and inner:  # a group label beside its first activity
                group = split_markers(outer, markers, vocabulary)[0]
                groups.append({"label": group, "row": r, "footnotes": []})
            elif outer:  # a label spanning both columns: an activity (or a group row) of its own
                group = None
            text = inner or outer
        cells = [(e, row[k].strip()) for e, k in enumerate(columns) if row[k].strip()]
        if text and cells and all(" ".join(c.split()) == text for _, c in cells):
            cells = []  # one cell across the row, repeated in every column by the converter
        if not text and not cells:
            continue
        if not cells and is_notes_row(text, r, rows, columns, markers):
            notes_rows.append({"text": text, "row": r})
            diagnostics.append(f"row {r}: a notes or legend row ({text[:60]!r}), not an activity")
            continue
        if (not text or _names_label_column(table, label, text)) and _repeats_header(table, row, columns, lead):
            diagnostics.append(f"row {r}: repeats the visit header (a later page's header), not an activity")
            continue
        if not text:
            diagnostics.append(f"row {r}: {len(cells)} mark(s) with no activity label, left out")
            continue
        clean, notes = split_markers(text, markers, vocabulary)
        if not cells:
            nxt = next((x for x in rows[r + 1 :] if any(x[k].strip() for k in columns) or x[label].strip()), None)
            heads = nxt is not None and any(nxt[k].strip() for k in columns)
            after_activity = activities and activities[-1]["row"] == r - 1
            reads_on = (
                clean[:1].islower() or re.search(r"(?:[-,/(]|\b(?:and|or|of|for|with|to))$", activities[-1]["label"])
                if after_activity
                else False
            )
            wrapped = after_activity and (reads_on or r in table.part_rows)  # or the page break cut the row
            if not heads and after_activity and nxt is not None and wrapped:
                # A label-only line between an activity and a group row that reads on from the
                # activity's label ("Blood sampling for" / "PK and PD"), or that opens the next
                # page's part of the table: the activity's label, wrapped or cut by the page break.
                activities[-1]["label"] += " " + clean
                activities[-1]["footnotes"] += notes
                continue
            if heads or nxt is not None:
                group = clean
                groups.append({"label": clean, "row": r, "footnotes": notes})
                continue
        activities.append({"label": clean, "row": r, "group": group, "footnotes": notes})
        a = len(activities) - 1
        cells = spanned_cells([row[k].strip() for k in columns], cells, r, diagnostics)
        for e, cell in cells:
            mark, cell_notes = split_mark(cell)
            if "\n" in cell or "  " in cell or re.fullmatch(r"(?:[Xx]\s+)+[Xx]", cell):
                diagnostics.append(
                    f"row {r}, column {columns[e]}: one cell holds several marks ({' '.join(cell.split())!r}): "
                    "columns may be merged"
                )
            marks.append({"activity": a, "encounter": e, "text": mark, "footnotes": cell_notes})
    return groups, activities, marks, notes_rows


_READS_ON = re.compile(r"^[a-z]{2,}\b(?![-\d])")  # "review", "samplesg": not "e-diary", "pH", "hCG"


def join_row_pieces(
    rows: list[list[str]], labels: list[int], columns: list[int], lead: int, diagnostics: list[str]
) -> list[list[str]]:
    """The rows with the pieces of one printed row put back together. In a grid without rules
    between its rows, the table stage cuts a row at each line of text: a label of two lines
    ("Adverse event" / "review"), a time list spread over four ("P, 0.5, 1, 1.5" / "2, 2.5," /
    "3, 4, 5, 6, 8," / "12 h") beside a label in the middle. A piece is
    - a row of cells with no label whose cells continue the words (not marks) of the one labelled
      row beside it that fills the same columns; or
    - a row whose label reads on in lower case ("review") after a label with no cells; or one
      with no cells of its own, or with words in the same columns as the row above it.
    Joined rows are emptied in place, so every row keeps its number."""
    rows = [list(r) for r in rows]

    def label(r: int) -> str:
        return " ".join(" ".join(rows[r][k].split()) for k in labels if rows[r][k].strip())

    def filled(r: int) -> set[int]:
        return {k for k in columns if rows[r][k].strip()}

    def wordy(r: int, ks: set[int]) -> bool:
        return any(not is_mark(rows[r][k].strip()) for k in ks)

    def join(into: int, piece: int, what: str) -> None:
        first, second = sorted((into, piece))
        for k in range(len(rows[into])):
            rows[into][k] = " ".join(x for x in (rows[first][k].strip(), rows[second][k].strip()) if x)
        rows[piece] = [""] * len(rows[piece])
        diagnostics.append(f"row {piece}: {what}, joined to row {into} (one printed row cut at its lines)")

    for r in range(lead, len(rows)):
        ks = filled(r)
        if label(r) or not ks or not wordy(r, ks):
            continue
        hosts = [n for n in (r - 1, r + 1) if lead <= n < len(rows) and label(n) and ks <= filled(n) and wordy(n, ks)]
        if len(hosts) == 1:
            join(hosts[0], r, "cells with no label")
    for r in range(lead + 1, len(rows)):
        text = label(r)
        above = next((n for n in range(r - 1, lead - 1, -1) if label(n) or filled(n)), None)
        if not _READS_ON.match(text) or above is None or not label(above):
            continue
        if not filled(above):
            join(r, above, "a label's first line")
        elif not filled(r) or filled(above) == filled(r) and wordy(above, filled(above)):
            join(above, r, "a label's next line")
    return rows


def _header_key(text: str) -> str:
    """A header as compared with its repeat on a later page: spaces and case aside, and a
    footnote number glued to a word left out (the later page numbers its notes anew:
    "Cycle1" there prints "Cycle12")."""
    return re.sub(r"(?<=[a-z])\d+\b", "", " ".join(text.split()).lower())


def _header_keys(header: str) -> set[str]:
    """The keys of a column's header whole and of each of its parts."""
    return {_header_key(header)} | {_header_key(p) for p in header.split(" / ")}


def _names_label_column(table: Table, label: int, text: str) -> bool:
    """Is ``text`` the label column's own header ("Day", "Procedure") printed again?"""
    return _header_key(text) in _header_keys(table.columns[label])


def _repeats_header(table: Table, row: list[str], columns: list[int], lead: int) -> bool:
    """A row, with no label or the label column's own header, whose every filled cell prints
    its column's header again (a header row of the grid's next page, left in the body): the
    whole header, one of its parts or a header row above the marks."""
    filled = [k for k in columns if row[k].strip()]
    if not filled:
        return False
    for k in filled:
        printed = _header_keys(table.columns[k]) | {_header_key(r[k]) for r in table.data[:lead]}
        if _header_key(row[k]) not in printed:
            return False
    return True


_LEFT_ARROW = "\u2190\u27f5\u25c4\u25c0\uf0df\uf0ac"
_RIGHT_ARROW = "\u2192\u27f6\u25ba\u25b6\uf0e0\uf0ae"
_ARROW_SPAN = re.compile(rf"^(?:[{_LEFT_ARROW}]|<[-=]+)(?P<text>.*?)(?:[{_RIGHT_ARROW}]|[-=]+>)$", re.S)


def spanned_cells(
    row: list[str], cells: list[tuple[int, str]], r: int, diagnostics: list[str]
) -> list[tuple[int, str]]:
    """A mark drawn as an arrow across columns ("<-- Optional -->", "\u2190 continuously \u2192") sits in
    one cell of the text layer: it marks that column and the empty cells it spans. Written in each
    slot of its merged cell, it runs over those slots; else rightwards it runs over the empty
    cells up to the next filled cell or the grid's end; leftwards only when a
    filled cell bounds it (text centred on the arrow), since an arrow starting at the grid's left
    edge is printed from its first column."""
    out = dict(cells)
    for e, cell in cells:
        m = _ARROW_SPAN.match(" ".join(cell.split()))
        if not m:
            continue
        if e > 0 and " ".join(row[e - 1].split()) == " ".join(cell.split()):
            continue  # one arrow written in each slot of its merged cell: read with the run's first
        text = " ".join(m["text"].replace("=", " ").split()) or "\u2194"
        same = [" ".join(c.split()) == " ".join(cell.split()) for c in row]
        right, left = e + 1, e
        if right < len(row) and same[right]:  # written in each slot of its merged cell: that run
            while right < len(row) and same[right]:
                right += 1
        else:
            while right < len(row) and not row[right]:
                right += 1
            while left > 0 and not row[left - 1]:
                left -= 1
            left = left if left > 0 else e
        for k in range(left, right):
            out[k] = text
        diagnostics.append(
            f"row {r}: an arrow ({text!r}) read as marks in {right - left} visit column(s), "
            f"from visit column {left} to {right - 1}"
        )
    return sorted(out.items())


def split_mark(cell: str) -> tuple[str, list[str]]:
    """A mark and its footnote markers: "Xa" -> ("X", ["a"]); "X b,c" -> ("X", ["b", "c"]).
    Other cell text (a time list, "Day 1 only") is kept as printed, with no markers."""
    text = " ".join(cell.split())
    m = _MARK.match(text)
    if not m or not m["markers"]:
        return text, []
    return m["mark"], [x.strip() for x in m["markers"].split(",")]


# Words a number belongs to when glued on ("Day1", "Visit2", "Cycle3", "Dose2"): never a marker.
_NUMBERED_WORD = re.compile(
    r"^(?:visits?|cycles?|periods?|phases?|parts?|cohorts?|arms?|groups?|stages?|levels?|doses?|"
    r"days?|weeks?|months?|years?|hours?|minutes?|mins?|hrs?|wks?)$",
    re.I,
)


def split_markers(text: str, markers: set[str], vocabulary: set[str]) -> tuple[str, list[str]]:
    """A label without the footnote markers glued to its words, and the markers in order."""
    found: list[str] = []
    symbols = _SYMBOL_MARKERS.search(text)
    if symbols and symbols.group(0) in markers | {"*", "†", "‡", "§", "¶"}:
        found.append(symbols.group(0))
        text = text[: symbols.start()].rstrip()

    def unglue(m: re.Match) -> str:
        word = m.group(0)
        if word[-1] in markers and _glued(word.lower(), vocabulary):
            found.append(word[-1])
            return word[:-1]
        return word

    def after_bracket(m: re.Match) -> str:  # "(safety)t": a letter right after a bracket
        found.append(m.group(1))
        return ""

    def number_glued(m: re.Match) -> str:  # "Consent7", "Events11": a number marker after a known word
        if m.group(2) in markers and m.group(1).lower() in vocabulary and not _numbered(m):
            found.append(m.group(2))
            return m.group(1)
        return m.group(0)

    text = _WORD.sub(unglue, text)
    letters = "".join(sorted(x for x in markers if len(x) == 1 and x.isalpha()))
    if letters:
        text = re.sub(rf"(?<=[)\]])([{letters}])(?![A-Za-z])", after_bracket, text)
    if any(x.isdigit() for x in markers):
        text = re.sub(r"\b([A-Za-z][A-Za-z'’-]*[a-z])(\d{1,2})\b", number_glued, text)
    return " ".join(text.split()), found


def _numbered(m: re.Match) -> bool:
    """Whether the number glued to a word numbers it ("Day1", "Visit2", "Cycles2-6") rather than
    being a footnote marker. A plural is numbered only by a range or list ("Days 1-3", "Cycles
    2, 3"): "Subsequent Cycles2" is the plural with footnote 2."""
    word = m.group(1)
    if not _NUMBERED_WORD.match(word):
        return False
    if not word.lower().endswith("s"):
        return True
    return bool(_RANGE_AFTER.match(m.string, m.end()))


# what goes on from a number to make it a range or list ("2-6", "2 to 6", "2, 3", "2 and 3", "2 3 4")
_RANGE_AFTER = re.compile(r"\s*(?:[-\u2013,&/+]|to\b|and\b|through\b)?\s*\d", re.I)


def _glued(word: str, vocabulary: set[str]) -> bool:
    """Is the word's last letter a glued marker? The word is not the document's, the word
    without the letter is (or its singular is: "demographicsi"). An "s" or "d" that makes a
    plural or past tense of a known word ("checks", "placed") stays."""
    if word in vocabulary or len(word) < 3:
        return False
    stem = word[:-1]
    if word[-1] in "sd" and stem in vocabulary:
        return False
    return stem in vocabulary or stem.endswith("s") and stem[:-1] in vocabulary


def read_footnotes(notes: str) -> list[dict]:
    """The footnotes printed after a table, in order: marker and text. A line whose marker the
    converter turned into a bullet ("o" -> "- ") between two markers of a run ("n", "p") takes
    the missing one; two footnotes run into one paragraph ("b … c At the …") are split where the
    next marker of the run starts a sentence."""
    out: list[dict] = []
    pending: list[str] = []
    for para in _paragraphs(notes):
        m = _NOTE.match(para)
        if m:
            marker = (m["sup"] or m["legend"] or m["marker"]).strip()
            if any(f["marker"] == marker for f in out):
                break  # a marker again: the notes of a later table (or a part repeating them)
            if pending and out:
                _fill_gap(out, pending, marker)
            pending = []
            out.append({"marker": marker, "text": m["text"].strip()})
            _split_run(out)
        elif out and re.match(r"^[-•]\s+\S", para):
            pending.append(para[2:].strip())
    return out


def read_legend(notes: str) -> list[dict]:
    """The abbreviations printed with a table ("Abbreviations: C-I = check-in; EOS = End of
    Study, ..."), in their order: the legend after the table (before the next table), pairs
    "X = y" split at the separator before the next "X =" (a comma or semicolon)."""
    here = re.split(_PLACEHOLDER.pattern, notes, maxsplit=1, flags=re.M)[0]
    for para in _paragraphs(here):
        m = _LEGEND.match(para)
        if m:
            return legend_pairs(m["pairs"])
    return []


def with_legend_rows(legend: list[dict], notes_rows: list[dict]) -> list[dict]:
    """The legend after the table and the one printed in a row inside the grid, each pair once."""
    pairs = list(legend)
    for row in notes_rows:
        m = _LEGEND.match(row["text"])
        if m:
            pairs += legend_pairs(m["pairs"])
    seen: set[str] = set()
    return [p for p in pairs if not (p["abbreviation"] in seen or seen.add(p["abbreviation"]))]


def legend_pairs(text: str) -> list[dict]:
    """ "AE = adverse event; C-I = check-in, EOS/ET = End of Study or Early Termination" as pairs."""
    starts = list(_LEGEND_KEY.finditer(text))
    out = []
    for m, after in zip(starts, starts[1:] + [None]):
        expansion = text[m.end() : after.start() if after else len(text)]
        expansion = " ".join(expansion.split())
        # the last one runs on into a footnote ("PK = pharmacokinetic(s) a At Visit 4: ...") or a sentence
        expansion = _LEGEND_END.split(expansion, maxsplit=1)[0].rstrip(" ;,.")
        if expansion:
            out.append({"abbreviation": m["key"], "expansion": expansion})
    return out


# (not at an article, "as a Single dose", nor after "e.g." or "i.e.")
_LEGEND_END = re.compile(
    r"(?<=[a-z)])(?<!\bas)(?<!\bis)(?<!\bof)(?<!\bto)(?<!\bin)(?<!\bfor)(?<!\bwith)\s+[a-z]\s+(?=[A-Z])"
    r"|(?<!\be\.g)(?<!\bi\.e)(?<!\bapprox)(?<!\bvs)\.\s+(?=[A-Z])"
)
_LEGEND = re.compile(r"^(?:[-•]\s+)?(?:abbreviations?|key)\s*:\s*(?P<pairs>\S.*)$", re.I)
# an abbreviation (one token) before "=", at the start or after a separator: "C-I", "EOS/ET", "AUC(0-∞)"
_LEGEND_KEY = re.compile(r"(?:^|[;,]\s*|\s)(?P<key>[^\s=;,]{1,20})\s*=\s*")


def _paragraphs(notes: str) -> list[str]:
    # Placeholders and headings are passed over: a table's parts and its "(continued)" caption
    # stand between the table and its footnotes.
    # The words read in a picture of the table come one line each: each line is a paragraph.
    notes = PICTURE_TEXT.sub(lambda m: m["text"].replace("\n", "\n\n"), notes)
    paras = (" ".join(p.split()) for p in re.split(r"\n\s*\n", notes))
    return [p for p in paras if p and not _PLACEHOLDER.match(p) and not p.startswith("#")]


def _next_marker(marker: str) -> Optional[str]:
    if len(marker) == 1 and marker.isalpha() and marker.islower() and marker != "z":
        return chr(ord(marker) + 1)
    if marker.isdigit():
        return str(int(marker) + 1)
    return None


def _fill_gap(out: list[dict], pending: list[str], marker: str) -> None:
    expected = _next_marker(out[-1]["marker"])
    if len(pending) == 1 and expected and _next_marker(expected) == marker:
        out.append({"marker": expected, "text": pending[0]})


def _split_run(out: list[dict]) -> None:
    last = out[-1]
    nxt = _next_marker(last["marker"])
    while nxt:
        m = re.search(rf"(?<=[.;)])\s+{re.escape(nxt)}\s+(?=[A-Z])", last["text"])
        if not m:
            return
        head, tail = last["text"][: m.start()].strip(), last["text"][m.end() :].strip()
        last["text"] = head
        last = {"marker": nxt, "text": tail}
        out.append(last)
        nxt = _next_marker(nxt)


def _check_footnotes(encounters, activities, marks, groups, markers, diagnostics) -> None:
    used = {x for item in activities + marks + groups for x in item["footnotes"]}
    for marker in sorted(used - markers):
        diagnostics.append(f"footnote {marker!r} is used in the table but its text was not found below it")


def vocabulary_of(texts) -> set[str]:
    """The lower-case words of a document's running text (tables left out: their words carry
    the glued markers this vocabulary tells apart)."""
    words: set[str] = set()
    for text in texts:
        words.update(w.lower() for w in _WORD.findall(text))
    return words
