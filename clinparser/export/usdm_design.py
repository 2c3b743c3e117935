"""The study design the reader gives (``result["study"]["design"]``, see ``clinparser.study.design``)
as USDM v4.0 objects in the export's one study design and its study version.

``add_design(design, study_version, reading, ids)`` is called by ``usdm_study.study_usdm`` with
``reading = result["study"]["design"]`` (the contract's shape: each field an item ``{"value": ...}``
with its trace, or null; a bare value is taken too). It fills::

    studyDesigns[0]: arms (StudyArm), epochs (shared with the schedules'), studyCells + elements,
                     studyInterventionIds, population (plannedEnrollmentNumber, plannedAge,
                     plannedSex, includesHealthySubjects), model, blindingSchema, characteristics
                     (allocation), indications (Indication), notes
    study.versions[0]: studyInterventions (StudyIntervention with its Administrations),
                       administrableProducts (AdministrableProduct), amendments (StudyAmendment)

Codes are CDISC's, checked against the USDM CT that usdm4 ships (the codelist of each attribute
as its rules map them), with the codeSystemVersion of the rest of the export. A printed term
that CDISC's codelist names otherwise is mapped to the CDISC term (triple blind is double blind);
one it has no term for is written as printed in ClinParser's own code system
(``usdm_terms.printed_code``), never passed off as a CDISC code: the codelists are extensible, but
usdm4 reports such an entry (docs/chunks-and-usdm.md lists the findings). What USDM requires but
the reader does not give gets a neutral value, said in a note on the object it is on. The choices:

- **Arms**: ``StudyArm`` per arm, named as printed, ``type`` by the arm type (C174222):
  experimental ``C174266`` "Investigational Arm", active comparator ``C174267`` "Active
  Comparator Arm", placebo comparator ``C174268`` "Placebo Control Arm", sham comparator
  ``C174269`` "Sham Comparator Arm", no intervention ``C174270`` "No Intervention Arm"; other
  ``C17649`` "Other" (the codelist has no other; no rule checks the arm type's codelist).
  ``dataOriginType`` ``C188866`` "Data Generated Within Study" with the published files'
  ``dataOriginDescription`` "Data collected from subjects". Its ``description`` lists the
  interventions the arm names ("Interventions: Drug X, Placebo").
- **Epochs**: a design epoch that names the same period as an epoch of the schedules (same name
  once case, hyphens and the words period/phase/epoch/stage are set aside: "Follow-up Period" =
  "Follow up") is that epoch; the others are added, typed as the schedules type theirs
  (``usdm_schedule.EPOCH_TYPES``), each after the epoch of the design epoch printed before it
  (first when none), and all epochs are chained again in that order. When the design printed
  one treatment epoch, the schedules' epochs that are its parts or its other name ("Cycle 1-4",
  "Cycle 4 and Subsequent Cycles", "Intervention period") are folded into it: their encounters
  and instances point to it; so is a schedule's "Baseline" band (a time point, the day treatment
  starts) into the design's treatment epoch right after it.
- **Cells**: USDM wants one ``StudyCell`` per arm and epoch (DDF00068, DDF00243) and at least one
  element per cell (DDF00067): when arms are read, every arm has a cell in every epoch of the
  design (the schedules' included), each with a ``StudyElement`` of its own ("<arm> / <epoch>"),
  so that no element says two arms are treated alike. The element of an epoch typed Treatment
  Epoch lists the arm's interventions (``studyInterventionIds``); other elements list none (what
  an arm receives in a run-in or follow-up is not read). No arms: no cells.
- **Interventions**: ``StudyIntervention`` per intervention (``study.versions[0]``, listed by the
  design's ``studyInterventionIds``), ``role`` (C207417): investigational ``C41161``
  "Experimental Intervention" (the CDISC pilot's decode; the term's preferred name is "Protocol
  Agent"), comparator ``C68609`` "Active Comparator", placebo ``C753`` "Placebo", background
  ``C165822`` "Background Treatment", rescue ``C165835`` "Rescue Medications", challenge
  ``C158128`` "Challenge Agent"; a role not printed is coded Experimental Intervention with a note
  (the role is required and the codelist has no unknown). ``type`` ``C1909`` "Pharmacologic
  Substance" (not read; noted). One ``Administration`` per dose: ``dose`` a ``Quantity``, the
  amount of one administration (unit: C71620, decoded by its symbol, the CDISC submission value:
  "mg", "mg/kg", "IU"; a daily amount, "30 mg/day", of a product given once daily is 30 mg each
  time, and one dose printed both ways is one administration), ``route``
  (C66729: oral ``C38288``, intravenous ``C38276``, subcutaneous ``C38299``, intramuscular
  ``C28161``, topical ``C38304``, inhalation ``C38216``, transdermal ``C38305``), ``frequency`` (C71113, by the printed
  words: "once daily" ``C25473`` "Daily", "BID" ``C64496`` "Twice Daily", "every 3 weeks"
  ``C64535`` "Every Three Weeks", "single dose" ``C64576`` "Once", "Days 1, 8 and 15 of every
  28-day cycle" ``C176289`` "Three Times Per Cycle", "Days 1, 6 and 13" ``C71325`` "Intermittent",
  their days said in the description; a frequency the codelist has
  no term for, or two terms ("QD for 7 days, then BID"), as printed in ClinParser's code system),
  ``administrableProductId`` the intervention's
  ``AdministrableProduct`` (named as the intervention; dose form ``C150001`` "Unknown Dosage Form
  Category", not read; designation ``C202579`` "Investigational Medicinal Product" for
  investigational, comparator, placebo and unknown roles, else ``C156473`` "Auxiliary Medicinal
  Product"). A route the reader calls other, or a dose unit without a code, is left null and said
  in the administration's ``description`` ("dose as printed: 2 puffs (its unit has no code)").
  An intervention without a dose but with a route or frequency gets one administration
  without dose or product (usdm4's DDF00185 wants a product exactly when there is a dose).
  ``duration`` (required, not read): text "Not read by ClinParser", ``durationWillVary`` false.
- **Population**: ``plannedEnrollmentNumber`` a ``Quantity`` without unit (DDF00234);
  ``plannedAge`` a ``Range`` of the age unit (C66781 "Year" …). USDM's Range needs both bounds:
  a protocol with a minimum age and no maximum ("18 years and older") gets 100 years as the
  maximum, as the published CDISC pilot and Alexion files write "no upper limit", and the
  population's note says it was not printed; without a minimum there is no range. ``plannedSex``
  Female ``C16576`` and/or Male ``C20197`` (DDF00188 rejects C66732's "Both").
  ``includesHealthySubjects`` as read (false, noted, when not read).
- **Model** (C99076): parallel ``C82639`` "Parallel Study", crossover ``C82637`` "Crossover
  Study", factorial ``C82638`` "Factorial Study", single group ``C82640`` "Single Group Study",
  sequential ``C142568`` "Group Sequential Design". The schema requires a model: when none is
  read, Single Group Study for a design of at most one arm, Parallel Study for more (the design
  note says it was not read).
- **Masking** ``blindingSchema`` (C66735): open label ``C49659`` "Open Label Study", single blind
  ``C28233`` "Single Blind Study", double blind ``C15228`` "Double Blind Study". The codelist has
  no triple or quadruple blind: those are coded Double Blind Study (they are double blind and
  more) with a note saying what was printed.
- **Allocation** in ``characteristics`` (C207416): randomized ``C46079`` "Randomized" (its
  submission value: the preferred name "Randomized Controlled Clinical Trial" claims a control).
  Non-randomized has no term there: it is CDISC's ``C93043`` "Nonrandomized" (preferred name
  "Nonrandomized Clinical Trial", of the protocol allocation codelist C147068), an extension of
  the extensible C207416 that usdm4's DDF00218 reports.
  The allocation ratio has no USDM attribute: a note ("Allocation ratio as printed: 2:1").
- **Indication**: one ``Indication`` named ``IND1`` (as the published files name theirs),
  ``label`` and ``description`` the indication as printed, no codes (no dictionary is looked
  up), ``isRareDisease`` false (not read; noted).
- **Amendments** (``study.versions[0].amendments``, in number order, chained by ``previousId``):
  ``StudyAmendment`` named ``AMEND_<number>``, labelled "Amendment <number>", ``number`` as
  printed, ``summary`` as read ("" when none), ``primaryReason`` ``C17649`` "Other" with
  ``otherReason`` "Not read by ClinParser" (required; DDF00020 wants the other reason given),
  no geographic scope (none is read), and its date, when read, a ``GovernanceDate`` of type
  ``C71476`` "Approval Date" (as the Alexion file dates its amendments).
"""

