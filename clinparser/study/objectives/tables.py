"""Objectives-and-endpoints tables and endpoint tables: which column holds what, the level rows
and columns, and rows continued over a page break."""

from __future__ import annotations

import re

from ...shared.markup import strip_markup
from ..trace import Tracer, words
from .cells import ENDPOINT_WORD_CELL, cell_items, estimand_endpoint, is_bullet, pipe_cells, strip_bullet, with_bullets
from .items import Context, Item, context_from_title, make, under
from .sections import page_range
from .vocabulary import (
    EMPTY,
    ENDPOINT,
    OBJECTIVE,
    OBJECTIVE_WORD,
    OTHER_BLOCK,
    STATES_OBJECTIVE,
    join_lines,
    level_of,
    plain,
)

_ROW_NUMBER = re.compile(r"^\s*\d{1,2}[.)]\s")
_ENDPOINT_COLUMN = re.compile(
    r"^(?:end\s?-?points?|variables?|parameters?|outcome\s+measures?|measures?)$", re.IGNORECASE
)
_ENDPOINT_NAME = re.compile(r"end\s?-?points?", re.IGNORECASE)


class TableReader:
    """Reads the objectives tables of a document; keeps the raw pipe-table cells of the pages it
    has looked at."""

    def __init__(self, tracer: Tracer):
        self.tracer = tracer
        self._raw_cells: dict[tuple[int, ...], dict[tuple[str, ...], list[list[str]]]] = {}

    def read_table(
        self, table: dict, context: Context, section: dict, previous: tuple[list[Item], tuple, Context] | None = None
    ) -> tuple[list[Item], tuple | None]:
        """Objectives (with their endpoints) of an objectives-and-endpoints table, and the table's
        layout for a continuation. A table with no objective/endpoint header right after one of the
        same width is its continuation over a page break: its header is a data row."""
        header = [plain(str(c or "")) for c in table.get("columns") or []]
        raw_header = [str(c or "") for c in table.get("columns") or []]
        rows = [[str(c or "") for c in row] for row in table.get("data") or []]
        objective_col, endpoint_col = _columns(header, rows)
        if (objective_col is None or endpoint_col is None) and rows:  # the header may be the first data row
            first = [plain(c) for c in rows[0]]
            objective_col, endpoint_col = _columns(first, rows[1:])
            if objective_col is not None and endpoint_col is not None:
                header, rows = first, rows[1:]
        raw_cells = self._raw_cells_of(table, section)
        items: list[Item] = []
        level_col = None
        cell_label: str | None = None
        # The section's level is a default: a row's own words ("A secondary objective ...") win.
        current = Context(OBJECTIVE, context.level, context.label, False)
        if objective_col is None or endpoint_col is None or objective_col == endpoint_col:
            if previous is None or len(raw_header) != len(previous[1][3]):
                return [], None
            items, (objective_col, endpoint_col, level_col, header), current = previous
            rows = [raw_header] + rows
            items = list(items)
            start = len(items)
        else:
            level_col = next(
                (
                    i
                    for i, h in enumerate(header)
                    if re.search(r"level|type|category", h, re.IGNORECASE) and i not in (objective_col, endpoint_col)
                ),
                None,
            )
            start = 0
        estimand_rows = False  # under a spanning "Supplementary (Primary Estimand)" row
        held: list = []  # endpoints of a row whose objective cell held only its level
        numbered = False  # the table numbers its objectives ("1. To describe ...")
        estimands = False  # the endpoint cells print estimands ("Population: ... Endpoint: ...")
        for row in rows:
            cells = [c.strip() for c in row]
            if [plain(c) for c in cells] == header:
                continue  # the header repeated after a page break
            filled = {c for c in cells if c}
            if len(filled) == 1 and len(plain(next(iter(filled))).split()) <= 6:
                only = plain(next(iter(filled)))
                if OTHER_BLOCK.search(only):
                    estimand_rows = True  # an estimand restating an objective above: no objective
                    continue
                if level_of(only):
                    current = context_from_title(only, Context(OBJECTIVE))
                    estimand_rows = False
                    continue  # a spanning level row
            if estimand_rows:
                continue
            objective_only = plain(cells[objective_col]) if objective_col < len(cells) else ""
            if _is_level_label_cell(objective_only):
                # "Exploratory" alone in the objective cell, its objective on the rows below (the
                # cell wrapped over a page break): the level of the next objective, which also
                # takes this row's endpoints.
                current = context_from_title(objective_only + " objective", Context(OBJECTIVE))
                held, _ = cell_items(with_bullets(cells[endpoint_col], raw_cells) if endpoint_col < len(cells) else "")
                continue
            objective_cell = cells[objective_col] if objective_col < len(cells) else ""
            endpoint_cell = with_bullets(cells[endpoint_col], raw_cells) if endpoint_col < len(cells) else ""
            if level_col is not None and level_col < len(cells) and level_of(cells[level_col]):
                # A "Category" column that holds "Efficacy" or "Safety" names no level: the
                # spanning level row above stays in force.
                current = context_from_title(plain(cells[level_col]), Context(OBJECTIVE))
            lines = [line for line in objective_cell.split("\n")]
            labelled = False
            if (
                lines
                and re.search(r"[A-Za-z]{3}", lines[0])
                and not is_bullet(lines[0])
                and len(plain(lines[0]).split()) <= 3
                and len(lines) > 1
                and not plain(lines[0]).endswith((".", ","))
                and lines[0].strip()[:1].isupper()
                and not STATES_OBJECTIVE.match(plain(lines[0]))
                and not lines[1].strip()[:1].islower()
            ):
                # (A first line "To explore biomarkers" wrapping on in lower case is the
                # objective's own start, not a label.)
                # "Primary" / "Safety" on the cell's first line: the level of this and later rows
                current = context_from_title(plain(lines[0]) + " objective", Context(OBJECTIVE))
                lines = lines[1:]
                labelled = True
            objective_text = plain(join_lines([strip_bullet(line) for line in lines]))
            has_number = bool(_ROW_NUMBER.match(objective_cell))
            # A row whose objective cell is empty, or goes on in lower case without a bullet of
            # its own, continues the previous row: a page break or a wrapped line split it. So
            # does one with no number of its own in a table that numbers its objectives.
            continues = not objective_text or (
                not labelled
                and not is_bullet(objective_cell)
                and (
                    objective_text[:1] in "abcdefghijklmnopqrstuvwxyz("
                    or (numbered and not has_number and not STATES_OBJECTIVE.match(objective_text))
                )
            )
            numbered = numbered or has_number
            host = items[-1] if items else (previous[0][-1] if previous and previous[0] else None)
            if not (continues and host):
                cell_label = None  # a level printed inside the endpoint cell holds for its objective only
            estimand = estimand_endpoint(endpoint_cell, estimands)
            estimands = estimands or estimand is not None
            if estimand is not None:
                endpoints = [(estimand, cell_label, False)] if estimand else []
            else:
                endpoints, cell_label = cell_items(endpoint_cell, cell_label)
            endpoints = [e for e in endpoints if not EMPTY.match(e[0])]  # "TBD": no endpoint yet
            if continues and host:
                # (a table's first row may go on with the last table's last row)
                if objective_text:
                    host.text = host.text + " " + objective_text
                if endpoints and endpoints[0][2] and host.endpoints:  # a wrapped endpoint line
                    host.endpoints[-1].text += " " + endpoints.pop(0)[0]
                for text, label, _ in endpoints:
                    host.endpoints.append(_table_endpoint(host, text, label, section))
                continue
            if not objective_text:
                continue
            objective = make(OBJECTIVE, current, objective_text, section)
            for text, label, _ in held + endpoints:
                objective.endpoints.append(_table_endpoint(objective, text, label, section))
            held = []
            items.append(objective)
        return items[start:], (items, (objective_col, endpoint_col, level_col, header), current)

    def _raw_cells_of(self, table: dict, section: dict) -> dict[tuple[str, ...], list[list[str]]]:
        """The cells of the raw pipe tables in the blocks on ``table``'s pages (the section's when
        the table gives none), as their <br>-separated lines, by their words."""
        pages = tuple(sorted({p for p in (table.get("pages") or [table.get("page")]) if isinstance(p, int)}))
        if not pages:
            first, last = page_range(section)
            pages = tuple(range(first, last + 1)) if first is not None and last is not None else ()
        if pages not in self._raw_cells:
            found: dict[tuple[str, ...], list[list[str]]] = {}
            for block in self.tracer.blocks_on(pages):
                for lines in pipe_cells(block.get("text") or ""):
                    key = tuple(w for line in lines for w in words(strip_markup(line)))
                    if key:
                        found.setdefault(key, []).append(lines)
            self._raw_cells[pages] = found
        return self._raw_cells[pages]


