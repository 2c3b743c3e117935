"""Objectives and endpoints: who the study means to show what, and how it will measure it.

Protocols print these in three layouts, often mixed:

* an objectives-and-endpoints table (an objective column, an endpoint column; the level as a
  spanning row, a first column, or the first line of the objective cell);
* headed lists: "Primary Objective(s)" / "Secondary ..." headings, subsection titles or bold
  lead-in lines, each followed by objective paragraphs or bullets (sometimes with the objective's
  endpoints bulleted under it);
* endpoints printed in a section of their own ("Endpoints", "Efficacy Outcomes", a statistics
  chapter's "Primary Endpoint"), joined to the objectives by level and order.

The body's objectives section is read; the synopsis copy only when the body has none. Every rule
is about a kind of layout, never about one sponsor's wording.

``read_objectives`` here runs the readers: ``sections`` finds where objectives and endpoints are
printed; ``reader`` reads a section's headings and labels, its text through ``lists`` and
``statements`` and its tables through ``tables`` and ``cells``; ``joining`` puts objectives and
endpoints together. ``vocabulary`` and ``items`` hold what they all use.
"""

from __future__ import annotations

from ...document_types import Document
from ..trace import Tracer
from .items import Context, Item
from .joining import endpoints_from_synopsis, join, once, sections_of, settle_endpoint_levels, settle_levels
from .lists import Unit, units_of
from .reader import Reader
from .sections import endpoint_sections, objectives_root, page_range, synopsis_sections
from .vocabulary import (
    ENDPOINT,
    EXPLORATORY,
    MEASURES_SECTION,
    OBJECTIVE,
    PRIMARY,
    SECONDARY,
    join_lines,
    label_of,
    level_of,
    plain,
)

# What clinparser.study.objectives offered as one module, still importable from here.
__all__ = [
    "ENDPOINT",
    "EXPLORATORY",
    "OBJECTIVE",
    "PRIMARY",
    "SECONDARY",
    "Context",
    "Item",
    "Reader",
    "Unit",
    "join_lines",
    "label_of",
    "level_of",
    "plain",
    "read_objectives",
    "units_of",
]


def read_objectives(document: Document, tracer: Tracer) -> tuple[list[dict], list[dict]]:
    """(objectives, diagnostics) of one parsed document (``document.json`` as plain dicts).

    Each objective: ``{"level", "label", "text", "section", "pages", "boxes", "endpoints"}``, each
    endpoint ``{"level", "label", "text", "section", "pages", "boxes"}``; level is primary,
    secondary or exploratory (tertiary and "other" count as exploratory)."""
    reader = Reader(tracer)
    diagnostics: list[dict] = []
    root = objectives_root(document)
    items: list[Item] = []
    if root is not None:
        items = reader.read_tree(root, Context(OBJECTIVE))
    if not any(i.kind == OBJECTIVE for i in items):
        synopsis_items: list[Item] = []
        for section in synopsis_sections(document):
            synopsis_items.extend(reader.read_units(units_of(section), Context(None), section))
        if any(i.kind == OBJECTIVE for i in synopsis_items):
            diagnostics.append(
                {
                    "kind": "objectives_from_synopsis",
                    "detail": "the protocol body has no objectives section; objectives read from "
                    f"the synopsis (section {sections_of(synopsis_items)})",
                }
            )
            items = synopsis_items
    objectives = [i for i in items if i.kind == OBJECTIVE]
    loose = [i for i in items if i.kind == ENDPOINT]
    if not loose and not any(o.endpoints for o in objectives):
        per_section = [
            [
                e
                for e in reader.read_tree(section, Context(ENDPOINT))
                if e.kind == ENDPOINT and (e.printed or not MEASURES_SECTION.search(section.get("title") or ""))
            ]
            for section in endpoint_sections(document, root)
        ]
        loose = once(per_section)
    if objectives and not loose and not any(o.endpoints for o in objectives):
        endpoints_from_synopsis(document, reader, objectives, diagnostics)
    if not objectives and root is None:
        diagnostics.append({"kind": "no_objectives", "detail": "no objectives section found in the body or synopsis"})
    elif not objectives:
        diagnostics.append(
            {
                "kind": "objectives_not_read",
                "detail": f"objectives section {root.get('number') or ''} {root.get('title') or ''!r} found, "
                "but no objective could be read from it (nor from the synopsis)",
            }
        )
    settle_levels(objectives, diagnostics)
    settle_endpoint_levels(objectives, loose, diagnostics)
    join(objectives, loose, diagnostics)
    for o in objectives:
        if not o.endpoints:
            diagnostics.append(
                {
                    "kind": "objective_without_endpoints",
                    "detail": f"{o.level} objective in section {o.section.get('number')} has no "
                    f"endpoint: {o.text[:80]}",
                }
            )
    return [_objective_dict(o, tracer) for o in objectives], diagnostics


def _where(item: Item, tracer: Tracer) -> dict:
    first, last = page_range(item.section)
    found = tracer.trace(item.text, first, last)
    if not found.get("pages"):
        found = {"pages": [first] if first is not None else [], "boxes": []}
    return found


def _objective_dict(o: Item, tracer: Tracer) -> dict:
    where = _where(o, tracer)
    return {
        "level": o.level,
        "label": o.label,
        "text": o.text,
        "section": o.section.get("number"),
        "pages": where["pages"],
        "boxes": where["boxes"],
        "endpoints": [_endpoint_dict(e, tracer) for e in o.endpoints],
    }


def _endpoint_dict(e: Item, tracer: Tracer) -> dict:
    where = _where(e, tracer)
    return {
        "level": e.level,
        "label": e.label,
        "text": e.text,
        "section": e.section.get("number"),
        "pages": where["pages"],
        "boxes": where["boxes"],
    }
