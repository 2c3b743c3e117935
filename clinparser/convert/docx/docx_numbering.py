"""Word's automatic paragraph numbering, computed as Word displays it.

A Word heading numbered by a multilevel list carries no number in its text: the number is
drawn from ``word/numbering.xml`` when the document is shown. The section tree is built from
numbers, so the numbers are replayed here from the numbering definitions:

- a paragraph is numbered by its own ``w:numPr`` or by its paragraph style's (through
  ``w:basedOn``; ``numId`` and ``ilvl`` inherit separately; ``numId`` 0 switches numbering off);
- a ``w:num`` points at an ``w:abstractNum`` (possibly through a numbering style,
  ``w:numStyleLink``), may replace levels (``w:lvlOverride/w:lvl``) and restart them
  (``w:lvlOverride/w:startOverride``, applied where that ``w:num`` is first used);
- every ``w:num`` on one abstract definition shares its counters, and every numbered paragraph
  advances them, whatever its style: a numbered list item between two headings of the same
  list shifts the second heading's number, as it does in Word;
- using a level restarts the deeper levels (``w:lvlRestart`` can limit or stop that); a
  deeper level used first gives its unused parent levels their start values (Word numbers
  Heading 2, Heading 2, Heading 1 as 1.1, 1.2, 2);
- ``w:lvlText`` ("%1.%2", "Appendix %1") is filled with each level's counter in that level's
  ``w:numFmt`` (decimal, letters, Roman, zero-padded ...), or all in decimal when the level
  is ``w:isLgl``.

Only the standard library reads the package (``zipfile`` + ``xml.etree``).
"""

from __future__ import annotations

import re
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator, Optional
from xml.etree import ElementTree as ET

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
MC_FALLBACK = "{http://schemas.openxmlformats.org/markup-compatibility/2006}Fallback"
OFF = ("0", "false", "off")
MAX_LEVELS = 9


@dataclass(frozen=True)
class Level:
    """One ``w:lvl`` of a numbering definition."""

    start: int = 1
    fmt: str = "decimal"
    text: Optional[str] = None  # lvlText; None when absent
    restart: Optional[int] = None  # lvlRestart: None = after any higher level, 0 = never
    legal: bool = False  # isLgl
    style: str = ""  # pStyle: the paragraph style linked to this level


@dataclass
class NumberedParagraph:
    """A body paragraph in document order, with the number Word shows in front of it."""

    index: int  # position among the body paragraphs (document order)
    text: str
    style: str  # paragraph style id ("" for the default)
    heading: bool  # a heading style or outline level 1-9
    in_table: bool = False
    label: str = ""  # the number as displayed, e.g. "5.3", "Appendix B", "iv."; "" if none
    level: Optional[int] = None  # 0-based list level when numbered
    fmt: str = ""  # numFmt of that level
    # Text of the superscript runs that end the paragraph (a citation "68" after a heading's
    # title): the converter's text glues it to the last word.
    trailing_superscript: str = ""


@dataclass
class _Style:
    based_on: str = ""
    num_id: Optional[str] = None
    ilvl: Optional[int] = None
    outline: Optional[int] = None
    name: str = ""
    kind: str = "paragraph"
    superscript: bool = False  # a character style set in superscript (e.g. a citation style)


@dataclass
class _Numbering:
    """numbering.xml: abstract definitions and the instances (``w:num``) pointing at them."""

    abstract_levels: dict[str, dict[int, Level]] = field(default_factory=dict)
    abstract_link: dict[str, str] = field(default_factory=dict)  # abstractNumId -> numStyleLink style
    nums: dict[str, str] = field(default_factory=dict)  # numId -> abstractNumId
    level_overrides: dict[str, dict[int, Level]] = field(default_factory=dict)
    start_overrides: dict[str, dict[int, int]] = field(default_factory=dict)


