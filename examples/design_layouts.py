"""Randomized study-design layouts: small synthetic protocols whose design is known exactly.

``examples/study_layouts.py`` writes protocols whose objectives and criteria are known; this
module writes protocols whose *design* is known: arms, epochs, interventions, population,
allocation, model, masking, ratio, indication and amendments.  :func:`layout` takes a seed and,
with ``random.Random(seed)`` only, chooses one design kind and one variation of every family
below, invents the wording (drug, comparator, doses, periods, dates) from word pools and
assembles a short protocol: title page, perhaps a document history page, table of contents,
a synopsis, an introduction, the study design (prose, perhaps a schema picture), the study
population (criteria), the study intervention(s), statistics and perhaps an appendix with the
amendment history.  It returns the truth in the flat format of
``../shared/corpus/design/README.md``, so that ``../shared/tools/design_score.py OURS TRUTH``
scores a parse directly.  Every word is invented (the disease pools are study_layouts').

Families of variation (the truth's ``forms``; each name starts with its family's prefix, see
:data:`FAMILIES` and :data:`FORMS`):

1. ``design.`` -- the kind: single group (one arm, open label, non-randomized), parallel (2-4
   arms: doses of the drug, placebo and/or an active comparator; arms named by their dose,
   "Arm A: ...", "Group 1: ..." or with the frequency's abbreviation "... 10 mg QD"), crossover
   (sequences as arms, "Sequence AB"/"Treatment Sequence BA", or only in a table of sequences
   and periods, the arm named by its row "Sequence AB: Drug 10 mg, Placebo"; two or three
   periods with washout periods between them), dose escalation (cohorts as arms, "Cohort 1: 10 mg", single or
   multiple doses, sometimes a table of the cohorts; model "sequential"), factorial (2 x 2 with
   a second drug).  Masking open label / single blind / double blind; control placebo, active,
   both or none.
2. ``title.`` -- the title page's title stating phase, allocation, masking, control and model
   ("A Phase 2, Randomized, Double-Blind, Placebo-Controlled, Parallel-Group Study of ..."), only
   some of them, or a purpose title ("A Study to Evaluate the Efficacy and Safety of ..."); its
   population "Adults with <disease>" or, on its own stream, "Senior Adult <disease> Patients"
   (``title.population.before``).
3. ``amend.`` -- no amendment, a document history table on its own page before the contents, a
   protocol amendment history table in an appendix, or title-page lines ("Amendment 2: 14 March
   2021"); columns Document | Date [| Summary of Changes]; numbers "Amendment 1", a bare "1"
   under an "Amendment" column, "Amendment 02", "Version 3.0" (the original is Version 1.0) or a
   country-specific "Amendment 2.01 (Country-specific)"; dates "14 March 2021", "14-Mar-2021",
   "2021-03-14" or "March 14, 2021", or on their own stream in numbers, "03/14/2021" or
   "14/03/2021" (``amend.date.numeric_mdy``, ``amend.date.numeric_dmy``; a reader tells the order
   only where a day above 12 shows it); title-page lines run on in one, newest first
   ("Amendment 2: ... Amendment 1: ... Original Protocol: ...", ``amend.cover.runon``, the same
   stream); or one labelled box per amendment in an appendix ("Number of
   global amendment | 2", "Date of CTP revision | ..."); or no history at all, only the title
   page's own version ("Version Number: 3"), perhaps with a rationale page naming the version
   before it ("Version 2 of the protocol ...").
4. ``synopsis.`` -- a two-column table of labelled fields, bold-labelled paragraphs ("**Study
   Design:** ...") or bold lead lines with the value below; labels vary ("Study Design",
   "Methodology", "Overall Design"; "Number of Participants", "Planned Sample Size", "Number of
   Subjects to be Randomized"; "Study Intervention(s)", "Investigational Product", "Test
   Product, Dose and Mode of Administration"; "Reference Therapy", "Comparator"; "Indication",
   "Condition/Disease"; "Treatment Groups", "Arms", "Intervention Groups"; "Study Duration",
   "Study Periods"; "Population", "Key Inclusion Criteria"); arms sometimes with "(N=80)";
   sometimes an indication field, sometimes the number screened besides the number randomized
   (and, ``synopsis.screened.evaluable`` on its own stream, the evaluable count per treatment
   group after them, which is no enrollment);
   sometimes no product fields at all (``synopsis.products.none``: the products are named only
   in the title and the intervention section, as many protocols print them); or no arms field,
   the labelled arms listed only in a "Treatment Assignment" section of the intervention chapter
   (``synopsis.arms.assigned``, its own random stream), or each heading a paragraph about it
   ("Group #1-Xalumab 10 mg: Participants randomized to this group will receive ...",
   ``design.arms.paragraphs``, its own stream). Bold lead lines may carry a research-plan form's
   instruction in brackets ("**Study Design** (for example, hypothesis, research question):",
   ``synopsis.leads.instructions``, its own stream).
5. ``prose.`` -- the design section: "The study consists of a screening period of up to 4
   weeks, a 12-week treatment period and ..." or "The study has three periods: ...", or no
   sentence and the synopsis naming none: a section per period, titled with its name ("3.3.1
   Screening Period", "3.3.2 Treatment Period 1") or a bold heading per period inside 3.3
   (``prose.epochs.inline``, its own random stream), or only the schema naming them (its column
   headings, vector or picture; ``prose.epochs.schema``); the ratio
   "in a 2:1 ratio" or "randomized 2:1"; the number to be screened (not the enrollment).
6. ``schema.`` -- no schema, a vector schema (boxes of epochs and arms, the words in the text
   layer) or the same drawn as a picture (the words are pixels; a reader needs OCR), in the
   summary chapter or in the design section.
7. ``interv.`` -- the study-intervention section: a table with a row per product (Name | Dose |
   Route | Frequency | Use), the same transposed (products as columns) or prose; background
   therapy and rescue medication sometimes; the drug's route; sometimes a dose modification
   section with two lower dose levels ("reduced to ..., and then to ...", "a reduced dose (... or
   ...)", "a lower dose of ... or ..."; ``interv.reductions.``), which join the drug's doses;
   sometimes a background therapy every participant must stay on, named in one place only: an
   inclusion criterion "All ... must be on a stable dose of X", "maintained on their background
   X therapy", "a daily supplement of X", or every arm's name "... + X" (``interv.mandated.``);
   or, on a stream of its own, printed with its dose, route and frequency: "All patients should
   receive X 6 mg SC once weekly ...", "X 300 mg PO once daily ... for all patients"
   (``interv.mandated.given``, ``interv.mandated.lead``). An infusion may be given on listed
   days of a cycle ("Days 1, 8 and 15 of every 28-day cycle", ``interv.frequency.days``).
   These draw from their own random streams, so the layouts without them are as they were.
8. ``pop.`` -- the age criterion ("aged 18 to 75 years, inclusive", "at least 18 years of age",
   "\u2265 12 years of age", "18 years of age or older"; or, on its own stream, no age there and
   the exclusion "Individuals < 18 years old" first, ``pop.age.excluded``), sex ("Male or female", "Women",
   "Men", "Males and postmenopausal females", or neither named and a contraception rule for each:
   "For women of childbearing potential: ...", "For men: ...", or neither named and only pregnant
   or breastfeeding women excluded, ``pop.sex.unrestricted``), healthy-volunteer studies
   ("Healthy male and female participants"), adolescents.

Truth conventions (those of the reference files): arms named as printed in the synopsis,
without "(N=..)", each with the interventions it receives (``interventions``, an addition of
this generator); placebo its own intervention with no dose; the original protocol is not an
amendment, every later version is (numbers as printed, dates ISO); planned enrollment is the
number randomized (or enrolled when nobody is randomized), never the number screened; max age
null without an upper bound; healthy volunteers true only for healthy-volunteer studies; the
indication is the disease the drug is developed for (a healthy-volunteer study prints it in
its synopsis).

The documents are drawn with make_protocol's and study_layouts' layout code, plus a bold label
running into its paragraph (:class:`Labelled`), the schema (:class:`Schema`) and text that
needs a character outside WinAnsi ("\u2265"), written with PyMuPDF's embedded Helvetica.  The
output is deterministic: the same seed gives the same PDF, byte for byte.

Usage (from the repository root)::

    python examples/design_layouts.py --out DIR --count 50 --first-seed 0

writes ``design_NNNN.pdf`` and ``design_NNNN.design.json`` (the truth) for each seed.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import random
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pymupdf

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import make_protocol as mp  # noqa: E402
import study_layouts as sl  # noqa: E402
from make_protocol import DOT, E, Grid, Lead, Listing, P, Protocol, S, Section  # noqa: E402
from study_layouts import RunOnGrid, cap, printable  # noqa: E402

FAMILIES = {
    "1 design kind": "design.",
    "2 title": "title.",
    "3 amendments": "amend.",
    "4 synopsis": "synopsis.",
    "5 design prose": "prose.",
    "6 schema": "schema.",
    "7 interventions": "interv.",
    "8 population": "pop.",
}

# Every variation a layout can record; each is reachable (tests check it over seeds 0..199).
FORMS = (
    "design.kind.single_group",
    "design.kind.parallel",
    "design.kind.crossover",
    "design.kind.escalation",
    "design.kind.factorial",
    "design.masking.open_label",
    "design.masking.single_blind",
    "design.masking.double_blind",
    "design.control.placebo",
    "design.control.active",
    "design.control.both",
    "design.control.none",
    "design.arms.dose",
    "design.arms.lettered",
    "design.arms.grouped",
    "design.arms.frequency",
    "design.sequences.two",
    "design.sequences.three",
    "design.sequences.table",
    "design.escalation.single_dose",
    "design.escalation.multiple_dose",
    "design.cohorts.table",
    "title.full",
    "title.partial",
    "title.purpose",
    "title.population.before",
    "amend.none",
    "amend.table.front",
    "amend.table.appendix",
    "amend.cover",
    "amend.boxes",
    "amend.version",
    "amend.version.rationale",
    "amend.columns.summary",
    "amend.columns.two",
    "amend.number.plain",
    "amend.number.bare",
    "amend.number.padded",
    "amend.number.version",
    "amend.number.country",
    "amend.date.dmy",
    "amend.date.abbrev",
    "amend.date.iso",
    "amend.date.mdy",
    "amend.date.numeric_mdy",
    "amend.date.numeric_dmy",
    "amend.cover.runon",
    "synopsis.table",
    "synopsis.inline",
    "synopsis.leads",
    "synopsis.leads.instructions",
    "synopsis.counts",
    "synopsis.indication",
    "synopsis.screened",
    "synopsis.screened.evaluable",
    "synopsis.products.none",
    "synopsis.arms.assigned",
    "design.arms.paragraphs",
    "prose.epochs.consists",
    "prose.epochs.periods",
    "prose.epochs.headings",
    "prose.epochs.inline",
    "prose.epochs.schema",
    "prose.ratio.in_ratio",
    "prose.ratio.bare",
    "prose.screened",
    "schema.none",
    "schema.vector",
    "schema.picture",
    "schema.place.summary",
    "schema.place.design",
    "interv.table.rows",
    "interv.table.columns",
    "interv.prose",
    "interv.reductions.to",
    "interv.reductions.restart",
    "interv.reductions.lower",
    "interv.background",
    "interv.mandated.all",
    "interv.mandated.kept",
    "interv.mandated.supplement",
    "interv.mandated.arms",
    "interv.mandated.given",
    "interv.mandated.lead",
    "interv.rescue",
    "interv.route.oral",
    "interv.route.subcutaneous",
    "interv.route.intravenous",
    "interv.frequency.days",
    "interv.route.intramuscular",
    "interv.route.inhalation",
    "pop.age.range",
    "pop.age.at_least",
    "pop.age.geq",
    "pop.age.or_older",
    "pop.age.excluded",
    "pop.sex.both",
    "pop.sex.female",
    "pop.sex.male",
    "pop.sex.qualified",
    "pop.sex.rules",
    "pop.sex.unrestricted",
    "pop.healthy",
    "pop.adolescents",
)
KINDS = ("single_group", "parallel", "crossover", "escalation", "factorial")
SYNOPSIS_FORMS = ("table", "inline", "leads")


def family_of(form: str) -> str:
    return next(name for name, prefix in FAMILIES.items() if form.startswith(prefix))


# --------------------------------------------------------------------------
# Word pools (all invented)
# --------------------------------------------------------------------------
COMP_SUFFIXES = ("oxane", "amide", "olone", "azine", "imod", "pirone")
BACKGROUND_SUFFIXES = ("formide", "statin", "pril", "olol")
RESCUE_SUFFIXES = ("terol", "fenac", "pamol")
MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


@dataclass(frozen=True)
class Route:
    cell: str  # as an intervention table prints it
    prose: str  # "taken orally"
    forms: tuple[str, ...]  # dosage forms
    freqs: tuple[str, ...]  # repeated-dose frequencies
    levels: tuple[tuple[float, ...], ...]  # dose levels of a parallel study (low to high)
    ladders: tuple[tuple[float, ...], ...]  # dose-escalation ladders
    units: tuple[str, ...]


ROUTES = {
    "oral": Route(
        "Oral",
        "taken orally",
        ("tablets", "capsules", "film-coated tablets"),
        ("once daily", "twice daily"),
        ((5, 10, 20), (10, 25, 50), (25, 50, 100), (100, 200, 400)),
        ((10, 30, 100, 300, 600), (25, 50, 100, 200, 400), (1, 3, 10, 30, 60)),
        ("mg",),
    ),
    "subcutaneous": Route(
        "Subcutaneous",
        "given by subcutaneous injection",
        ("solution for injection in a prefilled syringe", "solution for injection in a vial"),
        ("every 2 weeks", "every 4 weeks", "once weekly"),
        ((75, 150, 300), (50, 100, 200), (150, 300, 600)),
        ((30, 100, 300, 600, 900), (10, 30, 90, 180, 360)),
        ("mg",),
    ),
    "intravenous": Route(
        "Intravenous",
        "given as an intravenous infusion",
        ("concentrate for solution for infusion", "powder for solution for infusion"),
        ("every 3 weeks", "every 4 weeks"),
        ((1, 3, 10), (0.3, 1, 3)),
        ((0.1, 0.3, 1, 3, 10), (0.3, 1, 3, 6, 10)),
        ("mg/kg",),
    ),
    "intramuscular": Route(
        "Intramuscular",
        "given by intramuscular injection",
        ("suspension for injection",),
        ("every 4 weeks", "every 8 weeks"),
        ((50, 100, 150), (100, 200, 300)),
        ((25, 50, 100, 200, 300),),
        ("mg",),
    ),
    "inhalation": Route(
        "Inhalation",
        "inhaled from a dry powder inhaler",
        ("inhalation powder",),
        ("twice daily", "once daily"),
        ((50, 100, 200), (100, 200, 400)),
        ((100, 200, 400, 800, 1200),),
        ("\u00b5g", "mcg"),
    ),
}
ABBREVIATIONS = {
    "once daily": "QD",
    "twice daily": "BID",
    "once weekly": "QW",
    "every 2 weeks": "Q2W",
    "every 3 weeks": "Q3W",
    "every 4 weeks": "Q4W",
    "every 8 weeks": "Q8W",
}
USE_WORDS = {
    "investigational": ("Investigational", "Experimental", "Test product"),
    "comparator": ("Comparator", "Active comparator"),
    "placebo": ("Placebo",),
    "background": ("Background", "Background therapy"),
    "rescue": ("Rescue", "Rescue medication"),
}
SUMMARIES = (
    "Added an interim analysis of the primary endpoint.",
    "Clarified the visit windows of the treatment period.",
    "Extended the screening window and updated the exclusion criteria.",
    "Added an optional pharmacokinetic substudy at selected sites.",
    "Updated the list of prohibited concomitant medications.",
    "Revised the definition of the primary estimand.",
    "Corrected typographical errors and clarified safety reporting timelines.",
    "Removed the urine pregnancy test at follow-up visits.",
    "Added an independent review of the imaging assessments.",
    "Clarified the handling of missed doses and dose interruptions.",
)
COUNTRY_SUMMARY = "Country-specific changes requested by a national authority."

SYNOPSIS_LABELS = {
    "title": ("Title of Study", "Protocol Title", "Title"),
    "sponsor": ("Sponsor", "Name of Sponsor"),
    "phase": ("Phase", "Study Phase", "Phase of Development"),
    "indication": ("Indication", "Condition/Disease"),
    "design": ("Study Design", "Methodology", "Overall Design"),
    "population": ("Population", "Key Inclusion Criteria", "Study Population"),
    "number": ("Number of Participants", "Planned Sample Size"),
    "number_randomized": ("Number of Subjects to be Randomized",),
    "groups": ("Treatment Groups", "Arms", "Intervention Groups"),
    "groups_crossover": ("Treatment Sequences", "Arms"),
    "groups_escalation": ("Dose Cohorts", "Arms", "Treatment Groups"),
    "intervention": (
        "Study Intervention(s)",
        "Investigational Product",
        "Test Product, Dose and Mode of Administration",
    ),
    "reference": ("Reference Therapy", "Comparator"),
    "duration": ("Study Duration", "Study Periods"),
}


# --------------------------------------------------------------------------
# What a design is made of
# --------------------------------------------------------------------------
@dataclass
class Product:
    name: str  # as printed (table, synopsis)
    role: str  # investigational|comparator|placebo|background|rescue
    doses: list[str]  # printed dose strings, every level
    route: str | None  # ROUTES key, or None
    frequency: str | None  # as printed (lower case)
    form_text: str  # "tablets"
    dose_cell: str = ""  # the table's dose cell when not the doses
    per: str = ""  # "per actuation"
    mandated_only: bool = False  # named only in the sentence that mandates it (mandated_background)

    def truth(self) -> dict:
        return {
            "name": self.name,
            "role": self.role,
            "doses": list(self.doses),
            "route": self.route,
            "frequency": self.frequency,
        }


@dataclass
class Arm:
    name: str  # as printed in the synopsis
    type: str
    products: list[str]
    label: str  # what the prose calls it ("xalumab 10 mg")
    n: int | None = None  # participants
    schema: list[str] = field(default_factory=list)  # crossover: the treatment of each period


@dataclass
class Epoch:
    name: str  # as printed, "Screening Period"
    span: str  # "up to 4 weeks", "12 weeks"
    prose: str = ""  # its name in a sentence ("screening period")

    def __post_init__(self):
        if not self.prose:
            self.prose = self.name if self.name[-1].isdigit() else self.name.lower()
            if self.prose == "screening":
                self.prose = "screening period"


@dataclass(frozen=True)
class DesignProtocol(Protocol):
    """A Protocol with what make_protocol's front matter has no place for: a document history
    page between the title page and the contents (its heading and table)."""

    front: tuple = ()


@dataclass
class Labelled(mp.Para):
    """A paragraph opening with a bold label on its first line ("Study Design: ...")."""

    label: str = ""
    value: str = ""


@dataclass
class Schema(mp.Figure):
    """The study schema: epochs as columns, arms as rows (see :func:`schema_ops`)."""

    columns: list = field(default_factory=list)  # [(header lines, cells)], see schema_ops
    rows: int = 1
    arrows_down: bool = False
    size: float = 7.5  # of its words


@dataclass
class Composition:
    seed: int
    spec: DesignProtocol
    truth: dict
    forms: list[str]


# --------------------------------------------------------------------------
# Text measuring: study_layouts' fast widths, and the one non-WinAnsi character
# --------------------------------------------------------------------------
GEQ = "\u2265"
GEQ_EM = 0.549  # its advance in Helvetica (the embedded Nimbus Sans of PyMuPDF)


def _width(text: str, font: str, size: float) -> float:
    if GEQ in text:
        return sl.fast_text_width(text.replace(GEQ, ""), font, size) + text.count(GEQ) * GEQ_EM * size
    return sl.fast_text_width(text, font, size)


@contextlib.contextmanager
def widths():
    saved = mp.text_width
    mp.text_width = _width
    try:
        yield
    finally:
        mp.text_width = saved


def _labelled_lines(label: str, value: str) -> list[str]:
    """The value's printed lines after a bold label: the first beside it, then full width."""
    first_w = mp.CONTENT_W - mp.text_width(label + " ", mp.BOLD_FONT, mp.BODY_SIZE)
    words = value.split()
    first: list[str] = []
    while words and mp.text_width(" ".join(first + words[:1]), mp.BODY_FONT, mp.BODY_SIZE) <= first_w:
        first.append(words.pop(0))
    rest = mp.wrap(" ".join(words), mp.BODY_FONT, mp.BODY_SIZE, mp.CONTENT_W) if words else []
    return [" ".join(first)] + rest


