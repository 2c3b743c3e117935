"""Reads a section and its subsections: which subsections to read, and the headings, labels,
tables and blocks of each one's text."""

from __future__ import annotations

from ..trace import Tracer
from .items import Context, Item, context_from_title, make
from .lists import Unit, units_of
from .statements import BlockReader
from .tables import TableReader, read_endpoint_table
from .vocabulary import (
    ENDPOINT,
    ENDPOINT_WORD,
    ESTIMAND_ATTRIBUTE,
    LEVEL,
    MEASURES_TITLE,
    NOT_A_LIST,
    NOT_UNDER_OBJECTIVES,
    OBJECTIVE,
    OBJECTIVE_WORD,
    OTHER_BLOCK,
    level_of,
    objectives_title,
    plain,
)


class Reader:
    """Reads objectives and endpoints out of sections, one document at a time (the blocks and
    tables it reads keep what they learn about the document)."""

    def __init__(self, tracer: Tracer):
        self.blocks = BlockReader(tracer)
        self.tables = TableReader(tracer)

    def read_tree(self, section: dict, parent: Context, top: bool = True) -> list[Item]:
        """Items of ``section`` and its subsections. Below the top, a subsection whose title says
        something else (rationale, estimands, benefit-risk) is left out; one whose title names no
        objective, endpoint or level keeps its parent's kind only when the title is short."""
        title = objectives_title(section.get("title") or "")
        context = None
        if not top:
            named = OBJECTIVE_WORD.search(title) or ENDPOINT_WORD.search(title) or LEVEL.search(title)
            if not named and MEASURES_TITLE.search(title) and not OTHER_BLOCK.search(title):
                # a section of measures, variables or parameters ("Efficacy Assessments and Variables" too)
                context = context_from_title(title, Context(ENDPOINT, parent.level, parent.label, parent.explicit))
            elif NOT_A_LIST.search(title) or (OTHER_BLOCK.search(title) and not OBJECTIVE_WORD.search(title)):
                return []
            elif not named and len(title.split()) > 3:
                return []
        context = context or context_from_title(title, parent)
        items = self.read_units(units_of(section), context, section)
        for sub in section.get("subsections") or []:
            items.extend(self.read_tree(sub, context, top=False))
        return items

    def read_units(self, units: list[Unit], context: Context, section: dict) -> list[Item]:
        """Items of one section's units; headings and lead-in labels move the context."""
        items: list[Item] = []
        block: list[Unit] = []
        current = context
        skipping = False  # under a heading that opens something else (hypotheses, a scale ...)
        last_table = None  # the last objectives table's rows and layout, for its continuation
        table_items: list[Item] = []
        endpoint_name_layout = False  # level headings followed by one heading per endpoint
        just_leveled = False  # the last unit was a level heading

        def flush():
            if block and not skipping:
                items.extend(self.blocks.read_block(block, current, section))
            block.clear()

        for unit in units:
            if unit.kind == "heading":
                flush()
                heading = unit.text
                if OTHER_BLOCK.search(heading) and not OBJECTIVE_WORD.search(heading):
                    skipping = True
                    continue
                has_obj, has_ep = bool(OBJECTIVE_WORD.search(heading)), bool(ENDPOINT_WORD.search(heading))
                found = level_of(heading)
                if found and len(heading.split()) <= 8:
                    current = context_from_title(heading, Context(current.kind))
                    skipping = False
                    endpoint_name_layout = False
                    just_leveled = True
                    continue
                elif has_obj or has_ep:
                    current = context_from_title(
                        heading, Context(current.kind, current.level, current.label, current.explicit)
                    )
                    skipping = False
                elif current.kind == ENDPOINT and current.level and not endpoint_name_layout and just_leveled:
                    # A level heading, then a heading naming each endpoint, its definition below.
                    endpoint_name_layout = True
                    items.append(make(ENDPOINT, current, heading, section))
                    skipping = True
                elif endpoint_name_layout:
                    items.append(make(ENDPOINT, current, heading, section))
                    skipping = True
                elif current.kind == OBJECTIVE and not NOT_UNDER_OBJECTIVES.search(heading):
                    # "Period 1", "Effect-related:": a sub-heading that names no level groups the
                    # objectives of the level in force, which carries on under it.
                    skipping = False
                else:
                    skipping = True
                just_leveled = False
                continue
            just_leveled = False
            if unit.kind == "table":
                flush()
                found, last_table = self.tables.read_table(unit.table, current, section, last_table)
                if not found and current.kind == ENDPOINT:
                    found = read_endpoint_table(unit.table, current, section)
                items.extend(found)
                table_items.extend(found)
                continue
            if unit.label:
                label = unit.label
                if OTHER_BLOCK.search(label) or ESTIMAND_ATTRIBUTE.search(plain(label).rstrip(": ")):
                    continue  # "Hypothesis: ..." printed after an objective; an estimand's attribute
                if level_of(label) or ENDPOINT_WORD.search(label) or OBJECTIVE_WORD.search(label):
                    flush()
                    current = context_from_title(
                        label, Context(current.kind, current.level, current.label, current.explicit)
                    )
                    skipping = False
            if skipping:
                continue
            block.append(unit)
        flush()
        if table_items:  # when the objectives are tabulated, the text around the table is commentary
            return [i for i in items if any(i is t for t in table_items)]
        return items
