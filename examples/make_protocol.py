"""Generate synthetic clinical-trial protocol PDFs and their exact ground truth.

The generated documents are test fixtures for ClinParser: they look like real
protocols (title page, table of contents, running header/footer, numbered
sections, ruled tables, numbered criteria lists and cross-references), but
every word of them is invented.  Because the generator lays out the text
itself, it knows exactly which section every paragraph, list item, table and
figure belongs to and on which page each heading is printed; that knowledge is
written to a JSON "truth" file.

Twelve protocols are defined (see :data:`PROTOCOLS`):

* ``protocol_001`` -- the general example: decimal numbering, a two-page
  schedule of activities, a vector schema and a raster figure.
* ``protocol_002`` -- "decimal traps": a heading whose number and title sit on
  separate lines, a title wrapped over two lines, en-dash and tab separators,
  unstyled level-4/5 headings, a numbering gap (8.1, 8.3), lettered
  appendices (``APPENDIX A`` with ``A.1``), bold numbered questionnaire items,
  numbered lists right after a section's text and a body line that begins with
  ``10.2 mg/kg``.
* ``protocol_003`` -- an older outline style: Roman parts (``I.``), lettered
  chapters (``A.``) and arabic sub-chapters (``1.``), plain numbered criteria
  and ``Section III.B`` cross-references.
* ``protocol_004`` -- numbering forms: numbers glued to their titles
  (``1.1.1.Prior Studies``), a tab between number and title, appendix labels
  alone on the line above their title.
* ``protocol_005`` -- a research-plan form's outline (``A1.`` ... ``A6.``).
* ``protocol_006`` -- heading numbers drawn as small images beside the title
  (greyscale JPEGs 20 pixels high, as templates embed them; only the bookmarks
  and the printed TOC carry them), and an amendment bound
  after the protocol with its own title page, contents and numbering (the
  truth file lists it under ``bundled``).
* ``protocol_007`` -- a schedule of activities continued sideways over two
  pages (:class:`Schedule`): page A has the activity labels and visits 1-5,
  page B, under a caption ending "(continued)", repeats the labels and every
  row and gives visits 6-9 and ET.  Its header has four rows (a Study Period
  row whose cells span their visits, Visit, Study Day, Window); bold group
  rows stand above their activities; marks are "X", "(X)", "P" and a bullet,
  some with superscript footnote markers, as are one activity label and one
  group label; each page prints the footnotes it uses below the table
  ("a  text").  A small ordinary table follows in section 2.1.
* ``protocol_011`` -- schedules as other sponsors print them
  (:class:`SoaGrid`): the main schedule has a five-row header (Study Period
  and Cycle cells spanning their visits, Day, Window, and a Time point row
  giving Cycle 1 Day 1 three columns: SOI, EOI, 4 h), a "Comments" column of
  prose, two notes rows across the grid under the body ("Note: ...",
  "Abbreviations: ..."), and its rows continued onto the next page under the
  repeated header ("(continued)"); a second schedule is a timeline of PK
  sampling time points (Predose, EOI, 4 h under their days).
* ``protocol_012`` -- words that are pixels: a ruled table and a form
  printed as pictures (their words in the picture only), a picture with no
  words, and heading numbers drawn as pictures with no bookmarks (the
  printed TOC carries the numbers as text).
* ``protocol_008`` .. ``protocol_010`` -- the study definition (read by
  ``clinparser/study``).  008: title-page identifiers in a ruled table
  (protocol number, NCT, EudraCT, IND), "Phase 2b"; inclusion criteria
  numbered "1." under bold grouping lines, one with sub-items and a note,
  one with a small uncaptioned table, one continued over a page break;
  exclusion criteria "[1]"; run-in criteria "INC #1"; a synopsis
  sub-section summarizing the criteria (not the criteria); an objectives-
  and-endpoints table with Primary/Secondary/Exploratory rows spanning both
  columns and a cell of bulleted endpoints; a table of abbreviations.
  009: short title, acronym, EU CT number, "Phase 1/2"; criteria "I 01" /
  "E 01"; objectives as sub-sections "Primary Objective" / "Secondary
  Objectives", their endpoints in the statistics chapter, joined by level
  and order.  010: inclusion criteria printed as numbered sub-sections
  (3.1.1 ...), exclusion criteria "a." (one with roman sub-items),
  bulleted randomization criteria; objectives and endpoints under bold
  lead lines.

Study definitions in the truth file: only the truths of 008-010 have a
``study`` key, shaped like ``clinparser/study``'s output without "boxes" and
"diagnostics" (the generator cannot know the parser's blocks): ``titles``,
``identifiers`` (kind, text, page, source: all on the title page),
``phase``, ``sponsor``, ``eligibility`` (category, identifier as printed or
null for a bullet, text, section, pages, applies_to), ``objectives`` (level,
label, text, section, pages, endpoints) and ``abbreviations``.  Texts follow
the readers' conventions: a criterion's sub-items (with their markers), its
note and its table's rows (header first, cells joined by a space) each on a
line of their own after its text; a criterion printed as a sub-section is
its title, then its text.

Schedules in the truth file: only the truths of protocols 007 and 011 speak
about them.
There every table entry has a ``schedule`` key: ``null`` for a table that is
no schedule of activities, else the object a reader should attach to that
table in ``document.json`` (the ``schedule`` object of issue 17), as the
generator knows it by construction: ``name`` (the table's title), ``main``
(true for the first schedule), ``kind`` ("main" for it, else the grid's:
"pk_pd" for sampling), ``label_column``, ``epochs`` (label and encounter
indexes), ``encounters`` (``label``: the column's header cells joined " / "
top to bottom, blank cells left out, as the table stage joins header rows;
``short_label``: the lowest cell but the window, a bare day number named
"Day", parts above put back where two columns would print the same;
``column``, ``epoch``, ``visit``, ``timing``, ``window`` and ``timepoints``:
outside a sampling timeline one visit's time-point columns are one
encounter listing them), ``activities`` and ``groups`` (label without its
footnote markers, ``row``: index into the table's body rows, the footnote
markers), ``marks`` (activity and encounter indexes, the mark without
markers, its markers, the time points it is made at), ``footnotes`` (marker
and text, each once, by marker) and ``notes`` (the notes rows: text and row
index after the body rows).  The
reader's ``diagnostics`` are not part of the truth.  The entry's ``columns``
are those joined headers and its ``data`` the body rows with each footnote
marker glued to the text it follows ("Xb,e", "Discharge from unitf"), as a
PDF's text layer has them.  The truths of protocols 001-006 have no
``schedule`` keys (they were written before schedules were read).

Usage (from the repository root)::

    python examples/make_protocol.py             # -> examples/input/
    python examples/make_protocol.py --out DIR   # -> DIR/

Each run writes ``protocol_0NN.pdf`` and ``protocol_0NN.truth.json`` for all
of them.  The output is byte-for-byte deterministic (fixed metadata, no document
id, no randomness), so a PDF's hash only changes when this script changes.

Tests can call :func:`build` or :func:`build_named` directly::

    truth = build(tmp_path / "protocol_001.pdf")
    truth = build_named("protocol_002", tmp_path / "protocol_002.pdf")

Only PyMuPDF is used for drawing, with the Base-14 Helvetica fonts.
"""

from __future__ import annotations

import argparse
import json
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Iterator, Union

import pymupdf

# --------------------------------------------------------------------------
# Page geometry (US Letter, points, origin top-left as in PyMuPDF)
# --------------------------------------------------------------------------
PAGE_W, PAGE_H = 612, 792
LEFT, RIGHT = 72, 540
CONTENT_W = RIGHT - LEFT
BODY_TOP, BODY_BOTTOM = 72, 720  # body text never leaves this band

HEADER_BASELINE, HEADER_RULE = 40, 47  # running header lives in y < 50
FOOTER_RULE, FOOTER_BASELINE = 748, 762  # running footer lives in y > 742

BODY_FONT, BOLD_FONT, BOLD_ITALIC_FONT = "helv", "hebo", "hebi"
BODY_SIZE, BODY_LEADING = 10, 13
TEXT_COLOR = (0, 0, 0)
MUTED_COLOR = (0.3, 0.3, 0.3)

RUNNING_HEADER = ("CP-001 Clinical Study Protocol", "Version 2.0")
FOOTER_LEFT = "Confidential"
PAGE_LABEL = "Page {n} of {N}"

# Fixed PDF dates keep the output reproducible.
FIXED_PDF_DATE = "D:20260101000000Z"

PROTOCOL_TITLE = (
    "A Phase 2, Randomized, Double-Blind, Placebo-Controlled Study to Evaluate "
    "the Efficacy and Safety of EXP-4170 in Adult Participants with Moderate "
    "to Severe Atopic Dermatitis"
)
PROTOCOL_NUMBER = "CP-001"
SPONSOR = "Example Pharma Inc."


@dataclass(frozen=True)
class HeadingStyle:
    font: str
    size: float
    leading: float
    gap_before: float  # vertical space above the heading (dropped at page top)
    gap_after: float


# Level 4 deliberately uses the plain body font: an "unstyled" heading that a
# parser can only recognise by its numbering.
HEADING_STYLES = {
    1: HeadingStyle(BOLD_FONT, 14, 18, 0, 8),
    2: HeadingStyle(BOLD_FONT, 12, 16, 10, 4),
    3: HeadingStyle(BOLD_FONT, 11, 15, 8, 3),
    4: HeadingStyle(BODY_FONT, 10, 13, 6, 2),
}

TAB_STOP = 120  # x of a heading title set after a tab ("tab" form)

PARA_GAP = 6  # space between paragraphs
LIST_GAP = 3  # space between list items
LIST_TEXT_INDENT = 30  # hanging indent of list item text
TABLE_GAP, FIGURE_GAP = 10, 12
CAPTION_FONT, CAPTION_SIZE, CAPTION_LEADING = BOLD_FONT, 10, 14
CELL_PAD = 3
HEADER_FILL = (0.86, 0.89, 0.94)

# Questionnaire items: bold like a level-3 heading, answers indented below.
QUESTION_FONT, QUESTION_SIZE, QUESTION_LEADING = BOLD_FONT, 11, 15
QUESTION_GAP, OPTIONS_INDENT = 9, 18
# Signature block: two rules per row, a caption under each.
SIGNATURE_ROW, SIGNATURE_RULE_AT, SIGNATURE_COL_GAP = 46, 30, 36


# --------------------------------------------------------------------------
# Content model
# --------------------------------------------------------------------------
@dataclass
class Para:
    text: str


@dataclass
class NumberedList:
    items: list[str]  # item text without the "1." prefix

    def labelled(self) -> list[str]:
        return [f"{i}. {item}" for i, item in enumerate(self.items, 1)]


@dataclass
class Table:
    title: str
    columns: list[str]
    widths: list[float]  # column widths in points, must sum to CONTENT_W
    rows: list[list[str]]
    font_size: float = 9
    # The fixture promises how many pages each table spans (the SoA must be
    # split once); layout fails loudly if an edit to the text changes that.
    expect_pages: int = 1
    center_values: bool = False  # centre all columns but the first (SoA "X")


@dataclass
class Figure:
    title: str
    kind: str  # "vector", "raster" (no words), "form" or "table" (words as pixels)
    width: float
    height: float
    # "form": its lines of text, printed into the picture (with answer boxes
    # drawn beside the questions); "table": its rows, the first the header,
    # printed into the picture as a ruled grid.  Neither is in the text layer.
    lines: tuple[str, ...] = ()
    grid: tuple[tuple[str, ...], ...] = ()


@dataclass
class Questionnaire:
    """Numbered questionnaire items printed in bold like headings, each
    followed by one line of answer options.  They are not sections."""

    items: list[tuple[str, str]]  # (question without "1.", answer options)

    def labelled(self) -> list[str]:
        return [f"{i}. {q}" for i, (q, _) in enumerate(self.items, 1)]


@dataclass
class Signature:
    """Signature rules with a caption under each, two to a row."""

    labels: list[str]


@dataclass
class Entry:
    """One item of a :class:`Listing`: its printed marker ("1.", "[2]", "I 01",
    "INC #3", "a.", a bullet) and text, then, indented under the text, its
    sub-items (marker, text), a note paragraph and a small uncaptioned
    table (a :class:`Grid`), in that order."""

    label: str
    text: str
    subs: list[tuple[str, str]] = field(default_factory=list)
    note: str = ""
    table: "Grid | None" = None
    # The layout must break the page inside this entry's text (it is then
    # printed on two pages); layout fails loudly if an edit changes that.
    split: bool = False


@dataclass
class Listing:
    """A list whose markers are printed as given (criteria, objectives or
    endpoints as bullets).  `role` says what the study truth makes of it:
    "criteria" (each entry one criterion of `category`, for the study step
    `applies_to`), "objectives" / "endpoints" (of `level`, printed label
    `label`) or "" (nothing: the synopsis's summary of the criteria)."""

    entries: list[Entry]
    role: str = ""
    category: str | None = None
    applies_to: str | None = None
    level: str | None = None
    label: str | None = None


@dataclass
class Lead:
    """A bold line at the margin that groups the items after it ("Medical
    Conditions") or introduces a summary ("Key Inclusion Criteria:")."""

    text: str


@dataclass
class Grid:
    """A ruled table that can do what :class:`Table` cannot: rows of one
    cell spanning every column (printed bold on a grey fill), cells of
    several lines ("\\n" separates them; a line "\u2022 text" is a bullet),
    no caption (`title` empty), and a left indent (`x0`: the table sits
    under a list item's text).  `objectives` marks an objectives-and-
    endpoints table: its spanning rows are level words ("Primary") and its
    other rows (objective, endpoints) with one endpoint per line."""

    title: str
    columns: list[str]
    widths: list[float]  # must sum to RIGHT - x0
    rows: list[list[str]]
    x0: float = LEFT
    font_size: float = 9
    objectives: bool = False


@dataclass(frozen=True)
class Visit:
    """One visit column of a schedule of activities, as the generator knows
    it; the printed header cells are made from it."""

    visit: str  # printed in the Visit row: "1", "ET"
    epoch: str | None  # the spanning Study Period cell above it (None: blank)
    days: tuple[int, int] | None  # Study Day, first and last (None: blank)
    window: tuple[int, int] | None  # days allowed (before, after); None: "—"

    @property
    def day_text(self) -> str:
        if self.days is None:
            return ""
        first, last = self.days
        return str(first) if first == last else f"{first} to {last}"

    @property
    def window_text(self) -> str:
        if self.window is None:
            return EM_DASH
        before, after = self.window
        unit = "day" if max(before, after) == 1 else "days"
        if before == after:
            return f"\u00b1{after} {unit}"
        assert before == 0, "only symmetric and after-only windows are printed"
        return f"+{after} {unit}"


# The mark characters of an activity row, one per visit.
MARK_TEXT = {"X": "X", "o": "(X)", "*": "\u2022", "P": "P", ".": ""}


@dataclass
class Activity:
    """An activity row: its label and one mark character per visit (see
    MARK_TEXT); `notes` puts superscript footnote markers after a mark
    (visit index -> "b,e") and `label_notes` after the label."""

    label: str
    marks: str
    notes: dict[int, str] = field(default_factory=dict)
    label_notes: str = ""


@dataclass
class Group:
    """A group row: a bold label across the whole row, no marks."""

    label: str
    label_notes: str = ""


@dataclass
class Schedule:
    """A schedule of activities too wide for one page, printed sideways in
    parts: each part on its own page repeats the label column and every row,
    then gives the next visits; the caption of the later parts ends
    "(continued)".  The header has four rows (HEADER_ROWS): the study period
    (a cell spanning its visits), the visit, the study day and the window.
    Each part's footnotes are printed below it ("a  text"): those of the
    markers that part prints."""

    title: str
    visits: list[Visit]
    rows: list[Union[Group, Activity]]
    footnotes: dict[str, str]  # marker -> text
    parts: list[int]  # visits per page
    label_width: float
    font_size: float = 8

    HEADER_ROWS = ("Study Period", "Visit", "Study Day", "Window")

    def visit_width(self, part: int) -> float:
        return (CONTENT_W - self.label_width) / self.parts[part]

    def part_visits(self, part: int) -> range:
        first = sum(self.parts[:part])
        return range(first, first + self.parts[part])

    def header_cells(self, v: Visit) -> list[str]:
        return [v.epoch or "", v.visit, v.day_text, v.window_text]

    def column_label(self, v: Visit) -> str:
        """The column header as printed, its rows joined " / "."""
        return " / ".join(c for c in self.header_cells(v) if c)

    def row_cells(self, row: Union[Group, Activity]) -> list[tuple[str, str]]:
        """(text, footnote markers) of each cell of a body row, label first."""
        label = (row.label, row.label_notes)
        if isinstance(row, Group):
            return [label] + [("", "")] * len(self.visits)
        return [label] + [(MARK_TEXT[m], row.notes.get(k, "")) for k, m in enumerate(row.marks)]

    def markers(self, part: int) -> list[str]:
        """The footnote markers printed in a part, in footnote order."""
        shown = [0] + [1 + k for k in self.part_visits(part)]
        used = {
            n
            for row in self.rows
            for k, (_, notes) in enumerate(self.row_cells(row))
            if k in shown
            for n in notes.split(",")
            if n
        }
        return [m for m in self.footnotes if m in used]


@dataclass(frozen=True)
class GridVisit:
    """One printed column of a SoaGrid: its header cells top to bottom
    (aligned with the grid's header rows; "" is a blank cell) and what a
    reader must make of them, as the generator knows it."""

    cells: tuple[str, ...]
    visit: str | None
    timing: tuple[str, float, float, int | None] | None  # unit, from, to, cycle
    window: tuple[str, float, float] | None  # printed text, before, after (days)
    short: str  # the column's short label
    epoch: str | None = None  # the top cell when it spans visits
    timepoint: str | None = None  # the lowest cell: a time point in the visit
    # in a side grid, the main grid's encounter this column is (or is a time
    # point within), by the protocol's meaning: "Day 8" is Cycle 1 Day 8
    main_visit: int | None = None


@dataclass
class SoaGrid:
    """A schedule of activities in the layouts other sponsors print (issue
    27): any header rows (a spanning top row, a spanning cycle row, a day row
    with its window, a time-point row under one visit), an optional
    "Comments" column of prose, notes rows across the whole grid under the
    body, and rows continued down over pages with the header repeated (the
    later parts captioned "(continued)"). Columns of one visit that differ
    only by a time point are one encounter in its truth unless the grid is a
    sampling timeline (kind "pk_pd"), whose time points are its encounters."""

    title: str
    header_rows: tuple[str, ...]  # the label column's header cells
    visits: list[GridVisit]
    rows: list[Union[Group, Activity]]
    footnotes: dict[str, str]
    label_width: float
    kind: str  # the truth's kind when the grid is not the main schedule
    spanning_rows: tuple[int, ...] = (0,)  # rows whose equal cells span
    comments: dict[int, str] = field(default_factory=dict)  # row -> comment
    comment_width: float = 0
    notes_rows: tuple[str, ...] = ()
    row_parts: tuple[int, ...] = ()  # body rows per page; () one page
    font_size: float = 7.5

    @property
    def parts(self) -> list[range]:
        sizes = list(self.row_parts) or [len(self.rows)]
        starts = [sum(sizes[:k]) for k in range(len(sizes))]
        return [range(a, a + n) for a, n in zip(starts, sizes)]

    def visit_width(self) -> float:
        return (CONTENT_W - self.label_width - self.comment_width) / len(self.visits)

    def column_label(self, v: GridVisit) -> str:
        return " / ".join(c for c in v.cells if c)

    def markers(self, rows: range) -> list[str]:
        used = set()
        for r in rows:
            row = self.rows[r]
            used.update(n for n in row.label_notes.split(",") if n)
            if isinstance(row, Activity):
                for notes in row.notes.values():
                    used.update(n for n in notes.split(",") if n)
        return [m for m in self.footnotes if m in used]


Block = Union[Para, NumberedList, Table, Figure, Questionnaire, Signature, Schedule, Listing, Lead, Grid, SoaGrid]


@dataclass
class Section:
    number: str  # exactly as printed: "4.2", "4.2.", "APPENDIX A", "III."
    title: str
    blocks: list[Block]
    # Tree depth; by default the count of the number's dotted parts.
    depth: int | None = None
    sep: str = " "  # printed between number and title (" – ", ": ")
    # "inline": number and title on one line (a long title wraps under the
    # title); "split": number alone on a line, title on the next; "tab": the
    # title starts at TAB_STOP whatever the number's width; "image": the
    # number is a small picture beside the title (only bookmarks and the
    # printed TOC carry it as text).
    form: str = "inline"
    style: HeadingStyle | None = None  # overrides the document's level style
    new_page: bool | None = None  # None: the document's chapter-break rule
    # (category, study step) when the section is itself one eligibility
    # criterion ("5.1.1 Age": the title and the text under it).
    criterion: tuple[str, str | None] | None = None

    @property
    def level(self) -> int:
        return self.depth or self.number.rstrip(".").count(".") + 1

    @property
    def heading(self) -> str:
        return f"{self.number}{self.sep}{self.title}"


@dataclass
class Heading:
    """Layout-only block: the heading that opens a section, with the style
    and page-break rule the document assigns to it."""

    section: Section
    style: HeadingStyle
    new_page: bool


def S(number: str, title: str, *blocks: Block, **layout) -> Section:
    return Section(number, title, list(blocks), **layout)


def P(text: str) -> Para:
    return Para(" ".join(text.split()))


# Cross-references the truth file records: "Section 5.2" in decimal
# documents, "Section III" / "Section III.B" / "Section III.B.2" in outlines.
REFERENCE_RE = re.compile(r"\bSection (\d+(?:\.\d+)*)")
OUTLINE_REFERENCE_RE = re.compile(r"\bSection ([IVX]+(?:\.[A-Z](?:\.\d+)?)?)\b")


@dataclass(frozen=True)
class Protocol:
    """One document: its outline plus everything that varies between
    documents (front matter, running header, heading styles)."""

    outline: list[Section]
    title: str
    number: str
    sponsor: str
    cover: list[tuple[str, str]]  # title-page rows: (label, value)
    running_header: tuple[str, str]  # left and right header text
    styles: dict[int, HeadingStyle]  # heading style per tree level
    chapter_breaks: bool = True  # every level-1 section opens a new page
    reference_re: re.Pattern = REFERENCE_RE
    # The body lines allowed to begin like a section number ("10.2 mg/kg
    # was ..."): each phrase must begin a printed line, and no other line
    # may (see check_line_starts).
    line_starts: tuple[str, ...] = ()
    bookmarks: bool = False  # write the outline as PDF bookmarks too
    # Documents bound after the protocol (an amendment): each opens with its
    # own title page and table of contents and numbers its sections afresh.
    bundled: tuple["Bundled", ...] = ()
    # The truth tells for every table whether it is a schedule of activities:
    # its "schedule" object, or null (older truths say nothing).
    says_schedules: bool = False
    # The title page's label/value rows drawn as a ruled table.
    cover_grid: bool = False
    # What the truth says about the study definition (a "study" block); older
    # truths have none.
    study: "Study | None" = None


@dataclass(frozen=True)
class Study:
    """The study definition's facts that are not laid out by the outline: the
    identifiers printed on the title page (kind, text) in printed order, the
    phase (value, as printed) and the short title and acronym when printed.
    The official title is the protocol's title and the sponsor its sponsor;
    criteria, objectives, endpoints and abbreviations come from the
    outline's :class:`Listing`, :class:`Grid` and criterion sections and the
    section titled "List of Abbreviations"."""

    identifiers: tuple[tuple[str, str], ...]
    phase: tuple[str, str]
    short: str | None = None
    acronym: str | None = None


@dataclass(frozen=True)
class Bundled:
    title: str  # printed alone on the document's title page
    outline: list[Section]


# --------------------------------------------------------------------------
# Document text (entirely invented)
# --------------------------------------------------------------------------
SOA_COLUMNS = ["Procedure", "Screening", "Day 1", "Week 2", "Week 4", "Week 8", "Week 12", "End of Study"]
SOA_WIDTHS = [146] + [46] * 7

