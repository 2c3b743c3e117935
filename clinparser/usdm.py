"""Export the section tree as CDISC USDM v4.0 narrative content.

``to_usdm(result)`` maps a parse result (``{"toc", "non_toc", "metadata"}``) to the USDM v4.0
classes that carry a protocol's narrative:

- one ``NarrativeContent`` per section node: the skeleton (number, title, ``childIds`` for the
  tree, ``previousId``/``nextId`` for document order, ``contentItemId`` for the text);
- one ``NarrativeContentItem`` per section node: the section's own text as an XHTML fragment
  (``<div xmlns="http://www.w3.org/1999/xhtml">…</div>``), its tables and figures put back where
  their placeholder lines (``[Table 2: …]``, ``[Figure 1: …]``) stood.

Where the objects live in USDM. ``NarrativeContent`` objects belong to
``StudyDefinitionDocumentVersion.contents``; in USDM v4 the ``NarrativeContentItem`` objects are
*not* nested under the document but held by ``StudyVersion.narrativeContentItems`` and referred to
by id (``NarrativeContent.contentItemId``), so the same item can be shared by several documents.
ClinParser knows nothing of the study (identifiers, titles, arms …) that a full ``Wrapper`` /
``Study`` / ``StudyVersion`` needs, so the export is the document version plus the item list,
ready to be dropped into a study's ``documentedBy[].versions[]`` and ``narrativeContentItems``::

    {"usdmVersion": "4.0.0", "systemName": "ClinParser", "systemVersion": "0.1.0",
     "source": "protocol.pdf",
     "studyDefinitionDocumentVersion": {"id": ..., "version": "1", "status": {Code},
                                        "contents": [NarrativeContent...], ...},
     "narrativeContentItems": [NarrativeContentItem...]}

The top-level ``usdmVersion``/``systemName``/``systemVersion`` are the fields of USDM's
``Wrapper``; ``source`` is the parsed file's name. Each object validates against the ``*-Input``
schemas of CDISC's USDM v4.0 OpenAPI document (``tests/test_usdm.py`` checks every one).

Decisions:

- **Unnumbered nodes** (``non_toc``: title page, printed table of contents, signature pages …)
  are included (``include_non_toc=False`` leaves them out), with ``sectionNumber`` null and
  ``displaySectionNumber`` false: a protocol's narrative is the whole document, and a consumer
  can drop them by that flag. They are put where they stand in the document, by their first
  page, between the numbered top-level sections: front matter before section 1, back matter
  after the last section, and a printed table of contents that follows a numbered signature
  page (it happens) after that page. On a page shared with section 1 an unnumbered node goes
  first; on a page shared with a later section, after it. ``non_toc`` keeps its own order (it
  is in reading order), and a node whose page is unknown stays with the one before it.
- **Order and ids**: depth-first, parent before children (document order). Ids come from that
  position only: ``NarrativeContent_1`` … and ``NarrativeContentItem_1`` … (the n-th content
  points at the n-th item), so the same result always gives byte-identical JSON. ``name`` (of
  both) is the number and title as printed (``"5.1 Inclusion Criteria"``), ``sectionTitle``
  the title; ``displaySectionTitle`` is false only for a node without a title. Top-level
  sections are the contents no ``childIds`` names (USDM has no root list).
- **Status**: the document version is a ``Draft`` (``C85255``, CDISC CT, the decode USDM uses
  for an unapproved document version; code system ``http://www.cdisc.org``, CT package
  ``2023-12-15``): an extraction from a PDF is not an approved version of anything. ``version`` is ``"1"``: the protocol's own version string is not a field of the
  result. Both are parameters.
- **Text**: paragraphs → ``<p>`` (a single line break inside one → ``<br/>``), ``#`` headings →
  ``<h1>``–``<h6>``, ``**bold**`` → ``<b>``, ``*italic*``/``_italic_`` → ``<i>``, ``~~x~~`` →
  ``<del>``, `` `code` `` → ``<code>``, ``[text](url)`` → ``<a href>``, bullet and numbered lists
  (nested by indentation) → ``<ul>``/``<ol>`` (``start``/``value`` keep the printed numbers),
  pipe tables left in the text → ``<table>``. Everything else is text, escaped. Characters XML
  forbids (control characters) are dropped, so the fragment always parses.
- **Tables and figures**: a placeholder line is replaced by the node's table with that title
  (``[Table]`` → the next table not yet placed) as ``<table>`` with ``<caption>`` (when titled),
  ``<thead>`` (the columns) and ``<tbody>`` (the data; a line break in a cell → ``<br/>``); a
  figure by ``<p><img src alt/></p>`` and its caption as a ``<p>`` (only the caption when no
  image file was written). ``src`` is the image's ``path``, relative to the output folder. A
  table or figure no placeholder names is appended at the end of the text, so nothing is lost;
  a placeholder that names nothing stays as text.
"""