def read_numbered_paragraphs(path: Path) -> list[NumberedParagraph]:
    """Every paragraph of the document body, with Word's automatic number where it has one."""
    with zipfile.ZipFile(path) as z:
        main = _main_part(z)
        related = _related_parts(z, main)
        document = _xml(z, main)
        styles = _read_styles(_xml(z, related["styles"])) if related.get("styles") in z.namelist() else {}
        numbering = (
            _read_numbering(_xml(z, related["numbering"])) if related.get("numbering") in z.namelist() else _Numbering()
        )
    return number_paragraphs(document, styles, numbering)


REL = "{http://schemas.openxmlformats.org/package/2006/relationships}Relationship"
STRICT_W = b"http://purl.oclc.org/ooxml/wordprocessingml/main"


def _xml(z: zipfile.ZipFile, name: str) -> ET.Element:
    # Strict OOXML names the same vocabulary with another namespace: read both as one.
    return ET.fromstring(z.read(name).replace(STRICT_W, W[1:-1].encode()))


def _main_part(z: zipfile.ZipFile) -> str:
    """The document part the package names (usually word/document.xml)."""
    if "_rels/.rels" in z.namelist():
        for rel in ET.fromstring(z.read("_rels/.rels")).iter(REL):
            if rel.get("Type", "").endswith("/officeDocument"):
                return rel.get("Target", "").lstrip("/")
    return "word/document.xml"


def _related_parts(z: zipfile.ZipFile, main: str) -> dict[str, str]:
    """{"styles": part name, "numbering": part name} from the document part's relationships."""
    folder, _, name = main.rpartition("/")
    prefix = f"{folder}/" if folder else ""
    parts = {"styles": f"{prefix}styles.xml", "numbering": f"{prefix}numbering.xml"}
    rels = f"{prefix}_rels/{name}.rels"
    if rels in z.namelist():
        for rel in ET.fromstring(z.read(rels)).iter(REL):
            kind = rel.get("Type", "").rsplit("/", 1)[-1]
            target = rel.get("Target", "")
            if kind in parts and rel.get("TargetMode") != "External":
                parts[kind] = target.lstrip("/") if target.startswith("/") else f"{prefix}{target}"
    return parts


def number_paragraphs(
    document: ET.Element, styles: dict[str, _Style], numbering: _Numbering
) -> list[NumberedParagraph]:
    counters = _Counters(numbering, styles)
    out = []
    for index, (p, in_table) in enumerate(_body_paragraphs(document)):
        style = _paragraph_style(p)
        para = NumberedParagraph(index, paragraph_text(p), style, _is_heading(style, p, styles), in_table)
        para.trailing_superscript = trailing_superscript(p, styles)
        num_id, ilvl = _numbering_of(p, style, styles, numbering)
        if num_id is not None and not _deleted(p, para.text):
            counters.advance(para, num_id, ilvl)
        out.append(para)
    return out


def _deleted(p: ET.Element, text: str) -> bool:
    """A paragraph deleted with tracked changes on: gone in the final document, so it takes
    no number (its mark is deleted and no text remains outside the deletions)."""
    mark = p.find(f"{W}pPr/{W}rPr")
    return (
        mark is not None
        and (mark.find(W + "del") is not None or mark.find(W + "moveFrom") is not None)
        and not text.strip()
    )


# --- reading the package -------------------------------------------------------------------


def _val(el: Optional[ET.Element], default: Optional[str] = None) -> Optional[str]:
    if el is None:
        return default
    return el.get(W + "val", default)


def _int(text: Optional[str]) -> Optional[int]:
    try:
        return int(text) if text is not None else None
    except ValueError:
        return None


def _on(el: Optional[ET.Element]) -> bool:
    """A toggle property: present and not switched off."""
    return el is not None and (_val(el) or "1").lower() not in OFF


