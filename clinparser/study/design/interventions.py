"""What is given: the interventions, each a product with its role, doses, route and frequency.

**Interventions** are read from, in order:

1. an intervention table: a row per product under a header naming the product and at least one
   of its dose, route or frequency ("Drug | Dose | Route | Frequency | Use"), or the same
   transposed (products as columns, rows labelled "Dose", "Route of administration");
2. synopsis fields naming the products ("Investigational Product", "Study Drug", "Test
   Product", "Study Intervention(s)", "Comparator", "Reference Therapy"): the product's name is
   the field's first words before a dose, a comma or a bracket's end.

Each product's text (its row, or its field) gives the doses ("10 mg", "1.5 mg/kg", "80 mg/m2"),
the route (oral, intravenous, subcutaneous, intramuscular, topical, transdermal, inhalation) and the
frequency ("once daily", "QD", "every 3 weeks"). The role comes from a "Use" or "Type" column,
the field's label (a comparator, a reference therapy), or the name ("placebo", "matching").

The arms (``arms.py``) are read after the interventions and use what is here: the labels of the
design and arm fields, and the dose, route and frequency patterns.
"""

from __future__ import annotations

import re
from typing import Optional

from ..trace import Tracer
from .fields import Field, find, marked_grid, table_pairs
from .items import item, sentences
from .product_names import ANOTHER_TRIAL_WORDS, _head, aliases, is_product_name, same_product, title_products

PRODUCT_LABEL = re.compile(
    r"\binvestigational\s+(?:medicinal\s+)?products?\b|\bstudy\s+(?:drugs?|interventions?(?:\(s\))?|treatments?|compounds?|medications?)\b"
    r"|\btest\s+(?:products?|drugs?)\b|\bname\s+of\s+(?:study|investigational)\s+(?:drug|product)\b|\bcomparator(?:\s+products?)?\b"
    r"|\breference\s+(?:therapy|products?|drugs?)\b|\bstudy\s+intervention\b|\bIMPs?\b|\bprimary\s+study\s+intervention",
    re.I,
)
# The fields listing the arms: their doses complete the products here (``_complete``), and
# arms.py reads the arms from them (it imports this module, so the label is kept here)
ARM_LABEL = re.compile(
    r"\b(?:treatment|intervention|study|trial)\s+(?:groups?|arms?)\b|^arms?$|\btreatment\s+sequences?\b|^(?:dose\s+|dosing\s+|treatment\s+)?cohorts?$"
    r"|\bgroups?\s+and\s+duration\b|\barms?\s+and\s+duration\b",
    re.I,
)
DESIGN_LABEL = re.compile(r"\bdesign\b|\bmethodology\b|\bschema\b", re.I)
# a dose, and one actuation's ("100 mcg/actuation", "50 µg per puff": an inhaler's dose)
_DOSE = re.compile(
    r"(?<![\w.])(?P<value>\d+(?:[.,]\d+)?)\s?(?P<unit>mg\s?/\s?(?:kg|m(?:2|²))(?:\s?/\s?day)?|mg\s?/\s?day|mg|µg|μg|mcg|ug|g|mL|ml|IU|units?)"
    r"(?:(?:\s?/\s?|\s+per\s+)(?:actuation|puff|spray|inhalation)\b)?(?![\w/])"
)
ROUTES = [
    ("intravenous", re.compile(r"\bintravenous(?:ly)?\b|\bIV\b|\bi\.v\.", re.I)),
    ("subcutaneous", re.compile(r"\bsub-?cutaneous(?:ly)?\b|\bSC\b|\bs\.c\.|\bSQ\b", re.I)),
    ("intramuscular", re.compile(r"\bintra-?muscular(?:ly)?\b|\bIM\b|\bi\.m\.", re.I)),
    ("inhalation", re.compile(r"\binhal(?:ation|ed|er)\b|\binhaled\b", re.I)),
    ("transdermal", re.compile(r"\btransdermal(?:ly)?\b|\b(?:skin\s+)?patch(?:es)?\b", re.I)),
    ("topical", re.compile(r"\btopical(?:ly)?\b|\bcutaneous\b", re.I)),
    # "for oral inhalation only", "orally inhaled": an inhaler's route, not the mouth's
    (
        "oral",
        re.compile(r"\boral(?:ly)?\b(?!\s+inhal)|\bp\.o\.|\bPO\b|\btablets?\b|\bcapsules?\b|\bby\s+mouth\b", re.I),
    ),
]
FREQUENCY = re.compile(
    r"\b(?:once|twice|thrice|three\s+times|four\s+times)\s+(?:a\s+|per\s+)?(?:daily|day|week|weekly|month|monthly)\b|\b(?:once|twice)\s+daily\b"
    r"|\bevery\s+(?:\d+|two|three|four|other)\s+(?:days?|weeks?|months?)\b|\bevery\s+(?:day|week|month)\b|\bdaily\b|\bweekly\b|\bmonthly\b"
    # "6 mg SC x 1": one administration
    r"|(?<=\b(?:SC|IV|IM|PO)\s)[x\u00d7]\s?1\b(?![\d.])"
    r"|\bsingle\s+(?:loading\s+)?dose\b|(?<!least\s)\b(?:one|a\s+single|single)\s+(?:(?:intravenous|IV|subcutaneous|SC)\s+)?"
    r"(?:infusion|injection|administration)\b|\bas\s+needed\b|\bas\s+prescribed\b|\b(?:QD|BID|TID|QID|QW|Q[1-9]W|QOD|TIW|PRN|OD)\b",
    re.I,
)
ROLES = [
    ("placebo", re.compile(r"\bplacebo\b|\bvehicle\b|\bsham\b", re.I)),
    ("rescue", re.compile(r"\brescue\b", re.I)),
    (
        "background",
        re.compile(
            r"\bbackground\b|\bbackbone\b|\bstandard\s+of\s+care\b|\bconcomitant\b|\bnon-?investigational\b|\bauxiliary\b",
            re.I,
        ),
    ),
    ("comparator", re.compile(r"\bcomparator\b|\breference\b|\bactive\s+control\b", re.I)),
    ("challenge", re.compile(r"\bchallenge\b", re.I)),
    ("investigational", re.compile(r"\binvestigational\b|\bexperimental\b|\btest\b|\bIMP\b|\bstudy\s+drug\b", re.I)),
]
# a label naming the product; a name of something else ("Name of Sponsor", "Investigator Name") is not
_NAME_HEADER = re.compile(
    r"^(?!.*\b(?:sponsor|investigator|company|institution|site|protocol|manufacturer|applicant)\b)"
    r".*\b(?:intervention|drug|product|treatment|name|IMP|medication|compound|agents?)\b",
    re.I | re.S,
)
_ATTRIBUTE = re.compile(r"\bdose|\bdosage|\bstrength|\broute|\bmode\s+of\s+admin|\bfrequency|\bregimen", re.I)
_ROLE_HEADER = re.compile(r"^(?:use|type|role|category|IMP\s*/\s*NIMP)\b", re.I)
_STOP_NAME = re.compile(
    r"\s*(?:\d+(?:\.\d+)?\s?(?:mg|µg|mcg|g|ml|iu)\b|,|;|:|\bwill\b|\bis\b|\bat\b|\bgiven\b|\badministered\b"
    r"|\bonce\b|\btwice\b|\b(?:tablet|capsule|injection|infusion|solution)s?\b|\bfor\b|\bvia\b)",
    re.I,
)