from __future__ import annotations

import html
import re
from typing import Any, Iterable, Optional

USDM_VERSION = "4.0.0"
XHTML_NS = "http://www.w3.org/1999/xhtml"

#: The document version's status: CDISC controlled terminology "Draft".
DRAFT_STATUS = {
    "code": "C85255",
    "decode": "Draft",
    "codeSystem": "http://www.cdisc.org",
    "codeSystemVersion": "2023-12-15",
}

__all__ = ["to_usdm", "section_xhtml", "DRAFT_STATUS", "USDM_VERSION"]


# --- the tree ----------------------------------------------------------------------------------
def _page(node: dict) -> Optional[int]:
    pages = node.get("pages") or [None, None]
    return pages[0] if pages and isinstance(pages[0], int) else None


def _merge_non_toc(toc: list[dict], non_toc: list[dict]) -> list[dict]:
    """The top-level nodes in document order: each non_toc node goes, by its first page,
    between the numbered top-level sections (never inside one).

    A node goes before the first section that starts on a later page, or on the same page when
    that is the very first section (front matter sharing a page with section 1); otherwise
    after the sections that start on or before its page. non_toc keeps its own order (it is
    in reading order already), and a node whose page is unknown stays right after the one
    before it."""
    starts: list[Optional[int]] = []
    last: Optional[int] = None
    for root in toc:  # a root's start page, or the one before it when unknown
        last = _page(root) if _page(root) is not None else last
        starts.append(last)
    slots: list[list[dict]] = [[] for _ in range(len(toc) + 1)]  # slot i: before toc[i]
    floor = 0
    for node in non_toc:
        page = _page(node)
        if page is not None:
            slot = next(
                (i for i, start in enumerate(starts) if start is not None and (start > page or (start == page and i == 0))),
                len(toc),
            )
            floor = max(floor, slot)
        slots[floor].append(node)
    merged: list[dict] = []
    for i, slot in enumerate(slots):
        merged.extend(slot)
        if i < len(toc):
            merged.append(toc[i])
    return merged


def _preorder(nodes: Iterable[dict]) -> Iterable[dict]:
    for node in nodes:
        yield node
        yield from _preorder(node.get("subsections") or [])


def _ordered_roots(result: dict, include_non_toc: bool) -> list[dict]:
    toc = list(result.get("toc") or [])
    if not include_non_toc:
        return toc
    return _merge_non_toc(toc, list(result.get("non_toc") or []))


