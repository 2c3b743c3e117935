"""Randomized schedule-of-activities layouts: many small synthetic protocols with exact truth.

``examples/make_protocol.py`` hand-writes two schedule fixtures (protocols 007 and 011).  This
module writes hundreds: :func:`layout` takes a seed and, with ``random.Random(seed)`` only,
invents a short protocol (title page, perhaps a table of contents, a protocol summary whose
"Schedule of Activities" section prints the main schedule, sometimes a later section with a
pharmacokinetic (PK) / biomarker sampling table) and chooses one variation of every family
below.  Every word is invented; the generator lays the tables out itself, so it knows every
visit column, activity row and mark, and returns them as the truth.

Families of variation (the names of the variations chosen are the truth's ``forms``; every
name of :data:`FORMS` is reachable, see the tests):

1. ``header.`` -- header depth ``rows1`` .. ``rows3`` (the window row not counted): one row
   of visit names ("Screening", "Week 4", "C1D8", "EOT"); or two rows (a spanning epoch row
   over the visit names, a visit-number row over a day/week row, a spanning cycle row over the
   days); or three (epoch, visit or cycle, day/week).  ``epoch``: a top row whose cells span
   different numbers of visit columns ("Screening" one, "Treatment" many, "Follow-up" two, a
   blank cell over an early-termination column).  ``visit_day``: a visit row above a day or
   week row (bare numbers "8" under a "Study Day" label, "D8", "Day 8", "W4", "Week 4").
   Windows ``window_row`` ("±3 days" in a row of their own), ``window_cell`` (inside the
   lowest cell: "Week 4 (±3d)" or "(±3 days)" on the cell's second line) or ``window_none``.
   ``labels_each``: the label column names each header row ("Study Period", "Visit", "Study
   Day", "Window"); ``label_merged``: one cell spanning the header rows ("Procedure").
   ``footnotes``: footnote letters on some visit header cells.  ``rowspan``: a header cell
   spanning header rows downwards (an early-termination / unscheduled column's name, an epoch
   cell over a visit of the same name: "Screening" once, not over itself).
2. ``notes.`` -- ``column``: a "Notes" / "Comments" / "Remarks" column of prose at the right
   (its header spans the header rows; on a sideways split only the last part has it), or
   ``none``.
3. ``groups.`` -- ``rows``: bold group rows on a grey fill spanning the table above their
   activities; ``column``: two-level row labels, a group column whose cells span their
   activities' rows beside an activity column, some rows ("Informed consent") spanning both;
   ``none``.
4. ``marks.`` -- the mark glyph of the table: ``x`` ("X"), ``check`` ("✓"), ``bullet``
   ("•"), ``letters`` (a letter code per cell, "C", "H", "L", explained under the table);
   and, combined with it, ``words`` (a few cells saying "pre-dose", "Day 3", ...),
   ``arrow_line`` (a drawn line with arrowheads across several visit columns, the columns
   merged into one cell or not), ``arrow_text`` ("←——→" printed in a cell merged across
   columns) and ``merged`` (one cell merged across columns saying "X" or "Ongoing").
5. ``footnotes.`` -- superscript letters on ``marks`` ("Xa") and/or on activity ``labels``
   ("Vital signsb"), listed under the table; ``none``.  ``legend.row``: a last row spanning
   the grid ("Abbreviations: ...") that is no activity.
6. ``split.`` -- ``none`` (one page); ``down_repeat``: rows continued on the next page under
   the repeated header (the caption repeated with "(continued)" or not at all);
   ``down_plain``: rows continued on the next page with no header and no caption;
   ``sideways``: the visit columns split over two pages, each repeating the label column and
   every row, the second under "(continued)", the caption, or nothing.
7. ``page.`` -- the schedule's pages: ``portrait``, ``landscape`` (a landscape media box) or
   ``rotated`` (a portrait media box turned by /Rotate 90, the table upright when viewed).
8. ``pk.`` -- ``table``: a side sampling table (portrait) whose columns repeat some main
   visits spanning their time points ("Pre-dose", "EOI", "2 h", "24 h") -- its own timeline,
   ``main`` false; or ``none``.

Truth (the reference-grid format of ``../shared/corpus/soa``, one entry per table):
``{"seed", "forms", "pages", "timelines": [{"name", "pages", "main", "encounters",
"activities", "marks"}]}``, a side table's also ``main_encounters``: per visit column, the
main table's visit column (0-based) it samples at, or null where the generator did not place it
at a main visit.  ``name`` is the caption as printed (without "(continued)");
``pages`` the 1-based PDF pages the table's grid is printed on; ``encounters`` one per visit
column, left to right: the column's header cells top to bottom (a cell spanning several
columns counts for each, a cell spanning rows once), each cell's lines joined by a space,
footnote letters removed, blank cells left out, joined with " / " ("Treatment / 3 / Day 8 /
±3 days", "Cycle 1 Day 1 / Pre-dose"); the label and notes columns are no encounters.
``activities``: one per activity row, top to bottom, as printed in its label cell without
footnote letters (in two-level tables the activity column's cell, the group column's text is
no part of it); group rows, the legend row and the group column are no activities.  ``marks``:
``[activity index, encounter index]`` for every cell saying the activity happens at that visit
-- a glyph, a letter code, a word, or a merged cell or arrow counting at every column it
spans.  A table continued down or sideways is one timeline.

The drawing is this module's own (ruled grids with cells spanning rows and columns, each rule
drawn once; landscape and rotated pages, the section of a landscape schedule starting on its
first landscape page); headings, paragraphs, the title page and the contents come from
``make_protocol``.  Text is Helvetica (base-14, WinAnsi); the few glyphs WinAnsi lacks (✓, ←,
→) come from PyMuPDF's Dingbats and Symbol fonts, embedded as subsets so the text layer says
"✓" and "←".  The layout is fitted to the variations chosen: a down split gets text above the
table until it breaks with at least three rows on the next page, a table that must not break
loses rows until it fits, and a document over six pages loses its contents page (the
protocol's ``bookmarks`` flag: contents page and bookmarks, or neither).  The output is
deterministic: the same seed gives the same PDF, byte for byte.

Usage (from the repository root)::

    python examples/schedule_layouts.py --out DIR --count 50 --first-seed 0

writes ``layout_NNNN.pdf`` and ``layout_NNNN.soa.json`` (the truth) for each seed.
"""

from __future__ import annotations

import argparse
import difflib
import functools
import json
import random
import re
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path

import pymupdf

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import make_protocol as mp  # noqa: E402
from make_protocol import BODY_FONT, BOLD_FONT, P, Protocol, Section  # noqa: E402

FAMILIES = {
    "1 header": "header.",
    "2 notes column": "notes.",
    "3 groups": "groups.",
    "4 marks": "marks.",
    "5 footnotes and legend": ("footnotes.", "legend."),
    "6 page splits": "split.",
    "7 page orientation": "page.",
    "8 side sampling table": "pk.",
}

# Every variation a layout can record; each is reachable (tests check it over seeds 0..199).
FORMS = (
    "header.rows1",
    "header.rows2",
    "header.rows3",
    "header.epoch",
    "header.visit_day",
    "header.window_row",
    "header.window_cell",
    "header.window_none",
    "header.labels_each",
    "header.label_merged",
    "header.footnotes",
    "header.rowspan",
    "notes.column",
    "notes.none",
    "groups.rows",
    "groups.column",
    "groups.none",
    "marks.x",
    "marks.check",
    "marks.bullet",
    "marks.letters",
    "marks.words",
    "marks.arrow_line",
    "marks.arrow_text",
    "marks.merged",
    "footnotes.marks",
    "footnotes.labels",
    "footnotes.none",
    "legend.row",
    "split.none",
    "split.down_repeat",
    "split.down_plain",
    "split.sideways",
    "page.portrait",
    "page.landscape",
    "page.rotated",
    "pk.none",
    "pk.table",
)

MAX_PAGES = 6

# --------------------------------------------------------------------------
# Page geometry: portrait as make_protocol; landscape pages (a landscape media
# box, or a portrait one turned by /Rotate 90) are 792 x 612 as viewed.
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Geom:
    width: float
    height: float
    left: float
    right: float
    top: float
    bottom: float


GEOMS = {
    "portrait": Geom(mp.PAGE_W, mp.PAGE_H, mp.LEFT, mp.RIGHT, mp.BODY_TOP, mp.BODY_BOTTOM),
    "landscape": Geom(mp.PAGE_H, mp.PAGE_W, 54, mp.PAGE_H - 54, mp.BODY_TOP, mp.PAGE_W - 66),
}
GEOMS["rotated"] = GEOMS["landscape"]

CELL_PAD = 2.5
RULE_W = 0.6
CAPTION_SIZE, CAPTION_LEADING = 10, 14
FOOTNOTE_INDENT = 10
SUP_SCALE, SUP_RISE = mp.SUP_SCALE, mp.SUP_RISE

# Glyphs WinAnsi lacks, and the embedded fonts that have them.
CHECK, LEFT_ARROW, RIGHT_ARROW = "\u2713", "\u2190", "\u2192"
EMBEDDED = {"zd": "zadb", "sy": "symb"}  # op font name -> PyMuPDF's built-in font
_FONTS: dict[str, pymupdf.Font] = {}


@functools.lru_cache(maxsize=1 << 16)
def width_of(text: str, font: str, size: float) -> float:
    """The printed width: measured with PyMuPDF's Font objects, which know every character's
    glyph (``pymupdf.get_text_length``, which make_protocol's text_width uses, measures "±"
    a third of its width, and a footnote letter after "±3" would overlap the 3)."""
    if font not in _FONTS:
        _FONTS[font] = pymupdf.Font(EMBEDDED.get(font, font))
    return _FONTS[font].text_length(text, fontsize=size)


@functools.lru_cache(maxsize=1 << 14)
def para_lines(text: str) -> tuple[str, ...]:
    """make_protocol's body paragraph lines, remembered (layouts are paginated repeatedly)."""
    return tuple(mp.para_lines(P(text)))


def wrap(text: str, font: str, size: float, width: float) -> list[str] | None:
    """Greedy wrap at spaces; None when one word is wider than `width`."""
    lines: list[str] = []
    for part in text.split("\n"):
        current = ""
        for word in part.split(" "):
            if width_of(word, font, size) > width + 0.01:
                return None
            candidate = f"{current} {word}" if current else word
            if current and width_of(candidate, font, size) > width:
                lines.append(current)
                current = word
            else:
                current = candidate
        lines.append(current)
    return lines