def read_interventions(
    fields: list[Field],
    document_tables: list[tuple[dict, Field]],
    tracer: Tracer,
    title: Optional[dict] = None,
    abbreviations: Optional[dict[str, str]] = None,
    chapters: Optional[list[Field]] = None,
) -> list[dict]:
    """``title``: the official title item, whose named products are added when no table or field
    names them; ``abbreviations``: short form -> expansion, to know "TCZ" is tocilizumab;
    ``chapters``: ``chapter_fields``, whose doses are read with the administration fields'."""
    found: list[dict] = []
    for table, where in document_tables:
        if table.get("schedule"):
            continue  # a schedule of activities lists procedures, not products
        if _NOT_STUDY_PRODUCTS.search(where.label) or _NOT_STUDY_PRODUCTS.search(table.get("title") or ""):
            continue  # the standard of care's or the permitted medicines' doses, not the study's products
        if marked_grid(table):
            continue  # a part of a schedule the schedule reader did not take: visits marked X
        if found:  # a later table adds no product, but may give more doses (a dose-escalation table's steps)
            _add_table_doses(found, table)
            continue
        for printed, text, role in _table_products(table):
            for name in re.split(r"\s+or\s+", printed):  # "Drug B 1.0 mg/mL or Drug placebo": two products
                name = _STOP_NAME.split(name, maxsplit=1)[0]
                _add(
                    found,
                    _product(tracer, where, name, text, role if len(re.split(r"\s+or\s+", printed)) == 1 else None),
                )
    # The synopsis's product fields; after a table, only those naming what it may leave out
    # (a comparator or reference therapy): the others repeat the table in other words.
    from_table = bool(found)
    for field in find(fields, PRODUCT_LABEL, ("table", "paragraph")):
        comparator = bool(re.search(r"comparator|reference", field.label, re.I))
        if from_table and not comparator:
            continue
        for name in _names_of(field.value):
            role = "placebo" if re.search(r"\bplacebo\b", name, re.I) else "comparator" if comparator else None
            known = _known(found, name)
            if known is not None and role == "comparator" and known["role"] == "investigational":
                known["role"] = "comparator"  # a table listed it with no role; the synopsis names it the reference
            _add(found, _product(tracer, field, name, _own_part(field.value, name), role))
    _add_title_products(found, fields, title, abbreviations, tracer)
    _add_prose_products(found, fields, abbreviations, tracer)
    _add_mandated(found, fields, abbreviations, tracer)
    _add_design_placebo(found, fields, tracer)
    _complete(found, fields, abbreviations, chapters)
    _add_reduced_doses(found, fields, abbreviations)
    for product in found:
        product["doses"] = _doses_given(product)
    return found


# "We shall perform a placebo-controlled, parallel-group trial of X"; not a study told of ("the
# pilot placebo-controlled trial", "patients previously treated in a placebo controlled trial")
_PLACEBO_CONTROLLED = re.compile(r"\bplacebo[- ]controlled\b", re.I)
# (nor one negated, "not placebo-controlled"; nor trials in the plural, another trial by its code,
# an extension's parent: "who took part in the placebo-controlled Study ZX-301")
_OTHER_STUDY = re.compile(
    rf"\b(?:{ANOTHER_TRIAL_WORDS}|not|unlike|"
    r"established|extension|roll(?:ing)?[- ]?over|took\s+part|participated|trials|studies)\b"
    r"|\b(?:study|trial)\s+[A-Z]{2,}[\w-]*\d|\b[A-Z]{2,}-\d{2,}",
    re.I,
)


def _add_design_placebo(found: list[dict], fields: list[Field], tracer: Tracer) -> None:
    """A placebo for a study whose design says it is placebo-controlled when nothing named one
    (a protocol with no intervention section, its products named in the title and the design)."""
    if not any(p["role"] == "investigational" for p in found) or any(p["role"] == "placebo" for p in found):
        return
    for field in find(fields, DESIGN_LABEL):
        for sentence in sentences(field.value):
            if _PLACEBO_CONTROLLED.search(sentence) and not _OTHER_STUDY.search(sentence):
                found.append(
                    item(tracer, field, sentence, name="Placebo", role="placebo", doses=[], route=None, frequency=None)
                )
                return


def _own_part(value: str, name: str) -> str:
    """The part of a product field about ``name``: from the clause naming it to the next clause
    that starts with another product's name ("A 100 mg as tablets taken orally twice daily; B,
    400 mg, taken orally twice daily": B's 400 mg is not A's), as printed. The whole value when
    no clause names it."""
    clauses = [m for m in re.finditer(r"[^;\n]+", value) if m.group(0).strip()]
    first = next((k for k, m in enumerate(clauses) if name.lower() in m.group(0).lower()), None)
    if first is None:
        return value
    last = clauses[first]
    for m in clauses[first + 1 :]:
        lead = re.match(r"\s*(?:[-*\u2022]\s*)?([A-Z][\w-]+(?:\s+\d[\w-]*)?)", m.group(0))
        if lead and lead[1].lower() not in name.lower() and is_product_name(lead[1]) and _DOSE.search(m.group(0)):
            break  # another product, dosed
        last = m
    return value[clauses[first].start() : last.end()].strip()


def _doses_given(product: dict) -> list[dict]:
    """A product's doses less what is no dose of it: a placebo has none (it matches the
    product it stands for), and a volume ("in 240 mL of water", "a 3 mL pen", "diluted in
    150 mL") is no dose of a product dosed by mass."""
    if product["role"] == "placebo":
        return []
    doses = product["doses"]
    if any(d["unit"] != "ml" for d in doses):
        return [d for d in doses if d["unit"] != "ml"]
    return doses


