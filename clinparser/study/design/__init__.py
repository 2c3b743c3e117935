"""The study design: arms, epochs, interventions, population, allocation, model, masking,
ratio, indication and amendments, each item traced to where it was printed.

``read_design(document, tracer, criteria=..., title=...)`` returns the ``study["design"]`` block
of ``document.json`` and its diagnostics. The readers ask the document's labelled fields
(``fields``: synopsis tables, bold labels, section titles) for what their labels say, whatever
the template; what no place prints is null, never guessed.
"""

from __future__ import annotations

import re
from typing import Optional

from ...document_types import Design, Document
from ...shared.markup import strip_markup
from ..abbreviations import read_abbreviations
from ..criteria import section_pages
from ..trace import Tracer
from .amendments import read_amendments
from .arms import arms_in_title, background_in_arms, read_arms, single_arm, with_aliases
from .fields import Field, chapter_fields, labelled_fields, plain_text, sections
from .indication import read_indication
from .interventions import read_interventions
from .kind import read_kind
from .periods import read_epochs
from .population import read_population

_SCHEMA_TITLE = re.compile(r"\bschema\b|\bschematic\b", re.I)


def read_design(
    document: Document,
    tracer: Tracer,
    criteria: Optional[list[dict]] = None,
    title: Optional[dict] = None,
    abbreviations: Optional[list[dict]] = None,
) -> tuple[Design, list[dict]]:
    """``criteria``: the eligibility items already read (ages and sex come from them);
    ``title``: the official title item (``{"text", "page"}``); ``abbreviations``: the list of
    abbreviations already read (read here when not given)."""
    if abbreviations is None:
        abbreviations = read_abbreviations(document)
    short_forms = {
        a["abbreviation"]: a["expansion"] for a in abbreviations if a.get("abbreviation") and a.get("expansion")
    }
    fields = labelled_fields(document)
    tables = [
        (
            t,
            Field(
                strip_markup(s.get("title") or ""),
                "",
                s.get("number") or s.get("title"),
                section_pages(s),
                not toc,
                "table",
            ),
        )
        for s, _, toc in sections(document)
        for t in s.get("tables") or []
    ]
    schedules = [t["schedule"] for t, _ in tables if t.get("schedule")]
    interventions = read_interventions(
        fields, tables, tracer, title=title, abbreviations=short_forms, chapters=chapter_fields(document)
    )
    products = with_aliases(interventions, short_forms, fields)
    schemas = [
        Field(
            strip_markup(s["title"]),
            plain_text(s.get("text") or ""),
            s.get("number") or s.get("title"),
            section_pages(s),
            not toc,
            "section",
        )
        for s, _, toc in sections(document)
        if _SCHEMA_TITLE.search(s.get("title") or "")
    ]
    arms = read_arms(fields, products, tracer, tables, schemas) or arms_in_title(title, products, tracer)
    background = background_in_arms(arms, products, short_forms)
    if background:
        interventions.append(background)
    kind, notes = read_kind(fields, title, arms, tracer)
    if not arms and kind["model"] and kind["model"]["value"] == "single group":
        arms = single_arm(interventions, tracer)
        if arms:
            notes.append(
                {
                    "kind": "design_arm_named_for_treatment",
                    "detail": "a single-group study names no arm: "
                    f"its one arm is named for its treatment ({arms[0]['name']!r})",
                }
            )
    design = {
        "arms": arms,
        "epochs": read_epochs(fields, schedules, tracer, document),
        "interventions": interventions,
        "population": read_population(fields, criteria or [], title, tracer),
        **kind,
        "indication": read_indication(fields, title, tracer),
        "amendments": read_amendments(document, tracer),
    }
    for key in ("arms", "epochs", "interventions"):
        if not design[key]:
            notes.append({"kind": f"design_no_{key}", "detail": f"no {key} found where protocols print them"})
    return design, notes


__all__ = ["read_design"]