# One mask character per visit column: "X" = performed, "." = not performed.
SOA_MASKS = [
    ("Informed consent", "X......"),
    ("Eligibility criteria review", "XX....."),
    ("Demographics", "X......"),
    ("Medical history", "X......"),
    ("Prior and concomitant medication review", "XXXXXXX"),
    ("Complete physical examination", "X....XX"),
    ("Targeted physical examination", ".XXXX.."),
    ("Height", "X......"),
    ("Weight", "X....XX"),
    ("Vital signs", "XXXXXXX"),
    ("12-lead ECG", "XX...XX"),
    ("Hematology", "XXXXXXX"),
    ("Serum chemistry", "XXXXXXX"),
    ("Coagulation panel", "X....X."),
    ("Urinalysis", "XX.X.XX"),
    ("Serum pregnancy test", "X......"),
    ("Urine pregnancy test", ".XXXXXX"),
    ("HBV, HCV, and HIV serology", "X......"),
    ("Tuberculosis test (IGRA)", "X......"),
    ("Randomization", ".X....."),
    ("Study intervention administration", ".XXXX.."),
    ("Drug accountability", ".XXXXX."),
    ("Injection site assessment", ".XXXX.."),
    ("PK blood sample", ".XXXXXX"),
    ("Anti-drug antibody sample", ".X.X.XX"),
    ("Serum biomarker sample", ".X.X.X."),
    ("Skin biopsy (optional)", ".X...X."),
    ("DSI assessment", "XXXXXXX"),
    ("IGA assessment", "XXXXXXX"),
    ("Body surface area assessment", "XX..XX."),
    ("Electronic diary training", "X......"),
    ("Electronic diary review", ".XXXXXX"),
    ("Sleep disturbance questionnaire", ".XXXXXX"),
    ("Quality of life questionnaire", ".X.X.XX"),
    ("Lesion photography (selected sites)", ".X...X."),
    ("Genetic sample (optional)", ".X....."),
    ("Contraception counseling", "XXXXXXX"),
    ("Depression screening questionnaire", "X....XX"),
    ("Rescue medication review", ".XXXXXX"),
    ("Adverse event review", "XXXXXXX"),
    ("Serious adverse event review", "XXXXXXX"),
]


def mask_rows(first_row: list[str], masks: list[tuple[str, str]]) -> list[list[str]]:
    """SoA grid rows: `first_row` (visit days), then one row per mask."""
    rows = [list(first_row)]
    for name, mask in masks:
        rows.append([name] + ["X" if m == "X" else "" for m in mask])
    return rows


def soa_rows() -> list[list[str]]:
    # A first row with visit days makes the grid look like a real SoA.
    return mask_rows(
        ["Visit day (window)", "-28 to -1", "1", "15 +/- 3", "29 +/- 3", "57 +/- 3", "85 +/- 3", "113 +/- 3"], SOA_MASKS
    )


OUTLINE: list[Section] = [
    S(
        "1",
        "PROTOCOL SUMMARY",
        P("""This section provides a concise overview of the study design, the
        planned population, and the schedule of procedures. Where the summary
        and the detailed sections of this protocol differ, the detailed
        sections take precedence."""),
    ),
    S(
        "1.1",
        "Synopsis",
        P("""Study CP-001 is a Phase 2, multicenter, randomized, double-blind,
        placebo-controlled study of EXP-4170 in adults with moderate to severe
        atopic dermatitis. Approximately 120 participants will be randomized in
        a 2:1 ratio to receive EXP-4170 or matching placebo. Randomization will
        be stratified by baseline disease severity and by geographic
        region."""),
        P("""The primary objective is to compare the proportion of participants
        achieving at least a 75% improvement in the Dermatitis Severity Index
        (DSI-75) at Week 12 between the two treatment groups. Key secondary
        objectives address itch intensity, sleep disturbance, and the safety
        profile of repeated subcutaneous dosing. The timing of all assessments
        is presented in Section 1.3."""),
        P("""Each participant will take part for up to 20 weeks, comprising a
        screening period of up to 28 days, a 12-week treatment period, and a
        4-week safety follow-up period. Study intervention will be administered
        every 2 weeks at the study site by qualified personnel."""),
        P("""The study population consists of adults aged 18 to 75 years whose
        disease has not been adequately controlled with topical treatment.
        Participants must have a DSI score of 16 or higher and lesions covering
        at least 10% of body surface area at baseline."""),
        P("""An independent data monitoring committee will review unblinded
        safety data at regular intervals during the treatment period. The
        committee may recommend modification or early termination of the study
        if an unacceptable safety signal emerges."""),
        P("""Efficacy will be assessed at every scheduled visit by blinded
        investigators using the DSI and the Investigator Global Assessment.
        Participants will complete itch and sleep diaries on an electronic
        device throughout the treatment period."""),
    ),
    S(
        "1.2",
        "Schema",
        P("""The overall flow of participants through the study periods is
        illustrated in Figure 1. Participants who discontinue study
        intervention early are encouraged to remain in the study and complete
        the follow-up visits."""),
        Figure("Figure 1: Study Schema", "vector", CONTENT_W, 150),
    ),
    S(
        "1.3",
        "Schedule of Activities",
        P("""Table 1 lists the procedures to be performed at each scheduled visit.
        A visit window of plus or minus 3 days applies to all visits after Day 1
        unless otherwise specified. Unscheduled visits may be conducted at any
        time at the discretion of the investigator."""),
        Table(
            "Table 1: Schedule of Activities",
            SOA_COLUMNS,
            SOA_WIDTHS,
            soa_rows(),
            font_size=8,
            expect_pages=2,
            center_values=True,
        ),
        P("""Dosing visits at Weeks 6 and 10 follow the procedures of the Week 4
        visit and are not shown separately. Abbreviations used in Table 1 are
        defined in Section 10.1, and the laboratory analytes for each panel are
        listed in Section 10.2."""),
    ),
    S(
        "2",
        "INTRODUCTION",
        P("""EXP-4170 is a fully humanized immunoglobulin G1 monoclonal antibody
        that binds with high affinity to the alpha subunit of the
        interleukin-47 receptor. Blocking this receptor interrupts a signaling
        pathway that is thought to sustain type 2 inflammation in the
        skin."""),
    ),
    S(
        "2.1",
        "Study Rationale",
        P("""Despite the availability of topical therapies and several systemic
        agents, many adults with atopic dermatitis continue to experience
        uncontrolled disease and persistent itch. An agent with a distinct
        mechanism of action and an infrequent dosing schedule could address an
        important unmet medical need. The present study is designed to
        establish proof of efficacy and to select a dose regimen for Phase 3
        development."""),
    ),
    S(
        "2.2",
        "Background",
        P("""Atopic dermatitis is a chronic, relapsing inflammatory skin disease
        characterized by eczematous lesions, dry skin, and intense pruritus.
        The condition affects an estimated 2% to 7% of adults and is frequently
        associated with asthma, allergic rhinitis, and food allergy. Moderate
        to severe disease has a substantial impact on sleep, work productivity,
        and mental health."""),
        P("""Overexpression of interleukin-47 has been observed in lesional skin
        biopsies from affected patients when compared with samples from healthy
        volunteers. Levels of the cytokine correlate with clinical severity
        scores in several independent cohorts."""),
    ),
    S(
        "2.2.1",
        "Nonclinical Studies",
        P("""The nonclinical program for EXP-4170 included in vitro binding
        studies, pharmacology studies in transgenic mouse models, and
        repeat-dose toxicology studies in cynomolgus monkeys. No adverse
        findings were identified at exposures up to 30 times the anticipated
        clinical exposure at the highest planned dose."""),
    ),
    S(
        "2.2.1.1",
        "Prior Phase 1 Data",
        P("""A first-in-human study enrolled 48 healthy volunteers who received
        single ascending doses of EXP-4170 ranging from 10 mg to 600 mg. The
        most frequently reported adverse events were mild injection site
        reactions and headache, none of which led to withdrawal. No clinically
        meaningful changes in laboratory values, vital signs, or
        electrocardiograms were detected."""),
    ),
    S(
        "2.2.1.2",
        "Pharmacokinetics",
        P("""Following subcutaneous administration, EXP-4170 reached maximum serum
        concentrations between 4 and 7 days after dosing. Exposure increased in
        an approximately dose-proportional manner across the tested range, and
        the mean terminal half-life was close to 21 days. These properties
        support a dosing interval of 2 weeks in the present study."""),
    ),
    S(
        "2.3",
        "Benefit-Risk Assessment",
        P("""Participants randomized to EXP-4170 may experience an improvement in
        the signs and symptoms of their disease, although this benefit has not
        yet been demonstrated. Potential risks include hypersensitivity
        reactions, injection site reactions, and an increased susceptibility to
        certain infections."""),
        P("""The risks will be minimized through careful selection of
        participants, frequent safety monitoring, and predefined rules for
        interrupting treatment. Taking these measures into account, the
        anticipated benefits are considered to justify the potential risks for
        participants in this study."""),
    ),
    S(
        "3",
        "OBJECTIVES AND ENDPOINTS",
        P("""The objectives of the study and the corresponding endpoints are
        summarized in Table 2. All endpoints will be assessed in the full
        analysis set unless otherwise stated in Section 9.2."""),
        Table(
            "Table 2: Objectives and Endpoints",
            ["Objectives", "Endpoints"],
            [214, 254],
            [
                [
                    "Primary: To evaluate the efficacy of EXP-4170 compared with placebo in reducing disease severity",
                    "Proportion of participants achieving DSI-75 at Week 12",
                ],
                [
                    "Secondary: To assess the effect of EXP-4170 on itch and sleep quality",
                    "Change from baseline to Week 12 in the weekly average of "
                    "daily peak itch scores and in the sleep disturbance score",
                ],
                [
                    "Safety: To characterize the safety and tolerability of EXP-4170",
                    "Incidence of treatment-emergent adverse events and serious "
                    "adverse events through the end of the study",
                ],
            ],
        ),
        P("""Exploratory biomarker and pharmacokinetic endpoints are described in
        a separate analysis plan and are not listed here."""),
    ),
    S(
        "4",
        "STUDY DESIGN",
        P("""This section describes the structure of the study, the justification
        for the chosen design, and the criteria that define its
        conclusion."""),
    ),
    S(
        "4.1",
        "Overall Design",
        P("""After providing written informed consent, participants will enter a
        screening period lasting up to 28 days. Eligible participants will be
        randomized on Day 1 and will receive their first dose of study
        intervention at the site under observation. Subsequent doses will be
        administered at Weeks 2, 4, 6, 8, and 10."""),
        Figure("Figure 2: Dosing Timeline", "raster", 325, 130),
        P("""The dosing timeline in Figure 2 shows the six treatment
        administrations followed by the safety follow-up period. Participants
        will remain at the site for at least 60 minutes after each of the first
        three injections."""),
    ),
    S(
        "4.2",
        "Scientific Rationale for Study Design",
        P("""A placebo control is necessary to obtain an unbiased estimate of the
        treatment effect, because the signs of atopic dermatitis fluctuate
        spontaneously over time. The 12-week treatment duration is consistent
        with the period over which other biologic agents have shown a clear
        separation from placebo. Limited use of low-potency topical
        corticosteroids as rescue therapy is permitted to reduce the risk of
        severe flares in the placebo group."""),
    ),
    S(
        "4.3",
        "End of Study Definition",
        P("""A participant is considered to have completed the study if he or she
        has completed all periods, including the last scheduled follow-up
        visit. The end of the study is defined as the date of the last visit of
        the last participant in the study globally."""),
    ),
    S(
        "5",
        "STUDY POPULATION",
        P("""Prospective approval of protocol deviations to recruitment and
        enrollment criteria, also known as protocol waivers or exemptions, is
        not permitted."""),
    ),
    S(
        "5.1",
        "Inclusion Criteria",
        P("""Participants are eligible to be included in the study only if all of
        the following criteria apply:"""),
        NumberedList(
            [
                "Participant is 18 to 75 years of age inclusive at the time of signing the informed consent form.",
                "Participant has a diagnosis of atopic dermatitis for at least 12 "
                "months before screening, confirmed by the investigator.",
                "Participant has a DSI score of 16 or higher and an Investigator "
                "Global Assessment score of 3 or 4 at screening and on Day 1.",
                "Participant has atopic dermatitis involvement of at least 10% of "
                "body surface area at screening and at baseline.",
                "Participant has a documented history of inadequate response to "
                "topical medications within 6 months before screening, or topical "
                "treatments are otherwise medically inadvisable.",
                "Participant is capable of giving signed informed consent and is "
                "willing to comply with all study procedures and restrictions.",
            ]
        ),
    ),
    S(
        "5.2",
        "Exclusion Criteria",
        P("""Participants are excluded from the study if any of the following
        criteria apply:"""),
        NumberedList(
            [
                "Participant has an active chronic or acute skin infection requiring "
                "systemic treatment within 4 weeks before Day 1.",
                "Participant has a known history of human immunodeficiency virus "
                "infection or a positive test for hepatitis B surface antigen or "
                "hepatitis C antibody at screening.",
                "Participant has received a biologic therapy targeting type 2 "
                "inflammation within 5 half-lives or 16 weeks before Day 1, "
                "whichever is longer.",
                "Participant has used systemic immunosuppressive drugs, such as "
                "cyclosporine or methotrexate, within 4 weeks before Day 1.",
                "Participant has a history of malignancy within 5 years, except for "
                "adequately treated basal cell carcinoma of the skin.",
                "Participant has a clinically significant abnormal laboratory value "
                "at screening that, in the opinion of the investigator, would "
                "jeopardize participant safety.",
                "Participant is pregnant, breastfeeding, or planning to become pregnant during the study.",
                "Participant has participated in another interventional clinical "
                "study within 30 days or 5 half-lives of the investigational product "
                "before screening.",
            ]
        ),
    ),
    S(
        "5.3",
        "Screen Failures",
        P("""Screen failures are defined as participants who consent to take part
        in the study but are not subsequently randomized. A minimal set of
        screen failure information is required to ensure transparent reporting
        of participant flow. Individuals who do not meet the criteria for
        participation may be rescreened once, provided that the reason for
        failure was transient."""),
    ),
    S(
        "6",
        "STUDY INTERVENTION",
        P("""Study intervention is defined as any investigational product or
        placebo intended to be administered to a participant according to this
        protocol."""),
    ),
    S(
        "6.1",
        "Study Intervention Administered",
        P("""EXP-4170 will be supplied as a sterile solution in a single-use
        prefilled syringe containing 200 mg in 1.0 mL. Placebo will be supplied
        in identical prefilled syringes containing the same formulation without
        the active ingredient. Each dose will be injected subcutaneously into
        the abdomen, upper arm, or thigh, with rotation of the injection site
        at each visit."""),
        P("""The study intervention must be stored refrigerated at 2 to 8 degrees
        Celsius and protected from light until use. The site pharmacist or a
        designee is responsible for maintaining accurate records of receipt,
        storage, and dispensing."""),
    ),
    S(
        "6.2",
        "Dose Modification",
        P("""Dose reduction of EXP-4170 is not permitted in this study. Dosing may
        be interrupted for up to 4 weeks in the event of an intercurrent
        illness or a suspected treatment-related adverse event, in consultation
        with the medical monitor."""),
        P("""Before resuming treatment, the investigator must confirm that the
        participant still meets the safety-related eligibility criteria; see
        Section 5.2 for the relevant exclusion criteria. Disease activity at
        the time of resumption should be documented using the DSI as described
        in Section 8.1. Participants who require an interruption of more than
        4 weeks must permanently discontinue study intervention according to
        Section 7.1."""),
    ),
    S(
        "7",
        "DISCONTINUATION OF STUDY INTERVENTION",
        P("""Discontinuation of study intervention does not represent withdrawal
        from the study. Every effort should be made to retain participants in
        follow-up so that information on efficacy and safety can be
        collected."""),
    ),
    S(
        "7.1",
        "Discontinuation of Study Intervention",
        P("""Study intervention must be permanently discontinued if a participant
        develops anaphylaxis or another severe hypersensitivity reaction
        attributed to the study intervention. Discontinuation is also required
        in the event of pregnancy, a serious opportunistic infection, or the
        diagnosis of a malignancy."""),
        P("""The reason for discontinuation and the date of the last dose must be
        recorded in the electronic case report form. Participants who
        discontinue study intervention should complete the End of Study visit
        procedures 4 weeks after their last dose."""),
    ),
    S(
        "8",
        "STUDY ASSESSMENTS AND PROCEDURES",
        P("""Study procedures and their timing are summarized in the Schedule of
        Activities in Section 1.3. Immediate safety concerns should be
        discussed with the sponsor as soon as they occur so that appropriate
        measures can be taken."""),
    ),
    S(
        "8.1",
        "Efficacy Assessments",
        P("""The DSI is a composite clinician-reported score that rates the
        extent and severity of erythema, induration, excoriation, and
        lichenification in four body regions. Total scores range from 0 to 72,
        with higher values indicating more severe disease. The same trained
        assessor should perform the DSI evaluation for a given participant
        throughout the study whenever possible."""),
        P("""Participants will record their worst itch over the previous 24 hours
        each evening on an 11-point numeric rating scale using an electronic
        diary. Sleep disturbance will be captured weekly through a short
        questionnaire completed in the diary."""),
    ),
    S(
        "8.2",
        "Safety Assessments",
        P("""Planned time points for all safety assessments are provided in the
        Schedule of Activities. Adverse events will be collected from the
        signing of the informed consent form until the final follow-up
        visit."""),
    ),
    S(
        "8.2.1",
        "Vital Signs",
        P("""Body temperature, pulse rate, respiratory rate, and blood pressure
        will be measured after the participant has rested for at least 5
        minutes in a seated position. On dosing days, vital signs will be
        obtained before the injection and again 30 minutes after it."""),
    ),
    S(
        "8.2.2",
        "Clinical Laboratory Tests",
        P("""Blood and urine samples for safety laboratory tests will be collected
        at the visits indicated in Table 1 and analyzed by a central
        laboratory. The investigator must review each laboratory report,
        document the review, and record any clinically relevant changes as
        adverse events. The full list of required tests is provided in
        Section 10.2."""),
    ),
    S(
        "9",
        "STATISTICAL CONSIDERATIONS",
        P("""A statistical analysis plan will be finalized before database lock
        and will describe the analyses in greater detail than this
        section."""),
    ),
    S(
        "9.1",
        "Sample Size Determination",
        P("""A sample size of 120 participants, with 80 assigned to EXP-4170 and
        40 to placebo, provides approximately 90% power to detect a difference
        in DSI-75 response rates of 30% versus 8%. This calculation assumes a
        two-sided significance level of 0.05 and uses a chi-square test."""),
        P("""The assumed placebo response rate is based on data from comparable
        trials in a similar population. No adjustment for dropout has been made
        because participants who discontinue early will be counted as
        non-responders."""),
    ),
    S(
        "9.2",
        "Analysis Populations",
        P("""The full analysis set includes all randomized participants who
        received at least one dose of study intervention, analyzed according to
        the treatment to which they were randomized. The safety analysis set
        includes all participants who received at least one dose, analyzed
        according to the treatment actually received. The per-protocol set
        excludes participants with important protocol deviations that could
        affect the primary endpoint."""),
    ),
    S(
        "10",
        "SUPPORTING DOCUMENTATION",
        P("""The appendices in this section provide supporting information that
        is referenced throughout the protocol."""),
    ),
    S(
        "10.1",
        "Appendix 1: Abbreviations",
        P("""The abbreviations and specialist terms used in this protocol are
        defined in the following table."""),
        Table(
            "Table 3: Abbreviations",
            ["Abbreviation", "Definition"],
            [110, 358],
            [
                ["ADA", "anti-drug antibody"],
                ["AE", "adverse event"],
                ["DSI", "Dermatitis Severity Index"],
                ["ECG", "electrocardiogram"],
                ["eCRF", "electronic case report form"],
                ["IGA", "Investigator Global Assessment"],
                ["IGRA", "interferon-gamma release assay"],
                ["PK", "pharmacokinetic(s)"],
                ["Q2W", "every 2 weeks"],
                ["SAE", "serious adverse event"],
            ],
        ),
    ),
    S(
        "10.2",
        "Appendix 2: Clinical Laboratory Tests",
        P("""The hematology panel includes hemoglobin, hematocrit, red blood cell
        count, white blood cell count with differential, and platelet count.
        The chemistry panel includes sodium, potassium, creatinine, blood urea
        nitrogen, glucose, total bilirubin, alanine aminotransferase, aspartate
        aminotransferase, and alkaline phosphatase."""),
        P("""Routine urinalysis will be performed by dipstick, with microscopic
        examination only if the dipstick result is abnormal. Serum pregnancy
        testing is required at screening for participants of childbearing
        potential, followed by urine testing at each dosing visit."""),
    ),
]

PROTOCOL_001 = Protocol(
    outline=OUTLINE,
    title=PROTOCOL_TITLE,
    number=PROTOCOL_NUMBER,
    sponsor=SPONSOR,
    cover=[
        ("Protocol Number:", PROTOCOL_NUMBER),
        ("Investigational Product:", "EXP-4170"),
        ("Phase:", "2"),
        ("Sponsor:", SPONSOR),
        ("Version:", "2.0"),
        ("Date:", "15 January 2026"),
    ],
    running_header=RUNNING_HEADER,
    styles=HEADING_STYLES,
    line_starts=("12-week treatment period", "Section 7.1."),
)

# --------------------------------------------------------------------------
# protocol_002: "decimal traps"
# --------------------------------------------------------------------------
# Chapters flow on without a page break, so level 1 needs space above it;
# levels 4 and 5 are unstyled (plain body font, like HEADING_STYLES[4]).
STYLES_002 = {**HEADING_STYLES, 1: HeadingStyle(BOLD_FONT, 14, 18, 18, 8), 5: HEADING_STYLES[4]}
APPENDIX_SUB_STYLE = HEADING_STYLES[3]  # "A.1": bold 11 at tree level 2

SOA_002_COLUMNS = ["Procedure", "Screening", "Day 1", "Week 4", "Week 8", "Week 12", "Follow-up"]
SOA_002_MASKS = [
    ("Informed consent", "X....."),
    ("Eligibility review", "XX...."),
    ("Medical and stroke history", "X....."),
    ("Physical and neurological examination", "X...XX"),
    ("Vital signs", "XXXXXX"),
    ("12-lead ECG", "XX..XX"),
    ("Hematology and clinical chemistry", "XXXXXX"),
    ("Study intervention infusion", ".XXX.."),
    ("Cognitive test battery", "XX.XXX"),
    ("Patient questionnaire (Appendix B)", ".X..XX"),
    ("Adverse event review", "XXXXXX"),
]

