"""The shapes of ``document.json``: the section tree with its tables and images, the schedules,
the study, its design and the metadata, as the stages build them and the exporters read them.

They are plain dicts at run time (the JSON is written as built); these types name their keys so a
reader of the code, and a type checker, know what crosses a stage. ``tests/test_document_types.py``
holds them to ``schemas/document.schema.json`` key for key, and to real output.
"""

from __future__ import annotations

from typing import Any, Literal, Optional, TypedDict

Page = Optional[int]
Bbox = list[float]
TimeUnit = Literal["minute", "hour", "day", "week", "month", "year"]


# --- schedules (a table's "schedule") -----------------------------------------------------------


class ScheduleEpoch(TypedDict):
    label: str
    encounters: list[int]


class Timepoint(TypedDict):
    label: str
    column: int


# "from" is a keyword: the functional form names it
Timing = TypedDict("Timing", {"unit": TimeUnit, "from": float, "to": float, "cycle": Optional[int]})


class Window(TypedDict):
    text: str
    before: float
    after: float
    unit: TimeUnit


class Encounter(TypedDict):
    label: str
    short_label: str
    column: int
    epoch: Optional[str]
    visit: Optional[str]
    timing: Optional[Timing]
    window: Optional[Window]
    timepoints: list[Timepoint]
    main_encounter: Optional[int]


class ActivityGroup(TypedDict):
    label: str
    row: int
    footnotes: list[str]


class Activity(TypedDict):
    label: str
    row: int
    group: Optional[str]
    footnotes: list[str]


class Mark(TypedDict):
    activity: int
    encounter: int
    text: str
    footnotes: list[str]
    timepoints: list[str]


class Footnote(TypedDict):
    marker: str
    text: str


class TableNote(TypedDict):
    text: str
    row: int


class LegendEntry(TypedDict):
    abbreviation: str
    expansion: str


class Schedule(TypedDict):
    name: str
    main: bool
    kind: Literal["main", "pk_pd", "extension", "follow_up", "other"]
    label_column: int
    epochs: list[ScheduleEpoch]
    encounters: list[Encounter]
    groups: list[ActivityGroup]
    activities: list[Activity]
    marks: list[Mark]
    footnotes: list[Footnote]
    abbreviations: list[LegendEntry]
    notes: list[TableNote]
    diagnostics: list[str]


# --- the study -----------------------------------------------------------------------------------


class SourceBox(TypedDict):
    page: Page
    bbox: Bbox


class TextOnPage(TypedDict):
    text: str
    page: Page


class Titles(TypedDict):
    official: Optional[TextOnPage]
    short: Optional[TextOnPage]
    acronym: Optional[TextOnPage]


class Identifier(TypedDict):
    kind: Literal["sponsor", "nct", "eudract", "eu_ct", "ind", "ide", "utn", "other_registry"]
    text: str
    page: Page
    source: str


class Phase(TypedDict):
    value: Optional[Literal["1", "1/2", "2", "2/3", "3", "4"]]
    printed: Optional[str]


class Criterion(TypedDict):
    category: Literal["inclusion", "exclusion"]
    identifier: Optional[str]
    text: str
    section: str
    pages: list[Page]
    boxes: list[SourceBox]
    applies_to: Optional[str]


Level = Literal["primary", "secondary", "exploratory"]


class Endpoint(TypedDict):
    level: Level
    label: Optional[str]
    text: str
    section: str
    pages: list[Page]
    boxes: list[SourceBox]


class Objective(Endpoint):
    endpoints: list[Endpoint]


class Abbreviation(TypedDict):
    abbreviation: str
    expansion: str


class StudyDiagnostic(TypedDict):
    reader: str
    kind: str
    detail: str


# --- the study design: every item traced to where it is printed ---------------------------------


class Trace(TypedDict):
    pages: list[Page]
    boxes: list[SourceBox]
    section: Optional[str]
    printed: str


class DesignValue(Trace):
    value: Any  # a number, a word from the item's vocabulary (docs/output-format.md) or None


class Arm(Trace):
    name: str
    type: str
    interventions: list[str]


class Epoch(Trace):
    name: str


class Dose(TypedDict):
    printed: str
    value: Optional[float]
    unit: Optional[str]


class Intervention(Trace):
    name: str
    role: Optional[str]
    doses: list[Dose]
    route: Optional[str]
    frequency: Optional[str]


class Age(Trace):
    min: Optional[float]
    max: Optional[float]
    unit: Optional[str]


class Population(TypedDict):
    planned_enrollment: Optional[DesignValue]
    age: Optional[Age]
    sex: Optional[DesignValue]
    healthy_volunteers: Optional[DesignValue]


