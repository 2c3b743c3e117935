"""Cross-references: find "Section 5.2", "Appendix 2", "Table 3", "Figure 1" in section text
and resolve each to the node (or the node's table/figure) it points at.

A lookup is built once per document (:class:`_Lookup`); resolving a mention is a dict access.

- section/appendix targets are the target node's ``number``, spelled as the document spells it.
  Numbers are compared normalized (``numbering.normalize_number``): ``"5.2."`` answers
  ``"Section 5.2"``; ``"APPENDIX 2"``, ``"Protocol Attachment LZZT.2"`` and a node ``10.2``
  titled ``"Appendix 2: ..."`` answer ``"Appendix 2"``. In a Roman-outline document a node is
  known by its path: ``III.`` > ``B.`` answers ``"Section III.B"``. A number that is no node but
  a numbered item inside one (exclusion criterion ``4.2.4`` in the text of ``4.2``) resolves to
  the node holding the item.
- table/figure targets are ``{"section": <number of the node holding it>, "index": <1-based
  index in that node's tables / images>}``, found by the label its title starts with
  (``"Table 1"`` falls back to ``"Table 1a"`` when the document splits its Table 1).
- a mention nothing answers gets ``"target": None`` and is also returned to the caller.

Not mentions: placeholder lines (``[Table 2: ...]``), table rows (``| ... |``), listing lines
(dot leaders) and listing nodes (Table of Contents, List of Tables ...), the node's own
heading, "Section" without a number, and references into other documents: ``Section 505(i)``,
``Section 5(a)`` (a parenthesis after the number), ``Section 4 of the Act`` / ``... of the
Investigator's Brochure`` / ``of ICH E6`` / ``of the SAP``, ``21 CFR Section 312``.
"""

from __future__ import annotations

import re
from typing import Iterator, Optional

from ..model import Section
from ..shared.numbering import APPENDIX, ROMAN, normalize_number, normalize_title, parse_number, strip_markup

SECTION, APPENDIX_KIND, TABLE, FIGURE = "section", "appendix", "table", "figure"

# Identifiers. Each must end there: not "505(i)", "5a", or "5.2" cut out of "5.2.1".
_END = r"(?![\w(]|\.\d)"
_SECTION_ID = (
    r"(?:\d{1,2}(?:\.\d{1,3}){0,6}"  # 5, 5.2, 8.3.1
    r"|[IVX]{1,5}(?:\.[A-Z](?:\.\d{1,2}){0,4})?"  # III, III.B, III.B.2
    r"|[A-Z]\.\d{1,2}(?:\.\d{1,2}){0,4})"  # A.1 (sections of a lettered appendix)
)
_APPENDIX_ID = r"(?:(?:[A-Z]{2,8}\.)?\d{1,2}(?:\.\d{1,3}){0,6}|[IVX]{1,5}|[A-Z](?:\.\d{1,2}){0,4})"
_CAPTION_ID = r"(?:[A-Z]{1,6}[.\-]?)?\d{1,3}(?:[.\-]\d{1,3}){0,4}[a-z]?"  # 3, 1a, S1, LZZT.1, 14.2-1
# Between the items of a list: "6.1, 6.2 and 6.3", "6.1 to 6.3", "6.1-6.3", "1 & 2".
_SEP = r"\s*(?:,\s*(?:and\s+|or\s+)?|\s(?:and|or|to|through|thru)\s|[-\u2013\u2014&])\s*"
_RANGE_SEP = re.compile(r"^\s*(?:to|through|thru|[-\u2013\u2014])\s*$")


def _pattern(words: str, ident: str) -> tuple[re.Pattern, re.Pattern]:
    """(the whole mention "Sections 6.1 to 6.3", one list item "to 6.3")."""
    item = f"{ident}{_END}"
    mention = re.compile(rf"\b(?P<word>{words}):?\s+(?P<ids>{item}(?:{_SEP}{item})*)")
    return mention, re.compile(rf"(?P<sep>{_SEP})?(?P<id>{item})")


_PATTERNS = [
    (kind, *_pattern(words, ident))
    for kind, words, ident in (
        (SECTION, r"(?i:sections?)", _SECTION_ID),
        (APPENDIX_KIND, r"(?i:appendix|appendices|annex(?:es)?|(?:protocol\s+)?attachments?)", _APPENDIX_ID),
        (TABLE, r"(?i:tables?)", _CAPTION_ID),
        (FIGURE, r"(?i:figures?|figs?\.)", _CAPTION_ID),
    )
]
# "see 5.2", "(see also 5.2.1)": a bare dotted number right after "see", when it is no dose.
_UNIT = (
    r"(?:%|[a-zA-Z\u00b5\u03bc]{1,4}/"
    r"|(?:mg|mcg|\u00b5g|g|kg|mL|ml|L|mmol|IU|units?|times|fold|[hH]ours?|days?|weeks?|months?|years?)\b)"
)
_SEE = re.compile(rf"\b(?i:see)\s+(?:(?i:also)\s+)?(?P<ids>\d{{1,2}}(?:\.\d{{1,3}}){{1,6}}){_END}(?!\s*{_UNIT})")
_CAPTION_LABEL = re.compile(rf"^(?P<word>(?i:table|figure|fig\.?))\s+(?P<id>{_CAPTION_ID}){_END}")

