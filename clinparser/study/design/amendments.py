"""The amendment history: each amendment's number, date and summary of changes.

Printed as a table of the document's versions ("Document | Date", "Protocol Version | Issue
Date", "Version Number | Version Date"; a summary column sometimes), or as lines of the title
page ("Amendment 2: 14 March 2021"). A row or line naming an amendment ("Amendment 3", "Amendment
INT-1", "3475-063-02") is one; in a table of versions that names no amendment, each version after
the first ("Version 2.0") is one. The original protocol, administrative changes and letters
are not amendments (one "not implemented" is still one: it was numbered and issued); a country's re-issue of one
("Amendment 3 (JP 01)") is the same amendment.
"""

from __future__ import annotations

import datetime
import re
from typing import Optional

from ...document_types import Document
from ...shared.markup import strip_markup
from ..criteria import section_pages
from ..trace import Tracer
from .fields import Field
from .items import item

_HISTORY_TABLE = re.compile(r"\b(?:document|protocol|version|amendment|revision)s?\b", re.I)
_DATE_HEADER = re.compile(r"\bdate\b|\bissued?\b|\beffective\b|\bapproval\b|\bfinal\b", re.I)
_AMENDMENT = re.compile(
    r"\bamendment\s*(?:no\.?|number|#|-)?\s*:?\s*(?P<number>(?:[A-Z]{2,4}-)?\d+(?:\.\d+)*)"
    # a lettered amendment as a heading of its own ("Amendment (a)")
    r"|^\W*(?:protocol\s+)?amendment\s+\((?P<letter>[a-z])\)\W*$",
    re.I,
)
_CODED = re.compile(r"^\s*(?:[A-Z]{0,4}-?\d{3,5}-\d{2,3}-)(?P<number>\d{2})\b")  # "3475-063-02"
_VERSION = re.compile(
    r"\bversion\s*(?:no\.?|number)?\s*:?\s*(?P<number>\d+(?:\.\d+)*)|^\s*(?P<bare>\d+\.\d+)\s*$", re.I
)
_NOT_AMENDMENT = re.compile(r"\boriginal\b|\badministrative\b|\bletter\b|\bclarification\s+memo", re.I)
_COUNTRY = re.compile(r"\((?:[A-Z]{2}\s*\d+)\)|\b(?:JP|ES|FR|DE|UK|US|CN|KR)\s*\d{2}\b")
_DATE = re.compile(
    r"\b\d{1,2}[\s-](?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*[\s-]\d{4}\b"
    r"|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2},?\s+\d{4}\b"
    r"|\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}[A-Z][a-z]{2}\d{4}\b"
    r"|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{4}\b"
    r"|\b\d{1,2}/\d{1,2}/\d{4}\b",
    re.I,
)  # "July 2020": no day; "07/14/2010", "10/2/2015": numbers, read by the document's own order
_NUMERIC_DATE = re.compile(r"\b(\d{1,2})/(\d{1,2})/(\d{4})\b")
_MONTHS = {
    m: i for i, m in enumerate(["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"], 1)
}