OUTLINE_002: list[Section] = [
    S(
        "1",
        "PROTOCOL SUMMARY",
        P("""This chapter summarizes the design of Study CP-002 and the timing of
        its procedures. The detailed chapters that follow govern the conduct
        of the study wherever this summary is less specific."""),
    ),
    S(
        "1.1",
        "Synopsis",
        P("""Study CP-002 is a Phase 2, randomized, double-blind, dose-ranging
        study of intravenous NRX-2210 in adults with cognitive impairment that
        began within 6 months after an ischemic stroke. About 90 participants
        will be assigned in equal numbers to one of two doses of NRX-2210 or
        to placebo, each given as a 60-minute infusion every 4 weeks."""),
        P("""The primary endpoint is the change from baseline to Week 12 in a
        composite cognitive score derived from a standardized test battery.
        The reasons for the chosen doses and comparator are given in
        Section 4.2, and the safety monitoring plan is described in
        Section 8.3."""),
    ),
    S(
        "1.2",
        "Schedule of Activities",
        P("""Table 1 shows when each procedure takes place. Visits after Day 1
        have a window of plus or minus 3 days, and the follow-up visit may
        occur up to 7 days late."""),
        Table(
            "Table 1: Schedule of Activities",
            SOA_002_COLUMNS,
            [168] + [50] * 6,
            mask_rows(
                ["Visit day (window)", "-21 to -1", "1", "29 +/- 3", "57 +/- 3", "85 +/- 3", "113 +/- 7"], SOA_002_MASKS
            ),
            center_values=True,
        ),
    ),
    S(
        "2",
        "INTRODUCTION",
        P("""NRX-2210 is a synthetic peptide that crosses the blood-brain barrier
        and promotes the survival of neurons in tissue surrounding an
        ischemic lesion."""),
    ),
    S(
        "2.1",
        "Study Rationale",
        P("""Cognitive decline affects roughly one third of stroke survivors and
        is a leading cause of lost independence in the year after the event.
        No medicine is currently approved to treat it, and rehabilitation
        alone brings only partial recovery. A treatment that protects
        vulnerable neurons during the months of spontaneous repair could
        therefore change the course of the disability."""),
        form="tab",
    ),
    S(
        "2.2",
        "Background",
        P("""Animal models of focal cerebral ischemia show that neuronal loss in
        the border zone of an infarct continues for several weeks after the
        initial injury. That delayed loss offers a window in which a
        neuroprotective agent may still be effective."""),
    ),
    S(
        "2.2.1",
        "Nonclinical Studies",
        P("""The nonclinical program examined the pharmacology, safety
        pharmacology, and toxicology of NRX-2210 in rodents and in
        cynomolgus monkeys."""),
    ),
    S(
        "2.2.1.1",
        "Safety Pharmacology",
        P("""Single intravenous doses had no effect on cardiovascular,
        respiratory, or central nervous system function in telemetered
        monkeys. No prolongation of the QT interval was detected at plasma
        concentrations well above those expected in this study."""),
    ),
    S(
        "2.2.1.2",
        "General Toxicology",
        P("""Repeat-dose toxicity studies lasting 13 weeks used weekly infusions
        in rats and in monkeys. In the monkey study the doses were 1.2, 3.4,
        and 10.2 mg/kg, and no adverse finding occurred at any of them;
        10.2 mg/kg was the highest dose tested and is regarded as the
        no-observed-adverse-effect level."""),
    ),
    S(
        "2.2.1.2.1",
        "Reproductive Toxicology",
        P("""Embryo-fetal development studies in rats and rabbits revealed no
        malformations or fetal loss attributable to the peptide. Fertility
        assessments in male and female rats were likewise unremarkable."""),
    ),
    S(
        "2.3",
        "Benefit-Risk Assessment",
        P("""Participants may gain improved memory and attention, although this
        benefit remains unproven. The main anticipated risks are infusion
        reactions, transient headache, and the burden of repeated cognitive
        testing, all of which will be closely monitored."""),
    ),
    S(
        "3",
        "OBJECTIVES AND ENDPOINTS",
        P("""Each objective below is paired with the endpoint used to measure
        it. Exploratory objectives are listed in the statistical analysis
        plan only."""),
    ),
    S(
        "3.1",
        "Primary Objective",
        P("""The primary objective is to compare each NRX-2210 dose with
        placebo on the change from baseline to Week 12 in the composite
        cognitive score."""),
        sep=" \u2013 ",
    ),
    S(
        "3.2",
        "Secondary Objectives",
        P("""Secondary objectives address daily functioning, the patient
        questionnaire in Appendix B, and the safety and tolerability of both
        doses over the full 16-week participation."""),
    ),
    S(
        "4",
        "STUDY DESIGN",
        P("""This chapter presents the design and explains why it was
        chosen."""),
    ),
    S(
        "4.1",
        "Overall Design",
        P("""After a screening period of up to 21 days, eligible participants
        are randomized 1:1:1 to NRX-2210 at 3 mg/kg, NRX-2210 at 6 mg/kg, or
        placebo. Infusions are given on Day 1 and at Weeks 4 and 8, and a
        follow-up visit takes place at Week 16."""),
    ),
    S(
        "4.2.",
        "Scientific Rationale",
        P("""A placebo comparator is essential because cognition improves
        spontaneously during the first months after a stroke. Two active
        doses allow the shape of the dose-response relationship to be
        estimated, and the 12-week treatment period covers the phase of
        delayed neuronal loss seen in animal models."""),
        form="split",
    ),
    S(
        "4.3",
        "Justification for Dose",
        P("""The upper dose of 6 mg/kg yields an exposure about one fifth of
        that reached at the no-observed-adverse-effect level in monkeys. The
        lower dose of 3 mg/kg was the smallest dose that produced a
        measurable change in a plasma biomarker of neuronal injury during
        the Phase 1 program."""),
    ),
    S(
        "5",
        "STUDY POPULATION",
        P("""Waivers of the eligibility criteria will not be granted for any
        participant."""),
    ),
    S(
        "5.1",
        "Inclusion Criteria",
        P("""A person may take part only if every criterion in the following
        list is met at screening:"""),
        NumberedList(
            [
                "Aged 40 to 85 years inclusive when the consent form is signed.",
                "Ischemic stroke confirmed by computed tomography or magnetic "
                "resonance imaging, with onset 1 to 6 months before screening.",
                "Composite cognitive score at least 1.5 standard deviations below the age-adjusted norm.",
                "Modified Rankin Scale score of 3 or less.",
                "Able to read and understand the language of the cognitive tests "
                "and the questionnaire, with corrected vision and hearing adequate "
                "for testing.",
                "A study partner who sees the participant at least 3 days each week agrees to attend the visits.",
                "Stable doses of antiplatelet, antihypertensive, and lipid-lowering therapy for 4 weeks.",
                "Written informed consent given by the participant.",
            ]
        ),
    ),
    S(
        "5.2",
        "Exclusion Criteria",
        P("""Any one of the following conditions makes a person ineligible:"""),
        NumberedList(
            [
                "Hemorrhagic stroke, or a transient ischemic attack as the only qualifying event.",
                "Dementia diagnosed before the qualifying stroke, or a known "
                "neurodegenerative disease such as Parkinson disease.",
                "Aphasia severe enough to prevent completion of the cognitive test battery.",
                "Major depressive episode within the past 12 months.",
                "Estimated glomerular filtration rate below 30 mL/min/1.73 m2.",
                "Prior exposure to NRX-2210 or any other investigational peptide "
                "within 6 months, or participation in another drug study within "
                "30 days.",
                "Pregnancy or breastfeeding.",
                "Any condition that, in the opinion of the investigator, would make participation unsafe.",
            ]
        ),
    ),
    S(
        "5.3",
        "Lifestyle Considerations",
        P("""Participants should avoid starting new cognitive training programs
        during the study. Alcohol intake should not exceed 2 units on the day
        before a cognitive assessment."""),
    ),
    S(
        "6",
        "STUDY INTERVENTION",
        P("""The study intervention is NRX-2210 or its matching placebo,
        prepared and administered as described in this chapter."""),
    ),
    S(
        "6.1",
        "Study Intervention(s) Administered, Including Preparation, "
        "Handling, Storage and Accountability of the Investigational "
        "Product",
        P("""NRX-2210 is supplied as a lyophilized powder in glass vials
        containing 300 mg. An unblinded pharmacist reconstitutes the powder
        with sterile water and dilutes the weight-based dose in 100 mL of
        saline; placebo infusions contain saline alone."""),
        P("""Vials are kept at 2 to 8 degrees Celsius in a locked area with a
        temperature log. Every vial received, prepared, or destroyed is
        recorded on the accountability form, which the monitor reconciles
        at each visit."""),
    ),
    S(
        "6.2",
        "Concomitant Therapy",
        P("""All medicines taken within 30 days before screening and during the
        study are recorded with their doses. Cholinesterase inhibitors,
        memantine, and stimulants are prohibited throughout the study."""),
    ),
    S(
        "7",
        "DISCONTINUATION AND WITHDRAWAL",
        P("""Stopping the study intervention is distinct from leaving the
        study: participants who stop infusions should still attend the
        remaining visits."""),
    ),
    S(
        "7.1",
        "Discontinuation of Study Intervention",
        P("""Infusions are stopped permanently after a severe infusion reaction,
        a new stroke, or a pregnancy. When that happens, the site staff
        proceed as follows:"""),
        NumberedList(
            [
                "Document the reason and the date of the last infusion in the case report form.",
                "Inform the medical monitor within 24 hours.",
                "Schedule the participant for the remaining assessments without further infusions.",
            ]
        ),
    ),
    S(
        "7.2",
        "Lost to Follow-up",
        NumberedList(
            [
                "Telephone the participant and the study partner within 2 days of a missed visit.",
                "Send a registered letter if three telephone attempts fail.",
                "Record every contact attempt in the source documents before the "
                "participant is declared lost to follow-up.",
            ]
        ),
    ),
    S(
        "8",
        "STUDY ASSESSMENTS AND PROCEDURES",
        P("""The schedule in Section 1.2 lists each assessment by visit.
        Assessments of cognition always precede blood sampling and
        infusion on the same day."""),
    ),
    S(
        "8.1",
        "Efficacy Assessments",
        P("""The cognitive test battery covers memory, attention, executive
        function, and processing speed, and takes about 45 minutes. Trained
        raters who are unaware of the treatment assignment administer every
        test in a quiet room."""),
    ),
    S(
        "8.3",
        "Safety Assessments",
        P("""Safety is assessed through adverse events, vital signs,
        electrocardiograms, and the laboratory tests listed in Appendix A.
        The former subsection on biomarker sampling was removed by an
        earlier amendment, and the remaining subsections keep their original
        numbers."""),
    ),
    S(
        "APPENDIX A",
        "LABORATORY ASSESSMENTS",
        P("""A central laboratory analyzes all samples. Unscheduled tests may be
        done locally when urgent results are needed."""),
        sep=": ",
        new_page=True,
    ),
    S(
        "A.1",
        "Hematology",
        P("""The hematology panel measures hemoglobin, hematocrit, red and white
        blood cell counts with a differential, and platelets."""),
        style=APPENDIX_SUB_STYLE,
    ),
    S(
        "A.2",
        "Clinical Chemistry",
        P("""Chemistry samples are drawn after an overnight fast of at least
        8 hours."""),
        Table(
            "Table 2: Clinical Chemistry Analytes",
            ["Panel", "Analytes"],
            [130, 338],
            [
                ["Renal function", "creatinine, urea nitrogen, cystatin C"],
                ["Liver function", "alanine and aspartate aminotransferase, alkaline phosphatase, total bilirubin"],
                ["Electrolytes", "sodium, potassium, chloride, bicarbonate"],
                ["Metabolic", "fasting glucose, glycated hemoglobin, total cholesterol"],
            ],
        ),
        style=APPENDIX_SUB_STYLE,
    ),
    S(
        "APPENDIX B",
        "PATIENT QUESTIONNAIRE",
        P("""For each heading below, the participant ticks the one statement
        that best describes his or her health today. The study partner may
        read the statements aloud but must not suggest an answer."""),
        Questionnaire(
            [
                ("Mobility", "I walk without difficulty / I have some trouble walking / I am unable to walk"),
                (
                    "Self-Care",
                    "I wash and dress myself / I need some help to wash or dress / I cannot wash or dress myself",
                ),
                (
                    "Usual Activities",
                    "I manage work, housework and leisure / I have some trouble with them / I cannot do them",
                ),
                ("Pain", "I have no pain or discomfort / I have moderate pain / I have extreme pain"),
                ("Anxiety", "I am not anxious or low / I am moderately anxious or low / I am extremely anxious or low"),
                ("Memory", "I remember recent events well / I sometimes forget them / I often forget them"),
                (
                    "Orientation",
                    "I always know the date and place / I am sometimes unsure of them / I am usually unsure",
                ),
            ]
        ),
        P("""The site coordinator checks the completed form for missing answers
        before the participant leaves the clinic."""),
        sep=": ",
        new_page=True,
    ),
    S(
        "APPENDIX C",
        "SIGNATURE OF INVESTIGATOR",
        P("""I have read this protocol and agree to conduct the study as
        described, in accordance with Good Clinical Practice and all
        applicable regulations. I will ensure that everyone assisting me
        with the study is informed of their obligations."""),
        Signature(
            [
                "Signature of Principal Investigator",
                "Date of Signature",
                "Printed Name of Principal Investigator",
                "Study Site Number",
            ]
        ),
        sep=": ",
        new_page=True,
    ),
]

PROTOCOL_002_TITLE = (
    "A Phase 2, Randomized, Double-Blind, Dose-Ranging Study of Intravenous "
    "NRX-2210 in Adults with Cognitive Impairment after Ischemic Stroke"
)

PROTOCOL_002 = Protocol(
    outline=OUTLINE_002,
    title=PROTOCOL_002_TITLE,
    number="CP-002",
    sponsor="Example Neuroscience Ltd.",
    cover=[
        ("Protocol Number:", "CP-002"),
        ("Investigational Product:", "NRX-2210"),
        ("Phase:", "2"),
        ("Sponsor:", "Example Neuroscience Ltd."),
        ("Version:", "1.0"),
        ("Date:", "2 March 2026"),
    ],
    running_header=("CP-002 Clinical Study Protocol", "Version 1.0"),
    styles=STYLES_002,
    chapter_breaks=False,
    line_starts=("10.2 mg/kg was the highest dose tested",),
)


# --------------------------------------------------------------------------
# protocol_003: an older outline style (I. / A. / 1.)
# --------------------------------------------------------------------------
STYLES_003 = {
    1: HeadingStyle(BOLD_FONT, 13, 17, 0, 8),
    2: HeadingStyle(BOLD_FONT, 11, 15, 10, 3),
    3: HeadingStyle(BOLD_ITALIC_FONT, 10, 13, 8, 2),
}


def part(number: str, title: str, *blocks: Block) -> Section:
    """Roman part "I." (outline numbers carry no depth of their own)."""
    return S(number, title, *blocks, depth=1)


def chapter(number: str, title: str, *blocks: Block) -> Section:
    """Lettered chapter "A.", restarting in every part."""
    return S(number, title, *blocks, depth=2)


def subchapter(number: str, title: str, *blocks: Block) -> Section:
    """Arabic sub-chapter "1.", restarting in every chapter."""
    return S(number, title, *blocks, depth=3)


OUTLINE_003: list[Section] = [
    part(
        "I.",
        "INTRODUCTION",
        P("""This part describes the disease setting, the investigational
           agent, and the reasoning behind the doses to be studied."""),
    ),
    chapter(
        "A.",
        "Background",
        P("""Most women with advanced ovarian cancer respond to first-line
              platinum chemotherapy, yet the majority relapse within three
              years. For tumors that recur more than six months after
              platinum, retreatment with carboplatin remains the standard of
              care, although each successive response tends to be
              shorter."""),
        P("""Tavorelix (LCG-317) is an oral inhibitor of a DNA repair
              kinase that cancer cells rely on after platinum-induced damage.
              In xenograft models the combination of tavorelix with
              carboplatin produced regressions that neither agent achieved
              alone."""),
    ),
    chapter(
        "B.",
        "Rationale",
        P("""Blocking the repair of platinum adducts could restore
              sensitivity in tumors that have begun to escape carboplatin.
              Because the two agents share bone marrow toxicity, the
              combination must first be studied at escalating doses."""),
    ),
    subchapter(
        "1.",
        "Dose Selection",
        P("""The starting dose of 100 mg twice daily corresponds to one
                 sixth of the highest non-severely toxic dose in dogs. Weekly
                 carboplatin at an area under the curve of 2 was chosen
                 because it causes less thrombocytopenia than the
                 three-weekly schedule."""),
    ),
    subchapter(
        "2.",
        "Dose Escalation",
        P("""Doses of tavorelix will be escalated in cohorts of three
                 to six patients; see Section III.B for the rules. No patient
                 will receive a higher dose than the one to which she was
                 first assigned."""),
    ),
    part(
        "II.",
        "OBJECTIVES",
        P("""The Phase I portion establishes a safe dose; the Phase II
           portion estimates activity at that dose."""),
    ),
    chapter(
        "A.",
        "Primary Objectives",
        P("""The first primary objective is to determine the maximum
              tolerated dose of tavorelix given with weekly carboplatin. The
              second is to estimate the objective response rate at the
              recommended Phase II dose."""),
    ),
    chapter(
        "B.",
        "Secondary Objectives",
        P("""Secondary objectives are to describe progression-free
              survival, the duration of response, and the pharmacokinetics of
              tavorelix when combined with carboplatin."""),
    ),
    part(
        "III.",
        "STUDY DESIGN",
        P("""The trial is an open-label, single-arm study conducted at eight
           member institutions of the group."""),
    ),
    chapter(
        "A.",
        "Overall Design",
        P("""The Phase I portion follows a standard three-plus-three
              design. Once the recommended dose is defined, a further cohort
              of 40 patients who meet the criteria in Section IV.A is
              enrolled at that dose."""),
    ),
    chapter(
        "B.",
        "Treatment Plan",
        P("""Each cycle lasts 28 days. Carboplatin is infused on Days 1, 8,
              and 15, and tavorelix tablets are swallowed twice daily with
              food from Day 1 to Day 21."""),
    ),
    subchapter(
        "1.",
        "Dose Levels",
        P("""The dose levels to be explored are shown in Table 1.
                 Intermediate levels may be added if the safety committee
                 considers the steps too large."""),
        Table(
            "Table 1: Tavorelix Dose Levels",
            ["Dose level", "Tavorelix (twice daily)", "Carboplatin (weekly)"],
            [120, 174, 174],
            [
                ["-1", "50 mg", "AUC 2"],
                ["1 (starting)", "100 mg", "AUC 2"],
                ["2", "150 mg", "AUC 2"],
                ["3", "200 mg", "AUC 2"],
                ["4", "250 mg", "AUC 2"],
            ],
        ),
    ),
    subchapter(
        "2.",
        "Dose-Limiting Toxicity",
        P("""A dose-limiting toxicity is any of the following events in
                 the first cycle: grade 4 neutropenia lasting more than seven
                 days, febrile neutropenia, grade 4 thrombocytopenia, or any
                 grade 3 non-hematologic toxicity other than nausea controlled
                 within 48 hours."""),
    ),
    chapter(
        "C.",
        "Duration of Therapy",
        P("""Treatment continues for up to six cycles unless the disease
              progresses, unacceptable toxicity occurs, or the patient
              withdraws consent. Patients who benefit may continue tavorelix
              alone after the sixth cycle."""),
    ),
    part(
        "IV.",
        "STUDY POPULATION",
        P("""Eligibility is confirmed by the registering investigator before
           any protocol treatment is given."""),
    ),
    chapter(
        "A.",
        "Inclusion Criteria",
        P("""Patients must satisfy all of the criteria below:"""),
        NumberedList(
            [
                "Histologically confirmed epithelial ovarian, fallopian tube, or primary peritoneal carcinoma.",
                "Recurrence at least six months after the last dose of platinum-based chemotherapy.",
                "Measurable disease by standard response criteria.",
                "Performance status of 0 or 1.",
                "Adequate bone marrow, renal, and hepatic function as shown by "
                "laboratory tests within 14 days before registration.",
            ]
        ),
    ),
    chapter(
        "B.",
        "Exclusion Criteria",
        P("""Patients with any of the following are not eligible:"""),
        NumberedList(
            [
                "More than two prior lines of chemotherapy.",
                "Previous treatment with an inhibitor of DNA repair kinases.",
                "Brain metastases that are untreated or symptomatic.",
                "Inability to swallow tablets.",
            ]
        ),
    ),
    chapter(
        "C.",
        "Registration Procedures",
        P("""Patients are registered through the group's statistical
              office by telephone or secure web form. The office assigns a
              dose level in the Phase I portion and confirms eligibility
              before issuing a registration number."""),
    ),
    part(
        "V.",
        "STATISTICAL METHODS",
        P("""The statistical design addresses both portions of the
           trial."""),
    ),
    chapter(
        "A.",
        "Sample Size",
        P("""Up to 24 patients may be needed in the Phase I portion. For
              the primary objective stated in Section II.A, a Phase II cohort
              of 40 patients gives 85% power to distinguish a response rate
              of 45% from 25% at a one-sided alpha of 0.05."""),
    ),
    chapter("B.", "Analysis Plan", P("""All analyses are descriptive unless noted below.""")),
    subchapter(
        "1.",
        "Efficacy Analysis",
        P("""The response rate will be reported with an exact 90%
                 confidence interval. Progression-free survival will be
                 summarized with Kaplan-Meier estimates."""),
    ),
    subchapter(
        "2.",
        "Safety Analysis",
        P("""Adverse events will be graded by the common terminology
                 criteria and tabulated by dose level, cycle, and worst grade
                 per patient."""),
    ),
]

PROTOCOL_003_TITLE = (
    "A Phase I/II Study of Oral Tavorelix Combined with Weekly Carboplatin "
    "in Patients with Recurrent Platinum-Sensitive Ovarian Cancer"
)

PROTOCOL_003 = Protocol(
    outline=OUTLINE_003,
    title=PROTOCOL_003_TITLE,
    number="CP-003",
    sponsor="Lakeshore Cooperative Oncology Group",
    cover=[
        ("Protocol Number:", "CP-003"),
        ("Study Agent:", "Tavorelix (LCG-317)"),
        ("Phase:", "I/II"),
        ("Sponsor:", "Lakeshore Cooperative Oncology Group"),
        ("Revision:", "3"),
        ("Date:", "12 September 2025"),
    ],
    running_header=("CP-003 Protocol", "Revision 3"),
    styles=STYLES_003,  # each Roman part opens a page (chapter_breaks)
    reference_re=OUTLINE_REFERENCE_RE,
)


# --------------------------------------------------------------------------
# protocol_004: numbering forms (glued numbers, tabs, appendix labels alone)
# --------------------------------------------------------------------------
def glued(number: str, title: str, *blocks: Block) -> Section:
    """A number glued to its title by its final dot: "1.1.1.Prior Studies"."""
    return S(number, title, *blocks, sep="")


OUTLINE_004: list[Section] = [
    S(
        "1",
        "INTRODUCTION",
        P("""This short protocol exercises the ways authors print a section
        number next to its title. Every heading below opens a section."""),
    ),
    S(
        "1.1",
        "Background",
        P("""Chronic cough affects many adults and has few licensed
        treatments. The study drug blocks a sensory receptor in the
        airway."""),
    ),
    glued(
        "1.1.1.",
        "Prior Studies",
        P("""Two earlier trials enrolled healthy volunteers and reported no
            serious adverse reactions at the planned dose."""),
    ),
    glued(
        "1.1.1.1.",
        "Phase One Results",
        P("""Plasma exposure rose in proportion to dose over the tested
            range and the half-life supported twice-daily dosing."""),
    ),
    S(
        "2",
        "STUDY DESIGN",
        P("""A randomized, double-blind, placebo-controlled design
        compares one dose of the study drug with placebo."""),
        form="tab",
    ),
    S(
        "2.1",
        "Overall Design",
        P("""Participants are assigned in equal numbers to the study
        drug or to placebo and treated for eight weeks."""),
        form="tab",
    ),
    S(
        "2.2",
        "Dose Rationale",
        P("""The chosen dose gave near-complete receptor occupancy in the
        earlier volunteer trials."""),
    ),
    S(
        "3",
        "STUDY POPULATION",
        P("""Adults with a refractory cough of at least one year may
        enrol."""),
    ),
    glued(
        "3.1.",
        "Inclusion Criteria",
        NumberedList(
            ["Age between eighteen and seventy-five years.", "Cough frequency above the screening threshold."]
        ),
    ),
    S(
        "APPENDIX 1",
        "Schedule of Visits",
        P("""Visits take place at screening, at randomization, and
        every two weeks until the end of treatment."""),
        form="split",
    ),
    S(
        "APPENDIX 2",
        "Laboratory Tests",
        P("""Blood counts and liver enzymes are measured at screening
        and at the final visit."""),
        form="split",
    ),
]

