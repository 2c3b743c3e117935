"""The text of a section as units (headings, paragraphs, list items, tables), and its list items
grouped under their lead-ins, sub-items joined into the items they hang from."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...shared.markup import strip_markup
from ..trace import Tracer
from .sections import page_range
from .vocabulary import GLYPH, LIST_MARK, plain

_TABLE_PLACEHOLDER = re.compile(r"^\[(?:Table\b[^\]]*)\]$")
_IMAGE_PLACEHOLDER = re.compile(r"^\[(?:Image|Figure)\b[^\]]*\]$")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s")
# A whole line in bold, italics or underline: the layout model's way of printing a lead-in label.
_EMPHASIS_LINE = re.compile(r"^\s*(?:\*\*|__|<u>|<b>|_)(?P<body>.+?)(?:\*\*|__|</u>|</b>|_)\s*:?\s*$")
# "**Primary Objective:** text" or "**Objective** : text": a label glued to its item.
_LEAD_LABEL = re.compile(r"^\s*(?:\*\*|__)(?P<label>[^*_]{1,60}?)\s*:?\s*(?:\*\*|__)\s*:?\s*(?P<rest>\S.*)$")
_INDENT_STEP = 6.0  # points: a list item this much right of its list's left edge is a sub-item


@dataclass
class Unit:
    """One piece of a section's text: a heading, a paragraph, a list item or a table."""

    kind: str  # "heading" | "para" | "item" | "table"
    text: str = ""
    indent: int = 0
    table: dict | None = None
    label: str = ""  # a bold label glued to the start of a paragraph or item
    glyph: str = ""  # the bullet glyph an item prints after its list mark ("!", a Wingdings dot)
    marker: str = ""  # the item's printed ordinal ("2.", "(b)", "a.") or list mark ("-")


_ORDINAL = re.compile(r"^\s*(\(\d{1,2}\)|\d{1,2}[.)]|\([a-z]\)|[a-z][.)])(?=\s)")


def _marker_of(line: str, mark: re.Match | None) -> str:
    """The ordinal a line prints ("2." of "2. text", "(b)" of "- (b) text" or of "(b) text"),
    else its list mark ("-"), else ""."""
    own = mark.group(0).strip() if mark else ""
    if _ORDINAL.match(own + " "):
        return own
    found = _ORDINAL.match(line[mark.end() :] if mark else line)
    return found.group(1) if found else own


def _arabic(marker: str) -> int | None:
    m = re.fullmatch(r"\(?(\d{1,2})[.)]", marker)
    return int(m.group(1)) if m else None


def units_of(section: dict) -> list[Unit]:
    tables = list(section.get("tables") or [])
    units: list[Unit] = []
    for raw in (section.get("text") or "").split("\n"):
        line = raw.rstrip()
        if not line.strip():
            continue
        stripped = line.strip()
        if _TABLE_PLACEHOLDER.match(stripped):
            if tables:
                units.append(Unit("table", table=tables.pop(0)))
            continue
        if _IMAGE_PLACEHOLDER.match(stripped) or stripped.startswith(">"):
            continue  # pictures; footnotes set as quotes
        if _HEADING.match(line):
            units.append(Unit("heading", plain(line)))
            continue
        mark = LIST_MARK.match(line)
        kind = "item" if mark else "para"
        body = line[mark.end() :] if mark else line
        body = re.sub(r"^\s*(?:\(\d{1,2}\)|\d{1,2}[.)])\s+", "", body)  # "- (1) ...": a printed number
        emph = _EMPHASIS_LINE.match(body)
        if kind == "para" and emph and len(plain(body).split()) <= 10 and not plain(body).endswith("."):
            units.append(Unit("heading", plain(body)))  # a bold/underlined lead-in line
            continue
        label = ""
        lead = _LEAD_LABEL.match(body)
        if lead and len(lead["label"].split()) <= 6:
            label, body = lead["label"].strip(), lead["rest"]
            if not plain(body):
                units.append(Unit("heading", label))
                continue
        text = plain(body)
        if not text:
            continue
        glyph = GLYPH.match(strip_markup(body)) if mark else None
        units.append(
            Unit(
                kind,
                text,
                indent=len(mark["indent"]) if mark else 0,
                label=label,
                glyph=glyph.group(0).strip() if glyph else "",
                marker=_marker_of(line, mark),
            )
        )
    for table in tables:  # tables the text did not place: read them after the text
        units.append(Unit("table", table=table))
    return units


