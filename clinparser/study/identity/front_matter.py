"""Which text of a protocol prints who the study is, read as lines: the title page, the front
matter, the running headers, the synopsis and the rest of the body.

Where a protocol prints who it is:

* the title page (the first front-matter node of ``non_toc``, and the front-matter nodes printed
  on its pages): the official title, often labelled ("Protocol Title:", "Official Title:",
  "Title:"), the short title and acronym, the identifiers, the phase and the sponsor;
* the running headers and footers (``blocks`` dropped as "furniture"), which usually repeat the
  sponsor's protocol number;
* the synopsis (a section titled like "Synopsis", "Protocol Summary"), whose labelled lines repeat
  the identifiers and the phase;
* identifier-labelled lines ("EudraCT Number: ...", "Protocol No.: ...") anywhere else, outside
  amendment histories, change summaries and reference lists.

Each zone is a list of ``Line``: one printed line (or table row, or labelled field cut out of a
line that runs several together) with the pages it can stand on. The readers of titles,
identifiers, phase and sponsor (``titles``, ``identifiers``, ``phase``, ``sponsor``) choose which
zones they trust.
"""

from __future__ import annotations

import re
from typing import Iterable, Optional

from ...document_types import Document
from ...shared.markup import strip_markup
from ...shared.pipe_tables import is_table_row, row_cells
from ..trace import Tracer

# --------------------------------------------------------------------------------------------
# Sections
# --------------------------------------------------------------------------------------------

_TOC_LINE = re.compile(r"(?:\.{4,}|·{3,}|…{2,}|_{4,}|(?:\.\s){4,})\s*\d+\s*$")

_NOT_FRONT = re.compile(
    r"contents|history|change|revision|amendment|abbreviation|glossary|definition|"
    r"list of (?:tables|figures)|signature|agreement|approval|acceptance|contact|"
    r"references?\b|bibliograph|literature",
    re.I,
)
_HISTORY = re.compile(
    r"history|summary of (?:the )?changes|changes?\b|revision|amendment|modification|"
    r"reference|bibliograph|literature|publication",
    re.I,
)
_SYNOPSIS = re.compile(r"synopsis|(?:protocol|study|trial|clinical)\s+summary|summary of (?:the )?protocol", re.I)
# A labelled line: "Label: value".
LABEL_LINE = re.compile(r"^([A-Z][A-Za-z0-9 /&().'’#-]{0,60}?)\s*:\s*(.*)$")

# --------------------------------------------------------------------------------------------
# Lines
# --------------------------------------------------------------------------------------------


class Line:
    __slots__ = ("text", "raw", "first", "last", "zone", "node", "heading")

    def __init__(self, text, raw, first, last, zone, node, heading=False):
        self.text, self.raw, self.first, self.last = text, raw, first, last
        self.zone, self.node, self.heading = zone, node, heading


def _cells(line: str) -> list[str]:
    return [c for c in (x.strip() for x in row_cells(line)) if c and not re.fullmatch(r":?-{3,}:?", c)]


def _plain(raw: str) -> str:
    raw = re.sub(r"<br\s*/?>", " ", raw)
    return strip_markup(raw)


_INNER_LABEL = re.compile(
    r"(?<=\S)\s+(?=(?:(?:official|short|brief)\s+)?(?:protocol\s+|study\s+|trial\s+)?title\s*:|"
    r"(?:sponsor\s+)?(?:protocol|study|trial)\s+(?:number|no\.?|id)\s*:|version(?:\s+number)?\s*:|"
    r"eudract(?:\s+number|\s+no\.?)?\s*:|eu\s*ct(?:\s+number)?\s*:|ind(?:\s+number|\s+no\.?)?\s*:|"
    r"nct(?:\s+number)?\s*:|test\s+product\s*:|medical\s+monitor\s*:|(?:clinical\s+)?(?:study\s+)?sponsor(?:\s+name)?\s*:|"
    r"approval\s+date\s*:|(?:study\s+|trial\s+|clinical\s+)?phase\s*:|compound\s*:|acronym\s*:|"
    r"amendment\s+number\s*:|(?:document\s+)?date\s*:)",
    re.I,
)


def _split_labels(text: str) -> list[str]:
    """A line that prints several labelled fields in a row ("TITLE: ... PROTOCOL NUMBER: X
    VERSION NUMBER: 3 ...") cut before each label (labels start with a capital)."""
    cuts = [m.end() for m in _INNER_LABEL.finditer(text) if text[m.end()].isupper()]
    if len(cuts) < 1 or not _INNER_LABEL.search(" " + text[:40]) and len(cuts) < 2:
        return [text]
    out, start = [], 0
    for c in cuts:
        if ":" not in text[start:c]:
            continue  # "Short Title:": the word before the label is part of it
        out.append(text[start:c].strip())
        start = c
    out.append(text[start:].strip())
    return [x for x in out if x]


def _node_pages(node: dict) -> tuple[Optional[int], Optional[int]]:
    pages = node.get("pages") or []
    pages = [p for p in pages if isinstance(p, int)]
    return (pages[0], pages[-1]) if pages else (None, None)