from __future__ import annotations

import re
from typing import Any, Optional

from ..document_types import Design
from ..study.design.periods import TIME_POINT
from .usdm_schedule import EPOCH_TYPES, OTHER_EPOCH
from .usdm_terms import Ids, code, note, printed_code

__all__ = [
    "add_design",
    "ARM_TYPES",
    "ROLES",
    "ROUTES",
    "UNITS",
    "MODELS",
    "MASKING",
    "RANDOMIZED",
    "NONRANDOMIZED",
    "frequency_term",
    "unit_term",
]

ARM_TYPES = {
    "experimental": ("C174266", "Investigational Arm"),
    "active comparator": ("C174267", "Active Comparator Arm"),
    "placebo comparator": ("C174268", "Placebo Control Arm"),
    "sham comparator": ("C174269", "Sham Comparator Arm"),
    "no intervention": ("C174270", "No Intervention Arm"),
    "other": ("C17649", "Other"),
}
DATA_ORIGIN = ("C188866", "Data Generated Within Study")
ROLES = {
    "investigational": ("C41161", "Experimental Intervention"),
    "comparator": ("C68609", "Active Comparator"),
    "placebo": ("C753", "Placebo"),
    "background": ("C165822", "Background Treatment"),
    "rescue": ("C165835", "Rescue Medications"),
    "challenge": ("C158128", "Challenge Agent"),
}
IMP, AUXILIARY = ("C202579", "Investigational Medicinal Product"), ("C156473", "Auxiliary Medicinal Product")
IMP_ROLES = {"investigational", "comparator", "placebo", None}
DRUG = ("C1909", "Pharmacologic Substance")
UNKNOWN_DOSE_FORM = ("C150001", "Unknown Dosage Form Category")
ROUTES = {
    "oral": ("C38288", "Oral Route of Administration"),
    "intravenous": ("C38276", "Intravenous Route of Administration"),
    "subcutaneous": ("C38299", "Subcutaneous Route of Administration"),
    "intramuscular": ("C28161", "Intramuscular Route of Administration"),
    "topical": ("C38304", "Topical Route of Administration"),
    "inhalation": ("C38216", "Inhalation Route of Administration"),
    "transdermal": ("C38305", "Transdermal Route of Administration"),
}
# Dose units (C71620) by the contract's lower-case unit, decoded by their symbol (the submission value).
UNITS = {
    "mg": ("C28253", "mg"),
    "mg/kg": ("C67401", "mg/kg"),
    "mg/m2": ("C67402", "mg/m2"),
    "ug": ("C48152", "ug"),
    "mcg": ("C48152", "ug"),
    "µg": ("C48152", "ug"),
    "μg": ("C48152", "ug"),
    "g": ("C48155", "g"),
    "ml": ("C28254", "mL"),
    "iu": ("C48579", "IU"),
    "mg/day": ("C67399", "mg/day"),
    "mg/d": ("C67399", "mg/day"),
    "ug/kg": ("C67396", "ug/kg"),
    "mcg/kg": ("C67396", "ug/kg"),
    "mg/kg/day": ("C66976", "mg/kg/day"),
    "iu/kg": ("C67379", "IU/kg"),
    "u": ("C44278", "U"),
    "u/kg": ("C67465", "U/kg"),
    "ng": ("C48516", "ng"),
    "mmol": ("C48513", "mmol"),
    "ml/kg": ("C67411", "mL/kg"),
    "ug/day": ("C71205", "ug/day"),
    "mcg/day": ("C71205", "ug/day"),
    "g/kg": ("C69104", "g/kg"),
    "mbq": ("C70512", "MBq"),
    "mci": ("C48511", "mCi"),
    "gy": ("C18063", "Gy"),
    "pfu": ("C67264", "PFU"),
    "l": ("C48505", "L"),
}
MODELS = {
    "parallel": ("C82639", "Parallel Study"),
    "crossover": ("C82637", "Crossover Study"),
    "cross_over": ("C82637", "Crossover Study"),
    "factorial": ("C82638", "Factorial Study"),
    "group_sequential": ("C142568", "Group Sequential Design"),
    "sequential": ("C142568", "Group Sequential Design"),
    "single_group": ("C82640", "Single Group Study"),
}
SINGLE_GROUP, PARALLEL = MODELS["single_group"], MODELS["parallel"]
DOUBLE_BLIND = ("C15228", "Double Blind Study")
MASKING = {
    "open_label": ("C49659", "Open Label Study"),
    "single_blind": ("C28233", "Single Blind Study"),
    "double_blind": DOUBLE_BLIND,
    "triple_blind": DOUBLE_BLIND,
    "quadruple_blind": DOUBLE_BLIND,
}
RANDOMIZED = ("C46079", "Randomized")
NONRANDOMIZED = ("C93043", "Nonrandomized")  # CDISC's allocation codelist C147068, not in C207416 (extensible)
# plannedSex: Female and/or Male (USDM rule DDF00188 wants these two, not "Both").
SEXES = {
    "both": [("C16576", "Female"), ("C20197", "Male")],
    "all": [("C16576", "Female"), ("C20197", "Male")],
    "female": [("C16576", "Female")],
    "male": [("C20197", "Male")],
}
AGE_UNITS = {
    "year": ("C29848", "Year"),
    "years": ("C29848", "Year"),
    "month": ("C29846", "Month"),
    "months": ("C29846", "Month"),
    "week": ("C29844", "Week"),
    "weeks": ("C29844", "Week"),
    "day": ("C25301", "Day"),
    "days": ("C25301", "Day"),
}
NO_UPPER_AGE = 100  # years: how the published files write "no upper age limit" (Range needs a maximum)
OTHER_REASON = ("C17649", "Other")
APPROVAL_DATE = ("C71476", "Approval Date")
TREATMENT_EPOCH = "C101526"
NOT_READ = "Not read by ClinParser"

