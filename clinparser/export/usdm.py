"""Export a parse result as one CDISC USDM v4.0 ``Wrapper``.

``to_usdm(result)`` maps a parse result (``{"toc", "non_toc", "metadata"[, "study"]}``) to the
``Wrapper`` a USDM consumer loads whole (usdm4's pydantic model drops nothing of it)::

    {"usdmVersion": "4.0.0", "systemName": "ClinParser", "systemVersion": "0.1.0",
     "study": {"name": ..., "instanceType": "Study",
               "documentedBy": [{StudyDefinitionDocument, "versions": [
                   {StudyDefinitionDocumentVersion, "status": Draft, "contents": [NarrativeContent...]}]}],
               "versions": [{StudyVersion, "narrativeContentItems": [NarrativeContentItem...],
                             "studyDesigns": [{InterventionalStudyDesign: eligibility, objectives,
                                               population, "epochs", "encounters", "activities",
                                               "scheduleTimelines"}], ...}]}}

Each part stands where the published USDM files (the CDISC pilot, the Alexion sample) have it:

- the narrative: one ``NarrativeContent`` per section node (number, title, ``childIds`` for the
  tree, ``previousId``/``nextId`` for document order, ``contentItemId``) in the protocol
  document's version (``study.documentedBy[0].versions[0].contents``), and one
  ``NarrativeContentItem`` per node, its own text as an XHTML fragment (``<div
  xmlns="http://www.w3.org/1999/xhtml">…</div>``, tables and figures put back where their
  placeholder paragraphs ``[Table 2: …]``, ``[Figure 1: …]`` stood), in
  ``study.versions[0].narrativeContentItems``;
- the schedules of activities (tables with a ``schedule``): ``StudyEpoch``, ``Encounter``,
  ``Activity`` and ``ScheduleTimeline`` objects (with their ``ScheduledActivityInstance``s and
  ``Timing``s) by ``clinparser.export.usdm_schedule`` (its docstring gives the rules), in the one
  study design ``study.versions[0].studyDesigns[0]``;
- the study definition (``result["study"]``: titles, identifiers, phase, eligibility, objectives,
  abbreviations) by ``clinparser.export.usdm_study`` (see its docstring), which builds the
  ``Study`` around all of it. A result without a ``study`` block still gives a whole Wrapper: a
  Study named after its source file, with the narrative and the schedules.

There was a top-level ``studyDefinitionDocumentVersion``, ``narrativeContentItems``, ``source`` and
``studyDesign`` before issue 47; a Wrapper has only its four keys, so they went into the study
(the source file's name is the document's ``description``). ``study_design(usdm)``,
``document_version(usdm)`` and ``narrative_items(usdm)`` find the parts.

Each object validates against the ``*-Input`` schemas of CDISC's USDM v4.0 OpenAPI document
(``usdm_errors``), and the Wrapper passes the rules of data4knowledge's usdm4 engine
(``benchmarks/usdm_check.py``) but for the findings ``docs/chunks-and-usdm.md`` lists with their
reasons.

Decisions:

- **Names** are unique per class across the Wrapper (usdm4 rule DDF00010): a later object of a
  class named like an earlier one gets " (2)", " (3)" … (``unique_names``); labels stay as printed.
  A section number printed twice (an appendix numbering its sections from 1 again) is qualified by
  its parent's number the second time ("Appendix 2 / 1"), since USDM wants a document version's
  section numbers unique (DDF00245).
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
  The XHTML is USDM's (XHTML 1.1, usdm4 rule DDF00187): numbered lists keep their printed
  numbers, written in the items ("3. ") with the list's own numbering off (``style="list-style-type:
  none"``) where they are not 1, 2, 3 … (XHTML 1.1 has no ``start`` or ``value``);
  ``~~struck~~`` text is ``<del>``; a pipe table of a header row only has it in its ``<tbody>``.
  Raw HTML shows as text, except what the PDF converters emit: ``<sup>`` and ``<sub>`` stay
  elements, ``<u>`` becomes ``<span style="text-decoration: underline">`` and ``<mark>``
  ``<span style="background-color: yellow">`` (XHTML 1.1 has neither), where they pair up (a
  stray one is dropped); ``<br>`` → ``<br />``, comments are dropped. Characters XML forbids are
  dropped, so the fragment always parses.
- **Tables and figures**: a placeholder is replaced by the node's table of that title
  (``[Table]``: the next one not yet placed) as ``<table>`` with ``<caption>``, ``<thead>`` (the
  columns) and ``<tbody>`` (a line break in a cell → ``<br />``), a figure by
  ``<p><img src alt /></p>`` (``src`` relative to the output folder) and its caption as a ``<p>``.
  What no placeholder names is appended; a placeholder naming nothing stays as text. A table
  of only a header row has it in its ``<tbody>``; one with no cell at all is its caption as a
  ``<p>``.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any, Iterable, Optional

from markdown_it import MarkdownIt
from markdown_it.token import Token

from .usdm_schedule import schedule_design
from .usdm_study import study_errors, study_usdm
from .usdm_terms import CT_VERSION, usdm_id

USDM_VERSION = "4.0.0"
XHTML_NS = "http://www.w3.org/1999/xhtml"

#: The document version's status: CDISC controlled terminology "Draft".
DRAFT_STATUS = {
    "code": "C85255",
    "decode": "Draft",
    "codeSystem": "http://www.cdisc.org",
    "codeSystemVersion": CT_VERSION,  # one version per code system (usdm4 rule DDF00073)
}

__all__ = [
    "to_usdm",
    "section_xhtml",
    "DRAFT_STATUS",
    "USDM_VERSION",
    "study_version",
    "study_design",
    "document_version",
    "narrative_items",
    "unique_names",
]


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
                (
                    i
                    for i, start in enumerate(starts)
                    if start is not None and (start > page or (start == page and i == 0))
                ),
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
_PRINTED_NUMBERS = "list-style-type: none"


def _keep_item_numbers(state) -> None:
    """markdown-it numbers a list on from its first item; a protocol's "3., 4., 6." must stay
    3, 4, 6 (criteria are cited by number). USDM's XHTML has no ``start`` or ``value``, so a
    list numbered otherwise than 1, 2, 3 … shows no numbers of its own
    (``style="list-style-type: none"``) and each item starts with its number as printed ("3. ")."""
    tokens = state.tokens
    for k, token in enumerate(tokens):
        if token.type != "ordered_list_open":
            continue
        items, depth = [], 0  # this list's own items (not a nested list's)
        for j in range(k + 1, len(tokens)):
            kind = tokens[j].type
            if kind == "ordered_list_close" and depth == 0:
                break
            if kind in ("ordered_list_open", "bullet_list_open"):
                depth += 1
            elif kind in ("ordered_list_close", "bullet_list_close"):
                depth -= 1
            elif kind == "list_item_open" and depth == 0:
                items.append(j)
        token.attrs.pop("start", None)
        numbers = [tokens[j].info for j in items]
        if all(n.isdigit() for n in numbers) and [int(n) for n in numbers] == list(range(1, len(numbers) + 1)):
            continue
        token.attrSet("style", _PRINTED_NUMBERS)
        for j in items:
            number = f"{tokens[j].info}{tokens[j].markup} " if tokens[j].info else ""
            inline = next((t for t in tokens[j + 1 :] if t.type in ("inline", "list_item_close")), None)
            if inline is not None and inline.type == "inline" and inline.level >= tokens[j].level and number:
                text = Token("text", "", 0)
                text.content = number
                inline.children = [text, *(inline.children or [])]
            elif number:
                tokens[j].meta["number"] = number  # an empty item: the renderer writes the number


def _list_item_open(self, tokens, idx, options, env) -> str:
    return self.renderToken(tokens, idx, options, env) + html.escape(tokens[idx].meta.get("number", ""), quote=False)


_MARKDOWN = (
    MarkdownIt("commonmark", {"xhtmlOut": True, "breaks": True, "html": False})
    .enable(["table", "strikethrough"])
    .disable(["code", "reference"])  # see the module docstring
)


def _head_only_tables(state) -> None:
    """A pipe table of a header row only: the row goes in a ``<tbody>`` (XHTML 1.1 wants a table
    body; a ``<thead>`` alone does not validate)."""
    opened: list[int] = []
    for k, token in enumerate(state.tokens):
        if token.type == "table_open":
            opened.append(k)
        elif token.type == "table_close" and opened:
            start = opened.pop()
            inner = state.tokens[start:k]
            if not any(t.type == "tbody_open" for t in inner):
                for t in inner:
                    if t.type in ("thead_open", "thead_close"):
                        t.tag = "tbody"


_MARKDOWN.core.ruler.push("keep_item_numbers", _keep_item_numbers)
_MARKDOWN.core.ruler.push("head_only_tables", _head_only_tables)
_MARKDOWN.add_render_rule("list_item_open", _list_item_open)
# ~~struck~~ text is deleted text: <del> (XHTML 1.1 has no <s>).
_MARKDOWN.add_render_rule("s_open", lambda self, tokens, idx, options, env: "<del>")
_MARKDOWN.add_render_rule("s_close", lambda self, tokens, idx, options, env: "</del>")

# The raw tags kept from the PDF converters cross markdown-it (which would escape them) as
# markers: Unicode noncharacters, never real text (dropped from the input with _XML_INVALID).
_KEPT_TAGS = ("u", "sup", "sub", "mark")
# What each kept tag is written as: USDM's XHTML (XHTML 1.1) has no <u> or <mark> (usdm4 rule DDF00187).
_OPEN_XHTML = {
    "u": '<span style="text-decoration: underline">',
    "mark": '<span style="background-color: yellow">',
    "sup": "<sup>",
    "sub": "<sub>",
}
_CLOSE_XHTML = {"u": "</span>", "mark": "</span>", "sup": "</sup>", "sub": "</sub>"}
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
            parts[i] = _OPEN_XHTML[_OPEN[piece]]
        elif piece in _CLOSE:
            paired = bool(stack) and _OPEN.get(stack[-1][0]) == _CLOSE[piece]
            parts[i] = _CLOSE_XHTML[_CLOSE[piece]] if paired else ""
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
    rows = "".join(
        "<tr>" + ("".join(f"<td>{_cell(c)}</td>" for c in row) or "<td></td>") + "</tr>"
        for row in table.get("data") or []
    )
    if not head and not rows:  # nothing to tabulate: XHTML wants a row, so the caption is a paragraph
        return f"<p>{_escape(table['title'])}</p>\n" if table.get("title") else ""
    if not rows:  # a header row alone is the table's body (a <thead> alone does not validate)
        return f"<table>{caption}<tbody><tr>{head}</tr></tbody></table>\n"
    head = f"<thead><tr>{head}</tr></thead>" if head else ""
    return f"<table>{caption}{head}<tbody>{rows}</tbody></table>\n"


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
    """The result as one USDM v4.0 ``Wrapper`` (see the module docstring). Deterministic: the same
    result gives the same dict."""
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
                "childIds": [
                    usdm_id("NarrativeContent", position[id(child)]) for child in node.get("subsections") or []
                ],
                "previousId": usdm_id("NarrativeContent", i - 1) if i > 1 else None,
                "nextId": usdm_id("NarrativeContent", i + 1) if i < len(order) else None,
                "contentItemId": iid,
                "instanceType": "NarrativeContent",
            }
        )
        items.append({"id": iid, "name": name, "text": section_xhtml(node), "instanceType": "NarrativeContentItem"})
    _unique_section_numbers(contents)

    metadata = result.get("metadata") or {}
    code = dict(DRAFT_STATUS if status is None else status)
    code.setdefault("id", usdm_id("Code", 1))
    code["instanceType"] = "Code"
    document_version = {
        "id": usdm_id("StudyDefinitionDocumentVersion", 1),
        "version": version,
        "status": {
            k: code[k] for k in ("id", "code", "codeSystem", "codeSystemVersion", "decode", "instanceType") if k in code
        },
        "contents": contents,
        "instanceType": "StudyDefinitionDocumentVersion",
    }
    # The schedules are study design, not narrative: taken from every node, whatever include_non_toc.
    status_number = re.fullmatch(r"Code_(\d+)", str(document_version["status"]["id"]))
    design = schedule_design(_schedules(result), first_code=int(status_number[1]) + 1 if status_number else 1)
    study = study_usdm(
        result.get("study") or {},
        existing=[document_version, items, design],
        version=version,
        source=metadata.get("source"),
        document_version=document_version,
        narrative_items=items,
        schedules=design,
    )
    unique_names(study)
    return {
        "usdmVersion": USDM_VERSION,
        "systemName": "ClinParser",
        "systemVersion": (metadata.get("versions") or {}).get("clinparser"),
        "study": study,
    }


# --- where the parts are in the Wrapper -----------------------------------------------------------
def study_version(usdm: dict) -> dict:
    """The export's one ``StudyVersion``."""
    return usdm["study"]["versions"][0]


