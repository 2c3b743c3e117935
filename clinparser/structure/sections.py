"""Find the sections: which numbered lines really open a section.

Every block whose first line starts with a section number is a *candidate* (``numbering``),
whatever the converter thought of its font. A candidate becomes a section only as part of the
best-scoring *valid sequence* over the whole document: each accepted number must be the next
sibling, the first child, or the next sibling of an ancestor of the one before it (a small gap
is allowed, at a cost). Evidence (heading style, a match in the printed TOC or the bookmarks,
title shape) gives each candidate its weight; dynamic programming picks the heaviest chain.

That is why ``1.`` right after ``5.1`` (an inclusion criterion) and ``7 Orientation`` inside an
appendix questionnaire stay body text: no valid chain through them outweighs the real one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Optional

from ..model import HEADING, LIST_ITEM, PICTURE, TABLE, Block
from ..shared.numbering import (
    APPENDIX,
    APPENDIX_BASE,
    DECIMAL,
    LETTER,
    ROMAN,
    ROMAN_BASE,
    SectionNumber,
    normalize_number,
    parse_number,
    spaceless_title,
    strip_markup,
    titles_agree,
)
from ..shared.pipe_tables import row_cells
from .outline import OutlineIndex

MAX_TITLE_CHARS = 250
GAP_COST = 2.0  # per missing sibling number (3.1 -> 3.3)
# Up to 4 missing siblings: a page without a text layer can hide three headings, and only a
# heading the outline confirms (weight ~9) outweighs the cost of 3-4; a list item never does.
MAX_GAP = 4
MISSING_PARENT_COST = 2.0  # a 3.4.1 whose 3.4 never appears
MAX_START_COST = 6.0
OCR_LONE_LINE = 2.0  # a lone title-shaped line on a page read by OCR: as good as heading style
HEADING_LIKE = 3.0  # weight of a numbered line styled as a heading (worth a diagnostic)
STRONG_HEADING = (
    4.0  # heading style plus bold or an outline match  # a document whose first section is not 1 / 1.1 / Appendix 1
)


@dataclass
class Candidate:
    """One reading of a numbered line. A line may have several (``A.`` under part I or II)."""

    block: int  # index of the block whose first line carries the number
    number: SectionNumber
    title: str
    weight: float
    page: Optional[int]
    title_block: Optional[int] = None  # next block, when it carried the title
    key: tuple[int, ...] = ()  # the absolute key of this reading
    # Where the number was read: "text"; "ocr" (a page recovered by OCR); "word-numbering" (a
    # DOCX number Word draws from its numbering definitions); "bookmark"/"printed" (recover.py).
    source: str = "text"
    # Where the title was read when not in the text: "bookmark"/"printed" for a number printed
    # alone whose title the page does not show (blacked out by a redaction), see recover.py.
    title_source: str = "text"

    def __post_init__(self):
        self.key = self.key or self.number.key


@dataclass
class Choice:
    """The accepted sections, in reading order, and what looked irregular on the way."""

    sections: list[Candidate]
    gaps: list[dict] = field(default_factory=list)
    missing_parents: list[dict] = field(default_factory=list)
    duplicates: list[dict] = field(default_factory=list)
    out_of_order: list[dict] = field(default_factory=list)  # heading-like, but no valid place


_EMBEDDED_NUMBER = re.compile(r"\s(\d{1,2}(?:\.\d{1,3})+\.?)\s+(?=[A-Z])")


def split_merged_headings(blocks: list[Block]) -> list[Block]:
    """Split a heading block that holds two headings ("8. WITHDRAWAL ... 8.1 Subjects' Decision").

    The layout model sometimes boxes a heading together with the first sub-heading below it;
    the embedded number must extend the leading one (a child), so prose is never cut.
    """
    out = []
    for block in blocks:
        parts = None
        if block.kind == HEADING and not block.dropped:
            parts = _split_heading(block)
        elif block.kind == TABLE and not block.dropped:
            parts = _table_as_list(block) or _split_table_heading(block)
        elif block.kind == LIST_ITEM and not block.dropped:
            parts = _split_list_headings(block)
        out.extend(parts or [block])
    return out


# Where one list item of a block ends and the next starts: a blank line before "- ", or a
# bullet glyph in the middle of a line (a Symbol-font bullet the converter left as text).
_ITEM_BREAK = re.compile(r"\n\s*\n(?=\s*[-*•]\s)|\s+[\uf0b7\uf0a7•▪](?=\s+\S)")
_BOLD_NUMBER = re.compile(r"^\s*(?:[-*•]\s+)?\*\*\s*\d{1,2}(?:\.\d{1,3})+\.?\s")


def _split_list_headings(block: Block) -> Optional[list[Block]]:
    """A list block holding bold numbered headings among its items ("- **7.2.5. Cycle 1, Day 21**
    • CBC" / "- **7.2.6. Cycle 2, Day 1**": a visit-by-visit section the layout model read as one
    list): each bold numbered item opens a block of its own, with the items under it."""
    items = [i.strip() for i in _ITEM_BREAK.split(block.text.strip()) if i.strip()]
    if len(items) < 2 or not any(_BOLD_NUMBER.match(i) for i in items):
        return None
    groups: list[list[str]] = []
    for item in items:
        item = item if re.match(r"^[-*•]\s", item) else f"- {item}"
        if _BOLD_NUMBER.match(item) or not groups:
            groups.append([item])
        else:
            groups[-1].append(item)
    if len(groups) < 2 and len(groups[0]) == 1:
        return None
    return [replace(block, text="\n\n".join(g)) for g in groups]


_LIST_NUMBER = re.compile(r"^\(?(?:\d{1,3}(?:\.\d{1,3}){0,4}|[a-z])[.)]?$")
MIN_LIST_ROWS = 3
MIN_ITEM_CHARS = 20


def _table_as_list(block: Block) -> Optional[list[Block]]:
    """A numbered list the layout model read as a two-column table, each item's number in one
    column and its text in the other (a hanging indent: "4.2.12 | Use of concomitant
    medication ..."): every row a number and a sentence, the numbers in sequence. It is that
    list, one item a row, as the model writes it when it sees a list."""
    rows = [r for r in block.text.strip().splitlines() if r.strip()]
    if len(rows) < 2 or not re.match(r"^\s*\|?\s*:?-{3,}", rows[1]):
        return None
    items = []
    for row in [rows[0]] + rows[2:]:
        cells = _row_cells(row)
        if len(cells) != 2 or not _LIST_NUMBER.match(strip_markup(cells[0])) or len(cells[1]) < MIN_ITEM_CHARS:
            return None
        items.append((strip_markup(cells[0]), cells[1]))
    if len(items) < MIN_LIST_ROWS or not _in_sequence([n for n, _ in items]):
        return None
    return [replace(block, kind=LIST_ITEM, text=f"- {number} {text}") for number, text in items]


def _row_cells(row: str) -> list[str]:
    """The filled cells of one Markdown pipe-table row, markup kept, each cell's line breaks
    (``<br>``) and runs of spaces as one space."""
    cells = (" ".join(re.sub(r"<br\s*/?>", " ", c).split()) for c in row_cells(row))
    return [c for c in cells if c]


def _in_sequence(numbers: list[str]) -> bool:
    """Each number the next sibling of the one before ("4.2.12", "4.2.13"; "a)", "b)")."""

    def key(n: str) -> tuple:
        n = n.strip("().")
        return (ord(n) - ord("a") + 1,) if n.isalpha() else tuple(int(p) for p in n.split(".") if p)

    keys = [key(n) for n in numbers]
    return all(len(a) == len(b) and a[:-1] == b[:-1] and b[-1] == a[-1] + 1 for a, b in zip(keys, keys[1:]))


def _split_table_heading(block: Block) -> Optional[list[Block]]:
    """A heading the layout model put in a table's last row, alone and bold ("**11 Appendices**"
    under a page-header table): the row becomes a heading block after the table. A "table" of
    one header row and nothing under it, reading as a section number and a title ("5.2.1" |
    "Demographics": a heading line whose number and title stand apart), is that heading."""
    rows = [r for r in block.text.strip().splitlines() if r.strip()]
    if len(rows) == 2:
        return _header_only_heading(block, rows[0])
    if len(rows) < 3:  # header, separator, and at least one row to keep
        return None
    cells = _row_cells(rows[-1])
    if len(cells) != 1 or not cells[0].startswith("**"):
        return None
    number = parse_number(cells[0])
    if number is None or number.scheme != DECIMAL or not number.title or not number.label[:1].isdigit():
        return None
    return [replace(block, text="\n".join(rows[:-1])), replace(block, kind=HEADING, text=f"## {cells[0]}")]


MAX_HEADING_CELLS = 2  # a number cell and a title cell; a wider header row is a table's header


def _header_only_heading(block: Block, header: str) -> Optional[list[Block]]:
    cells = _row_cells(header)
    if not cells or len(cells) > MAX_HEADING_CELLS:
        return None
    line = " ".join(cells)
    number = parse_number(line)
    if number is None or not number.title or len(strip_markup(line)) > MAX_TITLE_CHARS:
        return None
    return [replace(block, kind=HEADING, text=f"## {line}")]


CENTRED = 12.0  # points between two lines' centres: one centred title
LINE_GAP = 0.8  # of a line's height: lines closer than this are one paragraph's lines


def join_title_lines(blocks: list[Block]) -> list[Block]:
    """Join the lines of a centred title the layout model boxed as two headings, under a number
    printed alone ("Appendix B" / "Docetaxel Pharmacokinetic Sampling Instructions" / "Using
    Saladax Biomedical's MyDocetaxel Test"): the number's title is both lines, as it is when the
    model boxes them together. Only there: a numbered heading and the run-in heading under it
    stay apart, and so do two headings that are not one centred title."""
    out: list[Block] = []
    for block in blocks:
        if len(out) >= 2 and _continues_title(out[-2], out[-1], block):
            above = out[-1]
            bbox = tuple(min(a, b) for a, b in zip(above.bbox[:2], block.bbox[:2])) + tuple(
                max(a, b) for a, b in zip(above.bbox[2:], block.bbox[2:])
            )
            out[-1] = replace(above, bbox=bbox, text=f"{above.text.rstrip()} {_without_level(block.text)}")
            continue
        out.append(block)
    return out


def _continues_title(number: Block, title: Block, block: Block) -> bool:
    if not all(b.kind == HEADING and not b.dropped and b.bbox and b.page == block.page for b in (number, title, block)):
        return False
    alone = parse_number(first_line(number))
    if alone is None or alone.title or parse_number(first_line(title)) or parse_number(first_line(block)):
        return False
    if _level(title.text) != _level(block.text) or re.search(r"[.:;]\s*\**$", title.text.strip()):
        return False
    height = title.bbox[3] - title.bbox[1]
    gap = block.bbox[1] - title.bbox[3]
    centres = abs((title.bbox[0] + title.bbox[2]) / 2 - (block.bbox[0] + block.bbox[2]) / 2)
    return -0.5 * height <= gap <= LINE_GAP * height and centres <= CENTRED and title.bbox[0] > number.bbox[0] + CENTRED


def _level(text: str) -> int:
    return len(text) - len(text.lstrip("#"))


def _without_level(text: str) -> str:
    return text.strip().lstrip("#").strip()


def split_outline_headings(blocks: list[Block], outline: OutlineIndex) -> list[Block]:
    """Split off a heading the outline lists from the paragraph it was boxed with.

    "6.2. Preparation, Handling, Storage, and Accountability 1. The investigator must ..." in
    one block (the layout model joined them: common on OCR'd pages, whose lines all share one
    font) is the heading "6.2. Preparation, Handling, Storage, and Accountability" and the
    text after it, when a bookmark or printed-TOC entry gives 6.2 exactly that title. Without
    the outline's word there is no telling where a title ends, and nothing is split.
    """
    out = []
    for block in blocks:
        parts = _split_at_outline_title(block, outline) if block.kind != TABLE and not block.dropped else None
        out.extend(parts or [block])
    return out


def _split_at_outline_title(block: Block, outline: OutlineIndex) -> Optional[list[Block]]:
    lines = block.text.strip().splitlines()
    if not lines:
        return None
    line = re.sub(r"^\s*(?:[-*•]\s+)?", "", strip_markup(lines[0].lstrip("# ")))
    number = parse_number(line)
    if number is None or not number.title:
        return None
    words = number.title.split()
    titles = outline.titles.get(normalize_number(number.label), set())
    longest, prefix = max(map(len, titles), default=0), ""
    for size in range(1, len(words) - 3):  # the title's words, then at least four more
        prefix += spaceless_title(words[size - 1])
        if len(prefix) > longest:
            break
        if prefix and prefix in titles:
            head = f"{number.label} {' '.join(words[:size])}"
            rest = "\n".join([" ".join(words[size:]), *lines[1:]]).strip()
            return [replace(block, kind=HEADING, text=f"# {head}"), replace(block, text=rest)]
    return None


def _split_heading(block: Block) -> Optional[list[Block]]:
    first = parse_number(block.text)
    if first is None or not first.title:
        return None
    plain = strip_markup(block.text)
    for m in _EMBEDDED_NUMBER.finditer(plain):
        inner = parse_number(plain[m.start(1) :])
        if (
            inner
            and inner.scheme == DECIMAL
            and len(inner.key) > len(first.key)
            and inner.key[: len(first.key)] == first.key
        ):
            head, tail = plain[: m.start()].strip(), plain[m.start(1) :].strip()
            return [replace(block, text=f"# **{head}**"), replace(block, text=f"## **{tail}**")]
    return None


# A run-in paragraph: a short label, a colon, then a sentence that ends with its full stop.
_RUN_IN = re.compile(r"^[^:.]{2,60}:\s+[A-Z(]\S*(?:\s+\S+){2,}[.]$")
_APPENDICES_TITLE = re.compile(r"^(appendices|appendix|annexes|attachments)\b", re.I)
_BOLD_AFTER_NUMBER = re.compile(r"^[^\s*_]+\s+(\*\*|__)")


def first_line(block: Block) -> str:
    lines = [ln for ln in block.text.strip().splitlines() if ln.strip()]
    if not lines:
        return ""
    if block.kind == HEADING and len(lines) <= 3:
        return " ".join(ln.strip() for ln in lines)  # a heading wrapped over lines
    return lines[0]


def heading_weight(
    block: Block, line: str, title: str, label: str, outline: Optional[OutlineIndex], depth: int = 1
) -> float:
    """Evidence that this numbered line is a heading. Positive means likely."""
    w = 1.0
    if block.kind == HEADING:
        w += 2.0
    elif block.number_source == "ocr" and _stands_alone(block, title):
        # OCR writes every line of a page in one font, so the layout model sees no heading
        # style there; a short title-shaped line standing alone is what a heading looks like.
        w += OCR_LONE_LINE
    stripped = line.lstrip("# ").strip()
    # Bold as a whole, or a plain number followed by a bold title ("10.4 **Committee**").
    if stripped.endswith(("**", "__")) and (stripped.startswith(("**", "__")) or _BOLD_AFTER_NUMBER.match(stripped)):
        w += 1.0
    # A heading set at least as large as its number's depth implies ("# 1 INTRODUCTION") is
    # likelier the chapter than a small one with the same number (a signature page's "### 1.").
    hashes = len(line) - len(line.lstrip("#"))
    if block.kind == HEADING and 0 < hashes <= depth:
        w += 0.5
    if outline:
        found = outline.match(label, title)
        w += {"title": 5.0, "number": 1.0}.get(found, -1.0)
    words = title.split()
    if len(words) > 15:
        w -= 2.0
    if title.endswith((".", ";", ",")) and len(words) > 6:
        w -= 1.5
    if _RUN_IN.match(title):  # "5.2 Therapy schedule: All cycles are 28 days long." is a paragraph
        w -= 1.5
    if title[:1].islower():
        w -= 2.0
    if block.kind == LIST_ITEM:
        w -= 1.5
    return w


def _stands_alone(block: Block, title: str) -> bool:
    """One line of at most a dozen words, capitalized, without a sentence's final stop."""
    lines = [ln for ln in block.text.splitlines() if ln.strip()]
    words = title.split()
    return len(lines) == 1 and 0 < len(words) <= 12 and title[:1].isupper() and not title.endswith((".", ";", ",", ":"))


def find_candidates(blocks: list[Block], outline: OutlineIndex) -> list[Candidate]:
    out: list[Candidate] = []
    parts = _RecentParents()
    for i, block in enumerate(blocks):
        if block.dropped or block.kind in (TABLE, PICTURE):
            continue
        line = first_line(block)
        number = parse_number(line) if line else None
        if number is None:
            continue
        title, title_block = number.title, None
        if not title:
            title_block = _next_text_block(blocks, i)
            if title_block is None:
                continue
            title = strip_markup(first_line(blocks[title_block]))
        if not title or len(title) > MAX_TITLE_CHARS:
            continue
        weight = heading_weight(block, line, title, number.label, outline, len(number.key))
        for key in parts.readings(number):
            out.append(
                Candidate(i, number, title, weight, block.page, title_block, key, source=block.number_source or "text")
            )
        parts.saw(number, out)
    return out


class _RecentParents:
    """Absolute readings of outline-style numbers (I. / A. / 1.), whose parent is implicit.

    A lettered ``B.`` means (part, 2) for the Roman part it stands in; which part that is,
    only the whole sequence can tell, so each recent part gives one reading and the DP
    chooses. Plain ``1.`` gets the same treatment under recent lettered readings, beside its
    ordinary decimal reading.
    """

    KEEP = 2  # how many recent parents give readings

    def __init__(self):
        self.romans: list[tuple[int, ...]] = []
        self.letters: list[tuple[int, ...]] = []
        self.appendices: Optional[tuple[int, ...]] = None  # the last chapter titled "Appendices"

    @staticmethod
    def _push(stack, key):
        if key in stack:
            stack.remove(key)
        stack.append(key)
        del stack[: -_RecentParents.KEEP]

    def readings(self, number: SectionNumber) -> list[tuple[int, ...]]:
        if number.scheme == LETTER:
            return [parent + number.key for parent in self.romans]
        keys = [number.key]
        if number.scheme == DECIMAL and len(number.key) == 1 and number.label.endswith("."):
            keys += [parent + number.key for parent in self.letters]
        if number.scheme == APPENDIX and len(number.key) == 1 and self.appendices:
            # "Appendix 3" inside a chapter "11 Appendices": also its child (11, 3), so the
            # chapter "12 References" after the appendices still fits the sequence.
            keys.append(self.appendices + (number.key[0] - APPENDIX_BASE,))
        ident = number.label.split()[-1] if number.scheme == APPENDIX else ""
        if ident in ("I", "V", "X"):  # "Appendix I" after "Appendix H" is the ninth, not Roman one
            keys.append((APPENDIX_BASE + ord(ident) - ord("A") + 1,))
        return keys

    def saw(self, number: SectionNumber, cands: list[Candidate]) -> None:
        if number.scheme == DECIMAL and len(number.key) == 1:
            if _APPENDICES_TITLE.match(number.title):
                self.appendices = number.key
            elif self.appendices and number.key[0] > self.appendices[0]:
                self.appendices = None  # the next chapter closes it; a list's "1." does not
        if number.scheme == ROMAN:
            self._push(self.romans, number.key)
        elif number.scheme == LETTER:
            block = cands[-1].block if cands else None
            for c in cands[::-1]:
                if c.block != block:
                    break
                self._push(self.letters, c.key)


def _next_text_block(blocks: list[Block], i: int) -> Optional[int]:
    """The block right after ``i`` if it can hold the title of a number printed alone.

    Blocks with no letter or digit are passed over: an empty paragraph, or the colon a
    converter split from its label ("APPENDIX B" / ":" / "Laboratory Studies" in a Word file).
    """
    looked = 0
    for j in range(i + 1, min(i + 8, len(blocks))):
        if blocks[j].kind not in (TABLE, PICTURE) and not any(ch.isalnum() for ch in blocks[j].text):
            continue
        looked += 1
        if looked > 2:
            return None
        if blocks[j].dropped:
            continue
        text = strip_markup(first_line(blocks[j]))
        if blocks[j].kind in (TABLE, PICTURE) or not text or len(text) > 150 or parse_number(text):
            return None
        return j
    return None


def _predecessors(key: tuple[int, ...]):
    """(table, lookup key, cost, note) for every way ``key`` can follow an accepted number.

    ``prefix`` finds the best earlier candidate whose number starts with the lookup key (the
    previous sibling or any of its descendants); ``exact`` the parent itself.
    """
    *head, last = key
    head = tuple(head)
    if last >= 2:  # next sibling (after the previous sibling's whole subtree)
        yield "prefix", head + (last - 1,), 0.0, None
    if last == 1 and head:  # first child
        yield "exact", head, 0.0, None
    if key == (1,):  # chapter 1 after the 0.x front matter
        yield "prefix", (0,), 0.0, None
    for missing in range(1, MAX_GAP + 1):  # 3.1 -> 3.3: a gap among siblings
        if last - 1 - missing >= 1:
            yield "prefix", head + (last - 1 - missing,), GAP_COST * missing, "gap"
    if head and 2 <= last <= 3:  # 3 -> 3.2: the first child(ren) missing
        yield "exact", head, GAP_COST * (last - 1), "gap"
    for depth in range(len(key) - 1, 0, -1):  # levels skipped: 1.1 -> 1.1.1.1, or 3.3 -> 3.4.1
        ancestor, rest = key[:depth], key[depth:]
        skipped = (len(rest) - 1) + sum(r - 1 for r in rest)
        if len(rest) >= 2 and 0 < skipped <= 2:
            yield "exact", ancestor, MISSING_PARENT_COST * skipped, "missing_parent"
        if ancestor[-1] >= 2 and skipped + 1 <= 2:
            yield "prefix", ancestor[:-1] + (ancestor[-1] - 1,), MISSING_PARENT_COST * (skipped + 1), "missing_parent"
    if len(key) == 1 and key[0] > APPENDIX_BASE and last - APPENDIX_BASE <= 1:
        yield "decimal", (), 0.0, None  # the first appendix follows the numbered body
    index = last - _base(key[0])  # 1 for "1", "I." and "Appendix A" alike
    if len(key) == 1 and (index == 1 or last == APPENDIX_BASE + 1):
        yield "start", (), 0.0, None
    elif len(key) == 1 and last < APPENDIX_BASE:  # a document (or excerpt) starting later
        yield "start", (), min(MAX_START_COST, GAP_COST * (index - 1)), "gap"
    elif key == (0, 1):  # "0.1": numbered front matter, chapter 0 itself never printed
        yield "start", (), 0.0, None
    elif len(key) == 2 and key[1] == 1 and key[0] == 1:
        yield "start", (), MISSING_PARENT_COST, "missing_parent"
    elif len(key) == 2 and key[0] > APPENDIX_BASE and key[1] <= 3:  # a form outline "A2." with no "A" heading
        yield "start", (), MISSING_PARENT_COST + GAP_COST * (key[1] - 1), "missing_parent"


def _base(first: int) -> int:
    """The start of the key range a top-level number lives in (decimal, Roman, appendix)."""
    return APPENDIX_BASE if first > APPENDIX_BASE else ROMAN_BASE if first > ROMAN_BASE else 0


def choose_sections(cands: list[Candidate]) -> Choice:
    """The heaviest valid chain of candidates (dynamic programming, linear in candidates).

    Readings of one block are scored against the tables as they were before that block, so a
    chain never uses a block twice.
    """
    NONE = (float("-inf"), -1)
    value: list[float] = []
    back: list[tuple[int, Optional[str]]] = []
    by_prefix: dict[tuple, tuple[float, int]] = {}
    by_exact: dict[tuple, tuple[float, int]] = {}
    best_decimal = NONE
    pending: list[int] = []

    def publish():
        nonlocal best_decimal
        for k in pending:
            v, key = value[k], cands[k].key
            if v == float("-inf"):
                continue
            for n in range(1, len(key) + 1):
                if v > by_prefix.get(key[:n], NONE)[0]:
                    by_prefix[key[:n]] = (v, k)
            if v > by_exact.get(key, NONE)[0]:
                by_exact[key] = (v, k)
            if key[0] < APPENDIX_BASE and v > best_decimal[0]:
                best_decimal = (v, k)
        pending.clear()

    for i, c in enumerate(cands):
        if pending and cands[pending[0]].block != c.block:
            publish()
        best, best_from, best_note = float("-inf"), -1, None
        for table, lookup, cost, note in _predecessors(c.key):
            if table == "start":
                score, j = 0.0, -1
            elif table == "decimal":
                score, j = best_decimal
            else:
                score, j = (by_prefix if table == "prefix" else by_exact).get(lookup, NONE)
            if score - cost > best:
                best, best_from, best_note = score - cost, j, note
        value.append(best + c.weight)
        back.append((best_from, best_note))
        pending.append(i)
    return _backtrack(cands, value, back)


def _span_ends(sections: list[Candidate]) -> dict[int, float]:
    """For each accepted section's block: the block where its section (children included) ends."""
    ends: dict[int, float] = {}
    open_: list[Candidate] = []
    for c in sections:
        while open_ and len(open_[-1].key) >= len(c.key):
            ends[open_.pop().block] = c.block
        open_.append(c)
    for c in open_:
        ends[c.block] = float("inf")
    return ends


def _backtrack(cands, value, back) -> Choice:
    if not cands or max(value) <= 0:
        return Choice([])
    i = max(range(len(cands)), key=lambda k: (value[k], -k))
    chain, notes = [], []
    while i >= 0:
        chain.append(i)
        notes.append(back[i][1])
        i = back[i][0]
    chain.reverse()
    notes.reverse()
    choice = Choice([cands[k] for k in chain])
    for k, note in zip(chain, notes):
        c = cands[k]
        entry = {"number": c.number.label, "title": c.title, "page": c.page}
        if note == "gap":
            choice.gaps.append(entry)
        elif note == "missing_parent":
            choice.missing_parents.append(entry)
    chosen = set(chain)
    chosen_blocks = {cands[k].block for k in chain}
    span_end = _span_ends([cands[k] for k in chain])
    twin_of = {cands[k].key: cands[k] for k in chain}
    reported: set[int] = set()
    first_block = cands[chain[0]].block
    for k, c in enumerate(cands):
        if k in chosen or c.block in chosen_blocks or c.block in reported or c.weight < HEADING_LIKE:
            continue
        if c.block < first_block and c.number.scheme == ROMAN and cands[chain[0]].number.scheme != ROMAN:
            continue  # Roman-numbered front matter before Arabic chapters: front matter, not a stray

        entry = {"number": c.number.label, "title": c.title, "page": c.page}
        twin = twin_of.get(c.key)
        if twin is not None:
            # A real duplicate stands inside its twin's section under another title; the same
            # number far away (a questionnaire's "1.") is a list, and the same title again is
            # a heading repeated on the next page, neither an irregularity of the numbering.
            same_title = titles_agree(twin.title, c.title)
            if twin.block < c.block < span_end[twin.block] and not same_title:
                choice.duplicates.append(entry)
        elif c.weight >= STRONG_HEADING:
            choice.out_of_order.append(entry)
        reported.add(c.block)
    return choice
