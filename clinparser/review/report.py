"""The review page: ``report.html`` beside a finished result, to *look* at a parse.

It is built from what an output folder holds (``document.json``, ``blocks.json``, the table and
image files) plus, for page pictures, the source PDF, so it does not depend on how the tree was
made. Three linked panes: the section tree (with a diagnostics list), the selected section's
content, and the pages with boxes over them (where each section starts, tables and figures,
furniture and TOC blocks shaded as dropped). When the parse read a study definition
(document.json's ``study``), a Study tab lists it, each criterion, objective, endpoint and
design item (an arm, an epoch, an intervention ...) lighting its own boxes on its page. The HTML, its CSS and script
are one file; the page pictures are PNGs in ``pages/`` (report_pages.py). Nothing is fetched from anywhere else, and
the bytes are the same for the same input.
"""

from __future__ import annotations

import hashlib
import html
import json
import re
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Optional

from markdown_it import MarkdownIt

from ..errors import InputError, OutputError
from ..shared.markup import TAGS_AND_MARKS
from ..study.design.lines import design_lines
from .page_pictures import blank_pages, existing_pages, render_pages

REPORT_FILE = "report.html"
DIAGNOSTIC_KINDS = {  # metadata.diagnostics key -> what the diagnostics list calls an entry
    "toc_entries_missing_in_body": "TOC entry not found in the body",
    "numbering_gaps": "numbering gap",
    "missing_parents": "missing parent section",
    "duplicate_numbers": "duplicate number",
    "out_of_order": "number out of order",
    "unresolved_references": "unresolved reference",
}


# --- reading the output folder -------------------------------------------------------------


def _read_json(path: Path, what: str):
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"{path.parent}: no {path.name} here; give a folder clinparser wrote ({what})") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"{path} is not readable JSON ({exc}); rerun clinparser to rewrite the folder") from exc


@dataclass
class Node:
    """A section of document.json, flattened, in document order."""

    id: str
    data: dict
    group: str  # "toc" or "non_toc"
    depth: int
    children: list[str] = field(default_factory=list)
    start_block: Optional[int] = None  # index in blocks.json of the block that starts it


def flatten(document: dict) -> list[Node]:
    """Every node of ``toc`` and ``non_toc`` in reading order: front matter, the numbered tree,
    back matter (a ``non_toc`` node is front matter when it starts before the first section)."""
    toc: list[Node] = []
    kids: dict[int, list[Node]] = {}  # id(parent) -> its child nodes, named once ids are given

    def walk(items: list[dict], depth: int, parent: Optional[Node]) -> None:
        for item in items:
            node = Node(id="", data=item, group="toc", depth=depth)
            toc.append(node)
            if parent:
                kids.setdefault(id(parent), []).append(node)
            walk(item.get("subsections", []), depth + 1, node)

    walk(document.get("toc", []), 0, None)
    first_page = next((n.data["pages"][0] for n in toc if (n.data.get("pages") or [None])[0] is not None), None)
    front, back = [], []
    for item in document.get("non_toc", []):
        start = (item.get("pages") or [None])[0]
        after = first_page is not None and start is not None and start > first_page
        (back if after else front).append(Node(id="", data=item, group="non_toc", depth=0))
    nodes = front + toc + back
    for i, node in enumerate(nodes):
        node.id = f"s{i}"
    for node in nodes:
        node.children = [c.id for c in kids.get(id(node), [])]
    return nodes


# --- where each section starts, and which blocks it holds ----------------------------------


def _key(text: str) -> str:
    """Letters and digits only, lower case: headings are compared through this."""
    return re.sub(r"[^0-9a-z]+", "", TAGS_AND_MARKS.sub(" ", text).lower())


def _starts_here(block: dict, number: str, title: str) -> bool:
    """Is this block the node's heading (number and title, or the number alone on its line)?"""
    first = next((ln for ln in block.get("text", "").splitlines() if ln.strip()), "")
    have, num, ttl = _key(first), _key(number), _key(title)[:24]
    if num:
        return have.startswith(num) and (have == num or (ttl != "" and ttl in have[len(num) : len(num) + 80]))
    return ttl != "" and have.startswith(ttl)