def read_amendments(document: Document, tracer: Tracer) -> list[dict]:
    """Every amendment the history tables, the front and back matter's lines and headings
    ("Protocol amendment 2: (UK, 15 March 2018)", the title page's "Protocol Amendment 7": the
    document's own, which its history table often leaves out; or the running header's, where
    only the header names it) or a dated version list name, each number once, the table's row
    first."""
    found: dict[str, dict] = {}
    named = False  # some place names amendments ("Amendment 2"), not only versions
    lines = list(_matter_lines(document))
    day_first = _day_first([line for _, line in lines] + _table_texts(document))

    def date_of(text: str) -> Optional[str]:
        return iso_date(text, day_first)

    def add(number: str, label: str, text: str, section: dict, kind: str, date: Optional[str]) -> None:
        where = Field(label, text, section.get("number") or section.get("title"), section_pages(section), True, kind)
        key = _key(number)
        if key not in found or (date and not found[key]["date"]):  # the same one again, dated this time
            found[key] = item(tracer, where, text, number=number, date=date, summary=None)

    for section, ancestors in _all_sections(document):
        for table in section.get("tables") or []:
            rows, by_name = _table_amendments(table)
            named |= by_name
            for number, row_text, dated in rows:
                add(number, "history", row_text, section, "table", date_of(dated))
            for number, text, date in _box_amendments(table):
                named = True
                add(number, "amendment box", text, section, "table", date_of(date))
    for section, _ in _all_sections(document):
        for number, text, date in _box_lines(section.get("text") or ""):
            named = True
            add(number, "amendment box", text, section, "paragraph", date_of(date))
    for section, line in lines:
        m = _AMENDMENT.search(line)
        if m and not _NOT_AMENDMENT.search(line) and len(line) < 200:
            named = True
            kind = _KIND.search(line[: m.end()])
            # two series numbered apart ("Substantial Amendment 1", "Nonsubstantial Amendment 1")
            plain = _plain(_number_of(m))
            number = f"{kind['kind'].capitalize()} Amendment {plain}" if kind else plain
            # "Updated protocol including amendment no. 4 (DE), 5 (UK) and 6, Version 4.0, 29 March
            # 2019": the date of the version that takes several in, none of theirs
            date = None if _takes_several(line, m.end()) else date_of(line[m.start() :]) or date_of(line)
            add(number, "title page", line, section, "paragraph", date)
    for block in tracer.running_lines():
        m = _OWN_AMENDMENT.search(block.get("text") or "")
        if m and not _NOT_AMENDMENT.search(block["text"]) and _key(_plain(m["number"])) not in found:
            named = True  # the document's own amendment, printed only in its running header
            found[_key(_plain(m["number"]))] = {
                "number": _plain(m["number"]),
                "date": date_of(block["text"]),
                "summary": None,
                "pages": [block["page"]],  # traced to the header itself: the text holds it nowhere
                "boxes": [{"page": block["page"], "bbox": block.get("bbox")}],
                "section": None,
                "printed": " ".join(block["text"].split()),
            }
    if not found:
        for section, line, number in _version_list(lines):
            add(number, "version list", line, section, "paragraph", date_of(line))
    if not named:
        for section, line, number, date in _own_versions(document, lines):
            add(number, "title page", line, section, "paragraph", date_of(date))
    return [found[k] for k in sorted(found, key=_order)]


# "M15-555 Protocol Amendment 7 EudraCT ...", "Clinical Study Protocol Amendment 04 (JP 05)": what
# the document is, in its running header (not "Incorporating Amendment 6", another's)
_OWN_AMENDMENT = re.compile(
    r"(?<!incorporating\s)\bprotocol\s+amendment\s*(?:no\.?|number)?\s*:?\s*(?P<number>\d+(?:\.\d+)*)\b", re.I
)


def _key(number: str) -> str:
    """One amendment however its number is printed: "3", "03", "3.0" and "Version 3" alike; a
    series named before it ("Nonsubstantial Amendment 1") apart from another."""
    m = re.search(r"\d+(?:\.\d+)*", number)
    if not m:
        return number.strip().lower()
    kind = _KIND.match(number)
    return (kind["kind"].lower().replace("-", "") + " " if kind else "") + (
        re.sub(r"(?:\.0+)+$", "", m.group(0)).lstrip("0") or "0"
    )


# the series an amendment's number counts in, printed before "Amendment"
_KIND = re.compile(r"\b(?P<kind>(?:non-?)?substantial)\s+amendment\b", re.I)


# A labelled box per amendment: "Number of global amendment | 2", "Amendment No. | 3"
_BOX_LABEL = (
    r"(?:number\s+of\s+(?:(?:global|local|protocol)\s+)?amendment|"
    r"(?:(?:global|local|protocol)\s+)?amendment\s+(?:number|no\.?|#))"
)
_BOX_NUMBER = re.compile(rf"^{_BOX_LABEL}\s*:?$", re.I)


def _box_amendments(table: dict) -> list[tuple[str, str, str]]:
    """(number, the box's number and date text, its date text) of each amendment described by
    a table of labelled rows where the number is a field's value ("Number of global amendment |
    2", then "Date of CTP revision | 9 January 2015"); boxes printed one after another may
    have been joined into one table, so every number row starts a box."""
    rows = [table.get("columns") or []] + (table.get("data") or [])
    boxes: list[list] = []
    current: list[list] = []  # the boxes of the last number row: boxes set side by side share its rows
    for row in rows:
        cells = [" ".join(str(c).split()) for c in row if str(c).strip()]
        if len(cells) < 2:
            continue
        label, values = cells[0].strip(" *_:"), cells[1:]
        if _BOX_NUMBER.match(label) and all(re.fullmatch(r"\d+(?:\.\d+)*", v) for v in values):
            current = [[v, ""] for v in values]
            boxes += current
        elif current and re.search(r"\bdate\b", label, re.I):
            for box, value in zip(current, values if len(values) == len(current) else values[-1:]):
                if not box[1] and _DATE.search(value):
                    box[1] = value
    return [(_plain(number), f"Amendment {number} {date}".strip(), date) for number, date in boxes]