# --- inline Markdown ---------------------------------------------------------------------------
# Characters XML 1.0 forbids, plus the two noncharacters used below as token delimiters.
_XML_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufdd0\ufdd1\ufffe\uffff\ud800-\udfff]")
_BACKSLASH = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|~<>])")
_BR_TAG = re.compile(r"<br\s*/?>", re.I)
_CODE = re.compile(r"`([^`\n]+)`")
_TOKEN = re.compile("\ufdd0(\\d+)\ufdd1")
_LINK = re.compile(r"\[([^\[\]\n]+)\]\(([^()\s]+)\)")
_EMPHASIS = [
    (re.compile(r"\*\*\*(?=\S)(.+?)(?<=\S)\*\*\*"), "<b><i>", "</i></b>"),
    (re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*"), "<b>", "</b>"),
    (re.compile(r"(?<!\w)__(?=\S)(.+?)(?<=\S)__(?!\w)"), "<b>", "</b>"),
    (re.compile(r"\*(?=[^\s*])(.+?)(?<=[^\s*])\*"), "<i>", "</i>"),
    (re.compile(r"(?<!\w)_(?=[^\s_])(.+?)(?<=[^\s_])_(?!\w)"), "<i>", "</i>"),
    (re.compile(r"~~(?=\S)(.+?)(?<=\S)~~"), "<del>", "</del>"),
]
_TAG_SPLIT = re.compile(r"(<[^<>]*>)")


def _clean(text: str) -> str:
    return _XML_INVALID.sub("", text)


def _esc(text: str) -> str:
    return html.escape(_clean(text), quote=True)


def _in_text_pieces(markup: str, pattern: re.Pattern, open_tag: str, close_tag: str) -> str:
    """Apply one emphasis rule inside each run of text between tags only, so that the tags it
    adds always nest properly with the ones already there."""
    pieces = _TAG_SPLIT.split(markup)
    for i in range(0, len(pieces), 2):  # even indexes are text, odd ones tags
        pieces[i] = pattern.sub(lambda m: f"{open_tag}{m[1]}{close_tag}", pieces[i])
    return "".join(pieces)


def _emphasis(escaped: str) -> str:
    for pattern, open_tag, close_tag in _EMPHASIS:
        escaped = _in_text_pieces(escaped, pattern, open_tag, close_tag)
    return escaped


def _inline(text: str) -> str:
    """One line of Markdown → XHTML inline markup; an HTML ``<br>`` in it → ``<br/>``."""
    return "<br/>".join(_inline_part(part) for part in _BR_TAG.split(text))


def _inline_part(text: str) -> str:
    """One line of Markdown → XHTML inline markup (escaped, well-formed).

    Backslash escapes, links and code spans are first replaced by opaque tokens (each holding
    finished, well-formed markup), emphasis is applied to what is left, then the tokens are
    put back: nothing can make two tags overlap."""
    stash: list[str] = []

    def keep(markup: str) -> str:
        stash.append(markup)
        return f"\ufdd0{len(stash) - 1}\ufdd1"

    text = _clean(text)
    text = _BACKSLASH.sub(lambda m: keep(html.escape(m[1])), text)
    text = _LINK.sub(
        lambda m: keep(f'<a href="{html.escape(m[2], quote=True)}">{_emphasis(html.escape(m[1], quote=False))}</a>'),
        text,
    )
    text = _CODE.sub(lambda m: keep(f"<code>{html.escape(m[1])}</code>"), text)
    out = _emphasis(html.escape(text, quote=False))
    while _TOKEN.search(out):  # a link's text or href may hold tokens itself
        out = _TOKEN.sub(lambda m: stash[int(m[1])], out)
    return out


def _lines_inline(lines: list[str]) -> str:
    return "<br/>".join(_inline(line.strip()) for line in lines)


# --- tables and figures ------------------------------------------------------------------------
def _cell(text: Any) -> str:
    return "<br/>".join(_esc(part) for part in str("" if text is None else text).split("\n"))


def table_xhtml(table: dict) -> str:
    """A result table → ``<table>`` with ``<caption>``, ``<thead>`` and ``<tbody>``."""
    out = ["<table>"]
    if table.get("title"):
        out.append(f"<caption>{_esc(table['title'])}</caption>")
    columns = table.get("columns") or []
    if columns:
        out.append("<thead><tr>" + "".join(f"<th>{_cell(c)}</th>" for c in columns) + "</tr></thead>")
    rows = table.get("data") or []
    if rows:
        out.append("<tbody>")
        out.extend("<tr>" + "".join(f"<td>{_cell(c)}</td>" for c in row) + "</tr>" for row in rows)
        out.append("</tbody>")
    out.append("</table>")
    return "".join(out)


def image_xhtml(image: dict) -> str:
    """A result image → ``<p><img/></p>`` and its caption; the caption alone without a file."""
    title = image.get("title") or ""
    out = []
    if image.get("path"):
        out.append(f'<p><img src="{_esc(image["path"])}" alt="{_esc(title)}"/></p>')
    if title or not out:
        out.append(f"<p>{_esc(title or '[Image]')}</p>")
    return "".join(out)


class _Objects:
    """The node's tables and images, each placed at most once."""

    def __init__(self, node: dict):
        self.tables = list(node.get("tables") or [])
        self.images = list(node.get("images") or [])
        self.used_tables: set[int] = set()
        self.used_images: set[int] = set()

    def _take(self, items: list[dict], used: set[int], title: Optional[str]) -> Optional[dict]:
        for i, item in enumerate(items):
            if i not in used and (title is None or (item.get("title") or "") == title):
                used.add(i)
                return item
        return None

    def placeholder(self, line: str) -> Optional[str]:
        """The XHTML for a placeholder line, or None when the line is not one of ours."""
        m = re.fullmatch(r"\[(.*)\]", line.strip())
        if not m:
            return None
        inner = m[1].strip()
        if inner == "Table":
            table = self._take(self.tables, self.used_tables, None)
            return table_xhtml(table) if table is not None else None
        if inner == "Image":
            image = self._take(self.images, self.used_images, None)
            return image_xhtml(image) if image is not None else None
        table = self._take(self.tables, self.used_tables, inner)
        if table is not None:
            return table_xhtml(table)
        image = self._take(self.images, self.used_images, inner)
        return image_xhtml(image) if image is not None else None

    def leftovers(self) -> list[str]:
        out = [table_xhtml(t) for i, t in enumerate(self.tables) if i not in self.used_tables]
        out += [image_xhtml(im) for i, im in enumerate(self.images) if i not in self.used_images]
        return out


# --- block Markdown ----------------------------------------------------------------------------
_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_BULLET = re.compile(r"^(\s*)[-*+\u2022\u25cf\u25aa\u25e6\u2013\u25a0\u25cb]\s+(.*)$")
_ORDERED = re.compile(r"^(\s*)(\d{1,3})[.)]\s+(.*)$")
_RULE = re.compile(r"^\s*([-*_])(\s*\1){2,}\s*$")
_PIPE_ROW = re.compile(r"^\s*\|.*\|\s*$")
_PIPE_SEPARATOR = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")


def _pipe_cells(line: str) -> list[str]:
    line = line.strip()
    if line.startswith("|"):
        line = line[1:]
    if line.endswith("|") and not line.endswith("\\|"):
        line = line[:-1]
    return [c.strip() for c in re.split(r"(?<!\\)\|", line)]


def _pipe_table(lines: list[str]) -> str:
    rows = list(lines)
    head: list[str] = []
    if len(rows) >= 2 and _PIPE_SEPARATOR.match(rows[1]):
        head, rows = [rows[0]], rows[2:]
    rows = [r for r in rows if not _PIPE_SEPARATOR.match(r)]

    def cell(c: str) -> str:
        return _inline(c.replace("\\|", "|").strip())

    out = ["<table>"]
    if head:
        out.append("<thead><tr>" + "".join(f"<th>{cell(c)}</th>" for c in _pipe_cells(head[0])) + "</tr></thead>")
    if rows:
        out.append("<tbody>")
        out.extend("<tr>" + "".join(f"<td>{cell(c)}</td>" for c in _pipe_cells(r)) + "</tr>" for r in rows)
        out.append("</tbody>")
    out.append("</table>")
    return "".join(out)


def _list_item(line: str) -> Optional[tuple[int, str, Optional[int], str]]:
    """(indent, "ul"/"ol", number, text) when the line starts a list item."""
    m = _ORDERED.match(line)
    if m:
        return len(m[1].expandtabs(4)), "ol", int(m[2]), m[3]
    m = _BULLET.match(line)
    if m and not _RULE.match(line):
        return len(m[1].expandtabs(4)), "ul", None, m[2]
    return None


def _render_list(items: list[tuple[int, str, Optional[int], list[str]]]) -> str:
    """Items (indent, kind, number, lines) → nested ``<ul>``/``<ol>``; a deeper indent opens a
    list inside the previous item, a change of kind at the same depth starts a new list."""
    out: list[str] = []
    stack: list[tuple[int, str, Optional[int]]] = []  # open lists: (indent, kind, next number)
    for indent, kind, number, lines in items:
        while stack and (indent < stack[-1][0] or (indent == stack[-1][0] and kind != stack[-1][1])):
            out.append(f"</li></{stack.pop()[1]}>")
        if stack and indent == stack[-1][0]:
            out.append("</li>")
            expected = stack[-1][2]
        else:
            attrs = f' start="{number}"' if kind == "ol" and number not in (None, 1) else ""
            out.append(f"<{kind}{attrs}>")
            stack.append((indent, kind, number))
            expected = number
        value = f' value="{number}"' if kind == "ol" and number != expected else ""
        stack[-1] = (stack[-1][0], kind, (number + 1) if number is not None else None)
        out.append(f"<li{value}>{_lines_inline(lines)}")
    while stack:
        out.append(f"</li></{stack.pop()[1]}>")
    return "".join(out)


def _blocks(text: str, objects: _Objects) -> list[str]:
    lines = _clean(text).replace("\r\n", "\n").replace("\r", "\n").split("\n")
    out: list[str] = []
    para: list[str] = []
    items: list[tuple[int, str, Optional[int], list[str]]] = []
    list_open = False  # a list continues over blank lines until a non-item line follows one
    blank_before = False

    def flush_para() -> None:
        if para:
            out.append(f"<p>{_lines_inline(para)}</p>")
            para.clear()

    def flush_list() -> None:
        nonlocal list_open
        if items:
            out.append(_render_list(items))
            items.clear()
        list_open = False

    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            flush_para()
            blank_before = True
            i += 1
            continue
        placed = objects.placeholder(line)
        if placed is not None:
            flush_para()
            flush_list()
            out.append(placed)
        elif _PIPE_ROW.match(line):
            flush_para()
            flush_list()
            j = i
            while j < len(lines) and _PIPE_ROW.match(lines[j]):
                j += 1
            out.append(_pipe_table(lines[i:j]))
            i = j
            blank_before = False
            continue
        elif (m := _HEADING.match(line)) and m[2]:
            flush_para()
            flush_list()
            out.append(f"<h{len(m[1])}>{_inline(m[2])}</h{len(m[1])}>")
        elif _RULE.match(line):
            flush_para()
            flush_list()
            out.append("<hr/>")
        elif (item := _list_item(line)) is not None:
            flush_para()
            indent, kind, number, rest = item
            items.append((indent, kind, number, [rest]))
            list_open = True
        elif list_open and not blank_before:
            items[-1][3].append(line)  # a continuation line of the last item
        else:
            flush_list()
            para.append(line)
        blank_before = False
        i += 1
    flush_para()
    flush_list()
    return out


def section_xhtml(node: dict) -> str:
    """The node's own text (not its subsections') as one XHTML ``<div>``, tables and figures in
    place of their placeholders."""
    objects = _Objects(node)
    body = _blocks(node.get("text") or "", objects) + objects.leftovers()
    return f'<div xmlns="{XHTML_NS}">' + "".join(body) + "</div>"


# --- the export --------------------------------------------------------------------------------
def _name(node: dict, fallback: str) -> str:
    name = " ".join(f"{node.get('number') or ''} {node.get('title') or ''}".split())
    return name or fallback


def to_usdm(
    result: dict,
    *,
    include_non_toc: bool = True,
    version: str = "1",
    status: Optional[dict] = None,
) -> dict:
    """The result's sections as USDM v4.0 ``NarrativeContent`` (inside a
    ``StudyDefinitionDocumentVersion``) and ``NarrativeContentItem`` objects (see the module
    docstring). Deterministic: the same result gives the same dict."""
    roots = _ordered_roots(result, include_non_toc)
    order: list[dict] = list(_preorder(roots))
    position = {id(node): i for i, node in enumerate(order, start=1)}

    def content_id(node: dict) -> str:
        return f"NarrativeContent_{position[id(node)]}"

    contents: list[dict] = []
    items: list[dict] = []
    for i, node in enumerate(order, start=1):
        cid, iid = f"NarrativeContent_{i}", f"NarrativeContentItem_{i}"
        number = node.get("number") or ""
        title = node.get("title") or ""
        name = _name(node, cid)
        contents.append(
            {
                "id": cid,
                "name": name,
                "sectionNumber": number or None,
                "sectionTitle": title,
                "displaySectionNumber": bool(number),
                "displaySectionTitle": bool(title),
                "childIds": [content_id(child) for child in node.get("subsections") or []],
                "previousId": f"NarrativeContent_{i - 1}" if i > 1 else None,
                "nextId": f"NarrativeContent_{i + 1}" if i < len(order) else None,
                "contentItemId": iid,
                "instanceType": "NarrativeContent",
            }
        )
        items.append({"id": iid, "name": name, "text": section_xhtml(node), "instanceType": "NarrativeContentItem"})

    metadata = result.get("metadata") or {}
    code = dict(DRAFT_STATUS if status is None else status)
    code.setdefault("id", "Code_1")
    code["instanceType"] = "Code"
    document_version = {
        "id": "StudyDefinitionDocumentVersion_1",
        "version": version,
        "status": {k: code[k] for k in ("id", "code", "codeSystem", "codeSystemVersion", "decode", "instanceType") if k in code},
        "contents": contents,
        "instanceType": "StudyDefinitionDocumentVersion",
    }
    return {
        "usdmVersion": USDM_VERSION,
        "systemName": "ClinParser",
        "systemVersion": (metadata.get("versions") or {}).get("clinparser"),
        "source": metadata.get("source"),
        "studyDefinitionDocumentVersion": document_version,
        "narrativeContentItems": items,
    }
