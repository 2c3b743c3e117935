"""To whom it is given: the arms, each with the interventions it receives.

**Arms** are read from a field listing them ("Treatment Groups", "Arms", "Intervention Groups",
"Treatment Sequences") or from labelled lines anywhere in the design fields ("Arm 1: ...",
"Group A: ...", "Cohort 2: ...", "Sequence AB: ..."), then in the section assigning
participants to treatment ("Treatment Assignment/Randomization"), named as printed without a count
("(N = 200)"). An arm whose name is placebo alone is a placebo comparator; one naming a product
read as a comparator an active comparator; the others experimental. Each arm lists the
interventions its name mentions, by the words each goes by (``with_aliases``: its head word and
its abbreviations). The interventions are read first (``interventions.py``).
"""

from __future__ import annotations

import re
from typing import Optional

from ..trace import Tracer
from .fields import Field, find
from .interventions import _DOSE, ADMINISTRATION_LABEL, ARM_LABEL, DESIGN_LABEL, FREQUENCY, _route_in
from .items import item
from .kind import RATIO
from .product_names import _head, aliases

# "Arm A: ...", "Cohort 2 - ...", "Sequence AB"; the label is capitals or a number ("regimen and
# prior treatment" is no arm line)
# an arm's label: "Arm A", "Group #2", "Group#1", "Arm No. 3"
_ARM_LABEL = (
    r"(?:treatment\s+)?(?:arm|group|cohort|sequence|regimen|part)(?:\s*#\s*|\s+no\.\s*|\s+)"
    r"(?-i:[A-Z]{1,4}|\d{1,3}[A-Za-z]?)\b"
)
_ARM_LINE = re.compile(
    rf"^\s*(?:[-*\u2022]\s*)?(?P<name>{_ARM_LABEL}"
    # a sentence about it is no arm line: "Part A will enroll participants with minor stroke
    # only", "Part B enrollment will be extended to" (no colon or dash, and a verb)
    r"(?![^:.\u2013-]*\b(?:will|is|are|was|were|has|have|had|consists?|enrolls?|includes?|comprises?|may|must|shall)\b)"
    r"\s*[:.\u2013-]?\s*.*)$",
    re.I,
)
_COUNT = re.compile(r"\s*[(\[]\s*[nN]\s*=\s*\d+[^)\]]*[)\]]|\s*:?\s*\bN\s*=\s*\d+\b", re.I)


def read_arms(
    fields: list[Field],
    interventions: list[dict],
    tracer: Tracer,
    tables: Optional[list[tuple[dict, Field]]] = None,
    schemas: Optional[list[Field]] = None,
) -> list[dict]:
    """Arms from a crossover's table of sequences (each row the sequence in full), else the
    fields that list them, else the labelled lines of the section assigning participants
    (``_assigned_arms``), else an intervention table's arm columns, else the boxes of the
    study schema, else the sentence that assigns
    participants to them. ``tables``: (table, where) of the document; ``schemas``: the schema
    sections (their text with the words read in their pictures)."""
    arms = _sequence_arms(tables or [], interventions, tracer)
    if arms:
        return arms
    for field in find(fields, ARM_LABEL, ("table", "paragraph")) + find(fields, DESIGN_LABEL):
        lines = [ln for ln in field.value.split("\n") if ln.strip()]
        if len(lines) >= 2 and lines[0].rstrip().endswith(":"):
            lines = lines[1:]  # "As follows:", "The study has the following groups:" introduce the list
        labelled = [m["name"] for m in map(_ARM_LINE.match, lines) if m]
        if (
            not labelled
            and ARM_LABEL.search(field.label)
            and 2 <= len(lines) <= 8
            and all(len(ln) < 150 for ln in lines)
        ):
            labelled = lines  # a list of the arms, one a line
        arms = _named_arms(tracer, field, labelled, interventions)
        if arms:
            break
    # the assignment section's list when it is fuller: a schema picture's text may lose a box's
    # label to the randomization mark beside it ("R Group 2: ..."), leaving Groups 1 and 3
    assigned = _assigned_arms(fields, interventions, tracer)
    if len(assigned) > len(arms):
        arms = assigned
    if not arms:
        arms = _table_arms(tables or [], interventions, tracer)
    if not arms:
        arms = _schema_arms(schemas or [], interventions, tracer)
    if not arms:
        arms = _arms_in_prose(fields, interventions, tracer)
    return arms


