"""Product names: which phrase names a product, the products a study's official title names,
and which names are one product.

A name that only says where or when something is given ("Period 2", "On Day 1", "0 to 4 hours",
"Double-Blind Treatment Period"), to whom ("Patients assigned to the active arm") or what kind
of thing it is ("Investigational medicinal product", "Criteria", "Doses") names no product,
whatever table or field it was printed in (``is_product_name``).

Regulators ask the title to name what is studied, and protocols of every sponsor do: "A Phase 1,
Placebo-controlled Study to Evaluate the Safety of AMG 416 Administered Intravenously to ...",
"... Study of the Effects of Canagliflozin on Renal Outcomes in Subjects With ...", "... Study of
Enzalutamide Plus Androgen Deprivation Therapy (ADT) Versus Placebo Plus ADT in Patients ...".
The product is the phrase after "of" (or "evaluate", "assess", "comparing") and before the words
that start the population or the purpose ("in", "for", "on", "to", "administered", a comma);
"plus", "versus", "and", "or" and "in combination with" part several products. A phrase of only
general words ("the Safety and Efficacy", "Two Dose Levels", "Investigational Therapeutics",
"Patients") names none. Each product's role comes from the word that joins it: after "plus" or
"in combination with" a background therapy, after "versus" a comparator, placebo by its name.

A product is kept only when the study's own dosing or design text gives it: a dose printed after
its name ("AMG 416 5 mg"), or its name after "receive", "administered", "dose of", "treated
with", or beside "placebo" ("matching placebo for KVD900"). A title names other things in the
same place (a disease, "Copper and Molybdenum Balance"), which no sentence doses.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Optional

_LEAD = re.compile(
    r"\b(?:of|using|evaluate|evaluating|assess|assessing|investigate|investigating|compare|comparing)\s+"
    # "Trial of Maintenance with Niraparib Versus Placebo": the regimen's word, then its products
    r"|\b(?:maintenance|treatment|therapy)\s+with\s+",
    re.I,
)
# "in combination with X", "combined with X", "+ X": another product, given beside the first
_WITH = re.compile(r"\s+(?:in\s+combination\s+with|combined\s+with|together\s+with|\+)\s+", re.I)
# "X Compared With Placebo", "X Compared to Y": the versus of a purpose title
_COMPARED = re.compile(r"\s+(?:compared\s+(?:with|to)|against)\s+", re.I)
# where the product phrase ends: the population, the purpose, the route or a clause
_END = re.compile(
    r"\s+(?:in|for|among|on|to|administered|given|as|when|who|with|at|after|during|using|by|from|following|"
    r"monotherapy|once|twice|daily|weekly)\b|\s+\d|[,;:]|\s+-\s+|\s+\((?![^()\s]+\))",
    re.I,
)
_JOIN = re.compile(r"\s+(?P<word>plus|versus|vs\.?|and|or)\s+", re.I)
_GENERIC = set(
    """