_BOX_LINE = re.compile(rf"^{_BOX_LABEL}\s*:?\s*(?P<number>\d+(?:\.\d+)*)$", re.I)  # the box's rows as text lines


def _box_lines(text: str) -> list[tuple[str, str, str]]:
    """The same boxes when their ruling was not seen and their rows are lines of text ("Amendment
    No. 01", then "Date of amendment 12 December 2023")."""
    lines = [strip_markup(x) for x in text.split("\n")]
    out = []
    for k, line in enumerate(lines):
        m = _BOX_LINE.match(line)
        if not m:
            continue
        date = next(
            (x for x in lines[k + 1 : k + 4] if re.match(r"(?:\w+\s+){0,3}date\b", x, re.I) and _DATE.search(x)), ""
        )
        out.append((_plain(m["number"]), " ".join(filter(None, [line, date])), date))
    return out


# The title page's own version ("Version Number: 3", "Version: 3.0, 08 March 2022") at a line's start
_OWN_VERSION = re.compile(
    r"^\W*(?:protocol\s+)?version(?:\s+(?:number|no\.?))?\W*?\s*:?\s*\**\s*(?P<number>\d+(?:\.\d+)*)\b", re.I
)
# an earlier version named in prose ("... was included in Version 2 of the protocol")
_EARLIER_VERSION = re.compile(r"\bversion\s+(?P<number>\d+(?:\.\d+)*)\s+of\s+the\s+protocol\b", re.I)


def _own_versions(document: Document, lines: list[tuple[dict, str]]) -> list[tuple[dict, str, str, str]]:
    """(section, line, number, where its date is) of the document's own version as its title page
    prints it, when nothing names an amendment: the amendment the document is (the original is
    version 1), dated by its own line or the title page's one "Date" line; and of a version
    before it that the front or back matter names in prose (no date)."""
    title_page = (document.get("non_toc") or [None])[0]
    own = None
    # a title page set as a table
    rows = [(title_page, text) for table in (title_page or {}).get("tables") or [] for text in _rows_of(table)]
    # the title page's lines (its table rows among them, cells kept apart by " | ") and rows
    on_title_page = [(s, " ".join(strip_markup(x).replace(" | ", " ").split())) for s, x in lines if s is title_page]
    on_title_page += [(s, strip_markup(x)) for s, x in rows]
    for section, line in on_title_page:
        m = _OWN_VERSION.match(line)
        if (
            m and len(line) < 80 and not re.match(r"\s+of\b", line[m.end() :])
        ):  # a label, not "Version 2 of the protocol was ..."
            own = (section, line, m["number"])
            break
    if not own or _is_original(own[2]):
        return []
    dates = {x for _, x in on_title_page if re.match(r"(?:\w+\s+){0,2}date\b", x, re.I) and _DATE.search(x)}
    date = own[1] if _DATE.search(own[1]) else (dates.pop() if len(dates) == 1 else "")
    out = [(*own, date)]
    for section, line in lines:
        for m in _EARLIER_VERSION.finditer(line):
            if not _is_original(m["number"]) and _order(m["number"]) < _order(own[2]):
                out.append((section, m.group(0), m["number"], ""))
    return out


def _is_original(number: str) -> bool:
    return _order(number)[0] <= 1 and not any(_order(number)[1:])