# What carries no mentions.
_PLACEHOLDER = re.compile(r"^\s*\[(?i:table|figure|fig\.|image)\b[^\]]*\]\s*$")
_TABLE_ROW = re.compile(r"^\s*\|")
_LISTING_LINE = re.compile(r"(?:\.\s?){4,}\s*\d+\s*$|\u2026{2,}")
_LISTING_TITLE = re.compile(r"^(?:table of contents|contents|list of \w+)\b")
# References into other documents: what follows the mention, or what stands just before it.
_EXTERNAL_AFTER = re.compile(
    r"^[\s,]*(?:of|in|under)\s+(?:the\s+)?(?:[\w.'\u2019()/-]+\s+){0,5}?"
    r"(?:Act|Code|CFR|U\.?S\.?C\.?|Regulations?|Declaration|Directive|Guidances?|Guidelines?|ICH|GCP"
    r"|SAP|Statistical\s+Analysis\s+Plan|Investigator['\u2019]?s\s+Brochure|IB|Manual|Charter|Law|Convention)\b"
)
_EXTERNAL_BEFORE = re.compile(
    r"(?:\bCFR|\bU\.S\.C\.?|\bICH(?:[\s-]+E\d+(?:\s*\(R\d\))?)?|\bGCP|\bIB|\bSAP|\u00a7|\bthe\s+Act,?"
    r"|\bStatistical\s+Analysis\s+Plan)\s*[,(]?\s*$"
)


def resolve_references(toc: list[Section], non_toc: list[Section]) -> list[dict]:
    """Fill node.references for every node (toc and non_toc, recursively) and return the
    unresolved mentions as [{"text", "kind", "section": <number of the node whose text has it>, "page"?: ...}]."""
    lookup = _Lookup(toc, non_toc)
    unresolved: list[dict] = []
    for root in [*toc, *non_toc]:
        for node in root.walk():
            node.references = _references_of(node, lookup)
            for ref in node.references:
                if ref["target"] is None:
                    miss = {"text": ref["text"], "kind": ref["kind"], "section": node.number}
                    if node.pages and node.pages[0] is not None and node.pages[0] == node.pages[-1]:
                        miss["page"] = node.pages[0]  # only when it is sure: the node is on one page
                    unresolved.append(miss)
    return unresolved


def _canon(label: str) -> str:
    """Comparable form of a section number: "5.2." -> "5.2", "Section 3" -> "3", "1.0" -> "1"."""
    norm = re.sub(r"^section\s+", "", normalize_number(label))
    return re.sub(r"^(\d+)\.0$", r"\1", norm)


def _opens(line: str) -> Optional[str]:
    """The canonical number of the section or item this line opens, if it opens one."""
    number = parse_number(line)
    return _canon(number.label) if number else None


class _Lookup:
    """Everything a mention can point at, built once per document."""

    def __init__(self, toc: list[Section], non_toc: list[Section]):
        self.numbers: dict[str, Section] = {}  # canonical number (Roman outline: path) -> node
        self.order: list[Section] = []  # numbered nodes in document order
        self.position: dict[int, int] = {}  # id(node) -> index in self.order
        self.captions: dict[tuple[str, str], dict] = {}  # ("table", "3") -> {"section", "index"}
        self._items: dict[int, set[str]] = {}  # id(node) -> numbers of the items in its text
        aliases: dict[str, Section] = {}
        for root in toc:
            self._add(root, (), _scheme(root.number) == ROMAN, aliases)
        for alias, node in aliases.items():  # "10.2 Appendix 2: ..." answers "Appendix 2"
            self.numbers.setdefault(alias, node)
        for root in [*toc, *non_toc]:
            for node in root.walk():
                for kind, items in ((TABLE, node.tables), (FIGURE, node.images)):
                    for index, item in enumerate(items, 1):
                        m = _CAPTION_LABEL.match(strip_markup(item.title or ""))
                        if m and _kind_of(m["word"]) == kind:
                            self.captions.setdefault((kind, m["id"].lower()), {"section": node.number, "index": index})
        for (kind, ident), target in list(self.captions.items()):  # "Table 1" -> "Table 1a"
            if re.search(r"\d[a-z]$", ident):
                self.captions.setdefault((kind, ident[:-1]), target)

    def _add(self, node: Section, path: tuple[str, ...], roman: bool, aliases: dict) -> None:
        self.position[id(node)] = len(self.order)
        self.order.append(node)
        own = _canon(node.number) if node.number else ""
        path = (*path, own) if own else path
        if own:
            # In a Roman outline "B." and "1." mean something only under their parents.
            self.numbers.setdefault(".".join(path) if roman else own, node)
            title = parse_number(node.title) if node.title else None
            if title and title.scheme == APPENDIX and len(title.key) == 1:
                aliases.setdefault(normalize_number(title.label), node)
        for child in node.subsections:
            self._add(child, path, roman, aliases)

    def node(self, kind: str, ident: str) -> Optional[Section]:
        if kind == APPENDIX_KIND:  # "Appendix 2", "Attachment LZZT.2"; "Appendix 10.3" by number
            found = self.numbers.get(_canon(f"Appendix {ident}")) or self.numbers.get(_canon(ident))
        else:
            found = self.numbers.get(_canon(ident))
        return found or self._holder(_canon(ident))

    def _holder(self, number: str) -> Optional[Section]:
        """The nearest numbered node above ``number`` if its text has a line opening it
        ("Section 4.2.4" is exclusion criterion 4.2.4, listed in 4.2)."""
        parent = number
        while re.fullmatch(r"\d+(?:\.\d+)+", parent):
            parent = parent.rsplit(".", 1)[0]
            node = self.numbers.get(parent)
            if node is not None:
                if id(node) not in self._items:
                    self._items[id(node)] = {_opens(line) for line in node.text.splitlines()}
                return node if number in self._items[id(node)] else None
        return None

    def between(self, first: Section, last: Section) -> list[Section]:
        """The nodes from first to last in document order, no deeper than the deeper end."""
        i, j = self.position[id(first)], self.position[id(last)]
        if j <= i:
            return [first, last]
        depth = max(first.level, last.level)
        return [n for n in self.order[i : j + 1] if n.level <= depth]


