"""Who and how many: planned enrollment, ages, sex and whether participants are healthy.

- **Enrollment** from a field labelled as the number of participants (subjects, patients) or
  the sample size: the number that is randomized when the field also gives the number screened
  ("screen approximately 1700 to randomize 750": 750), else the number enrolled, else the first
  count of people in it. A sentence's total of people beats its parts ("180 randomized in one
  cohort and 310 in the other, for a total of 490 patients": 490), and a number randomized beats
  one to achieve on the way ("screened to achieve 900 in the run-in to reach 750 randomly
  assigned": 750). The design field's sentences are read the same way when no such field
  is printed.
- **Ages** from the inclusion criteria (the reader of eligibility has cut them): "18 to 75
  years", "between 18 and 65", "at least 18 years", "≥ 18 years" (a "≥" some text layers
  lose, "Age  18 years"), "18 years of age or older"; no upper bound printed is null. Where no
  inclusion criterion gives them, an exclusion criterion opening with the ages it keeps out
  does ("Individuals < 18 years old": at least 18).
- **Sex** from the criteria too: "male or female", "men and women", "males and postmenopausal
  females" is both, and so are criteria setting a rule for women and another for men ("For
  women of childbearing potential: ...", "For men: ..."); only "women" (or "female
  participants") female; only "men" male; none named, but the disease is one of one sex's
  organs (prostate cancer: male; ovarian, cervical, endometrial cancer: female). None limits
  the study to one sex, and a criterion speaks of the women taking part (pregnancy,
  childbearing potential, breastfeeding): both. Else null.
- **Healthy volunteers**: true where the title, design or criteria say healthy participants
  (volunteers, subjects), unless that sentence has them diagnosed with something ("healthy
  subject ... who has been diagnosed with breast cancer" is a patient); false where the
  criteria or the title name a condition participants have ("patients with", "participants
  with", "diagnosis of"); else null.
"""

from __future__ import annotations

import re
from typing import Optional

from ...shared.markup import SYMBOL_FONT
from ..trace import Tracer
from .fields import Field, find
from .items import item, sentences

ENROLLMENT_LABEL = re.compile(
    r"\b(?:number|no\.?)\s+of\s+(?:trial\s+|study\s+)?(?:participants|subjects|patients|trial\s+subjects)\b|\bsample\s+size\b"
    r"|\bplanned\s+(?:enrol?lment|number|sample)\b|\bstudy\s+population\b|\bpopulation\s+size\b|\benrol?lment\b",
    re.I,
)
DESIGN_LABEL = re.compile(r"\bdesign\b|\bmethodology\b|\bsample\s+size\b|\bnumber\s+of\b", re.I)
_PEOPLE = r"(?:participants|subjects|patients|volunteers|men|women|individuals|adults|children|infants|people)"
_NUMBER = r"(?<![\w-])(\d{1,3}(?:,\d{3})+|\d+)"  # not a code's digits ("LDF-1342")
_PART_COUNT = re.compile(
    # "(6 per cohort)", "450 evaluable participants per intervention group"
    r"\(?\b\d+\s+(?:[A-Za-z][\w-]*\s+){0,2}?(?:per|in\s+each|for\s+each|each)\s+(?:[\w-]+\s+)?"
    r"(?:arm|group|cohort|sequence|site|country|period)\b\)?"
    r"|\b\d+\s+(?:[A-Za-z][\w-]*\s+){0,2}?each\b(?!\s+(?:arm|group|cohort))"
    # "Approximately 100 patients will be randomized to each of the 3 treatment groups"
    r"|\b\d+\s+(?:[A-Za-z][\w-]*\s+){0,6}?(?:to|in|into)\s+each\s+of\s+the\s+\d+\s+(?:[\w-]+\s+){0,2}?(?:arms|groups|cohorts)\b",
    re.I,
)
# a count the study reaches on its way, not its size: "will meet after 75, 150, 225, and 300
# patients have completed 1 month", "when 100 subjects have been dosed"
_MILESTONE = re.compile(r"(?:\b(?:after|when|once|until|before)\s+|\d\s*,\s*(?:and\s+)?|\d\s+and\s+)$", re.I)
_COUNT = re.compile(rf"{_NUMBER}\s+(?:\w+[\s-]+){{0,4}}?{_PEOPLE}\b", re.I)
# the words between a count and its verb hold no other count and no "screened" ("600 patients
# screened and 400 randomized": 400 is the randomized one)
_BETWEEN_WORD = r"(?:(?!\d|screen)[\w()-]+\s+)"
_RANDOMIZED = re.compile(
    rf"{_NUMBER}\s+{_BETWEEN_WORD}{{0,6}}?(?:(?:will|are|to)\s+)?(?:be\s+)?(?:randomi[sz]ed|randomly)", re.I
)
_ABOUT = r"(?:approximately\s+|about\s+|up\s+to\s+)?"
_TO_RANDOMIZE = re.compile(rf"\brandomi[sz]e\s+{_ABOUT}{_NUMBER}\b", re.I)
# "screened to achieve 900 subjects in the run-in ... to reach 750 randomly assigned": a number
# to achieve gives way to one randomized in the same sentence
_TO_ACHIEVE = re.compile(rf"\b(?:achieve|reach)\s+(?:the\s+)?(?:anticipated\s+|planned\s+)?{_ABOUT}{_NUMBER}\b", re.I)
# "180 patients randomized in one cohort and up to 310 in the other, for a total of 490
# patients": the sentence's total is the study's
_TOTAL = re.compile(rf"\b(?:a\s+)?total\s+of\s+{_ABOUT}{_NUMBER}\s+(?:[\w-]+\s+){{0,3}}?{_PEOPLE}\b", re.I)
_ENROLLED = re.compile(
    rf"{_NUMBER}\s+{_BETWEEN_WORD}{{0,6}}?(?:will\s+)?(?:be\s+)?(?:enrol?led|treated|included|dosed)", re.I
)
_BARE = re.compile(rf"^\s*(?:approximately|approx\.?|about|up\s+to|a\s+total\s+of|total:?)?\s*{_NUMBER}\b", re.I)