def _read_styles(root: ET.Element) -> dict[str, _Style]:
    styles = {}
    for s in root.iter(W + "style"):
        style_id = s.get(W + "styleId")
        if not style_id:
            continue
        st = _Style(
            based_on=_val(s.find(W + "basedOn"), "") or "",
            name=(_val(s.find(W + "name"), "") or ""),
            kind=s.get(W + "type", "paragraph"),
        )
        ppr = s.find(W + "pPr")
        if ppr is not None:
            num_pr = ppr.find(W + "numPr")
            if num_pr is not None:
                st.num_id = _val(num_pr.find(W + "numId"))
                st.ilvl = _int(_val(num_pr.find(W + "ilvl")))
            st.outline = _int(_val(ppr.find(W + "outlineLvl")))
        st.superscript = _val(s.find(f"{W}rPr/{W}vertAlign")) == "superscript"
        styles[style_id] = st
    return styles


def _read_level(lvl: ET.Element) -> Level:
    text_el = lvl.find(W + "lvlText")
    return Level(
        start=_int(_val(lvl.find(W + "start"))) if lvl.find(W + "start") is not None else 1,
        fmt=_val(lvl.find(W + "numFmt"), "decimal") or "decimal",
        text=text_el.get(W + "val") if text_el is not None else None,
        restart=_int(_val(lvl.find(W + "lvlRestart"))),
        legal=_on(lvl.find(W + "isLgl")),
        style=_val(lvl.find(W + "pStyle"), "") or "",
    )


def _levels(parent: ET.Element) -> dict[int, Level]:
    out = {}
    for lvl in parent.findall(W + "lvl"):
        ilvl = _int(lvl.get(W + "ilvl"))
        if ilvl is not None and 0 <= ilvl < MAX_LEVELS:
            out[ilvl] = _read_level(lvl)
    return out


def _read_numbering(root: ET.Element) -> _Numbering:
    n = _Numbering()
    for a in root.findall(W + "abstractNum"):
        aid = a.get(W + "abstractNumId")
        if aid is None:
            continue
        n.abstract_levels[aid] = _levels(a)
        link = _val(a.find(W + "numStyleLink"))
        if link:
            n.abstract_link[aid] = link
    for num in root.findall(W + "num"):
        nid = num.get(W + "numId")
        aid = _val(num.find(W + "abstractNumId"))
        if nid is None or aid is None:
            continue
        n.nums[nid] = aid
        for o in num.findall(W + "lvlOverride"):
            ilvl = _int(o.get(W + "ilvl"))
            if ilvl is None or not 0 <= ilvl < MAX_LEVELS:
                continue
            start = o.find(W + "startOverride")
            if start is not None and _int(_val(start)) is not None:
                n.start_overrides.setdefault(nid, {})[ilvl] = _int(_val(start))
            lvl = o.find(W + "lvl")
            if lvl is not None:
                n.level_overrides.setdefault(nid, {})[ilvl] = _read_level(lvl)
    return n


def _body_paragraphs(document: ET.Element) -> Iterator[tuple[ET.Element, bool]]:
    """(paragraph, inside a table?) in document order; text boxes left out (Word anchors
    them elsewhere, and their Fallback copy would count them twice)."""
    body = document.find(W + "body")
    if body is None:
        return

    def walk(el, in_table):
        for child in el:
            if child.tag in (W + "txbxContent", MC_FALLBACK):
                continue
            if child.tag == W + "p":
                yield child, in_table
            yield from walk(child, in_table or child.tag == W + "tbl")

    yield from walk(body, False)


def paragraph_text(p: ET.Element) -> str:
    """The visible text of a paragraph: its runs' text, tabs as tabs, hidden runs and the
    text of text boxes anchored in it left out."""
    parts = []
    for r in _runs(p):
        rpr = r.find(W + "rPr")
        if rpr is not None and _on(rpr.find(W + "vanish")):
            continue
        for child in r:
            if child.tag == W + "t":
                parts.append(child.text or "")
            elif child.tag == W + "tab":
                parts.append("\t")
            elif child.tag in (W + "br", W + "cr"):
                parts.append("\n")
    return "".join(parts)


