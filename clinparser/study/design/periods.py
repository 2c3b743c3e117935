"""The study's periods (epochs) in time order, from the place that lays the most of them out:

- the study schema's box labels ("Screening Period | Double-blind Treatment Period | Follow-up
  Period" over its boxes), when they name more periods than any other place;
- the titles of sibling sections, when a procedures chapter gives each period its own
  ("6.2.1 Screening", "6.2.2 Treatment period"), or the unnumbered headings inside a section
  that lays the study out ("4.1 Overall Design" with "Screening", "Treatment and Assessment
  Period", "Follow-Up" in bold), when they name more than any sentence;
- the design fields' sentences: "a screening period of up to 28 days, a 12-week treatment
  period and a 4-week follow-up period", "Screening period – up to 4 weeks" as lines: each
  "<name> period" (or phase) once, put in the order a study runs them;
- else the main schedule's epoch row, less the visits it names.

A period numbered as a sequence ("Treatment Period 1", "Washout Period 1", "Treatment Period
2") is one period per number.
"""

from __future__ import annotations

import re
from typing import Optional

from ...document_types import Document
from ...shared.markup import strip_markup
from ..criteria import section_pages
from ..trace import Tracer
from .fields import Field, find, sections
from .items import item, sentences

DESIGN_LABEL = re.compile(r"\bdesign\b|\bmethodology\b|\bduration\b|\bstudy\s+periods?\b|\bschema\b|\boverview\b", re.I)
_NAME = (
    r"(?:screening|run[- ]in|wash[- ]?out|lead[- ]in|baseline|treatment|double[- ]blind(?:\s+treatment)?|"
    r"open[- ]label(?:\s+(?:treatment|extension))?|maintenance|induction|titration|extension|follow[- ]?up|"
    r"safety\s+follow[- ]?up|post[- ]treatment(?:\s+follow[- ]?up)?|observation|dosing|dose[- ]escalation|"
    r"dose[- ]expansion|core|main)"
)
# a word between a period's name and "period" qualifies it ("treatment extension period"), unless
# it starts another phrase ("extension beyond this period", "washout of the period")
_BETWEEN = r"(?:(?!(?:beyond|this|that|the|of|for|to|in|at|between|after|before|during|each|per|a|an)\b)\w+\s+)"
# a period's number stays with it ("Treatment Period 2", "Washout Period 1"), unless it is a length
_ORDINAL = r"(?:\s+(?P<number>[1-9]|[IVX]{1,4})\b(?!\s*[-\u2013]?\s*(?:weeks?|days?|months?|years?|hours?)\b))"
_PERIOD = re.compile(
    rf"\b(?P<name>(?:{_NAME}\s*/\s*)?{_NAME})\s+{_BETWEEN}{{0,2}}?(?:period|phase|epoch)(?:s\b|\b{_ORDINAL}?)"
    rf"|\b(?:period|phase)\s+of\s+(?P<after>{_NAME})\b"
    rf"|\b(?P<lead>{_NAME})(?:\s+period)?\s*[:\u2013\u2014-]\s*(?:up\s+to\s+)?\d",
    re.I,
)


