"""Find the schedule-of-activities tables of a parsed tree and attach their schedules.

A table is read as a schedule when its caption or its section's title names a schedule
("Schedule of Activities", "Schedule of Events", "Schedule of Assessments", "Time and Events",
"Study Flow Chart", "Flowchart", "Study Calendar", "SoA", …) or, wherever it stands, when its
shape is one (``by_shape``): a label column and several visit columns, many cells of them marks.
Either way the reading (``schedule_read``) must find visit columns and marked activities.

Several timelines are kept apart (main, PK sampling, follow-up): each table is its own schedule.
The main one is the largest schedule (most marks) whose caption or section names a schedule and
no narrower kind of timeline (``kinds``); ``main`` is true on it alone, and every schedule's
``kind`` says which it is.
"""

from __future__ import annotations

import difflib
import re
from typing import Iterable, Optional

from ..content.assemble import Tree
from ..model import Section, Table
from .band import take_caption_from_header
from .grid import is_mark, label_column, names_notes_column, read_schedule, vocabulary_of
from .header import names_a_visit
from .join import Part, join_parts, restated_headers, split_at
from .kinds import caption_kind
from .visits import link_side_schedules

SCHEDULE_TITLE = re.compile(
    r"\bschedules?\s+of\s+(?:\w+\s+){0,4}?(?:activities|events|assessments|procedures|visits|evaluations|study\s+procedures|sampling|observations)\b"
    r"|\btime\s+(?:and|&)\s+events?\b|\bflow\s?-?\s?charts?\b|\bstudy\s+(?:flow|calendar)\b|\bvisit\s+schedule\b|\(SoA\)|\bSoA\b",
    re.I,
)
MIN_SHAPE_COLUMNS = 4  # visit columns a table needs to be a schedule by shape alone
MIN_SHAPE_MARKS = 8
SAMPLING_COLUMNS, SAMPLING_MARKS = 2, 3  # the same for a table captioned as sampling (kinds.caption_kind)
MIN_SHAPE_SHARE = 0.3  # of the filled visit cells, the share that are marks