# --------------------------------------------------------------------------
# Table model
# --------------------------------------------------------------------------


@dataclass
class HCell:
    """A header cell: its text ("\\n" breaks a line), footnote letters, and how many visit
    columns / header rows it spans."""

    text: str
    notes: str = ""
    colspan: int = 1
    rowspan: int = 1


@dataclass
class Mark:
    """A mark cell. `span` > 1: the mark covers that many visit columns from here (one merged
    cell when `merged`, else separate cells under a drawn arrow). kind "text" prints `text` in
    `font`; "arrow_line" draws a line with arrowheads; "arrow_text" prints ←——→."""

    text: str = ""
    notes: str = ""
    span: int = 1
    kind: str = "text"
    font: str = BODY_FONT
    merged: bool = True


COVERED = "covered"  # a visit column inside a spanning mark


@dataclass
class Row:
    label: str
    notes: str = ""  # footnote letters after the label
    group: bool = False  # a group heading row spanning the table, no marks
    category: str = ""  # two-level tables: the group column's text ("" on a wide row)
    wide: bool = False  # two-level tables: the label spans both label columns
    cells: list = field(default_factory=list)  # per visit: None, Mark or COVERED
    comment: str = ""  # the notes column's prose


@dataclass
class SoaTable:
    """A ruled schedule grid: label column(s), visit columns, perhaps a notes column; header
    rows over the visit columns (`header[r][k]`: the HCell starting there, or None where a
    spanning cell covers it); body rows; footnotes printed under it."""

    title: str
    main: bool
    header: list[list]
    header_labels: list[str]  # the label column's cell per header row; one entry: merged
    rows: list[Row]
    label_widths: tuple[float, ...]  # one label column, or (group, activity)
    footnotes: dict[str, str]  # marker -> text, printed under the table
    legend_lines: list[str] = field(default_factory=list)  # printed under the footnotes
    notes_title: str = ""
    notes_width: float = 0
    legend_row: str = ""
    font_size: float = 7
    split: str = "none"  # none, down_repeat, down_plain, sideways
    parts: list[list[int]] = field(default_factory=list)  # visit columns per page (sideways)
    continued: str = ""  # caption of the later parts/pages ("" none)
    page: str = "portrait"
    header_fill: bool = True
    # a side table: per visit column, the main table's visit column it samples at (None: not
    # one the generator placed there)
    main_visits: list = field(default_factory=list)

    @property
    def n_visits(self) -> int:
        return len(self.header[0])

    def owner(self, r: int, k: int) -> tuple[int, int]:
        """The (row, column) of the header cell covering header slot (r, k)."""
        for r0 in range(r, -1, -1):
            for k0 in range(k, -1, -1):
                c = self.header[r0][k0]
                if c is not None and r0 + c.rowspan > r and k0 + c.colspan > k:
                    return r0, k0
        raise ValueError((r, k))

    def encounters(self) -> list[str]:
        out = []
        for k in range(self.n_visits):
            seen, parts = set(), []
            for r in range(len(self.header)):
                o = self.owner(r, k)
                if o in seen:
                    continue
                seen.add(o)
                text = " ".join(self.header[o[0]][o[1]].text.split())
                if text:
                    parts.append(text)
            out.append(" / ".join(parts))
        return out

    def activities(self) -> list[Row]:
        return [r for r in self.rows if not r.group]

    def marks(self) -> list[list[int]]:
        out = []
        for a, row in enumerate(self.activities()):
            for k, c in enumerate(row.cells):
                if c is not None:
                    out.append([a, k])
        return out


# --------------------------------------------------------------------------
# Vocabulary (all invented)
# --------------------------------------------------------------------------
SPONSORS = [
    "Northwind Biologics",
    "Lumen Therapeutics",
    "Acorn Clinical Sciences",
    "Harbor Peak Pharma",
    "Silverleaf Medicines",
    "Quillon Bio",
    "Meridian Vale Health",
    "Tessaro Pharmaceuticals",
]
DISEASES = [
    "moderate plaque psoriasis",
    "relapsed follicular lymphoma",
    "chronic migraine",
    "type 2 diabetes mellitus",
    "mild persistent asthma",
    "knee osteoarthritis",
    "advanced solid tumors",
    "ulcerative colitis",
    "chronic kidney disease",
    "generalized myasthenia gravis",
    "atopic dermatitis",
    "primary biliary cholangitis",
]
ROUTES = [
    ("an oral tablet taken once daily", "oral"),
    ("a subcutaneous injection", "subcutaneous"),
    ("a 60-minute intravenous infusion", "intravenous"),
    ("an inhaled dose twice daily", "inhaled"),
]


def drug_name(rng: random.Random) -> str:
    letters = "ABCDEFGHJKLMNPQRSTVWXZ"
    return f"{rng.choice(letters)}{rng.choice(letters)}-{rng.randint(1000, 9899)}"


# Activities: (label, pattern, group key). Patterns: first (screening), first2 (screening and
# baseline), base (baseline), all (every visit), treat (treatment visits), sparse, ends
# (screening, end of treatment, early termination), dose (dosing visits).
ACTIVITIES = [
    ("Informed consent", "first", "admin"),
    ("Inclusion and exclusion criteria", "first2", "admin"),
    ("Demography", "first", "admin"),
    ("Medical history", "first", "admin"),
    ("Prior medications", "first", "admin"),
    ("Randomization", "base", "admin"),
    ("Physical examination", "sparse", "safety"),
    ("Vital signs", "treat", "safety"),
    ("Body weight", "sparse", "safety"),
    ("Height", "first", "safety"),
    ("12-lead ECG", "sparse", "safety"),
    ("Adverse events", "all", "safety"),
    ("Concomitant medications", "all", "safety"),
    ("Performance status", "sparse", "safety"),
    ("Suicidality questionnaire", "sparse", "safety"),
    ("Hematology", "treat", "lab"),
    ("Serum chemistry", "treat", "lab"),
    ("Urinalysis", "sparse", "lab"),
    ("Coagulation panel", "ends", "lab"),
    ("Pregnancy test", "sparse", "lab"),
    ("Viral serology", "first", "lab"),
    ("Thyroid function", "ends", "lab"),
    ("Lipid profile", "ends", "lab"),
    ("Disease activity score", "sparse", "efficacy"),
    ("Patient diary review", "all", "efficacy"),
    ("Quality of life questionnaire", "sparse", "efficacy"),
    ("Imaging assessment", "ends", "efficacy"),
    ("Symptom severity scale", "treat", "efficacy"),
    ("Global impression of change", "sparse", "efficacy"),
    ("Study drug administration", "dose", "treatment"),
    ("Dispense study drug", "dose", "treatment"),
    ("Drug accountability", "dose", "treatment"),
    ("Injection site assessment", "dose", "treatment"),
    ("Blood sample for drug levels", "dose", "pk"),
    ("Antidrug antibodies", "ends", "pk"),
    ("Exploratory biomarkers", "sparse", "pk"),
    ("Genotyping sample (optional)", "base", "pk"),
]
GROUPS = {
    "admin": ["Screening and Eligibility", "Administrative Procedures", "ELIGIBILITY"],
    "safety": ["Safety Assessments", "Safety", "SAFETY PROCEDURES"],
    "lab": ["Laboratory Assessments", "Clinical Laboratory Tests", "LABORATORY"],
    "efficacy": ["Efficacy Assessments", "Efficacy", "Clinical Outcome Assessments"],
    "treatment": ["Study Intervention", "Study Treatment", "TREATMENT"],
    "pk": ["Pharmacokinetics and Biomarkers", "PK and Biomarker Samples", "SAMPLES"],
}
CATEGORIES = {
    "admin": "Screening",
    "safety": "Safety",
    "lab": "Laboratory",
    "efficacy": "Efficacy",
    "treatment": "Treatment",
    "pk": "Samples",
}
GROUP_ORDER = ["admin", "safety", "lab", "efficacy", "treatment", "pk"]
WIDE_ACTIVITIES = {"Informed consent", "Adverse events", "Concomitant medications", "Randomization", "Medical history"}

COMMENTS = [
    "Within 28 days before the first dose.",
    "Women of childbearing potential only.",
    "Repeat if a result is outside the normal range.",
    "Taken after 5 minutes of rest.",
    "Review entries with the participant at each visit.",
    "Fasting for at least 8 hours.",
    "Before dosing on dosing days.",
    "Record every event from consent onwards.",
    "Triplicate tracings one minute apart.",
    "Completed before any other procedure.",
    "Central laboratory unless stated otherwise.",
    "Kits are supplied by the sponsor.",
    "Only if clinically indicated.",
    "Return unused medication at each visit.",
]
FOOTNOTES = [
    "Performed only at the first visit of each treatment cycle.",
    "May be done up to 3 days before the visit.",
    "Collected before the first dose of the day.",
    "Only for participants who consented to the optional sample.",
    "A urine test is acceptable when serum testing is not available.",
    "Repeated at the investigator's discretion.",
    "The assessment is completed by the participant before other procedures.",
    "Done at the site; a home visit may replace it when agreed with the sponsor.",
    "Vital signs include blood pressure, pulse and temperature.",
    "Window counted from the Day 1 visit.",
    "Participants who stop early complete this visit within 14 days.",
    "Samples are shipped frozen to the central laboratory.",
]
LETTER_CODES = {
    "C": "clinic visit",
    "H": "home visit by study nurse",
    "L": "local laboratory",
    "T": "telephone contact",
    "R": "remote video visit",
}
WORDS = ["pre-dose", "post-dose", "Day 1", "Day 3", "2 h post", "predose"]
MERGED_WORDS = ["X", "Ongoing", "Continuous", "Throughout"]
NOTES_TITLES = ["Notes", "Comments", "Remarks"]
MAIN_CAPTIONS = [
    "Table 1: Schedule of Activities",
    "Table 1 Schedule of Assessments",
    "Table 1. Study Flow Chart",
    "Schedule of Activities (SoA)",
    "Table 1: Time and Events Schedule",
    "Table 1-1 Schedule of Study Procedures",
]
PK_CAPTIONS = [
    "Table 2: Pharmacokinetic Sampling Schedule",
    "Table 2 Schedule of PK and Biomarker Sampling",
    "Table 2. Pharmacokinetic and Immunogenicity Sampling Time Points",
    "Table 3: Blood Sampling for Pharmacokinetics",
]
PK_ACTIVITIES = [
    "Plasma concentration sample",
    "Serum immunogenicity sample",
    "Circulating biomarker panel",
    "Urine collection for excretion",
    "Whole blood RNA sample",
]
PK_TIMEPOINTS = ["Pre-dose", "EOI", "1 h", "2 h", "4 h", "8 h", "24 h", "48 h"]
ABBREVIATIONS = (
    "Abbreviations: ECG = electrocardiogram; EOT = end of treatment; ET = early termination; FU = follow-up."
)