def read_epochs(
    fields: list[Field], schedules: list[dict], tracer: Tracer, document: Optional[dict] = None
) -> list[dict]:
    best: list[tuple[str, str]] = []
    best_field = None
    for field in find(fields, DESIGN_LABEL):
        found: list[tuple[str, str]] = []
        matches = [
            (m, sentence)
            for sentence in sentences(field.value)
            if not _NOT_A_STUDY_PERIOD.search(sentence)
            for m in _PERIOD.finditer(sentence)
        ]
        # a period keeps its number where the field numbers it as a sequence (two numbers at least)
        numbers: dict[str, set[str]] = {}
        for m, _ in matches:
            if m["number"]:
                numbers.setdefault(_name(m["name"]).lower(), set()).add(m["number"])
        numbered = {name for name, seen in numbers.items() if len(seen) >= 2}
        for m, sentence in matches:
            name = _name(m["name"] or m["after"] or m["lead"])
            if m["number"] and name.lower() in numbered:
                name = f"{name} period {m['number']}"
            if name.lower() not in {n.lower() for n, _ in found}:
                found.append((name, sentence))
        found = _most_specific(found)
        # the field naming the most periods is the one that lays them all out (an overview);
        # the others mention one or two in passing
        if len(found) > len(best):
            best, best_field = found, field
    headed = _headed_periods(document or {})
    drawn = _schema_periods(document or {}, tracer)
    # the place laying out the most is chosen with the time points it names beside the periods
    # ("Baseline"), which are then left out
    if len(drawn) > max(len(best), len(headed), 1):
        return [item(tracer, field, name, name=name) for name, field in drawn if not TIME_POINT.match(name)]
    if len(headed) > max(len(best), 1):
        return [item(tracer, field, field.label, name=name) for name, field in headed if not TIME_POINT.match(name)]
    if len(best) >= 2:
        return [item(tracer, best_field, sentence, name=name) for name, sentence in _in_time_order(best)]
    # no sentence names the periods: the main schedule's epoch row, less the visits it names
    main = next((s for s in schedules if s.get("main")), schedules[0] if schedules else None)
    names = [" ".join(e["label"].split()) for e in (main or {}).get("epochs") or [] if e.get("label")]
    names = [n for n in dict.fromkeys(names) if _is_period_label(n)]
    return [item(tracer, None, n, name=n) for n in names] if len(names) >= 2 else []


def _is_period_label(label: str) -> bool:
    """A schedule's epoch label that names a study period, its abbreviation aside ("Screening
    (SCR)", "Safety Follow-up (SFU)"), not a visit ("Day 1", "End of Treatment")."""
    bare = " ".join(re.sub(r"\([^()]*\)", " ", label).split())
    return bool(_EPOCH_WORD.search(bare)) and not _VISIT_WORD.search(bare)


# A section title that names a period: "Screening", "Treatment Period", "Post-Treatment
# Follow-up", "Screening/Baseline Assessments", "Treatment (Day 1-27) and Follow up Periods",
# "Period after the database lock for the final analysis"
_HEAD_NAME = (
    rf"(?:{_NAME}|pre-?screening|pre-?treatment|pre-?study|post-?treatment(?:\s+follow[- ]?up)?|check[- ]?in|"
    r"admission|end\s+of\s+(?:trial|study|treatment)\s+and\s+follow[- ]?up)"
)
# what a title may add after the period's name: the things done in it ("Screening Assessments")
_DONE_IN = r"(?:assessments?|procedures?|visits?|evaluations?)"
_HEADED = re.compile(
    rf"^(?P<names>{_HEAD_NAME}(?:\s*(?:/|\band\b|\bor\b)\s*{_HEAD_NAME})*)"
    # one word may qualify a named period ("Treatment and Assessment Period")
    rf"(?:(?:\s+and)?\s+\w+(?=\s+(?:period|phase)\b))?"
    rf"(?:\s+(?:period|phase|epoch|stage)s?(?:\s+[1-9])?)?(?:\s+{_DONE_IN})?$"
    rf"|^(?:period|phase)\s+(?:after|before|following)\b",
    re.I,
)
# A section that lays the periods out under headings of its own ("4.1 Overall Design" with
# "Screening", "Treatment and Assessment Period", "Follow-Up" in bold; "8 Study Calendar" with
# "Pre-study Assessments", "Treatment Assessments", "Post-treatment/Follow-up Assessments")
_LAYS_OUT = re.compile(
    r"\bdesign\b|\bperiods?\b|\bphases?\b|\bcalendar\b|\bschedule\b|\bprocedures\b|\bassessments\b|"
    r"\bvisits\b|\boverview\b|\bmethodology\b",
    re.I,
)
# a heading line inside a section's text: a markdown heading, or a line wholly in bold
_INLINE_HEADING = re.compile(r"^\s*(?:#{1,6}\s+(?P<hashed>.+?)|\*\*(?P<bold>[^*]+?)\*\*:?)\s*$")


