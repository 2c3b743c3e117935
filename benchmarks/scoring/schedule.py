"""Score schedules of activities (``table["schedule"]``) against a published USDM study design.

    from scoring.schedule import evaluate, audit
    scores = evaluate(document, usdm)            # {"shown": Evaluation, "main": Evaluation}
    print("\\n".join(audit(scores["shown"])))

``document`` is a parse result (``{"toc", "non_toc", ...}``; every table with a ``schedule``
key is read, in document order) or a plain list of schedule dicts; ``usdm`` is a USDM JSON
(``{"study": {"versions": [{"studyDesigns": [...]}]}}``, or a study design itself). The first
study design is used.

Three measures, each precision (our items that match a counted reference item), recall
(counted reference items that one of ours matches) and F1. Matching is not one-to-one: a
column printed as a range covers several reference encounters, and an activity printed in two
tables is one activity. When we found nothing, precision is 0 (1 when the reference is empty
too), so a document without schedules scores zeros.

**Activities.** Ours: the distinct labels (after normalization) of every schedule's
activities and group rows (USDM models group rows as parent activities with ``childIds``).
Reference: an activity's ``label``, else its ``name``; the name is an alias (some files keep
the clean text there and footnote letters in the label). Stages, in order, each over the items
the earlier stages left unmatched:

1. ``same``/``normalized``: equal after :func:`normalize` (NFKC, case, punctuation and
   whitespace, "&" = "and" and "and" dropped so "A/B" = "A and B", British spellings made
   American: randomised = randomized, haematology = hematology, ...).
2. ``footnote letter``: equal once one lowercase letter glued to the end of a word of the
   reference label is removed ("Discharge from unitf", "Heightl , weight"). Reference side only:
   our labels come with their footnote markers already split off.
3. ``leading words``: one label's words are the first words of the other's ("MMSE" /
   "MMSE 10-23", "CT scan" / "CT Scan (if not within last year ...)"); the shorter has at
   least 3 characters. Pairs are taken greedily in reference order, one reference item each.
4. ``abbreviated``/``misspelt``: every word of the reference label is, in order, a word of
   ours, or one of ours abbreviates it (a prefix of 4 letters or more: "Hemat" for Hematology,
   "Chem" for Chemistry) or the two are one typo apart (6 letters or more, similarity 0.85:
   "Uninalysis" for Urinalysis). One label of ours may take several reference activities here
   ("Laboratory (Chem/Hemat)" is both Hematology and Chemistry).

**Encounters.** Ours: every encounter of every schedule. Reference: each encounter that a
``ScheduledActivityInstance`` names; an instance with no encounter is a point of its own
(Early Termination, Unscheduled, each PK time point). An encounter of ours matches a
reference point by the first of these that holds:

1. ``label``: a part of our header (split at " / ", line breaks and " or "; the visit too;
   not the text of an epoch that spans several columns) equals a reference label after
   :func:`normalize`, with a glued footnote letter removed on either side (encounter headers
   are printed text with their markers). Reference labels: the encounter's label (its name
   when it has none) and the labels of its instances' timings; for a point alone on its
   timeline, the timeline's label without the word "Timeline".
2. ``abbreviation``: a header part printed in capitals is the initials of a reference label's
   words ("ET" = Early Termination, "EOS" = End of Study) or, with 3 letters or more, the start
   of a one-word label ("UNS" = Unscheduled).
3. ``label timing``: a reference label that prints a time ("Day -21", "Week 2", "Day -6
   through -5", "2 hours") against our ``timing`` in the same unit (minutes and hours convert);
   one interval contains the other, so our range "Days 4-7" covers "Day 5" and our single
   "Day -6" lies in a reference "Day -6 through -5".
4. ``timing``: the reference Timing of the point's instance, resolved to an offset from its
   timeline's anchor (the "Fixed Reference" instance; Before/After chained through
   ``relativeToScheduledInstanceId``), against our timing as an offset: week n = 7n days,
   month n = 30n days, year n = 365n days, and day n = n - 1 days for n >= 1 unless the
   schedule prints a day 0 (Day 1 is then the anchor day, as study days skip 0); negative days
   are n days before. Our interval covers the offset within half a day (half a minute for
   minute/hour units). Minute/hour timings only meet Timings written with a time part (PT2H)
   and day-or-longer timings only meet those without one (P2W), so a PK table's "0 h" is never
   the main timeline's Day 1: a timeline is on the day scale when one of its Timings has a
   day-or-longer part, else on the minute scale. A timeline with a single timed instance (an
   event like Adverse Event) has no offset: a lone anchor relates to nothing. A timing of ours
   inside a cycle ("C2 D1") is left to rule 3, which then needs the same cycle in the label.

Our ``timing`` is used as the reader gives it; nothing is re-read from our header text.

**Cells.** Reference: (activity, point) for each activity id of each instance at its point
(instances of one encounter are merged). Ours: every mark. A mark matches when its activity
and its encounter match the activity and the point of a reference cell.

**Which reference objects count.** Rule ``shown`` (the reported one): the main timeline's
encounters and every activity its instances name (with their labelled parents) always count;
a reference point outside them (another timeline's instance: Early Termination, Unscheduled,
PK time points; or a main-timeline instance with no encounter) counts when one of our
encounters matches it, and then its cells and activities count too; any other activity counts
when one of ours matches it. A protocol's table prints an ET column or a PK time-point
table that USDM models as separate timelines; those printed things must not be extras, while
timelines no table prints (an Adverse Event timeline, a vital-signs sub-timeline) must not be
misses. Rule ``main`` (the strict alternative): the main timeline's instances only (those with
no encounter too); anything of ours matching only other objects is an extra. A parent activity
whose label is empty is never counted (a grouping with no printed text).
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Optional

RULES = ("shown", "main")

# -- text normalization --------------------------------------------------------------------

# British spellings a person may type for the American ones a protocol prints (or back).
SPELLING = [
    (re.compile(r"(\w{2,})is(e|ed|es|ing|ation|ations)\b"), r"\1iz\2"),  # randomised -> randomized
    (re.compile(r"\bhaem"), "hem"),  # haematology, haemoglobin
    (re.compile(r"\banaem"), "anem"),
    (re.compile(r"\bpaed"), "ped"),
    (re.compile(r"\boedem"), "edem"),
    (re.compile(r"\boesoph"), "esoph"),
    (re.compile(r"\b(colo|behavio|tumo|favo|labo)ur"), r"\1r"),
]
_NOT_WORD = re.compile(r"[\W_]+", re.UNICODE)


def fold(text: str) -> str:
    """Case, Unicode forms, punctuation and spacing folded: words joined by single spaces."""
    text = unicodedata.normalize("NFKC", text or "").replace("&", " and ").casefold()
    return " ".join(_NOT_WORD.sub(" ", text).split())


def american_spelling(folded: str) -> str:
    for pattern, repl in SPELLING:
        folded = pattern.sub(repl, folded)
    return folded


def drop_and(folded: str) -> str:
    """A/B and "A and B" are one label ("Vital signs/Temperature", "Vital Signs and Temperature")."""
    return " ".join(w for w in folded.split() if w != "and")


def normalize(text: str) -> str:
    return drop_and(american_spelling(fold(text)))


_GLUED = re.compile(r"(?<=\w\w)[a-z](?=[^\w]|$)")


def without_glued_letter(text: str) -> list[str]:
    """``text`` with one lowercase letter glued to the end of a word removed, each way it can be:
    footnote markers typed as plain letters ("Discharge from unitf", "Heightl , weight")."""
    return [text[: m.start()] + text[m.end() :] for m in _GLUED.finditer(text or "")]


def leading_words(a: str, b: str) -> bool:
    """One normalized label is the other's first words ("mmse" / "mmse 10 23")."""
    short, long = sorted((a, b), key=len)
    return len(short) >= 3 and short != long and (long + " ").startswith(short + " ")