def locate_starts(nodes: list[Node], blocks: list[dict]) -> None:
    """Find each node's heading block, in order: the first block at or after the previous
    node's heading, on the node's first page, whose text begins with its number and title.
    A node whose heading cannot be found keeps ``start_block`` None (no start mark)."""
    cursor = 0
    for node in nodes:
        page = (node.data.get("pages") or [None])[0]
        number, title = node.data.get("number", ""), node.data.get("title", "")
        for i in range(cursor, len(blocks)):
            b = blocks[i]
            if page is not None and b.get("page") is not None:
                if b["page"] < page:
                    continue
                if b["page"] > page:
                    break
            if b.get("dropped") in ("", None) and _starts_here(b, number, title):
                node.start_block, cursor = i, i + 1
                break


def owners(nodes: list[Node], blocks: list[dict]) -> list[Optional[str]]:
    """The node each block belongs to, by ClinParser's reading-order rule: the last heading
    before it. Blocks before the first located heading belong to no node."""
    starts = sorted((n.start_block, n.id) for n in nodes if n.start_block is not None)
    out: list[Optional[str]] = []
    k, current = 0, None
    for i in range(len(blocks)):
        while k < len(starts) and starts[k][0] <= i:
            current = starts[k][1]
            k += 1
        out.append(current)
    return out


# --- a section's content as HTML --------------------------------------------------------------

_md = MarkdownIt("commonmark", {"html": False}).enable("table").disable("image")  # no raw HTML, no fetch


def table_html(table: dict) -> str:
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in table.get("columns", []))
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(str(v))}</td>" for v in row) + "</tr>" for row in table.get("data", [])
    )
    caption = html.escape(table.get("title") or "Table")
    where = f" <small>(p. {table['page']})</small>" if table.get("page") is not None else ""
    return f"<table><caption>{caption}{where}</caption><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def figure_html(image: dict) -> str:
    caption = html.escape(image.get("title") or "Figure")
    picture = f'<img src="{html.escape(image["path"])}" alt="{caption}" loading="lazy">' if image.get("path") else ""
    return f"<figure>{picture}<figcaption>{caption}</figcaption></figure>"


def _placeholder(item: dict, default: str) -> str:
    return f"[{item.get('title') or default}]"


def section_html(node: dict) -> str:
    """The node's Markdown rendered, each ``[Table …]`` / ``[Figure …]`` placeholder line
    replaced by the table (a real HTML table) or the figure it stands for, in order. A table or
    figure whose placeholder is not found is shown after the text: nothing is left out."""
    tables, images = list(node.get("tables", [])), list(node.get("images", []))
    out, prose = [], []

    def flush() -> None:
        if prose:
            out.append(_md.render("\n\n".join(prose)))
            prose.clear()

    for para in re.split(r"\n\s*\n", node.get("text", "")):
        if tables and para.strip() == _placeholder(tables[0], "Table"):
            flush()
            out.append(table_html(tables.pop(0)))
        elif images and para.strip() == _placeholder(images[0], "Image"):
            flush()
            out.append(figure_html(images.pop(0)))
        elif para.strip():
            prose.append(para)
    flush()
    out += [table_html(t) for t in tables] + [figure_html(i) for i in images]
    return "".join(out) or '<p class="hint">(no text of its own)</p>'


# --- diagnostics --------------------------------------------------------------------------------


def diagnostics(metadata: dict, nodes: list[Node], blocks: Optional[list[dict]]) -> list[dict]:
    """One entry per finding, each with the page to jump to (None when unknown) and the node it
    concerns (None when the tree has no such node)."""
    by_number, before = {}, {}
    numbered = [n for n in nodes if n.group == "toc"]
    for k, n in enumerate(numbered):
        by_number.setdefault(_key(n.data.get("number", "")), n.id)
        before.setdefault(_key(n.data.get("number", "")), numbered[k - 1].data.get("number", "") if k else "")
    found = metadata.get("diagnostics", {})
    out = []
    for key, kind in DIAGNOSTIC_KINDS.items():
        for entry in found.get(key, []):
            if key == "unresolved_references":
                where = f"section {entry['section']}" if entry.get("section") else "text outside the numbered sections"
                label = f"“{entry.get('text', '')}” in {where}"
                section = by_number.get(_key(entry.get("section") or ""))
            else:
                label = f"{entry.get('number', '')} {entry.get('title', '')}".strip()
                if key == "numbering_gaps" and before.get(_key(entry.get("number", ""))):
                    label += f" (follows {before[_key(entry.get('number', ''))]})"  # what is skipped between
                section = None if key == "toc_entries_missing_in_body" else by_number.get(_key(entry.get("number", "")))
            out.append({"kind": kind, "label": label, "page": entry.get("page"), "section": section})
    by_title = {_key(n.data.get("title", "")): n.id for n in nodes if n.group == "non_toc"}
    for doc in (found.get("summary") or {}).get("bundled_documents") or []:
        pages = doc.get("pages") or [None]
        label = f"{doc.get('title', '')} ({doc.get('sections', 0)} sections of its own), kept in non_toc"
        out.append(
            {
                "kind": "bundled document",
                "label": label,
                "page": pages[0],
                "section": by_title.get(_key(doc.get("title", ""))),
            }
        )
    ledger = page_ledger(metadata)
    if ledger:  # the converter says where each page's words came from
        for page, record in sorted(ledger.items()):
            label = PAGE_SOURCES[record["source"]] + (f": {record['reason']}" if record.get("reason") else "")
            out.append({"kind": "page " + record["source"], "label": label, "page": page, "section": None})
    elif blocks is not None:  # without a ledger: a page that gave no block at all
        seen = {b["page"] for b in blocks if b.get("page") is not None}
        for page in range(1, (metadata.get("page_count") or 0) + 1):
            if page not in seen:
                out.append(
                    {
                        "kind": "page empty",
                        "label": "nothing was read on this page (a scan? try --ocr)",
                        "page": page,
                        "section": None,
                    }
                )
    out += [{"kind": "warning", "label": w, "page": None, "section": None} for w in metadata.get("warnings", [])]
    return out