def _headed_periods(document: Document) -> list[tuple[str, Field]]:
    """Periods named by the titles of sibling sections ("6.2.1 Screening", "6.2.2 Treatment
    period", "6.2.3 End of trial and follow-up period"): where a procedures chapter gives each
    period its own section. Two siblings at least, below the top level, in their order; a title
    naming two periods joined by "and" is both. Or by the headings inside one section that lays
    the study out (``_inline_periods``). The run naming the most periods, two at least."""
    runs: list[list[tuple[str, Field]]] = []

    def walk(nodes: list[dict], depth: int) -> None:
        run: list[tuple[str, Field]] = []
        for node in nodes:
            title = _bare_title(node.get("title") or "")
            if depth:
                where = Field(title, "", node.get("number"), section_pages(node), False, "section")
                run += _titled_periods(title, where)
            if _LAYS_OUT.search(title):
                runs.append(_inline_periods(node, title))
            walk(node.get("subsections") or [], depth + 1)
        if len({f.section for _, f in run}) >= 2:
            runs.append(run)

    walk(document.get("toc") or [], 0)
    runs = [_first_of_each(run) for run in runs]
    return max((run for run in runs if len(run) >= 2), key=len, default=[])


def _bare_title(title: str) -> str:
    """A title without markup or brackets ("Screening (Day -28 to -1)": "Screening")."""
    return " ".join(re.sub(r"\s*\([^()]*\)", "", strip_markup(title)).split())


# "Baseline", "Study baseline", "Baseline Visit": a time point (the day treatment starts) that a
# procedures chapter or a schema names beside the periods, not a period; "Baseline Period" (a
# prospective observation of weeks) is one
TIME_POINT = re.compile(rf"^(?:study\s+)?baseline(?:\s+{_DONE_IN})?$", re.I)


def _titled_periods(title: str, where: Field) -> list[tuple[str, Field]]:
    """The periods a title names: none, one (its name less what is done in it, "Screening
    Assessments": "Screening"), or each of two joined by "and" ("Treatment and Follow up
    Periods")."""
    m = _HEADED.match(title)
    if not m:
        return []
    if m["names"] and re.search(r"\band\b", m["names"], re.I) and not re.match(r"end\s+of", m["names"], re.I):
        return [(_name(n), where) for n in re.split(r"\s+and\s+", m["names"], flags=re.I)]
    return [(re.sub(rf"\s+{_DONE_IN}$", "", title, flags=re.I) or title, where)]


def _inline_periods(node: dict, title: str) -> list[tuple[str, Field]]:
    """The periods named by the headings inside a section's text, in their order: a section
    that lays the study out gives each period a heading of its own without a number."""
    found: list[tuple[str, Field]] = []
    for line in (node.get("text") or "").split("\n"):
        m = _INLINE_HEADING.match(line)
        if m:
            heading = _bare_title(m["hashed"] or m["bold"]).rstrip(" :")
            where = Field(heading, "", node.get("number") or title, section_pages(node), False, "section")
            found += _titled_periods(heading, where)
    return found


def _first_of_each(run: list[tuple[str, Field]]) -> list[tuple[str, Field]]:
    """A period titled twice once, where first titled."""
    first: dict[str, tuple[str, Field]] = {}
    for name, where in run:
        first.setdefault(name.lower(), (name, where))
    return list(first.values())


# The schema: a section titled for it ("1.2 Schema", "Flow Chart", "Trial Diagram") or a figure
# captioned so ("Figure 1: Study Design Schematic")
_SCHEMA = re.compile(
    r"\bschema\b|\bschematic\b|\bflow\s*chart\b|\b(?:study|trial)\s+(?:design|diagram)\b|\bdesign\s+diagram\b", re.I
)
# A box label naming a period: a few capitalized qualifiers, then a period's name ("Double-blind
# Treatment Period", "Long-term Follow-up", "Initial Treatment Phase", "Screening")
_LABEL = re.compile(
    rf"^(?:(?!(?i:period|phase|epoch|{_HEAD_NAME})\b)[A-Z][\w-]+\s+){{0,3}}?(?i:{_HEAD_NAME})"
    rf"(?:\s+(?i:period|phase|epoch)(?:\s+[1-9])?)?$"
)
# a line's labels end at each "Period"/"Phase" (boxes side by side read as one line)
_ENDS = re.compile(r"\S.*?\b(?:period|phase|epoch)\b(?:\s+[1-9]\b)?|\S.+$", re.I)