def trailing_superscript(p: ET.Element, styles: dict[str, _Style]) -> str:
    """The text of the superscript runs at the end of the paragraph ("" if it ends otherwise)."""
    tail = []
    for r in _runs(p):
        rpr = r.find(W + "rPr")
        if rpr is not None and _on(rpr.find(W + "vanish")):
            continue
        text = "".join(t.text or "" for t in r.findall(W + "t"))
        if not text.strip():
            continue
        if _superscript(rpr, styles):
            tail.append(text)
        else:
            tail = []
    return "".join(tail).strip()


def _superscript(rpr: Optional[ET.Element], styles: dict[str, _Style]) -> bool:
    """Is a run set in superscript, directly or by its character style?"""
    if rpr is None:
        return False
    direct = _val(rpr.find(W + "vertAlign"))
    if direct is not None:
        return direct == "superscript"
    return any(st.superscript for _, st in _style_chain(_val(rpr.find(W + "rStyle"), "") or "", styles))


def _runs(el: ET.Element) -> Iterator[ET.Element]:
    for child in el:
        if child.tag in (W + "txbxContent", MC_FALLBACK):
            continue
        if child.tag == W + "r":
            yield child
        yield from _runs(child)  # runs inside hyperlinks, fields, insertions, content controls


def _paragraph_style(p: ET.Element) -> str:
    return _val(p.find(f"{W}pPr/{W}pStyle"), "") or ""


def _style_chain(style_id: str, styles: dict[str, _Style]) -> Iterator[tuple[str, _Style]]:
    seen = set()
    while style_id and style_id in styles and style_id not in seen:
        seen.add(style_id)
        yield style_id, styles[style_id]
        style_id = styles[style_id].based_on


def _is_heading(style_id: str, p: ET.Element, styles: dict[str, _Style]) -> bool:
    """A heading as Word's navigation pane sees it: outline level 1-9, direct or by style."""
    own = _int(_val(p.find(f"{W}pPr/{W}outlineLvl")))
    if own is not None:
        return own < 9
    for _sid, st in _style_chain(style_id, styles):
        if st.outline is not None:
            return st.outline < 9
        if re.fullmatch(r"heading [1-9]", st.name.lower()):
            return True
    return False


def _numbering_of(
    p: ET.Element, style_id: str, styles: dict[str, _Style], numbering: _Numbering
) -> tuple[Optional[str], int]:
    """(numId, ilvl) that numbers this paragraph, or (None, 0)."""
    num_pr = p.find(f"{W}pPr/{W}numPr")
    num_id = ilvl = None
    if num_pr is not None:
        num_id = _val(num_pr.find(W + "numId"))
        ilvl = _int(_val(num_pr.find(W + "ilvl")))
    style_num, style_ilvl, linked_style = None, None, ""
    for sid, st in _style_chain(style_id, styles):
        if style_num is None and st.num_id is not None:
            style_num, linked_style = st.num_id, sid
        if style_ilvl is None and st.ilvl is not None:
            style_ilvl = st.ilvl
    num_id = num_id if num_id is not None else style_num
    if num_id is None or num_id == "0" or num_id not in numbering.nums:
        return None, 0
    if ilvl is None:
        ilvl = style_ilvl
    if ilvl is None and linked_style:
        # A style linked to a list level without an ilvl: the level whose pStyle names it.
        levels = _effective_levels(numbering, num_id, styles)
        ilvl = next((k for k, lv in sorted(levels.items()) if lv.style == linked_style), 0)
    return num_id, min(max(ilvl or 0, 0), MAX_LEVELS - 1)


def _abstract_id(numbering: _Numbering, num_id: str, styles: dict[str, _Style]) -> Optional[str]:
    """The abstract definition a numId uses, following numbering-style links."""
    aid = numbering.nums.get(num_id)
    for _ in range(4):  # a link points at a style whose numId points at the real definition
        link = numbering.abstract_link.get(aid or "")
        if not link or link not in styles or styles[link].num_id not in numbering.nums:
            break
        aid = numbering.nums[styles[link].num_id]
    return aid