def attach_schedules(tree: Tree, ocr: bool = True) -> list[str]:
    """Set ``table.schedule`` on every schedule table of the tree, those read by OCR from
    pictures included (``content/picture_tables``); warnings for the ones that could not be
    read cleanly (their diagnostics say how) or not at all (a schedule section holding only
    pictures: ``ocr`` false says it is because of ``--ocr never``)."""
    in_toc = list(_sections(tree.toc))
    sections = in_toc + list(_sections(tree.non_toc))
    vocabulary = vocabulary_of(s.text for s in sections)
    found: list[tuple[Table, bool, bool]] = []  # table, named as a schedule, in the toc
    toc_ids = {id(s) for s in in_toc}
    candidates = []
    moved: dict[int, str] = {}  # id(table) -> the caption its header row held
    for section in sections:
        for table, notes in zip(section.tables, _notes_after_tables(section)):
            caption = take_caption_from_header(table, SCHEDULE_TITLE)
            if caption:
                moved[id(table)] = caption
            named = bool(SCHEDULE_TITLE.search(table.title) or SCHEDULE_TITLE.search(section.title))
            # A table read from a picture is a schedule only where it is named as one: by its
            # shape alone it is as likely an amendment's picture of a superseded schedule.
            # A sampling table is small (a few time points of one or two samples): its caption
            # naming the sampling is the evidence its shape need not give.
            sampling = caption_kind(table.title) == "pk_pd" and by_shape(table, SAMPLING_COLUMNS, SAMPLING_MARKS)
            if named or ((by_shape(table) or sampling) and not table.from_ocr):
                candidates.append((section, table, notes, named))
    candidates = _without_pictured_copies(candidates)
    read_parts: list[Part] = []
    where: dict[int, tuple[bool, bool]] = {}  # id(table) -> (named as a schedule, in the toc)
    joined, headerless = _join_repeated_headers(candidates)
    for section, table, notes, named, parts in joined:
        read = (
            table
            if not parts
            else Table(
                title=table.title,
                page=table.page,
                pages=[table.pages[0], parts[-1].pages[-1]],
                columns=table.columns,
                data=[row for t in [table] + parts for row in t.data],
                path=table.path,
                part_rows=table.part_rows
                + [sum(len(t.data) for t in [table] + parts[: i + 1]) for i in range(len(parts))],
            )
        )
        if parts:  # the footnotes follow the last part
            notes = next((n for s, t, n, _ in candidates if t is parts[-1]), notes) or notes
        schedule = _read_stacked(read, notes, vocabulary, table.title or section.title) or read_schedule(
            read, notes, vocabulary, name=table.title or section.title
        )
        if schedule and id(table) in moved:
            schedule["diagnostics"].append(
                f"the header row held the caption ({moved[id(table)]!r}): taken as the "
                "caption, the visits read from the rows below it"
            )
        small = schedule is None and not table.title.strip()
        if small:  # perhaps a page's part of the schedule before it: a row or two
            schedule = read_schedule(read, notes, vocabulary, name=section.title, part=True)
        if schedule:
            if table.from_ocr:
                schedule["diagnostics"].append("read by OCR from a picture of the table: check it against the page")
            if parts:
                pages = ", ".join(str(t.page) for t in parts)
                schedule["diagnostics"].append(
                    f"continued on page(s) {pages} under the same visit header: read as one schedule; "
                    f"rows from {len(table.data)} on are the later parts' rows"
                )
            for t in parts:
                if id(t) in headerless:
                    schedule["diagnostics"].append(
                        f"page {t.page} prints no header: its first row, taken as a header by the table stage, "
                        "is read as a row of the schedule"
                    )
        read_parts.append(Part(table, schedule, len(read.data), (read.pages or [read.page])[-1], small))
        where[id(table)] = (named, id(section) in toc_ids)
    # Parts the table stage could not join (other columns on the next page): joined by their labels.
    for head in join_parts(read_parts, vocabulary):
        head.table.schedule = head.schedule
        found.append((head.table, *where[id(head.table)]))
    unread = [(section, ocr) for section in sections if _pictured(section)]
    _choose_main(found)
    link_side_schedules([t.schedule for t, _, _ in found])
    return [
        f"schedule {t.schedule['name']!r} (page {t.page}): {len(t.schedule['diagnostics'])} reading problem(s), "
        "see its diagnostics"
        for t, _, _ in found
        if t.schedule["diagnostics"]
    ] + [_unread_warning(s, tried) for s, tried in unread]


def _read_stacked(table: Table, notes: str, vocabulary: set[str], name: str) -> Optional[dict]:
    """The schedule of a table whose body restates its header for other visits (sideways parts
    stacked by the table stage), its pieces read one by one and joined; None when the table has
    no such row or its pieces do not join as one schedule."""
    rows = restated_headers(table)
    if not rows:
        return None
    pieces = split_at(table, rows)
    parts = []
    for k, piece in enumerate(pieces):
        schedule = read_schedule(piece, notes, vocabulary, name=name)
        if schedule is None:
            return None
        # the piece's rows, then the restated header rows after it
        parts.append(Part(piece, schedule, len(piece.data) + (rows[k][1] if k < len(rows) else 0), table.page))
    heads = join_parts(parts, vocabulary)
    if len(heads) != 1 or len(heads[0].joined) != len(pieces) - 1:
        return None
    head = heads[0].schedule
    printed = ", ".join(str(r) if size == 1 else f"{r}-{r + size - 1}" for r, size in rows)
    head["diagnostics"].append(
        f"rows {printed} print the header again for other visits: "
        f"the table is {len(pieces)} parts printed side by side, joined by their activities"
    )
    return head


def _without_pictured_copies(candidates: list) -> list:
    """Candidates less the tables read from a picture that print the caption of a table read
    from the text layer (an amendment's picture of that schedule): the text layer's reading is
    the exact one, and the copy would be a second timeline of the same visits."""

    def key(title: str) -> str:
        return re.sub(r"[^a-z0-9]+", " ", title.lower()).strip()

    printed = {key(t.title) for _, t, _, _ in candidates if t.title.strip() and not t.from_ocr}
    return [c for c in candidates if not (c[1].from_ocr and key(c[1].title) in printed)]