class Amendment(Trace):
    number: Optional[str]
    date: Optional[str]
    summary: Optional[str]


class Design(TypedDict):
    arms: list[Arm]
    epochs: list[Epoch]
    interventions: list[Intervention]
    population: Population
    allocation: Optional[DesignValue]
    model: Optional[DesignValue]
    masking: Optional[DesignValue]
    ratio: Optional[DesignValue]
    indication: Optional[DesignValue]
    amendments: list[Amendment]


class _StudyRequired(TypedDict):
    titles: Titles
    identifiers: list[Identifier]
    phase: Phase
    sponsor: Optional[TextOnPage]
    eligibility: list[Criterion]
    objectives: list[Objective]
    abbreviations: list[Abbreviation]
    diagnostics: list[StudyDiagnostic]


class Study(_StudyRequired, total=False):
    design: Design  # absent when the design reader was not run


# --- metadata -----------------------------------------------------------------------------------


class UnreadPicture(TypedDict):
    page: Page
    why: str


class Pictures(TypedDict):
    count: int
    with_words: int
    words_from_ocr: int
    words_from_text_layer: int
    unread: list[UnreadPicture]
    tables: int


class PageLayout(TypedDict):
    model: Literal["full", "text-only"]
    reason: str


class _PageRequired(TypedDict):
    page: int
    source: Literal["text", "ocr", "rebuilt", "empty"]
    reason: str


class PageEntry(_PageRequired, total=False):
    pictures_read: int
    layout: PageLayout


class BundledDocument(TypedDict):
    title: str
    pages: list[Any]
    sections: int


# where each section's number came from (keys with a hyphen: the functional form)
NumbersFrom = TypedDict(
    "NumbersFrom",
    {
        "text": int,
        "ocr": int,
        "word-numbering": int,
        "picture": int,
        "picture-sequence": int,
        "bookmark": int,
        "printed": int,
    },
    total=False,
)


class Summary(TypedDict):
    sections: int
    numbers_from: NumbersFrom
    outline_entries_found: dict[str, Any]
    numbering_irregularities: int
    bundled_documents: list[BundledDocument]
    verdict: str


class _FindingRequired(TypedDict):
    number: str
    title: str
    page: Page


class Finding(_FindingRequired, total=False):
    source: Literal["printed", "bookmark"]


class _UnresolvedRequired(TypedDict):
    text: str
    kind: Literal["section", "appendix", "table", "figure"]
    section: str


class UnresolvedReference(_UnresolvedRequired, total=False):
    page: Page


class _DiagnosticsRequired(TypedDict):
    toc_entries_missing_in_body: list[Finding]
    numbering_gaps: list[Finding]
    missing_parents: list[Finding]
    duplicate_numbers: list[Finding]
    out_of_order: list[Finding]
    unresolved_references: list[UnresolvedReference]
    numbers_from_outline: list[Finding]
    summary: Summary


class Diagnostics(_DiagnosticsRequired, total=False):
    titles_from_outline: list[Finding]


class _MetadataRequired(TypedDict):
    source: str
    sha256: str
    page_count: int
    engine: Literal["pymupdf", "docling"]
    versions: dict[str, Optional[str]]
    warnings: list[str]
    diagnostics: Diagnostics
    pages: list[PageEntry]


class Metadata(_MetadataRequired, total=False):
    pictures: Pictures


# --- the section tree ----------------------------------------------------------------------------


class _TableRequired(TypedDict):
    title: str
    page: Page
    pages: list[Page]  # first and last
    columns: list[str]
    data: list[list[str]]
    path: Optional[str]  # the CSV, relative to the output folder; None when not written


class TableNode(_TableRequired, total=False):
    from_ocr: Literal[True]  # read by OCR from a picture of the table (present only then)
    schedule: Schedule


class ImageNode(TypedDict):
    title: str
    page: Page
    bbox: Bbox
    width: int
    height: int
    path: Optional[str]
    text: str
    text_from: Literal["", "text-layer", "ocr", "text-layer + ocr"]


class ReferenceNode(TypedDict):
    text: str
    kind: Literal["section", "appendix", "table", "figure"]
    target: Any  # the number of a section, {"section", "index"} of a table or figure, or None


class SectionNode(TypedDict):
    number: str  # "" in front and back matter
    title: str
    level: int
    pages: list[Page]  # first and last
    text: str
    tables: list[TableNode]
    images: list[ImageNode]
    references: list[ReferenceNode]
    subsections: list[SectionNode]


class _DocumentRequired(TypedDict):
    toc: list[SectionNode]
    non_toc: list[SectionNode]
    metadata: Metadata


class Document(_DocumentRequired, total=False):
    study: Study  # absent when the study definition was not read
