"""Objectives and endpoints put together: endpoints printed apart joined by level and order and
each read once, levels that were not printed settled, endpoints taken from the synopsis table."""

from __future__ import annotations

import re

from ...document_types import Document
from .items import Context, Item
from .lists import units_of
from .reader import Reader
from .sections import synopsis_sections
from .vocabulary import ENDPOINT, EXPLORATORY, OBJECTIVE, PRIMARY, SECONDARY, plain


def join(objectives: list[Item], endpoints: list[Item], diagnostics: list[dict]) -> None:
    """Attach endpoints printed apart from their objectives: by level, in order; the surplus of a
    level goes to its last objective; a level with no objective goes to the nearest earlier one."""
    if not endpoints:
        return
    order = [PRIMARY, SECONDARY, EXPLORATORY]
    by_level: dict[str, list[Item]] = {}
    for e in endpoints:
        by_level.setdefault(e.level, []).append(e)
    for level in order:
        found = by_level.get(level) or []
        if not found:
            continue
        where = sections_of(found)
        targets = [o for o in objectives if o.level == level]
        if targets:
            for i, e in enumerate(found):
                targets[min(i, len(targets) - 1)].endpoints.append(e)
            diagnostics.append(
                {
                    "kind": "endpoints_joined_by_order",
                    "detail": f"{len(found)} {level} endpoint(s) from section {where} joined to "
                    f"{len(targets)} {level} objective(s) by order",
                }
            )
            continue
        earlier = [o for o in objectives if order.index(o.level) < order.index(level)]
        host = earlier[-1] if earlier else (objectives[-1] if objectives else None)
        if host is None:
            diagnostics.append(
                {
                    "kind": "endpoint_without_objective",
                    "detail": f"{len(found)} {level} endpoint(s) in section {where}; no objectives found",
                }
            )
            continue
        host.endpoints.extend(found)
        diagnostics.append(
            {
                "kind": "endpoint_without_objective",
                "detail": f"{len(found)} {level} endpoint(s) in section {where} have no {level} "
                f"objective; attached to {host.level} objective in section "
                f"{host.section.get('number')}",
            }
        )


def once(per_section: list[list[Item]]) -> list[Item]:
    """Endpoints printed apart, from each endpoints section in turn; an endpoint that an earlier
    section already stated is left out: a protocol that states its endpoints in the design
    chapter and again in the statistics chapter ("... will be the change ..." / "... is the
    change ...") has each of them once. Within one section, a repeat is the protocol's own (the
    same measure for two regions, or two periods) and is kept."""
    out: list[Item] = []
    for endpoints in per_section:
        earlier = list(out)
        for e in endpoints:
            mine = set(_words(e.text))
            if not any(o.level == e.level and _dice(mine, set(_words(o.text))) >= 0.9 for o in earlier):
                out.append(e)
    return out


def _dice(a: set, b: set) -> float:
    return 2 * len(a & b) / (len(a) + len(b)) if a or b else 1.0


def settle_levels(objectives: list[Item], diagnostics: list[dict]) -> None:
    """Objectives printed with no level take the one their place implies. When the document
    prints no level at all, the objectives are listed in order of importance: the first is the
    primary, the rest secondary. Otherwise an unlevelled objective (a category such as "Safety")
    counts as secondary. Table endpoints with no level of their own follow their objective.
    Either way a diagnostic says so: the level was not printed."""
    unlevelled = [o for o in objectives if not o.printed]
    if not unlevelled:
        return
    if len(unlevelled) == len(objectives):
        for k, o in enumerate(objectives):
            _set_level(o, PRIMARY if k == 0 else SECONDARY)
        diagnostics.append(
            {
                "kind": "objective_levels_not_printed",
                "detail": f"no objective prints a level: the first (section {objectives[0].section.get('number')}) "
                f"is taken as primary, the other {len(objectives) - 1} as secondary",
            }
        )
        return
    for o in unlevelled:
        _set_level(o, SECONDARY)
    diagnostics.append(
        {
            "kind": "objective_level_not_printed",
            "detail": f"{len(unlevelled)} objective(s) print no level (section {sections_of(unlevelled)}): "
            "taken as secondary",
        }
    )


def settle_endpoint_levels(objectives: list[Item], loose: list[Item], diagnostics: list[dict]) -> None:
    """Endpoints printed apart with no level anywhere, for objectives of one level (the study's
    single objective): they measure those objectives and take their level."""
    levels = {o.level for o in objectives}
    if not loose or any(e.printed for e in loose) or len(levels) != 1:
        return
    level = levels.pop()
    for e in loose:
        if e.label == e.level.title():
            e.label = level.title()
        e.level = level
    diagnostics.append(
        {
            "kind": "endpoint_levels_not_printed",
            "detail": f"no endpoint prints a level (section {sections_of(loose)}): they take the "
            f"level of the {level} objective(s) they measure",
        }
    )


def _set_level(objective: Item, level: str) -> None:
    if objective.label == objective.level.title():
        objective.label = level.title()
    for e in objective.endpoints:
        if not e.printed:
            e.level = level
            if e.label == SECONDARY.title():
                e.label = level.title()
    objective.level = level


def sections_of(items: list[Item]) -> str:
    numbers = []
    for i in items:
        n = i.section.get("number") or i.section.get("title") or "?"
        if n not in numbers:
            numbers.append(n)
    return ", ".join(numbers)


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", plain(text).lower())


def _same_objective(synopsis_text: str, body_text: str) -> bool:
    """The synopsis prints the body's objective, or its first sentences (the body goes on with
    how it is measured: "To assess X. Improved scores on Y will indicate ...")."""
    short, long = _words(synopsis_text), _words(body_text)
    return len(short) >= 4 and long[: len(short)] == short


def endpoints_from_synopsis(
    document: Document, reader: Reader, objectives: list[Item], diagnostics: list[dict]
) -> None:
    """Body objectives printed without endpoints, and no endpoints section: the endpoints the
    synopsis's objectives-and-endpoints table prints beside the same objectives (the ICH M11
    template's 1.1.1 "Primary and Secondary Objectives and Estimands" table). Each synopsis
    objective gives its endpoints to the body objective of its level whose text it is, or opens."""
    found: list[Item] = []
    for section in synopsis_sections(document):
        found.extend(
            i
            for i in reader.read_units(units_of(section), Context(None), section)
            if i.kind == OBJECTIVE and i.endpoints
        )
    taken: set[int] = set()
    joined = 0
    for body in objectives:
        for i, synopsis in enumerate(found):
            if i not in taken and synopsis.level == body.level and _same_objective(synopsis.text, body.text):
                taken.add(i)
                for e in synopsis.endpoints:
                    body.endpoints.append(Item(ENDPOINT, body.level, body.label, e.text, e.section))
                    joined += 1
                break
    if joined:
        diagnostics.append(
            {
                "kind": "endpoints_from_synopsis",
                "detail": f"the body prints no endpoints; {joined} endpoint(s) of {len(taken)} "
                f"objective(s) read from the synopsis table (section {sections_of(found)})",
            }
        )