# A section or field about changing the dose ("Dose Modification", "Dose Reductions",
# "Increase or Reduction in Dose of the Study Drug(s)", "Enzalutamide Dose Reduction / Dose
# Adjustment"), and a sentence in it that lowers the dose
_DOSE_CHANGE_LABEL = re.compile(
    r"\bdos(?:e|ing)\s+(?:modifications?|reductions?|adjustments?|changes?)\b|\breduction\s+(?:in|of)\s+(?:the\s+)?dose\b"
    r"|\bdose\s+(?:interruption|delay)s?\s+(?:and|or|/)\s+(?:reduction|modification)",
    re.I,
)
# where a lower dose level is printed: "reduced to 100 mg bid", "a reduced dose (120 mg or 80
# mg/day)", "lowered to", "dose level -1: 120 mg"; the doses right after it, starting with a number
# ("reduced by 10 mg/m2" is a step, "reduced to ≤ 10 mg prednisone" a bound of another drug)
_LOWERED = re.compile(
    r"\b(?:reduc(?:ed|e|tion)|lower(?:ed)?)\s+(?:(?:the\s+)?dose\s+)?to\s+"
    r"|\b(?:reduced|lower)\s+doses?\s*(?:levels?\s*)?(?:of\s+)?[(:]?\s*"
    r"|\bdose\s+level\s+[-\u2013\u2212]\s*\d\s*[:=)]?\s*",
    re.I,
)
_LOWER_DOSES = re.compile(r"\d(?:[^();.]|\.\d){0,30}")  # up to a bracket or a sentence's end
# the study's product without its name
_THE_STUDY_DRUG = re.compile(
    r"\b(?:study|investigational|trial)\s+(?:drugs?|medications?|treatments?|products?|interventions?)\b|\bIMP\b", re.I
)


def _add_reduced_doses(products: list[dict], fields: list[Field], abbreviations: Optional[dict[str, str]]) -> None:
    """The lower dose levels a dose modification section prints ("may be restarted at the
    original dose (160 mg/day) or a reduced dose (120 mg or 80 mg/day)", "reduced to 100 mg
    bid"): doses of the product the sentence names, or, where it or the section's title says
    "study drug" (or the title names the product), of the study's one investigational product.
    A placebo has no dose levels."""
    dosed = [p for p in products if p["role"] != "placebo"]
    investigational = [p for p in dosed if p["role"] in (None, "investigational")]
    for field in find(fields, _DOSE_CHANGE_LABEL):
        if _NOT_STUDY_PRODUCTS.search(field.label):
            continue
        for sentence in sentences(field.value):
            lowered = [m for m in (_LOWER_DOSES.match(sentence, t.end()) for t in _LOWERED.finditer(sentence)) if m]
            if not lowered:
                continue
            named = [
                p
                for p in dosed
                if _says_any(sentence, [w for w in _name_words(p) + aliases(p["name"], abbreviations, sentence) if w])
            ]
            if (
                not named
                and len(investigational) == 1
                and (
                    _THE_STUDY_DRUG.search(sentence)
                    or _THE_STUDY_DRUG.search(field.label)
                    or _says_any(field.label, _name_words(investigational[0]))
                )
            ):
                named = investigational
            if len(named) == 1:
                for doses in lowered:
                    _add_doses(named[0], _doses(doses.group(0)))


def _add_title_products(
    found: list[dict],
    fields: list[Field],
    title: Optional[dict],
    abbreviations: Optional[dict[str, str]],
    tracer: Tracer,
) -> None:
    """The products the official title names that no table or field named (a protocol without
    a synopsis product field or an intervention table still names them there)."""
    text = " ".join(((title or {}).get("text") or "").split())
    named_in = "\n".join(f.value for f in find(fields, ADMINISTRATION_LABEL) + find(fields, DESIGN_LABEL))
    for name, role in title_products(text, named_in):
        if any(same_product(name, p["name"], named_in, abbreviations) for p in found):
            continue
        if role == "placebo" and any(p["role"] == "placebo" for p in found):
            continue
        found.append(item(tracer, None, text, name=name, role=role, doses=[], route=None, frequency=None))


# A table under these lists medicines beside the study's (their doses, their equivalents)
_NOT_STUDY_PRODUCTS = re.compile(
    r"\bstandard\s+of\s+care\b|\bSOC\b|\bconcomitant\b|\bprohibited\b|\bpermitted\b"
    r"|\bprior\s+(?:medications?|therap)|\bequivalen|\bprophyla|\bsupportive\s+care\b|\bnon-?investigational\b",
    re.I,
)
ADMINISTRATION_LABEL = re.compile(
    r"\bdos(?:e|age|ing)\b|\bregimen\b|\broute\b|\badministration\b|\bmode\s+of\b|\bstudy\s+(?:drug|intervention|treatment)"
    r"|\binvestigational\b|\btreatments?\s+administered\b|\bformulation\b",
    re.I,
)


# "Drugname 50 mg", "MXM-1632 300 mg", "AMG 416 5 mg" at a sentence's start or after a giving word
_DOSED_NAME = re.compile(
    r"(?:^|(?<=[.;:]\s)|\b(?:receive|receives|with|of|either|or|and)\s+)"
    r"(?P<name>[A-Z][a-z]{3,}[a-z-]*(?:\s+[A-Z][a-z]+)?|[A-Z]{2,}[- ]?\d{2,}[A-Za-z0-9-]*|[A-Za-z]+\d+[A-Za-z0-9-]*)"
    r"\s+(?:\([^()]{1,30}\)\s+)?(?:is\s+supplied\s+as\s+)?\d+(?:[.,]\d+)?\s?(?:mg|µg|μg|mcg|ug|g|mL|IU)\b"
)
# A product the participants keep taking beside the study's: "continue their background therapy
# with X", "keep taking oral X as prescribed ... as background therapy", "on a stable background
# of X"
_PRODUCT_WORD = r"[A-Z][A-Za-z]{2,}[A-Za-z0-9-]*"
_BACKGROUND_GIVEN = re.compile(
    rf"\bbackground\s+(?:therapy|treatment|medication)\s+(?:with|of)\s+(?:oral\s+)?(?P<a>{_PRODUCT_WORD})"
    rf"|\b(?:tak(?:e|es|ing)|receiv(?:e|es|ing))\s+(?:their\s+)?(?:oral\s+|stable\s+)*(?P<b>{_PRODUCT_WORD})\b[^.;]{{0,60}}\bas\s+background\b"
    rf"|\bon\s+a\s+(?:stable\s+)?background\s+of\s+(?:oral\s+)?(?P<c>{_PRODUCT_WORD})"
)
# A product given for relief when symptoms break through: "As rescue medication, X (250 mg) may
# be taken orally as needed", "X inhalers will be provided as rescue medication", "X (100 µg)
# may be inhaled as needed"
_RESCUE_GIVEN = re.compile(
    rf"\brescue\s+(?:medication|therapy|treatment)s?\s*[,:]?\s*(?P<a>{_PRODUCT_WORD})\b"
    rf"|\b(?P<b>{_PRODUCT_WORD})\b(?:\s+[\w/()-]+){{0,5}}?\s+(?:will\s+be|is|are)\s+(?:provided|supplied|given|used|dispensed)\s+as\s+rescue\b"
    rf"|\b(?P<c>{_PRODUCT_WORD})\s*\([^()]*\d[^()]*\)\s+may\s+be\s+(?:taken|inhaled|used|given|administered)\b[^.;]*\bas\s+needed\b"
)
_PLACEBO_GIVEN = re.compile(
    r"^(?:matching\s+)?placebo\b[^.]*\b(?:identical|look\s+the\s+same|match(?:es|ing)?|administered|given|taken)\b",
    re.I,
)