PROTOCOL_004 = Protocol(
    outline=OUTLINE_004,
    title="A Randomized Placebo-Controlled Study of Oral Tusperant in Adults with Refractory Chronic Cough",
    number="CP-004",
    sponsor="Example Pharma Inc.",
    cover=[("Protocol Number:", "CP-004"), ("Phase:", "2"), ("Date:", "3 March 2026")],
    running_header=("CP-004 Clinical Study Protocol", "Version 1.0"),
    styles={**HEADING_STYLES, 1: HeadingStyle(BOLD_FONT, 14, 18, 18, 8)},
    chapter_breaks=False,
)


# --------------------------------------------------------------------------
# protocol_005: a form outline (A1. A2. ...), as research-plan forms number
# their items; the part "A" itself is never printed, so the items are the
# top level of the tree.
# --------------------------------------------------------------------------
def form_item(number: str, title: str, *blocks: Block) -> Section:
    return S(number, title, *blocks, depth=1)


OUTLINE_005: list[Section] = [
    form_item(
        "A1.",
        "Study Purpose",
        P("""The study asks whether a titrated aromatase inhibitor
                dose improves ovulation rates over a fixed dose."""),
    ),
    form_item(
        "A2.",
        "Rationale and Justification for the Study",
        P("""Observational reports suggest that raising the dose in
                non-responders yields further ovulations."""),
    ),
    form_item(
        "A3.",
        "Primary Study Endpoint",
        P("""The primary endpoint is ovulation confirmed by a
                mid-luteal progesterone level."""),
    ),
    form_item(
        "A4.",
        "Inclusion and Exclusion Criteria",
        P("""Women aged eighteen to forty with anovulatory infertility
                may take part; those with thyroid disease may not."""),
    ),
    form_item(
        "A5.",
        "Treatment Plan",
        P("""Tablets are taken for five days from the third day of
                each cycle, for up to three cycles."""),
    ),
    form_item(
        "A6.",
        "Statistical Considerations",
        P("""Sixty women per group give adequate power to detect a
                twenty percent difference in ovulation rate."""),
    ),
]

PROTOCOL_005 = Protocol(
    outline=OUTLINE_005,
    title="Research Plan: Fixed Versus Titrated Aromatase Inhibitor Dosing for Ovulation Induction",
    number="CP-005",
    sponsor="Example University Hospital",
    cover=[("Form:", "Research Plan"), ("Protocol Number:", "CP-005")],
    running_header=("CP-005 Research Plan", "Version 2"),
    styles={1: HeadingStyle(BOLD_FONT, 11, 15, 12, 4)},
    chapter_breaks=False,
)


# --------------------------------------------------------------------------
# protocol_006: heading numbers drawn as images (bookmarks carry them) and an
# amendment bound after the protocol with its own title page, contents and
# numbering
# --------------------------------------------------------------------------
def pictured(number: str, title: str, *blocks: Block) -> Section:
    return S(number, title, *blocks, form="image")


OUTLINE_006: list[Section] = [
    S(
        "1",
        "INTRODUCTION",
        P("""Atopic dermatitis in children disturbs sleep and school
        attendance. This protocol tests a topical enzyme inhibitor."""),
    ),
    pictured(
        "1.1",
        "Background",
        P("""The inhibitor reduced itch in adults within one week in a
               prior placebo-controlled trial."""),
    ),
    pictured(
        "1.2",
        "Benefit and Risk",
        P("""Local burning was the most frequent reaction and faded
               after the first days of use."""),
    ),
    S(
        "2",
        "STUDY DESIGN",
        P("""Children are randomized to cream or vehicle for twelve
        weeks."""),
    ),
    pictured(
        "2.1",
        "Overall Design",
        P("""Each child applies the assigned cream twice daily to all
               affected skin."""),
    ),
    pictured(
        "2.1.1",
        "Treatment Groups",
        P("""One group receives the active cream and the other receives
               the matching vehicle."""),
    ),
    pictured(
        "2.2",
        "End of Study",
        P("""The study ends when the last child completes the follow-up
               telephone call."""),
    ),
    S(
        "3",
        "SAFETY",
        P("""Investigators record every adverse event from consent until the
        final contact."""),
    ),
    pictured(
        "3.1",
        "Adverse Events",
        P("""Serious events are reported to the sponsor within one
               working day of awareness."""),
    ),
]

AMENDMENT_006 = Bundled(
    "PROTOCOL AMENDMENT 1",
    [
        S(
            "1",
            "Introduction",
            P("""This amendment lengthens the follow-up and clarifies safety
        reporting. It takes effect on approval by each ethics
        committee."""),
        ),
        S(
            "2",
            "Changes",
            P("""Deleted text is struck through and new text is shown in
        italics."""),
        ),
        S(
            "2.1",
            "Changes to the End of Study",
            P("""The final telephone call moves from week sixteen to week
        twenty."""),
        ),
        S(
            "2.2",
            "Changes to Adverse Event Reporting",
            P("""Reports may now be sent through the electronic data capture
        system."""),
        ),
    ],
)

PROTOCOL_006 = Protocol(
    outline=OUTLINE_006,
    title="A Vehicle-Controlled Study of Topical Dermanib Cream in Children with Atopic Dermatitis",
    number="CP-006",
    sponsor="Example Pharma Inc.",
    cover=[("Protocol Number:", "CP-006"), ("Phase:", "3"), ("Date:", "9 April 2026")],
    running_header=("CP-006 Clinical Study Protocol", "Version 2.0"),
    styles={**HEADING_STYLES, 1: HeadingStyle(BOLD_FONT, 14, 18, 18, 8)},
    chapter_breaks=False,
    bookmarks=True,
    bundled=(AMENDMENT_006,),
)

# --------------------------------------------------------------------------
# protocol_007: a schedule of activities continued sideways over two pages
# (the label column and every row repeated, the next visits beside them), with
# a four-row header, group rows, footnoted marks and labels; and an ordinary
# table that is no schedule
# --------------------------------------------------------------------------
SOA_007_VISITS = [
    Visit("1", "Screening", (-28, -1), None),
    Visit("2", "Treatment", (1, 1), None),
    Visit("3", "Treatment", (8, 8), (1, 1)),
    Visit("4", "Treatment", (15, 15), (2, 2)),
    Visit("5", "Treatment", (29, 29), (3, 3)),
    Visit("6", "Treatment", (57, 57), (3, 3)),
    Visit("7", "Treatment", (85, 85), (3, 3)),
    Visit("8", "Follow-up", (113, 113), (7, 7)),
    Visit("9", "Follow-up", (169, 169), (0, 7)),
    Visit("ET", None, None, None),
]

# Marks, one per visit (V1 ... V9, ET): X, "." none, o "(X)", * bullet, P.
SOA_007_ROWS: list[Union[Group, Activity]] = [
    Group("Eligibility and admission"),
    Activity("Informed consent", "X........."),
    Activity("Inclusion and exclusion criteria", "XX........", {1: "a"}),
    Activity("Demographics and medical history", "X........."),
    Activity("Admission to unit", ".X........"),
    Activity("Discharge from unit", ".X........", label_notes="f"),
    Group("Safety assessments"),
    Activity("Physical examination", "X...X..X.X"),
    Activity("Targeted physical examination", ".ooo.oo..."),
    Activity("Vital signs", "XXXXXXXX.X", {1: "b"}),
    Activity("12-lead ECG", "XX..X.XX.X", {1: "b"}),
    Activity("Adverse event review", "XXXXXXXXPX"),
    Activity("Concomitant medication review", "XXXXXXXXPX"),
    Group("Laboratory", label_notes="c"),
    Activity("Hematology and chemistry", "XXXXXXXX.X"),
    Activity("Urinalysis", "X...X..X.X"),
    Activity("Pregnancy test", "XX..XXXX.X", {0: "d", 7: "d"}),
    Activity("Hepatitis and HIV serology", "X........."),
    Group("Study drug"),
    Activity("Infusion of study drug", ".XXXXXX..."),
    Activity("Drug accountability", ".XXXXXX..X"),
    Group("Pharmacokinetics and imaging"),
    Activity("PK blood sample", ".XXXXXXX.X", {1: "b,e", 2: "e", 3: "e", 4: "e", 5: "e", 6: "e"}),
    Activity("Anti-drug antibody sample", ".X..X.XX.X", {1: "e"}),
    Activity("Skin imaging (substudy)", "*...*..*.."),
]

SOA_007_FOOTNOTES = {
    "a": "Eligibility is confirmed again on Day 1 before the first infusion starts.",
    "b": "Before the infusion and at 1, 2 and 4 hours after it starts.",
    "c": "Analyzed by the central laboratory; the investigator reviews the results before the next infusion is given.",
    "d": "Serum test at screening and on Day 113; urine test at the other visits marked.",
    "e": "Drawn within 30 minutes before the infusion starts.",
    "f": "Participants stay in the unit for 24 hours after the first "
    "infusion and leave after the morning assessments of Day 2.",
}

OUTLINE_007: list[Section] = [
    S(
        "1",
        "PROTOCOL SUMMARY",
        P("""This protocol describes an open-label study of monthly
        intravenous infusions of lunavirimab in adults with chronic hand
        eczema that has not responded to topical treatment."""),
    ),
    S(
        "1.1",
        "Synopsis",
        P("""Forty adults receive six infusions of lunavirimab four weeks
        apart after a screening period of up to four weeks. A safety
        follow-up of twelve weeks follows the last infusion. The first
        infusion is given in a residential unit, where participants stay
        overnight."""),
    ),
    S(
        "1.2",
        "Schedule of Activities",
        P("""Table 1 lists the procedures at each visit. The table is wider
        than a page: its second part repeats the procedures and gives the
        remaining visits. In the table, X marks a procedure done at the
        visit, (X) a procedure done only when clinically indicated, P a
        contact by telephone and a bullet a procedure done only for the
        participants of the imaging substudy."""),
        Schedule(
            "Table 1: Schedule of Activities",
            SOA_007_VISITS,
            SOA_007_ROWS,
            SOA_007_FOOTNOTES,
            parts=[5, 5],
            label_width=168,
        ),
        P("""Participants who stop the study early attend the early
        termination visit (ET) within two weeks of their last infusion.
        Unscheduled visits may take place at any time for safety
        reasons."""),
    ),
    S(
        "2",
        "STUDY INTERVENTION",
        P("""Lunavirimab is a human monoclonal antibody supplied as a
        concentrate for dilution in sodium chloride solution."""),
    ),
    S(
        "2.1",
        "Dosing",
        P("""The dose depends on body weight at screening and stays the same
        for the whole treatment period; the infusion details are given in
        Table 2."""),
        Table(
            "Table 2: Infusion Details",
            ["Body weight", "Dose", "Infusion time", "Diluent"],
            [117, 117, 117, 117],
            [
                ["Below 90 kg", "300 mg", "30 minutes", "100 mL"],
                ["90 kg or more", "450 mg", "45 minutes", "250 mL"],
            ],
        ),
    ),
    S(
        "3",
        "SAFETY",
        P("""Adverse events are recorded from consent until the last
        follow-up contact; the investigator grades each event and judges
        whether it is related to the infusion."""),
    ),
    S(
        "3.1",
        "Infusion Reactions",
        P("""An infusion is slowed or stopped if a reaction occurs; the
        participant is observed until all symptoms have resolved."""),
    ),
]

PROTOCOL_007 = Protocol(
    outline=OUTLINE_007,
    title="An Open-Label Study of Intravenous Lunavirimab in Adults with Chronic Hand Eczema",
    number="CP-007",
    sponsor="Example Pharma Inc.",
    cover=[("Protocol Number:", "CP-007"), ("Phase:", "2"), ("Date:", "20 May 2026")],
    running_header=("CP-007 Clinical Study Protocol", "Version 1.0"),
    styles={**HEADING_STYLES, 1: HeadingStyle(BOLD_FONT, 14, 18, 18, 8)},
    chapter_breaks=False,
    says_schedules=True,
)

# --------------------------------------------------------------------------
# protocol_011: schedules as other sponsors print them (issue 27): a main
# schedule with a five-row header (a spanning study period and cycle, day,
# window and a time-point row under Cycle 1 Day 1), a Comments column, two
# notes rows under the grid, rows continued down onto the next page under the
# repeated header; and a second timeline of PK sampling time points
# --------------------------------------------------------------------------
SOA_011_VISITS = [
    GridVisit(("Screening", "", "", "", ""), "Screening", None, None, "Screening", "Screening"),
    GridVisit(
        ("Treatment", "Cycle 1", "D1", "", "SOI"), None, ("day", 1, 1, 1), None, "Cycle 1 / D1", "Treatment", "SOI"
    ),
    GridVisit(
        ("Treatment", "Cycle 1", "D1", "", "EOI"), None, ("day", 1, 1, 1), None, "Cycle 1 / D1", "Treatment", "EOI"
    ),
    GridVisit(
        ("Treatment", "Cycle 1", "D1", "", "4 h"), None, ("day", 1, 1, 1), None, "Cycle 1 / D1", "Treatment", "4 h"
    ),
    GridVisit(
        ("Treatment", "Cycle 1", "D8", "\u00b11", ""),
        None,
        ("day", 8, 8, 1),
        ("\u00b11", 1, 1),
        "Cycle 1 / D8",
        "Treatment",
    ),
    GridVisit(
        ("Treatment", "Cycle 2", "D1", "\u00b12", ""),
        None,
        ("day", 1, 1, 2),
        ("\u00b12", 2, 2),
        "Cycle 2 / D1",
        "Treatment",
    ),
    GridVisit(
        ("Treatment", "Cycle 2", "D8", "\u00b12", ""),
        None,
        ("day", 8, 8, 2),
        ("\u00b12", 2, 2),
        "Cycle 2 / D8",
        "Treatment",
    ),
    GridVisit(("Follow-up", "", "EOT", "", ""), "EOT", None, None, "EOT", "Follow-up"),
    GridVisit(("Follow-up", "", "FU", "+7", ""), "FU", None, ("+7", 0, 7), "FU", "Follow-up"),
]

# Marks, one per column: Screening, C1D1 SOI / EOI / 4 h, C1D8, C2D1, C2D8, EOT, FU.
SOA_011_ROWS: list[Union[Group, Activity]] = [
    Group("Screening"),
    Activity("Informed consent", "X........"),
    Activity("Eligibility criteria", "XX.......", {1: "a"}),
    Activity("Medical history", "X........"),
    Group("Safety"),
    Activity("Physical examination", "XX..XX.X."),
    Activity("Vital signs", "XXXXXXXXX", {2: "b"}),
    Activity("12-lead ECG", "XX.X.X.X."),
    Activity("Adverse events", "XXXXXXXXX"),
    Activity("Hematology and chemistry", "XX..XX.X."),
    Group("Study drug"),
    Activity("Infusion of study drug", ".X...X..."),
    Activity("Drug accountability", ".X...X.X."),
    Group("Other"),
    Activity("Tumor imaging", "X......X."),
    Activity("Quality of life questionnaire", ".X...X.X."),
    Activity("Survival status", "........X"),
]
SOA_011_COMMENTS = {
    2: "Before dosing",
    8: "No fasting",
    14: "CT or MRI",
}
SOA_011_FOOTNOTES = {
    "a": "Eligibility is confirmed again before the first infusion starts.",
    "b": "Measured at the end of the infusion and every 15 minutes until the participant leaves.",
}
SOA_011_NOTES = (
    "Note: A treatment cycle is 21 days; Cycle 2 Day 1 follows Cycle 1 Day 21.",
    "Abbreviations: EOI, end of infusion; EOT, end of treatment; SOI, start of infusion.",
)

PK_011_VISITS = [
    GridVisit(
        ("Day 1", "Predose"), None, ("day", 1, 1, None), None, "Day 1 / Predose", timepoint="Predose", main_visit=1
    ),
    GridVisit(("Day 1", "EOI"), None, ("day", 1, 1, None), None, "Day 1 / EOI", timepoint="EOI", main_visit=1),
    GridVisit(("Day 1", "4 h"), None, ("day", 1, 1, None), None, "4 h", timepoint="4 h", main_visit=1),
    GridVisit(
        ("Day 8", "Predose"), None, ("day", 8, 8, None), None, "Day 8 / Predose", timepoint="Predose", main_visit=2
    ),
    GridVisit(("Day 22", "Predose"), None, ("day", 22, 22, None), None, "Day 22 / Predose", timepoint="Predose"),
    GridVisit(("Day 22", "EOI"), None, ("day", 22, 22, None), None, "Day 22 / EOI", timepoint="EOI"),
]
PK_011_ROWS: list[Union[Group, Activity]] = [
    Activity("PK blood sample", "XXXXXX"),
    Activity("Anti-drug antibody sample", "X..XX."),
    Activity("Cytokine panel", "XX..XX"),
]

OUTLINE_011: list[Section] = [
    S(
        "1",
        "PROTOCOL SUMMARY",
        P("""This protocol describes an open-label study of intravenous
        teriluzumab given every three weeks to adults with advanced solid
        tumors."""),
    ),
    S(
        "1.1",
        "Synopsis",
        P("""Thirty adults receive teriluzumab on Day 1 of each 21-day cycle
        until the disease progresses, after a screening period of up to
        four weeks."""),
    ),
    S(
        "1.2",
        "Schedule of Activities",
        P("""Table 1 lists the procedures of each visit; on Cycle 1 Day 1 the
        assessments are timed from the start and the end of the
        infusion."""),
        SoaGrid(
            "Table 1: Schedule of Activities",
            ("Study Period", "Cycle", "Day", "Window", "Time point"),
            SOA_011_VISITS,
            SOA_011_ROWS,
            SOA_011_FOOTNOTES,
            label_width=100,
            kind="main",
            spanning_rows=(0, 1),
            comments=SOA_011_COMMENTS,
            comment_width=53,
            notes_rows=SOA_011_NOTES,
            row_parts=(10, 7),
            font_size=6,
        ),
        P("""Participants who stop treatment early attend the end of treatment
        visit within two weeks of their last infusion."""),
    ),
    S(
        "1.3",
        "Pharmacokinetic Sampling",
        P("""Blood samples for pharmacokinetics are drawn at the times Table 2
        gives."""),
        SoaGrid(
            "Table 2: Schedule of Pharmacokinetic Sampling",
            ("Visit", "Time point"),
            PK_011_VISITS,
            PK_011_ROWS,
            {},
            label_width=150,
            kind="pk_pd",
            font_size=7,
        ),
    ),
    S(
        "2",
        "STUDY INTERVENTION",
        P("""Teriluzumab is a humanized monoclonal antibody given as a 60-minute
        intravenous infusion."""),
    ),
    S(
        "3",
        "SAFETY",
        P("""Adverse events are recorded from consent until the follow-up
        visit; the investigator grades each event."""),
    ),
]

PROTOCOL_011 = Protocol(
    outline=OUTLINE_011,
    title="An Open-Label Study of Intravenous Teriluzumab in Adults with Advanced Solid Tumors",
    number="CP-011",
    sponsor="Example Pharma Inc.",
    cover=[("Protocol Number:", "CP-011"), ("Phase:", "1"), ("Date:", "2 December 2026")],
    running_header=("CP-011 Clinical Study Protocol", "Version 1.0"),
    styles={**HEADING_STYLES, 1: HeadingStyle(BOLD_FONT, 14, 18, 18, 8)},
    chapter_breaks=False,
    says_schedules=True,
)

# --------------------------------------------------------------------------
# protocol_012: words that are pixels -- a form and a table printed as
# pictures, a picture with no words, and heading numbers drawn as pictures
# with no bookmarks to name them (only the printed TOC, whose entries carry
# the numbers as text)
# --------------------------------------------------------------------------
FORM_012 = (
    "Daily Itch Diary",
    "Participant number: ________  Date: ________",
    "Did itching wake you last night?",
    "Did you apply the cream this morning?",
    "Did you apply the cream this evening?",
    "Rate your itch today from 0 (none) to 10 (worst).",
    "Return this diary at your next clinic visit.",
)
LAB_012 = (
    ("Panel", "Screening", "Week 4", "Week 12"),
    ("Hematology", "X", "X", "X"),
    ("Chemistry", "X", "", "X"),
    ("Urinalysis", "X", "", ""),
    ("Pregnancy test", "X", "X", "X"),
)

OUTLINE_012: list[Section] = [
    S(
        "1",
        "INTRODUCTION",
        P("""Hand eczema keeps many adults from work. This protocol tests a
        barrier cream against its vehicle."""),
    ),
    pictured(
        "1.1",
        "Background",
        P("""The cream restored the skin barrier in a small open
               study."""),
    ),
    S(
        "2",
        "STUDY DESIGN",
        P("""Adults are randomized to cream or vehicle for twelve weeks."""),
        Figure("Figure 1: Dosing Timeline", "raster", 325, 130),
    ),
    pictured(
        "2.1",
        "Laboratory Assessments",
        P("""Blood and urine are collected at the visits the table
               below gives."""),
        Figure("Table 1: Laboratory Panels by Visit", "table", 380, 130, grid=LAB_012),
    ),
    pictured(
        "2.2",
        "Participant Diary",
        P("""Participants complete the diary below every day of the
               treatment period."""),
        Figure("Figure 2: Daily Itch Diary", "form", 380, 140, lines=FORM_012),
    ),
    S(
        "3",
        "SAFETY",
        P("""Adverse events are recorded from consent until the last
        visit."""),
    ),
    pictured(
        "3.1",
        "Adverse Events",
        P("""Serious events are reported to the sponsor within one
               working day."""),
    ),
]

PROTOCOL_012 = Protocol(
    outline=OUTLINE_012,
    title="A Vehicle-Controlled Study of a Barrier Cream in Adults with Hand Eczema",
    number="CP-012",
    sponsor="Example Pharma Inc.",
    cover=[("Protocol Number:", "CP-012"), ("Phase:", "2"), ("Date:", "2 December 2026")],
    running_header=("CP-012 Clinical Study Protocol", "Version 1.0"),
    styles={**HEADING_STYLES, 1: HeadingStyle(BOLD_FONT, 14, 18, 18, 8)},
    chapter_breaks=False,
)

# --------------------------------------------------------------------------
# protocols 008-010: the study definition (issue: clinparser/study).  Their
# truths carry a "study" block: titles, identifiers, phase, sponsor,
# eligibility criteria, objectives with their endpoints and abbreviations,
# as the generator lays them out.
# --------------------------------------------------------------------------
DOT = "\u2022"  # a bullet (BULLET is defined with the fonts, below)
STUDY_STYLES = {**HEADING_STYLES, 1: HeadingStyle(BOLD_FONT, 14, 18, 18, 8)}


def E(label: str, text: str, *subs: tuple[str, str], **more) -> Entry:
    if "note" in more:
        more["note"] = " ".join(more["note"].split())
    return Entry(label, " ".join(text.split()), [(m, " ".join(t.split())) for m, t in subs], **more)


def criteria(category: str, *entries: Entry, applies_to: str | None = None) -> Listing:
    return Listing(list(entries), "criteria", category, applies_to)


def bullets(role: str, level: str, label: str, *texts: str) -> Listing:
    return Listing([E(DOT, t) for t in texts], role, level=level, label=label)


# protocol_008: a title page whose identifiers sit in a ruled table, Phase
# 2b; criteria numbered "1." (grouped under bold sub-headings, one with
# sub-items and a note, one with a small table, one broken by a page turn),
# "[1]" and "INC #1" (the run-in's); a synopsis summary of the criteria; an
# objectives-and-endpoints table with Primary/Secondary/Exploratory rows
# spanning both columns; a table of abbreviations.
WASHOUT_008 = Grid(
    "",
    ["Medication class", "Washout before Day 1"],
    [238, 191],
    [
        ["Systemic corticosteroids", "4 weeks"],
        ["Leukotriene receptor antagonists", "2 weeks"],
        ["Cyclosporine or other immunosuppressants", "8 weeks"],
    ],
    x0=LEFT + 39,
)