PAGE_SOURCES = {  # metadata.pages[].source other than the text layer -> what the list says
    "ocr": "page recovered by OCR",
    "rebuilt": "page text rebuilt from its characters' positions",
    "empty": "no words were read on this page",
}


def page_ledger(metadata: dict) -> dict[int, dict]:
    """The pages whose words did not come straight from the text layer, from the converter's
    page ledger (``metadata.pages``: page, source, reason) when the output has one."""
    return {
        r["page"]: r for r in metadata.get("pages") or [] if isinstance(r, dict) and r.get("source") in PAGE_SOURCES
    }


def _badges(node: Node, findings: list[dict], ledger: dict[int, dict], from_outline: set[str]) -> list[dict]:
    badges = []
    n = sum(1 for d in findings if d["section"] == node.id and d["kind"] != "bundled document")
    if n:
        badges.append({"kind": "", "text": f"{n} finding{'s' if n > 1 else ''}"})
    if any(d["section"] == node.id and d["kind"] == "bundled document" for d in findings):
        badges.append({"kind": "", "text": "bundled document"})
    if node.group == "toc" and _key(node.data.get("number", "")) in from_outline:
        badges.append({"kind": "outline", "text": "no. from outline"})
    first, last = (node.data.get("pages") or [None, None])[:2]
    if first is not None and last is not None:
        sources = sorted({ledger[p]["source"] for p in range(first, last + 1) if p in ledger})
        badges += [{"kind": "", "text": source.upper() if source == "ocr" else source} for source in sources]
    if node.data.get("tables"):
        badges.append({"kind": "tab", "text": f"{len(node.data['tables'])} tab"})
    if node.data.get("images"):
        badges.append({"kind": "fig", "text": f"{len(node.data['images'])} fig"})
    return badges


# --- boxes over the pages -------------------------------------------------------------------


def _spans(table: dict, page: int) -> bool:
    first, last = (table.get("pages") or [table.get("page"), table.get("page")])[:2]
    return first is not None and first <= page <= (last if last is not None else first)


def boxes(nodes: list[Node], blocks: Optional[list[dict]]) -> list[dict]:
    """Section starts, tables and dropped blocks (from blocks.json), figures (from the tree)."""
    out = []
    if blocks is not None:
        owner = owners(nodes, blocks)
        by_id = {n.id: n for n in nodes}
        for n in nodes:
            b = blocks[n.start_block] if n.start_block is not None else {}
            if b.get("page") is not None and b.get("bbox"):  # a DOCX block has neither
                label = f"{n.data.get('number', '')} {n.data.get('title', '')}".strip()
                out.append(
                    {"page": b["page"], "bbox": b["bbox"], "kind": "start", "section": n.id, "label": label or "start"}
                )
        for i, b in enumerate(blocks):
            if b.get("page") is None or not b.get("bbox"):
                continue
            if b.get("dropped"):
                out.append(
                    {
                        "page": b["page"],
                        "bbox": b["bbox"],
                        "kind": "dropped",
                        "section": None,
                        "label": f"dropped ({b['dropped']}): {b.get('text', '')[:80]}",
                    }
                )
            elif b.get("kind") == "table" and owner[i]:
                titled = [t for t in by_id[owner[i]].data.get("tables", []) if _spans(t, b["page"])]
                label = (titled[0].get("title") if titled else "") or "table"
                out.append({"page": b["page"], "bbox": b["bbox"], "kind": "table", "section": owner[i], "label": label})
    for n in nodes:
        for image in n.data.get("images", []):
            if image.get("page") is not None and image.get("bbox"):
                out.append(
                    {
                        "page": image["page"],
                        "bbox": image["bbox"],
                        "kind": "figure",
                        "section": n.id,
                        "label": image.get("title") or "figure",
                    }
                )
    return out