a an the two three four different multiple single repeated ascending escalating fixed high low dose doses dosing levels
level regimen regimens safety efficacy tolerability effect effects pharmacokinetics pharmacokinetic pharmacodynamics
pharmacodynamic immunogenicity activity outcomes outcome response benefit study studies trial treatment treatments
therapy therapies therapeutic therapeutics drug drugs product products agent agents medication medications intervention
interventions investigational experimental patients patient subjects subject participants participant adults adult
children adolescents volunteers healthy people women men use role impact value oral intravenous subcutaneous topical
inhaled long short term long-term short-term clinical new novel standard care medicinal test
""".split()
)
# words that say where, when or to whom, never a product's own
_STRUCTURE = re.compile(
    r"\b(?:period|visit|phase|arm|cohort|sequence|criteria|criterion|screening|randomi[sz]ation|day|days|"
    r"hours?|weeks?|months?|patients?|subjects?|participants?|assigned|allowed|completion|service|courier|"
    r"development|section|table|appendix|assessments?|window)\b",
    re.I,
)
_NOT_A_START = re.compile(
    r"^(?:on|upon|at|in|for|to|from|during|after|before|with|if|when|each|all|any|per|up|\d)\b", re.I
)
# a route or a regimen's word before a product's name: "Oral Drug X", "Short-Course Fludarabine"
_ROUTE_WORD = re.compile(
    r"^(?:the\s+)?(?:(?:oral|intravenous|subcutaneous|topical|transdermal|inhaled|intramuscular)\s+"
    r"|(?:short|long)[- ]course\s+|(?:low|high|fixed|single|multiple|standard)[- ]dose\s+"
    # a regimen's word: "Fixed vs Titrated Letrozole" compares two regimens of letrozole
    r"|(?:fixed|titrated|escalating|weight[- ]based|early|delayed|immediate|deferred)\s+)+",
    re.I,
)
_PLACEBO = re.compile(r"\bplacebo\b", re.I)


def is_product_name(name: str) -> bool:
    """Whether a phrase can be a product's name (see the module's note)."""
    words = re.findall(r"[A-Za-z0-9-]+", name)
    if not words or _NOT_A_START.match(name.strip()) or _STRUCTURE.search(name):
        return False
    return not all(w.lower() in _GENERIC or w.upper() in {"IMP", "IMPS", "NIMP"} for w in words)


def title_products(title: str, named_in: str) -> list[tuple[str, str]]:
    """``(name, role)`` of each product the title names that ``named_in`` (the study's dosing
    and design text) names too, in title order; placebo when the title compares with one."""
    found: list[tuple[str, str]] = []
    text = " ".join((title or "").split())
    for lead in _LEAD.finditer(text):
        phrase = _COMPARED.sub(" versus ", _WITH.sub(" plus ", text[lead.end() :]))
        phrase = _END.split(phrase, maxsplit=1)[0]
        phrase = re.split(r"\s+of\s+", phrase, flags=re.I)[-1]  # "the Effects of Canagliflozin"
        joined, named_before = "and", False
        for k, piece in enumerate(_JOIN.split(phrase)):
            if k % 2:
                joined = piece.lower() if named_before else "and"  # "Fixed vs Titrated X": one product
                continue
            name = re.sub(r"^(?:the|a|an)\s+", "", _ROUTE_WORD.sub("", piece).strip(" ."), flags=re.I)
            words = re.findall(r"[A-Za-z0-9-]+", name)
            if not words or len(words) > 6 or not is_product_name(name):
                continue
            role = (
                "placebo"
                if _PLACEBO.search(name)
                else "background"
                if joined == "plus"
                else "comparator"
                if joined.startswith(("versus", "vs"))
                else "investigational"
            )
            # given "plus" another product, a background therapy needs only to be named again
            if (
                not _PLACEBO.search(name)
                and not _given(name, text + "\n" + named_in, loosely=role == "background")
                and not _tested(name, named_in)
            ):
                continue
            named_before = True
            name = _as_printed(name, named_in)
            if not any(same_product(name, known, named_in) for known, _ in found):
                found.append((name, role))
    if found and re.search(r"placebo[- ]?controlled", text, re.I) and not any(r == "placebo" for _, r in found):
        found.append(("Placebo", "placebo"))
    return found


# "KVD900 300 mg", "AMG 416 (etelcalcetide) 5 mg", "canagliflozin at a dose of 100 mg", "semaglutide s.c. 2.4 mg",
# "liraglutide, 3mg SQ daily"
_DOSE_AFTER = (
    r"\s*,?\s*(?:\([^()]{1,30}\)\s*)?(?:(?:s\.c\.|i\.v\.|IV|SC|oral(?:ly)?|p\.o\.)\s+)?(?:(?:at\s+)?(?:a\s+)?(?:fixed\s+)?doses?\s+of\s+)?"
    r"\d+(?:[.,]\d+)?\s?(?:mg|µg|μg|mcg|ug|g|mL|IU|units?)\b"
)
# "receive KVD900", "administration of the study drug", "treated with either A or B"
_GIVING = (
    r"\b(?:receiv(?:e|es|ed|ing)|administration\s+of|administered|doses?\s+of|dosed\s+with|treated\s+with|treatment\s+with|"
    r"infusions?\s+of|injections?\s+of|randomi[sz]ed\s+to|placebo\s+(?:for|to)|matching)\s+"
    r"(?:(?:a|an|the|either|single|one|matching|oral|intravenous|subcutaneous|IV|SC)\s+){0,2}"
)


def _given(name: str, text: str, loosely: bool = False) -> bool:
    """Whether ``text`` gives the product: a dose after its name, or its name after a giving word
    (``loosely``: its name anywhere)."""
    if loosely:
        return any(
            re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text, re.I)
            for word in [_head_word(name)] + re.findall(r"\(([A-Za-z][\w-]{1,15})\)", name)
            if word
        )
    return any(
        _given_as(word, text) for word in [_head_word(name)] + re.findall(r"\(([A-Za-z][\w-]{1,15})\)", name) if word
    )


# "We shall perform a placebo-controlled, parallel-group trial of liraglutide": what this
# controlled trial tests (the design text's sentences only, not one telling of another trial)
_CONTROLLED_OF = r"\bcontrolled\b[^.;]{0,40}?\b(?:trial|study)\s+of\s+(?:the\s+)?"
# the words of a sentence telling of another trial than this one (also ``interventions.py``'s)
ANOTHER_TRIAL_WORDS = r"pilot|previous(?:ly)?|prior|earlier|past|completed|published|parent|preceding"
_ANOTHER_TRIAL = re.compile(rf"\b(?:{ANOTHER_TRIAL_WORDS})\b", re.I)


def _tested(name: str, design_text: str) -> bool:
    head = _head_word(name)
    if not head:
        return False
    word = rf"(?<![\w-]){re.escape(head)}(?![\w-])"
    return any(
        re.search(_CONTROLLED_OF + word, s, re.I) and not _ANOTHER_TRIAL.search(s)
        for s in re.split(r"(?<=[.;])\s+", design_text)
    )


def _given_as(head: str, text: str) -> bool:
    word = rf"(?<![\w-]){re.escape(head)}(?![\w-])"
    return bool(
        re.search(word + _DOSE_AFTER, text, re.I)
        or re.search(_GIVING + word, text, re.I)
        or re.search(word + r"(?:[- ]matching|\s+or\s+(?:matching\s+)?)\s*placebo", text, re.I)
    )


def _head_word(name: str) -> str:
    """The product's own word: its code when it has one ("AMG 416" -> "AMG 416"), else its first word."""
    code = re.search(r"\b[A-Z]{2,}[- ]?\d{2,}\b|\b[A-Za-z]+\d+[A-Za-z0-9]*\b", name)
    if code:
        return code.group(0)
    words = re.findall(r"[A-Za-z0-9-]+", name)
    return words[0] if words else ""


