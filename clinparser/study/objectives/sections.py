"""Where a document prints its objectives and endpoints: the body's sections, the synopsis, the
objectives section, the sections that list endpoints apart, and a section's pages."""

from __future__ import annotations

from ...document_types import Document
from .vocabulary import ENDPOINT_WORD, MEASURES_SECTION, NOT_A_LIST, NOT_ROOT, OBJECTIVE_WORD, SYNOPSIS, VARIABLES_TITLE


def body_sections(document: Document) -> list[tuple[dict, list[dict]]]:
    """(section, ancestors) in reading order, the synopsis and its subsections left out."""
    out: list[tuple[dict, list[dict]]] = []

    def walk(sections, ancestors):
        for s in sections:
            if SYNOPSIS.search(s.get("title") or ""):
                continue
            out.append((s, ancestors))
            walk(s.get("subsections") or [], ancestors + [s])

    walk(document.get("toc") or [], [])
    if not out:  # no printed contents: the sections the parser found are the body
        walk(document.get("non_toc") or [], [])
    return out


def synopsis_sections(document: Document) -> list[dict]:
    out = []

    def walk(sections, inside):
        for s in sections:
            now = inside or bool(SYNOPSIS.search(s.get("title") or ""))
            if now:
                out.append(s)
            walk(s.get("subsections") or [], now)

    walk(document.get("toc") or [], False)
    walk(document.get("non_toc") or [], False)
    return out


def objectives_root(document: Document) -> dict | None:
    """The first body section whose title names objectives (its subsections with it)."""
    for section, _ in body_sections(document):
        title = section.get("title") or ""
        if OBJECTIVE_WORD.search(title) and not NOT_ROOT.search(title):
            return section
    return None


def endpoint_sections(document: Document, root: dict | None) -> list[dict]:
    """Topmost body sections, outside ``root``, whose titles name endpoints."""
    out: list[dict] = []
    inside_root = set()
    if root is not None:
        stack = [root]
        while stack:
            s = stack.pop()
            inside_root.add(id(s))
            stack.extend(s.get("subsections") or [])
    for section, ancestors in body_sections(document):
        title = section.get("title") or ""
        if id(section) in inside_root or any(id(a) in {id(o) for o in out} for a in ancestors):
            continue
        listed = (
            (ENDPOINT_WORD.search(title) and not NOT_A_LIST.search(title))
            or VARIABLES_TITLE.search(title)
            or MEASURES_SECTION.search(title)
        )
        if listed and not any(NOT_ROOT.search(a.get("title") or "") for a in ancestors):
            out.append(section)
    return out


def page_range(section: dict) -> tuple[int | None, int | None]:
    pages = section.get("pages") or []
    if not pages:
        return None, None
    return pages[0], pages[-1]