# "5.6 Treatment Assignment/Randomization", "Method of Allocation": where participants are
# assigned, often to a list of labelled groups
_ASSIGNMENT_LABEL = re.compile(r"\bassignment\b|\brandomi[sz]ation\b|\ballocation\b|\bassigning\b", re.I)


def _assigned_arms(fields: list[Field], interventions: list[dict], tracer: Tracer) -> list[dict]:
    """The labelled lines ("Treatment Group 1 (N=50); EDP-305 1 mg orally for 12 weeks") of
    the section assigning participants to treatment, two at least: the arms when no field of
    arms or of the design lists them."""
    for field in find(fields, _ASSIGNMENT_LABEL):
        names = [m["name"] for m in map(_ARM_LINE.match, field.value.split("\n")) if m]
        if len(names) >= 2:
            return _named_arms(tracer, field, names, interventions)
    return []


def _named_arms(tracer: Tracer, field: Field, names: list[str], interventions: list[dict]) -> list[dict]:
    """An arm for each name as printed, its count ("(N = 200)") left out, each name once."""
    arms: list[dict] = []
    for name in names:
        clean = _COUNT.sub("", _label_of_paragraph(name)).strip(" .;:")
        if clean and clean.lower() not in {a["name"].lower() for a in arms}:
            arm = _arm(tracer, field, name, clean, interventions)
            if not arm["interventions"] and clean != name:  # the label names none: its paragraph does
                arm["interventions"] = _given(name, interventions)
            arms.append(arm)
    return arms


# "Group #1-Fixed Letrozole Group: Provided their blood tests ..., patients who are randomized to
# fixed dose Letrozole will start ...": a label heading a paragraph about the arm, whose sentences
# are not its name
_LABEL_THEN_PARAGRAPH = re.compile(
    r"^(?P<label>[^:]{3,80}?)\s*:\s+(?P<rest>(?=(?:\S+\s+){7})[^.]*?\b(?:will|are|is|were|was|should|must|may)\s.*)$"
)


def _label_of_paragraph(line: str) -> str:
    """An arm line's name: the line, or its label where a paragraph follows a label that names
    the arm in words of its own ("Group#1-Fixed Letrozole Group: ..."; "Arm A: Participants will
    receive ..." keeps its line, the label alone would say nothing)."""
    m = _LABEL_THEN_PARAGRAPH.match(line)
    if not m:
        return line
    own = _ARM_LABEL_ONLY.sub("", m["label"]).strip(" -\u2013:")
    return m["label"] if re.search(r"[A-Za-z]{3}", own) else line


# "Group #1", "Arm A", "Cohort 2": a label's number part, which names nothing of the arm
_ARM_LABEL_ONLY = re.compile(rf"^\s*{_ARM_LABEL}", re.I)


_FOOTNOTE_MARKS = re.compile(r"[\u00aa\u00ba\u00b9\u00b2\u00b3\u2070-\u2079*\u2020\u2021]+$")


def _schema_arms(schemas: list[Field], interventions: list[dict], tracer: Tracer) -> list[dict]:
    """The arms a study schema draws as boxes: its short lines (a box's words) that name a
    product read, or placebo, with a dose, route or frequency ("5mg IV Dose AMG 416 TIW",
    "Placebo IV Dose TIW"); two to eight of them."""
    names = [w for i in interventions for w in _words_for(i)] + ["placebo"]
    for schema in schemas:
        found: list[str] = []
        for line in schema.value.split("\n"):
            line = _FOOTNOTE_MARKS.sub("", _COUNT.sub("", " ".join(line.split()))).strip(" .;:")
            if (
                3 < len(line) <= 70
                and _names_any(line, names)
                and (_DOSE.search(line) or _route_in(line) or FREQUENCY.search(line))
                and line.lower() not in {f.lower() for f in found}
            ):
                found.append(line)
        if 2 <= len(found) <= 8:
            return [_arm(tracer, schema, name, name, interventions) for name in found]
    return []


