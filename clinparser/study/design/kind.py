"""The kind of study: allocation, model, masking and the randomization ratio.

Protocols state these in their title ("A Randomized, Double-blind, Placebo-controlled,
Parallel-group Study ...") and again in the synopsis's design field and the design section.
The title is read first, then the design fields in order; when two places say different things
(open-label in one, double-blind in another) the first wins and a diagnostic says so. The
model, when no place names it, follows from the arms: one arm is a single-group study, several
arms given side by side a parallel one (the diagnostic says it was inferred).
"""

from __future__ import annotations

import re
from typing import Optional

from ..trace import Tracer
from .fields import Field, find
from .items import item, sentences

DESIGN_LABEL = re.compile(
    r"\b(?:study|trial|overall|general)\s+design\b|\bdesign\b|\bmethodology\b|\bblinding\b|\bmasking\b|\btrial\s+type\b"
    r"|\btype\s+of\s+(?:study|trial|control)\b|\brandomi[sz]ation\b|\btreatment\s+assignment\b|\bdescription\s+of\s+the\s+study\b"
    r"|\bstudy\s+(?:overview|schema|description)\b",
    re.I,
)
MASKING = [
    ("quadruple blind", re.compile(r"\bquadruple[- ](?:blind|mask)", re.I)),
    ("triple blind", re.compile(r"\btriple[- ](?:blind|mask)", re.I)),
    ("double blind", re.compile(r"\bdouble[- ]?(?:blind|mask)|\bobserver[- ]blind|\bsponsor[- ]blind", re.I)),
    ("single blind", re.compile(r"\bsingle[- ]?(?:blind|mask)", re.I)),
    # "an unblinded study", not "the number of people unblinded" (unblinding happens in blinded studies)
    (
        "open label",
        re.compile(
            r"\bopen[- ]label|\bunblinded\s+(?:study|trial|design)\b|\bnon[- ]?blind|\bopen\s+(?:study|trial)\b"
            r"|\bno\s+masking\b",
            re.I,
        ),
    ),
]
ALLOCATION = [
    (
        "non-randomized",
        re.compile(r"\bnon[- ]?randomi[sz]ed\b|\bnot\s+(?:be\s+)?randomi[sz]ed\b|\bsingle[- ](?:arm|group)\b", re.I),
    ),
    ("randomized", re.compile(r"\brandomi[sz](?:ed|ation)\b|\brandomly\s+(?:assigned|allocated)\b", re.I)),
]
MODEL = [
    # "crossover design", "3-way crossover", "a crossover study"; not "may cross over to the other arm"
    (
        "crossover",
        re.compile(
            r"\bcross[- ]?over\s+(?:design|study|trial|fashion|manner|period)"
            r"|\b(?:\d|two|three|four)[- ](?:way|period|sequence)\s+cross[- ]?over\b"
            r"|\b(?:a|randomi[sz]ed|double-blind|placebo-controlled),?\s+cross[- ]?over\b|\bcross[- ]?over,",
            re.I,
        ),
    ),
    ("factorial", re.compile(r"\bfactorial\b", re.I)),
    # "a one-arm study", not "enrollment into one arm may be discontinued"
    (
        "single group",
        re.compile(
            r"\bsingle[- ](?:arm|group)\b|\bone[- ]arm(?:ed)?\s+(?:study|trial|design)\b"
            # "a Phase 1, fixed sequence, open-label study": every participant takes the same
            # sequence, one group (not "a single-sequence crossover" of several sequences)
            r"|\b(?:fixed|single)[- ]sequence\b(?!\s+cross)"
            # "All comparisons will be made using historical data": no concurrent control group
            r"|\bcomparisons?\s+(?:will\s+be\s+)?(?:made\s+)?(?:using|with|to|against)\s+historical\b"
            r"|\bhistorical(?:ly)?\s+controll?ed\b"
            r"|\buncontrolled,?\s+(?:open-label\s+)?(?:study|trial|design)\b",
            re.I,
        ),
    ),  # not "uncontrolled hypertension"
    (
        "sequential",
        re.compile(
            # a dose escalation design, not "during dose escalation (run-in period)", a titration
            r"\b(?:group[- ])?sequential\s+(?:design|cohorts?|study)\b|\bascending[- ]dose\b"
            r"|\bdose[- ]escalation\s+(?:study|trial|design|cohorts?|part|phase|stage)\b",
            re.I,
        ),
    ),
    ("parallel", re.compile(r"\bparallel\b", re.I)),
]
# "2:1", "2:2:1", "1:1:1:1" (an allocation ratio of any number of groups)
RATIO = re.compile(r"(?<![\d:.])\d{1,2}(?:\s?:\s?\d{1,2})+(?![\d:])")
RATIO_CONTEXT = re.compile(r"\bratio\b|\brandomi[sz]", re.I)


def read_kind(fields: list[Field], title: Optional[dict], arms: list[dict], tracer: Tracer) -> tuple[dict, list[dict]]:
    """``{"allocation", "model", "masking", "ratio"}`` (items or None) and diagnostics."""
    places = _places(fields, title)
    notes: list[dict] = []
    out = {}
    for key, terms in (("masking", MASKING), ("allocation", ALLOCATION), ("model", MODEL)):
        out[key] = _first_term(places, terms, key, tracer, notes)
    if out["masking"] is None:
        out["masking"] = _blinded_both(places, tracer)
    if out["model"] is None and arms:
        value = "single group" if len(arms) == 1 else "parallel"
        out["model"] = {"value": value, "pages": [], "boxes": [], "section": None, "printed": ""}
        notes.append(
            {
                "kind": "design_model_inferred",
                "detail": f"no design model is printed: {value!r} from the {len(arms)} arm(s) read",
            }
        )
    out["ratio"] = _ratio(places, tracer)
    return out, notes


