"""What every USDM object ClinParser writes is made with: ids in document order, CDISC codes,
notes. The narrative, schedule and study exports share them, so their objects agree."""

from __future__ import annotations

from collections import defaultdict
from typing import Optional

CDISC = "http://www.cdisc.org"
CT_VERSION = "2025-09-26"  # the terminology version the published USDM files code these terms with
# The code system of a term as printed where CDISC's codelist has none (an extensible codelist's
# extension): its code and decode are the printed words.
PRINTED = "ClinParser"
PRINTED_VERSION = "1"
# Ids carry their number zero-padded, so that sorting ids as text gives document order
# ("Encounter_0009" before "Encounter_0010"), as the artifact files' names do. Past 9999 objects
# of one class the ids are still unique, only longer (text order then breaks).
ID_DIGITS = 4


def usdm_id(cls: str, n: int) -> str:
    """The id of the ``n``-th object of class ``cls``: ``usdm_id("Code", 1)`` -> ``"Code_0001"``."""
    return f"{cls}_{n:0{ID_DIGITS}d}"


class Ids:
    """``ids("Code")`` -> ``"Code_0001"``, ``"Code_0002"``, ...: one counter per class, from ``start``."""

    def __init__(self, start: Optional[dict[str, int]] = None):
        self.next = defaultdict(lambda: 1, start or {})

    def __call__(self, prefix: str) -> str:
        n = self.next[prefix]
        self.next[prefix] = n + 1
        return usdm_id(prefix, n)


def code(ids: Ids, term: tuple[str, str]) -> dict:
    return {
        "id": ids("Code"),
        "code": term[0],
        "codeSystem": CDISC,
        "codeSystemVersion": CT_VERSION,
        "decode": term[1],
        "instanceType": "Code",
    }


def note(ids: Ids, text: str) -> dict:
    return {"id": ids("CommentAnnotation"), "text": text, "codes": [], "instanceType": "CommentAnnotation"}


def printed_code(ids: Ids, text: str) -> dict:
    """A term the protocol prints that CDISC's (extensible) codelist has no code for: the printed
    words as code and decode, in ClinParser's own code system, never passed off as CDISC's."""
    return {
        "id": ids("Code"),
        "code": text,
        "codeSystem": PRINTED,
        "codeSystemVersion": PRINTED_VERSION,
        "decode": text,
        "instanceType": "Code",
    }