# "Arm Name | Drug low dose | Drug high dose | Placebo" heading an intervention table (the Common
# Protocol Template's), or such a row in it
_ARM_NAME_LABEL = re.compile(r"^(?:(?:study|treatment)\s+)?(?:arm|group)s?(?:\s+(?:name|title|description))?$", re.I)


_COLUMN_LABEL = re.compile(
    r"^(?:arm\s+type|intervention\s+(?:name|type)|dose\s+formulation|unit\s+dose|dosage|route|use|type|regimen|sourcing|IMP)\b",
    re.I,
)


def _table_arms(tables: list[tuple[dict, Field]], interventions: list[dict], tracer: Tracer) -> list[dict]:
    """Arms an intervention table names a column each, under an "Arm Name" label: the first
    such table's (two arms at least)."""
    for table, where in tables:
        if table.get("schedule"):
            continue
        columns = [" ".join(str(c).split()) for c in table.get("columns") or []]
        rows = [columns] + [[" ".join(str(c).split()) for c in r] for r in table.get("data") or []]
        for row in rows:
            if row and _ARM_NAME_LABEL.match(row[0]):
                names = [c for c in row[1:] if c]
                if sum(bool(_COLUMN_LABEL.match(c)) for c in names) >= 2:
                    break  # "Arm Name | Arm Type | Intervention Name ...": a row per arm, labelled "Arm A"
                if len(names) >= 2:
                    return [_arm(tracer, where, name, name, interventions) for name in dict.fromkeys(names)]
    return []


_SEQUENCE_HEADER = re.compile(r"^(?:treatment\s+|dosing\s+)?sequences?(?:\s+(?:group|name|no\.?|number))?$", re.I)


def _sequence_arms(tables: list[tuple[dict, Field]], interventions: list[dict], tracer: Tracer) -> list[dict]:
    """A crossover's table of sequences: the first column headed "(Treatment) Sequence", a row
    per sequence ("A | Placebo | 600 mg | 300 mg", a column per period): each row an arm, named
    "Treatment Sequence A: Placebo, 600 mg, 300 mg"."""
    for table, where in tables:
        columns = [" ".join(str(c).split()) for c in table.get("columns") or []]
        if len(columns) < 3 or not _SEQUENCE_HEADER.match(columns[0].strip(" *:")):
            continue
        rows = [[" ".join(str(c).replace("<br>", " ").split()) for c in r] for r in table.get("data") or []]
        rows = [r for r in rows if r and 0 < len(r[0]) <= 16 and sum(bool(c) for c in r[1:]) >= 2]
        if len(rows) < 2:
            continue
        head = columns[0].strip(" *:")
        out = []
        for row in rows:
            label = row[0] if re.match(r"(?:treatment\s+)?sequence\b", row[0], re.I) else f"{head} {row[0]}"
            name = f"{label}: {', '.join(c for c in row[1:] if c)}"
            out.append(_arm(tracer, where, " ".join(row), name, interventions))
        return out
    return []


# "... Study of Drug X Plus ADT Versus Placebo Plus ADT in Patients With ...": the arms compared
_VERSUS = re.compile(
    r"\b(?:of|evaluating|comparing)\s+(?P<a>[^,;]+?)\s+(?:versus|vs\.?|compared\s+(?:with|to))\s+(?P<b>[^,;]+?)"
    r"(?:\s+(?:in|for|as|among|on)\s+|,|$)",
    re.I,
)