def norm(s: str) -> str:
    """The judging scorer's label normal form (lower case, letters, digits, + and -)."""
    s = s.lower().replace("\u2212", "-")
    return " ".join(re.sub(r"[^a-z0-9+\-]+", " ", s).split())


def too_close(a: str, b: str) -> bool:
    """Two labels the scorer could take for one another."""
    a, b = norm(a), norm(b)
    if a == b or ((a in b or b in a) and min(len(a), len(b)) >= 4):
        return True
    return difflib.SequenceMatcher(None, a, b).ratio() >= 0.8


# --------------------------------------------------------------------------
# Visits and header
# --------------------------------------------------------------------------


@dataclass
class V:
    """One visit column as the generator knows it; the header rows are printed from it."""

    epoch: str  # "Screening", "Treatment", "Follow-up", "" (blank)
    cycle: str  # "Cycle 1" (cycle scheme), else ""
    number: str  # the Visit row: "1", "V2", "Visit 3", "ET"
    timing: str  # the Day/Week row: "Day 8", "D8", "8", "" (none)
    names: tuple[str, ...]  # one-row labels, longest first ("Screening", "Scr")
    window: str  # "±3 days", "" (none)
    special: bool = False  # early termination / unscheduled
    dosing: bool = False
    treatment: bool = False


EPOCH_SHORT = {"Screening": "Scr.", "Follow-up": "FU", "In-clinic": "Clinic", "Outpatient": "Outpt."}


def visit_scheme(rng: random.Random, n: int, short: bool = False) -> tuple[list[V], str]:
    """About n visit columns in one of four schemes; the timing row's label. `short`: the short
    forms of the names (narrow columns)."""
    scheme = rng.choice(["weeks", "cycles", "days", "visits"])
    style = rng.choice(["full", "short", "bare"])  # "Day 8", "D8", "8"
    win_style = rng.choice(["days", "d", "bare"])
    specials = (
        rng.sample([("ET", "Early Termination"), ("Unsch", "Unscheduled")], rng.choice([1, 1, 2]))
        if rng.random() < 0.6
        else []
    )
    ends = [("EOT", "End of Treatment", "Treatment"), ("FU", "Follow-up", "Follow-up")]
    if rng.random() < 0.4:
        ends.append(("FU2", "Survival Follow-up", "Follow-up"))
    n_treat = max(2, n - 1 - len(ends) - len(specials))

    def win(d: int, plus_only=False) -> str:
        sign = "+" if plus_only else "\u00b1"
        return {"days": f"{sign}{d} days", "d": f"{sign}{d}d", "bare": f"{sign}{d}"}[win_style]

    def day_text(unit: str, value: str) -> str:
        if style == "bare":
            return value
        if style == "short":
            return {"Day": "D", "Week": "W"}[unit] + value
        return f"{unit} {value}"

    unit = "Week" if scheme == "weeks" else "Day"
    timing_label = {
        "full": "Visit Day" if unit == "Day" else "Study Week",
        "short": "Timing",
        "bare": "Study Day" if unit == "Day" else "Week",
    }[style]
    visits = []
    screen_t = day_text(unit, "-4 to -1" if unit == "Week" else "-28 to -1")
    visits.append(V("Screening", "", "1", screen_t, ("Screening", "Scr"), "", dosing=False))
    treat: list[V] = []
    if scheme == "weeks":
        pool = [1, 2, 3, 4, 6, 8, 10, 12, 16, 20, 24, 26, 32, 36, 44, 48]
        weeks = sorted(rng.sample(pool, min(len(pool), n_treat - 1)))
        treat.append(V("Treatment", "", "", day_text("Week", "0"), ("Baseline", "BL"), "", dosing=True, treatment=True))
        for w in weeks:
            treat.append(
                V(
                    "Treatment",
                    "",
                    "",
                    day_text("Week", str(w)),
                    (f"Week {w}", f"Wk {w}", f"W{w}"),
                    win(3 if w < 12 else 7),
                    dosing=rng.random() < 0.6,
                    treatment=True,
                )
            )
    elif scheme == "cycles":
        days_per = rng.choice([[1, 8, 15], [1, 15], [1, 8], [1]])
        c = 1
        while len(treat) < n_treat:
            for d in days_per if c <= 2 else [1]:
                if len(treat) >= n_treat:
                    break
                treat.append(
                    V(
                        "Treatment",
                        f"Cycle {c}",
                        "",
                        day_text("Day", str(d)),
                        (f"C{c}D{d}",),
                        win(1 if d > 1 else 3) if c > 1 or d > 1 else "",
                        dosing=True,
                        treatment=True,
                    )
                )
                cycle_day = (c - 1) * 21 + d  # 21-day cycles
            c += 1
    elif scheme == "days":
        days = [1, 2, 3, 5, 8, 11, 15, 22, 29, 43, 57, 85]
        chosen = [1] + sorted(rng.sample(days[1:], min(len(days) - 1, n_treat - 1)))
        for d in chosen:
            epoch = "In-clinic" if d <= 3 else "Outpatient"
            treat.append(
                V(
                    epoch,
                    "",
                    "",
                    day_text("Day", str(d)),
                    (f"Day {d}", f"D{d}"),
                    win(1 if d < 15 else 2) if d > 3 else "",
                    dosing=d in (1, 8, 15, 29),
                    treatment=True,
                )
            )
    else:
        day = 1
        for i in range(n_treat):
            treat.append(
                V(
                    "Treatment",
                    "",
                    "",
                    day_text("Day", str(day)),
                    (f"Day {day}", f"D{day}"),
                    win(2) if i else "",
                    dosing=i % 2 == 0,
                    treatment=True,
                )
            )
            day += rng.choice([7, 14, 14, 28])
    visits += treat
    if scheme == "cycles":  # the last treatment day (week)
        last = cycle_day
    else:
        last = max(int(re.search(r"-?\d+$", v.timing).group()) for v in treat)
    for code, long, epoch in ends:
        if code == "EOT":
            visits.append(V(epoch, "", "", "", ("End of Treatment", "EOT"), win(3), treatment=True))
        else:  # on a study day (week) of its own: "Day 113" ("+30" would read as a window)
            after = (4 if code == "FU" else 12) if unit == "Week" else (28 if code == "FU" else 84)
            visits.append(V(epoch, "", "", day_text(unit, str(last + after)), (long, code), win(7, plus_only=True)))
    for code, long in specials:
        visits.append(V("", "", code, "", (long, code), "", special=True))
    prefix = rng.choice(["", "V", "Visit "])
    for i, v in enumerate(visits):
        if not v.special:
            v.number = f"{prefix}{i + 1}"
        if short:
            v.epoch = EPOCH_SHORT.get(v.epoch, v.epoch)
            v.names = v.names[-1:]
    return visits, timing_label


def build_header(
    rng: random.Random,
    visits: list[V],
    timing_label: str,
    depth: int,
    window: str,
    labels_each: bool,
    rowspan: bool,
    forms: set,
) -> tuple[list[list], list[str], list]:
    """The header rows over the visit columns; the label column's header cells; the kinds of
    the rows. Raises ValueError when the choice gives two columns the same label."""
    cycles = any(v.cycle.startswith("Cycle") for v in visits)
    options = {
        1: [["name"]],
        2: [["epoch", "name"], ["number", "timing"]] + ([["cycle", "timing"]] if cycles else []),
        3: [["epoch", "number", "timing"]] + ([["epoch", "cycle", "timing"]] if cycles else []),
    }
    kinds = list(rng.choice(options[depth]))
    if cycles and kinds == ["epoch", "name"]:
        kinds = ["cycle", "name"]
    if "epoch" in kinds:
        forms.add("header.epoch")
    if "number" in kinds and "timing" in kinds:
        forms.add("header.visit_day")
    texts: list[list[str]] = []
    for kind in kinds:
        row = []
        for v in visits:
            if kind == "epoch":
                row.append(v.epoch)
            elif kind == "cycle":  # under an epoch row a visit outside the cycles has a blank cell
                row.append(v.cycle or ("" if "epoch" in kinds else v.epoch))
            elif kind == "number":
                row.append(v.number)
            elif kind == "timing":  # a visit with no day: its short name, blank under its number
                row.append(v.timing or ("" if v.special and "number" in kinds else v.names[-1]))
            else:
                row.append(v.names[0])
        texts.append(row)
    if window == "row":
        kinds.append("window")
        texts.append([v.window for v in visits])
    elif window == "cell":
        low = len(kinds) - 1
        glue = rng.choice([" ", "\n"])
        for k, v in enumerate(visits):
            if v.window:
                w = f"({v.window})" if glue == "\n" or rng.random() < 0.5 else v.window
                texts[low][k] = f"{texts[low][k]}{glue}{w}"
    header: list[list] = [[None] * len(visits) for _ in kinds]
    covered = [[False] * len(visits) for _ in kinds]
    span_rows = {r for r, kind in enumerate(kinds) if kind in ("epoch", "cycle")}
    for r in range(len(kinds)):
        k = 0
        while k < len(visits):
            if covered[r][k]:
                k += 1
                continue
            text = texts[r][k]
            colspan = 1
            if r in span_rows and text:
                while (
                    k + colspan < len(visits)
                    and texts[r][k + colspan] == text
                    and not covered[r][k + colspan]
                    and all(texts[q][k + colspan] == texts[q][k] for q in range(r))
                ):
                    colspan += 1
            rows = 1
            special = visits[k].special and r == 0 and rowspan and len(kinds) > 1
            if special:
                rows = len(kinds)
                text = visits[k].names[0]
            elif colspan == 1 and text:  # "Screening" over "Screening": one cell spanning both
                while r + rows < len(kinds) and texts[r + rows][k] == text:
                    rows += 1
            if rows > 1:
                forms.add("header.rowspan")
            header[r][k] = HCell(text, colspan=colspan, rowspan=rows)
            for q in range(r, r + rows):
                for j in range(k, k + colspan):
                    covered[q][j] = True
            k += colspan
    labels = {
        "epoch": rng.choice(["Study Period", "Period", "Phase"]),
        "cycle": "Cycle",
        "number": rng.choice(["Visit", "Visit Number", "Visit No."]),
        "timing": timing_label,
        "name": rng.choice(["Visit", "Study Visit"]),
        "window": rng.choice(["Window", "Visit Window", "Window (days)"]),
    }
    if labels_each:
        label_cells = [labels[kind] for kind in kinds]
    else:
        label_cells = [rng.choice(["Procedure", "Assessment", "Study Procedures", "Activity"])]
    table = SoaTable("", True, header, label_cells, [], (100,), {})
    encs = table.encounters()
    if len({norm(e) for e in encs}) < len(encs):
        raise ValueError("two columns print the same label")
    return header, label_cells, kinds