OUTLINE_008: list[Section] = [
    S(
        "1",
        "PROTOCOL SUMMARY",
        P("""This protocol describes a dose-ranging study of subcutaneous
        EXP-5206 in adults whose chronic spontaneous urticaria stays active
        despite antihistamine treatment."""),
    ),
    S(
        "1.1",
        "Synopsis",
        P("""About 160 adults are randomized to one of three doses of
        EXP-5206 or to placebo, given every 4 weeks for 12 weeks after a
        two-week placebo run-in. A follow-up period of 12 weeks without
        treatment completes each participant's time in the study."""),
    ),
    S(
        "1.1.1",
        "Key Eligibility Criteria",
        Lead("Inclusion:"),
        Listing(
            [
                E("1.", "Adults aged 18 to 70 years."),
                E("2.", "Hives for 6 months or longer despite antihistamines."),
                E("3.", "Signed consent."),
            ]
        ),
        Lead("Exclusion:"),
        Listing([E("1.", "Prior anaphylaxis to a biologic."), E("2.", "Pregnancy or breastfeeding.")]),
    ),
    S(
        "2",
        "INTRODUCTION",
        P("""Chronic spontaneous urticaria causes itchy wheals and swelling
        that come and go without an external trigger for months or years.
        Many patients keep having symptoms at the highest approved
        antihistamine doses, and their sleep and work suffer as a
        result."""),
        P("""EXP-5206 is a humanized antibody that blocks a receptor found on
        mast cells of the skin. In a first study in healthy volunteers,
        single doses were well tolerated and lowered a blood marker of mast
        cell activation for several weeks."""),
    ),
    S(
        "3",
        "OBJECTIVES AND ENDPOINTS",
        P("""The objectives of the study and the endpoints that measure them
        are given in Table 1."""),
        Grid(
            "Table 1: Objectives and Endpoints",
            ["Objectives", "Endpoints"],
            [214, 254],
            [
                ["Primary"],
                [
                    "To evaluate the dose-response relationship of EXP-5206 on "
                    "urticaria activity after 12 weeks of treatment",
                    "Change from baseline to Week 12 in the weekly urticaria activity score",
                ],
                ["Secondary"],
                [
                    "To compare each dose of EXP-5206 with placebo on itch and hive control",
                    f"{DOT} Proportion of participants with a weekly urticaria "
                    "activity score of 6 or lower at Week 12\n"
                    f"{DOT} Change from baseline to Week 12 in the weekly "
                    "itch severity score",
                ],
                [
                    "To characterize the safety and tolerability of EXP-5206 over 24 weeks",
                    "Incidence of treatment-emergent adverse events through Week 24",
                ],
                ["Exploratory"],
                [
                    "To explore the effect of EXP-5206 on episodes of angioedema",
                    "Number of days with angioedema recorded in the diary through Week 12",
                ],
            ],
            objectives=True,
        ),
    ),
    S(
        "4",
        "STUDY DESIGN",
        P("""After a screening period of up to four weeks, every participant
        receives placebo in a single-blind run-in of two weeks. Those who
        still qualify are then randomized in equal numbers to the three
        doses of EXP-5206 or to placebo, with stratification by body
        weight."""),
        P("""Participants record hives and itch twice a day in an electronic
        diary from screening until the end of follow-up. Rescue
        antihistamines are allowed at the approved dose and are recorded in
        the same diary."""),
    ),
    S(
        "5",
        "STUDY POPULATION",
        P("""The criteria below are checked at the screening visit and again
        on the day of randomization, before the first dose."""),
    ),
    S(
        "5.1",
        "Inclusion Criteria",
        P("""Participants are eligible to be included in the study only if
        all of the following criteria apply:"""),
        Lead("Medical Conditions"),
        criteria(
            "inclusion",
            E(
                "1.",
                """Participant is 18 to 70 years of age inclusive at the
            time of signing the informed consent form.""",
            ),
            E(
                "2.",
                """Participant has had chronic spontaneous urticaria for
            at least six months before screening, with itchy hives on at
            least four days of each week despite antihistamines.""",
            ),
            E(
                "3.",
                """Participant meets one of the following conditions on
            the day of randomization:""",
                (
                    "a.",
                    """a weekly urticaria activity score of sixteen or higher
              over the seven days before Day 1, or""",
                ),
                (
                    "b.",
                    """a weekly itch severity score of eight or higher over
              the same seven days.""",
                ),
                note="""Note: The weekly scores are computed from the electronic
              diary entries of the run-in period; a day without an entry
              is not replaced by an estimate.""",
            ),
            E(
                "4.",
                """Participant has stopped every prohibited medication
            for at least the washout period listed below before Day 1:""",
                table=WASHOUT_008,
            ),
        ),
        Lead("Informed Consent"),
        criteria(
            "inclusion",
            E(
                "5.",
                """Participant is capable of giving signed informed
            consent, which includes agreeing to the requirements and
            restrictions listed in the informed consent form and in this
            protocol, and agrees to remain reachable by telephone for the
            whole follow-up period.""",
                split=True,
            ),
            E(
                "6.",
                """Participant agrees to record urticaria symptoms twice
            daily in the electronic diary for the full duration of the
            study, including the follow-up period after the last dose of
            study intervention.""",
            ),
        ),
    ),
    S(
        "5.2",
        "Exclusion Criteria",
        P("""Participants are excluded from the study if any of the following
        criteria apply:"""),
        criteria(
            "exclusion",
            E(
                "[1]",
                """Participant has a history of anaphylaxis to any
            biologic therapy or to any component of the study
            intervention.""",
            ),
            E(
                "[2]",
                """Participant has a diagnosis of urticarial vasculitis,
            hereditary angioedema, or another skin disease with chronic itch
            that could confound the assessments.""",
            ),
            E(
                "[3]",
                """Participant has received an anti-IgE monoclonal
            antibody within sixteen weeks before Day 1.""",
            ),
            E(
                "[4]",
                """Participant has an active infection requiring systemic
            antibiotics, antivirals, or antifungals within two weeks before
            screening.""",
            ),
            E(
                "[5]",
                """Participant is pregnant or breastfeeding, or intends
            to become pregnant during the study or within five months after
            the last dose.""",
            ),
        ),
    ),
    S(
        "5.3",
        "Criteria for Entry into the Run-in Period",
        P("""Participants are eligible to enter the two-week single-blind
        placebo run-in period only if all of the following criteria
        apply:"""),
        criteria(
            "inclusion",
            E(
                "INC #1",
                """Participant has completed all screening assessments
            and meets every inclusion criterion and no exclusion
            criterion.""",
            ),
            E(
                "INC #2",
                """Participant has completed at least ten of the
            fourteen diary entries expected during the last week of
            screening.""",
            ),
            applies_to="run-in",
        ),
    ),
    S(
        "6",
        "STUDY INTERVENTION",
        P("""EXP-5206 and placebo are supplied in identical prefilled pens
        that the site staff inject under the skin of the abdomen or
        thigh."""),
    ),
    S(
        "7",
        "LIST OF ABBREVIATIONS",
        P("""The abbreviations used in this protocol are listed in
        Table 2."""),
        Table(
            "Table 2: Abbreviations",
            ["Abbreviation", "Definition"],
            [120, 348],
            [
                ["AE", "adverse event"],
                ["CSU", "chronic spontaneous urticaria"],
                ["EudraCT", "European Union Drug Regulating Authorities Clinical Trials Database"],
                ["IND", "Investigational New Drug application"],
                ["NCT", "National Clinical Trial number"],
                ["Q4W", "every 4 weeks"],
                ["UAS7", "weekly urticaria activity score"],
            ],
        ),
    ),
]

PROTOCOL_008 = Protocol(
    outline=OUTLINE_008,
    title="A Phase 2b, Randomized, Double-Blind, Placebo-Controlled, "
    "Dose-Ranging Study of EXP-5206 in Adults with Chronic Spontaneous "
    "Urticaria",
    number="CP-008",
    sponsor="Example Pharma Inc.",
    cover=[
        ("Protocol Number:", "CP-008"),
        ("NCT Number:", "NCT07412958"),
        ("EudraCT Number:", "2025-004817-31"),
        ("IND Number:", "163502"),
        ("Phase:", "Phase 2b"),
        ("Sponsor:", "Example Pharma Inc."),
        ("Date:", "3 March 2026"),
    ],
    running_header=("CP-008 Clinical Study Protocol", "Version 1.0"),
    styles=STUDY_STYLES,
    chapter_breaks=False,
    cover_grid=True,
    study=Study(
        identifiers=(("sponsor", "CP-008"), ("nct", "NCT07412958"), ("eudract", "2025-004817-31"), ("ind", "163502")),
        phase=("2", "Phase 2b"),
    ),
)

# protocol_009: a short title and an acronym on the title page, an EU CT
# number, Phase 1/2; criteria numbered "I 01" and "E 01"; objectives as
# sub-sections "Primary Objective" / "Secondary Objectives" with bulleted
# objectives, their endpoints in the statistics chapter's "Study Endpoints"
# (joined by level and order).
OUTLINE_009: list[Section] = [
    S(
        "1",
        "INTRODUCTION",
        P("""Ulcerative colitis is a chronic inflammation of the large bowel
        that flares and settles over many years. EXP-7731 is an oral
        inhibitor of an enzyme that drives the recruitment of white blood
        cells into the gut wall."""),
        P("""This first study in patients looks for the highest tolerated
        weekly dose and gathers early signs of efficacy before a larger
        trial."""),
    ),
    S(
        "2",
        "STUDY OBJECTIVES",
        P("""The objectives are listed below by their importance to the
        study."""),
    ),
    S(
        "2.1",
        "Primary Objective",
        bullets(
            "objectives",
            "primary",
            "Primary",
            """To determine the highest tolerated weekly dose of EXP-7731
              in adults with ulcerative colitis""",
        ),
    ),
    S(
        "2.2",
        "Secondary Objectives",
        bullets(
            "objectives",
            "secondary",
            "Secondary",
            """To describe the pharmacokinetics of EXP-7731 after single
              and repeated doses""",
            """To assess clinical remission after ten weeks of treatment
              with EXP-7731""",
        ),
    ),
    S(
        "3",
        "STUDY DESIGN",
        P("""Groups of six participants receive rising weekly doses of
        EXP-7731; a review committee decides on the next dose after every
        group has completed four weeks of treatment."""),
    ),
    S(
        "4",
        "STUDY POPULATION",
        P("""Participants are adults with ulcerative colitis confirmed by
        endoscopy and biopsy."""),
    ),
    S(
        "4.1",
        "Inclusion Criteria",
        P("""A participant may take part only if all of the following
        apply:"""),
        criteria(
            "inclusion",
            E(
                "I 01",
                """Participant is 18 to 75 years old at the screening
            visit.""",
            ),
            E(
                "I 02",
                """Participant has moderately to severely active
            ulcerative colitis with a modified Mayo score of five to nine at
            screening.""",
            ),
            E(
                "I 03",
                """Participant has failed or not tolerated at least one
            conventional or advanced therapy for ulcerative colitis.""",
            ),
            E(
                "I 04",
                """Participant agrees to use a highly effective method
            of contraception from screening until eight weeks after the last
            dose.""",
            ),
        ),
    ),
    S(
        "4.2",
        "Exclusion Criteria",
        P("""A participant may not take part if any of the following
        apply:"""),
        criteria(
            "exclusion",
            E(
                "E 01",
                """Participant has Crohn's disease, indeterminate colitis
            or colitis limited to the rectum.""",
            ),
            E(
                "E 02",
                """Participant has had bowel surgery other than an
            appendectomy.""",
            ),
            E(
                "E 03",
                """Participant has a stool test positive for a bacterial
            pathogen or for toxigenic bacteria at screening.""",
            ),
        ),
    ),
    S(
        "5",
        "STUDY INTERVENTION",
        P("""EXP-7731 is supplied as tablets of 25 mg and 100 mg taken once a
        week with water on an empty stomach."""),
    ),
    S(
        "6",
        "STATISTICAL CONSIDERATIONS",
        P("""All analyses are descriptive; no formal hypothesis is
        tested."""),
    ),
    S("6.1", "Study Endpoints", P("""All measures below are summarized by dose group.""")),
    S(
        "6.1.1",
        "Primary Endpoint",
        bullets(
            "endpoints",
            "primary",
            "Primary",
            """Number of participants with a dose-limiting toxicity during
              the first four weeks of treatment""",
        ),
    ),
    S(
        "6.1.2",
        "Secondary Endpoints",
        bullets(
            "endpoints",
            "secondary",
            "Secondary",
            """Maximum serum concentration and area under the
              concentration-time curve after the first and fourth doses""",
            """Proportion of participants in clinical remission at Week
              10, as defined by the modified Mayo score""",
        ),
    ),
    S(
        "6.2",
        "Sample Size",
        P("""Up to thirty participants are enough to describe the safety of
        five dose levels."""),
    ),
]

PROTOCOL_009 = Protocol(
    outline=OUTLINE_009,
    title="A Phase 1/2, Open-Label, Dose-Escalation Study of Oral EXP-7731 "
    "in Adults with Moderately to Severely Active Ulcerative Colitis",
    number="CP-009",
    sponsor="Example Biotherapeutics Ltd",
    cover=[
        ("Protocol Number:", "CP-009"),
        ("Short Title:", "Dose Escalation of EXP-7731 in Colitis"),
        ("Acronym:", "KESTREL-2"),
        ("EU CT Number:", "2025-521234-18-00"),
        ("NCT Number:", "NCT07398821"),
        ("Phase:", "Phase 1/2"),
        ("Sponsor:", "Example Biotherapeutics Ltd"),
        ("Date:", "14 April 2026"),
    ],
    running_header=("CP-009 Clinical Study Protocol", "Version 1.0"),
    styles=STUDY_STYLES,
    chapter_breaks=False,
    study=Study(
        identifiers=(("sponsor", "CP-009"), ("eu_ct", "2025-521234-18-00"), ("nct", "NCT07398821")),
        phase=("1/2", "Phase 1/2"),
        short="Dose Escalation of EXP-7731 in Colitis",
        acronym="KESTREL-2",
    ),
)

# protocol_010: inclusion criteria printed as numbered sub-sections
# (5.1.1 ...), exclusion criteria lettered "a." (one with roman sub-items),
# bulleted randomization criteria; objectives and endpoints under bold lead
# lines, the endpoints in a sub-section of their own.
OUTLINE_010: list[Section] = [
    S(
        "1",
        "INTRODUCTION",
        P("""Moderate plaque psoriasis in adolescents is often treated with
        creams alone, which many find hard to use every day. EXP-3318 is a
        once-daily tablet that calms the inflammation in the skin."""),
    ),
    S(
        "2",
        "OBJECTIVES AND ENDPOINTS",
        P("""The study has one primary and one secondary objective."""),
        Lead("Primary Objective"),
        bullets(
            "objectives",
            "primary",
            "Primary",
            """To show that EXP-3318 clears psoriasis plaques better than
              placebo after 16 weeks""",
        ),
        Lead("Secondary Objective"),
        bullets(
            "objectives",
            "secondary",
            "Secondary",
            """To compare the effect of EXP-3318 and placebo on the itch
              caused by psoriasis""",
        ),
    ),
    S(
        "2.1",
        "Endpoints",
        Lead("Primary Endpoint"),
        bullets(
            "endpoints",
            "primary",
            "Primary",
            """Proportion of participants with clear or almost clear skin
              on the physician global assessment at Week 16""",
        ),
        Lead("Secondary Endpoint"),
        bullets(
            "endpoints",
            "secondary",
            "Secondary",
            """Change from baseline to Week 16 in the weekly mean itch
              score of the participant diary""",
        ),
    ),
    S(
        "3",
        "STUDY POPULATION",
        P("""Adolescents with plaque psoriasis are recruited at dermatology
        clinics in several countries."""),
    ),
    S(
        "3.1",
        "Inclusion Criteria",
        P("""A participant is eligible for the study only if each of the
        three criteria below is met."""),
    ),
    S(
        "3.1.1",
        "Age",
        P("""Participants must be twelve to seventeen years old when the
        parent or guardian signs the consent form."""),
        criterion=("inclusion", None),
    ),
    S(
        "3.1.2",
        "Confirmed Plaque Psoriasis",
        P("""Participants must have had plaque psoriasis for at least six
        months, covering at least three percent of the body surface at
        screening."""),
        criterion=("inclusion", None),
    ),
    S(
        "3.1.3",
        "Consent and Assent",
        P("""A parent or guardian signs the consent form and the participant
        signs an assent form suited to their age."""),
        criterion=("inclusion", None),
    ),
    S(
        "3.2",
        "Exclusion Criteria",
        P("""Participants are excluded from the study if any of the following
        criteria apply:"""),
        criteria(
            "exclusion",
            E(
                "a.",
                """Participant has pustular, erythrodermic or drug-induced
            psoriasis.""",
            ),
            E(
                "b.",
                """Participant has used either of the following treatments
            in the four weeks before Day 1:""",
                ("i.", "phototherapy of any kind;"),
                ("ii.", "a systemic treatment for psoriasis."),
            ),
            E(
                "c.",
                """Participant has a liver enzyme level above twice the
            upper limit of normal at screening.""",
            ),
            E(
                "d.",
                """Participant has a history of suicidal behaviour or
            current suicidal thoughts.""",
            ),
        ),
    ),
    S(
        "3.3",
        "Randomization Criteria",
        P("""Participants are eligible for randomization only if both of the
        following apply at the Day 1 visit:"""),
        criteria(
            "inclusion",
            E(
                DOT,
                """The washout of all topical psoriasis treatments has
            been completed.""",
            ),
            E(
                DOT,
                """The screening laboratory results have been reviewed
            and show no exclusionary value.""",
            ),
            applies_to="randomization",
        ),
    ),
    S(
        "4",
        "STUDY INTERVENTION",
        P("""EXP-3318 and matching placebo tablets are taken once daily with
        breakfast for sixteen weeks."""),
    ),
]

PROTOCOL_010 = Protocol(
    outline=OUTLINE_010,
    title="A Phase 3, Randomized, Placebo-Controlled Study of Oral EXP-3318 "
    "in Adolescents with Moderate Plaque Psoriasis",
    number="CP-010",
    sponsor="Example Pharma Inc.",
    cover=[
        ("Protocol Number:", "CP-010"),
        ("EudraCT Number:", "2024-001932-27"),
        ("Phase:", "Phase 3"),
        ("Sponsor:", "Example Pharma Inc."),
        ("Date:", "2 June 2026"),
    ],
    running_header=("CP-010 Clinical Study Protocol", "Version 1.0"),
    styles=STUDY_STYLES,
    chapter_breaks=False,
    cover_grid=True,
    study=Study(identifiers=(("sponsor", "CP-010"), ("eudract", "2024-001932-27")), phase=("3", "Phase 3")),
)

PROTOCOLS: dict[str, Protocol] = {
    "protocol_001": PROTOCOL_001,
    "protocol_002": PROTOCOL_002,
    "protocol_003": PROTOCOL_003,
    "protocol_004": PROTOCOL_004,
    "protocol_005": PROTOCOL_005,
    "protocol_006": PROTOCOL_006,
    "protocol_007": PROTOCOL_007,
    "protocol_008": PROTOCOL_008,
    "protocol_009": PROTOCOL_009,
    "protocol_010": PROTOCOL_010,
    "protocol_011": PROTOCOL_011,
    "protocol_012": PROTOCOL_012,
}


# --------------------------------------------------------------------------
# Section bookkeeping shared by the checks, the layout and the truth file
# --------------------------------------------------------------------------
def section_text(sec: Section) -> list[str]:
    """All prose strings owned by a section (not its subsections)."""
    out: list[str] = []
    for b in sec.blocks:
        if isinstance(b, Para):
            out.append(b.text)
        elif isinstance(b, NumberedList):
            out.extend(b.labelled())
        elif isinstance(b, Table):
            out.extend(cell for row in b.rows for cell in row)
        elif isinstance(b, Questionnaire):
            out.extend(b.labelled())
            out.extend(options for _, options in b.items)
        elif isinstance(b, Signature):
            out.extend(b.labels)
        elif isinstance(b, (Schedule, SoaGrid)):
            out.extend(row.label for row in b.rows)
            out.extend(b.footnotes.values())
        elif isinstance(b, Listing):
            for e in b.entries:
                out.append(e.text)
                out.extend(text for _, text in e.subs)
                out.extend([e.note] if e.note else [])
                if e.table:
                    out.extend(c for row in e.table.rows for c in row)
        elif isinstance(b, Lead):
            out.append(b.text)
        elif isinstance(b, Grid):
            out.extend(c for row in b.rows for c in row)
    return out


def paragraphs_of(sec: Section) -> list[str]:
    """Body lines that are not list items: paragraphs, questionnaire answer
    options and signature captions, in reading order."""
    out: list[str] = []
    for b in sec.blocks:
        if isinstance(b, Para):
            out.append(b.text)
        elif isinstance(b, Questionnaire):
            out.extend(options for _, options in b.items)
        elif isinstance(b, Signature):
            out.extend(b.labels)
        elif isinstance(b, Lead):
            out.append(b.text)
        elif isinstance(b, Listing):
            out.extend(e.note for e in b.entries if e.note)
    return out


def list_items_of(sec: Section) -> list[str]:
    out = []
    for b in sec.blocks:
        if isinstance(b, (NumberedList, Questionnaire)):
            out.extend(b.labelled())
        elif isinstance(b, Listing):  # each entry, then its sub-items
            for e in b.entries:
                out.append(f"{e.label} {e.text}")
                out.extend(f"{m} {t}" for m, t in e.subs)
    return out


def references_of(sec: Section, pattern: re.Pattern) -> list[str]:
    refs: list[str] = []
    for text in section_text(sec):
        for ref in pattern.findall(text):
            if ref not in refs:
                refs.append(ref)
    return refs


def parent_indices(outline: list[Section]) -> list[int | None]:
    """Index of each section's parent: the latest section one level up."""
    parents: list[int | None] = []
    open_: list[int] = []  # open_[d] = index of the open section at depth d+1
    for i, sec in enumerate(outline):
        assert 1 <= sec.level <= len(open_) + 1, f"{sec.number} skips a level"
        del open_[sec.level - 1 :]
        parents.append(open_[-1] if open_ else None)
        open_.append(i)
    return parents


def outline_paths(outline: list[Section]) -> list[tuple[str, ...]]:
    """Each section's number with its ancestors' numbers, root first."""
    paths: list[tuple[str, ...]] = []
    for sec, parent in zip(outline, parent_indices(outline)):
        paths.append((paths[parent] if parent is not None else ()) + (sec.number,))
    return paths


def reference_targets(outline: list[Section]) -> set[str]:
    """Names a cross-reference may use: a number without its trailing dot
    ("4.2" for "4.2.") or an outline path ("III.B" for "B." under "III.")."""
    targets = set()
    for path in outline_paths(outline):
        parts = [n.rstrip(".") for n in path]
        targets.update({parts[-1], ".".join(parts)})
    return targets


# A printed line that begins like this could be mistaken for a heading:
# "10.2 mg/kg", "II. The", "B. The", "Section 7.1." (a "Section 3" heading).
NUMBER_LED = re.compile(r"\d|[IVX]+\.\s|[A-Z]\.\s|(Section|Appendix) \w")


def unlabelled_lines(sec: Section) -> Iterator[str]:
    """Printed body lines that start without a list label: paragraph lines,
    list-item continuation lines and questionnaire answer lines."""
    for b in sec.blocks:
        if isinstance(b, Para):
            yield from para_lines(b)
        elif isinstance(b, NumberedList):
            for item in b.items:
                yield from item_lines(item)[1:]
        elif isinstance(b, Questionnaire):
            for _, options in b.items:
                yield from question_lines(options)
        elif isinstance(b, Listing):
            text_x = listing_text_x(b)
            for e in b.entries:
                yield from wrap(e.text, BODY_FONT, BODY_SIZE, RIGHT - text_x)[1:]
                for m, t in e.subs:
                    yield from sub_lines(text_x, m, t)[1:]
                if e.note:
                    yield from wrap(e.note, BODY_FONT, BODY_SIZE, RIGHT - text_x)
        elif isinstance(b, Lead):
            yield b.text