def arms_in_title(title: Optional[dict], interventions: list[dict], tracer: Tracer) -> list[dict]:
    """The two arms a title compares ("A Versus B"), when no field or sentence names arms."""
    text = " ".join(((title or {}).get("text") or "").split())
    m = _VERSUS.search(text)
    names = [w for i in interventions for w in _words_for(i)] + ["placebo"]
    if not m or not all(_names_any(p, names) for p in (m["a"], m["b"])):
        return []
    return [
        item(
            tracer, None, text, name=p.strip(), type=_arm_type(p, interventions), interventions=_given(p, interventions)
        )
        for p in (m["a"], m["b"])
    ]


# "randomly assigned to 1 of 3 treatment arms in a 1:1:1 ratio to receive A, B, or C",
# "randomised 2:1 to receive either A or B", "Approximately 600 patients treated with A"
# "randomly assigned in a 1:1 ratio to canagliflozin or matching placebo", "randomized at a 2:1
# ratio to receive blinded treatment of either TCZ or a matching placebo"
_ASSIGNED = re.compile(
    # the verb, then "to" within a few words ("randomized in a 1:1 ratio to"), not "a randomised,
    # double-blinded ... trial design is chosen to minimise bias in ... of A versus B"
    r"\b(?:randomi[sz]ed|randomly\s+assigned|assigned|allocated)\b"
    r"(?:(?!\b(?:is|are|was|were|chosen|designed|design|study|trial)\b)[^.]){0,80}?\bto\s+(?:receive\s+)?"
    r"(?:(?:blinded|open-label)\s+)?(?:treatment\s+(?:of|with)\s+)?(?:either\s+)?(?:one\s+of\s+)?"
    r"(?P<list>(?:[^.;]|\.(?=\S))+)",
    re.I,
)
# "The treatment arms will include a placebo arm, a low-dose X arm (...), and a high-dose X arm"
_ENUMERATED = re.compile(
    r"\b(?:treatment\s+|study\s+)?(?:arms|groups)\s+(?:will\s+)?(?:include|includes|are|consist\s+of|comprise)\s*:?\s+"
    r"(?P<list>(?:[^.;]|\.(?=\S))+)",
    re.I,
)
# "(1) 1 mg A, (2) 2.5 mg A, or (3) placebo": an enumerated list's item numbers
_NUMBERED_ITEMS = re.compile(r"(?<![\w)])\(\s*(?:\d{1,2}|[a-z])\s*\)\s*", re.I)
# "one of three treatment groups: A, B or C": the count before the list
_GROUPS_LEAD = re.compile(
    r"^\s*(?:one\s+of\s+)?(?:two|three|four|five|six|\d)\s+(?:treatment\s+|study\s+)?(?:groups|arms|cohorts)\s*:\s*",
    re.I,
)


def _ratio_parts(line: str) -> Optional[int]:
    """How many groups the line's allocation ratio has ("2:2:1": 3), None when it prints none."""
    m = RATIO.search(line)
    return len(re.split(r"\s?:\s?", m.group(0))) if m else None


# "600 patients treated with A 150 mg bid", "will be treated with B"; not a result reported of
# others ("Almost 20% of patients treated with A developed adverse events")
_TREATED = re.compile(r"\b(?:treated|dosed)\s+with\s+(?P<list>(?:[^.;\n]|\.(?=\S))+)", re.I)
# a result's verb within a few words of the product: "treated with X developed adverse events"
_RESULT_AFTER = re.compile(
    r"^(?:\S+\s+){1,3}?(?:developed|had|showed|experienced|achieved|reported|improved|responded)\b", re.I
)
_LIST_SPLIT = re.compile(
    r"\s*,\s*(?:or\s+|and\s+)?|\s+or\s+|\s+versus\s+|\s+vs\.?\s+|\s+and\s+(?=(?:matching\s+)?placebo\b)", re.I
)
_LIST_AND = re.compile(r"\s*[,;]\s*(?:or\s+|and\s+)?|\s+or\s+|\s+and\s+|\s+versus\s+|\s+vs\.?\s+", re.I)
_TAIL = re.compile(
    r"\s+(?:for|in\s+a|in\s+an|during|at|on|until|over|as|from|with\s+stratification|stratified)\b.*$|\s*\(.*$", re.I
)