def para_ok(text: str) -> bool:
    """No printed line of the paragraph `text` begins like a section number."""
    return not any(mp.NUMBER_LED.match(x) for x in mp.wrap(text, mp.BODY_FONT, mp.BODY_SIZE, mp.CONTENT_W))


def labelled_ok(label: str, value: str) -> bool:
    lines = _labelled_lines(label, value)
    if not lines[0]:
        return False
    text = f"{label} {value}"
    para = mp.wrap(text, mp.BODY_FONT, mp.BODY_SIZE, mp.CONTENT_W)
    return not any(mp.NUMBER_LED.match(x) for x in lines[1:] + para)


# --------------------------------------------------------------------------
# The document being composed
# --------------------------------------------------------------------------
def dose_text(value: float, unit: str) -> str:
    return f"{value:g} {unit}"


def join_words(items: list[str], last: str = "and") -> str:
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + f" {last} " + items[-1]


NUMBER_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven"}


class DesignDoc(sl.Doc):
    """One layout being composed: the random choices, the design and the wording."""

    def form(self, name: str) -> None:
        assert name in FORMS, name
        if name not in self.forms:
            self.forms.append(name)

    def invent(self, suffixes, taken: set[str]) -> str:
        for _ in range(50):
            name = "".join(self.pick(sl.SYLLABLES) for _ in range(self.rng.randint(2, 3)))
            name += self.pick(suffixes)
            if name not in taken and name[:4] not in {t[:4] for t in taken}:
                taken.add(name)
                return name
        raise AssertionError("no new name")

    def say(self, make, check=para_ok) -> str:
        """A sentence made by `make()` (random wording), printable and new to the document."""
        for _ in range(100):
            text = " ".join(make().split())
            if check(text) and text.lower() not in self.used:
                self.used.add(text.lower())
                return text
        raise AssertionError(f"no printable wording: {make()!r}")

    def setup(self) -> None:
        rng = self.rng
        self.kind = self.pick(
            (
                "single_group",
                "parallel",
                "parallel",
                "parallel",
                "crossover",
                "crossover",
                "escalation",
                "escalation",
                "factorial",
            )
        )
        self.disease = self.pick(sl.DISEASES)
        self.names: set[str] = set()
        if rng.random() < 0.6:
            self.drug = self.invent(sl.SUFFIXES, self.names)
        else:
            letters = "".join(rng.choice("ABCDEFGHJKLMNPRSTVXZ") for _ in range(rng.randint(2, 3)))
            self.drug = f"{letters}-{rng.randint(100, 9999)}"
            self.names.add(self.drug)
        self.Drug = cap(self.drug)
        self.healthy = self.kind == "escalation" and self.chance(0.7) or self.kind == "crossover" and self.chance(0.5)
        person = self.pick(("participant", "subject") if self.healthy else ("participant", "subject", "patient"))
        self.upper = self.chance(0.6)
        self.words = {
            "drug": self.drug,
            "Drug": self.Drug,
            "person": person,
            "Person": cap(person),
            "persons": person + "s",
            "Persons": cap(person) + "s",
            "disease": self.disease.name,
            "strat": self.disease.strat,
            "cw": self.pick((4, 12, 16)),
            "tw": self.pick((2, 4, 8)),
            "sw": self.pick((4, 8, 12)),
            "bmin": "18.0",
            "bmax": self.pick(("30.0", "32.0")),
            "dose": self.pick((10, 20, 50)),
            "comp": "placebo",
            "pop": self.disease.pop,
        }

    @property
    def persons(self) -> str:
        return self.words["persons"]


# --------------------------------------------------------------------------
# Planning the design
# --------------------------------------------------------------------------
@dataclass
class Plan:
    kind: str
    arms: list[Arm]
    products: list[Product]
    epochs: list[Epoch]
    enrollment: int
    screened: int | None
    allocation: str
    model: str
    masking: str
    ratio: str | None
    control: str  # placebo|active|both|none
    route: str
    frequency: str
    phase: str
    sex: str = "both"
    min_age: int = 18
    max_age: int | None = None
    healthy: bool = False
    per_cohort: int = 0
    treatments: dict = field(default_factory=dict)  # crossover letter -> (text, product)
    single_dose: bool = False


def _ratio_numbers(n_arms: int, doc: DesignDoc, control: str) -> list[int]:
    if n_arms == 2:
        return doc.pick(([1, 1], [1, 1], [2, 1], [3, 1]))
    if n_arms == 3:
        return doc.pick(([1, 1, 1], [1, 1, 1], [2, 2, 1]))
    return [1] * n_arms


SIZES = (
    12,
    16,
    18,
    20,
    24,
    30,
    32,
    36,
    40,
    48,
    60,
    72,
    80,
    90,
    96,
    120,
    150,
    180,
    200,
    240,
    300,
    360,
    400,
    450,
    480,
    600,
)


def _enrollment(doc: DesignDoc, parts: int, low: int, high: int) -> int:
    return doc.pick([n for n in SIZES if low <= n <= high and n % parts == 0])


