"""Export the section tree as CDISC USDM v4.0 narrative content.

``to_usdm(result)`` maps a parse result (``{"toc", "non_toc", "metadata"[, "study"]}``) to:

- one ``NarrativeContent`` per section node: number, title, ``childIds`` (the tree),
  ``previousId``/``nextId`` (document order) and ``contentItemId``;
- one ``NarrativeContentItem`` per node: its own text as an XHTML fragment
  (``<div xmlns="http://www.w3.org/1999/xhtml">…</div>``), tables and figures put back where their
  placeholder paragraphs (``[Table 2: …]``, ``[Figure 1: …]``) stood.

In USDM v4 the contents belong to ``StudyDefinitionDocumentVersion.contents``, while the items are
held by ``StudyVersion.narrativeContentItems`` and referred to by id. ClinParser knows nothing of
the study a full ``Wrapper``/``Study``/``StudyVersion`` needs, so the export is the document
version plus the item list, ready to drop into a study::

    {"usdmVersion": "4.0.0", "systemName": "ClinParser", "systemVersion": "0.1.0",
     "source": "protocol.pdf",
     "studyDefinitionDocumentVersion": {"id": ..., "version": "1", "status": {Code},
                                        "contents": [NarrativeContent...], ...},
     "narrativeContentItems": [NarrativeContentItem...],
     "studyDesign": {"epochs": [...], "encounters": [...], "activities": [...],
                     "scheduleTimelines": [...]}}   # only when a table has a schedule

The schedules of activities (tables with a ``schedule``) become ``StudyEpoch``, ``Encounter``,
``Activity`` and ``ScheduleTimeline`` objects (with their ``ScheduledActivityInstance``s and
``Timing``s) by ``clinparser.export.usdm_schedule``, whose docstring gives the rules; a result without
schedules has no ``studyDesign`` key.

A result with a ``study`` block (the study definition: titles, identifiers, phase, eligibility,
objectives, abbreviations) gets a ``"study"`` key: a USDM ``Study`` built by
``clinparser.export.usdm_study`` (see its docstring), so the export also reads as a USDM ``Wrapper``.

Each object validates against the ``*-Input`` schemas of CDISC's USDM v4.0 OpenAPI document.

Decisions:

- **Unnumbered nodes** (``non_toc``: title page, printed TOC, signature pages …) are included
  (``include_non_toc=False`` leaves them out) with ``sectionNumber`` null and
  ``displaySectionNumber`` false. They go between the numbered top-level sections by their first
  page (front matter first; on section 1's page before it, on a later section's page after it),
  keep their own order, and a node without a page stays with the one before it.
- **Order and ids**: depth-first, parent first. Ids come from that position only
  (``NarrativeContent_0007`` points at ``NarrativeContentItem_0007``; ``usdm_terms.usdm_id``
  pads the number, so ids sorted as text are in document order), so the same result always
  gives byte-identical JSON. ``name`` is number and title as printed (``"5.1 Inclusion Criteria"``).
  Top-level sections are the contents no ``childIds`` names (USDM has no root list).
- **Status**: ``Draft`` (CDISC CT ``C85255``), ``version`` ``"1"``: an extraction from a PDF is
  not an approved version, and the protocol's own version is not in the result. Both are
  parameters.
- **Text** is rendered by markdown-it-py: CommonMark plus pipe tables and ``~~strikethrough~~``,
  a single line break → ``<br />``. Two rules that misread PDF text are off: indented code (an
  indent is page layout) and link reference definitions (``[1]: Smith …`` must not vanish).
  Numbered lists keep their printed numbers (``start``, ``value`` where one is skipped). Raw
  HTML shows as text, except what the PDF converters emit: ``<u>``, ``<sup>``, ``<sub>`` and
  ``<mark>`` stay elements where they pair up (a stray one is dropped), ``<br>`` → ``<br />``,
  comments are dropped. Characters XML forbids are dropped, so the fragment always parses.
- **Tables and figures**: a placeholder is replaced by the node's table of that title
  (``[Table]``: the next one not yet placed) as ``<table>`` with ``<caption>``, ``<thead>`` (the
  columns) and ``<tbody>`` (a line break in a cell → ``<br />``), a figure by
  ``<p><img src alt /></p>`` (``src`` relative to the output folder) and its caption as a ``<p>``.
  What no placeholder names is appended; a placeholder naming nothing stays as text.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any, Iterable, Optional

from markdown_it import MarkdownIt

from .usdm_schedule import design_errors, schedule_design
from .usdm_study import study_errors, study_usdm
from .usdm_terms import usdm_id

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
    """The top-level nodes in document order: each non_toc node goes before the first section
    that starts on a later page (or on its page, for section 1), never inside one; see the
    module docstring."""
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


# --- Markdown → XHTML -------------------------------------------------------------------------
def _keep_item_numbers(state) -> None:
    """markdown-it numbers a list on from its first item; a protocol's "3., 4., 6." must stay
    3, 4, 6 (criteria are cited by number), so an item that skips gets a ``value``."""
    expected: list[int] = []  # the next number of each open ordered list, innermost last
    for token in state.tokens:
        if token.type == "ordered_list_open":
            expected.append(int(token.attrGet("start") or 1))
        elif token.type == "ordered_list_close":
            expected.pop()
        elif token.type == "list_item_open" and token.info.isdigit() and expected:
            if int(token.info) != expected[-1]:
                token.attrSet("value", str(int(token.info)))
            expected[-1] = int(token.info) + 1


_MARKDOWN = (
    MarkdownIt("commonmark", {"xhtmlOut": True, "breaks": True, "html": False})
    .enable(["table", "strikethrough"])
    .disable(["code", "reference"])  # see the module docstring
)
_MARKDOWN.core.ruler.push("keep_item_numbers", _keep_item_numbers)

# The raw tags kept from the PDF converters cross markdown-it (which would escape them) as
# markers: Unicode noncharacters, never real text (dropped from the input with _XML_INVALID).
_KEPT_TAGS = ("u", "sup", "sub", "mark")
_OPEN = {chr(0xFDD0 + i): tag for i, tag in enumerate(_KEPT_TAGS)}
_CLOSE = {chr(0xFDE0 + i): tag for i, tag in enumerate(_KEPT_TAGS)}
_MARKER_OF = {f"<{tag}>": m for m, tag in _OPEN.items()} | {f"</{tag}>": m for m, tag in _CLOSE.items()}
_BREAK = "\ufdef"
_RAW_TAG = re.compile(r"<(/?)(u|sup|sub|mark)\s*>|<br\s*/?>", re.I)
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_MARKER = re.compile("[\ufdd0-\ufdef]")
_TAG_OR_MARKER = re.compile("(<[^>]*>|[\ufdd0-\ufdef])")  # markdown-it escapes any other "<"
_XML_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufdd0-\ufdef\ufffe\uffff\ud800-\udfff]")


def _clean(text: str) -> str:
    return _XML_INVALID.sub("", text)


def _escape(value: Any) -> str:
    return html.escape(_clean("" if value is None else str(value)))


def _protect(text: str) -> str:
    """The kept raw tags → markers."""
    return _RAW_TAG.sub(lambda m: _BREAK if m[2] is None else _MARKER_OF[f"<{m[1]}{m[2].lower()}>"], text)


def _restore(rendered: str) -> str:
    """Markers → tags. A pair is kept only where it nests properly among markdown-it's own
    elements (not across paragraphs or an ``<em>``); any other marker is dropped, so the
    result stays well-formed."""
    parts = _TAG_OR_MARKER.split(rendered)  # odd indexes: a tag or a marker
    stack: list[tuple[Optional[str], int]] = []  # open elements: (marker or None for markdown-it's, index)
    for i in range(1, len(parts), 2):
        piece = parts[i]
        if piece == _BREAK:
            parts[i] = "<br />"
        elif piece in _OPEN:
            stack.append((piece, i))
            parts[i] = f"<{_OPEN[piece]}>"
        elif piece in _CLOSE:
            paired = bool(stack) and _OPEN.get(stack[-1][0]) == _CLOSE[piece]
            parts[i] = f"</{_CLOSE[piece]}>" if paired else ""
            if paired:
                stack.pop()
        else:  # markdown-it's own tag; a marker in an attribute (an image's alt) just goes
            parts[i] = piece = _MARKER.sub("", piece)
            if piece.startswith("</"):
                while stack and stack[-1][0] is not None:  # kept tags left open in this element
                    parts[stack.pop()[1]] = ""
                if stack:
                    stack.pop()
            elif not piece.endswith("/>"):
                stack.append((None, i))
    for marker, i in stack:
        if marker is not None:
            parts[i] = ""
    return "".join(parts)


def _markdown(paragraphs: list[str]) -> str:
    text = "\n\n".join(paragraphs)
    return _restore(_MARKDOWN.render(_protect(text))) if text.strip() else ""


# --- tables and figures ------------------------------------------------------------------------
def _cell(value: Any) -> str:
    return "<br />".join(_escape(line) for line in ("" if value is None else str(value)).split("\n"))


def table_xhtml(table: dict) -> str:
    """A result table → ``<table>`` with ``<caption>``, ``<thead>`` and ``<tbody>``."""
    caption = f"<caption>{_escape(table['title'])}</caption>" if table.get("title") else ""
    head = "".join(f"<th>{_cell(c)}</th>" for c in table.get("columns") or [])
    rows = "".join("<tr>" + "".join(f"<td>{_cell(c)}</td>" for c in row) + "</tr>" for row in table.get("data") or [])
    head = f"<thead><tr>{head}</tr></thead>" if head else ""
    rows = f"<tbody>{rows}</tbody>" if rows else ""
    return f"<table>{caption}{head}{rows}</table>\n"


def image_xhtml(image: dict) -> str:
    """A result image → ``<p><img /></p>`` and its caption; the caption alone without a file."""
    title = image.get("title") or ""
    out = f'<p><img src="{_escape(image["path"])}" alt="{_escape(title)}" /></p>\n' if image.get("path") else ""
    if title or not out:
        out += f"<p>{_escape(title or '[Image]')}</p>\n"
    return out


def _take(items: list[dict], title: Optional[str], render) -> Optional[str]:
    """The first item with that title (any item for None) taken out of the list, rendered."""
    for i, item in enumerate(items):
        if title is None or (item.get("title") or "") == title:
            return render(items.pop(i))
    return None


def section_xhtml(node: dict) -> str:
    """The node's own text (not its subsections') as one XHTML ``<div>``.

    Placeholders stand alone between blank lines (assemble.py joins a node's parts so), so the
    text is cut into paragraphs, each run of ordinary ones is rendered as Markdown, and the
    tables and figures go between the runs: always at block level, never inside a ``<p>``."""
    tables, images = list(node.get("tables") or []), list(node.get("images") or [])

    def placed(paragraph: str) -> Optional[str]:
        """The XHTML for a placeholder; None for other text or a placeholder naming nothing left."""
        m = re.fullmatch(r"\[(.*)\]", paragraph.strip())
        if m is None:
            return None
        name = m[1].strip()
        if name == "Table":  # untitled: the next one not yet placed
            return _take(tables, None, table_xhtml)
        if name == "Image":
            return _take(images, None, image_xhtml)
        return _take(tables, name, table_xhtml) or _take(images, name, image_xhtml)

    text = _COMMENT.sub("", _clean((node.get("text") or "").replace("\r\n", "\n").replace("\r", "\n")))
    body: list[str] = []
    run: list[str] = []
    for paragraph in re.split(r"\n[ \t]*\n", text):
        xhtml = placed(paragraph)
        if xhtml is None:
            run.append(paragraph)
        else:
            body += [_markdown(run), xhtml]
            run = []
    body += [_markdown(run), *map(table_xhtml, tables), *map(image_xhtml, images)]
    return f'<div xmlns="{XHTML_NS}">' + "".join(body) + "</div>"


# --- the export --------------------------------------------------------------------------------
def _name(node: dict, fallback: str) -> str:
    name = " ".join(f"{node.get('number') or ''} {node.get('title') or ''}".split())
    return name or fallback


def to_usdm(result: dict, *, include_non_toc: bool = True, version: str = "1", status: Optional[dict] = None) -> dict:
    """The result's sections as USDM v4.0 ``NarrativeContent`` (inside a
    ``StudyDefinitionDocumentVersion``) and ``NarrativeContentItem`` objects (see the module
    docstring). Deterministic: the same result gives the same dict."""
    roots = _ordered_roots(result, include_non_toc)
    order: list[dict] = list(_preorder(roots))
    position = {id(node): i for i, node in enumerate(order, start=1)}
    contents: list[dict] = []
    items: list[dict] = []
    for i, node in enumerate(order, start=1):
        cid, iid = usdm_id("NarrativeContent", i), usdm_id("NarrativeContentItem", i)
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
                "childIds": [usdm_id("NarrativeContent", position[id(child)]) for child in node.get("subsections") or []],
                "previousId": usdm_id("NarrativeContent", i - 1) if i > 1 else None,
                "nextId": usdm_id("NarrativeContent", i + 1) if i < len(order) else None,
                "contentItemId": iid,
                "instanceType": "NarrativeContent",
            }
        )
        items.append({"id": iid, "name": name, "text": section_xhtml(node), "instanceType": "NarrativeContentItem"})

    metadata = result.get("metadata") or {}
    code = dict(DRAFT_STATUS if status is None else status)
    code.setdefault("id", usdm_id("Code", 1))
    code["instanceType"] = "Code"
    document_version = {
        "id": usdm_id("StudyDefinitionDocumentVersion", 1),
        "version": version,
        "status": {k: code[k] for k in ("id", "code", "codeSystem", "codeSystemVersion", "decode", "instanceType") if k in code},
        "contents": contents,
        "instanceType": "StudyDefinitionDocumentVersion",
    }
    usdm = {
        "usdmVersion": USDM_VERSION,
        "systemName": "ClinParser",
        "systemVersion": (metadata.get("versions") or {}).get("clinparser"),
        "source": metadata.get("source"),
        "studyDefinitionDocumentVersion": document_version,
        "narrativeContentItems": items,
    }
    # The schedules are study design, not narrative: taken from every node, whatever include_non_toc.
    status_number = re.fullmatch(r"Code_(\d+)", str(document_version["status"]["id"]))
    design = schedule_design(_schedules(result), first_code=int(status_number[1]) + 1 if status_number else 1)
    if design:
        usdm["studyDesign"] = design
    if result.get("study"):  # the study definition (clinparser.study): a USDM Study, ids after the ones above
        usdm["study"] = study_usdm(result["study"], existing=usdm, version=version, source=metadata.get("source"),
                                   document_version_ids=[document_version["id"]])
    return usdm


def _schedules(result: dict) -> list[dict]:
    """The ``schedule`` of every schedule table, in document order."""
    nodes = _preorder(_ordered_roots(result, include_non_toc=True))
    return [t["schedule"] for node in nodes for t in node.get("tables") or [] if isinstance(t.get("schedule"), dict)]


# --- checking an export against CDISC's own schema -------------------------------------------
API_URI = "urn:cdisc:usdm:4.0.0:api"  # where the OpenAPI document sits in the registry


def schema_validator(api_json: Path):
    """``validate(name, obj) -> [error, ...]`` against ``components.schemas[name]`` of the USDM
    OpenAPI document (e.g. CDISC's ``USDM_API.json``, which users supply; never shipped).

    The OpenAPI 3.1 document is registered as one JSON Schema 2020-12 resource, so its
    internal ``#/components/schemas/...`` refs resolve inside it."""
    import jsonschema
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT202012

    document = json.loads(Path(api_json).read_text(encoding="utf-8"))
    registry = Registry().with_resource(API_URI, Resource.from_contents(document, default_specification=DRAFT202012))
    schemas = document["components"]["schemas"]
    validators: dict = {}

    def validate(name: str, obj: dict) -> list[str]:
        if name not in schemas:
            raise KeyError(f"no schema {name} in the USDM API document")
        if name not in validators:
            validators[name] = jsonschema.Draft202012Validator({"$ref": f"{API_URI}#/components/schemas/{name}"}, registry=registry)
        found = sorted(validators[name].iter_errors(obj), key=lambda e: list(map(str, e.absolute_path)))
        return [f"{'/'.join(map(str, e.absolute_path)) or '(root)'}: {e.message}" for e in found]

    return validate


def usdm_errors(usdm: dict, validate) -> list[str]:
    """Every schema error of an export: the document version, its status, each content, each item,
    and each object of the schedules' study design."""
    sddv = usdm["studyDefinitionDocumentVersion"]
    errors = [f"StudyDefinitionDocumentVersion: {e}" for e in validate("StudyDefinitionDocumentVersion-Input", sddv)]
    for content in sddv["contents"]:
        errors += [f"{content.get('id')}: {e}" for e in validate("NarrativeContent-Input", content)]
    for item in usdm["narrativeContentItems"]:
        errors += [f"{item.get('id')}: {e}" for e in validate("NarrativeContentItem-Input", item)]
    return errors + design_errors(usdm.get("studyDesign") or {}, validate) + study_errors(usdm.get("study"), validate)