def _head(product: str) -> str:
    """The word a product is named by ("Semaglutide B" -> "semaglutide"; "AMG 416" -> "amg")."""
    words = re.findall(r"[a-z0-9-]+", product.lower())
    return words[0] if words else ""


def _as_printed(name: str, text: str) -> str:
    """A title in capitals names "TOCILIZUMAB": the body's own spelling, the most frequent."""
    if not name.isupper() or len(name) <= 5 or re.search(r"\d", name):
        return name  # a code ("EXP-4170", "AMG 416") is printed in capitals everywhere
    spellings = Counter(
        m.group(0)
        for m in re.finditer(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text, re.I)
        if not m.group(0).isupper()
    )
    return spellings.most_common(1)[0][0] if spellings else name.capitalize()


def same_product(a: str, b: str, text: str, abbreviations: Optional[dict[str, str]] = None) -> bool:
    """Whether two names are one product: one's words within the other's ("Pembrolizumab" and
    "Pembrolizumab (MK-3475)"), one printed in brackets after the other ("BIBF 1120
    (nintedanib)"), or one the other's abbreviation in the list of abbreviations ("TCZ")."""
    wa, wb = set(re.findall(r"[a-z0-9-]+", a.lower())), set(re.findall(r"[a-z0-9-]+", b.lower()))
    if wa and wb and (wa <= wb or wb <= wa):
        return True
    ha, hb = _head_word(a), _head_word(b)
    if not ha or not hb:
        return False
    for x, y in ((ha, hb), (hb, ha)):
        if re.search(rf"(?<![\w-]){re.escape(x)}\s*\(\s*{re.escape(y)}(?![\w-])", text, re.I):
            return True
    expansions = {k.lower(): v.lower() for k, v in (abbreviations or {}).items()}
    return expansions.get(ha.lower()) == hb.lower() or expansions.get(hb.lower()) == ha.lower()


def aliases(name: str, abbreviations: Optional[dict[str, str]] = None, text: str = "") -> list[str]:
    """The words a product goes by in sentences: its head word, the abbreviations whose expansion
    is that word ("tocilizumab" -> "TCZ"), and a short form ``text`` prints in brackets after it
    ("tocilizumab (TCZ)")."""
    head = _head_word(name).lower()
    out = [head] if head else []
    for short, long in (abbreviations or {}).items():
        if long.strip().lower() == head and short.lower() not in out:
            out.append(short.lower())
    if head:
        for m in re.finditer(rf"(?<![\w-]){re.escape(head)}\s*\(\s*([A-Za-z][\w-]{{1,10}})\s*\)", text, re.I):
            if m.group(1).lower() not in out:
                out.append(m.group(1).lower())
    return out