def _pictured(section: Section) -> bool:
    """A section named as a schedule holding pictures and no table read as a schedule."""
    return bool(
        SCHEDULE_TITLE.search(section.title)
        and section.images
        and not any(t.schedule is not None for node in section.walk() for t in node.tables)
    )


def _unread_warning(section: Section, tried: bool) -> str:
    pages = sorted({i.page for i in section.images if i.page is not None})
    where = f" (page {', '.join(map(str, pages))})" if pages else ""
    label = f"{section.number} {section.title}".strip()
    why = "its grid could not be read from it" if tried else "it is not read with --ocr never"
    return (
        f"section {label!r}: its schedule is printed as a picture{where} "
        f"({len(section.images)} picture(s), no table) and {why}"
    )


def _same_header(a: Table, b: Table) -> bool:
    """Two tables printing the same visit header (a page-split grid repeating it): as many
    columns, each header the same but for footnote markers and spacing or a lowest header row
    printed on one page only (the windows under the visits), or, where a spanning
    header above the visits was cut into pieces over the columns on one page ("Treat / 7",
    "ment / 8" under "Treatment Period (Study Days)"), the same lowest part ("7", "8")."""
    if len(a.columns) != len(b.columns) or len(a.columns) < 3 or not any(c.strip() for c in a.columns[1:]):
        return False
    return all(_same_column(x, y) for x, y in zip(a.columns, b.columns))


