"""The study's phase as its protocol prints it ("Phase 3", "Study Phase: IIIa", "Phase I/II").

Where: a labelled phase on the title page, the front matter or the synopsis; else the official
title; else any "Phase N" on the title page, then in the synopsis.
"""

from __future__ import annotations

import re
from typing import Optional

from .front_matter import FrontMatter, Line

_ROMAN = {"i": 1, "ii": 2, "iii": 3, "iv": 4}
_PHASE_NUM = r"(?:iv|i{1,3}|[1-4])"
_PHASE = re.compile(
    r"\bphase(?:\s*[:\-]\s*|\s+)(?:phase\s+)?(" + _PHASE_NUM + r")([abc])?"
    r"(?:\s*(?:/|-|–|and|to|or)\s*(" + _PHASE_NUM + r")([abc])?)?(?![A-Za-z0-9])",
    re.I,
)
_PHASE_LABEL = re.compile(
    r"^(?:study|trial|clinical|development|protocol)?\s*phase(?:\s+of\s+(?:the\s+)?(?:study|trial|development))?"
    r"\s*:\s*(?:phase\s+)?(" + _PHASE_NUM + r")([abc])?(?:\s*(?:/|-|–|and|to|or)\s*(" + _PHASE_NUM + r")([abc])?)?"
    r"(?![A-Za-z0-9])",
    re.I,
)


def read_phase(front: FrontMatter, official: Optional[dict]) -> dict:
    """``{"value", "printed"}``: the value "1".."4", "1/2" or "2/3" (None when the printed phase
    is none of these), the phase as printed."""
    groups: list[list[Line]] = [front.title_lines + front.front_lines, front.synopsis_lines]
    # 1. a labelled phase ("Study Phase: 2", "Trial phase: 3a"), the label's value maybe on the next line
    for lines in groups:
        for i, line in enumerate(lines):
            text = line.text
            if re.fullmatch(r"(?:study|trial|clinical|development)?\s*phase\s*:?", text, re.I) and i + 1 < len(lines):
                text = text.rstrip(":") + ": " + lines[i + 1].text
            m = _PHASE_LABEL.match(text)
            if m:
                printed = re.sub(r"^.*?:\s*", "", text[: m.end()])
                if not re.match(r"phase", printed, re.I):
                    printed = "Phase " + printed
                return _phase_value(m, printed)
    # 2. the official title, 3. any "Phase N" on the title page, then the synopsis
    if official:
        m = _PHASE.search(official["text"])
        if m:
            return _phase_value(m, m.group(0))
    for lines in groups:
        for line in lines:
            m = _PHASE.search(line.text)
            if m:
                return _phase_value(m, m.group(0))
    return {"value": None, "printed": None}


def _roman_or_int(s: str) -> int:
    s = s.lower()
    return _ROMAN[s] if s in _ROMAN else int(s)


def _phase_value(m: re.Match, printed: str) -> dict:
    a = _roman_or_int(m.group(1))
    b = _roman_or_int(m.group(3)) if m.group(3) else None
    printed = " ".join(printed.split()).strip(" :")
    if b is None or b == a:
        value = str(a)
    elif (a, b) in ((1, 2), (2, 3)):
        value = f"{a}/{b}"
    else:
        value = None
    return {"value": value, "printed": printed}