# "... will be taken orally once daily as the active comparator": the sentence gives the role
_AS_COMPARATOR = re.compile(
    r"\bas\s+(?:the\s+|an\s+|a\s+)?(?:active\s+)?(?:comparator|reference\s+(?:drug|therapy|product))\b", re.I
)


_PAST_STUDY = re.compile(
    r"\b(?:was|were)\s+(?:given|administered|used|dosed|treated)\b|\b(?:patients|subjects|participants)\s+received\b",
    re.I,
)


def _add_prose_products(
    found: list[dict], fields: list[Field], abbreviations: Optional[dict[str, str]], tracer: Tracer
) -> None:
    """Products the study-intervention sections give in sentences ("Drugname 50 mg (tablets) will
    be taken orally once daily"; "Placebo tablets, identical in appearance to ..."), when no table
    or field listed them: a name printed right before its dose, at least twice in those sections
    or once with the dose and once more anywhere in the design text; a product they keep
    taking as background therapy ("continue their background therapy with X"); a product
    given as rescue medication ("As rescue medication, X (250 mg) may be taken as needed")."""
    places = [f for f in find(fields, ADMINISTRATION_LABEL) if f.kind == "section"]
    text = "\n".join(f.value for f in places)
    everything = "\n".join(f.value for f in fields)
    # "Prophylactic Medications", "Supportive Care (non-investigational)": medicines beside the study's
    places = [f for f in places if not _NOT_STUDY_PRODUCTS.search(f.label)]
    for field in places:
        for line in field.value.split("\n"):
            for sentence in re.split(r"(?<=[.;])\s+", line):
                # "Dexamethasone 8 mg ... was given as a premedication": a past study's, told in
                # the past tense, not this protocol's product
                past = _PAST_STUDY.search(sentence)
                for m in [] if past else _DOSED_NAME.finditer(sentence):
                    name = m["name"]
                    if (
                        not is_product_name(name)
                        or len(re.findall(rf"(?<![\w-]){re.escape(name)}(?![\w-])", everything)) < 2
                    ):
                        continue
                    if any(same_product(name, p["name"], text, abbreviations) for p in found):
                        continue
                    role = "comparator" if _AS_COMPARATOR.search(sentence) else None
                    _add(found, _product(tracer, field, name, sentence, role))
                _add_given_as(found, field, sentence, _BACKGROUND_GIVEN, "background", text, abbreviations, tracer)
                _add_given_as(found, field, sentence, _RESCUE_GIVEN, "rescue", text, abbreviations, tracer)
                if _PLACEBO_GIVEN.search(sentence) and not any(p["role"] == "placebo" for p in found):
                    found.append(
                        item(
                            tracer,
                            field,
                            sentence,
                            name="Placebo",
                            role="placebo",
                            doses=[],
                            route=_route_in(sentence),
                            frequency=_frequency(sentence),
                        )
                    )


# A therapy every participant must be on beside the study's: "All subjects must be on a stable
# maximum tolerated labeled daily dose of ACEi or ARB for at least 4 weeks", "all subjects
# should take a dietary supplement of folic acid (or equivalent) throughout Period 1"
_MANDATED = re.compile(
    r"\ball\s+(?:subjects|participants|patients)\s+(?:must|should|will)\s+"
    r"(?:be\s+(?:on|receiving|treated\s+with)|take|receive|continue(?:\s+(?:on|to\s+(?:take|receive)))?)\s+"
    r"(?:(?:a|an|the|their)\s+)?(?:[\w,-]+\s+){0,5}?(?:doses?|supplements?|regimens?)\s+of\s+(?:an?\s+)?"
    r"(?P<name>[A-Za-z][\w-]*(?:\s+(?:or|and)\s+[A-Za-z][\w-]*|\s+[a-z][\w-]*)?)"
    r"(?=\s*(?:\(|\bfor\b|\bthroughout\b|\bduring\b|\bprior\b|\bat\b|\buntil\b|\bwhile\b|[,;.]|$))"
    # "participants are to be maintained on their baseline maintenance asthma treatment"
    r"|\b(?:subjects|participants|patients)\s+(?:are\s+to|must|should|will)\s+(?:be\s+maintained|remain|stay|continue)\s+"
    r"on\s+their\s+(?P<kept>(?:[\w-]+\s+){0,4}?(?:treatment|therapy|medications?|regimen))\b",
    re.I,
)
# A supportive product given to everyone, named with its dose: "All patients should receive
# either pegfilgrastim 6 mg SC x 1 or equivalent therapy", "Allopurinol 300mg PO once daily during
# cycle 2 and 3 on days 1-7 for all subjects"; or a class of therapy they must be on:
# "Participants are required to receive concomitant antiplatelet therapy"
_DOSE_AFTER = r"(?=\s*\d[\d.,]*\s*(?:mg|mcg|\u00b5g|ug|g|iu|units?)\b)"
_MANDATED_GIVEN = re.compile(
    rf"\ball\s+(?:subjects|participants|patients)\s+(?:must|should|will)\s+receive\s+(?:either\s+)?"
    rf"(?P<dosed>[A-Za-z][\w-]+){_DOSE_AFTER}"
    rf"|^(?P<lead>[A-Z][a-z][\w-]+){_DOSE_AFTER}[^.]*\bfor\s+all\s+(?:subjects|participants|patients)\b"
    r"|\b(?:subjects|participants|patients)\s+(?:are|will\s+be)\s+required\s+to\s+receive\s+(?:concomitant\s+)?"
    # a class of therapy, not the study's own ("the treatment", "protocol therapy", "first-line therapy")
    r"(?P<therapy>(?!(?:background|study|the|a|an|their|its|protocol|assigned|allocated|randomi[sz]ed|trial|"
    r"first-line|second-line|\w+-line|standard|investigational|active|blinded)\b)[a-z][\w-]+\s+(?:therapy|treatment))\b",
    re.I,
)
# words that open a dosing line but name no product ("Total 600 mg per day", "Premedication 8 mg")
_NOT_A_PRODUCT = re.compile(r"(?:total|premedication|dose|daily|each|maximum|minimum|starting|loading)$", re.I)
_ALL_MUST = re.compile(
    r"\bfor\s+all\s+(?:subjects|participants|patients)\b|\brequired\s+to\s+receive\b"
    r"|\ball\s+(?:subjects|participants|patients)\s+(?:must|should|will)\b"
    r"|\b(?:subjects|participants|patients)\s+(?:are\s+to|must|should|will)\s+(?:be\s+maintained|remain|stay|continue)\s+on\s+their\b",
    re.I,
)
_STUDY_WORDS = re.compile(r"\b(?:study|investigational|trial|blinded|placebo|IMP|IP)\b", re.I)