def read_endpoint_table(table: dict, context: Context, section: dict) -> list[Item]:
    """Endpoints of a table with an endpoint column and no objective column ("Endpoint |
    Definition", "Variable | Time point"), printed where endpoints are listed: one per row of
    that column, the level from a spanning row ("Primary Variable", "Secondary Endpoints"),
    from the table's caption, or from the section."""
    header = [plain(str(c or "")) for c in table.get("columns") or []]
    column = _fullest(
        _matching(header, _ENDPOINT_NAME) or _matching(header, _ENDPOINT_COLUMN),
        [[str(c or "") for c in row] for row in table.get("data") or []],
    )
    if column is None:
        return []
    current = context_from_title(table.get("title") or "", context) if level_of(table.get("title") or "") else context
    items: list[Item] = []
    for row in table.get("data") or []:
        cells = [plain(str(c or "")) for c in row]
        filled = [c for c in cells if c]
        if len(filled) == 1 and level_of(filled[0]) and len(filled[0].split()) <= 6:
            current = context_from_title(filled[0], Context(ENDPOINT))
            continue
        text = plain(join_lines(str(row[column] or "").split("\n"))) if column < len(row) else ""
        if text and not EMPTY.match(text):
            items.append(make(ENDPOINT, current, text, section))
    return items