# "blinding of the participant and clinical staff", "the participants and the investigators
# will be blinded": a study called only "blinded" that blinds both sides is double blind
_BLINDED = re.compile(r"(?<!un)\b(?:blind(?:ed|ing)|mask(?:ed|ing))\b", re.I)
_PEOPLE = r"(?:participants?|subjects?|patients?)"
_STAFF = r"(?:investigators?|(?:the\s+)?(?:study|site|clinical)\s+staff|personnel|clinicians?)"
# both sides named together: "the participant and clinical staff", "investigators and subjects"
_BOTH_SIDES = re.compile(
    rf"\b{_PEOPLE}\s+and\s+(?:the\s+|all\s+)?{_STAFF}\b|\b{_STAFF}\s+and\s+(?:the\s+)?{_PEOPLE}\b", re.I
)
# "will not be blinded", "neither ... nor", "break the blinding", "unblinded"
_NO_BLINDING = re.compile(r"\b(?:not|neither|nor|never|without|break\w*|unblind\w*)\b", re.I)


def _blinded_both(places, tracer: Tracer) -> Optional[dict]:
    """Double blind where no masking term is printed but one sentence blinds the participants
    and the investigators or staff together ("blinding of the participant and clinical staff")."""
    for field, text in places:
        for sentence in sentences(text):
            if _BLINDED.search(sentence) and _BOTH_SIDES.search(sentence) and not _NO_BLINDING.search(sentence):
                return item(tracer, field if field and field.kind != "title" else None, sentence, value="double blind")
    return None


_NOT_APPLICABLE = re.compile(r"^\s*(?:not\s+applicable|n/?a|none)\b", re.I)


def _places(fields: list[Field], title: Optional[dict]) -> list[tuple[Optional[Field], str]]:
    places: list[tuple[Optional[Field], str]] = []
    if title and title.get("text"):
        page = title.get("page")
        places.append((Field("Title", title["text"], None, (page, page), True, "title"), title["text"]))
    for f in find(fields, DESIGN_LABEL):
        if re.search(r"randomi[sz]ation", f.label, re.I) and _NOT_APPLICABLE.match(f.value):
            # "7.6 Randomisation: Not applicable as this is an extension trial": nobody is randomized
            places.append((f, f"Not randomized: {f.value}"))
        else:
            places.append((f, f.value))
    return places


# a design the sentence rules out: "A cross-over of treatment groups ... will not be allowed",
# "randomization, blinding and use of placebo would not be appropriate"
_RULED_OUT = re.compile(
    r"\b(?:will|shall|is|are)\s+not\s+(?:be\s+)?(?:allowed|permitted)\b|\bnot\s+(?:allowed|permitted)\b"
    r"|\b(?:would|will|is|are)\s+not\s+(?:be\s+)?(?:appropriate|used|applied|feasible)\b",
    re.I,
)
# another trial's design: "patients who completed the randomized phase III trial 1199.32", "in
# the randomized parent study"
_OTHER_TRIAL = re.compile(
    r"\b(?:completed|parent|previous|prior|preceding|earlier|feeder|original)\s+(?:\w+\s+){0,2}?"
    r"(?:randomi[sz]ed|double[- ]blind|placebo[- ]controlled)\b"
    r"|\b(?:randomi[sz]ed|double[- ]blind)\s+(?:[\w-]+\s+){0,3}?(?:trials?|stud(?:y|ies))\s+\d"
    r"|\b(?:completed|previous|prior|preceding|earlier)\s+(?:\w+\s+){0,2}?dose[- ]escalation\b",
    re.I,
)


def _first_term(places, terms, key: str, tracer: Tracer, notes: list[dict]) -> Optional[dict]:
    found: list[tuple[str, Optional[Field], str]] = []
    for field, text in places:
        for value, pattern in terms:
            sentence = next(
                (
                    s
                    for s in sentences(text)
                    if pattern.search(s)
                    and not _RULED_OUT.search(s)
                    and not (field and field.kind != "title" and _OTHER_TRIAL.search(s))
                ),
                None,
            )
            if sentence:
                found.append((value, field, sentence))
                break
    if not found:
        return None
    value, field, sentence = found[0]
    others = sorted({v for v, _, _ in found[1:4] if v != value})
    if others:
        notes.append(
            {
                "kind": f"design_{key}_disagrees",
                "detail": f"{key}: {value!r} where first printed, {', '.join(map(repr, others))} elsewhere",
            }
        )
    return item(tracer, field if field and field.kind != "title" else None, sentence, value=value)


def _ratio(places, tracer: Tracer) -> Optional[dict]:
    for field, text in places:
        for sentence in (
            s for s in text.split("\n") if RATIO_CONTEXT.search(s) or (field and RATIO_CONTEXT.search(field.label))
        ):
            m = RATIO.search(sentence)
            if m and not re.search(r"\b(?:CI|confidence|p\s?[<=])", sentence[max(0, m.start() - 20) : m.start()]):
                value = re.sub(r"\s", "", m.group(0))
                return item(tracer, field if field and field.kind != "title" else None, sentence, value=value)
    return None