def initials(folded: str) -> str:
    return "".join(w[0] for w in folded.split())


# -- times -----------------------------------------------------------------------------------

MINUTES = {"minute": 1, "hour": 60, "day": 1440, "week": 7 * 1440, "month": 30 * 1440, "year": 365 * 1440}
TIME_UNITS = ("minute", "hour")
_ISO = re.compile(
    r"^(-)?P(?:([\d.]+)Y)?(?:([\d.]+)M)?(?:([\d.]+)W)?(?:([\d.]+)D)?"
    r"(?:T(?:([\d.]+)H)?(?:([\d.]+)M)?(?:([\d.]+)S)?)?$"
)
_UNIT_WORDS = {
    "min": "minute",
    "mins": "minute",
    "minute": "minute",
    "minutes": "minute",
    "h": "hour",
    "hr": "hour",
    "hrs": "hour",
    "hour": "hour",
    "hours": "hour",
    "day": "day",
    "days": "day",
    "d": "day",
    "week": "week",
    "weeks": "week",
    "wk": "week",
    "wks": "week",
    "month": "month",
    "months": "month",
    "year": "year",
    "years": "year",
}
_NUM = r"[-+]?\d+(?:\.\d+)?"
_RANGE = rf"({_NUM})(?:\s*(?:-|to|through|and|&)\s*(?:day\s*|week\s*)?({_NUM}))?"
_UNIT_FIRST = re.compile(rf"\b([a-z]+)\.?\s*{_RANGE}", re.I)
_UNIT_AFTER = re.compile(rf"({_NUM})\s*([a-z]+)\b", re.I)
_CYCLE = re.compile(r"\b(?:cycle|c)\s*(\d+)\b", re.I)