def _scheme(number: str) -> Optional[str]:
    parsed = parse_number(f"{number} X") if number else None
    return parsed.scheme if parsed else None


def _kind_of(word: str) -> str:
    return TABLE if word.lower().startswith("table") else FIGURE


def _references_of(node: Section, lookup: _Lookup) -> list[dict]:
    refs: list[dict] = []
    seen: set[tuple[str, str]] = set()
    for kind, text, targets in _mentions_in(node, lookup):
        for target in targets:
            if (text, str(target)) not in seen:
                seen.add((text, str(target)))
                refs.append({"text": text, "kind": kind, "target": target})
    return refs


def _paragraphs(node: Section) -> Iterator[str]:
    """The node's text as plain one-line paragraphs, without what carries no mentions."""
    own = _canon(node.number) if node.number else None
    listing = bool(_LISTING_TITLE.match(normalize_title(node.title)))  # until the next heading
    first = True
    for paragraph in node.text.split("\n\n"):
        lines = []
        for line in paragraph.splitlines():
            heading, first = first or line.lstrip().startswith("#"), False
            if line.lstrip().startswith("#"):
                listing = bool(_LISTING_TITLE.match(normalize_title(line)))
            if listing or (heading and own and _opens(line) == own):  # own heading, repeated
                continue
            if not (_PLACEHOLDER.match(line) or _TABLE_ROW.match(line) or _LISTING_LINE.search(line)):
                lines.append(strip_markup(line))
        if any(lines):
            yield " ".join(line for line in lines if line)


def _mentions_in(node: Section, lookup: _Lookup) -> Iterator[tuple[str, str, list]]:
    """(kind, mention text, targets) in order of appearance; a target is None when unresolved."""
    for text in _paragraphs(node):
        found = [(m, kind, item) for kind, pattern, item in _PATTERNS for m in pattern.finditer(text)]
        found += [(m, SECTION, None) for m in _SEE.finditer(text)]
        for m, kind, item in sorted(found, key=lambda f: f[0].start()):
            if not _external(text, m):
                pairs, end = _items(m, item)
                yield kind, text[m.start() : end], _targets(kind, pairs, lookup)


def _external(text: str, m: re.Match) -> bool:
    return bool(_EXTERNAL_AFTER.match(text[m.end() :]) or _EXTERNAL_BEFORE.search(text[: m.start()]))


def _items(m: re.Match, item: Optional[re.Pattern]) -> tuple[list[tuple[str, str]], int]:
    """The (separator, identifier) pairs of a mention, and where it ends. A singular word takes
    no bare integer after the first ("Section 5 and 10 patients" mentions 5 only)."""
    if item is None:
        return [("", m["ids"])], m.end()
    tokens = list(item.finditer(m["ids"]))
    if not m["word"].lower().endswith("s"):
        cut = next((k for k, t in enumerate(tokens[1:], 1) if t["id"].isdigit()), len(tokens))
        tokens = tokens[:cut]
    return [(t["sep"] or "", t["id"]) for t in tokens], m.start("ids") + tokens[-1].end()


def _targets(kind: str, pairs: list[tuple[str, str]], lookup: _Lookup) -> list:
    if kind in (TABLE, FIGURE):
        found = [lookup.captions.get((kind, ident.lower())) for _, ident in pairs]
        return [dict(target) if target else None for target in found]  # no dict shared between nodes
    nodes = [lookup.node(kind, ident) for _, ident in pairs]
    targets: list = []
    for k, ((sep, _), node) in enumerate(zip(pairs, nodes)):
        if k and _RANGE_SEP.match(sep) and node is not None and nodes[k - 1] is not None:
            targets.extend(n.number for n in lookup.between(nodes[k - 1], node)[1:])
        else:
            targets.append(node.number if node is not None else None)
    return targets
