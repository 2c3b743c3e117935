"""The indication: the disease or condition studied, as printed.

From a synopsis field that names it ("Indication", "Clinical Indication", "Condition/Disease",
"Diagnosis"), else from the title's "in participants with ..." ("following", "suffering
from" an event alike; up to what follows the condition: "who", "on", "receiving", a bracket,
the end), else its "in ..." after the treatment ("... Study of DRUG in Moderate to Severe Plaque
Psoriasis"). "Breast cancer patients" is breast cancer (who has it left out, "senior adult"
too); healthy participants name no disease, so a healthy-volunteer title gives none.
"""

from __future__ import annotations

import re
from typing import Optional

from ..trace import Tracer
from .fields import Field, find
from .items import item

# not "Treatment Condition(s)": a statistics table's name for the arms
LABEL = re.compile(
    r"^(?:clinical\s+|target\s+|therapeutic\s+)?indications?$|(?<!treatment\s)\bcondition(?:\s*/\s*disease)?\b|^diagnosis\b|^disease(?:\s+under\s+study)?$"
    r"|\bindication\s+studied\b|^(?:disease|condition)\s*/\s*(?:condition|disease)",
    re.I,
)
_WITH = re.compile(
    r"\b(?:patients|participants|subjects|adults|adolescents|children|men|women|individuals|people|volunteers)\s+"
    r"(?:\w+\s+){0,3}?(?:with|following|suffering\s+from|who\s+have\s+(?:had|experienced))\s+(?:an?\s+)?(?P<what>.+)",
    re.I,
)
# "in Healthy Participants": a study of healthy people names no disease in its title
_HEALTHY = re.compile(r"^healthy\b", re.I)
# "senior adult breast cancer patients": the disease less who has it
_WHO_BEFORE = re.compile(
    r"^(?:(?:senior|elderly|older|adult|adults|young|pediatric|paediatric|adolescent|male|female)\s+)+", re.I
)
_WHO_AFTER = re.compile(r"\s+(?:patients|participants|subjects|population)$", re.I)
_IN = re.compile(r"\b(?:in|for(?:\s+the\s+treatment\s+of)?)\s+(?P<what>(?:[A-Z(][\w'’-]*\s*){1,10}.*)$")
_END = re.compile(
    r"\s+(?:who|that|on|receiving|undergoing|after|following|utili[sz]ing|using|via|and\s+(?:an?\s+)?inadequate)\b|\s*[(\[:;]|\s+-\s+",
    re.I,
)
# "... on airway structure and function in asthma with type 2 inflammation ...": the condition in
# lower case after "in", when no capitalised one is printed (not "in a sub-study", "in adults")
_IN_LOWER = re.compile(
    r"\bin\s+(?!(?:an?|the|this|these|each|all|adults?|adolescents?|children|patients|participants|subjects|people|"
    r"healthy|men|women|order|combination|addition|which|whom)\b)(?P<what>[a-z][\w'’-]+(?:\s+[\w'’-]+){0,14})",
    re.I,
)


def read_indication(fields: list[Field], title: Optional[dict], tracer: Tracer) -> Optional[dict]:
    for field in find(fields, LABEL, ("table", "paragraph")):
        value = field.value.split("\n")[0].strip().rstrip(".")
        if 2 < len(value) < 200:
            return item(tracer, field, field.value.split("\n")[0], value=value)
    text = " ".join(((title or {}).get("text") or "").split())
    m = _WITH.search(text)
    what = m["what"] if m else None
    if not what:
        last = None
        for last in _IN.finditer(text):
            pass
        what = last["what"] if last else None
    if not what:
        found = [m["what"] for m in _IN_LOWER.finditer(text) if m["what"][:1].islower()]
        what = found[-1] if found else None
    if what:
        what = _END.split(what, maxsplit=1)[0].strip(" ,.")
        what = _WHO_AFTER.sub("", _WHO_BEFORE.sub("", what)) if _WHO_AFTER.search(what) else what
        if len(what) > 2 and not _HEALTHY.match(what):
            return item(tracer, None, text, value=what)
    return None
