"""Objectives and endpoints as read (``Item``), the kind and level a heading puts in force
(``Context``), and the making of an item in a context."""

from __future__ import annotations

from dataclasses import dataclass, field

from .vocabulary import (
    ENDPOINT,
    ENDPOINT_WORD,
    OBJECTIVE,
    OBJECTIVE_WORD,
    SECONDARY,
    cut_hypothesis,
    first_clause,
    label_of,
    level_of,
)


@dataclass
class Item:
    """An objective or an endpoint as read: its level, label, text and section (an objective
    with its endpoints)."""

    kind: str  # OBJECTIVE | ENDPOINT
    level: str
    label: str
    text: str
    section: dict
    endpoints: list[Item] = field(default_factory=list)
    printed: bool = True  # the level was printed (by the item, its heading, row or column)


@dataclass
class Context:
    """What a title, heading or label puts in force for the items under it: their kind and level."""

    kind: str | None  # OBJECTIVE, ENDPOINT, or None when the section title says neither
    level: str | None = None
    label: str = ""
    explicit: bool = False  # the level was printed (not defaulted)


def context_from_title(title: str, parent: Context) -> Context:
    kind = parent.kind
    has_obj, has_ep = bool(OBJECTIVE_WORD.search(title)), bool(ENDPOINT_WORD.search(title))
    if has_ep and not has_obj:
        kind = ENDPOINT
    elif has_obj and not has_ep:
        kind = OBJECTIVE
    found = level_of(title)
    if found:
        return Context(kind, found[0], label_of(title) or found[1], True)
    label = label_of(title)
    if label and kind and has_obj != has_ep and len(label.split()) <= 3:
        return Context(kind, None, label, False)  # "Safety Objective": a category, no level
    return Context(kind, parent.level, parent.label, parent.explicit)


def make(kind: str, context: Context, text: str, section: dict) -> Item:
    text = " ".join(text.split())
    if kind == OBJECTIVE:
        text = cut_hypothesis(text)
    level, label = context.level, context.label
    if not context.explicit:
        # No printed level: the item's own words may give it ("The exploratory biomarker
        # objectives ...").
        found = level_of(first_clause(text))
        if found:
            level, label = found[0], label or found[1]
    # Still none: settled once the whole document is read (``settle_levels``).
    return Item(
        kind, level or SECONDARY, label or (level or SECONDARY).title(), text, section, printed=level is not None
    )


def under(objective: Item) -> Context:
    """The context of an endpoint printed with its objective: the objective's level when it was
    printed; else none yet (it follows the objective's once settled)."""
    return Context(ENDPOINT, objective.level if objective.printed else None, objective.label, True)