_RANGE = re.compile(r"(\d{1,3})\s*(?:to|through|-|–|and)\s*(\d{1,3})\s*(?:years|yrs)", re.I)
_BETWEEN = re.compile(r"between\s+(?:the\s+ages\s+of\s+)?(\d{1,3})\s+(?:years\s+)?and\s+(\d{1,3})", re.I)
_AT_LEAST = re.compile(
    # "Age > 65 years": the printed bound is the minimum
    r"(?:at\s+least|≥|>=|\u2265|>|aged|age[d]?\s+of|minimum(?:\s+age)?(?:\s+of)?)\s*(\d{1,3})\s*(?:years|yrs|\b)"
    r"|(\d{1,3})\s*(?:years|yrs)\s*(?:of\s+age\s+)?(?:or|and)\s+(?:older|above|over)"
    r"|\bage\s{2,}(\d{1,3})\s*years|\bbe\s{2,}(\d{1,3})\s*years|\baged\s+(\d{1,3})\s*(?:years)?\s*(?:or|and)\s+(?:older|above)",
    re.I,
)
_AT_MOST = re.compile(
    r"(?:≤|<=|\u2264|no\s+older\s+than|up\s+to|maximum(?:\s+age)?(?:\s+of)?)\s*(\d{1,3})\s*(?:years|yrs)", re.I
)
_AGE_WORDS = re.compile(r"\byears?\b|\bage\b|\baged\b", re.I)
# an age that defines something else: menopause ("postmenopausal, defined as > 45 years of age
# with amenorrhea"), childbearing, a history; "males and postmenopausal females at least 50
# years of age" is the study's age
# a diagnosis dated by the age ("diagnosed at least 1 year before screening"), not one after the
# participant's age ("Man or woman >= 30 years-old with a clinical diagnosis of T2DM")
_NOT_STUDY_AGE = re.compile(
    r"\bamenorrh|\bdefined\s+as\b|\bmenopause\b|\bchild-?bearing|\bdiagnos\w*\b[^.]*?\b\d{1,3}\s*(?:years?|yrs|months?)\b"
    r"|\bbefore\s+(?:screening|randomi|enrol|the\s+first)|\bsince\b|\bwithin\b|\bprior\b|\bago\b|\bhistory\b",
    re.I,
)