# --- frequency (C71113) ----------------------------------------------------------------------------
_NUMBERS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "sixteen": 16,
    "eighteen": 18,
    "twenty-four": 24,
    "twenty four": 24,
    "thirty-six": 36,
    "forty-eight": 48,
    "seventy-two": 72,
    "ninety-six": 96,
    "other": 2,
    "second": 2,
}
EVERY_HOURS = {
    2: ("C64516", "Every Two Hours"),
    3: ("C64517", "Every Three Hours"),
    4: ("C64518", "Every Four Hours"),
    5: ("C64519", "Every Five Hours"),
    6: ("C64520", "Every Six Hours"),
    7: ("C64521", "Every Seven Hours"),
    8: ("C64523", "Every Eight Hours"),
    9: ("C64524", "Every Nine Hours"),
    10: ("C64500", "Every Ten Hours"),
    11: ("C64501", "Every Eleven Hours"),
    12: ("C64502", "Every Twelve Hours"),
    13: ("C64503", "Every Thirteen Hours"),
    14: ("C64504", "Every Fourteen Hours"),
    15: ("C64505", "Every Fifteen Hours"),
    16: ("C64506", "Every Sixteen Hours"),
    17: ("C64507", "Every Seventeen Hours"),
    18: ("C64508", "Every Eighteen Hours"),
    19: ("C64509", "Every Nineteen Hours"),
    20: ("C64511", "Every Twenty Hours"),
    21: ("C64512", "Every Twenty-One Hours"),
    22: ("C64513", "Every Twenty-Two Hours"),
    23: ("C64514", "Every Twenty-Three Hours"),
    24: ("C64515", "Every Twenty-Four Hours"),
    36: ("C89791", "Every Thirty-six Hours"),
    48: ("C89790", "Every Forty-eight Hours"),
    72: ("C174288", "Every Seventy Two Hours"),
    96: ("C189436", "Every Ninety-Six Hours"),
    1: ("C64510", "Every Hour"),
}
EVERY_DAYS = {
    1: ("C25473", "Daily"),
    2: ("C64525", "Every Other Day"),
    3: ("C64533", "Every Three Days"),
    4: ("C64534", "Every Four Days"),
    5: ("C71124", "Every Five Days"),
    6: ("C161335", "Every Six Days"),
    7: ("C139177", "Every Seven Days"),
}
EVERY_WEEKS = {
    1: ("C67069", "Weekly"),
    2: ("C71127", "Every Two Weeks"),
    3: ("C64535", "Every Three Weeks"),
    4: ("C64529", "Every Four Weeks"),
    5: ("C103390", "Every Five Weeks"),
    6: ("C89788", "Every Six Weeks"),
    7: ("C116149", "Every Seven Weeks"),
    8: ("C103389", "Every Eight Weeks"),
    10: ("C189433", "Every Ten Weeks"),
    12: ("C161332", "Every Twelve Weeks"),
    13: ("C189434", "Every Thirteen Weeks"),
    16: ("C161336", "Every Sixteen Weeks"),
}
EVERY_MONTHS = {
    1: ("C64498", "Monthly"),
    2: ("C64536", "Every Two Months"),
    3: ("C64537", "Every Three Months"),
    4: ("C64538", "Every Four Months"),
    6: ("C89789", "Every Six Months"),
}
_N = r"(\d+|" + "|".join(sorted((re.escape(w) for w in _NUMBERS), key=len, reverse=True)) + r")"
# (pattern over the lower-cased words, term or {n: term} for the pattern's number); longest match wins.
FREQUENCIES: list[tuple[re.Pattern, Any]] = [
    (re.compile(rf"\bevery {_N} ?(?:hours?|hrs?|h)\b|\bq ?(\d+) ?h\b"), EVERY_HOURS),
    (re.compile(rf"\bevery {_N} ?days?\b|\bq ?(\d+) ?d\b"), EVERY_DAYS),
    (re.compile(rf"\b(?:once )?every {_N} ?(?:weeks?|wks?)\b|\bq ?(\d+) ?w(?:ks?)?\b"), EVERY_WEEKS),
    (re.compile(rf"\bevery {_N} ?months?\b|\bq ?(\d+) ?m(?:o|onths?)?\b"), EVERY_MONTHS),
    (re.compile(r"\bevery other day\b|\balternate days\b|\bqod\b"), ("C64525", "Every Other Day")),
    (re.compile(r"\bevery other week\b"), ("C71127", "Every Two Weeks")),
    (
        re.compile(
            r"\b(?:once (?:a|per|each) day|once daily|(?:one time|1 time|1x) (?:a |per )?day|daily|every day|each day"
            r"|per day|q\.?d\.?|o\.?d\.?)\b"
        ),
        ("C25473", "Daily"),
    ),
    (re.compile(r"\b(?:every morning|each morning|in the morning|qam|q\.a\.m\.)\b"), ("C64595", "QAM")),
    (re.compile(r"\b(?:every evening|each evening|in the evening)\b"), ("C160957", "Every Evening")),
    (re.compile(r"\b(?:at bedtime|qhs|q\.h\.s\.)\b"), ("C64593", "Hour of Sleep")),
    (
        re.compile(
            r"\b(?:twice (?:a |per )?day|twice daily|(?:two|2) times (?:a |per )?day|(?:two|2) times daily|2x daily"
            r"|b\.?i\.?d\.?)\b"
        ),
        ("C64496", "Twice Daily"),
    ),
    (
        re.compile(
            r"\b(?:three times (?:a |per )?day|three times daily|3 times (?:a |per )?day|3 times daily|thrice daily"
            r"|t\.?i\.?d\.?)\b"
        ),
        ("C64527", "Three Times Daily"),
    ),
    (
        re.compile(
            r"\b(?:four times (?:a |per )?day|four times daily|4 times (?:a |per )?day|4 times daily"
            r"|q\.?i\.?d\.?)\b"
        ),
        ("C64530", "Four Times Daily"),
    ),
    (
        re.compile(r"\b(?:once (?:a|per|each) week|once weekly|qw|q1w|(?:one time|1 time) (?:a |per )?week)\b"),
        ("C64526", "Once Weekly"),
    ),
    (re.compile(r"\b(?:weekly|every week|each week)\b"), ("C67069", "Weekly")),
    (
        re.compile(r"\b(?:twice (?:a |per )?week|twice weekly|(?:two|2) times (?:a |per )?week|biw)\b"),
        ("C64497", "Twice Weekly"),
    ),
    (
        re.compile(
            r"\b(?:three times (?:a |per )?week|three times weekly|3 times (?:a |per )?week|"
            r"thrice (?:a |per )?week|thrice weekly|tiw)\b"
        ),
        ("C64528", "Three Times Weekly"),
    ),
    (re.compile(r"\b(?:once (?:a|per|each) month|monthly|every month|qm)\b"), ("C64498", "Monthly")),
    (
        re.compile(r"\b(?:as needed|as required|when needed|if needed|prn|p\.r\.n\.|on demand)\b"),
        ("C64499", "As Needed"),
    ),
    (re.compile(r"\b(?:continuous(?:ly)?|continuous infusion)\b"), ("C53279", "Continuous")),
    (
        re.compile(
            r"\b(?:single dose|single administration|single injection|single infusion|one dose|one time|once only"
            r"|one (?:(?:intravenous|iv|subcutaneous|sc) )?(?:infusion|injection|administration)"
            r"|single)\b|^once$|^[x\u00d7]\s?1$"
        ),
        ("C64576", "Once"),
    ),
]