def _table_endpoint(objective: Item, text: str, label: str | None, section: dict) -> Item:
    context = under(objective)
    if label:  # "Secondary Safety Endpoints" printed inside the endpoint cell
        context = context_from_title(label, under(objective))
    return make(ENDPOINT, context, text, section)


def _is_level_label_cell(text: str) -> bool:
    """A cell holding only a level ("Exploratory", "Secondary Objective(s)"), no objective."""
    return (
        bool(text)
        and len(text.split()) <= 3
        and bool(level_of(text))
        and not STATES_OBJECTIVE.match(text)
        and not re.sub(
            r"(?i)\b(?:key|other|primary|secondary|tertiary|exploratory|objectives?|\(s\)|and|/)\b", "", text
        ).strip(" /()")
    )


def _columns(header: list[str], rows: list[list[str]]) -> tuple[int | None, int | None]:
    """(objective column, endpoint column) of a table by its header. Several columns may name
    the same thing: a narrow column of bullet glyphs under a spanning "Objectives" header, an
    "Outcome Measure" column beside "Endpoints". An "endpoint" column is preferred to an
    outcome or measure one, and among equals the column whose cells hold the most words: the
    evidence is what the cells hold, not only what the header says."""
    objective = _fullest(_matching(header, OBJECTIVE_WORD), rows)
    named = [i for i in _matching(header, _ENDPOINT_NAME) if i != objective]
    endpoint = _fullest(named or [i for i in _matching(header, ENDPOINT_WORD_CELL) if i != objective], rows)
    return objective, endpoint


def _matching(header: list[str], pattern: re.Pattern) -> list[int]:
    return [i for i, h in enumerate(header) if pattern.search(h)]


def _fullest(candidates: list[int], rows: list[list[str]]) -> int | None:
    """The candidate column with the most words in its cells (the first on a tie)."""
    if len(candidates) <= 1:
        return candidates[0] if candidates else None
    counts = {i: sum(len(words(row[i])) for row in rows if i < len(row)) for i in candidates}
    return max(candidates, key=lambda i: (counts[i], -i))
