"""A design item as ``document.json`` holds it: its values and where it was printed."""

from __future__ import annotations

import re
from typing import Optional

from ..trace import Tracer
from .fields import Field

PRINTED_WORDS = 60  # the printed words kept with an item: one field or sentence


def item(tracer: Tracer, where: Optional[Field], printed: str, **values) -> dict:
    """``values`` with the trace of ``printed`` (searched inside the field's pages when known)."""
    printed = " ".join(printed.split())
    first, last = where.pages if where else (None, None)
    found = tracer.trace(printed, first, last) if printed else {"pages": [], "boxes": []}
    if not found["pages"] and first is not None:
        found = tracer.trace(printed)
    words = printed.split()
    shown = " ".join(words[:PRINTED_WORDS]) + (" …" if len(words) > PRINTED_WORDS else "")
    return {
        **values,
        "pages": found["pages"],
        "boxes": found["boxes"],
        "section": where.section if where else None,
        "printed": shown,
    }


def sentences(text: str) -> list[str]:
    """The sentences of a field's text (a line break ends one too)."""
    out = []
    for line in text.split("\n"):
        out += [s.strip() for s in re.split(r"(?<=[.;])\s+(?=[A-Z(])", line) if s.strip()]
    return out


def sentence_with(text: str, pattern: re.Pattern) -> Optional[str]:
    return next((s for s in sentences(text) if pattern.search(s)), None)