# --------------------------------------------------------------------------
# Composition
# --------------------------------------------------------------------------


@dataclass
class Composition:
    spec: Protocol
    tables: list[SoaTable]
    forms: list[str]


class Doc:
    """The seed's invented study: names used by the prose."""

    def __init__(self, rng: random.Random):
        self.drug = drug_name(rng)
        self.disease = rng.choice(DISEASES)
        self.route, self.route_word = rng.choice(ROUTES)
        self.sponsor = rng.choice(SPONSORS)
        self.number = f"{rng.choice(['NWB', 'LMT', 'ACS', 'HPP', 'SLM', 'QLB'])}-{rng.randint(100, 989)}"
        self.n = rng.choice([24, 36, 48, 60, 90, 120, 180, 240])
        self.weeks = rng.choice([12, 16, 24, 26, 52])
        self.title = (
            f"A Phase {rng.choice(['1', '1b', '2', '2a', '3'])}, "
            f"{rng.choice(['Randomized, Double-Blind', 'Open-Label', 'Randomized, Open-Label'])} "
            f"Study of {self.drug} in Adults with {self.disease[0].upper() + self.disease[1:]}"
        )
        self.filler_pool = self._fillers(rng)

    def _fillers(self, rng: random.Random) -> list[str]:
        subjects = [
            "Visits",
            "Assessments",
            "Blood draws",
            "Questionnaires",
            "Procedures",
            "Dose adjustments",
            "Telephone contacts",
            "Laboratory samples",
        ]
        verbs = [
            "may be moved by up to two days when a public holiday falls on the visit",
            "follow the order given in the laboratory manual for this study",
            "are recorded in the electronic case report form on the day they happen",
            "are repeated only when the first result cannot be read",
            "take place in the morning whenever the clinic schedule allows it",
            "are reviewed by the medical monitor before the next dose is given",
            "are done by staff who have completed the training for this protocol",
            "are explained to each participant before the first visit of the period",
        ]
        pairs = [(s, v) for s in subjects for v in verbs]
        rng.shuffle(pairs)
        return [f"{s} {v}." for s, v in pairs]

    def filler(self, n: int) -> str:
        """The n-th filler paragraph (three sentences, each used once in the document)."""
        return " ".join(self.filler_pool[3 * n : 3 * n + 3])