def iso_minutes(value: str) -> Optional[tuple[str, float]]:
    """An ISO 8601 duration as (scale, minutes): scale "time" when it has only a time part
    (PT2H), "date" otherwise (P2W). Months count 30 days, years 365, as our timings do."""
    m = _ISO.match((value or "").strip())
    if not m or not any(m.groups()[1:]):
        return None
    y, mo, w, d, h, mi, s = (float(g) if g else 0.0 for g in m.groups()[1:])
    total = ((y * 365 + mo * 30 + w * 7 + d) * 24 + h) * 60 + mi + s / 60
    scale = "date" if y or mo or w or d else "time"
    return scale, -total if m.group(1) else total


def label_timing(text: str) -> Optional[tuple]:
    """(cycle, unit, from, to) printed in a label: "Day -21", "Week 2", "Day -6 through -5",
    "2 hours", "C2 Day 1"; None when it names no time."""
    text = (
        unicodedata.normalize("NFKC", text or "").replace("\u2212", "-").replace("\u2013", "-").replace("\u2014", "-")
    )
    cycle = _CYCLE.search(text)
    cycle_no = int(cycle.group(1)) if cycle else None
    for m in _UNIT_FIRST.finditer(text):
        unit = _UNIT_WORDS.get(m.group(1).lower())
        if unit and unit != "minute":  # "min 5" is not a way to print a time
            lo = float(m.group(2))
            hi = float(m.group(3)) if m.group(3) else lo
            return cycle_no, unit, min(lo, hi), max(lo, hi)
    for m in _UNIT_AFTER.finditer(text):
        unit = _UNIT_WORDS.get(m.group(2).lower())
        if unit:
            return cycle_no, unit, float(m.group(1)), float(m.group(1))
    return None


def contains_either_way(a: tuple[float, float], b: tuple[float, float], tol: float = 1e-9) -> bool:
    return (a[0] - tol <= b[0] and b[1] <= a[1] + tol) or (b[0] - tol <= a[0] and a[1] <= b[1] + tol)


def day_offset(day: float, day_zero: bool) -> float:
    """Days from the anchor of a printed study day: with no day 0 printed, Day 1 is the anchor."""
    return day - 1 if day >= 1 and not day_zero else day


def our_offsets(timing: Optional[dict], day_zero: bool) -> Optional[tuple[str, float, float]]:
    """(scale, from, to) in minutes from the anchor, for our encounter timing."""
    if not timing or timing.get("unit") not in MINUTES or timing.get("cycle") is not None:
        return None
    unit, lo, hi = timing["unit"], timing.get("from"), timing.get("to")
    if lo is None:
        return None
    hi = lo if hi is None else hi
    if unit == "day":
        lo, hi = day_offset(lo, day_zero), day_offset(hi, day_zero)
    scale = "time" if unit in TIME_UNITS else "date"
    return scale, lo * MINUTES[unit], hi * MINUTES[unit]