def plan_design(doc: DesignDoc) -> Plan:
    kind = doc.kind
    doc.form(f"design.kind.{kind}")
    route = doc.pick(
        ("oral", "oral", "oral", "subcutaneous", "subcutaneous", "intravenous", "intramuscular", "inhalation")
    )
    if kind == "escalation" and route == "inhalation":
        route = "oral"
    r = ROUTES[route]
    doc.form(f"interv.route.{route}")
    unit = doc.pick(r.units)
    frequency = doc.pick(r.freqs)
    # its own stream: an infusion on listed days of a cycle, as chemotherapy prints it
    if route == "intravenous" and random.Random(f"days of a cycle {doc.seed}").random() < 0.35:
        frequency = random.Random(f"which days {doc.seed}").choice(DAY_LISTS)
    form_text = doc.pick(r.forms)
    drug, Drug = doc.drug, doc.Drug
    weeks = doc.pick(doc.disease.weeks)
    screen = doc.pick(("up to 4 weeks", "up to 28 days", "up to 6 weeks", "up to 35 days"))
    follow = doc.pick(("4 weeks", "2 weeks", "8 weeks", "30 days"))
    phase = doc.pick(("2", "2b", "3"))
    products: list[Product] = []
    arms: list[Arm] = []
    ratio = None
    screened = None
    control = "none"
    treatments: dict = {}
    single_dose = False
    per_cohort = 0

    def standard_epochs(masking: str, extension: bool) -> list[Epoch]:
        treat = {
            "double blind": "Double-blind Treatment Period",
            "single blind": "Treatment Period",
            "open label": doc.pick(("Treatment Period", "Open-label Treatment Period")),
        }[masking]
        if doc.chance(0.5):
            treat = "Treatment Period"
        epochs = [Epoch(doc.pick(("Screening Period", "Screening Period", "Screening")), screen)]
        if doc.chance(0.2) and kind != "single_group":
            epochs.append(Epoch("Run-in Period", doc.pick(("2 weeks", "14 days"))))
        epochs.append(Epoch(treat, f"{weeks} weeks"))
        if extension:
            epochs.append(Epoch("Open-label Extension Period", doc.pick(("52 weeks", "24 weeks"))))
        epochs.append(Epoch(doc.pick(("Follow-up Period", "Safety Follow-up Period")), follow))
        return epochs

    if kind == "single_group":
        level = doc.pick(doc.pick(r.levels))
        dose = dose_text(level, unit)
        products.append(Product(Drug, "investigational", [dose], route, frequency, form_text))
        style = doc.pick(("dose", "frequency", "treatment"))
        name = {
            "dose": f"{Drug} {dose}",
            "frequency": f"{Drug} {dose} {ABBREVIATIONS.get(frequency, '')}".strip(),
            "treatment": f"Open-label {Drug} {dose}",
        }[style]
        doc.form("design.arms.frequency" if style == "frequency" else "design.arms.dose")
        n = doc.pick((24, 30, 40, 60, 80, 120))
        arms.append(Arm(name, "experimental", [Drug], f"{drug} {dose}", n))
        masking, allocation, model = "open label", "non-randomized", "single group"
        epochs = standard_epochs(masking, doc.chance(0.25))
        enrollment = n
    elif kind in ("parallel", "factorial"):
        if kind == "factorial":
            control = "placebo"
        else:
            control = doc.pick(("placebo", "placebo", "placebo", "active", "both"))
        doc.form(f"design.control.{control}")
        levels = doc.pick(r.levels)
        if kind == "factorial":
            n_doses = 1
        elif control == "both":
            n_doses = doc.pick((1, 1, 2))
        elif control == "active":
            n_doses = doc.pick((1, 2))
        else:
            n_doses = doc.pick((1, 2, 3))
        chosen = sorted(doc.rng.sample(list(levels), n_doses))
        doses = [dose_text(v, unit) for v in chosen]
        products.append(Product(Drug, "investigational", doses, route, frequency, form_text))
        comp = None
        if control in ("active", "both"):
            comp_name = cap(doc.invent(COMP_SUFFIXES, doc.names))
            comp_dose = dose_text(doc.pick(doc.pick(r.levels)), unit)
            comp = Product(comp_name, "comparator", [comp_dose], route, frequency, doc.pick(r.forms))
        second = None
        if kind == "factorial":
            second = Product(
                cap(doc.invent(sl.SUFFIXES, doc.names)),
                "investigational",
                [dose_text(doc.pick(doc.pick(r.levels)), unit)],
                route,
                frequency,
                form_text,
            )
            products.append(second)
        if comp:
            products.append(comp)
        if control in ("placebo", "both"):
            products.append(
                Product(
                    doc.pick(("Placebo", "Placebo", "Matching placebo")), "placebo", [], route, frequency, form_text
                )
            )
        placebo = next((p for p in products if p.role == "placebo"), None)
        style = doc.pick(("dose", "lettered", "grouped", "frequency"))
        doc.form(f"design.arms.{style}")
        abbr = ABBREVIATIONS.get(frequency, "")
        raw: list[tuple[str, str, list[str], str]] = []  # (core name, type, products, prose)
        if kind == "factorial":
            d2 = second.name
            raw = [
                (f"{Drug} + {d2}", "experimental", [Drug, d2], f"{drug} plus {d2.lower()}"),
                (f"{Drug} + placebo", "experimental", [Drug, placebo.name], f"{drug} plus placebo"),
                (f"{d2} + placebo", "experimental", [d2, placebo.name], f"{d2.lower()} plus placebo"),
                ("Double placebo", "placebo comparator", [placebo.name], "placebo only"),
            ]
        else:
            for d in doses:
                core = f"{Drug} {d}" + (f" {abbr}" if style == "frequency" and abbr else "")
                raw.append((core, "experimental", [Drug], f"{drug} {d}"))
            if comp:
                core = f"{comp.name} {comp.doses[0]}" + (f" {abbr}" if style == "frequency" and abbr else "")
                raw.append((core, "active comparator", [comp.name], f"{comp.name.lower()} {comp.doses[0]}"))
            if placebo:
                raw.append(("Placebo", "placebo comparator", [placebo.name], "placebo"))
        numbers = _ratio_numbers(len(raw), doc, control) if kind != "factorial" else [1, 1, 1, 1]
        ratio = ":".join(str(x) for x in numbers)
        n = _enrollment(doc, sum(numbers), 60 if kind == "parallel" else 120, 600)
        for k, (core, typ, prods, prose) in enumerate(raw):
            if style == "lettered":
                name = f"Arm {'ABCD'[k]}: {core}"
            elif style == "grouped":
                name = f"Group {k + 1}: {core}"
            else:
                name = core
            arms.append(Arm(name, typ, prods, prose, n * numbers[k] // sum(numbers)))
        if control == "active":
            masking = doc.pick(("open label", "double blind", "single blind"))
        else:
            masking = doc.pick(("double blind",) * 5 + ("single blind",))
        allocation = "randomized"
        model = "parallel" if kind == "parallel" else "factorial"
        epochs = standard_epochs(masking, kind == "parallel" and doc.chance(0.2))
        enrollment = n
        if doc.chance(0.35):
            up, down = doc.pick(((5, 4), (4, 3), (3, 2)))  # screen failures: a fifth to a third
            screened = (n * up // down + 9) // 10 * 10
    elif kind == "crossover":
        three = doc.chance(0.35)
        doc.form(f"design.sequences.{'three' if three else 'two'}")
        control = doc.pick(("placebo", "placebo", "active")) if not three else "placebo"
        doc.form(f"design.control.{control}")
        single_dose = doc.healthy
        if single_dose:
            frequency = "single dose"
        levels = doc.pick(r.levels)
        chosen = sorted(doc.rng.sample(list(levels), 2 if three else 1))
        doses = [dose_text(v, unit) for v in chosen]
        products.append(Product(Drug, "investigational", doses, route, frequency, form_text))
        if control == "active":
            comp = Product(
                cap(doc.invent(COMP_SUFFIXES, doc.names)),
                "comparator",
                [dose_text(doc.pick(doc.pick(r.levels)), unit)],
                route,
                frequency,
                doc.pick(r.forms),
            )
            products.append(comp)
            treatments = {"A": (f"{Drug} {doses[0]}", Drug), "B": (f"{comp.name} {comp.doses[0]}", comp.name)}
        else:
            placebo = Product("Placebo", "placebo", [], route, frequency, form_text)
            products.append(placebo)
            if three:
                treatments = {
                    "A": (f"{Drug} {doses[0]}", Drug),
                    "B": (f"{Drug} {doses[1]}", Drug),
                    "C": ("Placebo", "Placebo"),
                }
            else:
                treatments = {"A": (f"{Drug} {doses[0]}", Drug), "B": ("Placebo", "Placebo")}
        sequences = ("ABC", "BCA", "CAB") if three else ("AB", "BA")
        prefix = doc.pick(("Sequence", "Sequence", "Treatment Sequence"))
        n = _enrollment(doc, len(sequences), 12 if doc.healthy else 24, 36 if doc.healthy else 72)
        # the sequences only in a table (a row per sequence, a column per period): each arm is
        # named by its row, "Sequence AB: Drug 10 mg, Placebo"
        doc.sequence_table = doc.chance(0.35)
        if doc.sequence_table:
            doc.form("design.sequences.table")
        for s in sequences:
            shown = f": {', '.join(treatments[c][0] for c in s)}" if doc.sequence_table else ""
            arms.append(
                Arm(
                    f"{prefix} {s}{shown}",
                    "experimental",
                    list(dict.fromkeys(treatments[c][1] for c in s)),
                    f"{prefix.lower()} {s}",
                    n // len(sequences),
                    [treatments[c][0] for c in s],
                )
            )
        ratio = ":".join("1" for _ in sequences)
        masking = (
            "open label"
            if control == "active" and doc.chance(0.6)
            else doc.pick(("double blind", "double blind", "single blind"))
        )
        allocation, model = "randomized", "crossover"
        period = doc.pick(("3 days", "4 days")) if single_dose else doc.pick(("2 weeks", "4 weeks", "14 days"))
        washout = doc.pick(("at least 7 days", "7 days", "14 days", "2 weeks"))
        epochs = [Epoch(doc.pick(("Screening Period", "Screening")), screen)]
        periods = 3 if three else 2
        for k in range(1, periods + 1):
            epochs.append(Epoch(f"Treatment Period {k}", period))
            if k < periods:
                epochs.append(Epoch(f"Washout Period {k}" if three else "Washout Period", washout))
        epochs.append(
            Epoch(doc.pick(("Follow-up Period", "Safety Follow-up Period")), doc.pick(("7 days", "14 days", "2 weeks")))
        )
        enrollment = n
        phase = "1" if doc.healthy else "2"
    else:  # dose escalation
        single_dose = doc.chance(0.55)
        doc.form(f"design.escalation.{'single_dose' if single_dose else 'multiple_dose'}")
        if single_dose:
            frequency = "single dose"
        ladder = doc.pick(r.ladders)
        k = doc.rng.randint(3, 5)
        levels = ladder[:k]
        doses = [dose_text(v, unit) for v in levels]
        products.append(Product(Drug, "investigational", doses, route, frequency, form_text))
        per_cohort = doc.pick((6, 8, 8, 10))
        style = doc.pick(("colon", "paren", "drug"))
        for i, d in enumerate(doses, 1):
            name = {"colon": f"Cohort {i}: {d}", "paren": f"Cohort {i} ({d})", "drug": f"Cohort {i}: {Drug} {d}"}[style]
            arms.append(Arm(name, "experimental", [Drug], f"cohort {i}", per_cohort))
        masking, allocation, model = "open label", "non-randomized", "sequential"
        treat_span = doc.pick(("1 day", "3 days")) if single_dose else doc.pick(("14 days", "28 days"))
        epochs = [
            Epoch(doc.pick(("Screening Period", "Screening")), doc.pick(("up to 28 days", "up to 21 days"))),
            Epoch(doc.pick(("Treatment Period", "Dosing Period")), treat_span),
            Epoch("Follow-up Period", doc.pick(("7 days", "14 days", "28 days"))),
        ]
        enrollment = per_cohort * k
        phase = "1"
    doc.form(f"design.masking.{masking.replace(' ', '_')}")
    if kind in ("single_group", "escalation") and "design.control.none" not in doc.forms:
        doc.form("design.control.none")
    # Population
    healthy = doc.healthy
    if healthy:
        sex = doc.pick(("both", "both", "male"))
        min_age, max_age = 18, doc.pick((45, 55, 55, 65))
    else:
        sex = doc.pick(("both",) * 8 + ("female", "male"))
        min_age = 18
        max_age = doc.pick((None, None, 65, 70, 75, 80))
        if "adolescents" in doc.disease.pop and doc.chance(0.5):
            min_age = 12
    if frequency.startswith("Days "):  # not a single-dose escalation's, which has none
        doc.form("interv.frequency.days")
    return Plan(
        kind,
        arms,
        products,
        epochs,
        enrollment,
        screened,
        allocation,
        model,
        masking,
        ratio,
        control,
        route,
        frequency,
        phase,
        sex,
        min_age,
        max_age,
        healthy,
        per_cohort,
        treatments,
        single_dose,
    )


def add_support(doc: DesignDoc, plan: Plan) -> None:
    """Background therapy and rescue medication, sometimes (patients' studies only)."""
    if plan.healthy or plan.kind == "escalation":
        return
    if doc.chance(0.3):
        doc.form("interv.background")
        name = cap(doc.invent(BACKGROUND_SUFFIXES, doc.names))
        plan.products.append(
            Product(
                name,
                "background",
                [],
                "oral",
                "as prescribed",
                "tablets",
                dose_cell=doc.pick(("Stable dose as prescribed", "As prescribed before screening")),
            )
        )
    if doc.chance(0.3):
        doc.form("interv.rescue")
        name = cap(doc.invent(RESCUE_SUFFIXES, doc.names))
        if plan.route == "inhalation" or doc.chance(0.3):
            unit = doc.pick(ROUTES["inhalation"].units)
            plan.products.append(
                Product(
                    name,
                    "rescue",
                    [dose_text(100, unit)],
                    "inhalation",
                    "as needed",
                    "inhalation aerosol",
                    per="per actuation",
                )
            )
        else:
            plan.products.append(
                Product(name, "rescue", [dose_text(doc.pick((250, 500)), "mg")], "oral", "as needed", "tablets")
            )


def mandated_background(seed: int, doc: DesignDoc, plan: Plan) -> tuple[str, str] | None:
    """For some patients' studies without a background product, a therapy every participant
    must stay on that the protocol names in one sentence only (an inclusion criterion, or the
    study intervention chapter) or only in every arm's name ("Arm B: Placebo + X"), never in
    the intervention table: (form, sentence or ""), its product added to the truth with no
    dose, route or frequency printed. Its own random stream, so the layouts without it are the
    same as before it existed."""
    rng = random.Random(f"mandated background {seed}")
    if plan.healthy or plan.kind == "escalation" or any(p.role == "background" for p in plan.products):
        return None
    if rng.random() >= 0.25:
        return None
    for _ in range(50):
        name = "".join(rng.choice(sl.SYLLABLES) for _ in range(rng.randint(2, 3))) + rng.choice(BACKGROUND_SUFFIXES)
        if name not in doc.names and name[:4] not in {t[:4] for t in doc.names}:
            break  # (not added to doc.names: the names invented after it stay as they were)
    else:
        return None
    forms = ("all", "kept", "supplement") + (("arms",) * 3 if plan.kind in ("parallel", "factorial") else ())
    form = rng.choice(forms)
    if form == "arms":  # "Arm A: Drug 10 mg + X", "Arm B: Placebo + X": every arm's name adds it
        for arm in plan.arms:
            arm.name, arm.products = f"{arm.name} + {name}", [*arm.products, name]
        plan.products.append(Product(name, "background", [], None, None, "tablets", mandated_only=True))
        return "interv.mandated.arms", ""
    persons = doc.persons
    sentence = {
        "all": f"All {persons} must be on a stable dose of {name} for at least 8 weeks before randomization.",
        "kept": f"Throughout the study, {persons} are to be maintained on their background {name} therapy.",
        "supplement": f"In addition, all {persons} should take a daily supplement of {name} throughout the study.",
    }[form]
    product = Product(name, "background", [], None, None, "tablets", mandated_only=True)
    # a stream of its own again: the product printed with its dose, route and frequency, given to
    # all ("All patients should receive X 6 mg SC once weekly ...", "X 300 mg PO once daily ... for
    # all patients")
    dosed = random.Random(f"mandated dosed {seed}")
    if dosed.random() < 0.4:
        form = dosed.choice(("given", "lead"))
        dose = dosed.choice(("6 mg", "10 mg", "300 mg"))
        route, abbr = dosed.choice((("oral", "PO"), ("subcutaneous", "SC")))
        frequency = dosed.choice(("once daily", "once weekly"))
        if form == "lead":
            name = cap(name)  # it opens the sentence
        product = Product(name, "background", [dose], route, frequency, "tablets", mandated_only=True)
        sentence = {
            "given": f"All {persons} should receive {name} {dose} {abbr} {frequency} throughout the treatment period.",
            "lead": f"{name} {dose} {abbr} {frequency} during the treatment period for all {persons}.",
        }[form]
    if not para_ok(sentence):
        return None
    plan.products.append(product)
    return f"interv.mandated.{form}", sentence


# --------------------------------------------------------------------------
# Wording
# --------------------------------------------------------------------------
def masking_word(masking: str) -> str:
    return {"open label": "open-label", "single blind": "single-blind", "double blind": "double-blind"}[masking]


def design_words(doc: DesignDoc, plan: Plan) -> list[str]:
    """The adjectives a design is described with, in the usual order (lower case)."""
    words = []
    if plan.allocation == "randomized":
        words.append("randomized")
    elif plan.kind == "escalation" or doc.chance(0.5):
        words.append("non-randomized")
    words.append(masking_word(plan.masking))
    if plan.control == "placebo":
        words.append("placebo-controlled")
    elif plan.control == "active":
        words.append("active-controlled")
    elif plan.control == "both":
        words.append("placebo- and active-controlled")
    words.append(
        {
            "parallel": "parallel-group",
            "single_group": "single-arm",
            "crossover": f"{NUMBER_WORDS[len(plan.arms[0].schema or 'ab')]}-period crossover",
            "escalation": ("single ascending dose" if plan.single_dose else "multiple ascending dose")
            + ", sequential-cohort",
            "factorial": "2 x 2 factorial",
        }[plan.kind]
    )
    return words


def title_of(doc: DesignDoc, plan: Plan) -> str:
    """A title whose every printed line reads as text ("... in Patients with Type" over "2
    Diabetes Mellitus" would start a line like a section number): another pick otherwise."""
    for _ in range(50):
        form, title = _title(doc, plan)
        if para_ok(title):
            doc.form(f"title.{form}")
            return title
    raise AssertionError(f"no printable title: {title!r}")


def _title(doc: DesignDoc, plan: Plan) -> tuple[str, str]:
    form = doc.pick(("full", "full", "partial", "purpose"))
    who = population_title(doc, plan)
    if form == "purpose":
        what = (
            "Safety, Tolerability and Pharmacokinetics"
            if plan.healthy or plan.kind == "escalation"
            else doc.pick(("Efficacy and Safety", "Efficacy, Safety and Tolerability"))
        )
        versus = {
            "placebo": " Compared With Placebo",
            "active": " Compared With an Active Comparator",
            "both": " Compared With Placebo and an Active Comparator",
        }.get(plan.control, "")
        return form, f"A Study to Evaluate the {what} of {doc.Drug}{versus} in {who}"
    words = design_words(doc, plan)
    if form == "partial":
        keep = sorted(doc.rng.sample(range(len(words)), doc.rng.randint(1, max(1, len(words) - 1))))
        words = [words[k] for k in keep]
    words = [
        " ".join("-".join(cap(p) for p in w.split("-")) if w not in ("and", "x") else w for w in phrase.split(" "))
        for phrase in words
    ]
    phase = f"A Phase {plan.phase}, " if form == "full" or doc.chance(0.5) else "A "
    return form, f"{phase}{', '.join(words)} Study of {doc.Drug} in {who}"


def population_title(doc: DesignDoc, plan: Plan) -> str:
    if plan.healthy:
        return {"male": "Healthy Male Participants", "both": "Healthy Participants"}.get(
            plan.sex, "Healthy Participants"
        )
    who = {"female": "Women", "male": "Men"}.get(plan.sex) or doc.pick(("Adults", "Participants", "Patients"))
    if plan.min_age < 18:
        who = "Adolescents and Adults"
    # its own stream: "in Senior Adult Plaque Psoriasis Patients", who has it around the disease
    qualified = random.Random(f"title population {doc.seed}")
    if plan.min_age >= 18 and qualified.random() < 0.2:
        doc.form("title.population.before")
        return f"{qualified.choice(('Adult', 'Elderly', 'Senior Adult'))} {doc.disease.title} Patients"
    return f"{who} with {doc.disease.title}"


def population_phrase(doc: DesignDoc, plan: Plan) -> str:
    """Who is studied, in a sentence ("adults with moderate to severe asthma")."""
    if plan.healthy:
        return {"male": "healthy male participants"}.get(plan.sex, "healthy participants")
    who = {"female": "women", "male": "men"}.get(plan.sex, "adults")
    if plan.min_age < 18:
        who = "adolescents and adults"
    return f"{who} with {doc.disease.name}"


def sex_form(doc: DesignDoc, plan: Plan) -> str:
    """How a patient study of both sexes says so, chosen once: naming both ("Male or female
    patients"), naming both with a qualifier between ("Males and postmenopausal females"), or
    naming neither and setting a rule for each ("For women of childbearing potential: ...",
    "For men: ..."), or naming neither and excluding pregnant or breastfeeding women only
    (``pop.sex.unrestricted``: nothing limits the study to one sex)."""
    if getattr(doc, "sex_wording", None) is None:
        doc.sex_wording = "named"
        if plan.sex == "both" and not plan.healthy:
            doc.sex_wording = doc.pick(("named", "named", "qualified", "rules"))
            # its own stream: the layouts that keep naming both stay as they were
            if doc.sex_wording == "named" and random.Random(f"unrestricted sex {doc.seed}").random() < 0.3:
                doc.sex_wording = "unrestricted"
            if doc.sex_wording != "named":
                doc.form(f"pop.sex.{doc.sex_wording}")
    return doc.sex_wording


PREGNANCY_EXCLUSION = "Women who are pregnant or breastfeeding, or who plan to become pregnant during the study."
SEX_RULES = (
    "For women of childbearing potential: agreement to remain abstinent or to use a highly "
    "effective method of contraception during the treatment period and for 30 days after the "
    "final dose.",
    "For men: agreement to remain abstinent or to use a condom, and to refrain from donating "
    "sperm, during the treatment period and for 90 days after the final dose.",
)


def who_words(doc: DesignDoc, plan: Plan) -> str:
    persons = doc.persons
    form = sex_form(doc, plan)
    if form == "qualified":
        return "Males and postmenopausal females"
    if form in ("rules", "unrestricted"):
        return cap(persons)
    if plan.healthy:
        return {
            "both": doc.pick(("Healthy male and female participants", f"Healthy male or female {persons}")),
            "male": doc.pick(("Healthy male participants", "Healthy men")),
        }[plan.sex]
    return {
        "both": doc.pick((f"Male or female {persons}", "Men and women", f"Male and female {persons}")),
        "female": doc.pick(("Women", f"Female {persons}")),
        "male": doc.pick(("Men", f"Male {persons}")),
    }[plan.sex]


def age_criterion(doc: DesignDoc, plan: Plan) -> str:
    """The inclusion criterion giving age and sex (its numbers are the truth's)."""
    lo, hi = plan.min_age, plan.max_age
    if hi is not None:
        form = "range"
    else:
        form = doc.pick(("at_least", "geq", "or_older"))
        # its own stream: no inclusion criterion gives the age, an exclusion keeps the younger out
        own = random.Random(f"excluded age {doc.seed}")
        if own.random() < 0.2:
            form = "excluded"
            doc.age_exclusion = own.choice(
                (
                    f"Individuals < {lo} years old",
                    f"Age under {lo} years",
                    f"{doc.words['Persons']} younger than {lo} years",
                )
            )
    doc.form(f"pop.age.{form}")
    doc.form(f"pop.sex.{plan.sex}")
    if plan.healthy:
        doc.form("pop.healthy")
    if lo < 18:
        doc.form("pop.adolescents")

    def make():
        who = who_words(doc, plan)
        when = doc.pick(("at the time of signing the informed consent form", "at screening", "at the screening visit"))
        if form == "range":
            return doc.pick(
                (
                    f"{who} aged {lo} to {hi} years, inclusive, {when}.",
                    f"{who} between {lo} and {hi} years of age, inclusive, {when}.",
                )
            )
        if form == "at_least":
            return f"{who} at least {lo} years of age {when}."
        if form == "geq":
            return f"{who} {GEQ} {lo} years of age {when}."
        if form == "excluded":
            return f"{who} able to understand and comply with the study procedures."
        return f"{who} aged {lo} years or older {when}."

    return doc.say(make, printable)


def age_phrase(plan: Plan) -> str:
    lo, hi = plan.min_age, plan.max_age
    return f"aged {lo} to {hi} years" if hi is not None else f"aged {lo} years or older"


def period_phrase(doc: DesignDoc, e: Epoch) -> str:
    """An epoch in the "consists of" sentence: "a 12-week treatment period", "Treatment Period
    1 (14 days)", "a screening period of up to 4 weeks"."""
    if e.name[-1].isdigit():
        return f"{e.name} ({e.span})"
    parts = e.span.split()
    if len(parts) == 2 and parts[0].isdigit() and doc.chance(0.5):
        return f"a {parts[0]}-{parts[1].rstrip('s')} {e.prose}"
    article = "an" if e.prose[0] in "aeiou" else "a"
    return f"{article} {e.prose} of {e.span}"


# frequencies of an infusion given on listed days of a cycle (interv.frequency.days)
DAY_LISTS = (
    "Days 1, 8 and 15 of every 28-day cycle",
    "Days 1 and 8 of every 21-day cycle",
    "Days 1, 8 and 15 of every 21-day cycle",
)


def freq_prose(frequency: str | None) -> str:
    if frequency == "single dose":
        return "as a single dose"
    if frequency and frequency.startswith("Days "):
        return "on " + frequency
    return frequency or ""


def ratio_clause(doc: DesignDoc, plan: Plan) -> str:
    if doc.chance(0.5):
        doc.form("prose.ratio.in_ratio")
        return f"in a {plan.ratio} ratio"
    doc.form("prose.ratio.bare")
    return plan.ratio


# --------------------------------------------------------------------------
# Sections
# --------------------------------------------------------------------------
def assigned_arms(doc: DesignDoc, plan: Plan) -> bool:
    """Whether this layout lists its arms only in the section assigning participants to them
    (no synopsis field of arms): randomized parallel studies whose arms are labelled ("Arm A:
    ...", "Group 1: ..."), on their own random stream so that every other layout stays as it was."""
    labelled = all(re.match(r"(?:Arm|Group) \w+: ", a.name) for a in plan.arms)
    return (
        plan.kind == "parallel"
        and plan.allocation == "randomized"
        and labelled
        and random.Random(f"assigned arms {doc.seed}").random() < 0.5
    )


def assignment_section(doc: DesignDoc, plan: Plan, number: str) -> Section:
    """ "5.3 Treatment Assignment": a sentence, then the arms a line each, their count after the
    name ("Arm A: Xalumab 10 mg (N=80)") or none; drawn from the layout's own stream."""
    rng = random.Random(f"assignment section {doc.seed}")
    title = rng.choice(("Treatment Assignment", "Method of Treatment Assignment", "Treatment Assignment/Randomization"))
    intro = rng.choice(
        (
            f"{doc.words['Persons']} will be randomized to the treatment groups shown below:",
            f"Using an interactive response system, {doc.persons} are randomly assigned "
            "to one of the following groups:",
        )
    )
    mark = rng.choice(("\u2022", "-"))
    counts = rng.random() < 0.6
    # its own stream: each arm's label heading a paragraph about it ("Group #1-Xalumab 10 mg:
    # Participants randomized to this group will receive ..."), as investigators' plans print them
    paragraphs = random.Random(f"assignment paragraphs {doc.seed}")
    if paragraphs.random() < 0.4:
        doc.form("design.arms.paragraphs")
        return S(number, title, P(intro), *[P(arm_paragraph(doc, a.name, paragraphs)) for a in plan.arms])
    lines = [E(mark, a.name + (f" (N={a.n})" if counts and a.n else "")) for a in plan.arms]
    return S(number, title, P(intro), Listing(lines))


def arm_paragraph(doc: DesignDoc, name: str, rng: random.Random) -> str:
    """An arm's label, then what its participants do: "Group#1-Xalumab 10 mg: Participants
    randomized to this group will receive Xalumab 10 mg ..." (the name "Group 1: Xalumab 10 mg")."""
    label, what = name.split(": ", 1)
    word, key = label.split(" ", 1)
    label = rng.choice((label, f"{word} #{key}", f"{word}#{key}")) if key.isdigit() else label
    given = rng.choice(("receive", "start", "be given"))
    dash = rng.choice(("-", " - ", " \u2013 "))
    return (
        f"{label}{dash}{what}: {doc.words['Persons']} randomized to this "
        f"{word.lower()} will {given} {what} and will be followed until the end of the study."
    )


def synopsis_fields(doc: DesignDoc, plan: Plan, title: str, sponsor: str, counts: bool):
    """(label, value) pairs: a value is a function giving one random wording of it (tried until
    it prints well) or a list, printed a line (or bullet) per item."""
    persons = doc.persons
    fields: list = [
        (doc.pick(SYNOPSIS_LABELS["title"]), lambda: title),
        (doc.pick(SYNOPSIS_LABELS["sponsor"]), lambda: sponsor),
        (doc.pick(SYNOPSIS_LABELS["phase"]), lambda: f"Phase {plan.phase}"),
    ]
    if plan.healthy or doc.chance(0.6):
        doc.form("synopsis.indication")
        fields.append(
            (
                doc.pick(SYNOPSIS_LABELS["indication"]),
                lambda: doc.pick((cap(doc.disease.name), cap(doc.disease.name) + ".")),
            )
        )

    def design():
        centres = "" if plan.healthy else doc.pick((", multicentre", ", multicenter", ""))
        return cap(", ".join(design_words(doc, plan))) + f"{centres} study in {population_phrase(doc, plan)}"

    fields.append((doc.pick(SYNOPSIS_LABELS["design"]), design))
    fields.append(
        (
            doc.pick(SYNOPSIS_LABELS["population"]),
            lambda: (
                f"{who_words(doc, plan)} {age_phrase(plan)}" + ("" if plan.healthy else f" with {doc.disease.name}")
            ),
        )
    )
    verb = "randomized" if plan.allocation == "randomized" else "enrolled"
    label = doc.pick(SYNOPSIS_LABELS["number"] + (SYNOPSIS_LABELS["number_randomized"] if verb == "randomized" else ()))
    n = plan.enrollment
    if plan.screened and doc.chance(0.5):
        doc.form("synopsis.screened")
        groups = len(plan.arms)
        # its own stream: the evaluable count per group after the number randomized
        if verb == "randomized" and groups >= 2 and random.Random(f"evaluable per group {doc.seed}").random() < 0.6:
            doc.form("synopsis.screened.evaluable")
            per_group = n // groups * 9 // 10
            group = random.Random(f"evaluable group word {doc.seed}").choice(
                ("intervention group", "treatment group", "arm")
            )
            fields.append(
                (
                    label,
                    lambda: (
                        f"{doc.pick(('Approximately', 'About', 'Up to'))} {plan.screened} {persons} will be "
                        f"screened to achieve {n} randomized {persons} for "
                        f"{doc.pick(('an estimated total of', 'a total of'))} {per_group} evaluable "
                        f"{persons} per {group}"
                    ),
                )
            )
        else:
            fields.append(
                (
                    label,
                    lambda: doc.pick(
                        (
                            f"Approximately {plan.screened} {persons} screened and {n} {verb}",
                            f"About {plan.screened} {persons} will be screened so that {n} can be {verb}",
                        )
                    ),
                )
            )
    elif plan.kind == "escalation":
        fields.append((label, lambda: f"Up to {n} {persons} ({plan.per_cohort} per cohort)"))
    elif label.endswith("Randomized"):
        fields.append((label, lambda: doc.pick((f"Approximately {n}", f"{n}"))))
    else:
        fields.append(
            (
                label,
                lambda: doc.pick(
                    (f"Approximately {n} {persons}", f"{n} {persons}", f"Approximately {n} {persons} will be {verb}")
                ),
            )
        )
    key = {"crossover": "groups_crossover", "escalation": "groups_escalation"}.get(plan.kind, "groups")
    if getattr(doc, "sequence_table", False):
        pass
    elif assigned_arms(doc, plan):
        doc.form("synopsis.arms.assigned")
    else:
        fields.append(
            (doc.pick(SYNOPSIS_LABELS[key]), [a.name + (f" (N={a.n})" if counts and a.n else "") for a in plan.arms])
        )
    investigational = [p for p in plan.products if p.role == "investigational"]

    def given(p: Product) -> str:
        how = f"{ROUTES[p.route].prose} {freq_prose(p.frequency)}"
        doses = join_words(p.doses, "or")
        return doc.pick(
            (
                f"{p.name} {doses} {p.form_text}, {how}",
                f"{p.name} {p.form_text} ({doses}), {how}",
                f"{p.name} {doses} as {p.form_text} {how}",
                f"{p.name}, {doses}, {how}",
            )
        )

    # Its own random stream, so that the layouts of every other seed stay as they were.
    if random.Random(f"products-{doc.seed}").random() < 0.25:
        doc.form("synopsis.products.none")
    else:
        fields.append((doc.pick(SYNOPSIS_LABELS["intervention"]), lambda: "; ".join(given(p) for p in investigational)))
    refs = [p for p in plan.products if p.role in ("comparator", "placebo")]
    if refs and "synopsis.products.none" not in doc.forms:
        drug = investigational[0]

        def reference():
            texts = []
            for p in refs:
                how = f"{ROUTES[p.route].prose} {freq_prose(p.frequency)}"
                if p.role == "placebo":
                    texts.append(
                        doc.pick(
                            (f"{p.name} {p.form_text} matching {drug.name}, {how}", f"{p.name} ({p.form_text}), {how}")
                        )
                        if p.name == "Placebo"
                        else f"{p.name} ({p.form_text}), {how}"
                    )
                else:
                    texts.append(given(p))
            return "; ".join(texts)

        fields.append((doc.pick(SYNOPSIS_LABELS["reference"]), reference))
    if doc.epochs_form == "headings":
        fields.append(
            (
                doc.pick(SYNOPSIS_LABELS["duration"]),
                lambda: doc.pick(
                    (
                        "The periods of the study and their visits are described in Section 3.3.",
                        "Section 3.3 describes each period of the study.",
                    )
                ),
            )
        )
    elif doc.epochs_form == "schema":
        fields.append(
            (
                doc.pick(SYNOPSIS_LABELS["duration"]),
                lambda: doc.pick(
                    (
                        "Figure 1 shows the periods of the study and how long each lasts.",
                        "The schema in Figure 1 gives each period of the study and its length.",
                    )
                ),
            )
        )
    else:
        fields.append((doc.pick(SYNOPSIS_LABELS["duration"]), [f"{e.name}: {e.span}" for e in plan.epochs]))
    return fields


def synopsis_blocks(doc: DesignDoc, fields, form: str, plan_spans: tuple = ()) -> list:
    """The synopsis in `form`; `plan_spans` tells the list of periods (its items end with one)
    from the list of arms."""
    doc.form(f"synopsis.{form}")
    if form == "table":
        values = [(label, "\n".join(v) if isinstance(v, list) else doc.say(v, lambda t: True)) for label, v in fields]
        head, rows = values[0], values[1:]
        first = doc.pick((130, 140, 150))
        return [
            RunOnGrid(
                doc.pick(("", "", "Table 1: Protocol Synopsis")),
                [head[0], head[1]],
                [first, mp.CONTENT_W - first],
                [list(r) for r in rows],
            )
        ]
    blocks: list = []
    # its own stream: the labels of a form, each with the form's instruction in brackets
    instructed = form == "leads" and random.Random(f"form instructions {doc.seed}").random() < 0.35
    if instructed:
        doc.form("synopsis.leads.instructions")
    for label, value in fields:
        label += ":"
        if isinstance(value, list):
            if form == "inline":
                periods = value[0].endswith(plan_spans) if plan_spans else False
                intro = doc.say(
                    lambda: doc.pick(
                        ("The study has these periods:", "Periods and their lengths:", "As follows:")
                        if periods
                        else (
                            "The study has the following groups:",
                            f"{doc.words['Persons']} are assigned to one of:",
                            "As follows:",
                        )
                    )
                )
                blocks.append(Labelled(f"{label} {intro}", label=label, value=intro))
            else:
                blocks.append(Lead(label))
            blocks.append(Listing([E(DOT, v) for v in value]))
        elif form == "inline":
            try:
                text = doc.say(value, lambda t: labelled_ok(label, t))
            except AssertionError:  # no wording wraps beside the label without a line that
                blocks += [Lead(label), P(doc.say(value))]  # reads as a number: a lead instead
                continue
            blocks.append(Labelled(f"{label} {text}", label=label, value=text))
        elif instructed:
            # an IRB form's field: the bold label, the form's instruction in brackets, the colon
            note = f"({random.Random(f'form instruction {doc.seed} {label}').choice(FORM_INSTRUCTIONS)}):"
            blocks += [Labelled(f"{label[:-1]} {note}", label=label[:-1], value=note), P(doc.say(value))]
        else:
            blocks += [Lead(label), P(doc.say(value))]
    return blocks


# What a research-plan form asks under each label, printed after it in brackets
FORM_INSTRUCTIONS = (
    "for example, hypothesis, research question, standard and experimental procedures",
    "describe briefly",
    "e.g. justification for sample size or the number of participants",
    "include amount and frequency where it applies",
    "see the instructions on page 1",
)


def design_prose(doc: DesignDoc, plan: Plan) -> list:
    """The overall design in two paragraphs: what the study is and who receives what; its
    periods, perhaps the number to be screened, and one more sentence."""
    persons = doc.persons
    drug = doc.drug
    n = plan.enrollment
    arms = plan.arms
    ratio = ratio_clause(doc, plan) if plan.allocation == "randomized" else ""

    def about():
        return doc.pick(("Approximately", "About", "Around"))

    def will():
        return doc.pick(("will be", "are to be"))

    def s1():
        phase = f"Phase {plan.phase}, " if doc.chance(0.4) else ""
        return (
            f"This is a {phase}{', '.join(design_words(doc, plan))} study of {drug} in {population_phrase(doc, plan)}."
        )

    if plan.kind == "single_group":
        a = arms[0]

        def s2():
            return doc.pick(
                (
                    f"{about()} {n} {persons} {will()} enrolled and will all receive {a.label} "
                    f"{freq_prose(plan.frequency)}.",
                    f"All {persons} receive {a.label} {freq_prose(plan.frequency)}; "
                    f"{about().lower()} {n} {persons} {will()} enrolled.",
                )
            )
    elif plan.kind == "escalation":
        doses = plan.products[0].doses
        k = NUMBER_WORDS[len(arms)]

        def s2():
            first = doc.pick(
                (
                    f"Up to {n} {persons} {will()} enrolled in {k} sequential cohorts of "
                    f"{plan.per_cohort} {persons} each.",
                    f"{k.capitalize()} cohorts of {plan.per_cohort} {persons} each {will()} enrolled "
                    f"one after another, up to {n} {persons} in all.",
                )
            )
            listed = doc.pick(
                (join_words(doses), join_words([d.split()[0] for d in doses]) + " " + doses[0].split()[1])
            )
            second = doc.pick(
                (
                    f"Each cohort receives {drug} {freq_prose(plan.frequency)} at a higher dose "
                    f"than the cohort before: {listed}.",
                    f"The doses of {drug} planned for the cohorts, in order, are {listed}, each "
                    f"given {freq_prose(plan.frequency).replace('as a ', 'as one ')}.",
                )
            )
            return f"{first} {second}"
    elif plan.kind == "crossover":
        seqs = join_words([a.name for a in arms], "or")
        letters = sorted(plan.treatments)

        if getattr(doc, "sequence_table", False):
            seqs = "listed in the table below"

        def s2():
            first = (
                f"{about()} {n} {persons} {will()} randomized {ratio} to one of "
                f"{NUMBER_WORDS[len(arms)]} treatment sequences ({seqs})."
            )
            named = {c: "placebo" if t == "Placebo" else t for c, (t, _) in plan.treatments.items()}
            treats = join_words([f"Treatment {c} ({named[c]})" for c in letters], "or")
            second = doc.pick(
                (
                    f"In each period {persons} receive {treats} {freq_prose(plan.frequency)}.",
                    f"The treatments are {treats}, given {freq_prose(plan.frequency)} in each period.".replace(
                        " or ", " and "
                    ),
                )
            )
            return f"{first} {second}"
    else:
        options = join_words(
            [
                a.label
                + ("" if a.type != "experimental" or plan.kind == "factorial" else f" {freq_prose(plan.frequency)}")
                for a in arms
            ],
            "or",
        )
        if plan.control in ("placebo", "both") and plan.kind == "parallel" and doc.chance(0.5):
            options = options.replace(" or placebo", " or matching placebo")
        tail = " in a 2 x 2 factorial design" if plan.kind == "factorial" else ""

        def s2():
            return f"{about()} {n} {persons} {will()} randomized {ratio} to receive {options}{tail}."

    form = doc.epochs_form
    doc.form(f"prose.epochs.{form}")

    def s3():
        if form == "headings":
            return ""
        if form == "schema":
            return doc.pick(
                (
                    "Figure 1 shows how the study runs from screening to the last visit.",
                    "The course of the study is drawn in Figure 1.",
                )
            )
        if form == "consists":
            return (
                doc.pick(
                    (
                        "The study consists of ",
                        "Each participant goes through ",
                        "The study comprises ",
                        f"{doc.words['Persons']} pass through ",
                    )
                )
                + join_words([period_phrase(doc, e) for e in plan.epochs])
                + "."
            )
        count = NUMBER_WORDS[len(plan.epochs)]
        return (
            doc.pick(
                (
                    f"The study has {count} periods: ",
                    f"There are {count} study periods: ",
                    f"{cap(count)} periods make up the study: ",
                )
            )
            + join_words(
                [
                    f"{e.prose.replace(' period', '')} ({e.span})"
                    if not e.name[-1].isdigit()
                    else f"{e.name} ({e.span})"
                    for e in plan.epochs
                ]
            )
            + "."
        )

    screened = plan.screened and doc.chance(0.6)
    if screened:
        doc.form("prose.screened")

    def s4():
        if not screened:
            return ""
        return doc.pick(
            (
                f"Allowing for screen failures, {about().lower()} {plan.screened} "
                f"{persons} are expected to be screened.",
                f"It is expected that {about().lower()} {plan.screened} {persons} will need to be screened.",
            )
        )

    fillers = {
        "parallel": [
            "Randomization will be stratified by region and by {strat}.",
            "An independent data monitoring committee will review unblinded safety data at regular intervals.",
        ],
        "factorial": [
            "Randomization will be stratified by region.",
            "Each factor is tested against its own placebo in the analysis.",
        ],
        "single_group": ["All {persons} who complete treatment return for a final safety visit."],
        "crossover": [
            "The washout between periods lasts at least five half-lives of {drug}.",
            "Each {person} serves as their own control.",
        ],
        "escalation": [
            "A safety review committee reviews the data of each cohort before the next dose is given.",
            "Sentinel dosing is used in every cohort: two {persons} are dosed first.",
        ],
    }[plan.kind]
    filler = doc.fill(doc.pick(fillers))

    def second():
        parts = [s3(), s4()]
        return " ".join(x for x in ([filler] + parts if doc.chance(0.5) else parts + [filler]) if x)

    return [P(doc.say(lambda: f"{s1()} {s2()}")), P(doc.say(second))]


def sequence_table(doc: DesignDoc, plan: Plan) -> Grid:
    """A crossover's sequences as a table: "Sequence | Period 1 | Period 2", a row per
    sequence ("AB | Drug 10 mg | Placebo")."""
    head, periods = plan.arms[0].name.split(":")[0].split()[:-1], len(plan.arms[0].schema)
    first = 150
    rest = (mp.CONTENT_W - first) / periods
    rows = [[a.name.split(":")[0].split()[-1], *a.schema] for a in plan.arms]
    return Grid(
        doc.caption("Treatment Sequences"),
        [" ".join(head)] + [f"Period {k}" for k in range(1, periods + 1)],
        [first] + [rest] * periods,
        rows,
    )


def cohort_table(doc: DesignDoc, plan: Plan) -> Grid:
    doc.form("design.cohorts.table")
    rows = [[f"Cohort {k}", d, str(plan.per_cohort)] for k, d in enumerate(plan.products[0].doses, 1)]
    return Grid(
        doc.caption("Planned Dose Cohorts"),
        ["Cohort", f"Dose of {doc.Drug}", "Number of Participants"],
        [156, 156, 156],
        rows,
    )


def intervention_blocks(doc: DesignDoc, plan: Plan) -> list:
    form = doc.pick(("rows", "rows", "columns", "prose"))
    products = [p for p in plan.products if not p.mandated_only]
    if form == "columns" and len(products) > 4:
        form = "rows"  # five products as columns leave a long name no room
    drug = products[0]

    def dose_cell(p: Product, sep: str) -> str:
        if p.role == "placebo":
            return doc.pick(("Not applicable", "N/A", "Matching placebo"))
        if not p.doses:
            return p.dose_cell
        return sep.join(p.doses) + (f" {p.per}" if p.per else "")

    abbreviate = doc.chance(0.3)

    def freq_cell(p: Product) -> str:  # the abbreviation once (a repeated cell is a repeated sentence)
        f = cap(p.frequency or "")
        if f.startswith("Days ") and p is not drug:  # a day list again in other words
            f = ("On ", "Given on ", "Infused on ")[min(products.index(p), 3) - 1] + f
        abbr = ABBREVIATIONS.get(p.frequency or "")
        return f"{f} ({abbr})" if abbr and abbreviate and p is drug else f

    def use_cell(p: Product) -> str:
        return doc.pick(USE_WORDS[p.role])

    if form in ("rows", "columns"):
        doc.form(f"interv.table.{form}")
        sep = doc.pick((", ", " or ", "\n"))
        heads = doc.pick(
            (
                ("Intervention Name", "Dose", "Route", "Frequency", "Use"),
                ("Study Intervention", "Dosage Level(s)", "Route of Administration", "Dosing Frequency", "Type"),
                ("Product", "Unit Dose Strength(s)", "Route", "Regimen", "Use"),
            )
        )
        cells = [[p.name, dose_cell(p, sep), ROUTES[p.route].cell, freq_cell(p), use_cell(p)] for p in products]
        title = doc.caption(
            doc.pick(("Study Interventions", "Study Interventions Administered", "Investigational and Other Products"))
        )
        if form == "rows":
            return [Grid(title, list(heads), [110, 100, 90, 92, 76], cells)]
        first = 110
        rest = mp.CONTENT_W - first
        widths = [rest // len(products)] * len(products)
        widths[-1] = rest - sum(widths[:-1])
        rows = [[heads[k]] + [c[k] for c in cells] for k in range(1, 5)]
        return [Grid(title, [heads[0]] + [c[0] for c in cells], [first] + widths, rows)]
    doc.form("interv.prose")
    blocks = []
    for p in products:
        route = ROUTES[p.route].prose if p.route else ""
        freq = freq_prose(p.frequency)
        will = lambda: doc.pick(("is", "will be"))  # noqa: E731
        if p.role in ("investigational", "comparator") and len(p.doses) > 1:

            def make(p=p, route=route, freq=freq):
                return f"{p.name} is supplied as {join_words(p.doses)} {p.form_text} and {will()} {route} {freq}."
        elif p.role in ("investigational", "comparator"):
            tail = " as the active comparator." if p.role == "comparator" else "."

            def make(p=p, route=route, freq=freq, tail=tail):
                return doc.pick(
                    (
                        f"{p.name} {p.doses[0]} ({p.form_text}) {will()} {route} {freq}{tail}",
                        f"{p.name} is supplied as {p.doses[0]} {p.form_text} and {will()} {route} {freq}{tail}",
                    )
                )
        elif p.role == "placebo":

            def make(p=p, route=route, freq=freq):
                return doc.pick(
                    (
                        f"{p.name} {p.form_text}, identical in appearance to {drug.name}, are {route} {freq}.",
                        f"{p.name} {p.form_text} that look the same as those of {drug.name} are {route} {freq}.",
                    )
                )
        elif p.role == "background":

            def make(p=p):
                return doc.pick(
                    (
                        f"All {doc.persons} continue their oral background therapy with {p.name} as "
                        f"prescribed before screening.",
                        f"{doc.words['Persons']} keep taking oral {p.name} as prescribed before "
                        f"screening as background therapy.",
                    )
                )
        else:
            how = "inhaled" if p.route == "inhalation" else "taken orally"

            def make(p=p, how=how):
                return doc.pick(
                    (
                        f"{p.name} ({p.doses[0]}{' ' + p.per if p.per else ''}) may be {how} as needed "
                        f"for the relief of symptoms and is supplied by the sponsor.",
                        f"As rescue medication, {p.name} ({p.doses[0]}{' ' + p.per if p.per else ''}) "
                        f"may be {how} as needed.",
                    )
                )

        blocks.append(P(doc.say(make)))
    return blocks


REDUCTION_TITLES = ("Dose Modification", "Dose Reductions", "Dose Modifications and Interruptions", "Dose Adjustment")


def dose_reductions(seed: int, plan: Plan) -> tuple[str, str, str] | None:
    """For some layouts, a dose modification section printing two lower dose levels of the
    investigational product, which join its doses in the truth: (form, title, sentence), or
    None. Its own random stream, so the layouts without it are the same as before it existed."""
    rng = random.Random(f"dose reductions {seed}")
    drug = next((p for p in plan.products if p.role == "investigational" and p.doses), None)
    if plan.kind == "escalation" or drug is None or rng.random() >= 0.3:
        return None
    m = re.fullmatch(r"(\d+(?:\.\d+)?) (\S+)", min(drug.doses, key=lambda d: float(d.split()[0])))
    if not m:
        return None
    value, unit = float(m[1]), m[2]
    steps = [value * 0.75, value * 0.5]
    lower = [dose_text(round(v) if value >= 10 else round(v, 1), unit) for v in steps if round(v, 1) > 0]
    lower = [d for d in dict.fromkeys(lower) if d not in drug.doses]
    if len(lower) != 2:
        return None
    # "study drug" names the product only where the study has one investigational product
    alone = sum(p.role == "investigational" for p in plan.products) == 1
    form = rng.choice(("to", "restart", "lower") if alone else ("to", "lower"))
    first = drug.doses[0]
    sentence = {
        "to": f"If {drug.name} is not tolerated, its dose may be reduced to {lower[0]}, and then to {lower[1]}.",
        "restart": f"Study drug may be restarted at the original dose ({first}) or a reduced dose "
        f"({lower[0]} or {lower[1]}).",
        "lower": f"{drug.name} may be given at a lower dose of {lower[0]} or {lower[1]} after a toxicity of grade 3.",
    }[form]
    if not para_ok(sentence):
        return None
    drug.doses += lower
    return f"interv.reductions.{form}", rng.choice(REDUCTION_TITLES), sentence


def criteria_lists(doc: DesignDoc, plan: Plan, last: str | None = None) -> tuple[list[mp.Entry], list[mp.Entry]]:
    """Inclusion and exclusion criteria numbered "1.", the age criterion first or second;
    ``last`` an inclusion criterion added at the end."""
    age = age_criterion(doc, plan)
    inc_texts = []
    for group, text, subs, _ in sl.INCLUSION:
        if "aged" in text or group == "labs" and not plan.healthy:
            continue
        t = doc.fill(text)
        if plan.sex == "male" and t.startswith("Female"):
            continue
        if plan.sex == "female" and t.startswith("Male"):
            continue
        inc_texts.append((t, [doc.fill(s) for s in subs[:3]]))
    if plan.healthy:
        inc_texts += [(doc.fill(t), []) for _, t, _, _ in sl.HEALTHY_INCLUSION]
    else:
        inc_texts += [(doc.fill(t), []) for t in doc.disease.inclusion]
    inc_texts = [x for x in inc_texts if printable(x[0]) and all(printable(s) for s in x[1])]
    if sex_form(doc, plan) in ("rules", "unrestricted"):  # no criterion names a sex
        inc_texts = [x for x in inc_texts if not re.match(r"(?:Fem|M)ales?\b", x[0])]
    chosen = doc.rng.sample(inc_texts, min(len(inc_texts), doc.rng.randint(3, 5)))
    chosen.insert(doc.pick((0, 1)), (age, []))
    if sex_form(doc, plan) == "rules":
        chosen += [(rule, []) for rule in SEX_RULES]
    if last:
        chosen.append((last, []))
    exc_pool = sl.HEALTHY_EXCLUSION if plan.healthy else sl.EXCLUSION
    exc_texts = []
    for _, text, subs, _ in exc_pool:
        t = doc.fill(text)
        if plan.sex == "male" and "regnant" in t:
            continue
        if printable(t):
            exc_texts.append((t, [doc.fill(s) for s in subs[:3]]))
    if not plan.healthy:
        exc_texts = [(doc.fill(t), []) for t in doc.disease.exclusion if printable(doc.fill(t))] + doc.rng.sample(
            exc_texts, 4
        )
    if sex_form(doc, plan) == "unrestricted" and not any("regnan" in t for t, _ in exc_texts):
        exc_texts.append((PREGNANCY_EXCLUSION, []))
    if getattr(doc, "age_exclusion", None):  # the age as an exclusion criterion (pop.age.excluded)
        exc_texts.insert(0, (doc.age_exclusion, []))
    sub = doc.pick(("a.", "a)"))

    def entries(items):
        out = []
        for k, (t, subs) in enumerate(items, 1):
            doc.used.add(t.lower())
            out.append(E(f"{k}.", t, *[(sl.sub_marker(sub, j), s) for j, s in enumerate(subs)]))
        return out

    return entries(chosen), entries(exc_texts)


def history(doc: DesignDoc, plan_date: datetime.date) -> tuple[dict, list[dict]]:
    """The amendment history: how it is printed ({"form", "rows", "columns", ...}) and the
    truth's amendments."""
    where = doc.pick(("none", "none", "front", "appendix", "cover", "front", "appendix", "boxes", "version"))
    if where == "none":
        doc.form("amend.none")
        return {"form": "none", "date": plan_date}, []
    if where == "version":
        return version_only(doc, plan_date)
    doc.form(f"amend.{where if where in ('cover', 'boxes') else 'table.' + where}")
    count = doc.rng.randint(1, 4)
    styles = ("plain", "padded") if where in ("cover", "boxes") else ("plain", "bare", "padded", "version", "country")
    style = doc.pick(styles)
    if style == "country" and count < 2:
        count = 2
    doc.form(f"amend.number.{style}")
    date_form = doc.pick(("dmy", "abbrev", "iso", "mdy"))
    # their own stream: dates in numbers ("07/14/2010", "14/07/2010") and a cover listing the
    # whole history on one line, newest first
    own = random.Random(f"amendment forms {doc.seed}")
    if own.random() < 0.3:
        date_form = own.choice(("numeric_mdy", "numeric_dmy"))
    runon = where == "cover" and own.random() < 0.5
    if runon:
        doc.form("amend.cover.runon")
    doc.form(f"amend.date.{date_form}")
    dates = [plan_date]
    for _ in range(count + (style == "country")):
        dates.append(dates[-1] + datetime.timedelta(days=doc.rng.randint(40, 330)))

    def show(d: datetime.date) -> str:
        month = MONTHS[d.month - 1]
        return {
            "dmy": f"{d.day} {month} {d.year}",
            "abbrev": f"{d.day:02d}-{month[:3]}-{d.year}",
            "iso": d.isoformat(),
            "mdy": f"{month} {d.day}, {d.year}",
            "numeric_mdy": f"{d.month:02d}/{d.day:02d}/{d.year}",
            "numeric_dmy": f"{d.day:02d}/{d.month:02d}/{d.year}",
        }[date_form]

    numbers: list[tuple[str, str]] = []  # (document cell, truth number)
    for k in range(1, count + 1):
        if style in ("plain", "country"):
            numbers.append((f"Amendment {k}", str(k)))
        elif style == "bare":
            numbers.append((str(k), str(k)))
        elif style == "padded":
            numbers.append((f"Amendment {k:02d}", f"{k:02d}"))
        else:
            numbers.append((f"Version {k + 1}.0", f"Version {k + 1}.0"))
    if style == "country":
        at = doc.rng.randint(1, count)
        numbers.insert(at, (f"Amendment {at}.01 (Country-specific)", f"{at}.01"))
    original = {
        "plain": "Original Protocol",
        "bare": "Original",
        "padded": "Original Protocol",
        "version": "Version 1.0",
        "country": "Original Protocol",
    }[style]
    summaries = doc.rng.sample(SUMMARIES, len(numbers))
    rows = [[original, show(dates[0]), "Not applicable"]]
    for (cell, number), d, s in zip(numbers, dates[1:], summaries):
        rows.append([cell, show(d), COUNTRY_SUMMARY if "Country" in cell else s])
    truth = [{"number": number, "date": d.isoformat()} for (_, number), d in zip(numbers, dates[1:])]
    summary = where != "cover" and doc.chance(0.6)
    if where != "cover":
        doc.form(f"amend.columns.{'summary' if summary else 'two'}")
    first = {"bare": "Amendment", "version": "Document Version"}.get(style) or doc.pick(
        ("Document", "Document", "Amendment")
    )
    date_head = doc.pick(("Date", "Date", "Date of Issue"))
    columns = [first, date_head] + (["Summary of Changes"] if summary else [])
    if not summary:
        rows = [r[:2] for r in rows]
    return {
        "form": where,
        "rows": rows,
        "columns": columns,
        "date": dates[len(numbers)],
        "current": numbers[-1][0] if style != "bare" else f"Amendment {numbers[-1][0]}",
        "show": show,
        "dates": dates,
        "numbers": numbers,
        "original": original,
        "runon": runon,
    }, truth


BOX_NUMBER = ("Global amendment number", "Amendment number", "Amendment No.")
BOX_DATE = ("Date of revision", "Date of amendment", "Amendment date")
BOX_SECTIONS = (
    "Synopsis; eligibility",
    "Schedule of activities",
    "Safety reporting",
    "Statistical methods",
    "Study procedures",
)
BOX_REASONS = (
    "Requested by a health authority.",
    "Feedback from the investigators.",
    "New safety information became available.",
    "To reduce the burden on participants.",
    "To align with the statistical analysis plan.",
)


def amendment_boxes(doc: DesignDoc, info: dict) -> list[Grid]:
    """One labelled two-column box per amendment ("Number of global amendment | 2",
    "Date of CTP revision | 9 January 2015", the sections changed, the change and its reason):
    the number is a field's value, not a row of a history table."""
    number_label, date_label = doc.pick(BOX_NUMBER), doc.pick(BOX_DATE)
    rows = info["rows"][1:]
    sections, reasons = doc.rng.sample(BOX_SECTIONS, len(rows)), doc.rng.sample(BOX_REASONS, len(rows))
    summaries = doc.rng.sample(SUMMARIES, len(rows))
    boxes = []
    for row, where, why, summary in zip(rows, sections, reasons, summaries):
        boxes.append(
            Grid(
                "",
                [number_label, row[0].split()[-1]],
                [180, mp.CONTENT_W - 180],
                [
                    [date_label, row[1]],
                    ["Sections changed", where],
                    ["Description of change", row[2] if len(row) > 2 else summary],
                    ["Rationale for change", why],
                ],
            )
        )
    return boxes


def version_only(doc: DesignDoc, plan_date: datetime.date) -> tuple[dict, list[dict]]:
    """No history: the title page prints the document's own version ("Version Number: 3"), and
    perhaps a rationale page names the version before it ("Version 2 of the protocol was ..."),
    which is an amendment too unless it is version 1, the original."""
    doc.form("amend.version")
    n = doc.rng.randint(2, 5)
    date = plan_date + datetime.timedelta(days=doc.rng.randint(200, 900))
    printed = doc.pick((str(n), f"{n}.0"))
    truth = [{"number": printed, "date": date.isoformat()}]
    rationale = None
    if doc.chance(0.5):
        doc.form("amend.version.rationale")
        rationale = (
            f"PROTOCOL AMENDMENT, VERSION {n}: RATIONALE",
            P(
                f"Version {n - 1} of the protocol was updated to extend the screening window "
                f"and to clarify the visit schedule; the changes are summarised below."
            ),
        )
        if n - 1 >= 2:
            truth.insert(0, {"number": str(n - 1), "date": None})
    return {
        "form": "version",
        "date": date,
        "printed": printed,
        "rationale": rationale,
        "label": doc.pick(("Version Number:", "Protocol Version:", "Version:")),
    }, truth


def history_grid(doc: DesignDoc, info: dict) -> Grid:
    n = len(info["columns"])
    widths = [150, 120, mp.CONTENT_W - 270] if n == 3 else [234, 234]
    return Grid("", list(info["columns"]), widths, [list(r) for r in info["rows"]])


# --------------------------------------------------------------------------
# The schema picture
# --------------------------------------------------------------------------
BOX_STROKE, BOX_FILL = (0.12, 0.3, 0.55), (0.9, 0.94, 1.0)
SPAN_FILL = (0.95, 0.95, 0.95)


def schema_columns(doc: DesignDoc, plan: Plan) -> list:
    """[(header lines, cells)]: cells a list of label lines (one box across every row) or a
    list per row of label lines (a box per row); the randomization marker has no header."""
    cols = []
    randomized = plan.allocation == "randomized"
    treat_seen = False
    for k, e in enumerate(plan.epochs):
        head = [e.name, f"({e.span})"]
        if plan.kind == "crossover" and e.name.startswith("Treatment Period"):
            p = int(e.name.rsplit(" ", 1)[1]) - 1
            if p == 0:
                if randomized:
                    cols.append(([], ["R", plan.ratio]))
                cols.append((["Sequence"], [[a.name] for a in plan.arms]))
            cols.append((head, [[a.schema[p]] for a in plan.arms]))
        elif plan.kind != "crossover" and not treat_seen and ("Treatment" in e.name or "Dosing" in e.name):
            treat_seen = True
            if randomized:
                cols.append(([], ["R", plan.ratio]))
            cols.append(
                (head, [[a.name] + ([f"N = {a.n}"] if a.n and plan.kind != "escalation" else []) for a in plan.arms])
            )
        else:
            cols.append((head, [e.name.replace(" Period", "")]))
    return cols


def schema_layout(fig: Schema) -> tuple[list[float], list[float], float, float, float]:
    """Column x positions and widths, the rows' top, row height and gap."""
    cols = fig.columns
    narrow = [not head for head, _ in cols]  # the randomization marker
    gap = 8
    n_narrow = sum(narrow)
    wide = (fig.width - gap * (len(cols) - 1) - 30 * n_narrow) / (len(cols) - n_narrow)
    widths = [30 if nr else wide for nr in narrow]
    xs, x = [], 0.0
    for w in widths:
        xs.append(x)
        x += w + gap
    size = fig.size
    head_lines = max(len(_box_lines(h, w, size)) for (h, _), w in zip(cols, widths))
    top = head_lines * size * 1.25 + 8
    row_lines = 2
    for (h, cells), w in zip(cols, widths):
        if cells and not isinstance(cells[0], str):
            row_lines = max(row_lines, max(len(_box_lines(c, w, size)) for c in cells))
    row_h = row_lines * size * 1.25 + 8
    return xs, widths, top, row_h, 8


def _box_lines(lines: list[str], width: float, size: float) -> list[tuple[str, str]]:
    out = []
    for k, line in enumerate(lines):
        font = mp.BOLD_FONT if k == 0 else mp.BODY_FONT
        out += [(t, font) for t in _loose_wrap(line, font, size, width - 6)]
    return out


def _loose_wrap(text: str, font: str, size: float, width: float) -> list[str]:
    """Words in lines no wider than `width`, but a word wider than it on a line of its own (a
    box's label may cross its edge a little; make_protocol.wrap refuses it)."""
    lines: list[str] = []
    for word in text.split():
        if lines and mp.text_width(f"{lines[-1]} {word}", font, size) <= width:
            lines[-1] += f" {word}"
        else:
            lines.append(word)
    return lines


def schema_height(columns: list, rows: int, width: float, size: float) -> float:
    probe = Schema("", "vector", width, 0, columns=columns, rows=rows, size=size)
    _, _, top, row_h, gap = schema_layout(probe)
    return top + rows * row_h + (rows - 1) * gap + 4


def schema_ops(fig: Schema, x0: float, y0: float) -> list:
    """Boxes with their words, and arrows between columns, at (x0, y0)."""
    xs, widths, top, row_h, gap = schema_layout(fig)
    rows, size = fig.rows, fig.size
    lead = size * 1.25
    ops: list = []

    def text_block(lines, bx, by, bw, bh):
        set_ = _box_lines(lines, bw, size)
        y = by + (bh - lead * len(set_)) / 2
        for t, font in set_:
            tx = bx + (bw - mp.text_width(t, font, size)) / 2
            ops.append(("text", tx, mp.baseline(y, size, lead), t, font, size, mp.TEXT_COLOR))
            y += lead

    def row_top(r):
        return y0 + top + r * (row_h + gap)

    boxes = []  # per column: its box per row (a spanning box for every row)
    for (head, cells), x, w in zip(fig.columns, xs, widths):
        if head:
            text_block(head, x0 + x, y0, w, top - 6)
        if isinstance(cells[0], str):
            box = (x0 + x, row_top(0), x0 + x + w, row_top(rows - 1) + row_h)
            ops.append(("rect", *box, BOX_STROKE, SPAN_FILL, 1))
            text_block(cells, box[0], box[1], w, box[3] - box[1])
            boxes.append((True, [box] * rows))
        else:
            col = []
            for r, lines in enumerate(cells):
                box = (x0 + x, row_top(r), x0 + x + w, row_top(r) + row_h)
                ops.append(("rect", *box, BOX_STROKE, BOX_FILL, 1))
                text_block(lines, box[0], box[1], w, row_h)
                col.append(box)
            boxes.append((False, col))

    def arrow(ax, bx, y):
        ops.append(("line", ax, y, bx - 1, y, 0.8, mp.TEXT_COLOR))
        ops.append(("poly", [(bx, y), (bx - 4, y - 2.5), (bx - 4, y + 2.5)], mp.TEXT_COLOR))

    for (span_a, left), (span_b, right) in zip(boxes, boxes[1:]):
        if span_a and span_b:
            arrow(left[0][2], right[0][0], (left[0][1] + left[0][3]) / 2)
            continue
        for r in range(rows):
            arrow(left[r][2], right[r][0], row_top(r) + row_h / 2)
    if fig.arrows_down:
        for span, col in boxes:
            if span:
                continue
            for r in range(rows - 1):
                cx = (col[r][0] + col[r][2]) / 2
                ops.append(("line", cx, col[r][3], cx, col[r + 1][1] - 1, 0.8, mp.TEXT_COLOR))
                ops.append(
                    (
                        "poly",
                        [(cx, col[r + 1][1]), (cx - 2.5, col[r + 1][1] - 4), (cx + 2.5, col[r + 1][1] - 4)],
                        mp.TEXT_COLOR,
                    )
                )
    return ops


def schema_figure(doc: DesignDoc, plan: Plan, kind: str) -> Schema:
    columns = schema_columns(doc, plan)
    width = mp.CONTENT_W
    rows = len(plan.arms)
    size = 7.5 if len(columns) <= 7 else 6.5
    height = schema_height(columns, rows, width, size)
    title = doc.pick(("Figure 1: Study Schema", "Figure 1: Study Design", "Figure 1 Study Design Schematic"))
    return Schema(
        title, kind, width, height, columns=columns, rows=rows, arrows_down=plan.kind == "escalation", size=size
    )


def schema_pixmap(fig: Schema) -> pymupdf.Pixmap:
    """The schema drawn into pixels: its words are in the picture only."""
    doc = pymupdf.open()
    mp.render_page(doc, schema_ops(fig, 0, 0), {})
    pix = doc[0].get_pixmap(dpi=mp.PICTURE_DPI, clip=pymupdf.Rect(0, 0, fig.width, fig.height))
    doc.close()
    return pix


# --------------------------------------------------------------------------
# Composition
# --------------------------------------------------------------------------
def compose(seed: int) -> Composition:
    with sl.fast_widths(), widths():
        return _compose(seed)


def _compose(seed: int) -> Composition:
    doc = DesignDoc(seed)
    doc.setup()
    rng = doc.rng
    plan = plan_design(doc)
    add_support(doc, plan)
    mandated = mandated_background(seed, doc, plan)
    if mandated:
        doc.form(mandated[0])
    sponsor = doc.pick(sl.SPONSORS)
    number = f"{doc.pick(('DL', 'TRX', 'CPX', 'NVR', 'ABN', 'KLD'))}-{rng.randint(100, 999)}-{rng.randint(101, 399)}"
    title = title_of(doc, plan)
    start = datetime.date(rng.randint(2018, 2023), rng.randint(1, 12), rng.randint(1, 28))
    amend, amendments = history(doc, start)
    schema_kind = doc.pick(("none", "none", "vector", "picture"))
    if getattr(doc, "sequence_table", False):
        schema_kind = "none"  # the table is where the sequences are shown
    doc.form(f"schema.{schema_kind}")
    schema_place = doc.pick(("summary", "design")) if schema_kind != "none" else None
    if schema_place:
        doc.form(f"schema.place.{schema_place}")
    counts = doc.chance(0.3) and plan.kind != "escalation"
    if counts:
        doc.form("synopsis.counts")
    # how the design prose names the periods; "headings": no sentence names them, a section per
    # period does
    doc.epochs_form = doc.pick(("consists", "consists", "periods", "headings"))
    if schema_kind != "none" and doc.chance(0.4):
        doc.epochs_form = "schema"  # no sentence or section names the periods: the schema does
    syn_form = doc.pick(SYNOPSIS_FORMS)
    outline: list[Section] = []

    # 1 Synopsis (and perhaps the schema)
    syn = synopsis_blocks(
        doc, synopsis_fields(doc, plan, title, sponsor, counts), syn_form, tuple(e.span for e in plan.epochs)
    )
    figure = schema_figure(doc, plan, schema_kind) if schema_kind != "none" else None
    if (figure is not None and schema_place == "summary") or doc.chance(0.4):
        outline.append(
            S(
                "1",
                doc.chapter_title("Protocol Summary"),
                P(doc.sentence(["This chapter summarizes the protocol; the chapters that follow give the details."])),
            )
        )
        outline.append(S("1.1", "Synopsis", *syn))
        if figure is not None and schema_place == "summary":
            outline.append(S("1.2", "Schema", figure))
    else:
        outline.append(S("1", doc.chapter_title(doc.pick(("Synopsis", "Protocol Synopsis"))), *syn))

    # 2 Introduction
    d = doc.disease
    outline.append(
        S(
            "2",
            doc.chapter_title(doc.pick(("Introduction", "Background and Rationale"))),
            doc.para(
                [
                    d.burden,
                    d.mechanism,
                    "Current treatments for {disease} leave an unmet need for "
                    "therapies that are both effective and convenient.",
                ],
                (2, 3),
            ),
            doc.para(
                [
                    "This study will provide the data needed to decide on further development of {drug}.",
                    "The doses chosen for this study are based on the exposure reached in earlier studies.",
                ],
                (1, 2),
            ),
        )
    )

    # 3 Study design
    design_blocks = design_prose(doc, plan)
    if figure is not None and schema_place == "design":
        design_blocks.append(figure)
    if plan.kind == "escalation" and doc.chance(0.5):
        design_blocks.append(cohort_table(doc, plan))
    if getattr(doc, "sequence_table", False):
        design_blocks.append(sequence_table(doc, plan))
    design_title = doc.chapter_title(doc.pick(("Study Design", "Investigational Plan")))
    outline.append(
        S(
            "3",
            design_title,
            P(
                doc.sentence(
                    [
                        "This chapter describes the design of the study and the reasons for it.",
                        "The design of the study is described below.",
                    ]
                )
            ),
        )
    )
    outline.append(
        S(
            "3.1",
            doc.pick(("Overall Design", "Overall Study Design", "Description of the Study Design")),
            *design_blocks,
        )
    )
    outline.append(
        S(
            "3.2",
            doc.pick(("Scientific Rationale for Study Design", "Rationale for the Design")),
            doc.para(
                [
                    "The design follows regulatory guidance for studies of {disease}.",
                    "The comparison chosen allows an unbiased estimate of the effect of {drug}.",
                    "The length of treatment is long enough to show a stable effect.",
                ],
                (1, 2),
            ),
        )
    )

    if doc.epochs_form == "headings":  # a section per period, titled with its name
        heading = doc.pick(("Study Periods", "Study Procedures by Period"))
        intro = P(
            doc.sentence(
                ["Each period of the study is described below.", "The study visits are grouped by period below."]
            )
        )

        def about(e: Epoch) -> mp.Para:
            return P(
                f"The {e.prose} lasts {e.span}; {doc.persons} attend the visits the schedule of "
                "activities lists for it."
            )

        # or each period a bold heading without a number inside the one section; its own random
        # stream, so the layouts without it are as they were
        if random.Random(f"period headings {doc.seed}").random() < 0.4:
            doc.form("prose.epochs.inline")
            outline.append(S("3.3", heading, intro, *[b for e in plan.epochs for b in (Lead(e.name), about(e))]))
        else:
            outline.append(S("3.3", heading, intro))
            outline += [S(f"3.3.{k}", e.name, about(e)) for k, e in enumerate(plan.epochs, 1)]

    # 4 Population
    inc, exc = criteria_lists(doc, plan, mandated[1] if mandated and mandated[0].endswith(".all") else None)
    outline.append(
        S(
            "4",
            doc.chapter_title(doc.pick(("Study Population", "Selection of Study Population"))),
            P(
                doc.sentence(
                    [
                        "The criteria below are checked at the screening visit.",
                        "No waivers of the eligibility criteria will be granted.",
                    ]
                )
            ),
        )
    )
    outline.append(
        S(
            "4.1",
            doc.pick(sl.INCLUSION_TITLES),
            P(doc.sentence(sl.INCLUSION_INTROS)),
            Listing(inc, "criteria", "inclusion"),
        )
    )
    outline.append(
        S(
            "4.2",
            doc.pick(sl.EXCLUSION_TITLES),
            P(doc.sentence(sl.EXCLUSION_INTROS)),
            Listing(exc, "criteria", "exclusion"),
        )
    )

    # 5 Study intervention(s)
    outline.append(
        S(
            "5",
            doc.chapter_title(doc.pick(("Study Intervention(s)", "Study Treatment", "Investigational Products"))),
            P(
                doc.sentence(
                    [
                        "Study intervention is dispensed by the site pharmacy.",
                        "Study intervention is supplied by the sponsor and stored at the site.",
                    ]
                )
            ),
            *(
                [P(mandated[1])]
                if mandated and mandated[0].endswith((".kept", ".supplement", ".given", ".lead"))
                else []
            ),
        )
    )
    outline.append(
        S(
            "5.1",
            doc.pick(
                ("Study Interventions Administered", "Treatments Administered", "Description of Study Intervention(s)")
            ),
            *intervention_blocks(doc, plan),
        )
    )
    if plan.masking != "open label":
        outline.append(
            S(
                "5.2",
                doc.pick(("Blinding", "Measures to Minimize Bias: Blinding")),
                P(
                    doc.sentence(
                        [
                            "The investigator, the site staff and the {persons} do not know which treatment is given."
                            if plan.masking == "double blind"
                            else "The {persons} do not know which treatment they receive; the investigator does."
                        ]
                    )
                ),
            )
        )

    reductions = dose_reductions(seed, plan)
    if reductions:
        doc.form(reductions[0])
        number = "5.3" if plan.masking != "open label" else "5.2"
        outline.append(S(number, reductions[1], P(reductions[2])))
    if assigned_arms(doc, plan):
        number = f"5.{2 + (plan.masking != 'open label') + bool(reductions)}"
        outline.append(assignment_section(doc, plan, number))

    # 6 Statistics
    n = plan.enrollment
    verb = "randomized" if plan.allocation == "randomized" else "enrolled"
    outline.append(
        S(
            "6",
            doc.chapter_title("Statistical Considerations"),
            P(doc.sentence(["All analyses are described in the statistical analysis plan."])),
        )
    )
    outline.append(
        S(
            "6.1",
            doc.pick(("Sample Size Determination", "Sample Size")),
            P(
                doc.say(
                    lambda: doc.pick(
                        (
                            f"With {n} {doc.persons} {verb}, the study has about 90% power for the "
                            f"primary comparison at a two-sided significance level of 5%.",
                            f"The planned number of {doc.persons} ({n}) is typical for studies of "
                            f"this kind and was not based on a formal calculation.",
                            f"A sample of {n} {doc.persons} {verb} allows the effect to be estimated "
                            f"with adequate precision.",
                        )
                    )
                )
            ),
        )
    )

    # 7 Appendix: amendment history
    if amend["form"] == "appendix":
        grid = history_grid(doc, amend)
        outline.append(
            S("7", doc.chapter_title("Appendices"), P(doc.sentence(["The appendices give supporting information."])))
        )
        outline.append(
            S(
                "7.1",
                doc.pick(("Protocol Amendment History", "Document History")),
                P(
                    doc.sentence(
                        [
                            "The table below lists every version of this protocol.",
                            "Each version of the protocol is listed below with the date it was issued.",
                        ]
                    )
                ),
                grid,
            )
        )

    if amend["form"] == "boxes":
        outline.append(
            S(
                "7",
                doc.chapter_title("Description of Global Amendments"),
                P(
                    doc.sentence(
                        [
                            "Each amendment of this protocol is described below.",
                            "The changes made by each global amendment follow.",
                        ]
                    )
                ),
                *amendment_boxes(doc, amend),
            )
        )

    # Title page
    show = amend.get("show")
    date = amend["date"]
    date_text = show(date) if show else f"{date.day} {MONTHS[date.month - 1]} {date.year}"
    cover = [("Protocol Number:", number), ("Phase:", f"Phase {plan.phase}"), ("Sponsor:", sponsor)]
    if amend["form"] == "version":
        cover.append((amend["label"], amend["printed"]))
        cover.append(("Date:", date_text))
    elif amend["form"] == "cover" and amend["runon"]:
        entries = [f"{amend['original']}: {show(amend['dates'][0])}"]
        entries += [f"{cell}: {show(d)}" for (cell, _), d in zip(amend["numbers"], amend["dates"][1:])]
        cover.append(("History:", " ".join(reversed(entries))))
    elif amend["form"] == "cover":
        cover.append((f"{amend['original']}:", show(amend["dates"][0])))
        for (cell, _), d in zip(amend["numbers"], amend["dates"][1:]):
            cover.append((f"{cell}:", show(d)))
    else:
        cover.append(("Date:", date_text))
    if amend["form"] == "none":
        right = doc.pick(("Final", "Original Protocol", "Final Protocol"))
    elif amend["form"] == "version":
        right = f"Version {amend['printed']}"
    else:
        right = amend["current"]
    front = ()
    if amend.get("rationale"):
        front = amend["rationale"]
    if amend["form"] == "front":
        front = (
            doc.pick(("DOCUMENT HISTORY", "PROTOCOL AMENDMENT HISTORY", "Document History")),
            history_grid(doc, amend),
        )
    spec = DesignProtocol(
        outline=outline,
        title=title,
        number=number,
        sponsor=sponsor,
        cover=cover,
        running_header=(doc.pick((f"{number} Clinical Study Protocol", f"Protocol {number}")), right),
        styles=mp.STUDY_STYLES,
        chapter_breaks=doc.chance(0.4),
        cover_grid=doc.chance(0.3),
        front=front,
    )
    mp.check_outline(spec)
    truth = {
        "source": f"design_{seed:04d}.pdf",
        "seed": seed,
        "curated_from": "examples/design_layouts.py (generated; exact by construction)",
        "notes": "; ".join(doc.forms),
        "forms": list(doc.forms),
        "arms": [{"name": a.name, "type": a.type, "interventions": list(a.products)} for a in plan.arms],
        "epochs": [e.name for e in plan.epochs],
        "interventions": [p.truth() for p in plan.products],
        "population": {
            "planned_enrollment": plan.enrollment,
            "min_age": plan.min_age,
            "max_age": plan.max_age,
            "age_unit": "years",
            "sex": plan.sex,
            "healthy_volunteers": plan.healthy,
        },
        "design": {"allocation": plan.allocation, "model": plan.model, "masking": plan.masking, "ratio": plan.ratio},
        "indication": doc.disease.name,
        "amendments": amendments,
    }
    return Composition(seed, spec, truth, list(doc.forms))


def layout(seed: int) -> tuple[DesignProtocol, dict]:
    """The protocol spec of layout `seed` and the truth of its design (draw it with
    :func:`render`)."""
    c = compose(seed)
    return c.spec, c.truth


def forms_of(seed: int) -> list[str]:
    return compose(seed).forms


# --------------------------------------------------------------------------
# Rendering
# --------------------------------------------------------------------------
def place_labelled(flow: mp.Flow, blk: Labelled, need: float) -> None:
    flow.start_block(mp.PARA_GAP, need)
    lines = _labelled_lines(blk.label, blk.value)
    if flow.y + mp.BODY_LEADING > mp.BODY_BOTTOM:
        flow.new_page()
    label = blk.label + " "
    flow.text(mp.LEFT, flow.y, blk.label, mp.BOLD_FONT, mp.BODY_SIZE, mp.BODY_LEADING)
    if lines[0]:
        flow.text(
            mp.LEFT + mp.text_width(label, mp.BOLD_FONT, mp.BODY_SIZE),
            flow.y,
            lines[0],
            mp.BODY_FONT,
            mp.BODY_SIZE,
            mp.BODY_LEADING,
        )
    flow.y += mp.BODY_LEADING
    flow.lines(mp.LEFT, lines[1:])


def place_schema(flow: mp.Flow, fig: Schema, need: float, placed: mp.Placed, pictures: dict) -> None:
    flow.start_block(mp.FIGURE_GAP, need)
    x0 = mp.LEFT + (mp.CONTENT_W - fig.width) / 2
    rect = (x0, flow.y, x0 + fig.width, flow.y + fig.height)
    if fig.kind == "vector":
        flow.ops.extend(schema_ops(fig, x0, flow.y))
    else:
        key = f"schema|{len(pictures)}"
        pictures[key] = schema_pixmap(fig)
        flow.ops.append(("image", rect, key))
    flow.y = rect[3] + 6
    flow.centered(fig.title, mp.CAPTION_FONT, mp.CAPTION_SIZE, mp.CAPTION_LEADING)
    placed.images.append(
        {"title": fig.title, "page": flow.page_no, "bbox": [round(v, 2) for v in rect], "kind": fig.kind}
    )


def layout_body(spec: Protocol, first_page: int, pictures: dict) -> tuple[list[list], list[mp.Placed]]:
    flow = mp.Flow(first_page)
    placed = [mp.Placed() for _ in spec.outline]
    items = list(mp.flatten(spec))
    for i, (k, blk) in enumerate(items):
        need = mp.lead_height(items, i)
        info = placed[k]
        if isinstance(blk, mp.Heading):
            mp.place_heading(flow, blk, need)
            info.page = flow.page_no
        elif isinstance(blk, Labelled):
            place_labelled(flow, blk, need)
        elif isinstance(blk, Lead):
            mp.place_lead(flow, blk, need)
        elif isinstance(blk, mp.Para):
            mp.place_para(flow, blk, need)
        elif isinstance(blk, Listing):
            sl.place_listing(flow, blk, info)
        elif isinstance(blk, RunOnGrid):
            sl.place_run_on(flow, blk, need, info)
        elif isinstance(blk, Grid):
            mp.place_grid(flow, blk, need, info, mp.TABLE_GAP)
        elif isinstance(blk, Schema):
            place_schema(flow, blk, need, info, pictures)
        else:
            raise TypeError(blk)
        info.last_page = flow.page_no
    return flow.pages, placed


def front_ops(front: tuple) -> list:
    """The document history page: its heading and table (or an amendment's rationale: its
    heading and paragraph)."""
    heading, block = front
    flow = mp.Flow(2)
    flow.text(mp.LEFT, flow.y, heading, mp.BOLD_FONT, 14, 18)
    flow.y += 30
    if isinstance(block, mp.Para):
        mp.place_para(flow, block, 0)
    else:
        info = mp.Placed()
        mp.place_grid(flow, block, mp.grid_row_height(block, block.columns, True), info, 0)
    assert len(flow.pages) == 1, "the document history must fit its page"
    return flow.pages[0]


_FONTS: dict = {}


def _font(name: str) -> pymupdf.Font:
    if name not in _FONTS:
        _FONTS[name] = pymupdf.Font(name)
    return _FONTS[name]


def _unicode(op) -> bool:
    return op[0] == "text" and any(ord(c) > 255 and c not in mp.WINANSI for c in op[3])


def render_page(doc: pymupdf.Document, ops: list, images: dict) -> None:
    """make_protocol.render_page, with text that needs characters outside WinAnsi written in
    PyMuPDF's embedded Helvetica (the Base-14 font cannot show them)."""
    plain = [op for op in ops if not _unicode(op)]
    special = [op for op in ops if _unicode(op)]
    mp.render_page(doc, plain, images)
    if special:
        page = doc[-1]
        for _, x, y, text, font, size, color in special:
            writer = pymupdf.TextWriter(page.rect, color=color)
            writer.append((x, y), text, font=_font(font), fontsize=size)
            writer.write_text(page)


def render(spec: DesignProtocol, pdf_path: Path) -> tuple[int, list[mp.Placed]]:
    """Write the PDF of `spec` (title page, document history, contents, body)."""
    with sl.fast_widths(), widths():
        return _render(spec, pdf_path)


def _render(spec: DesignProtocol, pdf_path: Path) -> tuple[int, list[mp.Placed]]:
    mp.check_outline(spec)
    n_toc = mp.toc_page_count(spec.outline)
    front = [front_ops(spec.front)] if spec.front else []
    pictures: dict = {}
    body, placed = layout_body(spec, 2 + len(front) + n_toc, pictures)
    pages = [mp.title_page_ops(spec)] + front + mp.toc_pages_ops(spec.outline, placed) + body
    doc = pymupdf.open()
    for n, ops in enumerate(pages, 1):
        running = mp.running_ops(spec, n, len(pages)) if n > 1 else []
        render_page(doc, running + ops, pictures)
    doc.set_metadata(
        {
            "title": spec.title,
            "author": spec.sponsor,
            "subject": f"Clinical Study Protocol {spec.number}",
            "keywords": "synthetic, test fixture",
            "creator": "ClinParser examples/design_layouts.py",
            "producer": "PyMuPDF",
            "creationDate": mp.FIXED_PDF_DATE,
            "modDate": mp.FIXED_PDF_DATE,
            "trapped": "",
        }
    )
    pdf_path = Path(pdf_path)
    pdf_path.parent.mkdir(parents=True, exist_ok=True)
    doc.save(pdf_path, garbage=4, deflate=True, no_new_id=True)
    doc.close()
    return len(pages), placed


def build_layout(seed: int, pdf_path: Path) -> dict:
    """Write layout `seed` to `pdf_path`; return its truth (the flat design format, with "seed",
    "forms" and "pages")."""
    c = compose(seed)
    n_pages, _ = render(c.spec, pdf_path)
    return {**c.truth, "pages": n_pages}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True, help="output folder")
    parser.add_argument("--count", type=int, default=20, help="how many layouts (default 20)")
    parser.add_argument("--first-seed", type=int, default=0, help="first seed (default 0)")
    args = parser.parse_args(argv)
    for seed in range(args.first_seed, args.first_seed + args.count):
        pdf = args.out / f"design_{seed:04d}.pdf"
        truth = build_layout(seed, pdf)
        mp.write_truth(truth, args.out / f"design_{seed:04d}.design.json")
        print(f"wrote {pdf} ({truth['pages']} pages): {', '.join(truth['forms'])}")


if __name__ == "__main__":
    main()