def check_line_starts(spec: Protocol) -> None:
    """Number-led body lines are exactly the planned ones: where a line
    breaks depends on the wording, so an edit can add or lose such a trap."""
    led = [line for sec in spec.outline for line in unlabelled_lines(sec) if NUMBER_LED.match(line)]
    for phrase in spec.line_starts:
        assert any(line.startswith(phrase) for line in led), (
            f"no printed line begins with {phrase!r}: reword the paragraph"
        )
    for line in led:
        assert any(line.startswith(p) for p in spec.line_starts), (
            f"unplanned number-led line {line!r}: reword the paragraph"
        )


def check_schedule(sch: Schedule) -> None:
    """What the schedule's truth relies on: one mark per visit, every marker
    printed has its footnote and every footnote is used, and no column's
    header repeats a cell (joining header rows drops repeats)."""
    assert sum(sch.parts) == len(sch.visits), sch.title
    used = set()
    for row in sch.rows:
        if isinstance(row, Activity):
            assert len(row.marks) == len(sch.visits), row.label
            assert set(row.marks) <= set(MARK_TEXT), row.label
            assert all(row.marks[k] != "." for k in row.notes), row.label
        for _, notes in sch.row_cells(row):
            used.update(n for n in notes.split(",") if n)
    assert used == set(sch.footnotes), sorted(used ^ set(sch.footnotes))
    for v in sch.visits:
        cells = [c for c in sch.header_cells(v) if c]
        assert len(set(cells)) == len(cells), cells


def check_outline(spec: Protocol) -> None:
    """Guard the properties the truth file promises (fail loudly if edited)."""
    outline = spec.outline
    paths = outline_paths(outline)
    assert len(set(paths)) == len(paths), "duplicate section numbers"
    targets = reference_targets(outline)
    seen: dict[str, str] = {}
    for sec in outline:
        assert sec.blocks, f"section {sec.number} has no body"
        assert sec.style or sec.level in spec.styles, sec.number
        assert sec.form in ("inline", "split", "tab", "image"), sec.number
        for ref in references_of(sec, spec.reference_re):
            assert ref in targets, f"{sec.number} refers to missing {ref}"
        for b in sec.blocks:
            if isinstance(b, Table):
                assert abs(sum(b.widths) - CONTENT_W) < 0.01, b.title
                assert all(len(r) == len(b.columns) for r in b.rows), b.title
            if isinstance(b, Schedule):
                check_schedule(b)
            grids = [b] if isinstance(b, Grid) else [e.table for e in getattr(b, "entries", []) if e.table]
            for g in grids:
                assert abs(g.x0 + sum(g.widths) - RIGHT) < 0.01, g.title
                assert all(len(r) in (1, len(g.columns)) for r in g.rows)
        # Sentences must be unique so tests can locate each in one section.
        for text in section_text(sec):
            if len(text.split()) < 4:  # table cells like "X", "ECG"
                continue
            for sentence in re.split(r"(?<=[.:])\s+(?=[A-Z])", text):
                key = sentence.strip().lower()
                if len(key.split()) < 3:  # the "1." label of a list item
                    continue
                assert key not in seen, f"sentence repeated: {sentence!r}"
                seen[key] = sec.number
    check_line_starts(spec)


# --------------------------------------------------------------------------
# Text measuring
# --------------------------------------------------------------------------
# The Base-14 fonts are WinAnsi-encoded, but PyMuPDF only maps Latin-1: the
# en dash, em dash and bullet are written as their WinAnsi codes and measured
# with their AFM widths (the same in every Helvetica face).
EN_DASH, EM_DASH, BULLET = "\u2013", "\u2014", "\u2022"
WINANSI = {EN_DASH: ("\x96", 0.556), EM_DASH: ("\x97", 1.0), BULLET: ("\x95", 0.35)}  # character: (code, width in em)


def text_width(text: str, font: str, size: float) -> float:
    plain = "".join(c for c in text if c not in WINANSI)
    extra = sum(text.count(c) * em * size for c, (_, em) in WINANSI.items())
    return pymupdf.get_text_length(plain, fontname=font, fontsize=size) + extra


def winansi(text: str) -> str:
    """`text` with the WinAnsi characters replaced by their codes."""
    for char, (code, _) in WINANSI.items():
        text = text.replace(char, code)
    return text


def _wrap_tokens(text: str) -> list[str]:
    """Split at spaces, but keep "Section 5.2" together: a wrapped line that
    began with a bare "5.2" would look like a section heading."""
    tokens: list[str] = []
    for word in text.split(" "):
        if tokens and tokens[-1] == "Section":
            tokens[-1] += " " + word
        else:
            tokens.append(word)
    return tokens


def wrap(text: str, font: str, size: float, width: float) -> list[str]:
    """Greedy word wrap; only breaks at spaces so joining with ' ' restores
    the original text exactly."""
    lines: list[str] = []
    current = ""
    for word in _wrap_tokens(text):
        candidate = f"{current} {word}" if current else word
        if current and text_width(candidate, font, size) > width:
            lines.append(current)
            current = word
        else:
            current = candidate
    if current:
        lines.append(current)
    # A single word wider than the box would spill out of its cell or box.
    for line in lines:
        assert text_width(line, font, size) <= width + 0.01, line
    return lines


def baseline(top: float, size: float, leading: float) -> float:
    """Baseline that vertically centres a line of `size` in a `leading` box."""
    return top + (leading - size) / 2 + 0.8 * size


# --------------------------------------------------------------------------
# Layout: pages are lists of drawing ops, rendered later in one go
# --------------------------------------------------------------------------
# Ops are plain tuples so a page's content can be inspected before rendering:
#   ("text", x, y_baseline, text, font, size, color)
#   ("line", x0, y0, x1, y1, width, color)
#   ("rect", x0, y0, x1, y1, stroke_color, fill_color, width)
#   ("poly", [(x, y), ...], fill_color)
#   ("image", (x0, y0, x1, y1), name)
Op = tuple


class Flow:
    """A cursor that flows blocks down the body area of successive pages."""

    def __init__(self, first_page: int):
        self.first_page = first_page  # physical number of the first page
        self.pages: list[list[Op]] = [[]]
        self.y = BODY_TOP
        self.after_heading = False

    @property
    def page_no(self) -> int:
        return self.first_page + len(self.pages) - 1

    @property
    def ops(self) -> list[Op]:
        return self.pages[-1]

    def new_page(self) -> None:
        self.pages.append([])
        self.y = BODY_TOP

    def start_block(self, gap: float, need: float) -> None:
        """Add the gap above a block (not at a page top and not directly
        below its heading) and break the page if `need` points do not fit."""
        if self.y > BODY_TOP and not self.after_heading:
            self.y += gap
        self.after_heading = False
        if self.y + need > BODY_BOTTOM:
            self.new_page()

    def text(self, x: float, top: float, text: str, font: str, size: float, leading: float, color=TEXT_COLOR) -> None:
        self.ops.append(("text", x, baseline(top, size, leading), text, font, size, color))

    def lines(self, x: float, lines: list[str], font=BODY_FONT, size=BODY_SIZE, leading=BODY_LEADING) -> None:
        """Place wrapped lines, continuing on the next page when full."""
        for line in lines:
            if self.y + leading > BODY_BOTTOM:
                self.new_page()
            self.text(x, self.y, line, font, size, leading)
            self.y += leading

    def centered(self, text: str, font: str, size: float, leading: float):
        x = LEFT + (CONTENT_W - text_width(text, font, size)) / 2
        self.text(x, self.y, text, font, size, leading)
        self.y += leading


@dataclass
class Placed:
    """What the layout learned about one section (feeds the truth file)."""

    page: int = 0
    tables: list[dict] = field(default_factory=list)
    images: list[dict] = field(default_factory=list)
    last_page: int = 0  # the page its last block ends on
    # Pages of study items placed in the section, by id() of the Entry or
    # of the Grid row (id(grid), row index).
    item_pages: dict = field(default_factory=dict)


def para_lines(p: Para) -> list[str]:
    return wrap(p.text, BODY_FONT, BODY_SIZE, CONTENT_W)


def item_lines(item: str) -> list[str]:
    return wrap(item, BODY_FONT, BODY_SIZE, CONTENT_W - LIST_TEXT_INDENT)


def cell_lines(table: Table, text: str, col: int, header: bool) -> list[str]:
    font = BOLD_FONT if header else BODY_FONT
    return wrap(text, font, table.font_size, table.widths[col] - 2 * CELL_PAD)


def cell_leading(table: Table) -> float:
    return table.font_size * 1.25


def row_height(table: Table, row: list[str], header: bool) -> float:
    n = max(len(cell_lines(table, c, i, header)) for i, c in enumerate(row))
    return n * cell_leading(table) + 2 * CELL_PAD


Run = tuple[float, str]  # (x, text) of one piece of a printed line


def heading_lines(sec: Section, st: HeadingStyle) -> list[list[Run]]:
    """The printed lines of a heading, each a list of runs."""
    if sec.form == "split":
        lines = [[(LEFT, sec.number)], [(LEFT, sec.title)]]
    elif sec.form == "tab":
        assert LEFT + text_width(sec.number, st.font, st.size) + 6 <= TAB_STOP
        lines = [[(LEFT, sec.number), (TAB_STOP, sec.title)]]
    elif sec.form == "image":  # the number's picture, then the title as text
        lines = [[(LEFT, sec.number), (LEFT + text_width(sec.number + "  ", st.font, st.size), sec.title)]]
    elif text_width(sec.heading, st.font, st.size) <= CONTENT_W:
        lines = [[(LEFT, sec.heading)]]
    else:  # a long title wraps, continuation lines hang under the title
        prefix = sec.number + sec.sep
        hang = LEFT + text_width(prefix, st.font, st.size)
        parts = wrap(sec.title, st.font, st.size, RIGHT - hang)
        lines = [[(LEFT, prefix + parts[0])]] + [[(hang, part)] for part in parts[1:]]
    for line in lines:
        x, text = line[-1]
        assert x + text_width(text, st.font, st.size) <= RIGHT + 0.01, text
    return lines


def question_lines(options: str) -> list[str]:
    return wrap(options, BODY_FONT, BODY_SIZE, CONTENT_W - OPTIONS_INDENT)


def question_height(options: str) -> float:
    return QUESTION_LEADING + len(question_lines(options)) * BODY_LEADING


def signature_rows(sig: Signature) -> list[list[str]]:
    return [sig.labels[k : k + 2] for k in range(0, len(sig.labels), 2)]


def lead_height(items: list, i: int) -> float:
    """Height that must fit on the current page for block i to start there.

    Headings chain to the following block, which keeps every heading
    together with at least two lines of its body (no stranded headings)."""
    blk = items[i][1]
    if isinstance(blk, Heading):
        st = blk.style
        rest = lead_height(items, i + 1) if i + 1 < len(items) else 0
        n_lines = len(heading_lines(blk.section, st))
        return n_lines * st.leading + st.gap_after + rest
    if isinstance(blk, Questionnaire):
        return question_height(blk.items[0][1])
    if isinstance(blk, Signature):
        return len(signature_rows(blk)) * SIGNATURE_ROW  # kept whole
    if isinstance(blk, Para):
        return min(2, len(para_lines(blk))) * BODY_LEADING
    if isinstance(blk, NumberedList):
        return min(2, len(item_lines(blk.items[0]))) * BODY_LEADING
    if isinstance(blk, Table):
        return CAPTION_LEADING + 4 + row_height(blk, blk.columns, True) + row_height(blk, blk.rows[0], False)
    if isinstance(blk, Figure):
        return blk.height + 6 + CAPTION_LEADING
    if isinstance(blk, Schedule):
        return schedule_part_height(blk, 0)  # each part is kept whole
    if isinstance(blk, SoaGrid):
        return soagrid_part_height(blk, 0)  # each part is kept whole
    if isinstance(blk, Listing):
        first = blk.entries[0]
        n = len(wrap(first.text, BODY_FONT, BODY_SIZE, RIGHT - listing_text_x(blk)))
        return min(2, n) * BODY_LEADING
    if isinstance(blk, Lead):  # kept with the first lines after it
        rest = lead_height(items, i + 1) if i + 1 < len(items) else 0
        return BODY_LEADING + PARA_GAP + rest
    if isinstance(blk, Grid):
        return (
            (CAPTION_LEADING + 4 if blk.title else 0)
            + grid_row_height(blk, blk.columns, True)
            + grid_row_height(blk, blk.rows[0], False)
        )
    raise TypeError(blk)


def place_heading(flow: Flow, head: Heading, need: float) -> None:
    st = head.style
    if head.new_page and flow.ops:  # a chapter or appendix opens a fresh page
        flow.new_page()
    flow.start_block(st.gap_before, need)
    for line in heading_lines(head.section, st):
        for k, (x, text) in enumerate(line):
            if head.section.form == "image" and k == 0:
                w = text_width(text, st.font, st.size)
                top = baseline(flow.y, st.size, st.leading) - st.size
                flow.ops.append(
                    ("image", (x, top, x + w, top + st.size * 1.25), number_image_key(text, st.font, st.size))
                )
                continue
            flow.text(x, flow.y, text, st.font, st.size, st.leading)
        flow.y += st.leading
    flow.y += st.gap_after
    flow.after_heading = True


def place_para(flow: Flow, p: Para, need: float) -> None:
    flow.start_block(PARA_GAP, need)
    flow.lines(LEFT, para_lines(p))


def place_list(flow: Flow, lst: NumberedList) -> None:
    for n, item in enumerate(lst.items, 1):
        lines = item_lines(item)
        flow.start_block(LIST_GAP if n > 1 else PARA_GAP, min(2, len(lines)) * BODY_LEADING)
        # The label is part of the first line's string (so text extraction
        # yields "1. Participant ..."), shifted left so that the item text
        # still hangs at LIST_TEXT_INDENT like the continuation lines.
        label = f"{n}. "
        text_x = LEFT + LIST_TEXT_INDENT
        label_x = text_x - text_width(label, BODY_FONT, BODY_SIZE)
        assert label_x >= LEFT, label
        flow.text(label_x, flow.y, label + lines[0], BODY_FONT, BODY_SIZE, BODY_LEADING)
        flow.y += BODY_LEADING
        flow.lines(text_x, lines[1:])


def place_questionnaire(flow: Flow, q: Questionnaire) -> None:
    """Bold "1. Mobility" lines (heading-like, but items), each kept
    together with its indented line of answer options."""
    for n, (question, options) in enumerate(q.items, 1):
        flow.start_block(QUESTION_GAP, question_height(options))
        flow.text(LEFT, flow.y, f"{n}. {question}", QUESTION_FONT, QUESTION_SIZE, QUESTION_LEADING)
        flow.y += QUESTION_LEADING
        flow.lines(LEFT + OPTIONS_INDENT, question_lines(options))


def place_signature(flow: Flow, sig: Signature, need: float) -> None:
    flow.start_block(2 * PARA_GAP, need)
    col_w = (CONTENT_W - SIGNATURE_COL_GAP) / 2
    for row in signature_rows(sig):
        rule_y = flow.y + SIGNATURE_RULE_AT
        for k, label in enumerate(row):
            x = LEFT + k * (col_w + SIGNATURE_COL_GAP)
            flow.ops.append(("line", x, rule_y, x + col_w, rule_y, 0.6, TEXT_COLOR))
            flow.text(x, rule_y + 2, label, BODY_FONT, 9, 12)
        flow.y += SIGNATURE_ROW


def table_caption(flow: Flow, title: str) -> None:
    flow.centered(title, CAPTION_FONT, CAPTION_SIZE, CAPTION_LEADING)
    flow.y += 4


def draw_row(flow: Flow, table: Table, row: list[str], header: bool) -> None:
    h = row_height(table, row, header)
    if header:
        flow.ops.append(("rect", LEFT, flow.y, RIGHT, flow.y + h, None, HEADER_FILL, 0))
    x = LEFT
    lead = cell_leading(table)
    font = BOLD_FONT if header else BODY_FONT
    for col, text in enumerate(row):
        top = flow.y + CELL_PAD
        for line in cell_lines(table, text, col, header):
            tx = x + CELL_PAD
            if table.center_values and col > 0:
                w = text_width(line, font, table.font_size)
                tx = x + (table.widths[col] - w) / 2
            flow.text(tx, top, line, font, table.font_size, lead)
            top += lead
        x += table.widths[col]
    flow.y += h


def draw_grid(flow: Flow, table: Table, row_edges: list[float]) -> None:
    """Rule every cell: one horizontal line per row edge, one vertical per
    column edge, spanning the part of the table on this page."""
    for y in row_edges:
        flow.ops.append(("line", LEFT, y, RIGHT, y, 0.6, TEXT_COLOR))
    x = LEFT
    for w in [0] + table.widths:
        x += w
        flow.ops.append(("line", x, row_edges[0], x, row_edges[-1], 0.6, TEXT_COLOR))


def place_table(flow: Flow, table: Table, need: float, placed: Placed) -> None:
    flow.start_block(TABLE_GAP, need)
    pages = [flow.page_no]

    def start_chunk(title: str) -> list[float]:
        table_caption(flow, title)
        edges = [flow.y]
        draw_row(flow, table, table.columns, header=True)
        edges.append(flow.y)
        return edges

    edges = start_chunk(table.title)
    for row in table.rows:
        if flow.y + row_height(table, row, False) > BODY_BOTTOM:
            # Split: close the grid here and repeat caption + header row.
            draw_grid(flow, table, edges)
            flow.new_page()
            pages.append(flow.page_no)
            edges = start_chunk(f"{table.title} (continued)")
        draw_row(flow, table, row, header=False)
        edges.append(flow.y)
    draw_grid(flow, table, edges)
    assert len(pages) == table.expect_pages, (table.title, pages)
    placed.tables.append(
        {
            "title": table.title,
            "pages": pages,
            "columns": list(table.columns),
            "data": [list(r) for r in table.rows],
        }
    )


SUP_SCALE, SUP_RISE = 0.65, 0.33  # superscript size and rise, in font sizes
FOOTNOTE_INDENT = 10  # footnote text hangs right of its marker


def schedule_row_height(sch: Schedule) -> float:
    return sch.font_size * 1.25 + 2 * CELL_PAD  # every cell is one line


def footnote_lines(sch: Schedule, marker: str) -> list[str]:
    return wrap(sch.footnotes[marker], BODY_FONT, sch.font_size, CONTENT_W - FOOTNOTE_INDENT)


def schedule_part_height(sch: Schedule, part: int) -> float:
    rows = len(Schedule.HEADER_ROWS) + len(sch.rows)
    notes = sum(len(footnote_lines(sch, m)) for m in sch.markers(part))
    return CAPTION_LEADING + 4 + rows * schedule_row_height(sch) + 4 + notes * sch.font_size * 1.25


def draw_cell(
    flow: Flow,
    sch: Union[Schedule, SoaGrid],
    x: float,
    width: float,
    top: float,
    text: str,
    notes: str,
    font: str,
    center: bool,
) -> None:
    """One line of text, its footnote markers set smaller and raised right
    after it (as a word processor sets a superscript)."""
    size, lead = sch.font_size, sch.font_size * 1.25
    sup = size * SUP_SCALE
    text_w = text_width(text, font, size)
    notes_w = text_width(notes, BODY_FONT, sup) if notes else 0
    assert text_w + notes_w <= width - 2 * CELL_PAD + 0.01, text
    tx = x + (width - text_w - notes_w) / 2 if center else x + CELL_PAD
    y = baseline(top + CELL_PAD, size, lead)
    if text:
        flow.ops.append(("text", tx, y, text, font, size, TEXT_COLOR))
    if notes:
        flow.ops.append(("text", tx + text_w, y - size * SUP_RISE, notes, BODY_FONT, sup, TEXT_COLOR))


def epoch_runs(sch: Schedule, visits: range) -> list[tuple[str, list[int]]]:
    """The Study Period cells of a part: (label, its visits); a visit with no
    period has a blank cell of its own."""
    runs: list[tuple[str, list[int]]] = []
    for k in visits:
        epoch = sch.visits[k].epoch
        if runs and epoch and runs[-1][0] == epoch:
            runs[-1][1].append(k)
        else:
            runs.append((epoch or "", [k]))
    return runs


def place_schedule_part(flow: Flow, sch: Schedule, part: int) -> None:
    """Caption, ruled grid (header rows, then every body row) and the part's
    footnotes."""
    title = sch.title + (" (continued)" if part else "")
    table_caption(flow, title)
    visits = sch.part_visits(part)
    vw, lw = sch.visit_width(part), sch.label_width
    col_x = {k: LEFT + lw + i * vw for i, k in enumerate(visits)}
    row_h = schedule_row_height(sch)
    n_head = len(Schedule.HEADER_ROWS)
    top = flow.y
    flow.ops.append(("rect", LEFT, top, RIGHT, top + n_head * row_h, None, HEADER_FILL, 0))
    # Vertical rules per row: x -> the rows where a cell edge stands there.
    every_edge = [LEFT, LEFT + lw] + [col_x[k] + vw for k in visits]
    edges_by_row: list[list[float]] = []
    for r, name in enumerate(Schedule.HEADER_ROWS):
        y = top + r * row_h
        draw_cell(flow, sch, LEFT, lw, y, name, "", BOLD_FONT, False)
        if r == 0:  # the study period spans its visits
            runs = epoch_runs(sch, visits)
            for label, ks in runs:
                draw_cell(flow, sch, col_x[ks[0]], vw * len(ks), y, label, "", BOLD_FONT, True)
            edges_by_row.append([LEFT, LEFT + lw] + [col_x[ks[-1]] + vw for _, ks in runs])
            continue
        for k in visits:
            cell = sch.header_cells(sch.visits[k])[r]
            draw_cell(flow, sch, col_x[k], vw, y, cell, "", BOLD_FONT, True)
        edges_by_row.append(every_edge)
    for i, row in enumerate(sch.rows):
        y = top + (n_head + i) * row_h
        cells = sch.row_cells(row)
        if isinstance(row, Group):  # one bold cell across the whole row
            draw_cell(flow, sch, LEFT, CONTENT_W, y, *cells[0], BOLD_FONT, False)
            edges_by_row.append([LEFT, RIGHT])
            continue
        draw_cell(flow, sch, LEFT, lw, y, *cells[0], BODY_FONT, False)
        for k in visits:
            draw_cell(flow, sch, col_x[k], vw, y, *cells[1 + k], BODY_FONT, True)
        edges_by_row.append(every_edge)
    draw_rules(flow, top, row_h, edges_by_row, every_edge)
    print_footnotes(flow, sch.font_size, sch.markers(part), lambda m: footnote_lines(sch, m))


def draw_rules(flow: Flow, top: float, row_h: float, edges_by_row: list[list[float]], xs: list[float]) -> None:
    """A ruled grid: a line under every row, and at each x in `xs` one
    vertical line per run of rows with a cell edge there."""
    n_rows = len(edges_by_row)
    for r in range(n_rows + 1):
        y = top + r * row_h
        flow.ops.append(("line", LEFT, y, RIGHT, y, 0.6, TEXT_COLOR))
    for x in xs:  # one line per run of rows with an edge at x
        r = 0
        while r < n_rows:
            if x not in edges_by_row[r]:
                r += 1
                continue
            end = r
            while end + 1 < n_rows and x in edges_by_row[end + 1]:
                end += 1
            flow.ops.append(("line", x, top + r * row_h, x, top + (end + 1) * row_h, 0.6, TEXT_COLOR))
            r = end + 1
    flow.y = top + n_rows * row_h + 4


def print_footnotes(flow: Flow, size: float, markers: list[str], lines_of) -> None:
    """Each marker at the margin, its text hanging right of it."""
    lead = size * 1.25
    for marker in markers:
        flow.text(LEFT, flow.y, marker, BODY_FONT, size, lead)
        for line in lines_of(marker):
            flow.text(LEFT + FOOTNOTE_INDENT, flow.y, line, BODY_FONT, size, lead)
            flow.y += lead