def study_design(usdm: dict) -> dict:
    """The export's one study design: eligibility, objectives, population and the schedules."""
    return study_version(usdm)["studyDesigns"][0]


def document_version(usdm: dict) -> dict:
    """The protocol document's version: ``contents`` is the narrative's ``NarrativeContent`` list."""
    return usdm["study"]["documentedBy"][0]["versions"][0]


def narrative_items(usdm: dict) -> list[dict]:
    """The ``NarrativeContentItem`` list (held by the study version)."""
    return study_version(usdm)["narrativeContentItems"]


# --- rules of USDM the parts must keep together ----------------------------------------------------
def _unique_section_numbers(contents: list[dict]) -> None:
    """A section number printed twice in one document (an appendix numbering its sections from 1
    again) is kept once: USDM wants the numbers of a document version unique (usdm4 rule
    DDF00245). A later one is qualified by its parent's number ("Appendix 2 / 1"), else it
    is not shown as a number (``sectionNumber`` null; its ``name`` still holds it)."""
    parent = {child: c for c in contents for child in c["childIds"]}
    seen: set[str] = set()
    for content in contents:
        number = content["sectionNumber"]
        if number is None:
            continue
        if number in seen:
            up = parent.get(content["id"])
            label = (up or {}).get("sectionNumber") or (up or {}).get("sectionTitle")
            qualified = f"{label} / {number}" if label else None
            if qualified and qualified not in seen:
                content["sectionNumber"] = qualified
            else:
                content["sectionNumber"], content["displaySectionNumber"] = None, False
                continue
        seen.add(content["sectionNumber"])