# A synopsis that lists the treatment groups in one field and the control group in the next
# ("Study Treatment Groups: A + ADT and B + ADT", "Controls: matching placebo + ADT")
_CONTROLS_LABEL = re.compile(r"^(?:the\s+)?controls?(?:\s+(?:groups?|arms?|treatments?))?$", re.I)


def _one_line_arms(field: Field, names: list[str]) -> list[str]:
    """The arms a field's first line lists ("A and B", "A, B or C"), each naming a product."""
    pieces = [p.strip(" .,:") for p in _LIST_AND.split(field.value.split("\n")[0])]
    return [p for p in pieces if _names_any(p, names) and len(p) < 100]


def _arms_in_prose(fields: list[Field], interventions: list[dict], tracer: Tracer) -> list[dict]:
    """Arms named in the sentence that assigns participants to them, when no field lists them:
    each item of the list received, if it names a product read or placebo."""
    names = [w for i in interventions for w in _words_for(i)] + ["placebo"]
    for field in [f for f in fields if f.synopsis or DESIGN_LABEL.search(f.label) or ARM_LABEL.search(f.label)]:
        for line in field.value.split("\n"):
            labelled = _labelled_options(line) or _dose_options(line, names)
            if labelled:
                return [_arm(tracer, field, line, name, interventions) for name in labelled]
    for field in find(fields, ARM_LABEL, ("table", "paragraph")):  # "A and B", one line
        pieces = _one_line_arms(field, names)
        if len(pieces) >= 2:
            arms = [_arm(tracer, field, field.value.split("\n")[0], p, interventions) for p in dict.fromkeys(pieces)]
            for control in find(fields, _CONTROLS_LABEL, ("table", "paragraph")):
                for piece in _one_line_arms(control, names):
                    if piece.lower() not in {a["name"].lower() for a in arms}:
                        arms.append(_arm(tracer, control, control.value.split("\n")[0], piece, interventions))
            return arms
    active = [w for i in interventions if i["role"] != "placebo" for w in _words_for(i)]

    def listed(match: re.Match, pattern: re.Pattern) -> list[str]:
        text = (
            _NUMBERED_ITEMS.sub(" ", match["list"])
            if pattern is _ASSIGNED
            else re.sub(r"\s*\([^()]*\)", "", match["list"])
            if pattern is _ENUMERATED
            else match["list"]
        )
        text = _GROUPS_LEAD.sub("", text)
        # each option ends at its duration or note ("continue receiving A for 48 weeks or being
        # switched to B for 48 weeks"): cut after the options are split, so the second stays
        pieces = _LIST_SPLIT.split(text)
        pieces = [_TAIL.sub("", p) for p in pieces] if pattern is _ASSIGNED else pieces
        return [
            p
            for p in map(_arm_words, pieces)
            if p and _names_any(p, names) and len(p) < 100 and not re.search(r"%|\bp\s?[=<]|\[", p)
        ]

    # one assigning sentence lists the arms; it must name an active product read (a past study's
    # "randomized to placebo" names none). A sentence whose ratio has more parts than it lists
    # arms ("randomized 2:2:1 to one of two doses of A or placebo") is kept only when no other
    # sentence lists as many arms as its ratio has parts ("(1) 1 mg A, (2) 2.5 mg A, or (3)
    # placebo in a 2:2:1 ratio").
    described = [f for f in fields if f.synopsis or DESIGN_LABEL.search(f.label)]
    fallback: list[dict] = []
    for field in described:
        for line in field.value.split("\n"):
            for m in [*_ASSIGNED.finditer(line), *_ENUMERATED.finditer(line)]:
                pieces = _unique(listed(m, m.re))
                if len(pieces) >= 2 and any(_names_any(p, active) for p in pieces):
                    parts = _ratio_parts(line)
                    if parts is None or parts <= len(pieces):
                        return [_arm(tracer, field, line, p, interventions) for p in pieces]
                    fallback = fallback or [_arm(tracer, field, line, p, interventions) for p in pieces]
    if fallback:
        return fallback
    for field in described:
        lines = field.value.split("\n")
        # "treated with A" in one sentence, "treated with B" in another: each an arm
        treated = [
            (p, line)
            for line in lines
            for m in _TREATED.finditer(line)
            if not _RESULT_AFTER.match(m["list"])
            for p in listed(m, _TREATED)
        ]
        if any(_names_any(p, active) for p, _ in treated):
            out: list[dict] = []
            for name, line in treated:
                if name.lower() not in {a["name"].lower() for a in out}:
                    out.append(_arm(tracer, field, line, name, interventions))
            return out
    return []