def place_schedule(flow: Flow, sch: Schedule, need: float, placed: Placed) -> None:
    """Each part on a page of its own (the first may follow text)."""
    pages = []
    for part in range(len(sch.parts)):
        if part == 0:
            flow.start_block(TABLE_GAP, need)
        else:
            flow.new_page()
        assert flow.y + schedule_part_height(sch, part) <= BODY_BOTTOM, (sch.title, part)
        pages.append(flow.page_no)
        place_schedule_part(flow, sch, part)
    columns = [" / ".join(Schedule.HEADER_ROWS)]
    columns += [sch.column_label(v) for v in sch.visits]
    placed.tables.append(
        {
            "title": sch.title,
            "pages": pages,
            "columns": columns,
            "data": [[text + notes for text, notes in sch.row_cells(row)] for row in sch.rows],
            "schedule": schedule_truth(sch),
        }
    )


def schedule_truth(sch: Schedule) -> dict:
    """The `schedule` object a reader should make of `sch` (issue 17's
    shape, without its diagnostics); "main" is set when the whole document
    is known (build_truth)."""

    def split(notes: str) -> list[str]:
        return [n for n in notes.split(",") if n]

    encounters = []
    for k, v in enumerate(sch.visits):
        window = None
        if v.window is not None:
            window = {"text": v.window_text, "before": v.window[0], "after": v.window[1], "unit": "day"}
        timing = None
        if v.days is not None:
            timing = {"unit": "day", "from": v.days[0], "to": v.days[1], "cycle": None}
        # the lowest printed cell but the window, a bare number named by
        # its row ("Study Day"): "Day 8", else the visit as printed ("ET")
        short = f"Day {v.day_text}" if v.days is not None else v.visit
        encounters.append(
            {
                "label": sch.column_label(v),
                "short_label": short,
                "column": 1 + k,
                "epoch": v.epoch,
                "visit": v.visit,
                "timing": timing,
                "window": window,
                "timepoints": [],
                "main_encounter": None,
            }
        )
    activities, groups, marks = [], [], []
    group = None
    for r, row in enumerate(sch.rows):
        if isinstance(row, Group):
            group = row.label
            groups.append({"label": row.label, "row": r, "footnotes": split(row.label_notes)})
            continue
        for k, m in enumerate(row.marks):
            if m != ".":
                marks.append(
                    {
                        "activity": len(activities),
                        "encounter": k,
                        "text": MARK_TEXT[m],
                        "footnotes": split(row.notes.get(k, "")),
                        "timepoints": [],
                    }
                )
        activities.append({"label": row.label, "row": r, "group": group, "footnotes": split(row.label_notes)})
    epochs: list[dict] = []
    for k, v in enumerate(sch.visits):
        if v.epoch and epochs and epochs[-1]["label"] == v.epoch and epochs[-1]["encounters"][-1] == k - 1:
            epochs[-1]["encounters"].append(k)
        elif v.epoch:
            epochs.append({"label": v.epoch, "encounters": [k]})
    return {
        "name": sch.title,
        "main": None,
        "kind": "other",
        "label_column": 0,
        "epochs": epochs,
        "encounters": encounters,
        "activities": activities,
        "groups": groups,
        "marks": marks,
        "footnotes": [{"marker": m, "text": t} for m, t in sorted(sch.footnotes.items())],
        "notes": [],
    }


def soagrid_row_height(g: SoaGrid) -> float:
    return g.font_size * 1.25 + 2 * CELL_PAD  # every cell is one line


def soagrid_footnote_lines(g: SoaGrid, marker: str) -> list[str]:
    return wrap(g.footnotes[marker], BODY_FONT, g.font_size, CONTENT_W - FOOTNOTE_INDENT)


def soagrid_part_height(g: SoaGrid, part: int) -> float:
    """A part's caption, header, rows; the last also its notes rows and
    every footnote of the grid."""
    last = part == len(g.parts) - 1
    rows = len(g.header_rows) + len(g.parts[part])
    notes = 0
    if last:
        rows += len(g.notes_rows)
        notes = sum(len(soagrid_footnote_lines(g, m)) for m in g.footnotes)
    return CAPTION_LEADING + 4 + rows * soagrid_row_height(g) + 4 + notes * g.font_size * 1.25


def soagrid_runs(g: SoaGrid, r: int) -> list[tuple[str, list[int]]]:
    """The cells of header row r: (text, its visits); equal neighbours in a
    spanning row are one cell, a blank cell stands alone."""
    runs: list[tuple[str, list[int]]] = []
    for k, v in enumerate(g.visits):
        cell = v.cells[r]
        if r in g.spanning_rows and runs and cell and runs[-1][0] == cell and runs[-1][1][-1] == k - 1:
            runs[-1][1].append(k)
        else:
            runs.append((cell, [k]))
    return runs


def place_soagrid_part(flow: Flow, g: SoaGrid, part: int) -> None:
    title = g.title + (" (continued)" if part else "")
    table_caption(flow, title)
    vw, lw, cw = g.visit_width(), g.label_width, g.comment_width
    col_x = [LEFT + lw + k * vw for k in range(len(g.visits))]
    comment_x = LEFT + lw + len(g.visits) * vw
    row_h = soagrid_row_height(g)
    n_head = len(g.header_rows)
    top = flow.y
    flow.ops.append(("rect", LEFT, top, RIGHT, top + n_head * row_h, None, HEADER_FILL, 0))
    every_edge = [LEFT, LEFT + lw] + [x + vw for x in col_x] + ([RIGHT] if cw else [])
    edges_by_row: list[list[float]] = []
    for r, name in enumerate(g.header_rows):
        y = top + r * row_h
        draw_cell(flow, g, LEFT, lw, y, name, "", BOLD_FONT, False)
        runs = soagrid_runs(g, r)
        for text, ks in runs:
            draw_cell(flow, g, col_x[ks[0]], vw * len(ks), y, text, "", BOLD_FONT, True)
        if cw:
            text = "Comments" if r == n_head - 1 else ""
            draw_cell(flow, g, comment_x, cw, y, text, "", BOLD_FONT, True)
        edges_by_row.append([LEFT, LEFT + lw] + [col_x[ks[-1]] + vw for _, ks in runs] + ([RIGHT] if cw else []))
    body = [g.rows[r] for r in g.parts[part]]
    for i, (r, row) in enumerate(zip(g.parts[part], body)):
        y = top + (n_head + i) * row_h
        if isinstance(row, Group):
            draw_cell(flow, g, LEFT, CONTENT_W, y, row.label, row.label_notes, BOLD_FONT, False)
            edges_by_row.append([LEFT, RIGHT])
            continue
        draw_cell(flow, g, LEFT, lw, y, row.label, row.label_notes, BODY_FONT, False)
        for k, m in enumerate(row.marks):
            draw_cell(flow, g, col_x[k], vw, y, MARK_TEXT[m], row.notes.get(k, ""), BODY_FONT, True)
        if cw:
            draw_cell(flow, g, comment_x, cw, y, g.comments.get(r, ""), "", BODY_FONT, False)
        edges_by_row.append(every_edge)
    if part == len(g.parts) - 1:
        for note in g.notes_rows:
            y = top + len(edges_by_row) * row_h
            draw_cell(flow, g, LEFT, CONTENT_W, y, note, "", BODY_FONT, False)
            edges_by_row.append([LEFT, RIGHT])
    draw_rules(flow, top, row_h, edges_by_row, sorted(set(x for row in edges_by_row for x in row)))
    if part == len(g.parts) - 1:
        print_footnotes(flow, g.font_size, list(g.footnotes), lambda m: soagrid_footnote_lines(g, m))


def place_soagrid(flow: Flow, g: SoaGrid, need: float, placed: Placed) -> None:
    """Each part on a page of its own (the first may follow text)."""
    pages = []
    for part in range(len(g.parts)):
        if part == 0:
            flow.start_block(TABLE_GAP, need)
        else:
            flow.new_page()
        assert flow.y + soagrid_part_height(g, part) <= BODY_BOTTOM, (g.title, part)
        pages.append(flow.page_no)
        place_soagrid_part(flow, g, part)
    columns = [" / ".join(g.header_rows)] + [g.column_label(v) for v in g.visits]
    columns += ["Comments"] if g.comment_width else []
    data = []
    for r, row in enumerate(g.rows):
        if isinstance(row, Group):
            cells = [row.label + row.label_notes] + [""] * len(g.visits)
        else:
            cells = [row.label + row.label_notes] + [
                MARK_TEXT[m] + row.notes.get(k, "") for k, m in enumerate(row.marks)
            ]
        data.append(cells + ([g.comments.get(r, "")] if g.comment_width else []))
    data += [[note] + [""] * (len(columns) - 1) for note in g.notes_rows]
    placed.tables.append(
        {
            "title": g.title,
            "pages": pages,
            "columns": columns,
            "data": data,
            "schedule": soagrid_truth(g),
        }
    )


def soagrid_encounters(g: SoaGrid) -> tuple[list[dict], dict[int, int]]:
    """The encounters a reader must make of the grid's columns, and each
    column's encounter: one visit's time-point columns are one encounter,
    unless the grid is a sampling timeline."""
    out: list[dict] = []
    of_column: dict[int, int] = {}
    for k, v in enumerate(g.visits):
        prev = g.visits[k - 1] if k else None
        point = {"label": v.timepoint, "column": 1 + k} if v.timepoint else None
        joins = g.kind != "pk_pd" and point and prev and prev.timepoint and prev.cells[:-1] == v.cells[:-1]
        if joins:
            out[-1]["timepoints"].append(point)
            of_column[k] = len(out) - 1
            continue
        cells = v.cells[:-1] if v.timepoint and g.kind != "pk_pd" else v.cells
        timing = None
        if v.timing:
            unit, first, last, cycle = v.timing
            timing = {"unit": unit, "from": first, "to": last, "cycle": cycle}
        window = None
        if v.window:
            window = {"text": v.window[0], "before": v.window[1], "after": v.window[2], "unit": "day"}
        of_column[k] = len(out)
        out.append(
            {
                "label": " / ".join(c for c in cells if c),
                "short_label": v.short,
                "column": 1 + k,
                "epoch": v.epoch,
                "visit": v.visit,
                "timing": timing,
                "window": window,
                "timepoints": [point] if point else [],
                "main_encounter": v.main_visit,
            }
        )
    return out, of_column


def soagrid_truth(g: SoaGrid) -> dict:
    """The `schedule` object a reader should make of `g` (issue 27's shape,
    without its diagnostics); "main" and "kind" are set in build_truth."""

    def split(notes: str) -> list[str]:
        return [n for n in notes.split(",") if n]

    encounters, of_column = soagrid_encounters(g)
    activities, groups, marks = [], [], []
    group = None
    for r, row in enumerate(g.rows):
        if isinstance(row, Group):
            group = row.label
            groups.append({"label": row.label, "row": r, "footnotes": split(row.label_notes)})
            continue
        made: dict[int, dict] = {}
        for k, m in enumerate(row.marks):
            if m == ".":
                continue
            e = of_column[k]
            point = g.visits[k].timepoint if encounters[e]["timepoints"] else None
            if e in made:  # another time point of the same visit
                made[e]["timepoints"].append(point)
                made[e]["footnotes"] = list(dict.fromkeys(made[e]["footnotes"] + split(row.notes.get(k, ""))))
                continue
            made[e] = {
                "activity": len(activities),
                "encounter": e,
                "text": MARK_TEXT[m],
                "footnotes": split(row.notes.get(k, "")),
                "timepoints": [point] if point else [],
            }
            marks.append(made[e])
        activities.append({"label": row.label, "row": r, "group": group, "footnotes": split(row.label_notes)})
    epochs: list[dict] = []
    for e, enc in enumerate(encounters):
        if enc["epoch"] and epochs and epochs[-1]["label"] == enc["epoch"] and epochs[-1]["encounters"][-1] == e - 1:
            epochs[-1]["encounters"].append(e)
        elif enc["epoch"]:
            epochs.append({"label": enc["epoch"], "encounters": [e]})
    return {
        "name": g.title,
        "main": None,
        "kind": g.kind,
        "label_column": 0,
        "epochs": epochs,
        "encounters": encounters,
        "activities": activities,
        "groups": groups,
        "marks": marks,
        "footnotes": [{"marker": m, "text": t} for m, t in sorted(g.footnotes.items())],
        "notes": [{"text": note, "row": len(g.rows) + i} for i, note in enumerate(g.notes_rows)],
    }


def place_figure(flow: Flow, fig: Figure, need: float, placed: Placed) -> None:
    flow.start_block(FIGURE_GAP, need)
    x0 = LEFT + (CONTENT_W - fig.width) / 2
    rect = (x0, flow.y, x0 + fig.width, flow.y + fig.height)
    if fig.kind == "vector":
        flow.ops.extend(schema_ops(rect))
    elif fig.kind in ("form", "table"):
        key = f"picture|{fig.title}"
        PICTURED[key] = fig
        flow.ops.append(("image", rect, key))
    else:
        flow.ops.append(("image", rect, "timeline"))
    flow.y = rect[3] + 6
    flow.centered(fig.title, CAPTION_FONT, CAPTION_SIZE, CAPTION_LEADING)
    image = {
        "title": fig.title,
        "page": flow.page_no,
        "bbox": [round(v, 2) for v in rect],
        "kind": fig.kind,
    }
    if fig.kind == "form":  # the words in the picture, a line each, top to bottom
        image["text"] = "\n".join(fig.lines)
    if fig.kind == "table":
        image["table"] = {"columns": list(fig.grid[0]), "data": [list(row) for row in fig.grid[1:]]}
    placed.images.append(image)


# --------------------------------------------------------------------------
# Study-definition blocks: listings with printed markers, lead lines, grids
# --------------------------------------------------------------------------
SUB_INDENT = 20  # a sub-item's text hangs this far right of its item's text
GRID_SPAN_FILL = (0.93, 0.93, 0.93)


def listing_text_x(lst: Listing) -> float:
    """x of the entries' text: markers are set right-aligned before it, the
    widest one at the margin at the least."""
    widest = max(text_width(e.label + " ", BODY_FONT, BODY_SIZE) for e in lst.entries)
    return LEFT + max(LIST_TEXT_INDENT, round(widest + 2))


def sub_lines(text_x: float, marker: str, text: str) -> list[str]:
    return wrap(text, BODY_FONT, BODY_SIZE, RIGHT - text_x - SUB_INDENT)


def place_lead(flow: Flow, lead: Lead, need: float) -> None:
    flow.start_block(PARA_GAP + 2, need)
    flow.lines(LEFT, wrap(lead.text, BOLD_FONT, BODY_SIZE, CONTENT_W), font=BOLD_FONT)


def place_listing(flow: Flow, lst: Listing, placed: Placed) -> None:
    text_x = listing_text_x(lst)
    for n, e in enumerate(lst.entries):
        lines = wrap(e.text, BODY_FONT, BODY_SIZE, RIGHT - text_x)
        flow.start_block(LIST_GAP if n else PARA_GAP, min(2, len(lines)) * BODY_LEADING)
        pages = [flow.page_no]
        label = e.label + " "
        # Marker and first line are one string, as in place_list.
        flow.text(
            text_x - text_width(label, BODY_FONT, BODY_SIZE),
            flow.y,
            label + lines[0],
            BODY_FONT,
            BODY_SIZE,
            BODY_LEADING,
        )
        flow.y += BODY_LEADING
        for line in lines[1:]:
            flow.lines(text_x, [line])
            pages.append(flow.page_no)
        assert e.split == (len(set(pages)) == 2), (e.label, e.text, pages)
        for marker, text in e.subs:
            sub = sub_lines(text_x, marker, text)
            flow.start_block(LIST_GAP, min(2, len(sub)) * BODY_LEADING)
            pages.append(flow.page_no)
            sub_x = text_x + SUB_INDENT
            mark = marker + " "
            flow.text(
                sub_x - text_width(mark, BODY_FONT, BODY_SIZE),
                flow.y,
                mark + sub[0],
                BODY_FONT,
                BODY_SIZE,
                BODY_LEADING,
            )
            flow.y += BODY_LEADING
            for line in sub[1:]:
                flow.lines(sub_x, [line])
                pages.append(flow.page_no)
        if e.note:
            note = wrap(e.note, BODY_FONT, BODY_SIZE, RIGHT - text_x)
            flow.start_block(LIST_GAP, min(2, len(note)) * BODY_LEADING)
            for line in note:
                flow.lines(text_x, [line])
                pages.append(flow.page_no)
        if e.table:
            need = grid_row_height(e.table, e.table.columns, True) + grid_row_height(e.table, e.table.rows[0], False)
            place_grid(flow, e.table, need, placed, LIST_GAP + 2)
            pages.extend(p for k, p in placed.item_pages.items() if isinstance(k, tuple) and k[0] == id(e.table))
        placed.item_pages[id(e)] = sorted(set(pages))


def grid_cell_lines(grid: Grid, text: str, width: float, bold: bool) -> list[str]:
    font = BOLD_FONT if bold else BODY_FONT
    return [line for part in text.split("\n") for line in wrap(part, font, grid.font_size, width - 2 * CELL_PAD)]


def grid_cells(grid: Grid, row: list[str]) -> list[tuple[float, float, str]]:
    """(x, width, text) of each printed cell of a row."""
    if len(row) == 1:
        return [(grid.x0, sum(grid.widths), row[0])]
    out, x = [], grid.x0
    for w, text in zip(grid.widths, row):
        out.append((x, w, text))
        x += w
    return out


def grid_row_height(grid: Grid, row: list[str], header: bool) -> float:
    bold = header or len(row) == 1
    n = max(len(grid_cell_lines(grid, t, w, bold)) or 1 for _, w, t in grid_cells(grid, row))
    return n * grid.font_size * 1.25 + 2 * CELL_PAD


def draw_grid_row(flow: Flow, grid: Grid, row: list[str], header: bool) -> None:
    h = grid_row_height(grid, row, header)
    span = len(row) == 1 and not header
    right = grid.x0 + sum(grid.widths)
    if header or span:
        flow.ops.append(
            ("rect", grid.x0, flow.y, right, flow.y + h, None, HEADER_FILL if header else GRID_SPAN_FILL, 0)
        )
    bold = header or span
    lead = grid.font_size * 1.25
    for x, w, text in grid_cells(grid, row):
        top = flow.y + CELL_PAD
        for line in grid_cell_lines(grid, text, w, bold):
            flow.text(x + CELL_PAD, top, line, BOLD_FONT if bold else BODY_FONT, grid.font_size, lead)
            top += lead
    # Rules: the row's top edge, its outer sides and the column edges its
    # cells have (a spanning row has none inside).
    flow.ops.append(("line", grid.x0, flow.y, right, flow.y, 0.6, TEXT_COLOR))
    edges = sorted({x for x, _, _ in grid_cells(grid, row)} | {right})
    for x in edges:
        flow.ops.append(("line", x, flow.y, x, flow.y + h, 0.6, TEXT_COLOR))
    flow.y += h


def place_grid(flow: Flow, grid: Grid, need: float, placed: Placed, gap: float) -> None:
    flow.start_block(gap, need)
    pages = [flow.page_no]
    right = grid.x0 + sum(grid.widths)

    def close() -> None:
        flow.ops.append(("line", grid.x0, flow.y, right, flow.y, 0.6, TEXT_COLOR))

    def start(title: str) -> None:
        if title:
            table_caption(flow, title)
        draw_grid_row(flow, grid, grid.columns, header=True)

    start(grid.title)
    for k, row in enumerate(grid.rows):
        if flow.y + grid_row_height(grid, row, False) > BODY_BOTTOM:
            close()
            flow.new_page()
            pages.append(flow.page_no)
            start(f"{grid.title} (continued)" if grid.title else "")
        draw_grid_row(flow, grid, row, header=False)
        placed.item_pages[(id(grid), k)] = flow.page_no
    close()
    placed.tables.append(
        {
            "title": grid.title,
            "pages": pages,
            "columns": list(grid.columns),
            "data": [list(r) + [""] * (len(grid.columns) - len(r)) for r in grid.rows],
        }
    )


def heading_of(spec: Protocol, sec: Section) -> Heading:
    new_page = sec.new_page
    if new_page is None:
        new_page = spec.chapter_breaks and sec.level == 1
    return Heading(sec, sec.style or spec.styles[sec.level], new_page)


def flatten(spec: Protocol) -> Iterator[tuple[int, object]]:
    """(section index, block) in reading order, each section's heading
    first."""
    for k, sec in enumerate(spec.outline):
        yield k, heading_of(spec, sec)
        for blk in sec.blocks:
            yield k, blk


def layout_body(spec: Protocol, first_page: int) -> tuple[list[list[Op]], list[Placed]]:
    """Flow the outline over the body pages; `placed` is parallel to the
    outline (numbers such as "A." repeat in outline-style documents)."""
    flow = Flow(first_page)
    placed = [Placed() for _ in spec.outline]
    items = list(flatten(spec))
    for i, (k, blk) in enumerate(items):
        need = lead_height(items, i)
        info = placed[k]
        if isinstance(blk, Heading):
            place_heading(flow, blk, need)
            info.page = flow.page_no
        elif isinstance(blk, Para):
            place_para(flow, blk, need)
        elif isinstance(blk, NumberedList):
            place_list(flow, blk)
        elif isinstance(blk, Table):
            place_table(flow, blk, need, info)
        elif isinstance(blk, Schedule):
            place_schedule(flow, blk, need, info)
        elif isinstance(blk, SoaGrid):
            place_soagrid(flow, blk, need, info)
        elif isinstance(blk, Figure):
            place_figure(flow, blk, need, info)
        elif isinstance(blk, Questionnaire):
            place_questionnaire(flow, blk)
        elif isinstance(blk, Signature):
            place_signature(flow, blk, need)
        elif isinstance(blk, Listing):
            place_listing(flow, blk, info)
        elif isinstance(blk, Lead):
            place_lead(flow, blk, need)
        elif isinstance(blk, Grid):
            place_grid(flow, blk, need, info, TABLE_GAP)
        info.last_page = flow.page_no
    return flow.pages, placed


# --------------------------------------------------------------------------
# Figures
# --------------------------------------------------------------------------
SCHEMA_BOXES = [  # (column, row offset from centre line, label lines)
    (0, 0, ["Screening", "Up to 28 days"]),
    (1, 0, ["Randomization", "2:1, N = 120"]),
    (2, -1, ["EXP-4170 200 mg", "SC Q2W, 12 weeks"]),
    (2, 1, ["Placebo", "SC Q2W, 12 weeks"]),
    (3, 0, ["Safety Follow-up", "4 weeks"]),
    (4, 0, ["End of Study", "Week 16"]),
]


def schema_ops(rect: tuple) -> list[Op]:
    """Vector study schema: boxes with labels joined by arrowed connectors."""
    x0, y0, x1, y1 = rect
    gap, box_h, size = 22, 44, 8
    box_w = (x1 - x0 - 4 * gap) / 5
    cy = (y0 + y1) / 2
    ops: list[Op] = []
    boxes = {}
    for col, row, label in SCHEMA_BOXES:
        bx = x0 + col * (box_w + gap)
        by = cy + row * 38 - box_h / 2
        boxes[(col, row)] = (bx, by, bx + box_w, by + box_h)
        ops.append(("rect", bx, by, bx + box_w, by + box_h, (0.12, 0.3, 0.55), (0.9, 0.94, 1.0), 1))
        lines = [
            (t, BOLD_FONT if k == 0 else BODY_FONT)
            for k, part in enumerate(label)
            for t in wrap(part, BOLD_FONT if k == 0 else BODY_FONT, size, box_w - 8)
        ]
        lead = size * 1.25
        top = by + (box_h - lead * len(lines)) / 2
        for text, font in lines:
            tx = bx + (box_w - text_width(text, font, size)) / 2
            ops.append(("text", tx, baseline(top, size, lead), text, font, size, TEXT_COLOR))
            top += lead

    def mid_right(b):
        return (b[2], (b[1] + b[3]) / 2)

    def mid_left(b):
        return (b[0], (b[1] + b[3]) / 2)

    def connector(points):
        for p, q in zip(points, points[1:]):
            ops.append(("line", *p, *q, 1, TEXT_COLOR))
        qx, qy = points[-1]  # every connector ends going right
        ops.append(("poly", [(qx, qy), (qx - 6, qy - 3.5), (qx - 6, qy + 3.5)], TEXT_COLOR))

    def elbow(a, b):
        (ax, ay), (bx, by) = mid_right(a), mid_left(b)
        mx = (ax + bx) / 2
        connector([(ax, ay), (mx, ay), (mx, by), (bx, by)])

    elbow(boxes[(0, 0)], boxes[(1, 0)])
    elbow(boxes[(1, 0)], boxes[(2, -1)])
    elbow(boxes[(1, 0)], boxes[(2, 1)])
    elbow(boxes[(2, -1)], boxes[(3, 0)])
    elbow(boxes[(2, 1)], boxes[(3, 0)])
    elbow(boxes[(3, 0)], boxes[(4, 0)])
    return ops


