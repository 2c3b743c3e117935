"""Eligibility criteria: one item per printed inclusion/exclusion criterion of the protocol body.

The reader works on a parsed document (the dicts of ``document.json``): here, which sections hold
criteria and which of them are read; ``criteria`` cuts the criteria out of a section's text,
``categories`` tells what a title says about them. Everything here is about kinds of layout,
never about one sponsor's wording:

* Where: sections titled like eligibility criteria ("Inclusion Criteria", "Subject Exclusion
  Criteria", "Eligibility Criteria", "Randomisation criteria", ...) in the protocol body (the
  table-of-contents tree), never inside the synopsis, an amendment's summary of changes or the
  front matter. Only when the body has none are the synopsis's criteria taken (and diagnosed).
* Which category: the section's title, else what the text says (see ``criteria``).
* Which step of the study: the innermost heading that names one ("Randomisation Criteria",
  "Criteria for Entry into the Extension"); none for the main entry.
* Numbered sub-sections of an eligibility section that are not lists themselves group criteria
  ("Medical Conditions") or are one criterion each.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..document_types import Document
from ..shared.markup import strip_markup
from .categories import category_of, step_of
from .criteria import Criterion, criterion_of_section, cut_criteria, has_items, section_pages
from .trace import Tracer

# --- what a section's title says ------------------------------------------------------------

_ELIGIBILITY_TITLE = re.compile(
    r"\b(?:inclusion|exclusion|eligibility|entry|enrol?l?ment|selection|admission)\b.{0,40}\bcriteri"
    r"|\bcriteri\w*\s+(?:for|of)\s+(?:inclusion|exclusion|eligibility|entry|enrol?l?ment|study\s+entry|selection)"
    r"|^\W*(?:key\s+)?(?:inclusion|exclusion|eligibility)\b(?:\s*(?:/|and|&)\s*(?:inclusion|exclusion))?\W*$",
    re.IGNORECASE,
)
# Criteria for a later step of the study, printed as their own list ("Randomisation criteria").
_STEP_TITLE = re.compile(
    r"\b(?:randomi[sz]ation|run[- ]?in|lead[- ]?in|extension|re-?screening|re-?treatment|crossover|cross-over)\b"
    r".{0,30}\bcriteri|\bcriteri\w*\s+(?:for|to)\s+(?:randomi[sz]ation|run[- ]?in|entering|entry\s+into|continu)",
    re.IGNORECASE,
)
# Titles that name criteria but are not a list of eligibility criteria.
_NOT_ELIGIBILITY = re.compile(
    r"violation|deviation|waiver|withdraw|discontinu|stopping|terminat|rationale|justification"
    r"|screen(?:ing)?\s+fail|evaluation\s+criteria|diagnostic\s+criteria|response\s+criteria|procedure|assessment",
    re.IGNORECASE,
)
SYNOPSIS_TITLE = _SYNOPSIS_TITLE = re.compile(
    r"\bsynopsis\b|\b(?:protocol|study|trial|clinical)\s+summary\b|^\W*summary\W*$", re.IGNORECASE
)
# Parts of a protocol that restate old or changed text: never a source of criteria.
CHANGES_TITLE = _CHANGES_TITLE = re.compile(
    r"\bamendment\b|summary\s+of\s+changes|changes\s+to\s+(?:the\s+)?protocol|protocol\s+history"
    r"|document\s+history|revision\s+history|country[- ]specific",
    re.IGNORECASE,
)


# --- public ---------------------------------------------------------------------------------


def read_eligibility(document: Document, tracer: Tracer) -> tuple[list[dict], list[dict]]:
    """The document's eligibility criteria, in document order, and diagnostics about them.

    Each criterion: ``{"category", "identifier", "text", "section", "pages", "boxes",
    "applies_to"}``; each diagnostic ``{"kind", "detail"}``."""
    diagnostics: list[dict] = []
    places = _places(document)
    body = [p for p in places if p.where == "body"]
    criteria, empty = _read_places(body, tracer)
    if not any(c.applies_to is None for c in criteria):
        # No body section of the main entry criteria: other sections outside the synopsis (a
        # document whose outline was not found), then the synopsis's copy.
        loose = [p for p in places if p.where == "loose"]
        more, more_empty = _read_places(loose, tracer)
        if any(c.applies_to is None for c in more):
            criteria, empty = criteria + more, empty + more_empty
        else:
            synopsis = [p for p in places if p.where == "synopsis"]
            from_synopsis, _ = _read_places(synopsis, tracer)
            if from_synopsis:
                criteria = criteria + from_synopsis
                diagnostics.append(
                    {
                        "kind": "synopsis_only",
                        "detail": "no eligibility criteria in the protocol body; "
                        f"{len(from_synopsis)} taken from the synopsis"
                        f" (section {_name(from_synopsis[0].section)})",
                    }
                )
    for section in empty:
        diagnostics.append(
            {
                "kind": "no_criteria",
                "detail": f"section {_name(section)} looks like eligibility criteria but yielded none",
            }
        )
    diagnostics.extend(_numbering_diagnostics(criteria))
    if not criteria:
        diagnostics.append({"kind": "no_eligibility", "detail": "no eligibility criteria found"})
    return [_item(c, tracer) for c in criteria], diagnostics


# --- where criteria are ---------------------------------------------------------------------


@dataclass
class Place:
    section: dict
    ancestors: list[dict]
    where: str  # "body" | "loose" (outside the outline, after the body starts) | "synopsis"


def _places(document: Document) -> list[Place]:
    """Every section titled like eligibility criteria, with where it sits. The outline tree is
    the body; nodes outside it are front matter, appendices or an unfound outline ("loose"),
    except those in or just after a synopsis."""
    places: list[Place] = []
    for section, ancestors in _walk(document.get("toc") or [], []):
        if _is_eligibility(section, ancestors):
            where = (
                "synopsis"
                if any(_SYNOPSIS_TITLE.search(a.get("title") or "") for a in ancestors + [section])
                else "body"
            )
            if not _in_changes(section, ancestors):
                places.append(Place(section, ancestors, where))
    # Nodes outside the outline printed before the body starts are front matter (amendment
    # histories quoting old criteria, a synopsis): never read as the body.
    starts = [
        section_pages(s)[0]
        for s in document.get("toc") or []
        if section_pages(s)[0] is not None and not _SYNOPSIS_TITLE.search(s.get("title") or "")
    ]
    body_start = min(starts) if starts else None
    synopsis_pages: list[tuple[int, int]] = []
    for section, ancestors in _walk(document.get("non_toc") or [], []):
        title = section.get("title") or ""
        first, last = section_pages(section)
        if _SYNOPSIS_TITLE.search(title) and not ancestors:
            synopsis_pages.append((first, last))
        if not _is_eligibility(section, ancestors) or _in_changes(section, ancestors):
            continue
        in_synopsis = any(_SYNOPSIS_TITLE.search(a.get("title") or "") for a in ancestors + [section]) or any(
            lo <= first <= hi for lo, hi in synopsis_pages
        )
        if in_synopsis:
            places.append(Place(section, ancestors, "synopsis"))
        elif body_start is None or first is None or first >= body_start:
            places.append(Place(section, ancestors, "loose"))
    return _outermost(places)


def _walk(sections: list[dict], ancestors: list[dict]):
    for section in sections:
        yield section, ancestors
        yield from _walk(section.get("subsections") or [], ancestors + [section])


def _is_eligibility(section: dict, ancestors: list[dict]) -> bool:
    title = strip_markup(section.get("title") or "")
    if _NOT_ELIGIBILITY.search(title):
        return False
    return bool(_ELIGIBILITY_TITLE.search(title) or _STEP_TITLE.search(title))


def _in_changes(section: dict, ancestors: list[dict]) -> bool:
    return any(_CHANGES_TITLE.search(a.get("title") or "") for a in ancestors + [section])


def _outermost(places: list[Place]) -> list[Place]:
    """Drop places nested inside another place: the outer one reads its whole subtree."""
    ids = {id(p.section) for p in places}
    return [p for p in places if not any(id(a) in ids for a in p.ancestors)]


def _read_places(places: list[Place], tracer: Tracer) -> tuple[list[Criterion], list[dict]]:
    criteria: list[Criterion] = []
    empty: list[dict] = []
    for place in places:
        titles = [a.get("title") or "" for a in place.ancestors]
        found = _read_tree(
            place.section,
            category_of(place.section.get("title") or ""),
            step_of(titles + [place.section.get("title") or ""]),
            tracer,
        )
        if found:
            criteria.extend(found)
        else:
            empty.append(place.section)
    return criteria, empty


# --- one section and its subsections ---------------------------------------------------------


def _read_tree(section: dict, category: str | None, step: str | None, tracer: Tracer) -> list[Criterion]:
    subsections = section.get("subsections") or []
    intro_only = category_of(section.get("title") or "") is None and _has_eligibility_children(section)
    criteria = [] if intro_only else cut_criteria(section, category, step, tracer)
    # Sub-sections that are not eligibility lists themselves group criteria ("Medical
    # Conditions") or are one criterion each -- but only when the section's own text has no list
    # (otherwise they are about the list: "Rationale for Exclusion of ...").
    own_list = bool(criteria)
    if criteria:
        category = criteria[-1].category or category
    plain_subs = {
        id(s) for s in subsections if not _is_eligibility(s, []) and not _NOT_ELIGIBILITY.search(s.get("title") or "")
    }
    for sub in subsections:
        title = sub.get("title") or ""
        sub_category = category_of(title) or category
        sub_step = step_of([title]) or step
        if _is_eligibility(sub, []):
            criteria.extend(_read_tree(sub, sub_category, sub_step, tracer))
        elif own_list or id(sub) not in plain_subs or not sub_category:
            continue
        elif has_items(sub):
            criteria.extend(_read_tree(sub, sub_category, sub_step, tracer))
        elif len(plain_subs) >= 2 and _is_criterion_section(sub):
            criteria.append(criterion_of_section(sub, sub_category, sub_step))
    return criteria


def _has_eligibility_children(section: dict) -> bool:
    """A section whose subsections are the inclusion/exclusion lists: its own text is an intro
    (or definitions), never criteria."""
    return any(category_of(s.get("title") or "") for s in section.get("subsections") or [])


def _is_criterion_section(section: dict) -> bool:
    """A numbered sub-section printed as one criterion: its title is the criterion (or its
    lead-in) and it holds no list of its own."""
    return bool(section.get("number")) and bool(strip_markup(section.get("title") or ""))


# --- output ---------------------------------------------------------------------------------


def _name(section: dict) -> str:
    number = section.get("number") or ""
    title = strip_markup(section.get("title") or "")
    return f"{number} {title}".strip()


def _item(criterion: Criterion, tracer: Tracer) -> dict:
    first, last = section_pages(criterion.section)
    text = criterion.text
    found = tracer.trace("\n".join(criterion.source) or text, first, last)
    return {
        "category": criterion.category,
        "identifier": criterion.identifier,
        "text": text,
        "section": criterion.section.get("number") or strip_markup(criterion.section.get("title") or ""),
        "pages": found["pages"],
        "boxes": found["boxes"],
        "applies_to": criterion.applies_to,
    }


def _numbering_diagnostics(criteria: list[Criterion]) -> list[dict]:
    """Gaps and repeats in each run of numbered criteria (a run: one category and step of one
    section, in one numbering style)."""
    out: list[dict] = []
    previous: Criterion | None = None
    for criterion in criteria:
        same_run = (
            previous is not None
            and previous.section is criterion.section
            and previous.style == criterion.style
            and previous.applies_to == criterion.applies_to
        )
        if same_run and criterion.value is not None and previous.value is not None:
            if criterion.value == previous.value:
                out.append(
                    {
                        "kind": "numbering_repeat",
                        "detail": f"{criterion.category} criterion {criterion.identifier} printed twice "
                        f"in section {_name(criterion.section)}",
                    }
                )
            elif criterion.value > previous.value + 1:
                out.append(
                    {
                        "kind": "numbering_gap",
                        "detail": f"{criterion.category} criteria jump from {previous.identifier} "
                        f"to {criterion.identifier} in section {_name(criterion.section)}",
                    }
                )
        previous = criterion
    return out