def _effective_levels(numbering: _Numbering, num_id: str, styles: dict[str, _Style]) -> dict[int, Level]:
    levels = dict(numbering.abstract_levels.get(_abstract_id(numbering, num_id, styles) or "", {}))
    levels.update(numbering.level_overrides.get(num_id, {}))
    return levels


# --- counting -------------------------------------------------------------------------------


class _Counters:
    """Word's list counters, one set per abstract definition, advanced paragraph by paragraph."""

    def __init__(self, numbering: _Numbering, styles: dict[str, _Style]):
        self.numbering = numbering
        self.styles = styles
        self.values: dict[str, list[Optional[int]]] = {}
        self.seen_nums: set[str] = set()

    def advance(self, para: NumberedParagraph, num_id: str, ilvl: int) -> None:
        aid = _abstract_id(self.numbering, num_id, self.styles) or f"num:{num_id}"
        levels = _effective_levels(self.numbering, num_id, self.styles)
        overrides = self.numbering.start_overrides.get(num_id, {})

        def start(k: int) -> int:
            return overrides.get(k, levels.get(k, Level()).start)

        values = self.values.setdefault(aid, [None] * MAX_LEVELS)
        if num_id not in self.seen_nums:
            self.seen_nums.add(num_id)
            for k in overrides:  # a startOverride restarts its level where this list instance begins
                values[k] = None
        level = levels.get(ilvl, Level())
        values[ilvl] = start(ilvl) if values[ilvl] is None else values[ilvl] + 1
        for k in range(ilvl):
            if values[k] is None:
                values[k] = start(k)
        for k in range(ilvl + 1, MAX_LEVELS):
            restart = levels.get(k, Level()).restart
            if restart is None or (restart > 0 and ilvl < restart):
                values[k] = None
        para.level = ilvl
        para.fmt = level.fmt
        para.label = _render(ilvl, level, levels, values, start)


def _render(ilvl: int, level: Level, levels: dict[int, Level], values: list[Optional[int]], start) -> str:
    if level.text is None or level.fmt == "bullet":
        return ""  # no number (a bullet is a symbol, not a number)
    if any(int(k) - 1 > ilvl for k in re.findall(r"%([1-9])", level.text)):
        return ""  # Word ignores a level text that refers to a deeper level

    def fill(m: re.Match) -> str:
        k = int(m.group(1)) - 1
        lv = levels.get(k, Level())
        value = values[k] if values[k] is not None else start(k)
        fmt = "decimal" if level.legal and lv.fmt not in ("none", "bullet") else lv.fmt
        return format_number(value, fmt)

    label = re.sub(r"%([1-9])", fill, level.text).strip()
    return label if any(ch.isalnum() for ch in label) else ""  # "." left of a "none" level


_ROMAN = (
    (1000, "m"),
    (900, "cm"),
    (500, "d"),
    (400, "cd"),
    (100, "c"),
    (90, "xc"),
    (50, "l"),
    (40, "xl"),
    (10, "x"),
    (9, "ix"),
    (5, "v"),
    (4, "iv"),
    (1, "i"),
)


def format_number(value: int, fmt: str) -> str:
    """A counter in a Word number format; formats without a Latin form fall back to decimal."""
    if fmt in ("none", "bullet"):
        return ""
    if fmt in ("upperLetter", "lowerLetter"):
        if value < 1:
            return str(value)
        # Word's letters repeat past Z: A ... Z, AA ... ZZ, AAA ...
        s = chr(ord("a") + (value - 1) % 26) * ((value - 1) // 26 + 1)
        return s.upper() if fmt == "upperLetter" else s
    if fmt in ("upperRoman", "lowerRoman"):
        if not 0 < value < 4000:
            return str(value)
        s, rest = "", value
        for n, sym in _ROMAN:
            while rest >= n:
                s, rest = s + sym, rest - n
        return s.upper() if fmt == "upperRoman" else s
    if fmt == "decimalZero":
        return f"{value:02d}"
    if fmt == "ordinal":
        suffix = "th" if 10 <= value % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(value % 10, "th")
        return f"{value}{suffix}"
    return str(value)