def _row_lines(cells: list[str]) -> list[str]:
    """Lines of one table row: the label-value pair ("Label: value") and each cell."""
    cells = [" ".join(c.split()) for c in cells if c and c.strip()]
    out = []
    if len(cells) >= 2:
        label = cells[0]
        out.append(label + (" " if label.endswith(":") else ": ") + cells[1])
    out.extend(cells if len(cells) != 1 else [])
    if len(cells) == 1:
        out.append(cells[0])
    return out


def _node_lines(node: dict, zone: str) -> list[Line]:
    first, last = _node_pages(node)
    out: list[Line] = []
    title = node.get("title") or ""
    text_lines = [x for x in (node.get("text") or "").split("\n") if x.strip()]
    opening = _plain(text_lines[0]) if text_lines else ""
    if opening and _plain(title)[:60].lower() in opening.lower():
        title = ""  # the heading is printed again, whole, as the text's first line
    if title.strip():
        if is_table_row(title):
            for t in _row_lines([_plain(c) for c in _cells(title)]):
                out.append(Line(t, title, first, last, zone, node, True))
        else:
            out.append(Line(_plain(title), title, first, last, zone, node, True))
    tables = list(node.get("tables") or [])
    for raw in (node.get("text") or "").split("\n"):
        if not raw.strip():
            continue
        if raw.strip() == "[Table]":
            if tables:
                out.extend(_table_lines(tables.pop(0), zone, node, first, last))
            continue
        if is_table_row(raw):
            for t in _row_lines([_plain(c) for c in _cells(raw)]):
                if not _TOC_LINE.search(t):
                    out.append(Line(t, raw, first, last, zone, node))
            continue
        text = _plain(raw)
        if text and not _TOC_LINE.search(text):
            for part in _split_labels(text):
                out.append(Line(part, raw, first, last, zone, node, raw.lstrip().startswith("#")))
    for table in tables:
        out.extend(_table_lines(table, zone, node, first, last))
    return out


def _table_lines(table: dict, zone: str, node: dict, first, last) -> list[Line]:
    out = []
    page = table.get("page") if isinstance(table.get("page"), int) else first
    rows = [table.get("columns") or []] + list(table.get("data") or [])
    for row in rows:
        cells = [_plain(str(c or "").replace("\n", " ")) for c in row]
        for t in _row_lines(cells):
            if not _TOC_LINE.search(t):
                out.append(Line(t, " | ".join(str(c or "") for c in row), page, page, zone, node))
    return out


def _walk(nodes: Iterable[dict], ancestors: tuple = ()):
    for node in nodes or []:
        yield node, ancestors
        yield from _walk(node.get("subsections") or [], ancestors + (node,))


def norm(s: str) -> str:
    """Letters and digits only, upper-cased: how two printings of one text are compared."""
    return re.sub(r"[^A-Z0-9]", "", (s or "").upper())


# A line ending in one of these words (or a hyphen or comma) is cut mid-phrase: the value goes on.
_RUNS_ON = {
    "of",
    "and",
    "in",
    "with",
    "the",
    "for",
    "to",
    "a",
    "an",
    "on",
    "by",
    "at",
    "from",
    "or",
    "versus",
    "vs",
    "vs.",
    "into",
    "among",
    "between",
    "after",
    "during",
    "within",
    "without",
}


def _runs_on(text: str) -> bool:
    words = text.rstrip().split()
    return bool(words) and (words[-1].endswith(("-", ",")) or words[-1].lower() in _RUNS_ON)


_ACRONYM = re.compile(r"^[A-Z][A-Z0-9-]{2,}$")


def _acronym_led(label: re.Match) -> bool:
    """Is a line read as "label: value" a study's acronym and its long title ("KONFIDENT: A
    Randomized, Double-Blind ...")? A label names a field in words; an acronym is one
    upper-case word, and what follows it is a sentence, not a field's short value."""
    return bool(_ACRONYM.match(label.group(1))) and len(label.group(2).split()) >= 6


def value_after(lines: list[Line], i: int, inline: str) -> tuple[str, Line]:
    """The value of the label on line ``i``: its inline text, else the following lines up to
    the next label."""
    if inline.strip():
        return inline.strip(), lines[i]
    parts, first = [], None
    for line in lines[i + 1 : i + 6]:
        label = LABEL_LINE.match(line.text)
        if label and not parts and _acronym_led(label):
            label = None  # "ARCHES: A Multinational, Phase 3 ..." under "Title of Study:" is its value
        if label and parts:
            break
        if label and not parts:
            return "", lines[i]
        parts.append(line.text)
        first = first or line
        if len(" ".join(parts).split()) >= 8 and not _runs_on(line.text):
            # a paragraph line: stop unless the next line continues it (lower-case start)
            nxt = lines[lines.index(line) + 1].text if lines.index(line) + 1 < len(lines) else ""
            if not nxt or not nxt[:1].islower():
                break
    return " ".join(parts).strip(), first or lines[i]


# --------------------------------------------------------------------------------------------
# Zones
# --------------------------------------------------------------------------------------------