# -- the reference -----------------------------------------------------------------------------


@dataclass
class RefActivity:
    id: str
    text: str
    aliases: list[str]  # the texts it may be printed as (label, name)
    children: list[str]
    labelled: bool  # has a non-empty label (a parent without one is a grouping nothing prints)


@dataclass
class RefPoint:
    """A reference encounter, or an instance that has none (its own point)."""

    key: str
    text: str
    labels: list[str]
    offsets: list[tuple[str, float]] = field(default_factory=list)  # (scale, minutes from anchor)
    main: bool = False  # an instance of the main timeline is here
    main_encounter: bool = False  # ... and it is an encounter


@dataclass
class Reference:
    activities: dict[str, RefActivity]
    points: dict[str, RefPoint]
    cells: dict[tuple[str, str], bool]  # (activity id, point key) -> named by a main-timeline instance


def _design(usdm: dict) -> dict:
    if "study" in usdm:
        return usdm["study"]["versions"][0]["studyDesigns"][0]
    return usdm


def _timeline_offsets(timeline: dict) -> dict[str, tuple[str, float]]:
    """Instance id -> (scale, minutes from the anchor), for the instances whose Timing resolves.
    The scale is the timeline's: "date" when one of its Timings has a day-or-longer part,
    "time" when all are hours and minutes (a PK timeline). A timeline with one timed instance
    gives nothing (see module docstring)."""
    timings = timeline.get("timings") or []
    timing_of = {t.get("relativeFromScheduledInstanceId"): t for t in timings}
    if len(timing_of) < 2:
        return {}
    scale = "date" if any((v := iso_minutes(t.get("value", ""))) and v[0] == "date" for t in timings) else "time"
    done: dict[str, Optional[float]] = {}

    def resolve(iid: str, seen: frozenset) -> Optional[float]:
        if iid in done:
            return done[iid]
        t = timing_of.get(iid)
        value = iso_minutes(t.get("value", "")) if t else None
        result = None
        if t and value:
            kind = ((t.get("type") or {}).get("decode") or "").lower()
            target = t.get("relativeToScheduledInstanceId")
            if kind.startswith("fixed") or target == iid:
                result = 0.0
            elif target and target not in seen:
                base = resolve(target, seen | {iid})
                if base is not None:
                    result = base + (-1 if kind.startswith("before") else 1) * value[1]
        done[iid] = result
        return result

    return {iid: (scale, off) for iid in timing_of if iid and (off := resolve(iid, frozenset())) is not None}


def load_reference(usdm: dict) -> Reference:
    design = _design(usdm)
    activities = {}
    for a in design.get("activities") or []:
        text = (a.get("label") or "").strip() or a.get("name", "")
        aliases = [text] + ([a["name"]] if a.get("name") and a["name"] != text else [])
        activities[a["id"]] = RefActivity(
            a["id"], text, aliases, list(a.get("childIds") or []), bool((a.get("label") or "").strip())
        )
    encounters = {e["id"]: e for e in design.get("encounters") or []}
    timelines = design.get("scheduleTimelines") or []
    main_id = next((t["id"] for t in timelines if t.get("mainTimeline")), timelines[0]["id"] if timelines else None)
    points: dict[str, RefPoint] = {}
    cells: dict[tuple[str, str], bool] = {}
    for timeline in timelines:
        main = timeline["id"] == main_id
        offsets = _timeline_offsets(timeline)
        timing_label = {
            t.get("relativeFromScheduledInstanceId"): t.get("label") or t.get("name")
            for t in timeline.get("timings") or []
        }
        instances = [
            i
            for i in timeline.get("instances") or []
            if "activityIds" in i or i.get("instanceType") == "ScheduledActivityInstance"
        ]
        alone = len(instances) == 1
        # an event timeline's only point goes by the timeline's name, less the word "Timeline"
        own_name = re.sub(
            r"\s*\btimeline\b\s*", " ", timeline.get("label") or timeline.get("name") or "", flags=re.I
        ).strip()
        for inst in instances:
            enc = encounters.get(inst.get("encounterId") or "")
            key = enc["id"] if enc else inst["id"]
            labels = [timing_label.get(inst["id"]), own_name if alone else None]
            if key not in points:
                if enc:
                    text = (enc.get("label") or "").strip() or enc.get("name", "")
                else:
                    text = next((x for x in labels if x), None) or inst.get("label") or inst.get("name") or inst["id"]
                points[key] = RefPoint(key, text, [text])
            point = points[key]
            point.labels += [x for x in labels if x and x not in point.labels]
            if inst["id"] in offsets and offsets[inst["id"]] not in point.offsets:
                point.offsets.append(offsets[inst["id"]])
            point.main |= main
            point.main_encounter |= main and enc is not None
            for aid in inst.get("activityIds") or []:
                if aid in activities:
                    cells[(aid, key)] = cells.get((aid, key), False) or main
    return Reference(activities, points, cells)