def _key(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", text.lower())


def _same_column(x: str, y: str) -> bool:
    if difflib.SequenceMatcher(None, _key(x), _key(y)).ratio() >= 0.9:
        return True
    px, py = ([_key(p) for p in h.split(" / ") if _key(p)] for h in (x, y))
    short, long = sorted((px, py), key=len)
    if short and short == long[: len(short)]:
        return True  # a header row not repeated on the later page (the windows under the visits)
    (up_x, low_x), (up_y, low_y) = (_upper_and_lowest(h) for h in (x, y))
    # the pieces must be pieces of the other page's words: "Cycle 2" over "Day 1" is another grid
    return bool(low_x) and low_x == low_y and (up_y in up_x or up_x in up_y)


def _upper_and_lowest(header: str) -> tuple[str, str]:
    parts = re.split(r"\s*/\s*|\n", header.strip())
    return _key("".join(parts[:-1])), _key(parts[-1])


def _header_as_rows(head: Table, part: Table) -> Optional[list[list[str]]]:
    """The body rows a part's header holds when the part was printed with no header, else None.
    The part has as many columns as the head and no caption, and its header is
    * marks where the visits' headers stand ("Disease activity score | • | • | •"), the head's
      notes column aside;
    * a label with every visit cell empty (an activity marked only further down, a group row);
    * one group label across the grid, copied into every column; or
    * that group label over a marked row (the table stage took both rows for the header)."""
    if len(part.columns) != len(head.columns) or part.title.strip():
        return None
    columns = [" ".join(c.split()) for c in part.columns]
    if len(set(columns)) == 1 and (not names_a_visit(columns[0]) or not _heads_a_visit(head, columns[0])):
        # a group row spanning the grid ("Efficacy Assessments", "TREATMENT": a word that may
        # name a visit, but none of the head's), copied into every column
        return [list(part.columns)]
    if _marked_row(head, part.columns):
        return [list(part.columns)]
    tops = {c.split(" / ")[0] for c in columns}
    if len(tops) == 1 and " / " in columns[0]:  # a group row over the first row
        group = next(iter(tops))
        low = [c.split(" / ", 1)[1] if " / " in c else "" for c in columns]
        if _marked_row(head, low):
            return [[group] + [""] * (len(columns) - 1), low]
    return None


def _marked_row(head: Table, cells: list[str]) -> bool:
    """A header row that reads as a body row: marks in most of its visit cells, or marks and no
    visit named, or a label and no visit cell filled (the head's notes column aside)."""
    visits = [c for k, c in enumerate(cells[1:], start=1) if not names_notes_column(head.columns[k])]
    filled = [c for c in visits if c.strip()]
    if not filled:
        return bool(cells[0].strip()) and len(visits) >= 2
    marks = sum(is_mark(c) for c in filled)
    # marks in most header cells: no visit is named so, whatever the other cells say ("Day 1"
    # as a mark in words, a comment with a number in it)
    return marks * 2 > len(filled) or marks >= 1 and not any(names_a_visit(c) for c in filled if not is_mark(c))


def _heads_a_visit(head: Table, text: str) -> bool:
    """The text is a part of one of the head's visit headers."""
    key = _key(text)
    return any(key == _key(p) for c in head.columns[1:] for p in c.split(" / "))


def _join_repeated_headers(candidates):
    """((section, table, notes, named, later parts), ids of parts printed with no header): a table
    followed, in document order, by tables repeating its visit header with no caption of their own
    (or the same caption, or a "continued" one) is one schedule split over pages; the parts are
    read with it. A part whose header row is a body row (marks under the visits) is one too: that
    row goes back to its body (in place)."""
    out = []
    headerless: set[int] = set()
    for section, table, notes, named in candidates:
        if out:
            head = out[-1]
            last = (head[4] or [head[1]])[-1]
            caption = " ".join(table.title.split())
            own = (
                not caption
                or caption == " ".join(head[1].title.split())
                or re.search(r"\bcont(?:inued|'d|\.)", caption, re.I)
            )
            near = (
                table.page is not None
                and last.page is not None
                and 0 <= table.page - (last.pages[-1] or last.page) <= 1
            )
            rows = _header_as_rows(head[1], table) if own and near else None
            lifted = rows is not None
            if lifted:
                # The next page's rows printed with no header: the table stage lifted its first
                # row (or two) into the header (they go back to the body, under the first part's
                # header), or left the header empty, as the first part's when its header band
                # is in its rows.
                if any(c.strip() for c in table.columns):
                    table.data = rows + table.data
                table.columns = list(head[1].columns)
                headerless.add(id(table))
            if lifted or own and near and _same_header(head[1], table):
                head[4].append(table)
                continue
        out.append((section, table, notes, named, []))
    return out, headerless


def by_shape(table: Table, columns: int = MIN_SHAPE_COLUMNS, least: int = MIN_SHAPE_MARKS) -> bool:
    """A label column and at least ``MIN_SHAPE_COLUMNS`` columns of cells that are mostly
    marks, at least half of them headed as visits (``header.names_a_visit``)."""
    label = label_column(table)
    if len(table.columns) - label - 1 < columns or len(table.data) < 2:
        return False
    headers = table.columns[label + 1 :]
    if 2 * sum(names_a_visit(h) for h in headers) < len(headers):
        return False
    cells = [r[k].strip() for r in table.data for k in range(label + 1, len(r)) if r[k].strip()]
    marks = sum(is_mark(c) for c in cells)
    return marks >= least and marks >= MIN_SHAPE_SHARE * len(cells)


def _choose_main(found: list[tuple[Table, bool, bool]]) -> None:
    """The main timeline: among the schedules named as one, those whose caption names no
    narrower kind (sampling, extension, follow-up) first, the one with the most marks (of
    equals, the one in the numbered tree). Every other schedule keeps its kind, or is "other"."""
    if not found:
        return
    ranked = [f for f in found if f[1]] or found
    ranked = [f for f in ranked if f[0].schedule["kind"] is None] or ranked
    # the most marks; of equals (a synopsis copy), the one in the numbered tree, then the first
    main = max(ranked, key=lambda f: (len(f[0].schedule["marks"]), f[2]))[0]
    main.schedule["main"] = True
    for table, _, _ in found:
        schedule = table.schedule
        schedule["kind"] = "main" if schedule["main"] else schedule["kind"] or "other"


def _sections(nodes: Iterable[Section]):
    for node in nodes:
        yield from node.walk()


def _notes_after_tables(section: Section) -> list[str]:
    """For each table of the section, the section text after its placeholder, where its
    footnotes are printed (after the table, or after the last of its parts)."""
    starts = [m.end() for m in re.finditer(r"^\[Table\b[^\n]*\]$", section.text, flags=re.M)]
    notes = [section.text[at:] for at in starts]
    return notes + [""] * (len(section.tables) - len(notes))