PICTURED: dict[str, Figure] = {}  # image key -> a figure whose words are pixels
PICTURE_DPI = 200


def picture_pixmap(fig: Figure) -> pymupdf.Pixmap:
    """A form or a table printed into pixels (a scan, in effect): its words
    are in the picture only.  A form's questions (lines ending in "?") get an
    answer box drawn at the right; a table is a ruled grid, its first column
    as wide as its longest label."""
    doc = pymupdf.open()
    page = doc.new_page(width=fig.width, height=fig.height)
    size, lead = 10, 18
    if fig.kind == "form":
        y = 20
        for line in fig.lines:
            page.insert_text((14, y), winansi(line), fontname=BODY_FONT, fontsize=size)
            if line.endswith("?"):
                page.draw_rect(pymupdf.Rect(fig.width - 30, y - 9, fig.width - 20, y + 1), width=0.8)
            y += lead
    else:
        first = max(text_width(row[0], BODY_FONT, size) for row in fig.grid) + 16
        rest = (fig.width - 20 - first) / (len(fig.grid[0]) - 1)
        xs = [10] + [10 + first + rest * k for k in range(len(fig.grid[0]))]
        height = 20
        for r, row in enumerate(fig.grid):
            for c, cell in enumerate(row):
                font = BOLD_FONT if r == 0 else BODY_FONT
                page.insert_text((xs[c] + 5, 10 + r * height + 14), winansi(cell), fontname=font, fontsize=size)
        bottom = 10 + len(fig.grid) * height
        for r in range(len(fig.grid) + 1):
            page.draw_line((xs[0], 10 + r * height), (xs[-1], 10 + r * height), width=1)
        for x in xs:
            page.draw_line((x, 10), (x, bottom), width=1)
    pix = page.get_pixmap(dpi=PICTURE_DPI)
    doc.close()
    return pix


def timeline_pixmap(width: int = 300, height: int = 120) -> pymupdf.Pixmap:
    """Raster dosing timeline built pixel by pixel (deterministic, no text):
    six dosing bars every 2 weeks over 12 weeks, a grey follow-up band and a
    week axis with ticks, on a soft vertical gradient."""
    px_per_week = 200 / 12
    dose_x = [20 + round(2 * k * px_per_week) for k in range(6)]
    tick_x = {20 + round(k * px_per_week) for k in range(17)}  # weeks 0-16
    samples = bytearray()
    for y in range(height):
        bg = (250 - y * 35 // height, 250 - y * 22 // height, 255 - y * 10 // height)
        for x in range(width):
            color = bg
            if any(d <= x < d + 8 for d in dose_x) and 30 <= y < 95:
                shade = (y - 30) * 40 // 65
                color = (31 + shade, 78 + shade, 140 + shade)
            elif 220 <= x < 287 and 62 <= y < 95:
                color = (200, 200, 200)
            elif 15 <= x < 292 and 95 <= y < 97:
                color = (60, 60, 60)
            elif 97 <= y < 102 and x in tick_x:
                color = (60, 60, 60)
            samples += bytes(color)
    return pymupdf.Pixmap(pymupdf.csRGB, width, height, bytes(samples), False)


# --------------------------------------------------------------------------
# Front matter
# --------------------------------------------------------------------------
def title_page_ops(spec: Protocol) -> list[Op]:
    flow = Flow(1)
    flow.y = 96
    flow.centered("CLINICAL STUDY PROTOCOL", BOLD_FONT, 12, 16)
    flow.ops.append(("line", LEFT, 124, RIGHT, 124, 1, TEXT_COLOR))
    flow.y = 150
    for line in wrap(spec.title, BOLD_FONT, 16, CONTENT_W - 40):
        flow.centered(line, BOLD_FONT, 16, 22)
    flow.y += 14
    flow.ops.append(("line", LEFT, flow.y, RIGHT, flow.y, 1, TEXT_COLOR))
    flow.y += 40
    if spec.cover_grid:
        cover_grid_ops(flow, spec.cover)
    for label, value in [] if spec.cover_grid else spec.cover:
        flow.text(LEFT + 60, flow.y, label, BOLD_FONT, 11, 20)
        # a value too long for one line wraps under itself (a history run on in one line)
        for line in wrap(value, BODY_FONT, 11, RIGHT - LEFT - 210) or [value]:
            flow.text(LEFT + 210, flow.y, line, BODY_FONT, 11, 20)
            flow.y += 20
    assert flow.y <= 590, "title page too full"
    flow.y = 610
    flow.centered("CONFIDENTIAL", BOLD_FONT, 14, 20)
    flow.y += 6
    sponsor = spec.sponsor.rstrip(".")
    notice = (
        "This document contains confidential information belonging to "
        f"{sponsor}. It may not be disclosed to any third party "
        "without prior written authorization, except as required to "
        "conduct the study."
    )
    for line in wrap(notice, BODY_FONT, 9, CONTENT_W - 60):
        flow.centered(line, BODY_FONT, 9, 12)
    return flow.ops


COVER_GRID_X, COVER_GRID_SPLIT, COVER_GRID_ROW = LEFT + 30, LEFT + 200, 20


def cover_grid_ops(flow: Flow, rows: list[tuple[str, str]]) -> None:
    """The title page's label/value rows as a ruled two-column table."""
    right = RIGHT - 30
    top = flow.y
    for label, value in rows:
        row_top = flow.y
        flow.text(COVER_GRID_X + 5, flow.y, label, BOLD_FONT, 10, COVER_GRID_ROW)
        # a value too long for its cell wraps in it (a history run on in one line)
        lines = wrap(value, BODY_FONT, 10, right - COVER_GRID_SPLIT - 10) or [value]
        for k, line in enumerate(lines):
            flow.text(COVER_GRID_SPLIT + 5, row_top + k * COVER_GRID_ROW, line, BODY_FONT, 10, COVER_GRID_ROW)
        flow.ops.append(("line", COVER_GRID_X, row_top, right, row_top, 0.6, TEXT_COLOR))
        flow.y = row_top + len(lines) * COVER_GRID_ROW
    flow.ops.append(("line", COVER_GRID_X, flow.y, right, flow.y, 0.6, TEXT_COLOR))
    for x in (COVER_GRID_X, COVER_GRID_SPLIT, right):
        flow.ops.append(("line", x, top, x, flow.y, 0.6, TEXT_COLOR))


TOC_TITLE_GAP = 30
TOC_LEADING = 15.5
TOC_INDENT = 14
TOC_SIZE = 10
TOC_NUMBER_ROOM = 36  # kept free right of an entry for leaders + page number


def toc_lines_per_page() -> int:
    return int((BODY_BOTTOM - BODY_TOP - TOC_TITLE_GAP) // TOC_LEADING)


def toc_font(sec: Section) -> str:
    return BOLD_FONT if sec.level == 1 else BODY_FONT


def toc_entry_lines(sec: Section) -> list[Run]:
    """An entry's lines: number + title, a long title wrapping under itself
    (the last line then carries the dot leaders and the page number)."""
    font, x = toc_font(sec), LEFT + (sec.level - 1) * TOC_INDENT
    room = RIGHT - TOC_NUMBER_ROOM - x
    if text_width(sec.heading, font, TOC_SIZE) <= room:
        return [(x, sec.heading)]
    prefix = sec.number + sec.sep
    hang = x + text_width(prefix, font, TOC_SIZE)
    parts = wrap(sec.title, font, TOC_SIZE, RIGHT - TOC_NUMBER_ROOM - hang)
    return [(x, prefix + parts[0])] + [(hang, part) for part in parts[1:]]


def toc_pagination(outline: list[Section]) -> list[list[int]]:
    """Section indices per TOC page; an entry never splits over pages."""
    per = toc_lines_per_page()
    pages: list[list[int]] = [[]]
    used = 0
    for k, sec in enumerate(outline):
        n = len(toc_entry_lines(sec))
        if used + n > per:
            pages.append([])
            used = 0
        pages[-1].append(k)
        used += n
    return pages


def toc_page_count(outline: list[Section]) -> int:
    return len(toc_pagination(outline))


def toc_pages_ops(outline: list[Section], placed: list[Placed]) -> list[list[Op]]:
    """One entry per section: number + title, dot leaders, page number."""
    pages = []
    for n_page, indices in enumerate(toc_pagination(outline)):
        flow = Flow(0)
        title = "TABLE OF CONTENTS" + (" (continued)" if n_page else "")
        flow.text(LEFT, flow.y, title, BOLD_FONT, 14, 18)
        flow.y += TOC_TITLE_GAP
        for k in indices:
            sec, font = outline[k], toc_font(outline[k])
            lines = toc_entry_lines(sec)
            for x, text in lines[:-1]:
                flow.text(x, flow.y, text, font, TOC_SIZE, TOC_LEADING)
                flow.y += TOC_LEADING
            x, text = lines[-1]
            num = str(placed[k].page)
            num_x = RIGHT - text_width(num, BODY_FONT, TOC_SIZE)
            flow.text(x, flow.y, text, font, TOC_SIZE, TOC_LEADING)
            dots_from = x + text_width(text, font, TOC_SIZE) + 4
            dot_w = text_width(".", BODY_FONT, TOC_SIZE)
            n_dots = int((num_x - 4 - dots_from) // dot_w)
            dots = "." * n_dots
            flow.text(num_x - 4 - text_width(dots, BODY_FONT, TOC_SIZE), flow.y, dots, BODY_FONT, TOC_SIZE, TOC_LEADING)
            flow.text(num_x, flow.y, num, BODY_FONT, TOC_SIZE, TOC_LEADING)
            flow.y += TOC_LEADING
        pages.append(flow.ops)
    return pages


def running_ops(spec: Protocol, n: int, total: int) -> list[Op]:
    """Running header and footer for every page except the title page."""
    size = 9
    left, right = spec.running_header
    label = PAGE_LABEL.format(n=n, N=total)
    label_x = LEFT + (CONTENT_W - text_width(label, BODY_FONT, size)) / 2
    return [
        ("text", LEFT, HEADER_BASELINE, left, BODY_FONT, size, MUTED_COLOR),
        ("text", RIGHT - text_width(right, BODY_FONT, size), HEADER_BASELINE, right, BODY_FONT, size, MUTED_COLOR),
        ("line", LEFT, HEADER_RULE, RIGHT, HEADER_RULE, 0.5, MUTED_COLOR),
        ("line", LEFT, FOOTER_RULE, RIGHT, FOOTER_RULE, 0.5, MUTED_COLOR),
        ("text", LEFT, FOOTER_BASELINE, FOOTER_LEFT, BODY_FONT, size, MUTED_COLOR),
        ("text", label_x, FOOTER_BASELINE, label, BODY_FONT, size, MUTED_COLOR),
    ]


# --------------------------------------------------------------------------
# Rendering
# --------------------------------------------------------------------------
def render_page(doc: pymupdf.Document, ops: list[Op], images: dict[str, pymupdf.Pixmap]) -> None:
    page = doc.new_page(width=PAGE_W, height=PAGE_H)
    # One Shape per page gives a single content stream (text drawn last, so
    # it sits on top of table fills and figure boxes).
    shape = page.new_shape()
    for op in ops:
        kind = op[0]
        if kind == "text":
            _, x, y, text, font, size, color = op
            shape.insert_text((x, y), winansi(text), fontname=font, fontsize=size, color=color)
        elif kind == "line":
            _, ax, ay, bx, by, width, color = op
            shape.draw_line((ax, ay), (bx, by))
            shape.finish(width=width, color=color)
        elif kind == "rect":
            _, ax, ay, bx, by, stroke, fill, width = op
            shape.draw_rect(pymupdf.Rect(ax, ay, bx, by))
            shape.finish(width=width, color=stroke, fill=fill)
        elif kind == "poly":
            _, points, fill = op
            shape.draw_polyline(points)
            shape.finish(width=0.5, color=fill, fill=fill, closePath=True)
    shape.commit()
    for op in ops:
        if op[0] == "image":
            image = images[op[2]]
            if isinstance(image, bytes):  # an encoded picture (a JPEG), embedded as it is
                page.insert_image(pymupdf.Rect(op[1]), stream=image)
            else:
                page.insert_image(pymupdf.Rect(op[1]), pixmap=image)


def number_image_key(text: str, font: str, size: float) -> str:
    return f"number|{text}|{font}|{size}"


NUMBER_PICTURE_HEIGHT = 20  # pixels: a heading number as templates embed it, a small grey JPEG


def number_pixmap(key: str) -> bytes:
    """A heading number rendered to pixels (the text layer will not hold it): a greyscale JPEG
    about 20 pixels high, as the templates that print numbers as pictures embed them (a
    number of a few characters is then about 50 x 20 pixels, too small for OCR as it comes)."""
    _, text, font, size = key.split("|")
    size = float(size)
    doc = pymupdf.open()
    page = doc.new_page(width=text_width(text, font, size) + 2, height=size * 1.25)
    page.insert_text((1, size), text, fontname=font, fontsize=size)
    pix = page.get_pixmap(dpi=round(72 * NUMBER_PICTURE_HEIGHT / (size * 1.25)), colorspace=pymupdf.csGRAY)
    doc.close()
    return pix.tobytes("jpg", jpg_quality=75)


def bundle_title_ops(title: str) -> list[Op]:
    flow = Flow(0)
    flow.y = 200
    flow.centered(title, BOLD_FONT, 16, 22)
    return flow.ops


def bookmark_rows(spec: Protocol, placed: list[Placed]) -> list[list]:
    return [[sec.level, f"{sec.number} {sec.title}", info.page] for sec, info in zip(spec.outline, placed)]


def build_truth(spec: Protocol, placed: list[Placed], page_count: int, toc_pages: list[int]) -> dict:
    def node(sec: Section, info: Placed) -> dict:
        return {
            "number": sec.number,
            "title": sec.title,
            "level": sec.level,
            "page": info.page,
            "paragraphs": paragraphs_of(sec),
            "list_items": list_items_of(sec),
            "tables": info.tables,
            "images": info.images,
            "references": references_of(sec, spec.reference_re),
            "subsections": [],
        }

    if spec.says_schedules:
        tables = [t for info in placed for t in info.tables]
        schedules = [t["schedule"] for t in tables if t.get("schedule")]
        for t in tables:
            t.setdefault("schedule", None)
        for k, sch in enumerate(schedules):  # the first is the main timeline
            sch["main"] = k == 0
            sch["kind"] = "main" if k == 0 else sch["kind"]
    roots: list[dict] = []
    nodes: list[dict] = []
    for sec, info, parent in zip(spec.outline, placed, parent_indices(spec.outline)):
        n = node(sec, info)
        nodes.append(n)
        (nodes[parent]["subsections"] if parent is not None else roots).append(n)
    truth = {
        "title": spec.title,
        "protocol_number": spec.number,
        "page_count": page_count,
        "toc_pages": toc_pages,
        "running_header": list(spec.running_header),
        "running_footer": [FOOTER_LEFT, PAGE_LABEL],
        "sections": roots,
    }
    if spec.study is not None:
        truth["study"] = study_truth(spec, placed)
    return truth


def criterion_text(e: Entry) -> str:
    """A criterion's text as the study reader gives it: the item's text,
    then each sub-item with its marker, the note and the table's rows (header
    first, cells joined by spaces), one per line."""
    parts = [e.text] + [f"{m} {t}" for m, t in e.subs]
    parts += [e.note] if e.note else []
    if e.table:
        parts += [" ".join(c for c in row if c) for row in [e.table.columns] + e.table.rows]
    return "\n".join(parts)


def study_truth(spec: Protocol, placed: list[Placed]) -> dict:
    """The study definition as the generator knows it (the shape of
    ``clinparser/study``'s output without "boxes" and "diagnostics")."""
    st = spec.study
    criteria, objectives, endpoints, abbreviations = [], [], [], []
    for sec, info in zip(spec.outline, placed):
        if sec.criterion:
            category, step = sec.criterion
            criteria.append(
                {
                    "category": category,
                    "identifier": sec.number,
                    "text": "\n".join([sec.title] + paragraphs_of(sec)),
                    "section": sec.number,
                    "pages": list(range(info.page, info.last_page + 1)),
                    "applies_to": step,
                }
            )
        if re.search(r"abbreviations", sec.title, re.I):
            for b in sec.blocks:
                if isinstance(b, Table):
                    abbreviations += [{"abbreviation": a, "expansion": x} for a, x in b.rows]
        for b in sec.blocks:
            if isinstance(b, Listing) and b.role == "criteria":
                criteria += [
                    {
                        "category": b.category,
                        "identifier": None if e.label == BULLET else e.label,
                        "text": criterion_text(e),
                        "section": sec.number,
                        "pages": info.item_pages[id(e)],
                        "applies_to": b.applies_to,
                    }
                    for e in b.entries
                ]
            elif isinstance(b, Listing) and b.role in ("objectives", "endpoints"):
                items = objectives if b.role == "objectives" else endpoints
                items += [
                    {
                        "level": b.level,
                        "label": b.label,
                        "text": e.text,
                        "section": sec.number,
                        "pages": info.item_pages[id(e)],
                    }
                    for e in b.entries
                ]
            elif isinstance(b, Grid) and b.objectives:
                label = None
                for k, row in enumerate(b.rows):
                    if len(row) == 1:
                        label = row[0]
                        continue
                    where = {
                        "level": label.lower(),
                        "label": label,
                        "section": sec.number,
                        "pages": [info.item_pages[(id(b), k)]],
                    }
                    objectives.append(
                        {
                            **where,
                            "text": row[0],
                            "endpoints": [
                                {**where, "text": line.removeprefix(BULLET + " ")} for line in row[1].split("\n")
                            ],
                        }
                    )
    # Endpoints printed apart from their objectives: the k-th endpoint of a
    # level belongs to the k-th objective of that level (the documents are
    # written so that this holds).
    for level in dict.fromkeys(e["level"] for e in endpoints):
        mine = [e for e in endpoints if e["level"] == level]
        targets = [o for o in objectives if o["level"] == level]
        assert len(mine) == len(targets), level
        for o, e in zip(targets, mine):
            o.setdefault("endpoints", []).append(e)
    objectives = [{**o, "endpoints": o.get("endpoints", [])} for o in objectives]
    return {
        "titles": {
            "official": {"text": spec.title, "page": 1},
            "short": {"text": st.short, "page": 1} if st.short else None,
            "acronym": {"text": st.acronym, "page": 1} if st.acronym else None,
        },
        "identifiers": [
            {"kind": kind, "text": text, "page": 1, "source": "title page"} for kind, text in st.identifiers
        ],
        "phase": {"value": st.phase[0], "printed": st.phase[1]},
        "sponsor": {"text": spec.sponsor, "page": 1},
        "eligibility": criteria,
        "objectives": objectives,
        "abbreviations": abbreviations,
    }


def layout_bundled(spec: Protocol, first_page: int) -> tuple[list[list[Op]], list[dict]]:
    """Each bundled document: title page, its TOC, its body; and its truth."""
    pages: list[list[Op]] = []
    truths = []
    for b in spec.bundled:
        sub = replace(spec, outline=b.outline, bundled=())
        check_outline(sub)
        start = first_page + len(pages)
        n_toc = toc_page_count(b.outline)
        body, placed = layout_body(sub, first_page=start + 1 + n_toc)
        pages += [bundle_title_ops(b.title)] + toc_pages_ops(b.outline, placed) + body
        truths.append(
            {
                "title": b.title,
                "pages": [start, start + len(body) + n_toc],
                "toc_pages": list(range(start + 1, start + 1 + n_toc)),
                "sections": build_truth(sub, placed, 0, [])["sections"],
            }
        )
    return pages, truths


def build(pdf_path: Path, outline: list[Section] | None = None, spec: Protocol | None = None) -> dict:
    """Write a protocol PDF to `pdf_path` and return its ground truth.

    `spec` defaults to protocol_001; `outline` replaces the spec's outline
    (same front matter and styles)."""
    spec = spec or PROTOCOLS["protocol_001"]
    if outline is not None:
        spec = replace(spec, outline=outline)
    check_outline(spec)
    # Pass 1: the TOC length depends only on the entries, not on their page
    # numbers, so the body can be laid out first to learn every heading's
    # page number.
    n_toc = toc_page_count(spec.outline)
    toc_pages = list(range(2, 2 + n_toc))
    body_pages, placed = layout_body(spec, first_page=2 + n_toc)
    # Pass 2: with the page numbers known, draw the TOC and render everything.
    pages = [title_page_ops(spec)] + toc_pages_ops(spec.outline, placed) + body_pages
    bundled_pages, bundled_truth = layout_bundled(spec, len(pages) + 1)
    pages += bundled_pages
    total = len(pages)
    images = {"timeline": timeline_pixmap()}
    for op in (op for ops in pages for op in ops):
        if op[0] == "image" and op[2].startswith("number|"):
            images.setdefault(op[2], number_pixmap(op[2]))
        if op[0] == "image" and op[2].startswith("picture|"):
            images.setdefault(op[2], picture_pixmap(PICTURED[op[2]]))

    doc = pymupdf.open()
    for n, ops in enumerate(pages, 1):
        running = running_ops(spec, n, total) if n > 1 else []
        render_page(doc, running + ops, images)
    doc.set_metadata(
        {
            "title": spec.title,
            "author": spec.sponsor,
            "subject": f"Clinical Study Protocol {spec.number}",
            "keywords": "synthetic, test fixture",
            "creator": "ClinParser examples/make_protocol.py",
            "producer": "PyMuPDF",
            "creationDate": FIXED_PDF_DATE,
            "modDate": FIXED_PDF_DATE,
            "trapped": "",
        }
    )
    if spec.bookmarks:
        doc.set_toc(bookmark_rows(spec, placed))
    pdf_path = Path(pdf_path)
    pdf_path.parent.mkdir(parents=True, exist_ok=True)
    # no_new_id: no random /ID; garbage=4 + deflate: compact, stable objects.
    doc.save(pdf_path, garbage=4, deflate=True, no_new_id=True)
    doc.close()
    truth = build_truth(spec, placed, total, toc_pages)
    if bundled_truth:  # only documents that have them: older truths stay as they were
        truth["bundled"] = bundled_truth
    return truth


def build_named(name: str, pdf_path: Path) -> dict:
    """Write protocol `name` (a key of PROTOCOLS) to `pdf_path`; return its
    ground truth."""
    return build(pdf_path, spec=PROTOCOLS[name])


def write_truth(truth: dict, path: Path) -> None:
    path.write_text(
        json.dumps(truth, indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8", newline="\n"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--out",
        type=Path,
        default=Path(__file__).resolve().parent / "input",
        help="output directory (default: examples/input)",
    )
    args = parser.parse_args(argv)
    for name in PROTOCOLS:
        pdf_path = args.out / f"{name}.pdf"
        truth = build_named(name, pdf_path)
        truth_path = args.out / f"{name}.truth.json"
        write_truth(truth, truth_path)
        print(f"wrote {pdf_path} ({truth['page_count']} pages) and {truth_path}")


if __name__ == "__main__":
    main()