# "males and postmenopausal females": a qualifier of one word may stand between
_BOTH = re.compile(
    r"\bmales?,?\s+(?:and|or|&)\s+(?:[\w-]+\s+)?females?\b|\bfemales?\s+(?:and|or)\s+males?\b"
    r"|\bmen\s+(?:and|or)\s+(?:[\w-]+\s+)?women\b|\bwomen\s+(?:and|or)\s+men\b|\bboth\s+sexes\b|\bof\s+either\s+sex\b"
    r"|\bman\s+or\s+woman\b|\bwoman\s+or\s+man\b|\bmale\s+or\s+female\b",
    re.I,
)
_FEMALE = re.compile(
    r"\b(?:women|female\s+(?:participants|subjects|patients))\b|^\s*(?:females?|women)\b"
    r"|\bmust\s+be\s+(?:a\s+)?(?:female|woman|women)\b",  # "Patients must be female"
    re.I,
)
_MALE = re.compile(
    r"\b(?:men|male\s+(?:participants|subjects|patients))\b|^\s*(?:males?|men)\b|\bmust\s+be\s+(?:a\s+)?(?:male|man|men)\b",
    re.I,
)
_HEALTHY = re.compile(
    r"\bhealthy\s+(?:adult\s+|male\s+|female\s+|japanese\s+|chinese\s+)*(?:volunteers?|participants?|subjects?|men|women|adults?)\b",
    re.I,
)
# "Healthy subject according to medical history ... who has been diagnosed with breast cancer":
# a patient in good general health, not a healthy volunteer; so is a sentence calling them patients
_DIAGNOSED = re.compile(
    r"(?<!not\s)(?<!never\s)(?<!not\sbeen\s)(?<!never\sbeen\s)\bdiagnosed\s+with\b|\bpatients?\b", re.I
)
_CONDITION = re.compile(
    r"\b(?:patients|participants|subjects|adults|children|men|women)\s+(?:\w+\s+){0,3}?with\b|\bdiagnos(?:is|ed)\b"
    # "must have histologically confirmed breast cancer", "breast cancer patients receiving ..."
    r"|\b(?:histologically|cytologically|pathologically)\s+(?:or\s+\w+\s+)?(?:confirmed|proven|documented)\b"
    r"|\b(?:cancer|carcinoma|tumou?r|disease|syndrome)\s+patients\b",
    re.I,
)


def read_population(fields: list[Field], criteria: list[dict], title: Optional[dict], tracer: Tracer) -> dict:
    inclusion = [c for c in criteria if c.get("category") == "inclusion"]
    return {
        "planned_enrollment": _enrollment(fields, tracer),
        "age": _age(inclusion, tracer) or _excluded_age(criteria, tracer),
        "sex": _sex(inclusion, title, tracer) or _sex_unrestricted(criteria, tracer),
        "healthy_volunteers": _healthy(fields, inclusion, title, tracer),
    }


def _number(text: str) -> int:
    return int(text.replace(",", ""))


# "Selection of Overweight and Obese Participants", "Selection and Withdrawal of Subjects": where a
# protocol with no sample-size field may say how many it will study ("We plan to study a cohort
# of 112 patients"); read last, and for a sentence's count only (its criteria open with ages)
_SELECTION_LABEL = re.compile(rf"\bselection\s+(?:and\s+\w+\s+)?of\s+(?:[\w-]+\s+){{0,3}}?{_PEOPLE}\b", re.I)


# there, only a sentence planning the study's number: "We plan to study a cohort of 112", "will
# enroll", not "up to 10 subjects may be replaced", "each site will screen 40", "a registry of"
_PLANNED = re.compile(
    r"\bplan(?:s|ned)?\s+to\s+(?:study|enrol|include|recruit|randomi)|\bwill\s+(?:be\s+)?(?:enrol|randomi|recruit|stud)"
    r"|\ba\s+(?:total|cohort)\s+of\b",
    re.I,
)
_NOT_PLANNED = re.compile(
    r"\breplace|\bprevious|\bprior\b|\b(?:per|each)\s+(?:site|centre|center)\b|\bregistry\b", re.I
)


def _enrollment(fields: list[Field], tracer: Tracer) -> Optional[dict]:
    for field in find(fields, ENROLLMENT_LABEL) + find(fields, DESIGN_LABEL) + find(fields, _SELECTION_LABEL):
        labelled = bool(ENROLLMENT_LABEL.search(field.label))
        selection = not labelled and not DESIGN_LABEL.search(field.label)
        for sentence in sentences(field.value):
            if selection and (not _PLANNED.search(sentence) or _NOT_PLANNED.search(sentence)):
                continue
            value = _count(sentence, labelled)
            if value:
                return item(tracer, field, sentence, value=value)
    return None


def _count(sentence: str, labelled: bool) -> Optional[int]:
    """The planned number of a sentence: randomized over enrolled over any count of people;
    in a field labelled as the number, a bare leading number too ("120", "Approximately 450")."""
    if re.search(r"\bevents?\b|\bdeaths\b", sentence, re.I) and not _RANDOMIZED.search(sentence):
        return None
    sentence = _PART_COUNT.sub(" ", sentence)  # "(6 per cohort)", "8 participants each": a part's count
    for pattern in (_TOTAL, _TO_RANDOMIZE, _RANDOMIZED, _TO_ACHIEVE, _ENROLLED, _COUNT):
        m = pattern.search(sentence)
        if m and _number(m.group(1)) >= 4 and not _MILESTONE.search(sentence[: m.start(1)]):
            return _number(m.group(1))
    m = _BARE.match(sentence) if labelled else None
    return _number(m.group(1)) if m and _number(m.group(1)) >= 4 else None