def _schema_periods(document: Document, tracer: Optional[Tracer] = None) -> list[tuple[str, Field]]:
    """Periods the study schema's boxes are labelled with, in their order: the lines of a
    schema section (its figure's words, its bold lines), the header of a table drawn there,
    or the words of a figure captioned as the schema anywhere (each box's label whole, its
    lines stacked again, where the picture's lines keep their places). The schema naming the
    most periods is the one; a label standing inside a longer one ("Screening" in a box below
    "Screening Period") is that period again. Schedules of activities are not schemas."""
    best: list[tuple[str, Field]] = []
    for node, _, toc in sections(document):
        where = Field(
            strip_markup(node.get("title") or ""),
            "",
            node.get("number") or node.get("title"),
            section_pages(node),
            not toc,
            "section",
        )
        places: list[list[str]] = []
        tables = [t for t in node.get("tables") or [] if t.get("schedule") is None]
        if _SCHEMA.search(node.get("title") or ""):
            places.append(
                (node.get("text") or "").split("\n") + [str(c) for t in tables for c in t.get("columns") or []]
            )
        else:
            places += [[str(c) for c in t.get("columns") or []] for t in _captioned_schemas(node)]
        for image in node.get("images") or []:
            if _SCHEMA.search(image.get("title") or "") or _SCHEMA.search(node.get("title") or ""):
                places.append((image.get("text") or "").split("\n"))
                if tracer is not None and image.get("page") is not None and image.get("bbox"):
                    places.append(_box_texts(tracer.picture_lines(image["page"], image["bbox"])))
        for lines in places:
            found = _labels(lines)
            if len(found) > len(best):
                best = [(name, where) for name in found]
    return best


_FIGURE_CAPTION = re.compile(r"^\W*(?:figure|fig\.)\s+[\w.-]+", re.I)


def _captioned_schemas(node: dict) -> list[dict]:
    """The node's tables captioned as the schema: by their title, or by a figure caption
    printed right below them (a schema drawn in boxes that the converter read as a table,
    "Figure 1: Study Design" under it). A table's place in the text is its placeholder,
    "[Table]" or "[its title]", in the order of the node's tables."""
    tables = node.get("tables") or []
    lines = [line.strip() for line in (node.get("text") or "").split("\n") if line.strip()]
    found, k = [], 0
    for i, line in enumerate(lines):
        if k < len(tables) and line == f"[{tables[k].get('title') or 'Table'}]":
            table, k = tables[k], k + 1
            below = strip_markup(lines[i + 1]) if i + 1 < len(lines) else ""
            if table.get("schedule") is None and (
                _SCHEMA.search(table.get("title") or "") or (_FIGURE_CAPTION.match(below) and _SCHEMA.search(below))
            ):
                found.append(table)
    return found


def _box_texts(lines: list[dict]) -> list[str]:
    """A picture's lines stacked back into the boxes they were printed in: a line directly under
    another, centred on it and no wider apart than a line's height, continues its box ("Treatment"
    over "Period 1" over "(4 weeks)"). Each box's text once, top to bottom and left to right,
    its notes in brackets left out."""
    boxes: list[list[dict]] = []
    for line in sorted(lines, key=lambda e: (e["bbox"][1], e["bbox"][0])):
        x0, y0, x1, y1 = line["bbox"]
        for box in boxes:
            a = box[-1]["bbox"]
            centred = abs((a[0] + a[2]) / 2 - (x0 + x1) / 2) <= 0.25 * max(a[2] - a[0], x1 - x0)
            # OCR's boxes of stacked lines may overlap a little: up to a third of a line
            if centred and -(y1 - y0) / 3 <= y0 - a[3] <= 0.8 * (y1 - y0):
                box.append(line)
                break
        else:
            boxes.append([line])
    # bands of boxes whose heights overlap (labels of one, two or three lines centred in one row)
    spans = sorted(((min(e["bbox"][1] for e in b), max(e["bbox"][3] for e in b), b) for b in boxes), key=lambda t: t[0])
    bands: list[list] = []
    for top, bottom, box in spans:
        if bands and top < bands[-1][1]:
            bands[-1][1] = max(bands[-1][1], bottom)
            bands[-1][2].append(box)
        else:
            bands.append([top, bottom, [box]])
    ordered = [box for _, _, band in bands for box in sorted(band, key=lambda b: min(e["bbox"][0] for e in b))]
    texts = [" ".join(" ".join(e["text"] for e in box).split()) for box in ordered]
    return [" ".join(re.sub(r"\([^()]*\)?", " ", t).split()) for t in texts]


