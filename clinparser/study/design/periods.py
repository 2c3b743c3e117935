"""The study's periods (epochs) in time order.

The main schedule of activities names them over its visits when it prints an epoch row
(``schedule["epochs"]``): those are the periods, in order. Without one, the design fields'
sentences name them: "a screening period of up to 28 days, a 12-week treatment period and a
4-week follow-up period", "Screening period – up to 4 weeks" as lines: each "<name> period"
(or phase), in the order printed, once.
"""

from __future__ import annotations

import re

from ..trace import Tracer
from .fields import Field, find
from .items import item, sentences

DESIGN_LABEL = re.compile(r"\bdesign\b|\bmethodology\b|\bduration\b|\bstudy\s+periods?\b|\bschema\b|\boverview\b", re.I)
_NAME = r"(?:screening|run[- ]in|wash[- ]?out|lead[- ]in|baseline|treatment|double[- ]blind(?:\s+treatment)?|open[- ]label(?:\s+(?:treatment|extension))?|maintenance|induction|titration|extension|follow[- ]?up|safety\s+follow[- ]?up|post[- ]treatment(?:\s+follow[- ]?up)?|observation|dose[- ]escalation|dose[- ]expansion|core|main)"
_PERIOD = re.compile(rf"\b(?P<name>{_NAME})\s+(?:\w+\s+){{0,2}}?(?:period|phase|epoch)s?\b"
                     rf"|\b(?:period|phase)\s+of\s+(?P<after>{_NAME})\b"
                     rf"|\b(?P<lead>{_NAME})(?:\s+period)?\s*[:\u2013\u2014-]\s*(?:up\s+to\s+)?\d", re.I)


def read_epochs(fields: list[Field], schedules: list[dict], tracer: Tracer) -> list[dict]:
    for field in find(fields, DESIGN_LABEL):
        found: list[tuple[str, str]] = []
        for sentence in sentences(field.value):
            for m in _PERIOD.finditer(sentence):
                name = _name(m["name"] or m["after"] or m["lead"])
                if name.lower() not in {n.lower() for n, _ in found}:
                    found.append((name, sentence))
        if len(found) >= 2:
            return [item(tracer, field, sentence, name=name) for name, sentence in found]
    # no sentence names the periods: the main schedule's epoch row, less the visits it names
    main = next((s for s in schedules if s.get("main")), schedules[0] if schedules else None)
    names = [" ".join(e["label"].split()) for e in (main or {}).get("epochs") or [] if e.get("label")]
    names = [n for n in dict.fromkeys(names) if _EPOCH_WORD.search(n) and not _VISIT_WORD.search(n)]
    return [item(tracer, None, n, name=n) for n in names] if len(names) >= 2 else []


_EPOCH_WORD = re.compile(rf"\b(?:period|phase|epoch|stage|part)\b|^{_NAME}$", re.I)
_VISIT_WORD = re.compile(r"\b(?:end\s+of|early\s+(?:termination|withdrawal)|unscheduled|randomi[sz]ation|visit|day|week)\b", re.I)


def _name(text: str) -> str:
    text = " ".join(text.replace("-", " - ").split()).replace(" - ", "-")
    return text[:1].upper() + text[1:].lower()