def _add_mandated(
    found: list[dict], fields: list[Field], abbreviations: Optional[dict[str, str]], tracer: Tracer
) -> None:
    """A therapy every participant must take beside the study's own (``_MANDATED``), wherever
    the protocol says so (the design, the inclusion criteria, a background therapy section): a
    background intervention, once, unless a product found is it."""
    text = None
    studied = any(p["role"] == "investigational" for p in found)
    for field in fields:
        if not _ALL_MUST.search(field.value):
            continue
        text = text or "\n".join(f.value for f in fields)
        for sentence in sentences(field.value):
            given = [
                m["therapy"] or m["dosed"] or m["lead"]
                for m in _MANDATED_GIVEN.finditer(sentence)
                # a product named with its dose is background only beside the study's own
                if m["therapy"] or studied and is_product_name(m["dosed"] or m["lead"])
            ]
            given = [g for g in given if not _NOT_A_PRODUCT.match(g)]
            for name in [m["name"] or m["kept"] for m in _MANDATED.finditer(sentence)] + given:
                if _STUDY_WORDS.search(name) or _NOT_STUDY_PRODUCTS.search(name):
                    continue
                if any(same_product(name, p["name"], text, abbreviations) for p in found):
                    continue
                product = item(
                    tracer, field, sentence, name=name, role="background", doses=[], route=None, frequency=None
                )
                # printed with its dose: "pegfilgrastim 6 mg SC x 1", "Allopurinol 300mg PO once daily"
                if name in given:
                    own = re.split(r"\s+or\s+", sentence[sentence.find(name) :], maxsplit=1)[0]
                    product["doses"] = _doses(own)
                    _fill(product, own)
                found.append(product)


def _add_given_as(
    found: list[dict],
    field: Field,
    sentence: str,
    given: re.Pattern,
    role: str,
    text: str,
    abbreviations: Optional[dict[str, str]],
    tracer: Tracer,
) -> None:
    """The product ``sentence`` gives in ``role``, added unless a product found is it: background
    therapy (``_BACKGROUND_GIVEN``) and rescue medication (``_RESCUE_GIVEN``) alike, each
    pattern naming the product in its group a, b or c. ``text``: the sections read, where a
    name may be printed beside another name of the same product."""
    m = given.search(sentence)
    name = m and (m["a"] or m["b"] or m["c"])
    if name and is_product_name(name) and not any(same_product(name, p["name"], text, abbreviations) for p in found):
        _add(found, _product(tracer, field, name, sentence, role))


def _complete(
    products: list[dict],
    fields: list[Field],
    abbreviations: Optional[dict[str, str]] = None,
    chapters: Optional[list[Field]] = None,
) -> None:
    """Doses, route and frequency a product's own text leaves out, from the sentences of the
    dosing and administration fields that name the product ("Enzalutamide 160 mg will be
    taken orally once daily"): more doses added, route and frequency where none was read. A
    placebo takes route and frequency from sentences naming it, never a dose; what is still
    missing comes from a sentence about the study intervention as a whole."""
    places = [f for f in find(fields, ADMINISTRATION_LABEL) if f.kind != "section" or not f.synopsis]
    # a document with no section on giving the products (a grant's research plan) gives them in
    # its design text: "patients ... will start Letrozole 5mg daily (orally)"
    places = places or find(fields, DESIGN_LABEL)
    for product in products:
        if product["route"] is None:  # "Xanomeline Transdermal Therapeutic System": its name says it
            product["route"] = _route_in(product["name"], words_only=True)
        placebo = product["role"] == "placebo"
        words = (
            ["placebo"]
            if placebo
            else [_head(product["name"])] + aliases(product["name"], abbreviations, "\n".join(f.value for f in places))
        )
        words = [w for w in dict.fromkeys(words) if w]
        text = "\n".join(s for f in places for s in f.value.split("\n") if words and _says_any(s, words))
        if not text:
            continue
        voted = None if placebo else _voted_frequency(text, words)  # "placebo" lines speak of every placebo
        if voted and (product["frequency"] is None or _canonical(product["frequency"]) != _canonical(voted)):
            product["frequency"] = voted
        _fill(product, text)
        if not product["doses"] and not placebo:
            # its doses: those printed after its name, and those of the lines naming no other
            # product ("ibrutinib 420mg PO daily, fludarabine 25mg/m2/day" gives each its own)
            others = [w for p in products if p is not product and p["role"] != "placebo" for w in _name_words(p)]
            alone = "\n".join(line for line in text.split("\n") if not _says_any(line, others))
            _add_doses(product, _named_doses(_each_with_unit(text), words))
            _add_doses(product, _doses(alone))
    # a chapter on giving the products whose text is all in its sections ("5.2 Administration"
    # over "5.2.1 Main Study") prints the doses given too
    chapters = find(chapters or [], ADMINISTRATION_LABEL, ("chapter",))
    described = _each_with_unit(
        "\n".join(
            _this_studys(f)
            for f in find(fields, ADMINISTRATION_LABEL)
            + chapters
            + find(fields, DESIGN_LABEL)
            + find(fields, ARM_LABEL)
        )
    )
    for product in products:
        if product["role"] != "placebo":
            words = _name_words(product) + aliases(product["name"], abbreviations, described)
            words = [w for w in dict.fromkeys(words) if w]
            _add_doses(product, _named_doses(described, words))
    _placebos_as_matched(products)
    general = _whole_intervention(fields)
    for product in products:
        if product["role"] not in ("background", "rescue"):  # it speaks of the study's own products
            _fill(product, general)


# "5.5 Justification for Dose", "Rationale for Dose Selection": why the dose, told with the doses
# earlier trials tested ("Results from the phase 2 dose-finding trial showed that the 0.4 mg
# once-daily dose was most effective"), which are not doses given here
_DOSE_RATIONALE = re.compile(r"\bjustification\b|\brationale\b|\bselection\s+of\b|\bdose\s+selection\b", re.I)
_EARLIER_TRIAL = re.compile(
    r"\b(?:previous(?:ly)?|prior|earlier|showed|shown|demonstrated|tested|obtained|approved|dose-finding)\b"
    r"|\bphase\s+(?:[1-3]|I{1,3})[ab]?\b|\b(?:has|have)\s+been\b|\b(?:trial|study)\s+[A-Z]{2,}[\w-]*\d",
    re.I,
)


def _this_studys(field: Field) -> str:
    """A field's text, less the sentences of a dose rationale that tell of an earlier trial."""
    if not _DOSE_RATIONALE.search(field.label):
        return field.value
    return "\n".join(s for s in sentences(field.value) if not _EARLIER_TRIAL.search(s))


def _placebos_as_matched(products: list[dict]) -> None:
    """A placebo named for the product it matches ("Upadacitinib (ABT-494) matching placebo",
    "Placebo for MTX") is given as that product is: its route and frequency, where that
    product has them (sentences naming "placebo" may speak of another product's placebo)."""
    actives = [p for p in products if p["role"] != "placebo"]
    for placebo in (p for p in products if p["role"] == "placebo"):
        named = _name_set(placebo["name"]) - {"placebo", "matching", "matched"}
        matched = [p for p in actives if named and _name_set(p["name"]) & named]
        if len(matched) == 1:
            for key in ("route", "frequency"):
                placebo[key] = matched[0][key] or placebo[key]