def _age(inclusion: list[dict], tracer: Tracer) -> Optional[dict]:
    for criterion in inclusion:
        text = (criterion.get("text") or "").translate(SYMBOL_FONT)  # "Be \uf0b3 18 years": a Symbol-font "≥"
        for sentence in sentences(text):
            if not _AGE_WORDS.search(sentence) or _NOT_STUDY_AGE.search(sentence):
                continue
            low = high = None
            m = _BETWEEN.search(sentence) or _RANGE.search(sentence)
            if m and int(m.group(1)) < int(m.group(2)):
                low, high = int(m.group(1)), int(m.group(2))
            else:
                least = _AT_LEAST.search(sentence)
                most = _AT_MOST.search(sentence)
                low = int(next(g for g in least.groups() if g)) if least else None
                high = int(most.group(1)) if most else None
            if low is not None or high is not None:
                unit = (
                    "months"
                    if re.search(r"\bmonths?\b", sentence, re.I) and not re.search(r"\byears?\b", sentence, re.I)
                    else "years"
                )
                return _criterion_item(criterion, sentence, tracer, min=low, max=high, unit=unit)
    return None


# an exclusion criterion that keeps out those below or above an age: "Individuals < 18 years old",
# "Age under 18 years", "Patients older than 80 years"; the words before it name who or the age
# ("Diabetes for more than 10 years" is a duration)
_WHO = rf"^(?:(?:age[ds]?|{_PEOPLE}|persons?|individuals?)\s+){{0,2}}"
_AGE_TAIL = r"\s*(?:years?|yrs)\b(?!\s+(?:ago|since))"
_EXCLUDED_YOUNG = re.compile(rf"{_WHO}(?:<|under|younger\s+than|less\s+than|below)\s*(\d{{1,3}}){_AGE_TAIL}", re.I)
_EXCLUDED_OLD = re.compile(rf"{_WHO}(?:>|over|older\s+than|more\s+than|above)\s*(\d{{1,3}}){_AGE_TAIL}", re.I)


def _excluded_age(criteria: list[dict], tracer: Tracer) -> Optional[dict]:
    """No inclusion criterion gives the ages: an exclusion criterion opening with the ages it
    keeps out does ("Individuals < 18 years old": at least 18)."""
    for criterion in (c for c in criteria if c.get("category") == "exclusion"):
        text = " ".join((criterion.get("text") or "").translate(SYMBOL_FONT).split())
        young, old = _EXCLUDED_YOUNG.match(text), _EXCLUDED_OLD.match(text)
        if young or old:
            low = int(young.group(1)) if young else None
            high = int(old.group(1)) if old else None
            return _criterion_item(criterion, text, tracer, min=low, max=high, unit="years")
    return None


def _sex(inclusion: list[dict], title: Optional[dict], tracer: Tracer) -> Optional[dict]:
    for criterion in inclusion:
        text = criterion.get("text") or ""
        for sentence in sentences(text):
            if _BOTH.search(sentence):
                return _criterion_item(criterion, sentence, tracer, value="both")
    # no criterion names both, but one sets a rule for women and another one for men ("For women
    # of childbearing potential: ...", "For men: agreement to ..."): both take part
    female = next(
        (
            (c, s)
            for c in inclusion
            for s in sentences(c.get("text") or "")
            if _FEMALE.search(s) and not _MALE.search(s)
        ),
        None,
    )
    male = next(
        (
            (c, s)
            for c in inclusion
            for s in sentences(c.get("text") or "")
            if _MALE.search(s) and not _FEMALE.search(s)
        ),
        None,
    )
    if female and male:
        return _criterion_item(male[0], male[1], tracer, value="both")
    for criterion in inclusion[:4]:  # the first criteria say who takes part
        for sentence in sentences(criterion.get("text") or ""):
            female, male = _FEMALE.search(sentence), _MALE.search(sentence)
            if female and not male and not re.search(r"child-?bearing|pregnan|contracept|lactat", sentence, re.I):
                return _criterion_item(criterion, sentence, tracer, value="female")
            if male and not female:
                return _criterion_item(criterion, sentence, tracer, value="male")
    text = (title or {}).get("text") or ""
    if re.search(r"\b(?:in|of)\s+(?:adult\s+)?(?:men|male\s+\w+)\b", text) and not re.search(
        r"\bwomen\b|\bfemale", text, re.I
    ):
        return item(tracer, None, text, value="male")
    if re.search(r"\b(?:in|of)\s+(?:adult\s+)?(?:women|female\s+\w+)\b", text) and not re.search(
        r"\bmen\b|\bmale\b", text, re.I
    ):
        return item(tracer, None, text, value="female")
    return _sex_of_condition(inclusion, title, tracer)