# "Days 1, 8 and 15 of every 28-day cycle": a count of doses per cycle, which C71113 has terms for;
# "Days 1, 6 and 13" (no cycle): doses at intervals of no one length, C71113's "Intermittent"
# (the days themselves stay in the administration's description)
_DAYS_OF_CYCLE = re.compile(
    r"^(?:on )?days? (\d+(?: \d+)*(?: and \d+)?)(?P<cycle> of (?:every|each|a) \d+ (?:day|week)s? cycle)?$"
)
PER_CYCLE = {2: ("C176288", "Two Times Per Cycle"), 3: ("C176289", "Three Times Per Cycle")}
INTERMITTENT = ("C71325", "Intermittent")


def _words_of(printed: Any) -> str:
    """A printed frequency as plain lower-case words ("Days 1, 8 and 15": "days 1 8 and 15")."""
    text = " ".join(re.sub(r"[^\w./ -]", " ", str(printed or "").lower()).replace("-", " ").split())
    return re.sub(r"\b(twenty|thirty|forty|seventy|ninety) (four|six|eight|two)\b", r"\1-\2", text)


def frequency_term(printed: Any) -> Optional[tuple[str, str]]:
    """The C71113 term of a printed frequency ("once daily", "Q3W", "every 2 weeks"), or None when
    it names none, or more than one ("QD for 7 days, then BID")."""
    text = _words_of(printed)
    if not text:
        return None
    # (a range, "Days 1-14 of each 21-day cycle", is daily dosing: its hyphen is gone from ``text``)
    days = None if re.search(r"\d\s*(?:-|\u2013|to|through)\s*\d", str(printed)) else _DAYS_OF_CYCLE.match(text)
    if days:
        return PER_CYCLE.get(len(re.findall(r"\d+", days[1]))) if days["cycle"] else INTERMITTENT
    spans: list[tuple[int, int, tuple[str, str]]] = []
    for pattern, term in FREQUENCIES:
        for m in pattern.finditer(text):
            if isinstance(term, dict):
                word = next((g for g in m.groups() if g), None)
                n = int(word) if word and word.isdigit() else _NUMBERS.get(word or "")
                found = term.get(n)
                if found is None:
                    return None  # a number the codelist has no term for: not some other term
            else:
                found = term
            spans.append((m.start(), m.end(), found))
    kept: list[tuple[int, int, tuple[str, str]]] = []
    for start, end, term in sorted(spans, key=lambda s: (s[0] - s[1], s[0])):  # longest first
        if all(end <= s or start >= e for s, e, _ in kept):
            kept.append((start, end, term))
    terms = {t for _, _, t in kept}
    return terms.pop() if len(terms) == 1 else None