# -- our schedules --------------------------------------------------------------------------------


def schedules_of(document) -> list[dict]:
    """Every ``schedule`` in a parse result, in document order (toc, then non_toc); a list of
    schedules is returned as it is."""
    if isinstance(document, list):
        return document
    out = []

    def walk(nodes):
        for node in nodes:
            out.extend(t["schedule"] for t in node.get("tables", []) if t.get("schedule"))
            walk(node.get("subsections", []))

    walk(document.get("toc", []))
    walk(document.get("non_toc", []))
    return out


@dataclass
class OurEncounter:
    label: str
    parts: list[str]  # what the label rules compare (see header_parts)
    timing: Optional[dict]
    day_zero: bool


def _day_zero(schedule: dict) -> bool:
    return any(
        (e.get("timing") or {}).get("unit") == "day" and 0 in ((e["timing"].get("from")), (e["timing"].get("to")))
        for e in schedule.get("encounters", [])
    )


def header_parts(encounter: dict, schedule: dict) -> list[str]:
    """The pieces of a column header that may name its visit: the header split at " / ", line
    breaks and " or " ("EOS or ET"), and the visit; less the text of an epoch spanning several
    columns (a period over many visits names none of them)."""
    parts = re.split(r"\s+/\s+|\n|\s+or\s+", encounter.get("label") or "", flags=re.I)
    parts = [p.strip() for p in parts if p.strip()] + ([encounter["visit"]] if encounter.get("visit") else [])
    epoch = encounter.get("epoch")
    spans = [len(e.get("encounters", [])) for e in schedule.get("epochs", []) if e.get("label") == epoch]
    if epoch and max(spans, default=sum(x.get("epoch") == epoch for x in schedule.get("encounters", []))) > 1:
        parts = [p for p in parts if not _loose(p) & _loose(epoch)]
    return parts


# -- matching ---------------------------------------------------------------------------------------


@dataclass
class Match:
    kind: str  # "activity" | "encounter"
    ours: str
    ref: str
    rule: str


@dataclass
class Matching:
    reference: Reference
    our_activities: dict[str, str]  # normalized key -> text as printed (first seen)
    activity_refs: dict[str, set[str]]  # our key -> reference activity ids
    our_encounters: list[OurEncounter]
    encounter_refs: list[set[str]]  # per our encounter: reference point keys
    marks: list[tuple[str, int]]  # (our activity key, our encounter position)
    mark_text: list[str]
    matches: list[Match]


def match_activities(ours: dict[str, str], ref: Reference) -> tuple[dict[str, set[str]], list[Match]]:
    found: dict[str, set[str]] = {k: set() for k in ours}
    matches: list[Match] = []
    done: set[str] = set()  # reference ids matched
    # 1. normalized equality (one of ours takes every reference activity of that label)
    for a in ref.activities.values():
        for alias in a.aliases:
            key = normalize(alias)
            if key in found:
                found[key].add(a.id)
                done.add(a.id)
                same = " ".join(alias.split()) == " ".join(ours[key].split())
                matches.append(Match("activity", ours[key], alias, "same" if same else "normalized"))
                break
    # 2. a footnote letter glued to the reference label (ours still unmatched)
    free = {k for k in found if not found[k]}
    for a in ref.activities.values():
        if a.id in done:
            continue
        hit = next(
            ((k, alias) for alias in a.aliases for v in without_glued_letter(alias) if (k := normalize(v)) in free),
            None,
        )
        if hit:
            found[hit[0]].add(a.id)
            done.add(a.id)
            matches.append(Match("activity", ours[hit[0]], hit[1], "footnote letter"))
    # 3. leading words: one reference activity per label of ours
    free = {k for k in found if not found[k]}
    for a in ref.activities.values():
        if a.id in done:
            continue
        hit = next(((k, alias) for alias in a.aliases for k in free if leading_words(k, normalize(alias))), None)
        if hit:
            free.discard(hit[0])
            found[hit[0]].add(a.id)
            done.add(a.id)
            matches.append(Match("activity", ours[hit[0]], hit[1], "leading words"))
    # 4. abbreviated or misspelt words (one label of ours may take several: "Chem/Hemat")
    for a in ref.activities.values():
        if a.id in done:
            continue
        hit = next(
            ((k, alias, rule) for alias in a.aliases for k in found if (rule := words_within(normalize(alias), k))),
            None,
        )
        if hit:
            found[hit[0]].add(a.id)
            done.add(a.id)
            matches.append(Match("activity", ours[hit[0]], hit[1], hit[2]))
    return found, matches