def _labels(lines: list[str]) -> list[str]:
    """The period names among a schema's lines, in order, each once."""
    found: list[str] = []
    for line in lines:
        bold = re.match(r"\s*\*\*(.+?)\*\*", line)  # "**Screening** Weeks -4 to -1": the bold label
        text = " ".join(strip_markup(bold[1] if bold else line.split("<br>")[0]).split())
        for m in _ENDS.finditer(text):
            name = " ".join(m.group(0).split()).strip(" :")
            if _LABEL.match(name) and not _VISIT_WORD.search(name):
                found.append(name)
    return [n for n in dict.fromkeys(found) if not any(n != o and _words(n) < _words(o) for o in found)]


def _words(name: str) -> set[str]:
    return set(re.findall(r"[a-z]+", name.lower().replace("-", " ")))


_EPOCH_WORD = re.compile(rf"\b(?:period|phase|epoch|stage|part)\b|^{_NAME}$", re.I)
_VISIT_WORD = re.compile(
    r"\b(?:end\s+of|early\s+(?:termination|withdrawal)|unscheduled|randomi[sz]ation|visit|day|week)\b", re.I
)


# "a washout period for prior treatments", "a 48-hour washout period between each attack": a gap
# the participant keeps before or between doses, not a period of the study
_NOT_A_STUDY_PERIOD = re.compile(
    r"\bperiods?\s+(?:for|from|of)\s+(?:\w+\s+){0,2}(?:prior|previous)\b|\bperiods?\s+between\b", re.I
)


def _most_specific(found: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Names less one whose words all stand in another's ("Treatment" beside "Double-blind
    treatment", "Follow-up" beside "Safety follow-up"): one period named twice, the longer
    name kept where the shorter was first printed."""
    out: list[tuple[str, str]] = []
    for name, sentence in found:
        wider = [n for n, _ in found if n != name and _words(name) < _words(n)]
        if wider:
            if not any(n == wider[0] for n, _ in out):
                out.append((wider[0], next(s for n, s in found if n == wider[0])))
        elif not any(n == name for n, _ in out):
            out.append((name, sentence))
    return out


# Where a period's name says when it runs: sentences name periods in any order ("Period 2 is a
# blinded extension period ..." before "a 35-day screening period; a 14-week treatment period"),
# a study runs them in this one. Periods of one rank keep the order printed.
_TIME_RANKS = [
    (r"pre-?screening", 0),
    (r"screening", 1),
    (r"run-in|lead-in|wash-?out|baseline", 2),
    (r"treatment|dosing|dose-escalation|titration|induction|core|main", 3),
    (r"maintenance|dose-expansion", 4),
    (r"extension|open-label", 5),
    (r"follow-?up|post-treatment", 6),
]


def _time_rank(name: str) -> Optional[int]:
    """The rank of a name's last period word, the one it is named for ("Safety follow-up": 6,
    "Open-label run-in": 2, "Post-treatment follow-up": 6), None when no word says when it runs."""
    text = name.lower().replace(" ", "-")
    found = [
        (m.end(), -m.start(), rank)  # of two words ending together the longer ("post-treatment")
        for pattern, rank in _TIME_RANKS
        for m in re.finditer(rf"\b(?:{pattern})\b", text)
    ]
    return max(found)[2] if found else None


def _in_time_order(found: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The periods named in sentences, in the order the study runs them, where every name says
    when (else as printed). A numbered sequence ("Treatment period 1", "Washout period",
    "Treatment period 2") keeps its order, its washouts between its treatments; the periods
    around it go where they run ("Run-in" before it, wherever printed)."""
    numbered = any(re.search(r"\d$", name) for name, _ in found)
    ranks = [3 if numbered and re.search(r"wash-?\s?out", name, re.I) else _time_rank(name) for name, _ in found]
    if None in ranks:
        return found
    return [pair for _, pair in sorted(zip(ranks, found), key=lambda t: t[0])]


def _name(text: str) -> str:
    text = " ".join(text.replace("-", " - ").split()).replace(" - ", "-")
    return text[:1].upper() + text[1:].lower()