# "(Arm 1)", "(Cycle 1: 3.2 mg/kg; ...; Arm 2)": the label a sentence gives the option before it
_OPTION_LABEL = re.compile(r"\((?:[^()]*;\s*)?(?P<label>(?:arm|group|cohort)\s+[A-Z0-9]{1,3})\)", re.I)
_OPTION_START = re.compile(r".*(?:\beither\s+|\bor\s+|\bto\s+receive\s+|,\s+|;\s+)", re.I | re.S)


def _labelled_options(line: str) -> list[str]:
    """Arms a sentence offers as options, each labelled in the brackets after it ("either a 5.6
    mg/kg fixed dose regimen (Arm 1) or an up-titration dose regimen (...; Arm 2)"): "Arm 1: 5.6
    mg/kg fixed dose regimen", "Arm 2: up-titration dose regimen". Two labels at least."""
    out: list[str] = []
    start = 0
    for m in _OPTION_LABEL.finditer(line):
        what = _OPTION_START.sub("", line[start : m.start()]).strip(" ,;:")
        what = re.sub(r"^(?:a|an|the)\s+", "", what, flags=re.I)
        label = m["label"][:1].upper() + m["label"][1:]
        if what and len(what) <= 80 and label.lower() not in {o.split(":")[0].lower() for o in out}:
            out.append(f"{label}: {what}")
        start = m.end()
    return out if len(out) >= 2 else []


# "randomly assigned to receive TEV-48574 (single loading dose/6 induction doses): 2250/900 mg,
# 2250/450 mg, or placebo": the product's dose levels listed after a colon, each an arm
_DOSE_OPTIONS = re.compile(
    r"\bto\s+receive\s+(?P<product>[\w\u2011-]+(?:\s+[\w\u2011-]+)?)\s*(?:\([^()]*\))?\s*:\s*(?P<list>[^.;]+)", re.I
)


def _dose_options(line: str, names: list[str]) -> list[str]:
    """Arms a sentence lists as a product's dose levels after a colon ("TEV-48574 2250/900 mg",
    "TEV-48574 2250/450 mg", "placebo"); two at least, one a dose of a product read."""
    m = _DOSE_OPTIONS.search(line)
    if not m or not _names_any(m["product"], names):
        return []
    product = " ".join(m["product"].split())
    pieces = [_TAIL.sub("", re.sub(r"\s*\([^()]*\)", "", p)).strip(" ,.") for p in _LIST_AND.split(m["list"])]
    arms = [f"{product} {p}" if re.match(r"\d", p) else p for p in pieces if p and len(p) < 60]
    if len(arms) < 2 or not any(re.match(r"\d", p) for p in pieces):
        return []
    return [a for a in arms if re.match(r"\d", a.split(" ", 1)[-1]) or _names_any(a, names)]


def _unique(names: list[str]) -> list[str]:
    return list({n.lower(): n for n in reversed(names)}.values())[::-1]


def _arm_words(piece: str) -> str:
    """An arm as the assigning sentence names it, without its article, a closing "group" or
    "arm" and a placebo's "matching" ("a matching placebo group" -> "placebo")."""
    # "continue receiving A", "being switched to B": what the arm receives
    piece = re.sub(
        r"^(?:(?:continue|continuing)\s+(?:to\s+receive|receiving|on|with)|(?:being\s+)?switched\s+to|switch\s+to"
        r"|receiving|receive)\s+",
        "",
        piece.strip(" .,:"),
        flags=re.I,
    )
    piece = re.sub(r"^(?:a|an|the)\s+", "", piece, flags=re.I)
    piece = re.sub(
        r"^matching\s+(?=placebo\b)", "", piece, flags=re.I
    )  # the arm is the placebo; "matching" is how it looks
    return re.sub(r"\s+(?:group|arm)s?$", "", piece.strip(" .,:"), flags=re.I).strip(" .,:")