MIN_PREFIX = 4  # letters of a word's abbreviation ("chem" for chemistry, "hemat" for hematology)
MIN_SPELT = 6  # letters of a word that may be misspelt ("uninalysis" for urinalysis)
SPELLING_RATIO = 0.85


def words_within(ref: str, ours: str) -> Optional[str]:
    """Every word of a reference label is a word of ours, abbreviated in ours ("Hematology" in
    "Laboratory (Chem/Hemat)") or misspelt by one of the two ("Uninalysis" for "Urinalysis"),
    in order. Returns the rule's name, or None."""
    words, mine = ref.split(), ours.split()
    if not words or len(words) > len(mine):
        return None
    rules = set()
    at = 0
    for word in words:
        while at < len(mine) and not _word_rule(word, mine[at]):
            at += 1
        if at == len(mine):
            return None
        rules.add(_word_rule(word, mine[at]))
        at += 1
    rules.discard("same")
    return " and ".join(sorted(rules)) or None


def _word_rule(ref_word: str, our_word: str) -> Optional[str]:
    if ref_word == our_word:
        return "same"
    if len(our_word) >= MIN_PREFIX and ref_word.startswith(our_word):
        return "abbreviated"
    if (
        min(len(ref_word), len(our_word)) >= MIN_SPELT
        and difflib.SequenceMatcher(None, ref_word, our_word).ratio() >= SPELLING_RATIO
    ):
        return "misspelt"
    return None


def _loose(text: str) -> set[str]:
    """A header or label, normalized as printed and with a glued footnote letter removed."""
    return {normalize(v) for v in [text] + without_glued_letter(text)} - {""}


def same_label(part: str, label: str) -> Optional[str]:
    if normalize(part) == normalize(label):
        return "label"
    if _loose(part) & _loose(label):
        return "label, footnote letter"
    return None


def abbreviation(part: str, label: str) -> bool:
    """A part printed in capitals that is the initials of the label's words ("ET" = Early
    Termination) or, with 3 letters or more, the start of a one-word label ("UNS")."""
    words = fold(label).split()
    for raw in [part] + without_glued_letter(part):
        letters = re.sub(r"[^A-Za-z]", "", raw)
        if len(letters) < 2 or not letters.isupper() or re.search(r"\d", raw):
            continue
        if len(words) >= 2 and letters.lower() == initials(" ".join(words)):
            return True
        if len(letters) >= 3 and len(words) == 1 and words[0].startswith(letters.lower()):
            return True
    return False


def _label_rule(enc: OurEncounter, point: RefPoint) -> Optional[tuple[str, str]]:
    for part in enc.parts:
        for lab in point.labels:
            if rule := same_label(part, lab):
                return rule, lab
    for part in enc.parts:
        for lab in point.labels:
            if abbreviation(part, lab):
                return "abbreviation", lab
    return None