def _route_in(text: str, words_only: bool = False) -> Optional[str]:
    """The first route ``text`` names; ``words_only``: by a word, not an abbreviation ("IV" in
    "Factor IV" is no route)."""
    found = [
        (m.start(), r) for r, pattern in ROUTES for m in pattern.finditer(text) if not words_only or len(m.group(0)) > 4
    ]
    return min(found)[1] if found else None


def _fill(product: dict, text: str) -> None:
    if product["route"] is None:
        product["route"] = _route_in(text)
    if product["frequency"] is None:
        product["frequency"] = _frequency(text)


# "Study intervention will be administered every 2 weeks", "The study drug is taken orally once daily"
# (one line: a list below "... study intervention as follows:" gives each product its own days)
# (a wrapped line goes on, a list's item does not: a bullet, a number or "Day 1: ...")
_ON_ONE_LINE = r"(?:[^.;\n]|\n(?![ \t]*(?:[-*\u2022]|days?\b|\d)))"
_WHOLE_INTERVENTION = re.compile(
    r"\b(?:study|investigational)\s+(?:intervention|drug|treatment|product|medication)s?\b"
    rf"{_ON_ONE_LINE}*\b(?:administered|given|taken|injected|infused|inhaled|dosed)\b{_ON_ONE_LINE}*",
    re.I,
)


def _whole_intervention(fields: list[Field]) -> str:
    """The sentences that give the study intervention as a whole a route or frequency: they hold
    for every product the document names (a placebo is given as what it matches)."""
    return "\n".join(
        m.group(0)
        for f in fields
        for m in _WHOLE_INTERVENTION.finditer(f.value)
        if FREQUENCY.search(m.group(0)) or _route_in(m.group(0))
    )