def _names_any(text: str, names: list[str]) -> bool:
    words = _tokens(text)
    return any(n in words for n in names if n)


def _arm(tracer, where, printed: str, name: str, interventions: list[dict]) -> dict:
    """An arm item named ``name``, traced to ``printed`` in ``where``, with its type and the
    interventions its name gives."""
    return item(
        tracer,
        where,
        printed,
        name=name,
        type=_arm_type(name, interventions),
        interventions=_given(name, interventions),
    )


def _arm_type(name: str, interventions: list[dict]) -> str:
    """Placebo comparator when the arm names placebo (or a sham) and no active product; active
    comparator when its active products are comparators; no intervention when it says so."""
    given = [i for i in interventions if _mentions(name, i)]
    active = [i for i in given if i["role"] in ("investigational", "comparator")]
    if re.search(r"\bsham\b", name, re.I) and not active:
        return "sham comparator"
    if re.search(r"\bplacebo\b", name, re.I) and not active:
        return "placebo comparator"
    if active and all(i["role"] == "comparator" for i in active):
        return "active comparator"
    if re.search(r"\bno\s+(?:treatment|intervention)\b|\bobservation\s+(?:only|arm)\b", name, re.I):
        return "no intervention"
    return "experimental"


def _given(name: str, interventions: list[dict]) -> list[str]:
    return [i["name"] for i in interventions if _mentions(name, i)]


# a product's name as the name of its placebo: "semaglutide placebo", "placebo for semaglutide",
# "semaglutide-matching placebo"
_PLACEBO_OF = r"(?:{w}(?:[\s-]+matching)?\s+placebo|placebo\s+(?:for|to|of|matching)\s+{w})"


def _mentions(text: str, product: dict) -> bool:
    """Whether an arm's text names the product: its head word or an abbreviation of it (the
    products as ``with_aliases`` gives them). A placebo named for a product ("semaglutide
    placebo", "placebo for MTX") is named by that phrase, or by "placebo" when no product is
    named beside it; the product itself is not named by its placebo's name."""
    low = " ".join(text.lower().split())
    words = re.findall(r"[a-z0-9-]+", low)
    if product.get("role") == "placebo" and re.search(r"\bplacebo\b", product["name"], re.I):
        if "placebo" not in words:
            return False
        of = _placebo_for(product["name"])
        return not of or _names_placebo_of(of, low) or not any(w in words for w in of.split())
    bare = _without_placebo_of(product["name"].lower(), low)
    return any(w in _tokens(_without_placebo_of(w, bare)) for w in _words_for(product) if w)


def _placebo_for(name: str) -> str:
    """The product a placebo is named for ("Drug X matching placebo": "drug x"), or ""."""
    return " ".join(re.sub(r"\([^()]*\)|\bmatching\b|\bplacebos?\b", " ", name.lower()).split())


def _placebo_of_pattern(of: str) -> str:
    return _PLACEBO_OF.format(w=re.escape(" ".join(re.sub(r"\([^()]*\)", " ", of).split())))


def _names_placebo_of(of: str, text: str) -> bool:
    """Whether ``text`` names the placebo of ``of`` ("drug x placebo", "placebo for drug x")."""
    return bool(re.search(_placebo_of_pattern(of), text))


def _without_placebo_of(of: str, text: str) -> str:
    """``text`` less the phrases naming the placebo of ``of``."""
    return re.sub(_placebo_of_pattern(of), " ", text)


def _words_for(product: dict) -> list[str]:
    """The words a product goes by: its head word and the aliases ``with_aliases`` gave it."""
    return [_head(product["name"])] + product.get("aliases", [])