def _matter_lines(document: Document):
    """(section, line) of the front and back matter: headings, and text lines cut where one
    line holds several bold-labelled fields ("**Original Protocol:** ... **Amendment 1:** ...")."""
    title_page = (document.get("non_toc") or [None])[0]
    for section, _ in _all_sections(document, outline=False):
        yield section, section.get("title") or ""
        # a title page set as a table (no history table, read as one above): each row a line,
        # its cells kept apart ("History: | Amendment 3: 28-Jan-2023 Amendment 2:<br>27-Jul-2022")
        rows = [
            text
            for table in (section.get("tables") or [] if section is title_page else [])
            if not _table_amendments(table)[0]
            for text in _rows_of(table, " | ")
        ]
        for line in (section.get("text") or "").split("\n") + rows:
            for piece in re.split(r"\*\*(?=[A-Z])", line):
                # a history run on in one line: "Version 1.0 [10Nov2015] Version 1.1 [FR]
                # Nonsubstantial Amendment 1 [21Apr2016] Version 2.0 ...": a piece a version
                for part in re.split(r"(?<=\])\s+(?=Version\s+\d)", piece):
                    # "Amendment 2.0: 21 Feb 2018 Amendment 1.0: 14 Dec 2017 Original Protocol:
                    # 27 Oct 2017", "Protocol Created 11/04/2008 ... Amendment-001 Expedited
                    # Approval 07/14/2010": each amendment (and the original) a line of its own
                    for entry in _HISTORY_ENTRY.split(part):
                        yield section, entry


_SEVERAL = re.compile(r"\s*(?:\([^)]*\))?\s*(?:,|and)\s*(?=\d)", re.I)


def _takes_several(text: str, end: int) -> bool:
    """Whether the amendment number ending at ``end`` is followed by another one ("no. 2 (UK)
    and 3"), not by its date ("Amendment 3, 12 March 2019")."""
    m = _SEVERAL.match(text, end)
    return bool(m) and not _DATE.match(text, m.end())


_HISTORY_ENTRY = re.compile(
    # only after an entry that ends in its date or number: "Administrative Amendment 1" stays whole
    r"(?<=[\d)\]])\s+(?=(?:(?:protocol\s+)?amendment\s*(?:no\.?\s*|#|-)?\s*\d|original\s+protocol\b))",
    re.I,
)

# "11 October 2022 (US Only), Version 3.1", "Version 2.0, 10 February 2022"
_DATED_VERSION = re.compile(r"\bversion\s*:?\s*(?P<number>\d+(?:\.\d+)*)\b", re.I)


def _version_list(lines: list[tuple[dict, str]]) -> list[tuple[dict, str, str]]:
    """A list of the protocol's dated versions, when nothing names an amendment: each version
    after the original (1.0) is one. Two versions at least, each printed beside a date."""
    out: list[tuple[dict, str, str]] = []
    for section, line in lines:
        if len(line) < 200 and _DATE.search(line):
            out += [(section, line, m["number"]) for m in _DATED_VERSION.finditer(line)]
    if len({n for _, _, n in out}) < 2:
        return []
    return [(s, line, n) for s, line, n in out if not _is_original(n)]


def _all_sections(document: Document, outline: bool = True):
    def walk(nodes, ancestors):
        for node in nodes:
            yield node, ancestors
            yield from walk(node.get("subsections") or [], ancestors + [node])

    yield from walk(document.get("non_toc") or [], [])
    if outline:
        yield from walk(document.get("toc") or [], [])


