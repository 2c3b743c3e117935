"""What kind of timeline a schedule is: the main one, PK/PD sampling, an extension, follow-up.

Read from the schedule's caption (or its section's title) first: "Pharmacokinetic Sampling",
"PK/PD Schedule", "Biomarker Sampling" are sampling timelines; "Open-Label Extension", "Long-Term
Extension", "Retreatment", "Second Course" extensions; "Follow-up", "Post-Treatment",
"Survival" follow-up. Then from its contents: a schedule whose every column is a time point
(hours after a dose) is a sampling timeline. The main timeline is chosen among the others
(``find``); a schedule of none of these kinds that is not the main one is "other".
"""

from __future__ import annotations

import re
from typing import Optional

KINDS = ("main", "pk_pd", "extension", "follow_up", "other")

_SAMPLING = re.compile(
    r"\bpharmacokinetics?\b|\bpharmacodynamics?\b|\bPK\b|\bPD\b|\bPK/PD\b|\bsampling\b|\bbiomarkers?\b"
    r"|\bimmunogenicity\b|\b(?:blood|serum|plasma)\s+samples?\b",
    re.I,
)
_EXTENSION = re.compile(
    r"\bextension\b|\bOLE\b|\bre-?treatment\b|\bsecond\s+course\b|\bcontinuation\b|\brollover\b", re.I
)
_FOLLOW_UP = re.compile(
    r"\bfollow[\s-]?up\b|\bpost[\s-]?treatment\b|\bsurvival\b|\bafter\s+(?:the\s+)?(?:end|discontinuation)\b", re.I
)


_WHOLE_STUDY = re.compile(r"\b(?:screening|treatment\s+period|main\s+study)\b.*\bfollow[\s-]?up\b", re.I)


def caption_kind(caption: str) -> Optional[str]:
    """The kind a caption names, else None (a schedule of the study as a whole)."""
    caption = caption or ""
    if _WHOLE_STUDY.search(caption):
        return None  # "Screening, Treatment and Follow-up": the study as a whole
    for kind, pattern in (("pk_pd", _SAMPLING), ("extension", _EXTENSION), ("follow_up", _FOLLOW_UP)):
        if pattern.search(caption):
            return kind
    return None


def timeline_kind(caption: str, encounters: list[dict]) -> Optional[str]:
    """The kind from the caption, else "pk_pd" when every column is a time point."""
    named = caption_kind(caption)
    if named:
        return named
    if encounters and all(
        e.get("timepoints") or (e.get("timing") or {}).get("unit") in ("hour", "minute") for e in encounters
    ):
        return "pk_pd"
    return None