def with_aliases(interventions: list[dict], abbreviations: Optional[dict[str, str]], fields: list[Field]) -> list[dict]:
    """The products, each with the short forms it goes by ("aliases"), for reading arms."""
    text = "\n".join(f.value for f in find(fields, ADMINISTRATION_LABEL) + find(fields, DESIGN_LABEL))
    out = [{**i, "aliases": aliases(i["name"], abbreviations, text)} for i in interventions]
    # "randomized to active drug or placebo": with one investigational product and no comparator,
    # the "active drug" can only be that product (``_tokens`` reads the phrase as one word)
    roles = [i["role"] for i in interventions]
    if roles.count("investigational") == 1 and "comparator" not in roles:
        for product in out:
            if product["role"] == "investigational":
                product["aliases"] = [*product["aliases"], ACTIVE_DRUG]
    return out


ACTIVE_DRUG = "active-drug"
_ACTIVE_DRUG = re.compile(r"\bactive\s+(?:study\s+)?(?:drug|treatment|medication|agent|product)s?\b", re.I)


def _tokens(text: str) -> list[str]:
    """A text's words for naming products: "active drug" one word, where no placebo is named
    beside it ("placebo, then active treatment in the extension" is the placebo arm's)."""
    low = re.sub(r"[\u2010-\u2013]", "-", " ".join(text.lower().split()))  # "TEV\u201148574": a non-breaking hyphen
    if "placebo" not in low:
        low = _ACTIVE_DRUG.sub(ACTIVE_DRUG, low)
    return re.findall(r"[a-z0-9-]+", low)


# "cariprazine 3 mg/day + ADT", "placebo plus metformin": what an arm's name adds last
_ADDED = re.compile(r"\s(?:\+|plus|in\s+addition\s+to|on\s+top\s+of|added\s+to)\s+(?P<what>[^+]{2,60}?)\s*$", re.I)


_CARE = re.compile(r"\b(?:standard|usual|supportive|routine)\s+(?:of\s+)?care\b|\bSOC\b|\bBSC\b", re.I)


def background_in_arms(arms: list[dict], interventions: list[dict], short_forms: dict[str, str]) -> Optional[dict]:
    """The therapy every arm's name adds to its treatment ("A + ADT", "B + ADT", "placebo +
    ADT"): given to all, it is background therapy, an intervention of its own when none read
    names it (named by its expansion where the abbreviations list one: "antidepressant therapy
    (ADT)"). Traced to the first arm's name. None when the arms do not all add the same."""
    added = [m["what"].strip(" .") if (m := _ADDED.search(a["name"])) else None for a in arms]
    if len(arms) < 2 or None in added or len({a.lower() for a in added}) != 1:
        return None
    what = added[0]
    if _CARE.search(what):
        return None  # the standard of care is no named product (references list none)
    if any(_mentions(what, i) or _mentions(i["name"], {"name": what}) for i in interventions):
        return None
    expansion = short_forms.get(what)
    name = f"{expansion} ({what})" if expansion else what
    for arm in arms:
        arm["interventions"] = [*arm["interventions"], name]
    return {
        "name": name,
        "role": "background",
        "doses": [],
        "route": None,
        "frequency": None,
        "pages": arms[0]["pages"],
        "boxes": arms[0]["boxes"],
        "section": arms[0]["section"],
        "printed": arms[0]["printed"],
    }


def single_arm(interventions: list[dict], tracer: Tracer) -> list[dict]:
    """The one arm of a study printed as single-arm (single-group) that names no arm: named
    for what it gives, the investigational products with their doses ("Rosuvastatin 20 mg and
    Pirtobrutinib 200 mg" of a fixed-sequence interaction study)."""
    given = [i for i in interventions if i["role"] == "investigational"]
    if not given:
        return []
    product = given[0]
    name = " and ".join(" ".join([p["name"]] + [d["printed"] for d in p["doses"][:2]]) for p in given)
    return [
        {
            **{k: product[k] for k in ("pages", "boxes", "section", "printed")},
            "name": name,
            "type": "experimental",
            "interventions": [p["name"] for p in given],
        }
    ]