def _table_amendments(table: dict) -> tuple[list[tuple[str, str, str]], bool]:
    """(number, the row's text, its cells after the first: where its date is, since "Amendment 1"
    before "December 2018" would read as 1 December) of each amendment of a history table, and
    whether the table names amendments (rather than listing versions)."""
    columns = [" ".join(str(c).split()) for c in table.get("columns") or []]
    rows = [[" ".join(str(c).replace("<br>", " ").split()) for c in r] for r in table.get("data") or []]
    if len(columns) < 2 or not (
        _HISTORY_TABLE.search(columns[0])
        and any(_DATE_HEADER.search(c) for c in columns[1:])
        or any(_DATE.search(c) for r in rows[:3] for c in r[1:2])
        and any(_AMENDMENT.search(r[0]) or _VERSION.search(r[0]) for r in rows[:4] if r)
    ):
        return [], False
    everything = [columns] + rows  # a history continued on a later page has a row for its header
    named = any(_AMENDMENT.search(r[0]) or _CODED.match(r[0]) for r in everything if r) or bool(
        re.search(r"\bamendment", columns[0], re.I)
    )
    out = []
    for row in everything:
        if not row or _NOT_AMENDMENT.search(row[0]) or not any(_DATE.search(c) for c in row[1:]):
            continue
        first = _COUNTRY.sub("", row[0])
        m = _AMENDMENT.search(first) or _CODED.match(first)
        bare = re.fullmatch(r"\s*(\d+(?:\.\d+)*)\s*", first) if re.search(r"\bamendment", columns[0], re.I) else None
        if m:
            number = _plain(_number_of(m))
        elif bare:  # under an "Amendment" column header: "1", "2"
            number = _plain(bare.group(1))
        elif not named:
            v = _VERSION.search(first)
            # under a "Version" column header a bare "2" is a version too
            v_bare = (
                re.fullmatch(r"\s*(\d+(?:\.\d+)*)\s*", first) if re.search(r"\bversion", columns[0], re.I) else None
            )
            number = _plain(v["number"] or v["bare"]) if v else _plain(v_bare.group(1)) if v_bare else None
            if number is not None and _is_original(number):
                continue  # version 1.0: the original protocol
        else:
            number = None
        if number and number != "0":  # "...-00": the original protocol
            # a row taking in several ("Updated protocol including amendment no. 2 (UK) and 3"):
            # its date is the version's, none of theirs
            dated = "" if m and _takes_several(first, m.end()) else " ".join(row[1:])
            out.append((number, " ".join(c for c in row if c), dated))
    return out, named


def _number_of(m: re.Match) -> str:
    """An amendment's number as printed, or its letter ("Amendment (a)")."""
    return m["number"] or m.groupdict().get("letter") or ""


def _rows_of(table: dict, joiner: str = " ") -> list[str]:
    """Each row of a table (its header row first) as one line, its cells joined by ``joiner``
    (a cell's line breaks, "<br>", as spaces)."""
    return [
        joiner.join(" ".join(str(c).replace("<br>", " ").split()) for c in row)
        for row in [table.get("columns") or []] + (table.get("data") or [])
    ]


def _table_texts(document: Document) -> list[str]:
    return [
        text
        for section, _ in _all_sections(document)
        for table in section.get("tables") or []
        for text in _rows_of(table)
    ]


def _day_first(texts: list[str]) -> Optional[bool]:
    """The order of the document's numeric dates: day first where one of them has its first
    number above 12 ("14/07/2010"), month first where one has its second above 12
    ("07/14/2010"); unknown (None) when none tells or they disagree."""
    seen = {
        int(m[1]) > 12 for text in texts for m in _NUMERIC_DATE.finditer(text) if (int(m[1]) > 12) != (int(m[2]) > 12)
    }
    return seen.pop() if len(seen) == 1 else None


def _plain(number: str) -> str:
    """ "02" -> "2", "2.0" -> "2.0" kept (a version number as printed)."""
    return number.lstrip("0") or "0" if number.isdigit() else number


def _order(number: str) -> tuple:
    return tuple(int(p) if p.isdigit() else 0 for p in re.findall(r"\d+", number)) or (0,)


def iso_date(text: str, day_first: Optional[bool] = None) -> Optional[str]:
    """The first date in the text as YYYY-MM-DD, or None. A numeric date ("10/2/2015") is read
    in the document's order (``day_first``); where neither number is above 12 and the order is
    unknown, it is no date."""
    m = _DATE.search(text)
    if not m:
        return None
    raw = m.group(0)
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", raw):
        return raw
    numeric = _NUMERIC_DATE.fullmatch(raw)
    if numeric:
        first, second, year = (int(x) for x in numeric.groups())
        if first > 12 or (day_first and second <= 12):
            day, month = first, second
        elif second > 12 or day_first is False:
            day, month = second, first
        else:
            return None
        return _valid(year, month, day)
    parts = re.findall(r"[A-Za-z]+|\d+", raw)
    month = next((_MONTHS.get(p[:3].lower()) for p in parts if p.isalpha()), None)
    numbers = [int(p) for p in parts if p.isdigit()]
    year = next((n for n in numbers if n > 1900), None)
    day = next((n for n in numbers if n <= 31), None)
    if not (month and year and day):
        return None
    return _valid(year, month, day)


def _valid(year: int, month: int, day: int) -> Optional[str]:
    """YYYY-MM-DD of a date that exists ("31/02/2020" does not)."""
    try:
        return datetime.date(year, month, day).isoformat()
    except ValueError:
        return None
