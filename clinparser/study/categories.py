"""What a title, heading or line says about the eligibility criteria under it: their category
(inclusion or exclusion) and the step of the study they apply to (None for the main entry;
"randomization", "run-in", "extension", ...).
"""

from __future__ import annotations

import re

from ..shared.markup import strip_markup

INCLUSION, EXCLUSION = "inclusion", "exclusion"

_MENTIONS_INCLUSION = re.compile(r"\binclu(?:sion|ded|de)\b|\beligib", re.IGNORECASE)
_MENTIONS_EXCLUSION = re.compile(r"\bexclu(?:sion|ded|de)\b|\bnot\s+(?:be\s+)?eligible\b|\bineligib", re.IGNORECASE)

# Steps of a study other than the main entry, as a heading names them; checked in this order
# ("Open-Label Extension" is an extension).
_STEPS = (
    ("run-in", re.compile(r"\brun[- ]?in\b|\blead[- ]?in\b", re.IGNORECASE)),
    ("randomization", re.compile(r"\brandomi[sz]", re.IGNORECASE)),
    ("extension", re.compile(r"\bextension\b", re.IGNORECASE)),
    ("re-screening", re.compile(r"\bre-?screen", re.IGNORECASE)),
    ("re-treatment", re.compile(r"\bre-?treatment\b", re.IGNORECASE)),
    ("crossover", re.compile(r"\bcross-?over\b", re.IGNORECASE)),
    ("open-label", re.compile(r"\bopen[- ]label\b", re.IGNORECASE)),
    ("sub-study", re.compile(r"\bsub-?stud", re.IGNORECASE)),
)


def category_of(title: str) -> str | None:
    """The category a section's title names ("Exclusion Criteria"), None for both or neither."""
    return category_from_heading(strip_markup(title))


def category_from_heading(text: str) -> str | None:
    inc, exc = bool(re.search(r"\binclu", text, re.IGNORECASE)), bool(re.search(r"\bexclu", text, re.IGNORECASE))
    if inc != exc:
        return INCLUSION if inc else EXCLUSION
    return None


def category_from_line(text: str) -> str | None:
    """The category an intro sentence names ("... will be excluded if ...")."""
    inc, exc = bool(_MENTIONS_INCLUSION.search(text)), bool(_MENTIONS_EXCLUSION.search(text))
    if exc:
        return EXCLUSION  # "not be eligible", "excluded from inclusion" read as exclusion
    return INCLUSION if inc else None


def step_of(titles: list[str]) -> str | None:
    """The study step a chain of headings names, the innermost first; None for the main entry."""
    for title in reversed(titles):
        title = strip_markup(title)
        for step, pattern in _STEPS:
            if pattern.search(title):
                return step
    return None