def unique_names(tree: Any) -> None:
    """Make ``name`` unique per class across the whole tree, in document order (usdm4 rule
    DDF00010 checks every class model-wide): the first keeps its name, a later one gets " (2)",
    " (3)" … (a number no other object of its class has). Labels stay as printed."""
    objects: list[dict] = []
    stack = [tree]
    while stack:  # preorder, in the dicts' own key order: deterministic
        o = stack.pop()
        if isinstance(o, dict):
            if isinstance(o.get("name"), str) and o["name"] and o.get("instanceType"):
                objects.append(o)
            stack.extend(reversed(list(o.values())))
        elif isinstance(o, list):
            stack.extend(reversed(o))
    taken = {(o["instanceType"], o["name"]) for o in objects}
    seen: set = set()
    for o in objects:
        key = (o["instanceType"], o["name"])
        if key not in seen:
            seen.add(key)
            continue
        n = 2
        while (o["instanceType"], f"{o['name']} ({n})") in taken:
            n += 1
        o["name"] = f"{o['name']} ({n})"
        taken.add((o["instanceType"], o["name"]))
        seen.add((o["instanceType"], o["name"]))


def _schedules(result: dict) -> list[dict]:
    """The ``schedule`` of every schedule table, in document order."""
    nodes = _preorder(_ordered_roots(result, include_non_toc=True))
    return [t["schedule"] for node in nodes for t in node.get("tables") or [] if isinstance(t.get("schedule"), dict)]