def unit_term(unit: Any) -> Optional[tuple[str, str]]:
    return UNITS.get(re.sub(r"\s+", "", str(unit or "").lower()))


# --- small helpers ---------------------------------------------------------------------------------
def _text(value: Any) -> str:
    return " ".join(str(value or "").split())


def _value(reading: Any) -> Any:
    """A read field as the contract holds it (``{"value": ...}`` plus trace) or the value itself."""
    return reading["value"] if isinstance(reading, dict) and "value" in reading else reading


def _key(value: Any) -> str:
    return re.sub(r"[\s/-]+", "_", _text(value).lower())


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _alias(ids: Ids, term: tuple[str, str] | str) -> dict:
    """An AliasCode of a CDISC term (code, decode), or of printed words no CDISC term has (str)."""
    standard = printed_code(ids, term) if isinstance(term, str) else code(ids, term)
    return {"id": ids("AliasCode"), "standardCode": standard, "standardCodeAliases": [], "instanceType": "AliasCode"}


def _quantity(ids: Ids, value: float, unit: Optional[tuple[str, str]]) -> dict:
    return {
        "id": ids("Quantity"),
        "value": float(value),
        "unit": _alias(ids, unit) if unit else None,
        "instanceType": "Quantity",
    }


_EPOCH_FILLER = {"period", "phase", "epoch", "stage", "the"}


def epoch_key(name: Any) -> str:
    """A period's name for matching: "Follow-up Period" and "Follow Up" are one period."""
    words = re.findall(r"[a-z0-9]+", _text(name).lower().replace("followup", "follow up"))
    kept = [w for w in words if w not in _EPOCH_FILLER]
    return " ".join(kept or words)


# A schedule's epoch that is the treatment period in parts or by another word: "Cycle 1-4",
# "Cycle 4 and Subsequent Cycles", "Treatment Cycles", "Intervention period", "Dosing Period"
_TREATMENT_PART = re.compile(r"\bcycles?\b|^(?:study\s+)?(?:intervention|dosing)(?:\s+(?:period|phase))?$", re.I)


def _fold_treatment_parts(design: dict, epochs: list[dict], printed: list[dict]) -> list[dict]:
    """The schedules' epochs that the design's periods hold, folded into them (their instances'
    ``epochId`` point to the design's epoch, and they go):

    - when the design printed one treatment epoch, the schedules' epochs that are parts of it
      (its cycles) or name it otherwise ("Intervention period" beside "Treatment"; "Treatment
      Period" beside "Treatment and Assessment Period"). A design of several treatment epochs
      (double-blind and extension) keeps them all: which one a cycle belongs to is not printed;
    - a schedule's "Baseline" column band, a time point the design did not print as a period,
      right before a treatment epoch the design printed: the day treatment starts."""
    into: dict[str, str] = {}
    treatments = [e for e in printed if _is_treatment(e)]
    if len(treatments) == 1:
        words = set(epoch_key(treatments[0]["name"]).split())
        for e in epochs:
            other_name = _is_treatment(e) and set(epoch_key(e["name"]).split()) <= words
            if e not in printed and (_TREATMENT_PART.search(_text(e["name"])) or other_name):
                into[e["id"]] = treatments[0]["id"]
    for e, after in zip(epochs, epochs[1:]):
        if e not in printed and TIME_POINT.match(_text(e["name"])) and after in printed and _is_treatment(after):
            into[e["id"]] = after["id"]
    _point_to(design, into)
    return [e for e in epochs if e["id"] not in into]