def _label_timing_rule(enc: OurEncounter, point: RefPoint) -> Optional[tuple[str, str]]:
    t = enc.timing
    if not t or t.get("unit") not in MINUTES or t.get("from") is None:
        return None
    ours = (t["from"], t["to"] if t.get("to") is not None else t["from"])
    for lab in point.labels:
        parsed = label_timing(lab)
        if not parsed or parsed[0] != t.get("cycle"):
            continue
        _, unit, lo, hi = parsed
        if unit == t["unit"] and contains_either_way(ours, (lo, hi)):
            return "label timing", lab
        if unit in TIME_UNITS and t["unit"] in TIME_UNITS:
            a = (ours[0] * MINUTES[t["unit"]], ours[1] * MINUTES[t["unit"]])
            if contains_either_way(a, (lo * MINUTES[unit], hi * MINUTES[unit])):
                return "label timing", lab
    return None


def _timing_rule(enc: OurEncounter, point: RefPoint) -> Optional[tuple[str, str]]:
    ours = our_offsets(enc.timing, enc.day_zero)
    if not ours:
        return None
    scale, lo, hi = ours
    tol = 720 if scale == "date" else 0.5
    for ref_scale, minutes in point.offsets:
        if ref_scale == scale and lo - tol <= minutes <= hi + tol:
            shown = f"{minutes / 1440:+g} d" if scale == "date" else f"{minutes:+g} min"
            return "timing", f"{point.text} ({shown} from the anchor)"
    return None


ENCOUNTER_RULES = (_label_rule, _label_timing_rule, _timing_rule)


def match(document, usdm: dict) -> Matching:
    """Match our schedules with the reference (all reference objects; the rules then count)."""
    ref = load_reference(usdm)
    schedules = schedules_of(document)
    our_activities: dict[str, str] = {}
    row_key: dict[tuple[int, int], str] = {}
    encounters: list[OurEncounter] = []
    position: dict[tuple[int, int], int] = {}
    for s, sched in enumerate(schedules):
        for item in list(sched.get("activities", [])) + list(sched.get("groups", [])):
            key = normalize(item.get("label") or "")
            if key:
                our_activities.setdefault(key, " ".join(item["label"].split()))
        for i, act in enumerate(sched.get("activities", [])):
            row_key[(s, i)] = normalize(act.get("label") or "")
        zero = _day_zero(sched)
        for e, enc in enumerate(sched.get("encounters", [])):
            position[(s, e)] = len(encounters)
            encounters.append(OurEncounter(enc.get("label") or "", header_parts(enc, sched), enc.get("timing"), zero))
    activity_refs, matches = match_activities(our_activities, ref)
    encounter_refs = []
    for enc in encounters:
        keys = set()
        for point in ref.points.values():
            hit = next((r for f in ENCOUNTER_RULES if (r := f(enc, point))), None)
            if hit:
                keys.add(point.key)
                rule, ref_text = hit
                same = rule == "label" and " ".join(enc.label.split()) == " ".join(ref_text.split())
                matches.append(Match("encounter", " ".join(enc.label.split()), ref_text, "same" if same else rule))
        encounter_refs.append(keys)
    marks, mark_text = [], []
    for s, sched in enumerate(schedules):
        acts, encs = sched.get("activities", []), sched.get("encounters", [])
        for mark in sched.get("marks", []):
            a, e = mark.get("activity"), mark.get("encounter")
            if (s, a) in row_key and (s, e) in position and row_key[(s, a)]:
                marks.append((row_key[(s, a)], position[(s, e)]))
                mark_text.append(
                    f"{' '.join((acts[a].get('label') or '').split())} @ "
                    f"{' '.join((encs[e].get('label') or '').split())}"
                )
    return Matching(ref, our_activities, activity_refs, encounters, encounter_refs, marks, mark_text, matches)


# -- scoring -------------------------------------------------------------------------------------------


@dataclass
class Measure:
    ours: int
    refs: int
    ours_matched: int
    refs_matched: int
    unmatched_ours: list[str] = field(default_factory=list)
    unmatched_refs: list[str] = field(default_factory=list)

    @property
    def precision(self) -> float:
        return self.ours_matched / self.ours if self.ours else (1.0 if not self.refs else 0.0)

    @property
    def recall(self) -> float:
        return self.refs_matched / self.refs if self.refs else 1.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0


@dataclass
class Evaluation:
    rule: str
    activities: Measure
    encounters: Measure
    cells: Measure
    matches: list[Match]
    not_counted: list[str]  # reference points the rule leaves out (nothing of ours shows them)
    activities_not_counted: list[str]  # reference activities it leaves out