# A disease of one sex's organs: "adenocarcinoma of the prostate", "metastatic hormone sensitive
# prostate cancer", "epithelial ovarian cancer", "carcinoma of the cervix"
_MALE_CONDITION = re.compile(
    r"\bprostat(?:e|ic)\s+(?:cancer|carcinoma|adenocarcinoma)|\b(?:adeno)?carcinoma\s+of\s+the\s+prostate\b"
    r"|\btesticular\s+(?:cancer|germ)",
    re.I,
)
_FEMALE_CONDITION = re.compile(
    r"\b(?:ovarian|cervical|endometrial|uterine|fallopian\s+tube)\s+(?:cancer|carcinoma)"
    r"|\bcarcinoma\s+of\s+the\s+(?:ovary|cervix|endometrium|uterus)\b",
    re.I,
)


def _sex_of_condition(inclusion: list[dict], title: Optional[dict], tracer: Tracer) -> Optional[dict]:
    """No criterion names a sex, but the disease studied is one of one sex's organs (prostate
    cancer: men; ovarian cancer: women): the title or a criterion names it."""
    places = [(None, (title or {}).get("text") or "")] + [(c, c.get("text") or "") for c in inclusion]
    for criterion, text in places:
        for sentence in sentences(text):
            male, female = _MALE_CONDITION.search(sentence), _FEMALE_CONDITION.search(sentence)
            if bool(male) != bool(female):
                value = "male" if male else "female"
                if criterion is None:
                    return item(tracer, None, text, value=value)
                return _criterion_item(criterion, sentence, tracer, value=value)
    return None


# a criterion about women who may take part: "women of childbearing potential must use ...",
# "pregnant or breastfeeding women" (excluded, so the others are in)
_WOMEN_TAKE_PART = re.compile(
    r"\bchild-?bearing\s+potential\b|\bpregnan(?:t|cy)\b|\bbreast-?feeding\b|\blactating\b", re.I
)


def _sex_unrestricted(criteria: list[dict], tracer: Tracer) -> Optional[dict]:
    """No inclusion criterion names a sex, and a criterion speaks of the women who take part
    (their pregnancy, childbearing potential or breastfeeding): both sexes may enter. Without
    such a criterion the criteria may not have been read whole, so nothing is said."""
    inclusion = [c for c in criteria if c.get("category") == "inclusion"]
    if not inclusion:
        return None
    # an inclusion criterion naming women ("Women of childbearing potential must use ...") may be
    # the only sign of a women's study: not the unrestricted case
    if any(_FEMALE.search(s) or _MALE.search(s) for c in inclusion for s in sentences(c.get("text") or "")):
        return None
    for criterion in criteria:
        sentence = next((s for s in sentences(criterion.get("text") or "") if _WOMEN_TAKE_PART.search(s)), None)
        if sentence:
            return _criterion_item(criterion, sentence, tracer, value="both")
    return None


def _healthy(fields: list[Field], inclusion: list[dict], title: Optional[dict], tracer: Tracer) -> Optional[dict]:
    text = (title or {}).get("text") or ""
    if _HEALTHY.search(text):
        return item(tracer, None, text, value=True)
    for criterion in inclusion[:5]:
        sentence = next(
            (s for s in sentences(criterion.get("text") or "") if _HEALTHY.search(s) and not _DIAGNOSED.search(s)), None
        )
        if sentence:
            return _criterion_item(criterion, sentence, tracer, value=True)
    if _CONDITION.search(text):
        return item(tracer, None, text, value=False)
    for criterion in inclusion:
        sentence = next((s for s in sentences(criterion.get("text") or "") if _CONDITION.search(s)), None)
        if sentence:
            return _criterion_item(criterion, sentence, tracer, value=False)
    return None


def _criterion_item(criterion: dict, sentence: str, tracer: Tracer, **values) -> dict:
    pages = criterion.get("pages") or []
    where = Field(
        "criterion",
        criterion.get("text") or "",
        criterion.get("section"),
        (pages[0], pages[-1]) if pages else (None, None),
        False,
        "criterion",
    )
    return item(tracer, where, sentence, **values)