def _front_nodes(toc: list[dict], non_toc: list[dict]) -> list[dict]:
    """The nodes outside the outline printed before the body starts; without any, the first
    section (the text before section 1 sits in it)."""
    body_pages = [p for n in toc for p in [_node_pages(n)[0]] if p is not None]
    body_start = min(body_pages) if body_pages else None
    front = []
    for node in non_toc:
        p = _node_pages(node)[0]
        if body_start is not None and p is not None and p >= body_start:
            continue
        front.append(node)
    if not front and toc:
        front = [toc[0]]
    return front


class FrontMatter:
    """The document's text in zones of lines: ``title_lines``, ``front_lines``,
    ``synopsis_lines``, ``labelled_lines`` (the rest of the body, outside histories and
    references) and ``header_lines`` (running headers and footers)."""

    def __init__(self, document: Document, blocks: list[dict]):
        self.document = document or {}
        self.blocks = [b for b in (blocks or []) if isinstance(b, dict)]
        self.tracer = Tracer(self.blocks)
        self.title_lines: list[Line] = []
        self.front_lines: list[Line] = []
        self.synopsis_lines: list[Line] = []
        self.labelled_lines: list[Line] = []
        self.header_lines: list[Line] = []
        self._zones()

    # ---- zones ------------------------------------------------------------------------------

    def _zones(self) -> None:
        toc = self.document.get("toc") or []
        non_toc = self.document.get("non_toc") or []
        front = _front_nodes(toc, non_toc)
        self._read_front(front, toc)
        self._read_pictures()
        self._read_body(toc + non_toc, front)
        self._read_headers()

    def _read_front(self, front: list[dict], toc: list[dict]) -> None:
        """The title page (the first front node and those printed on its pages), and the rest
        of the front matter but its contents, histories, glossaries and signature pages."""
        title_node = front[0] if front else None
        title_last = _node_pages(title_node)[1] if title_node else None
        for i, node in enumerate(front):
            first, _ = _node_pages(node)
            title = strip_markup(node.get("title") or "")
            on_title_pages = i == 0 or (title_last is not None and first is not None and first <= title_last)
            if i > 0 and (
                re.search(r"contents|history|change|revision", title, re.I)
                or (_NOT_FRONT.search(title) and not on_title_pages)
            ):
                continue
            zone = "title page" if on_title_pages else "front matter"
            lines = _node_lines(node, zone)
            if i == 0 and node is not None and front and node in toc:
                lines = lines[:60]
            (self.title_lines if zone == "title page" else self.front_lines).extend(lines)

    def _read_pictures(self) -> None:
        """Text read off pictures on the title pages (a title page set as an image) is in the
        blocks only ("[Image]" in the section text)."""
        title_pages = {line.first for line in self.title_lines if isinstance(line.first, int)}
        title_pages |= {line.last for line in self.title_lines if isinstance(line.last, int)}
        if not title_pages:
            return
        lo, hi = min(title_pages), max(title_pages)
        for block in self.blocks:
            text = block.get("text") or ""
            page = block.get("page")
            if block.get("dropped") or "picture text" not in text or not isinstance(page, int) or not lo <= page <= hi:
                continue
            for raw in re.split(r"<br\s*/?>|\n", re.sub(r"<!--.*?-->", "\n", text)):
                t = _plain(raw)
                if t:
                    self.title_lines.append(Line(t, raw, page, page, "title page", None))

    def _read_body(self, nodes: list[dict], front: list[dict]) -> None:
        """The synopsis, whole; every other node outside the front matter, amendment histories
        and reference lists, as lines that count only where a label names an identifier."""
        for node, ancestors in _walk(nodes):
            title = strip_markup(node.get("title") or "")
            chain = [strip_markup(a.get("title") or "") for a in ancestors] + [title]
            if any(_SYNOPSIS.search(t) and not re.search(r"change|amendment", t, re.I) for t in chain):
                self.synopsis_lines.extend(_node_lines(node, "synopsis"))
                continue
            if id(node) in {id(n) for n in front}:
                continue
            if any(_HISTORY.search(t) for t in chain):
                continue
            self.labelled_lines.extend(_node_lines(node, "labelled line"))

    def _read_headers(self) -> None:
        """The running headers and footers: the blocks dropped as page furniture."""
        for block in self.blocks:
            if block.get("dropped") != "furniture":
                continue
            page = block.get("page")
            for raw in (block.get("text") or "").split("\n"):
                if is_table_row(raw):
                    cells = [_plain(c) for c in _cells(raw)]
                    texts = _row_lines(cells) + [" ".join(cells)]
                else:
                    texts = [_plain(raw)]
                for t in texts:
                    if t:
                        self.header_lines.append(Line(t, raw, page, page, "header", None))

    # ---- pages ------------------------------------------------------------------------------

    def page_of(self, line: Line, text: str) -> Optional[int]:
        if line.zone == "header" or line.first is None or line.first == line.last:
            return line.first
        for probe in (line.text, text):
            found = self.tracer.trace(probe, line.first, line.last)["pages"]
            if found:
                return found[0]
        return line.first