def choose_marks(rng: random.Random, row: Row, pattern: str, visits: list[V], glyph: str, font: str) -> None:
    n = len(visits)
    treat = [k for k, v in enumerate(visits) if v.treatment]
    regular = [k for k, v in enumerate(visits) if not v.special]
    special = [k for k, v in enumerate(visits) if v.special]
    ends = [k for k, v in enumerate(visits) if v.names[-1] in ("EOT",)] + special
    if pattern == "first":
        ks = [0]
    elif pattern == "first2":
        ks = [0, 1]
    elif pattern == "base":
        ks = [1]
    elif pattern == "all":
        ks = regular + special
    elif pattern == "treat":
        ks = [0] + treat + special
    elif pattern == "ends":
        ks = [0] + ends
    elif pattern == "dose":
        ks = [k for k, v in enumerate(visits) if v.dosing] or treat[:1]
    else:
        ks = sorted({0, *rng.sample(range(1, n), max(1, (n - 1) // 2))})
    row.cells = [None] * n
    for k in sorted(set(ks)):
        row.cells[k] = Mark(glyph, font=font)


def compose(seed: int) -> Composition:
    rng = random.Random(seed)
    doc = Doc(rng)
    forms: set[str] = set()
    page = rng.choice(["portrait"] * 3 + ["landscape"] * 2 + ["rotated"] * 2)
    split = rng.choice(["none", "none", "down_repeat", "down_plain", "sideways"])
    geom = GEOMS[page]
    avail = geom.right - geom.left
    font_size = rng.choice([6.5, 7, 7, 7.5])
    groups_mode = rng.choice(["rows", "column", "none"])
    notes = rng.random() < 0.4
    depth = rng.choice([1, 2, 2, 3, 3])
    window = rng.choice(["row", "cell", "none"])
    labels_each = rng.random() < 0.55
    rowspan = rng.random() < 0.5
    glyph_kind = rng.choice(["x", "x", "check", "bullet", "letters"])
    extras = {e for e in ("words", "arrow_line", "arrow_text", "merged") if rng.random() < 0.3}
    note_kinds = {k for k in ("marks", "labels") if rng.random() < 0.5}
    header_notes = rng.random() < 0.3
    legend_row = rng.random() < 0.25
    pk = rng.random() < 0.4
    label_widths = (
        (rng.choice([54, 60, 66]), rng.choice([100, 110, 120]))
        if groups_mode == "column"
        else (rng.choice([120, 132, 146]),)
    )
    notes_width = rng.choice([80, 90, 100]) if notes else 0
    notes_title = rng.choice(NOTES_TITLES) if notes else ""
    min_visit = 30 + 4 * (font_size - 6.5)  # a visit column at least this wide
    room = avail - sum(label_widths)
    if split == "sideways":
        n_visits = rng.randint(int(room / 46) + 3, int(room / 34) + 6)
    else:
        low = max(4, int((room - notes_width) / 60))
        n_visits = rng.randint(low, max(low, int((room - notes_width) / min_visit)))
    # header: retry with fewer visits, then short names, no notes column, narrower labels and a
    # smaller font until every header word fits its column
    for attempt in range(48):
        if attempt == 16:
            notes, notes_width, notes_title = False, 0, ""
        if attempt == 24:
            label_widths = (54, 100) if groups_mode == "column" else (120,)
        if attempt == 32:
            font_size = 6.5
        visits, timing_label = visit_scheme(rng, n_visits, short=attempt >= 8)
        parts = [list(range(len(visits)))]
        if split == "sideways":
            m = (len(visits) + rng.randint(0, 1)) // 2
            parts = [list(range(m)), list(range(m, len(visits)))]
        try:
            hforms: set[str] = set()
            header, label_cells, kinds = build_header(
                rng, visits, timing_label, depth, window, labels_each, rowspan, hforms
            )
        except ValueError:
            continue
        table = SoaTable(
            "",
            True,
            header,
            label_cells,
            [],
            label_widths,
            {},
            notes_title=notes_title,
            notes_width=notes_width,
            font_size=font_size,
            parts=parts,
            split=split,
            page=page,
        )
        if header_fits(table):
            break
        n_visits = max(4, n_visits - 1)
    else:
        raise RuntimeError(f"seed {seed}: no header fits")
    forms |= hforms
    forms.add(f"header.rows{depth}")
    forms.add(f"header.window_{window}")
    if window == "cell" and not any(v.window for v in visits):
        forms.discard("header.window_cell")
        forms.add("header.window_none")
    if window == "row" and not any(v.window for v in visits):
        forms.discard("header.window_row")
        forms.add("header.window_none")
    forms.add("header.labels_each" if labels_each else "header.label_merged")
    table.title = rng.choice(MAIN_CAPTIONS)
    table.header_fill = rng.random() < 0.7
    forms.add("notes.column" if notes else "notes.none")
    forms.add(f"groups.{groups_mode}")
    forms.add(f"page.{page}")
    forms.add(f"split.{split}")

    # --- activities
    if split in ("down_repeat", "down_plain"):
        n_act = rng.randint(26, 34)
    elif page == "portrait":
        n_act = rng.randint(10, 20)
    else:
        n_act = rng.randint(9, 16)
    pool = [a for a in ACTIVITIES if pk is False or a[2] != "pk" or a[0] == "Blood sample for drug levels"]
    chosen: list[tuple[str, str, str]] = []
    for a in rng.sample(pool, len(pool)):
        if len(chosen) >= n_act:
            break
        if all(not too_close(a[0], b[0]) for b in chosen):
            chosen.append(a)
    # keep the schedule's usual order: groups in GROUP_ORDER, the pool's order within a group
    # (two-level tables: the rows whose label spans both columns first in their group)
    order = {a[0]: i for i, a in enumerate(ACTIVITIES)}
    wide = {a[0] for a in chosen if groups_mode == "column" and a[0] in WIDE_ACTIVITIES and rng.random() < 0.8}
    chosen.sort(key=lambda a: (GROUP_ORDER.index(a[2]), a[0] not in wide, order[a[0]]))
    glyph, gfont = {
        "x": ("X", BODY_FONT),
        "check": (CHECK, "zd"),
        "bullet": (mp.BULLET, BODY_FONT),
        "letters": ("C", BODY_FONT),
    }[glyph_kind]
    forms.add(f"marks.{glyph_kind}")
    rows: list[Row] = []
    group_names = {g: rng.choice(names) for g, names in GROUPS.items()}
    last_group = None
    for label, pattern, g in chosen:
        if groups_mode == "rows" and g != last_group:
            rows.append(Row(group_names[g], group=True))
        last_group = g
        row = Row(label)
        if groups_mode == "column":
            row.wide = label in wide
            row.category = "" if row.wide else CATEGORIES[g]
        choose_marks(rng, row, pattern, visits, glyph, gfont)
        if not any(row.cells):
            row.cells[0] = Mark(glyph, font=gfont)
        rows.append(row)
    table.rows = rows
    acts = table.activities()
    if glyph_kind == "letters":
        codes = rng.sample(sorted(LETTER_CODES), rng.randint(2, 3))
        for row in acts:
            base = rng.choice(codes)
            for k, c in enumerate(row.cells):
                if c is not None:
                    c.text = base if rng.random() < 0.8 else rng.choice(codes)
        used = sorted({c.text for row in acts for c in row.cells if c is not None})
        table.legend_lines.append("; ".join(f"{c} = {LETTER_CODES[c]}" for c in used) + ".")

    # --- spanning marks, within one page's columns
    spans_made = set()

    def runs_of(row: Row) -> list[tuple[int, int]]:
        out = []
        for part in parts:
            k = 0
            while k < len(part):
                if isinstance(row.cells[part[k]], Mark) and row.cells[part[k]].span == 1:
                    j = k
                    while (
                        j + 1 < len(part)
                        and isinstance(row.cells[part[j + 1]], Mark)
                        and row.cells[part[j + 1]].span == 1
                        and not row.cells[part[j + 1]].notes
                    ):
                        j += 1
                    if j - k + 1 >= 3:
                        out.append((part[k], part[j]))
                    k = j + 1
                else:
                    k += 1
        return out

    for kind in ("arrow_line", "arrow_text", "merged"):
        if kind not in extras:
            continue
        candidates = [r for r in acts if runs_of(r) and not any(isinstance(c, Mark) and c.span > 1 for c in r.cells)]
        # an arrow or a merged cell across each run of three or more marked visits (at most
        # two runs a row, one or two rows a kind)
        for r in rng.sample(candidates, min(len(candidates), rng.randint(1, 2))):
            for a, b in runs_of(r)[:2]:
                head = r.cells[a]
                if kind == "arrow_line":
                    r.cells[a] = Mark("", span=b - a + 1, kind="arrow_line", merged=rng.random() < 0.5)
                elif kind == "arrow_text":
                    r.cells[a] = Mark("", span=b - a + 1, kind="arrow_text", font="sy")
                else:
                    word = rng.choice(MERGED_WORDS)
                    if word == "X":  # the table's own glyph, once in the merged cell
                        r.cells[a] = Mark(head.text, span=b - a + 1, font=head.font)
                    else:
                        r.cells[a] = Mark(word, span=b - a + 1)
                for k in range(a + 1, b + 1):
                    r.cells[k] = COVERED
                spans_made.add(kind)
    for kind in spans_made:
        forms.add(f"marks.{kind}")
    if "words" in extras:
        singles = [
            (r, k)
            for r in acts
            for k, c in enumerate(r.cells)
            if isinstance(c, Mark) and c.span == 1 and c.kind == "text"
        ]
        for r, k in rng.sample(singles, min(len(singles), rng.randint(2, 4))):
            word = rng.choice(WORDS)
            if fits_cell(table, k, word, BODY_FONT):
                r.cells[k] = Mark(word)
                forms.add("marks.words")

    # --- footnotes
    letters = iter("abcdefghijklmnopqrstuvwxyz")
    texts = iter(rng.sample(FOOTNOTES, len(FOOTNOTES)))
    if header_notes:
        ks = rng.sample(range(table.n_visits), min(2, table.n_visits))
        low = len(header) - 1
        for k in ks:
            r0, k0 = table.owner(low, k)
            cell = header[r0][k0]
            if not cell.notes and fits_header(table, cell, k0, extra="a"):
                cell.notes = next(letters)
                table.footnotes[cell.notes] = next(texts)
                forms.add("header.footnotes")
    if "labels" in note_kinds:
        for row in rng.sample(acts, min(len(acts), rng.randint(1, 3))):
            row.notes = next(letters)
            table.footnotes[row.notes] = next(texts)
        forms.add("footnotes.labels")
    if "marks" in note_kinds:
        cells = [
            (r, k)
            for r in acts
            for k, c in enumerate(r.cells)
            if isinstance(c, Mark) and c.span == 1 and c.kind == "text"
        ]
        made = 0
        for r, k in rng.sample(cells, min(len(cells), rng.randint(2, 4))):
            marker = next(letters)
            if fits_cell(table, k, r.cells[k].text, r.cells[k].font, marker):
                r.cells[k].notes = marker
                table.footnotes[marker] = next(texts)
                made += 1
        if made:
            forms.add("footnotes.marks")
    if not any(f.startswith("footnotes.") for f in forms):
        forms.add("footnotes.none")
    if legend_row:
        table.legend_row = ABBREVIATIONS
        forms.add("legend.row")
    if notes:
        for row in acts:
            if rng.random() < 0.4:
                row.comment = rng.choice(COMMENTS)
    if split == "sideways":
        table.continued = rng.choice([f"{table.title} (continued)", table.title, ""])
    elif split == "down_repeat":
        table.continued = rng.choice([f"{table.title} (continued)", ""])

    tables = [table]
    if pk:
        tables.append(pk_table(rng, visits, table.title))
        forms.add("pk.table")
    else:
        forms.add("pk.none")
    spec = outline(rng, doc, tables)
    comp = Composition(spec, tables, sorted(forms))
    return fit_pages(rng, doc, comp)


def pk_table(rng: random.Random, visits: list[V], main_title: str) -> SoaTable:
    """A portrait side table: some main visits, each spanning its sampling time points."""
    dosing = [v for v in visits if v.dosing][:4]
    names = []
    for v in dosing:
        label = v.names[0]
        if v.cycle.startswith("Cycle"):
            label = f"{v.cycle} Day {v.timing.split()[-1].lstrip('DW')}"
        names.append(label)
    if len(dosing) < 2:
        names = ["Day 1", "Day 8", "Day 15"]
    chosen_points = []
    for i, _ in enumerate(names):
        if i == 0:
            pts = ["Pre-dose"] + sorted(rng.sample(PK_TIMEPOINTS[1:7], rng.randint(2, 4)), key=PK_TIMEPOINTS.index)
        else:
            pts = ["Pre-dose"] + (["EOI"] if rng.random() < 0.4 else [])
        chosen_points.append(pts)
    while sum(len(p) for p in chosen_points) > 9:
        chosen_points[-1] = chosen_points[-1][:1]
        if sum(len(p) for p in chosen_points) > 9:
            names.pop()
            chosen_points.pop()
    top: list = []
    low: list = []
    # the fallback "Day N" samples at the main visit named "Day N" (none in a scheme of weeks)
    hosts = (
        [visits.index(v) for v in dosing]
        if len(dosing) >= 2
        else [next((k for k, v in enumerate(visits) if name in v.names), None) for name in names]
    )
    main_visits = [host for host, pts in zip(hosts, chosen_points) for _ in pts]
    for name, pts in zip(names, chosen_points):
        top.append(HCell(name, colspan=len(pts)))
        top += [None] * (len(pts) - 1)
        low += [HCell(p) for p in pts]
    header = [top, low]
    labels = (
        [rng.choice(["Sample", "Sampling Time Point", "Sample Type"])]
        if rng.random() < 0.6
        else ["Visit", rng.choice(["Time point", "Time relative to dose"])]
    )
    rows = []
    acts = rng.sample(PK_ACTIVITIES, rng.randint(2, 4))
    n = len(low)
    glyph = rng.choice(["X", mp.BULLET])
    for i, a in enumerate(acts):
        row = Row(a, cells=[None] * n)
        ks = list(range(n)) if i == 0 else sorted(rng.sample(range(n), max(1, n // 2)))
        for k in ks:
            row.cells[k] = Mark(glyph)
        rows.append(row)
    t = SoaTable(
        rng.choice([c for c in PK_CAPTIONS if c.split(":")[0] != main_title.split(":")[0]]),
        False,
        header,
        labels,
        rows,
        (rng.choice([110, 120, 130]),),
        {},
        font_size=7,
        parts=[list(range(n))],
        main_visits=main_visits,
    )
    t.legend_lines.append("EOI = end of infusion; h = hours after the start of dosing.")
    return t


def header_fits(t: SoaTable) -> bool:
    for part in t.parts:
        widths = column_widths(t, part, part is t.parts[-1])
        for r, row in enumerate(t.header):
            for k in part:
                c = row[k]
                if c is None and k == part[0]:
                    # a cell spanning in from the part before: its page prints it over the rest
                    r0, k0 = t.owner(r, k)
                    c, k = t.header[r0][k0], k0
                if c is None:
                    continue
                span = [j for j in range(k, k + c.colspan) if j in part]
                w = sum(widths[1][part.index(j)] for j in span)
                if wrap(c.text, BOLD_FONT, t.font_size, w - 2 * CELL_PAD) is None:
                    return False
    return True


def fits_header(t: SoaTable, cell: HCell, k: int, extra: str) -> bool:
    part = next(p for p in t.parts if k in p)
    w = column_widths(t, part, part is t.parts[-1])[1][part.index(k)] * cell.colspan
    sup = width_of(extra, BODY_FONT, t.font_size * SUP_SCALE)
    return wrap(cell.text, BOLD_FONT, t.font_size, w - 2 * CELL_PAD - sup) is not None


def fits_cell(t: SoaTable, k: int, text: str, font: str, notes: str = "") -> bool:
    part = next(p for p in t.parts if k in p)
    w = column_widths(t, part, part is t.parts[-1])[1][part.index(k)]
    sup = width_of(notes, BODY_FONT, t.font_size * SUP_SCALE) if notes else 0
    return wrap(text, font, t.font_size, w - 2 * CELL_PAD - sup) is not None


# --------------------------------------------------------------------------
# The document around the tables
# --------------------------------------------------------------------------
STYLES = {**mp.HEADING_STYLES, 1: mp.HeadingStyle(BOLD_FONT, 14, 18, 18, 8)}


def outline(rng: random.Random, doc: Doc, tables: list[SoaTable], fillers: int = 0) -> Protocol:
    main = tables[0]
    intro = [
        P(
            f"This protocol describes a study of {doc.drug}, given as {doc.route}, in about "
            f"{doc.n} adults with {doc.disease}. Each participant takes part for up to "
            f"{doc.weeks + 8} weeks, including screening and follow-up."
        )
    ]
    synopsis = P(
        f"After a screening period, participants receive {doc.drug} for {doc.weeks} weeks "
        f"and attend the visits listed in the schedule of activities in Section 1.2."
    )
    soa_intro = P(
        f"The schedule below lists every procedure by visit. Visits are planned relative "
        f"to the first dose of {doc.drug} on Day 1."
    )
    soa_blocks: list = [soa_intro] + [P(doc.filler(n)) for n in range(fillers)] + [main]
    sections = [
        Section("1", "PROTOCOL SUMMARY", intro),
        Section("1.1", "Synopsis", [synopsis]),
        Section("1.2", "Schedule of Activities", soa_blocks),
    ]
    if len(tables) > 1:
        pk = tables[1]
        sections += [
            Section(
                "2",
                "STUDY ASSESSMENTS",
                [P(f"Samples for {doc.drug} concentrations are taken at the time points below.")],
            ),
            Section(
                "2.1",
                "Pharmacokinetic Sampling",
                [
                    P(
                        "Actual sampling times are recorded; a sample taken within ten minutes of "
                        "the planned time is on time."
                    ),
                    pk,
                ],
            ),
        ]
    return Protocol(
        outline=sections,
        title=doc.title,
        number=doc.number,
        sponsor=doc.sponsor,
        cover=[
            ("Protocol Number:", doc.number),
            ("Sponsor:", doc.sponsor),
            ("Date:", f"{rng.randint(1, 28)} March 2026"),
        ],
        running_header=(f"{doc.number} Clinical Study Protocol", "Version 1.0"),
        styles=STYLES,
        chapter_breaks=False,
    )


def fit_pages(rng: random.Random, doc: Doc, comp: Composition) -> Composition:
    """Make the page splits happen as chosen: a down split breaks the table over two pages (text
    is added above it, or rows dropped); a table that must not split fits one page (rows
    dropped); the PDF stays within MAX_PAGES (the contents page is dropped, then rows)."""
    main = comp.tables[0]
    fillers = 0
    toc = True
    for _ in range(60):
        spec = outline(rng, doc, comp.tables, fillers)
        spec = replace(spec, says_schedules=False)
        lay = paginate(spec, toc)
        pages = lay.table_pages[id(main)]
        acts = [r for r in main.rows if not r.group]
        if main.split in ("down_repeat", "down_plain"):
            if len(pages) < 2:
                fillers += 1
                continue
            if len(pages) > 2:
                drop_row(main)
                continue
            if lay.chunks[id(main)][-1] < 3:  # more rows to the next page
                fillers += 1
                continue
        elif main.split == "sideways":
            if len(pages) != 2:
                drop_row(main)
                continue
        elif len(pages) != 1:
            drop_row(main)
            continue
        if lay.page_count > MAX_PAGES:
            if toc:
                toc = False
                continue
            if len(acts) > 6:
                drop_row(main)
                continue
        break
    else:
        raise RuntimeError("no page fit")
    comp.spec = replace(spec, bookmarks=toc)  # the contents page and the bookmarks, or neither
    return comp


def drop_row(t: SoaTable) -> None:
    """Drop the last activity row (and a group row left with no activity)."""
    for i in range(len(t.rows) - 1, -1, -1):
        if not t.rows[i].group:
            del t.rows[i]
            break
    while t.rows and t.rows[-1].group:
        t.rows.pop()


# --------------------------------------------------------------------------
# Table layout: widths, cells, row heights, drawing
# --------------------------------------------------------------------------


def column_widths(
    t: SoaTable, visits: list[int], notes: bool, left: float | None = None, right: float | None = None
) -> tuple[list[float], list[float], float]:
    """(label column widths, visit column widths, notes width) of a part: the label and notes
    columns as set, the visits sharing the rest of the page's width equally."""
    if left is None:
        left, right = GEOMS[t.page].left, GEOMS[t.page].right
    nw = t.notes_width if notes and t.notes_title else 0
    vw = (right - left - sum(t.label_widths) - nw) / len(visits)
    return list(t.label_widths), [vw] * len(visits), nw


@dataclass
class Box:
    x0: float
    y0: float
    x1: float
    y1: float
    text: str = ""
    font: str = BODY_FONT
    notes: str = ""
    align: str = "c"  # c: centred, l: left
    fill: tuple | None = None
    mark: Mark | None = None


@dataclass
class PartLayout:
    """One part's columns (sideways split: its visits) with every row's height."""

    t: SoaTable
    visits: list[int]
    notes: bool
    left: float
    right: float

    def __post_init__(self):
        lw, vw, nw = column_widths(self.t, self.visits, self.notes, self.left, self.right)
        xs = [self.left]
        for w in lw + vw + ([nw] if nw else []):
            xs.append(xs[-1] + w)
        self.xs = xs
        self.n_labels = len(lw)
        self.has_notes = bool(nw)
        self.size = self.t.font_size
        self.lead = self.size * 1.2
        self.header_heights = self._header_heights()
        self.row_heights = [self._row_height(r) for r in self.t.rows]
        self.legend_height = (
            (self._lines(self.t.legend_row, BODY_FONT, self.xs[-1] - self.xs[0]) * self.lead + 2 * CELL_PAD)
            if self.t.legend_row
            else 0
        )

    def vcol(self, k: int) -> int:
        """The grid column of visit k."""
        return self.n_labels + self.visits.index(k)

    def _lines(self, text: str, font: str, width: float, notes: str = "") -> int:
        sup = width_of(notes, BODY_FONT, self.size * SUP_SCALE) if notes else 0
        lines = wrap(text, font, self.size, width - 2 * CELL_PAD - sup)
        assert lines is not None, (text, width)
        return len(lines)

    def header_cells(self) -> list[tuple[int, int, int, int, str, str]]:
        """(row0, row1, col0, col1, text, notes) of each header cell of the part (rows and
        columns inclusive, in grid columns)."""
        t, out = self.t, []
        n_rows = len(t.header)
        last = self.n_labels - 1
        if len(t.header_labels) == 1:
            out.append((0, n_rows - 1, 0, last, t.header_labels[0], ""))
        else:
            out += [(r, r, 0, last, text, "") for r, text in enumerate(t.header_labels)]
        for r in range(n_rows):
            k = 0
            while k < len(self.visits):
                v = self.visits[k]
                r0, k0 = t.owner(r, v)
                cell = t.header[r0][k0]
                if r0 != r:  # a cell spanning down from above: drawn there
                    k += 1
                    continue
                j = k
                while j + 1 < len(self.visits) and t.owner(r, self.visits[j + 1]) == (r0, k0):
                    j += 1
                out.append((r, r + cell.rowspan - 1, self.vcol(v), self.vcol(self.visits[j]), cell.text, cell.notes))
                k = j + 1
        if self.has_notes:
            out.append((0, n_rows - 1, len(self.xs) - 2, len(self.xs) - 2, t.notes_title, ""))
        return out

    def _header_heights(self) -> list[float]:
        n = len(self.t.header)
        heights = [self.lead + 2 * CELL_PAD] * n
        cells = self.header_cells()
        for r0, r1, c0, c1, text, notes in sorted(cells, key=lambda c: c[1] - c[0]):
            need = self._lines(text, BOLD_FONT, self.xs[c1 + 1] - self.xs[c0], notes) * self.lead + 2 * CELL_PAD
            have = sum(heights[r0 : r1 + 1])
            if need > have:
                heights[r1] += need - have
        return heights

    def _row_height(self, row: Row) -> float:
        width_all = self.xs[-1] - self.xs[0]
        if row.group:
            return self._lines(row.label, BOLD_FONT, width_all, row.notes) * self.lead + 2 * CELL_PAD
        lines = 1
        if self.n_labels == 2 and not row.wide:
            lines = max(lines, self._lines(row.label, BODY_FONT, self.xs[2] - self.xs[1], row.notes))
        else:
            lines = max(lines, self._lines(row.label, BODY_FONT, self.xs[self.n_labels] - self.xs[0], row.notes))
        for k in self.visits:
            c = row.cells[k]
            if isinstance(c, Mark) and c.kind == "text":
                span = [j for j in range(k, k + c.span) if j in self.visits]
                w = self.xs[self.vcol(span[-1]) + 1] - self.xs[self.vcol(k)]
                lines = max(lines, self._lines(c.text, c.font, w, c.notes))
        if self.has_notes and row.comment:
            lines = max(lines, self._lines(row.comment, BODY_FONT, self.xs[-1] - self.xs[-2]))
        return lines * self.lead + 2 * CELL_PAD

    def body_boxes(self, rows: list[int], top: float) -> tuple[list[Box], float]:
        """The boxes of body rows `rows` drawn from `top`; the y below them."""
        t, boxes = self.t, []
        y = top
        ys = {}
        for i in rows:
            ys[i] = y
            y += self.row_heights[i]
        bottom = y
        x_end = self.xs[-1]
        for i in rows:
            row, y0, y1 = t.rows[i], ys[i], ys[i] + self.row_heights[i]
            if row.group:
                boxes.append(Box(self.xs[0], y0, x_end, y1, row.label, BOLD_FONT, row.notes, "l", mp.GRID_SPAN_FILL))
                continue
            if self.n_labels == 2 and not row.wide:
                boxes.append(Box(self.xs[1], y0, self.xs[2], y1, row.label, BODY_FONT, row.notes, "l"))
            else:
                boxes.append(Box(self.xs[0], y0, self.xs[self.n_labels], y1, row.label, BODY_FONT, row.notes, "l"))
            k_i = 0
            while k_i < len(self.visits):
                k = self.visits[k_i]
                c = row.cells[k]
                x0 = self.xs[self.vcol(k)]
                if isinstance(c, Mark) and c.span > 1:
                    span = [j for j in range(k, k + c.span) if j in self.visits]
                    x1 = self.xs[self.vcol(span[-1]) + 1]
                    if c.merged:
                        boxes.append(Box(x0, y0, x1, y1, c.text, c.font, c.notes, mark=c))
                    else:
                        for j in span:
                            boxes.append(Box(self.xs[self.vcol(j)], y0, self.xs[self.vcol(j) + 1], y1))
                        boxes.append(Box(x0, y0, x1, y1, mark=c, fill="none"))
                    k_i += len(span)
                    continue
                text = c.text if isinstance(c, Mark) else ""
                font = c.font if isinstance(c, Mark) else BODY_FONT
                notes = c.notes if isinstance(c, Mark) else ""
                boxes.append(Box(x0, y0, self.xs[self.vcol(k) + 1], y1, text, font, notes))
                k_i += 1
            if self.has_notes:
                boxes.append(Box(self.xs[-2], y0, self.xs[-1], y1, row.comment, BODY_FONT, "", "l"))
        # the group column: one cell per run of rows of the same group
        if self.n_labels == 2:
            run: list[int] = []
            for i in rows + [None]:
                row = t.rows[i] if i is not None else None
                if run and (row is None or row.group or row.wide or row.category != t.rows[run[0]].category):
                    boxes.append(
                        Box(
                            self.xs[0],
                            ys[run[0]],
                            self.xs[1],
                            ys[run[-1]] + self.row_heights[run[-1]],
                            t.rows[run[0]].category,
                            BOLD_FONT,
                            "",
                            "l",
                        )
                    )
                    run = []
                if row is not None and not row.group and not row.wide:
                    run.append(i)
        return boxes, bottom

    def header_boxes(self, top: float) -> tuple[list[Box], float]:
        ys = [top]
        for h in self.header_heights:
            ys.append(ys[-1] + h)
        fill = mp.HEADER_FILL if self.t.header_fill else None
        boxes = [
            Box(self.xs[c0], ys[r0], self.xs[c1 + 1], ys[r1 + 1], text, BOLD_FONT, notes, "l" if c0 == 0 else "c", fill)
            for r0, r1, c0, c1, text, notes in self.header_cells()
        ]
        return boxes, ys[-1]

    def header_height(self) -> float:
        return sum(self.header_heights)


def draw_boxes(ops: list, boxes: list[Box], size: float) -> None:
    """Fills, texts, arrows and the rules of the boxes' edges (each edge once, collinear
    pieces joined)."""
    lead = size * 1.2
    for b in boxes:
        if b.fill and b.fill != "none":
            ops.append(("rect", b.x0, b.y0, b.x1, b.y1, None, b.fill, 0))
    horizontal: dict[float, list] = {}
    vertical: dict[float, list] = {}
    for b in boxes:
        if b.fill == "none":  # an arrow over cells drawn on their own
            continue
        for y in (b.y0, b.y1):
            horizontal.setdefault(round(y, 2), []).append((round(b.x0, 2), round(b.x1, 2)))
        for x in (b.x0, b.x1):
            vertical.setdefault(round(x, 2), []).append((round(b.y0, 2), round(b.y1, 2)))
    for b in boxes:
        if b.mark is not None and b.mark.kind == "arrow_line":
            arrow_line_ops(ops, b, size)
            continue
        if b.mark is not None and b.mark.kind == "arrow_text":
            arrow_text_ops(ops, b, size)
            continue
        if not b.text:
            continue
        sup = size * SUP_SCALE
        notes_w = width_of(b.notes, BODY_FONT, sup) if b.notes else 0
        lines = wrap(b.text, b.font, size, b.x1 - b.x0 - 2 * CELL_PAD - notes_w)
        assert lines is not None, b.text
        if b.align == "c":  # centred both ways
            y = b.y0 + (b.y1 - b.y0 - len(lines) * lead) / 2
        else:
            y = b.y0 + CELL_PAD
        for n, line in enumerate(lines):
            w = width_of(line, b.font, size)
            last = n == len(lines) - 1
            extra = notes_w if last else 0
            x = b.x0 + (b.x1 - b.x0 - w - extra) / 2 if b.align == "c" else b.x0 + CELL_PAD
            base = mp.baseline(y, size, lead)
            ops.append(("text", x, base, line, b.font, size, mp.TEXT_COLOR))
            if last and b.notes:
                ops.append(("text", x + w, base - size * SUP_RISE, b.notes, BODY_FONT, sup, mp.TEXT_COLOR))
            y += lead
    for y, pieces in sorted(horizontal.items()):
        for a, b in merge_intervals(pieces):
            ops.append(("line", a, y, b, y, RULE_W, mp.TEXT_COLOR))
    for x, pieces in sorted(vertical.items()):
        for a, b in merge_intervals(pieces):
            ops.append(("line", x, a, x, b, RULE_W, mp.TEXT_COLOR))


def merge_intervals(pieces: list[tuple[float, float]]) -> list[tuple[float, float]]:
    out: list[list[float]] = []
    for a, b in sorted(pieces):
        if out and a <= out[-1][1] + 0.01:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return [(a, b) for a, b in out]


def arrow_line_ops(ops: list, b: Box, size: float) -> None:
    """A line across the box's columns with an arrowhead at each end."""
    y = (b.y0 + b.y1) / 2
    x0, x1 = b.x0 + 4, b.x1 - 4
    head = min(4.0, size * 0.6)
    ops.append(("line", x0 + head, y, x1 - head, y, 0.9, mp.TEXT_COLOR))
    ops.append(("poly", [(x0, y), (x0 + head * 1.5, y - head * 0.7), (x0 + head * 1.5, y + head * 0.7)], mp.TEXT_COLOR))
    ops.append(("poly", [(x1, y), (x1 - head * 1.5, y - head * 0.7), (x1 - head * 1.5, y + head * 0.7)], mp.TEXT_COLOR))


def arrow_text_ops(ops: list, b: Box, size: float) -> None:
    """ "←——→" centred in the box: Symbol arrows around Helvetica em dashes."""
    left_w, right_w = width_of(LEFT_ARROW, "sy", size), width_of(RIGHT_ARROW, "sy", size)
    dash_w = width_of(mp.EM_DASH, BODY_FONT, size)
    room = (b.x1 - b.x0) * 0.8 - left_w - right_w
    n = max(1, int(room // dash_w))
    total = left_w + n * dash_w + right_w
    x = b.x0 + (b.x1 - b.x0 - total) / 2
    base = mp.baseline((b.y0 + b.y1) / 2 - size * 0.6, size, size * 1.2)
    ops.append(("text", x, base, LEFT_ARROW, "sy", size, mp.TEXT_COLOR))
    ops.append(("text", x + left_w, base, mp.EM_DASH * n, BODY_FONT, size, mp.TEXT_COLOR))
    ops.append(("text", x + left_w + n * dash_w, base, RIGHT_ARROW, "sy", size, mp.TEXT_COLOR))


# --------------------------------------------------------------------------
# Pagination
# --------------------------------------------------------------------------


class SFlow(mp.Flow):
    """make_protocol's flow with pages of two shapes: portrait, and landscape as viewed."""

    def __init__(self, first_page: int):
        super().__init__(first_page)
        self.kinds = ["portrait"]

    def new_page(self, kind: str = "portrait") -> None:
        super().new_page()
        self.kinds.append(kind)
        self.y = GEOMS[kind].top

    @property
    def geom(self) -> Geom:
        return GEOMS[self.kinds[-1]]

    def start_block(self, gap: float, need: float) -> None:
        if self.y > self.geom.top and not self.after_heading:
            self.y += gap
        self.after_heading = False
        if self.y + need > self.geom.bottom:
            self.new_page(self.kinds[-1])

    def lines(self, x: float, lines: list[str], font=BODY_FONT, size=mp.BODY_SIZE, leading=mp.BODY_LEADING) -> None:
        for line in lines:
            if self.y + leading > self.geom.bottom:
                self.new_page(self.kinds[-1])
            self.text(x, self.y, line, font, size, leading)
            self.y += leading

    def to_kind(self, kind: str) -> None:
        """Continue on a page of `kind`: a new one unless this one is empty and can turn."""
        if self.kinds[-1] == kind:
            return
        if not self.ops:
            self.kinds[-1] = kind
            self.y = GEOMS[kind].top
        else:
            self.new_page(kind)

    def caption(self, title: str) -> None:
        g = self.geom
        x = g.left + (g.right - g.left - mp.text_width(title, BOLD_FONT, CAPTION_SIZE)) / 2
        self.text(x, self.y, title, BOLD_FONT, CAPTION_SIZE, CAPTION_LEADING)
        self.y += CAPTION_LEADING + 4


@dataclass
class Layout:
    pages: list[list]  # ops per body page
    kinds: list[str]
    placed: list[mp.Placed]
    table_pages: dict[int, list[int]]  # id(table) -> pages of its grid
    chunks: dict[int, list[int]]  # id(table) -> body rows per page
    first_page: int
    page_count: int


def place_soa(flow: SFlow, t: SoaTable) -> tuple[list[int], list[int]]:
    """Draw the table; (its pages, body rows drawn per page)."""
    flow.to_kind(t.page)
    parts = t.parts or [list(range(t.n_visits))]
    pages, chunks = [], []
    lead = t.font_size * 1.25
    for p, visits in enumerate(parts):
        last_part = p == len(parts) - 1
        g = GEOMS[t.page]
        lay = PartLayout(t, visits, last_part, g.left, g.right)
        rows = list(range(len(t.rows)))
        i = 0
        first = True
        while i < len(rows):
            header = first or t.split == "down_repeat"
            caption = (t.title if p == 0 else t.continued) if first else (t.continued if header else "")
            head_h = (CAPTION_LEADING + 4 if caption else 0) + (lay.header_height() if header else 0)
            if first and p == 0:
                need = head_h + sum(lay.row_heights[:3])
                if t.split in ("none", "sideways"):
                    need = head_h + sum(lay.row_heights) + lay.legend_height
                flow.start_block(mp.TABLE_GAP, need)
            elif first:
                flow.new_page(t.page)
            else:
                flow.new_page(t.page)
            # the rows that fit under the header on this page
            y = flow.y + head_h
            j = i
            while j < len(rows):
                h = lay.row_heights[rows[j]]
                end = j == len(rows) - 1
                tail = lay.legend_height if end else 0
                if y + h + tail > flow.geom.bottom:
                    break
                y += h
                j += 1
            # a group row is not left alone at the foot of a page
            while j < len(rows) and j - 1 > i and t.rows[rows[j - 1]].group:
                j -= 1
            assert j > i, (t.title, "no row fits")
            if caption:
                flow.caption(caption)
            boxes: list[Box] = []
            top = flow.y
            if header:
                hb, top = lay.header_boxes(top)
                boxes += hb
            bb, bottom = lay.body_boxes(rows[i:j], top)
            boxes += bb
            if j == len(rows) and t.legend_row and last_part:
                boxes.append(
                    Box(lay.xs[0], bottom, lay.xs[-1], bottom + lay.legend_height, t.legend_row, BODY_FONT, "", "l")
                )
                bottom += lay.legend_height
            draw_boxes(flow.ops, boxes, t.font_size)
            flow.y = bottom + 4
            pages.append(flow.page_no)
            chunks.append(j - i)
            i = j
            first = False
    # footnotes and legend lines under the table
    lines = []
    g = flow.geom
    for marker, text in t.footnotes.items():
        for n, line in enumerate(wrap(text, BODY_FONT, t.font_size, g.right - g.left - FOOTNOTE_INDENT)):
            lines.append((marker if n == 0 else "", line))
    for text in t.legend_lines:
        for line in wrap(text, BODY_FONT, t.font_size, g.right - g.left):
            lines.append((None, line))
    for marker, line in lines:
        if flow.y + lead > flow.geom.bottom:
            flow.new_page(t.page)
        if marker:
            flow.text(g.left, flow.y, marker, BODY_FONT, t.font_size, lead)
        x = g.left if marker is None else g.left + FOOTNOTE_INDENT
        flow.text(x, flow.y, line, BODY_FONT, t.font_size, lead)
        flow.y += lead
    return pages, chunks


def paginate(spec: Protocol, toc: bool) -> Layout:
    n_toc = mp.toc_page_count(spec.outline) if toc else 0
    first = 2 + n_toc
    flow = SFlow(first)
    placed = [mp.Placed() for _ in spec.outline]
    table_pages, chunks = {}, {}
    items = list(mp.flatten(spec))
    for i, (k, blk) in enumerate(items):
        info = placed[k]
        if isinstance(blk, mp.Heading):
            # the section of a landscape table is printed on landscape pages from its heading on
            kinds = [b.page for b in blk.section.blocks if isinstance(b, SoaTable)]
            flow.to_kind(kinds[0] if kinds else "portrait")
            st = blk.style
            n_lines = len(mp.heading_lines(blk.section, st))
            nxt = items[i + 1][1] if i + 1 < len(items) else None
            rest = min(2, len(para_lines(nxt.text))) * mp.BODY_LEADING if isinstance(nxt, mp.Para) else 0
            mp.place_heading(flow, blk, n_lines * st.leading + st.gap_after + rest)
            info.page = flow.page_no
        elif isinstance(blk, mp.Para):  # make_protocol.place_para, its lines remembered
            lines = list(para_lines(blk.text))
            flow.start_block(mp.PARA_GAP, min(2, len(lines)) * mp.BODY_LEADING)
            flow.lines(mp.LEFT, lines)
        elif isinstance(blk, SoaTable):
            table_pages[id(blk)], chunks[id(blk)] = place_soa(flow, blk)
        else:
            raise TypeError(blk)
        info.last_page = flow.page_no
    return Layout(flow.pages, flow.kinds, placed, table_pages, chunks, first, first - 1 + len(flow.pages))


# --------------------------------------------------------------------------
# Rendering
# --------------------------------------------------------------------------


def running_ops(spec: Protocol, n: int, total: int, g: Geom) -> list:
    size = 9
    left, right = spec.running_header
    label = mp.PAGE_LABEL.format(n=n, N=total)
    x0, x1 = g.left, g.right
    label_x = x0 + (x1 - x0 - mp.text_width(label, BODY_FONT, size)) / 2
    foot_rule, foot_base = g.height - 44, g.height - 30
    return [
        ("text", x0, mp.HEADER_BASELINE, left, BODY_FONT, size, mp.MUTED_COLOR),
        (
            "text",
            x1 - mp.text_width(right, BODY_FONT, size),
            mp.HEADER_BASELINE,
            right,
            BODY_FONT,
            size,
            mp.MUTED_COLOR,
        ),
        ("line", x0, mp.HEADER_RULE, x1, mp.HEADER_RULE, 0.5, mp.MUTED_COLOR),
        ("line", x0, foot_rule, x1, foot_rule, 0.5, mp.MUTED_COLOR),
        ("text", x0, foot_base, mp.FOOTER_LEFT, BODY_FONT, size, mp.MUTED_COLOR),
        ("text", label_x, foot_base, label, BODY_FONT, size, mp.MUTED_COLOR),
    ]


def render_page(doc: pymupdf.Document, ops: list, kind: str) -> None:
    """One page. The ops are in the page's frame as viewed; a "rotated" page is a portrait
    media box shown turned by /Rotate 90, so its content is drawn turned the other way (the
    text layer then runs bottom to top in the media box, as in a PDF whose landscape pages
    were made by rotating portrait ones)."""
    if kind == "landscape":
        page = doc.new_page(width=mp.PAGE_H, height=mp.PAGE_W)
    else:
        page = doc.new_page(width=mp.PAGE_W, height=mp.PAGE_H)
    turn = 0
    if kind == "rotated":
        page.set_rotation(90)
        turn = 90

    def at(x: float, y: float) -> tuple[float, float]:  # viewed point -> media box point
        return (y, mp.PAGE_H - x) if turn else (x, y)

    for name in sorted({op[4] for op in ops if op[0] == "text" and op[4] in EMBEDDED}):
        page.insert_font(fontname=name, fontbuffer=pymupdf.Font(EMBEDDED[name]).buffer)
    shape = page.new_shape()
    for op in ops:
        if op[0] == "text":
            _, x, y, text, font, size, color = op
            shape.insert_text(
                at(x, y),
                text if font in EMBEDDED else mp.winansi(text),
                fontname=font,
                fontsize=size,
                color=color,
                rotate=turn,
            )
        elif op[0] == "line":
            _, ax, ay, bx, by, width, color = op
            shape.draw_line(at(ax, ay), at(bx, by))
            shape.finish(width=width, color=color)
        elif op[0] == "rect":
            _, ax, ay, bx, by, stroke, fill, width = op
            shape.draw_rect(pymupdf.Rect(at(ax, ay), at(bx, by)).normalize())
            shape.finish(width=width, color=stroke, fill=fill)
        elif op[0] == "poly":
            _, points, fill = op
            shape.draw_polyline([at(x, y) for x, y in points])
            shape.finish(width=0.5, color=fill, fill=fill, closePath=True)
    shape.commit()


def render(spec: Protocol, pdf_path: Path) -> Layout:
    """Write the PDF of `spec`: title page, contents (when `spec.bookmarks`), body."""
    mp.check_outline(spec)
    lay = paginate(spec, spec.bookmarks)
    pages = [mp.title_page_ops(spec)]
    kinds = ["portrait"]
    if spec.bookmarks:
        toc = mp.toc_pages_ops(spec.outline, lay.placed)
        pages += toc
        kinds += ["portrait"] * len(toc)
    pages += lay.pages
    kinds += lay.kinds
    assert len(pages) == lay.page_count
    doc = pymupdf.open()
    for n, (ops, kind) in enumerate(zip(pages, kinds), 1):
        running = running_ops(spec, n, len(pages), GEOMS[kind]) if n > 1 else []
        render_page(doc, running + ops, kind)
    doc.set_metadata(
        {
            "title": spec.title,
            "author": spec.sponsor,
            "subject": f"Clinical Study Protocol {spec.number}",
            "keywords": "synthetic, test fixture",
            "creator": "ClinParser examples/schedule_layouts.py",
            "producer": "PyMuPDF",
            "creationDate": mp.FIXED_PDF_DATE,
            "modDate": mp.FIXED_PDF_DATE,
            "trapped": "",
        }
    )
    if spec.bookmarks:
        doc.set_toc(
            [[sec.level, f"{sec.number} {sec.title}", info.page] for sec, info in zip(spec.outline, lay.placed)]
        )
    doc.subset_fonts()
    pdf_path = Path(pdf_path)
    pdf_path.parent.mkdir(parents=True, exist_ok=True)
    doc.save(pdf_path, garbage=4, deflate=True, no_new_id=True)
    doc.close()
    return lay


# --------------------------------------------------------------------------
# Public API
# --------------------------------------------------------------------------


def grid_truth(seed: int, comp: Composition, lay: Layout) -> dict:
    timelines = []
    for t in comp.tables:
        timelines.append(
            {
                "name": t.title,
                "pages": sorted(set(lay.table_pages[id(t)])),
                "main": t.main,
                "encounters": t.encounters(),
                "activities": [r.label for r in t.activities()],
                "marks": t.marks(),
            }
        )
        if t.main_visits:
            timelines[-1]["main_encounters"] = list(t.main_visits)
    return {"seed": seed, "forms": comp.forms, "pages": lay.page_count, "timelines": timelines}


def _tables(spec: Protocol) -> list[SoaTable]:
    return [b for sec in spec.outline for b in sec.blocks if isinstance(b, SoaTable)]


def layout(seed: int) -> tuple[Protocol, dict]:
    """The protocol of `seed` and its truth (reference-grid format, see the module docstring).
    The contents page is printed when the protocol's ``bookmarks`` flag is set (the PDF then
    has bookmarks too)."""
    comp = compose(seed)
    lay = paginate(comp.spec, comp.spec.bookmarks)
    return comp.spec, grid_truth(seed, comp, lay)


def build_layout(seed: int, pdf_path: Path) -> dict:
    """Write layout `seed` to `pdf_path`; return its truth."""
    spec, truth = layout(seed)
    lay = render(spec, pdf_path)
    assert [sorted(set(lay.table_pages[id(t)])) for t in _tables(spec)] == [tl["pages"] for tl in truth["timelines"]]
    return truth


def forms_of(seed: int) -> list[str]:
    """The variations of `seed` (no drawing)."""
    return compose(seed).forms


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True, help="output folder")
    parser.add_argument("--count", type=int, default=20, help="how many layouts (default 20)")
    parser.add_argument("--first-seed", type=int, default=0, help="first seed (default 0)")
    args = parser.parse_args(argv)
    for seed in range(args.first_seed, args.first_seed + args.count):
        pdf = args.out / f"layout_{seed:04d}.pdf"
        truth = build_layout(seed, pdf)
        (args.out / f"layout_{seed:04d}.soa.json").write_text(
            json.dumps(truth, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
        )
        print(f"wrote {pdf} ({truth['pages']} pages): {', '.join(truth['forms'])}")


if __name__ == "__main__":
    main()