def _is_treatment(epoch: dict) -> bool:
    return (epoch.get("type") or {}).get("code") == TREATMENT_EPOCH


def _point_to(node: Any, into: dict[str, str]) -> None:
    """Every ``epochId`` under ``node`` that ``into`` maps (a folded epoch's id) becomes the id it
    maps to."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "epochId" and value in into:
                node[key] = into[value]
            else:
                _point_to(value, into)
    elif isinstance(node, list):
        for value in node:
            _point_to(value, into)


def _chain(objects: list[dict]) -> None:
    for i, o in enumerate(objects):
        o["previousId"] = objects[i - 1]["id"] if i else None
        o["nextId"] = objects[i + 1]["id"] if i + 1 < len(objects) else None


# --- the parts -------------------------------------------------------------------------------------
def _epochs(design: dict, reading: dict, ids: Ids) -> bool:
    """Shares the design's epochs with the schedules' (by ``epoch_key``), adds the others after
    the epoch of the one printed before them; True when the design printed any."""
    printed = [e for e in reading.get("epochs") or [] if isinstance(e, dict) and _text(e.get("name"))]
    if not printed:
        return False
    epochs: list[dict] = list(design.get("epochs") or [])
    by_key: dict[str, dict] = {}
    for epoch in epochs:
        by_key.setdefault(epoch_key(epoch.get("name")), epoch)
    after: Optional[dict] = None  # the epoch the next new one goes after (None: first)
    shared: list[dict] = []  # the epochs the design printed, in its order
    for item in printed:
        name = _text(item["name"])
        found = by_key.get(epoch_key(name))
        if found is None:
            term = next((t for pattern, t in EPOCH_TYPES if pattern.search(name)), OTHER_EPOCH)
            found = {
                "id": ids("StudyEpoch"),
                "name": name,
                "label": name,
                "description": None,
                "type": code(ids, term),
                "previousId": None,
                "nextId": None,
                "notes": [],
                "instanceType": "StudyEpoch",
            }
            epochs.insert(epochs.index(after) + 1 if after is not None else 0, found)
            by_key[epoch_key(name)] = found
        after = found
        shared.append(found)
    epochs = _fold_treatment_parts(design, epochs, shared)
    _chain(epochs)
    design["epochs"] = epochs
    return True


def _name_index(interventions: list[dict]) -> dict[str, str]:
    out: dict[str, str] = {}
    for si in interventions:
        out.setdefault(si["name"], si["id"])
        out.setdefault(_text(si["name"]).lower(), si["id"])
    return out


def _arms(design: dict, reading: dict, interventions: list[dict], ids: Ids) -> bool:
    arms_read = [a for a in reading.get("arms") or [] if isinstance(a, dict) and _text(a.get("name"))]
    if not arms_read:
        return False
    names = _name_index(interventions)
    arms, intervention_ids = [], []
    for arm in arms_read:
        given = [_text(n) for n in arm.get("interventions") or [] if _text(n)]
        arms.append(
            {
                "id": ids("StudyArm"),
                "name": _text(arm["name"]),
                "label": None,
                "description": f"Interventions: {', '.join(given)}" if given else None,
                "type": code(ids, ARM_TYPES.get(_text(arm.get("type")).lower(), ARM_TYPES["other"])),
                "dataOriginDescription": "Data collected from subjects",
                "dataOriginType": code(ids, DATA_ORIGIN),
                "populationIds": [],
                "notes": [],
                "instanceType": "StudyArm",
            }
        )
        intervention_ids.append(
            list(dict.fromkeys(i for i in (names.get(n) or names.get(n.lower()) for n in given) if i))
        )
    design["arms"] = arms
    cells, elements = [], []
    for arm, given in zip(arms, intervention_ids):
        for epoch in design.get("epochs") or []:
            treated = (epoch.get("type") or {}).get("code") == TREATMENT_EPOCH
            element = {
                "id": ids("StudyElement"),
                "name": f"{arm['name']} / {epoch['name']}",
                "label": None,
                "description": f"{arm['name']} in the {epoch['name']} epoch",
                "transitionStartRule": None,
                "transitionEndRule": None,
                "studyInterventionIds": list(given) if treated else [],
                "notes": [],
                "instanceType": "StudyElement",
            }
            elements.append(element)
            cells.append(
                {
                    "id": ids("StudyCell"),
                    "armId": arm["id"],
                    "epochId": epoch["id"],
                    "elementIds": [element["id"]],
                    "instanceType": "StudyCell",
                }
            )
    design["studyCells"], design["elements"] = cells, elements
    return True


def _administration(
    ids: Ids,
    name: str,
    dose: Optional[dict],
    route: Optional[tuple[str, str]],
    frequency: Optional[tuple[str, str] | str],
    product_id: Optional[str],
    said: list[str],
) -> dict:
    return {
        "id": ids("Administration"),
        "name": name,
        "label": None,
        "description": "; ".join(said) or None,
        "duration": {
            "id": ids("Duration"),
            "text": NOT_READ,
            "quantity": None,
            "durationWillVary": False,
            "reasonDurationWillVary": None,
            "instanceType": "Duration",
        },
        "dose": dose,
        "route": _alias(ids, route) if route else None,
        "frequency": _alias(ids, frequency) if frequency else None,
        "administrableProductId": product_id if dose else None,
        "medicalDeviceId": None,
        "notes": [],
        "instanceType": "Administration",
    }


DAILY = ("C25473", "Daily")
# A daily amount's unit and the unit of one administration given once a day
PER_DAY = {"C67399": UNITS["mg"], "C71205": UNITS["ug"], "C66976": UNITS["mg/kg"]}


def per_administration(coded: list[tuple[dict, Any]], frequency: Any) -> list[tuple[dict, Any]]:
    """The doses as USDM's ``Administration.dose`` holds them, the amount of one administration:
    a daily amount ("30 mg/day") of a product given once a day is that amount each time
    ("30 mg"), and one printed both ways ("15 mg" and "15 mg/day") is one dose. Given twice a
    day or more, a daily amount stays as printed: splitting it would be arithmetic the protocol
    did not print."""
    if frequency != DAILY:
        return coded
    out: list[tuple[dict, Any]] = []
    seen: set = set()
    for dose, unit in coded:
        unit = PER_DAY.get(unit[0], unit) if unit else unit
        key = (dose.get("value"), unit)
        if unit and key in seen:
            continue
        seen.add(key)
        out.append((dose, unit))
    return out


def _interventions(study_version: dict, reading: dict, ids: Ids) -> list[dict]:
    out, products = [], []
    for item in reading.get("interventions") or []:
        if not isinstance(item, dict) or not _text(item.get("name")):
            continue
        name = _text(item["name"])
        role_key = _text(item.get("role")).lower() or None
        role = ROLES.get(role_key or "")
        si = {
            "id": ids("StudyIntervention"),
            "name": name,
            "label": None,
            "description": _text(item.get("printed")) or None,
            "role": code(ids, role or ROLES["investigational"]),
            "type": code(ids, DRUG),
            "minimumResponseDuration": None,
            "codes": [],
            "administrations": [],
            "notes": [],
            "instanceType": "StudyIntervention",
        }
        unread = ["the intervention type (coded Pharmacologic Substance)"]
        if role is None:
            unread.insert(
                0,
                f"its role{f' ({role_key})' if role_key else ''} (coded Experimental Intervention: USDM "
                "requires a role and its codelist has no unknown)",
            )
        route_key = _text(item.get("route")).lower()
        route = ROUTES.get(route_key)
        printed_frequency = _text(item.get("frequency"))
        frequency = frequency_term(printed_frequency) or printed_frequency or None
        said_common = []
        if isinstance(frequency, tuple) and _DAYS_OF_CYCLE.match(_words_of(printed_frequency)):
            said_common.append(f"frequency as printed: {printed_frequency}")  # the days a term cannot hold
        if route_key and route is None:
            said_common.append(f"route: {route_key} (no code read)")
        doses = [d for d in item.get("doses") or [] if isinstance(d, dict)]
        product_id = None
        coded = per_administration([(d, unit_term(d.get("unit"))) for d in doses], frequency)
        if any(_number(d.get("value")) and unit for d, unit in coded):
            product = {
                "id": ids("AdministrableProduct"),
                "name": name,
                "label": None,
                "description": None,
                "pharmacologicClass": None,
                "administrableDoseForm": _alias(ids, UNKNOWN_DOSE_FORM),
                "productDesignation": code(ids, IMP if role_key in IMP_ROLES or role is None else AUXILIARY),
                "sourcing": None,
                "properties": [],
                "identifiers": [],
                "ingredients": [],
                "notes": [note(ids, f"{NOT_READ}: the dose form (coded Unknown Dosage Form Category).")],
                "instanceType": "AdministrableProduct",
            }
            products.append(product)
            product_id = product["id"]
        for d, unit in coded:
            printed = _text(d.get("printed")) or _text(f"{d.get('value')} {d.get('unit') or ''}")
            if _number(d.get("value")) and unit:
                si["administrations"].append(
                    _administration(
                        ids,
                        f"{name} {printed}",
                        _quantity(ids, d["value"], unit),
                        route,
                        frequency,
                        product_id,
                        [printed, *said_common],
                    )
                )
            else:
                si["administrations"].append(
                    _administration(
                        ids,
                        f"{name} {printed}",
                        None,
                        route,
                        frequency,
                        None,
                        [f"dose as printed: {printed} (its unit has no code)", *said_common],
                    )
                )
        if not coded and (route or frequency or said_common):
            si["administrations"].append(_administration(ids, name, None, route, frequency, None, said_common))
        si["notes"].append(note(ids, f"{NOT_READ}: " + "; ".join(unread) + "."))
        out.append(si)
    study_version["studyInterventions"] = out
    study_version["administrableProducts"] = products
    return out


def _population(design: dict, reading: dict, ids: Ids) -> list[str]:
    population = design["population"]
    read = reading.get("population") if isinstance(reading.get("population"), dict) else {}
    filled = []
    enrollment = _value(read.get("planned_enrollment"))
    if _number(enrollment):
        population["plannedEnrollmentNumber"] = _quantity(ids, enrollment, None)
        filled.append("plannedEnrollmentNumber")
    sex = SEXES.get(_key(_value(read.get("sex"))))
    if sex:
        population["plannedSex"] = [code(ids, term) for term in sex]
        filled.append("plannedSex")
    age = read.get("age")
    if isinstance(age, dict):
        low, high = age.get("min"), age.get("max")
        unit = AGE_UNITS.get(_key(age.get("unit") or "years"))
        if _number(low) and unit and (high is None or _number(high)):
            open_ended = high is None
            population["plannedAge"] = {
                "id": ids("Range"),
                "minValue": _quantity(ids, low, unit),
                "maxValue": _quantity(
                    ids, NO_UPPER_AGE if open_ended else high, AGE_UNITS["years"] if open_ended else unit
                ),
                "isApproximate": False,
                "instanceType": "Range",
            }
            filled.append("plannedAge")
            if open_ended:
                population["notes"].append(
                    note(
                        ids,
                        (
                            f"No upper age limit is printed: the planned age range's maximum of {NO_UPPER_AGE} years "
                            "stands for none (USDM's Range requires a maximum; the published CDISC pilot and Alexion "
                            "files write it so)."
                        ),
                    )
                )
    healthy = _value(read.get("healthy_volunteers"))
    if isinstance(healthy, bool):
        population["includesHealthySubjects"] = healthy
        filled.append("includesHealthySubjects")
    return filled


def _kind(design: dict, reading: dict, ids: Ids) -> list[str]:
    filled = []
    model = MODELS.get(_key(_value(reading.get("model"))))
    if model:
        design["model"] = code(ids, model)
        filled.append("model")
    elif len(design.get("arms") or []) > 1:
        design["model"] = code(ids, PARALLEL)
    masking_key = _key(_value(reading.get("masking")))
    masking = MASKING.get(masking_key)
    if masking:
        design["blindingSchema"] = _alias(ids, masking)
        filled.append("blindingSchema")
        if masking_key in ("triple_blind", "quadruple_blind"):
            design["notes"].append(
                note(
                    ids,
                    f"Masking printed as {masking_key.replace('_', ' ')}: coded Double Blind "
                    "Study (the CDISC blinding codelist C66735 has no term for it).",
                )
            )
    allocation = _key(_value(reading.get("allocation")))
    if allocation == "randomized":
        design["characteristics"].append(code(ids, RANDOMIZED))
        filled.append("allocation")
    elif allocation in ("non_randomized", "nonrandomized"):
        design["characteristics"].append(code(ids, NONRANDOMIZED))
        filled.append("allocation")
    ratio = _text(_value(reading.get("ratio")))
    if ratio:
        design["notes"].append(note(ids, f"Allocation ratio as printed: {ratio}."))
    return filled


def _indication(design: dict, reading: dict, ids: Ids) -> list[str]:
    text = _text(_value(reading.get("indication")))
    if not text:
        return []
    design["indications"] = [
        {
            "id": ids("Indication"),
            "name": "IND1",
            "label": text,
            "description": text,
            "codes": [],
            "isRareDisease": False,
            "notes": [note(ids, f"{NOT_READ}: whether it is a rare disease (false); no dictionary code.")],
            "instanceType": "Indication",
        }
    ]
    return ["indications"]


_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def _amendments(study_version: dict, reading: dict, ids: Ids) -> list[str]:
    out: list[dict] = []
    for item in reading.get("amendments") or []:
        number = _text((item or {}).get("number")) if isinstance(item, dict) else ""
        if not number:
            continue
        date = _text(item.get("date"))
        amendment = {
            "id": ids("StudyAmendment"),
            "name": f"AMEND_{number}",
            "label": number if re.search(r"\bamendment\b", number, re.I) else f"Amendment {number}",
            "description": None,
            "number": number,
            "summary": _text(item.get("summary")),
            "primaryReason": {
                "id": ids("StudyAmendmentReason"),
                "code": code(ids, OTHER_REASON),
                "otherReason": NOT_READ,
                "instanceType": "StudyAmendmentReason",
            },
            "secondaryReasons": [],
            "changes": [],
            "impacts": [],
            "geographicScopes": [],
            "enrollments": [],
            "dateValues": [],
            "previousId": out[-1]["id"] if out else None,
            "notes": [],
            "instanceType": "StudyAmendment",
        }
        if _ISO_DATE.fullmatch(date):
            amendment["dateValues"].append(
                {
                    "id": ids("GovernanceDate"),
                    "name": f"AMEND_DATE_{number}",
                    "label": None,
                    "description": None,
                    "type": code(ids, APPROVAL_DATE),
                    "dateValue": date,
                    "geographicScopes": [],
                    "instanceType": "GovernanceDate",
                }
            )
        out.append(amendment)
    study_version["amendments"] = out
    return ["amendments"] if out else []


def add_design(design: Design, study_version: dict, reading: dict, ids: Ids) -> list[str]:
    """The hook for the study design reader: ``reading`` is ``result["study"]["design"]``, put into
    the one ``design`` (``studyDesigns[0]``, which already holds the schedules' epochs, encounters,
    activities and timelines, the eligibility criteria and the objectives) and its
    ``study_version`` (``studyInterventions``, ``administrableProducts``, ``amendments``), as the
    module docstring says. New objects take their ids from ``ids``, so no id is used twice.
    Returns the keys it filled (``usdm_study.UNREAD``'s), for the design's "not read" note."""
    filled: list[str] = []
    if _epochs(design, reading, ids):
        filled.append("epochs")
    interventions = _interventions(study_version, reading, ids)
    design["studyInterventionIds"] = [si["id"] for si in interventions]
    if interventions:
        filled.append("studyInterventions")
    if _arms(design, reading, interventions, ids):
        filled.append("arms")
    filled += _population(design, reading, ids)
    filled += _kind(design, reading, ids)
    filled += _indication(design, reading, ids)
    filled += _amendments(study_version, reading, ids)
    return filled