# --- checking an export against CDISC's own schema -------------------------------------------
API_URI = "urn:cdisc:usdm:4.0.0:api"
WRAPPER_KEYS = {
    "usdmVersion",
    "systemName",
    "systemVersion",
    "study",
}  # the Wrapper's own keys, no other  # where the OpenAPI document sits in the registry


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
            validators[name] = jsonschema.Draft202012Validator(
                {"$ref": f"{API_URI}#/components/schemas/{name}"}, registry=registry
            )
        found = sorted(validators[name].iter_errors(obj), key=lambda e: list(map(str, e.absolute_path)))
        return [f"{'/'.join(map(str, e.absolute_path)) or '(root)'}: {e.message}" for e in found]

    return validate


def usdm_errors(usdm: dict, validate) -> list[str]:
    """Every schema error of an export: the Wrapper's own keys, then the study's
    (``usdm_study.study_errors``: each narrative and schedule object on its own)."""
    errors = [
        f"Wrapper: {e}" for e in validate("Wrapper-Input", dict(usdm, study={"name": "-", "instanceType": "Study"}))
    ]
    errors += [f"Wrapper: unexpected key {k}" for k in sorted(set(usdm) - WRAPPER_KEYS)]
    study = usdm.get("study")
    if not isinstance(study, dict):
        return errors + ["Wrapper: no study"]
    errors += study_errors(study, validate)
    return errors