def _says_any(line: str, words: list[str]) -> bool:
    low = line.lower()
    return any(re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", low) for w in words)


_STRENGTH_VOLUME = re.compile(r"(?:mg|µg|μg|mcg|ug|g|IU|units?)\s*(?:in|/|per)\s*$")


# "7.5, 10, 15, 17.5, 20, 22.5 or 25 mg": a list of numbers sharing the last one's unit
_SHARED_UNIT = re.compile(
    # not a code's number ("ZHE-1092, 5 mg": the product, then its dose)
    r"(?<![\w.])(?<![A-Za-z]-)(?P<list>\d+(?:\.\d+)?(?:\s*,\s*\d+(?:\.\d+)?)*\s*,?\s*(?:or|and|to)?\s*)"
    r"(?=\d+(?:\.\d+)?\s?(?P<unit>mg|µg|μg|mcg)\b(?!\s?/))"
)


def _each_with_unit(text: str) -> str:
    """The numbers of a list sharing one unit written each with it ("7.5 mg, 10 mg or 25 mg")."""

    def spell(m: re.Match) -> str:
        numbers = re.findall(r"\d+(?:\.\d+)?", m["list"])
        before = text[max(0, m.start() - 12) : m.start()]
        if not re.search(r",|\bor\b|\band\b", m["list"]) or re.search(
            r"\b(?:days?|weeks?|cycles?|visits?|months?)\s*$", before, re.I
        ):
            return m.group(0)  # one number, or the days of a schedule ("Days 1, 8 and 15")
        return "".join(f"{n} {m['unit']}, " for n in numbers)

    return _SHARED_UNIT.sub(spell, text)


def _doses(text: str) -> list[dict]:
    doses: list[dict] = []
    text = _each_with_unit(text)
    for m in _DOSE.finditer(text):
        if _STRENGTH_VOLUME.search(text[max(0, m.start() - 12) : m.start()]):
            continue  # "200 mg in 1.0 mL": the volume a dose comes in, not a dose
        value = float(m["value"].replace(",", "."))
        unit = (
            re.sub(r"\s", "", m["unit"])
            .lower()
            .replace("²", "2")
            .replace("µ", "u")
            .replace("μ", "u")
            .replace("mcg", "ug")
        )
        dose = {"value": int(value) if value.is_integer() else value, "unit": unit, "printed": m.group(0)}
        if (dose["value"], unit) not in {(d["value"], d["unit"]) for d in doses}:
            doses.append(dose)
    return doses


# Between one dose and the next after a product's name: its frequency, form or a note in
# parentheses ("30 mg once daily (QD) alone and 15 mg QD"), never a comparison's word
_DOSE_GAP = re.compile(
    r"(?:\s*\([^()]{0,80}\)|\s+(?!(?:versus|vs|compared|than|plus|with|to|placebo)\b)[A-Za-z][A-Za-z-]*){0,4}"
    r"(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+)",
    re.I,
)


def _named_doses(text: str, words: list[str]) -> list[dict]:
    """The doses printed right after the product's name, one after another ("cariprazine 1.5
    mg/day and cariprazine 3 mg/day", "KVD900 300 mg (one tablet ...), 600 mg (...)"): each
    is the product's dose level. A dose after another product's name or a comparison word
    ends the run."""
    found: list[dict] = []
    for word in words:
        # on the name's line: a dose on the next line is another cell's (a table's rows as lines)
        name = re.compile(rf"(?<![\w-]){re.escape(word)}(?![\w-])(?:[^\S\n]*\([^()]{{1,40}}\))?[^\S\n]+", re.I)
        for m in name.finditer(text):
            at = m.end()
            while (dose := _DOSE.match(text, at)) and not _STRENGTH_VOLUME.search(
                text[max(0, dose.start() - 12) : dose.start()]
            ):
                found += [d for d in _doses(dose.group(0)) if d not in found]
                gap = _DOSE_GAP.match(text, dose.end())
                if not gap:
                    break
                at = gap.end()
                again = name.match(text, at)  # "... and cariprazine 3 mg/day": the name again
                at = again.end() if again else at
    return found


def _add_doses(product: dict, doses: list[dict]) -> None:
    known = {(d["value"], d["unit"]) for d in product["doses"]}
    for dose in doses:
        if (dose["value"], dose["unit"]) not in known:
            product["doses"].append(dose)
            known.add((dose["value"], dose["unit"]))


def _add(found: list[dict], product: Optional[dict]) -> None:
    """Add a product not yet found: another name is another product unless it is the same
    product's name with more or fewer words ("Drug X" and "Drug X (ABC-123)"). A product found
    again (the same drug in the columns of its low, medium and high dose arms) adds its doses."""
    if not product:
        return
    known = _known(found, product["name"])
    if known is None:
        found.append(product)
    elif known["role"] != "placebo":
        _add_doses(known, product["doses"])


def _known(found: list[dict], name: str) -> Optional[dict]:
    """The product already found under ``name``, with more or fewer words."""
    words = _name_set(name)

    def same(theirs: set[str]) -> bool:  # "Drug X matching placebo" is not "Drug X"
        return ("placebo" in words) == ("placebo" in theirs) and (words <= theirs or theirs <= words)

    return next((p for p in found if same(_name_set(p["name"]))), None)


_LINK_WORDS = {"for", "of", "the", "to", "and", "with"}


def _name_set(name: str) -> set[str]:
    """A product name's words, its bracketed code and linking words left out ("Matching placebo
    for upadacitinib" and "Upadacitinib (ABT-494) matching placebo" are one product)."""
    return set(re.findall(r"[a-z0-9-]+", re.sub(r"\([^()]*\)", " ", name.lower()))) - _LINK_WORDS


def _product(tracer: Tracer, where: Field, name: str, text: str, role: Optional[str]) -> Optional[dict]:
    name = re.sub(r"\s*\([^)]*$", "", " ".join(name.split())).strip(" :;,.")  # "KVD900 (" cut at a line's end
    name = re.sub(r"(?<=[a-z])(placebo)\b", r" \1", name)  # "Semaglutideplacebo": the text layer lost the space
    if not name or len(name) > 80 or not re.search(r"[A-Za-z]{2}", name) or not is_product_name(name):
        return None
    if role is None:
        role = next((r for r, pattern in ROLES if pattern.search(name)), None) or "investigational"
    doses = _doses(text)
    route = _route_in(text)
    # "Days 1, 8, and 15 of every 28 day cycle": the days, not the cycle's "every 28 day"
    days = _dosing_days(text)
    frequency = days if days and days.endswith("cycle") else _frequency(text) or days
    return item(tracer, where, text.split("\n")[0], name=name, role=role, doses=doses, route=route, frequency=frequency)


# "Day 1", "Days 6 and 13", "Days 1, 8, and 15"; a range ("Days 7 to 12") is daily dosing, no list
_DAY_LIST = re.compile(
    r"\bDays?\s+(\d{1,3}(?:\s*,\s*\d{1,3})*(?:\s*,?\s*and\s+\d{1,3})?)\b(?!\s*(?:to|-|\u2013|through))", re.I
)
# a clause ends at ";", a sentence's end or a line starting another label ("Route: Oral"); a
# cell's wrapped lines go on ("administered alone on\nDay 1 and with B on\nDays 6 and 13")
_CLAUSE_END = re.compile(r";|(?<=\.)\s+|\n(?=[A-Z][\w /()-]{0,40}:)")
# a clause about samples or visits on those days, not doses: "PK samples on Days 1 and 8"
_NOT_DOSING_DAYS = re.compile(r"\bsamples?\b|\bPK\b|\bpharmacokinetic|\bassessments?\b|\bvisits?\b|\bECGs?\b", re.I)
_DAY_RANGE = re.compile(r"\bDays?\s+\d{1,3}\s*(?:to|-|\u2013|through)\s*\d", re.I)


def _dosing_days(text: str) -> Optional[str]:
    """The days a product's own dosing text gives it on, where it names no frequency ("2 tablets
    administered alone on Day 1 and with B on Days 6 and 13": "Days 1, 6 and 13"); two days at
    least, no range among them."""
    if _DAY_RANGE.search(text):
        return None
    # the first clause naming a day, unless it names samples or visits (another product's days
    # are in a clause of their own: "Day 1 of each cycle; dexamethasone on Days 1, 2 and 3")
    clause = next((c for c in _CLAUSE_END.split(text) if _DAY_LIST.search(c) and not _NOT_DOSING_DAYS.search(c)), "")
    found = list(_DAY_LIST.finditer(clause))
    days = list(dict.fromkeys(int(d) for m in found for d in re.findall(r"\d+", m.group(1))))
    if len(days) < 2:
        return None
    listed = "Days " + ", ".join(map(str, days[:-1])) + f" and {days[-1]}"
    cycle = _CYCLE_AFTER.match(clause, found[-1].end())
    return listed + (f" of every {cycle[1]}-{cycle[2].lower()} cycle" if cycle else "")


# "... and 15 of every 28 day (4-week) cycle": the cycle the days repeat in
_CYCLE_AFTER = re.compile(r"\s+of\s+(?:every|each|a)\s+(\d{1,3})[\s-]?(day|week)s?\b", re.I)


# A frequency that does not repeat: one dose ("single dose", "one infusion of X"), or as needed
_ONCE_OR_AS_NEEDED = re.compile(r"single|one\b|a\s+single|as\s+needed|PRN", re.I)


def _voted_frequency(text: str, words: list[str]) -> Optional[str]:
    """The frequency most lines naming the product give it, each line voting for the frequency
    printed nearest the product's name ("daily upadacitinib (30 mg QD) and weekly MTX": daily
    for upadacitinib, weekly for MTX); two votes at least, a tie to the first printed."""
    votes: dict[str, list] = {}
    for line in text.split("\n"):
        low = line.lower()
        names = [m.start() for w in words for m in re.finditer(rf"(?<![\w-]){re.escape(w)}(?![\w-])", low)]
        found = list(FREQUENCY.finditer(line))
        if not names or not found:
            continue
        nearest = min(found, key=lambda m: min(abs(m.start() - n) for n in names))
        votes.setdefault(_canonical(nearest.group(0)), []).append(" ".join(nearest.group(0).split()))
    # a repeating frequency before a single dose or "as needed" (a loading dose, rescue use), as
    # _frequency does; then the most votes, the first printed winning a tie (the sort is stable)
    ranked = sorted(votes.values(), key=lambda v: (not _ONCE_OR_AS_NEEDED.match(v[0]), len(v)), reverse=True)
    return ranked[0][0] if ranked and len(ranked[0]) >= 2 else None


_CANONICAL = [
    (re.compile(r"^(?:qd|od|daily|once\s+(?:a\s+|per\s+)?(?:daily|day)|every\s+day)$"), "once daily"),
    (re.compile(r"^(?:bid|twice\s+(?:a\s+|per\s+)?(?:daily|day))$"), "twice daily"),
    (re.compile(r"^(?:tid|three\s+times\s+(?:a\s+|per\s+)?(?:daily|day))$"), "three times daily"),
    (re.compile(r"^(?:qw|weekly|once\s+(?:a\s+|per\s+)?(?:weekly|week)|every\s+week)$"), "once weekly"),
    (re.compile(r"^(?:tiw|(?:three\s+times|thrice)\s+(?:a\s+|per\s+)?(?:weekly|week))$"), "three times weekly"),
    (re.compile(r"^(?:prn|as\s+needed)$"), "as needed"),
]
_NUMBER_WORDS = {"two": "2", "three": "3", "four": "4", "other": "2"}


def _canonical(frequency: str) -> str:
    """One spelling per frequency: "QD", "daily" and "once daily" alike; "Q3W" and "every three
    weeks" alike."""
    text = " ".join(frequency.lower().split())
    for pattern, name in _CANONICAL:
        if pattern.match(text):
            return name
    m = re.match(r"^q(\d)w$|^every\s+(\d+|two|three|four|other)\s+weeks?$", text)
    if m:
        return f"every {m.group(1) or _NUMBER_WORDS.get(m.group(2), m.group(2))} weeks"
    return text


def _frequency(text: str) -> Optional[str]:
    """The regimen's frequency: a repeating one ("once daily", "Q3W") before a single dose or
    "as needed", which a text may also mention (a loading dose, rescue use)."""
    found = [m.group(0) for m in FREQUENCY.finditer(text)]
    repeating = [f for f in found if not _ONCE_OR_AS_NEEDED.match(f)]
    return (repeating or found or [None])[0]


def _table_products(table: dict) -> list[tuple[str, str, Optional[str]]]:
    """(name, the product's text, role or None) of an intervention table, either way round."""
    columns = [" ".join(str(c).split()) for c in table.get("columns") or []]
    rows = [[" ".join(str(c).replace("<br>", "\n").split(" ")) for c in r] for r in table.get("data") or []]
    if len(columns) < 2 or not rows:
        return []
    # a row per product, unless its first column holds the attributes' labels: "Arm Name | Drug
    # low dose | ... | Placebo" over "Intervention Name | ...", "Dosage Level(s) | ..." is a
    # column per product (the Common Protocol Template's table), whatever its header says
    labels_down = sum(bool(_ATTRIBUTE.search(r[0]) or _NAME_HEADER.search(r[0])) for r in rows if r)
    if (
        _NAME_HEADER.search(columns[0])
        and sum(bool(_ATTRIBUTE.search(c)) for c in columns[1:]) >= 1
        and labels_down < 2
    ):
        role_at = next((k for k, c in enumerate(columns) if _ROLE_HEADER.search(c)), None)
        out = []
        for row in rows:
            if not row[0].strip() or len(row) != len(columns):
                continue
            role = _role_word(row[role_at]) if role_at is not None else None
            text = "\n".join(f"{c}: {v}" for c, v in zip(columns, row))
            out.append((" ".join(row[0].split()), text, role))  # a name wrapped in its cell, whole
        return out
    pairs = table_pairs(table)
    labels = [label for label, _ in pairs]
    folded = [" ".join(label.lower().split()) for label in labels]
    if len(set(folded)) < len(folded):
        # a label printed twice ("Dose" under the investigational product, again under the
        # reference therapy): a synopsis's fields of several products, not a column per product
        return []
    if sum(bool(_ATTRIBUTE.search(label)) for label in labels) >= 2 and any(
        _NAME_HEADER.search(label) for label in labels[:3]
    ):
        width = max(len(r) for r in [columns] + rows)
        everything = [columns] + rows
        out = []
        for k in range(1, width):
            cells = {r[0]: r[k] for r in everything if len(r) > k and r[0].strip()}
            # the product's name before the arm's ("Arm Name: Drug low dose" over "Intervention Name: Drug")
            named = [(lab, v) for lab, v in cells.items() if _NAME_HEADER.search(lab) and v.strip()]
            name = next((v for lab, v in named if not _ARM_NAME.match(lab)), next((v for _, v in named), ""))
            # the first role row that names a role ("Type: Drug" names none, "Use: Rescue medication" does)
            role = next((r for lab, v in cells.items() if _ROLE_HEADER.search(lab) and (r := _role_word(v))), None)
            text = "\n".join(f"{lab}: {v}" for lab, v in cells.items())
            if name:
                out.append((name.split("\n")[0], text, role))
        return out
    return []


_ARM_NAME = re.compile(r"^(?:arm|group|cohort)\b", re.I)
_DOSE_HEADER = re.compile(r"^(?:planned\s+)?(?:dose|dosage|dose\s+level)s?\b(?!\s+(?:form|counter|volume))", re.I)


def _add_table_doses(products: list[dict], table: dict) -> None:
    """A table with a product column and a dose column, a row per dose step ("Semaglutide ...
    | 0.25 mg | 4 weeks", "... | 0.5 mg | 4 weeks"): each row's dose is one of the doses of the
    product its name cell names (a placebo has none)."""
    columns = [" ".join(str(c).split()) for c in table.get("columns") or []]
    if len(columns) < 2 or not _NAME_HEADER.search(columns[0]):
        return
    at = next((k for k, c in enumerate(columns) if k and _DOSE_HEADER.search(c)), None)
    if at is None:
        return
    for row in table.get("data") or []:
        if len(row) != len(columns):
            continue
        name = " ".join(str(row[0]).replace("<br>", " ").split())
        for product in products:
            if product["role"] != "placebo" and _says_any(name, _name_words(product)):
                _add_doses(product, _doses(str(row[at])))


_GENERIC_HEAD = {"drug", "study", "investigational", "product", "treatment", "trial", "test", "active"}


def _name_words(product: dict) -> list[str]:
    """The product's name, and its first word when that names it alone ("semaglutide" of
    "Semaglutide B"; not "drug" of "Drug X", nor a code's letters: "BAY" of "BAY 2433334",
    whose number a picture's text may run into the dose, "BAY 243333450 mg")."""
    head = _head(product["name"])
    coded = re.match(rf"{re.escape(head)}[\s-]*\d", product["name"], re.I)
    return [product["name"].lower()] + ([head] if head not in _GENERIC_HEAD and not coded else [])


def _role_word(text: str) -> Optional[str]:
    return next((r for r, pattern in ROLES if pattern.search(text or "")), None)


def _names_of(value: str) -> list[str]:
    """The products a field names: its first line's leading words, or, when the field is a
    list of short lines ("MTX", "Matching placebo for MTX"), each line."""
    lines = [ln.strip(" -\u2022*") for ln in value.split("\n") if ln.strip(" -\u2022*")]
    lines = [ln for ln in lines if not re.match(r"^(?:period|part|phase|cohort|stage)\s+\w+\s*:?$", ln, re.I)]
    short = [
        ln
        for ln in lines
        if len(ln.split()) <= 6
        and not ln.endswith(".")
        and not re.match(r"^(?:none|n/?a|not\s+applicable)\b", ln, re.I)
    ]
    if len(short) >= 2 and len(short) == len(lines) or len(short) >= 2 and len(short) * 2 > len(lines):
        return [n for n in (_name_of(ln) for ln in short) if n]
    name = _name_of(value)
    return [name] if name else []


def _name_of(value: str) -> Optional[str]:
    first = value.split("\n")[0].strip()
    first = re.sub(
        r"^(?:the\s+)?(?:investigational\s+product|study\s+drug)\s+(?:is|will\s+be)\s+", "", first, flags=re.I
    )
    name = _STOP_NAME.split(first, maxsplit=1)[0].strip(" -")
    return name if 1 < len(name) <= 60 and len(name.split()) <= 6 else None