def _measure(ours: list[str], our_hits: list[set], counted: list[str], describe) -> Measure:
    counted_set = set(counted)
    hit_refs: set = set()
    ok = []
    for hits in our_hits:
        good = hits & counted_set
        ok.append(bool(good))
        hit_refs |= good
    return Measure(
        ours=len(ours),
        refs=len(counted),
        ours_matched=sum(ok),
        refs_matched=sum(r in hit_refs for r in counted),
        unmatched_ours=[o for o, good in zip(ours, ok) if not good],
        unmatched_refs=[describe(r) for r in counted if r not in hit_refs],
    )


def score(m: Matching, rule: str = "shown") -> Evaluation:
    if rule not in RULES:
        raise ValueError(f"rule must be one of {', '.join(RULES)}, not {rule!r}")
    ref = m.reference
    shown_points = set().union(*m.encounter_refs) if m.encounter_refs else set()
    shown_acts = set().union(*m.activity_refs.values()) if m.activity_refs else set()
    if rule == "main":
        points = [k for k, p in ref.points.items() if p.main]
        cells = [c for c, main in ref.cells.items() if main]
    else:
        points = [k for k, p in ref.points.items() if p.main_encounter or k in shown_points]
        counted = set(points)
        cells = [c for c in ref.cells if c[1] in counted]
    named = {a for a, _ in cells}
    acts = {a.id for a in ref.activities.values() if a.id in named or (rule == "shown" and a.id in shown_acts)}
    acts |= {a.id for a in ref.activities.values() if a.labelled and set(a.children) & acts}
    activities = [a for a in ref.activities if a in acts]  # reference order
    our_keys = list(m.our_activities)
    activity_measure = _measure(
        [m.our_activities[k] for k in our_keys],
        [m.activity_refs[k] for k in our_keys],
        activities,
        lambda a: ref.activities[a].text,
    )
    encounter_measure = _measure(
        [" ".join(e.label.split()) for e in m.our_encounters], m.encounter_refs, points, lambda k: ref.points[k].text
    )
    mark_hits = []
    for key, pos in m.marks:
        mark_hits.append({(a, p) for a in m.activity_refs.get(key, ()) for p in m.encounter_refs[pos]})
    cell_measure = _measure(
        m.mark_text, mark_hits, cells, lambda c: f"{ref.activities[c[0]].text} @ {ref.points[c[1]].text}"
    )
    not_counted = [p.text for k, p in ref.points.items() if k not in set(points)]
    left = [a.text or a.id for a in ref.activities.values() if a.id not in acts]
    return Evaluation(rule, activity_measure, encounter_measure, cell_measure, m.matches, not_counted, left)


def evaluate(document, usdm: dict) -> dict[str, Evaluation]:
    """Both counting rules over one matching: {"shown": ..., "main": ...}."""
    m = match(document, usdm)
    return {rule: score(m, rule) for rule in RULES}


def audit(e: Evaluation) -> list[str]:
    """Every unmatched item on both sides and every match that is not an identical label."""
    lines = []
    for name, measure in (("activities", e.activities), ("encounters", e.encounters), ("cells", e.cells)):
        lines.append(
            f"{name}: P {measure.precision:.3f} R {measure.recall:.3f} F1 {measure.f1:.3f} "
            f"(ours {measure.ours_matched}/{measure.ours}, reference {measure.refs_matched}/{measure.refs})"
        )
        lines += [f"  unmatched reference: {x}" for x in measure.unmatched_refs]
        lines += [f"  unmatched ours:      {x}" for x in measure.unmatched_ours]
    fuzzy = [x for x in e.matches if x.rule != "same"]
    if fuzzy:
        lines.append("matches other than identical labels:")
        lines += [f"  {x.kind:9} [{x.rule}] {x.ours!r} ~ {x.ref!r}" for x in fuzzy]
    if e.not_counted:
        lines.append(f"reference points not counted under rule {e.rule!r}: " + ", ".join(e.not_counted))
    if e.activities_not_counted:
        lines.append(f"reference activities not counted under rule {e.rule!r}: " + ", ".join(e.activities_not_counted))
    return lines