# --- the study definition (document.json's ``study``, when the parse read one) -------------------


def _pages(item: dict) -> list:
    pages = sorted({p for p in item.get("pages") or [] if p is not None})
    return [pages[0], pages[-1]] if pages else [None, None]


def _item_boxes(item: dict) -> list[dict]:
    return [
        {"page": b["page"], "bbox": b["bbox"]}
        for b in item.get("boxes") or []
        if b.get("page") is not None and b.get("bbox")
    ]


def study_data(study: Optional[dict], nodes: list[Node]) -> Optional[dict]:
    """What the Study tab shows: None when the document has no ``study`` (no tab), else its
    identity (titles, identifiers, phase, sponsor), criteria, objectives with their endpoints, the
    study design's items (``study.design.lines``: an arm, an epoch, the masking ...) and the
    readers' diagnostics. Criteria, objectives, endpoints and design items get an id (``c3``,
    ``o1``, ``o1e0``, ``d4``), the section of the tree they were read from and the boxes to light
    on their pages; a design item also the words it was read from (``printed``)."""
    if study is None:
        return None

    def number(text: str) -> str:  # "5.2." is section 5.2; dots kept, so 1.1.1 is not 11.1
        return re.sub(r"\s+", "", text).rstrip(".").lower()

    by_number: dict[str, str] = {}
    for n in nodes:
        key = number(n.data.get("number", "")) if n.data.get("number") else "title:" + _key(n.data.get("title", ""))
        by_number.setdefault(key, n.id)

    def located(item: dict, item_id: str) -> dict:
        section = item.get("section") or ""
        return {
            "id": item_id,
            "text": item.get("text") or "",
            "section": section,
            "pages": _pages(item),
            "boxes": _item_boxes(item),
            "section_id": (by_number.get(number(section)) or by_number.get("title:" + _key(section)))
            if section
            else None,
        }

    titles = [
        {"kind": kind, "text": t["text"], "page": t.get("page")}
        for kind in ("official", "short", "acronym")
        for t in [(study.get("titles") or {}).get(kind)]
        if t and t.get("text")
    ]
    phase = study.get("phase") or {}
    criteria = [
        {
            **located(c, f"c{i}"),
            "category": c.get("category") or "",
            "identifier": c.get("identifier"),
            "applies_to": c.get("applies_to"),
        }
        for i, c in enumerate(study.get("eligibility") or [])
    ]
    objectives = []
    for i, o in enumerate(study.get("objectives") or []):
        endpoints = [
            {**located(e, f"o{i}e{k}"), "level": e.get("level") or "", "label": e.get("label") or ""}
            for k, e in enumerate(o.get("endpoints") or [])
        ]
        objectives.append(
            {
                **located(o, f"o{i}"),
                "level": o.get("level") or "",
                "label": o.get("label") or "",
                "endpoints": endpoints,
            }
        )
    design = [
        {
            **located(line.item, f"d{i}"),
            "text": line.text,
            "part": line.part,
            "label": line.label,
            "printed": " ".join(str(line.item.get("printed") or "").split()),
        }
        for i, line in enumerate(design_lines(study.get("design")))
    ]
    identifiers = [
        {
            "kind": d.get("kind") or "",
            "text": d.get("text") or "",
            "page": d.get("page"),
            "source": d.get("source") or "",
        }
        for d in study.get("identifiers") or []
    ]
    sponsor = study.get("sponsor") if (study.get("sponsor") or {}).get("text") else None
    out = {
        "titles": titles,
        "identifiers": identifiers,
        "phase": {"value": phase.get("value"), "printed": phase.get("printed")}
        if phase.get("value") or phase.get("printed")
        else None,
        "sponsor": {"text": sponsor["text"], "page": sponsor.get("page")} if sponsor else None,
        "criteria": criteria,
        "objectives": objectives,
        "design": design,
        "diagnostics": [
            {"reader": d.get("reader") or "", "kind": d.get("kind") or "", "detail": d.get("detail") or ""}
            for d in study.get("diagnostics") or []
        ],
    }
    out["empty"] = not any(
        out[k] for k in ("titles", "identifiers", "phase", "sponsor", "criteria", "objectives", "design")
    )
    return out