def joined_continuations(block: list[Unit]) -> list[Unit]:
    """A paragraph broken by a page turn continues in lower case: join it back."""
    out: list[Unit] = []
    for unit in block:
        if (
            out
            and unit.kind == "para"
            and out[-1].kind == "para"
            and unit.text[:1].islower()
            and not out[-1].text.endswith((".", ":"))
        ):
            out[-1] = Unit("para", out[-1].text + " " + unit.text, label=out[-1].label)
        elif out and unit.kind == "para" and unit.text[:1].islower() and out[-1].kind == "item":
            # "and to assess ...:" (or "(c) a three-category ...") keeps a list going
            out.append(Unit("item", unit.text, indent=99, marker=unit.marker))
        else:
            out.append(unit)
    return out


def groups_of(block: list[Unit], section: dict, tracer: Tracer) -> list[tuple[Unit | None, list[str]]]:
    """(lead-in paragraph or None, list item texts) in order; sub-items joined into their item.

    A paragraph followed by list items is their lead-in; list items with no paragraph before
    them form a group of their own; a paragraph followed by a paragraph stands alone."""
    groups: list[tuple[Unit | None, list[Unit]]] = []
    for unit in block:
        if unit.kind == "para":
            if (
                groups
                and groups[-1][0] is not None
                and groups[-1][1]
                and groups[-1][0].text.endswith(":")
                and unit.text[:1].islower()
            ):
                groups[-1][1].append(Unit("item", unit.text, indent=99))
                continue
            groups.append((unit, []))
        elif groups and (
            groups[-1][0] is None
            or groups[-1][0].text.endswith(":")
            or groups[-1][0].text.endswith(tuple("abcdefghijklmnopqrstuvwxyz"))
            or groups[-1][1]
        ):
            groups[-1][1].append(unit)
        else:
            groups.append((None, [unit]))
    return [(lead, _nest(members, section, tracer)) for lead, members in groups]


def _nest(members: list[Unit], section: dict, tracer: Tracer) -> list[str]:
    """Item texts with each sub-item joined into the item it hangs from.

    An item ending in ":" opens sub-items; the items after it are its sub-items when they are
    indented (in the Markdown, or on the page per the tracer) or start in lower case."""
    if not members:
        return []
    xs = [_left_edge(u.text, section, tracer) for u in members]
    known = [x for x in xs if x is not None]
    left = min(known) if known else None
    out: list[str] = []
    opener = False  # the last top-level item ended in ":" -- what follows may hang from it
    # A list whose items print a glyph after their mark ("- ! Lipids (mg/dL)") and some items
    # without one: those are the sub-items of the glyph item before them (two levels of
    # bullets, told apart by the glyph the page prints).
    glyphs = {u.glyph for u in members if u.glyph}
    two_levels = len(glyphs) == 1 and members[0].glyph and any(not u.glyph for u in members)
    # A list numbered 1, 2, 3 ...: an item that does not carry the count on ("(b)", "a.", a
    # "1." restarting under item 5, a bullet) belongs to the numbered item above it.
    expected = _arabic(members[0].marker)
    numbered = expected is not None and any(_arabic(u.marker) != expected + k for k, u in enumerate(members))
    for unit, x in zip(members, xs):
        if numbered and out:
            if _arabic(unit.marker) == expected + 1:
                expected += 1
                out.append(unit.text)
            else:
                out[-1] = out[-1] + " " + unit.text
            continue
        if out and two_levels and not unit.glyph:
            out[-1] = out[-1] + " " + unit.text
            continue
        indented = unit.indent > members[0].indent or (x is not None and left is not None and x > left + _INDENT_STEP)
        at_left = unit.indent == members[0].indent and x is not None and left is not None and x <= left + _INDENT_STEP
        if out and opener and (indented or unit.text[:1].islower() or not at_left):
            out[-1] = out[-1] + " " + unit.text  # a sub-item (or one that cannot be placed)
            continue
        out.append(unit.text)
        opener = unit.text.endswith(":")
    return out


def _left_edge(text: str, section: dict, tracer: Tracer) -> float | None:
    first, last = page_range(section)
    found = tracer.trace(text, first, last)
    boxes = found.get("boxes") or []
    if not boxes or not boxes[0].get("bbox"):
        return None
    return float(boxes[0]["bbox"][0])