# --- the page ---------------------------------------------------------------------------------


def report_data(document: dict, blocks: Optional[list[dict]], pages: list[dict], no_pages_reason: str) -> dict:
    metadata = document.get("metadata", {})
    nodes = flatten(document)
    if blocks is not None:
        locate_starts(nodes, blocks)
    findings = diagnostics(metadata, nodes, blocks)
    ledger = page_ledger(metadata)
    # Sections whose number is not in the text (an image beside the title): read from the outline.
    from_outline = {
        _key(e.get("number", "")) for e in metadata.get("diagnostics", {}).get("numbers_from_outline") or []
    }
    sections = []
    for n in nodes:
        d = n.data
        sections.append(
            {
                "id": n.id,
                "number": d.get("number", ""),
                "title": d.get("title", ""),
                "level": d.get("level"),
                "depth": n.depth,
                "group": n.group,
                "pages": d.get("pages"),
                "children": n.children,
                "html": section_html(d),
                "badges": _badges(n, findings, ledger, from_outline),
                "start_note": "" if n.start_block is not None or blocks is None else "heading not located on the page",
            }
        )
    for page in pages:  # a page not read from its text layer says so on its number tag
        if page["n"] in ledger:
            page["note"] = ledger[page["n"]]["source"]
    return {
        "source": metadata.get("source", ""),
        "page_count": metadata.get("page_count"),
        "engine": metadata.get("engine", ""),
        "verdict": (metadata.get("diagnostics", {}).get("summary") or {}).get("verdict", ""),
        "pages": pages,
        "no_pages_reason": no_pages_reason,
        "sections": sections,
        "boxes": boxes(nodes, blocks),
        "diagnostics": findings,
        "study": study_data(document.get("study"), nodes),
    }


def _asset(name: str) -> str:
    return resources.files("clinparser.review").joinpath("assets", name).read_text(encoding="utf-8")


def render_html(data: dict) -> str:
    # "<" is written as \u003c inside the JSON, so no text can close the <script> element.
    blob = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":")).replace("<", "\\u003c")
    page = _asset("template.html")
    for key, value in (
        ("__TITLE__", html.escape(data["source"])),
        ("__CSS__", _asset("report.css")),
        ("__JS__", _asset("report.js")),
        ("__DATA__", blob),
    ):
        page = page.replace(key, value, 1)
    return page


def _check_source(source: Path, sha256: Optional[str]) -> None:
    digest = hashlib.sha256()
    try:
        with open(source, "rb") as f:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                digest.update(chunk)
    except OSError as exc:
        raise InputError(f"{source}: cannot read the source ({exc.strerror or exc})") from exc
    if sha256 and digest.hexdigest() != sha256:
        raise InputError(
            f"{source} is not the file this output was parsed from (its sha256 differs from document.json's)"
        )


def build_report(folder: Path, source: Optional[Path] = None, password: Optional[str] = None) -> Path:
    """Write ``folder/report.html`` (and ``folder/pages/`` when ``source`` is a PDF).

    Without ``source``, page pictures an earlier build left are kept; with none, pages are
    drawn as empty frames with their boxes."""
    folder = Path(folder)
    if not folder.is_dir():
        raise InputError(f"{folder}: no such output folder")
    document = _read_json(folder / "document.json", "document.json is missing")
    blocks_path = folder / "blocks.json"
    blocks = _read_json(blocks_path, "blocks.json") if blocks_path.exists() else None
    page_count = document.get("metadata", {}).get("page_count") or 0
    reason = ""
    if source is not None:
        _check_source(Path(source), document.get("metadata", {}).get("sha256"))
    try:
        if source is not None and Path(source).suffix.lower() == ".pdf":
            pages = render_pages(Path(source), folder, password)
        else:
            pages = existing_pages(folder, page_count)
            if not pages:
                reason = (
                    "the source is not a PDF" if source is not None else "no page pictures: rebuild with the source PDF"
                )
                pages = blank_pages(blocks, page_count)  # none for a DOCX: it has no pages
        if blocks is None:
            reason = (reason + "; " if reason else "") + "no blocks.json (written unless --no-intermediate): no boxes"
        (folder / REPORT_FILE).write_text(render_html(report_data(document, blocks, pages, reason)), encoding="utf-8")
    except OSError as exc:
        raise OutputError(f"cannot write the report into {folder}: {exc.strerror or exc}") from exc
    return folder / REPORT_FILE
