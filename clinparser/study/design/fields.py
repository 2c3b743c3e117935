"""Labelled fields: where protocols print how a study is built.

Every template prints its synopsis as pairs of a label and a value, in one of a few layouts:
a two-column table ("Number of Participants | Approximately 300 ..."), a bold or underlined label
at the start of a paragraph ("**Indication:** Secondary hyperparathyroidism"), or a bold line
heading the paragraphs below it ("### **Study Design:**"). The design readers ask for fields
by what their label says (``find``), whatever the layout; a body section's title is a label too
("4.1 Overall Design" over its text), found after the synopsis fields.

Sections that restate old or changed text (an amendment's summary of changes, a document
history) are left out: what they quote is not the study as it now is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Optional

from ...document_types import Document
from ...shared.markup import PICTURE_TEXT, strip_markup
from ...shared.pipe_tables import MARK
from ..criteria import section_pages
from ..eligibility import CHANGES_TITLE, SYNOPSIS_TITLE

MAX_LABEL_WORDS = 9  # a longer first cell is text, not a label
# Titles that restate old or changed text, and synopsis titles: as the eligibility reader knows
# them, and a change's rationale besides (it quotes the old design).
_RATIONALE_OF_CHANGE = re.compile(r"\brationale\s+for\s+(?:the\s+)?change", re.I)
# "**Label:** value", "__Label:__ value", "<u>LABEL</u>", "_Label:_ value" at a line's start
_LABEL_LINE = re.compile(
    r"^\s*(?:#{1,6}\s*)?(?:[-*\u2022]\s+)?(?P<open>\*\*|__|<u>|_)(?P<label>[^*_<>\n]{2,80}?)\s*(?P<colon1>:?)\s*"
    # a form's label may carry its instruction in brackets before the colon: "**Study Design** (for
    # example, hypothesis, research question):" is the label "Study Design"
    r"(?P<close>\*\*|__|</u>|_)(?:\s*\((?=(?:for\s+example|e\.g\.|i\.e\.|if\b|see\b|describe|specify|include|list\b|"
    r"provide|explain|justify|attach))[^()]{1,200}\))?\s*(?P<colon2>:?)\s*(?P<rest>.*)$"
)
# A plain "Label: value" line in a table cell ("Dose: 15 mg QD")
_PLAIN_LABEL = re.compile(r"^(?P<label>[A-Z][A-Za-z /()&,-]{1,60}?)\s*:\s*(?P<rest>.*)$")


@dataclass
class Field:
    label: str  # as printed, without markup or the colon
    value: str  # the text under the label, markup stripped, lines joined with newlines
    section: Optional[str]  # the number of the section it is printed in, or the title of an unnumbered one
    pages: tuple[Optional[int], Optional[int]]
    synopsis: bool  # printed in a synopsis (or the front matter)
    kind: str  # "table", "paragraph", "section", or "chapter" (see chapter_fields)


def sections(document: Document) -> Iterable[tuple[dict, list[dict], bool]]:
    """(section, ancestors, in the outline) of every node, amendment history parts left out."""

    def walk(nodes, ancestors, toc):
        for node in nodes:
            if CHANGES_TITLE.search(node.get("title") or "") or _RATIONALE_OF_CHANGE.search(node.get("title") or ""):
                continue
            yield node, ancestors, toc
            yield from walk(node.get("subsections") or [], ancestors + [node], toc)

    yield from walk(document.get("non_toc") or [], [], False)
    yield from walk(document.get("toc") or [], [], True)


def labelled_fields(document: Document) -> list[Field]:
    """Every labelled field of the document, synopsis first, then the body in order."""
    out: list[Field] = []
    # a document with no numbered outline has its whole body in non_toc: its sections' titles
    # label their text as the outline's would
    unnumbered = not document.get("toc")
    for section, ancestors, toc in sections(document):
        where = section.get("number") or section.get("title")
        pages = section_pages(section)
        synopsis = not toc or any(SYNOPSIS_TITLE.search(a.get("title") or "") for a in ancestors + [section])
        for table in section.get("tables") or []:
            out += [Field(label, value, where, pages, synopsis, "table") for label, value in table_pairs(table)]
        out += [
            Field(label, value, where, pages, synopsis, "paragraph")
            for label, value in text_pairs(section.get("text") or "")
        ]
        if (toc or unnumbered) and section.get("title"):
            body = plain_text(section.get("text") or "")
            if body:
                out.append(Field(strip_markup(section["title"]), body, where, pages, synopsis, "section"))
    return sorted(out, key=lambda f: not f.synopsis)


def chapter_fields(document: Document) -> list[Field]:
    """Outline sections with no text of their own, each labelling its children's text ("5.2
    Administration" over "5.2.1 Main Study" and "5.2.2 Food Effect Sub-Study"): kept apart from
    ``labelled_fields``, whose sections already give that text once, for the readers that ask."""
    out: list[Field] = []
    for section, _, toc in sections(document):
        if toc and section.get("title") and not plain_text(section.get("text") or "") and section.get("subsections"):
            children = "\n".join(plain_text(c.get("text") or "") for c in section["subsections"])
            if children.strip():
                where = section.get("number") or section.get("title")
                out.append(
                    Field(strip_markup(section["title"]), children, where, section_pages(section), False, "chapter")
                )
    return out


def find(
    fields: list[Field], label: re.Pattern, kinds: tuple[str, ...] = ("table", "paragraph", "section")
) -> list[Field]:
    """The fields whose label matches ``label``, in the order of ``fields``."""
    return [f for f in fields if f.kind in kinds and label.search(f.label)]


def marked_grid(table: dict) -> bool:
    """A grid of activity marks: a fifth of its filled body cells or more are "X" (a footnote
    digit allowed), as in a part of a schedule the schedule reader did not take."""
    cells = [str(c).strip() for row in table.get("data") or [] for c in row[1:] if str(c).strip()]
    return bool(cells) and sum(bool(MARK.match(c)) for c in cells) >= 0.2 * len(cells)


def table_pairs(table: dict) -> list[tuple[str, str]]:
    """(label, value) of a table of labelled rows: two columns (or more, the value the rest),
    the first cell short. The header is a row too (a synopsis table has no header). A row
    with no label goes on with the value above it; a cell of "Label: value" lines is split."""
    if table.get("schedule") or marked_grid(table) or _contents_like(table):
        # a schedule's rows are activities (a part the schedule reader left too); a table of contents' rows are titles
        return []
    rows = [table.get("columns") or []] + (table.get("data") or [])
    rows = [[" ".join(str(c).replace("<br>", "\n").split(" ")).strip() for c in row] for row in rows if row]
    if not rows or max(len(r) for r in rows) < 2 or not _labelled(rows):
        return []
    pairs: list[list[str]] = []
    for above, below in zip(rows, rows[1:]):  # a row of labels over a row of their values
        if (
            all(c.rstrip().endswith(":") for c in above if c.strip())
            and sum(bool(c.strip()) for c in above) >= 2
            and not any(c.rstrip().endswith(":") for c in below if c.strip())
        ):
            pairs += [[_clean_label(a), b] for a, b in zip(above, below) if a.strip() and b.strip()]
    for row in rows:
        label, value = _clean_label(row[0]), "\n".join(dict.fromkeys(c for c in row[1:] if c.strip()))
        glued = _PLAIN_LABEL.match(label)  # "Name of Study Drug:Upadacitinib" in one cell
        if glued and glued["rest"] and _is_label(glued["label"]):
            pairs.append([_clean_label(glued["label"]), glued["rest"]])
        if label and _is_label(label):
            pairs.append([label, value])
        elif not label and pairs and value:
            pairs[-1][1] += "\n" + value
    out = []
    for label, value in pairs:
        out.append((label, value))
        out += [
            (_clean_label(m["label"]), m["rest"]) for m in map(_PLAIN_LABEL.match, value.split("\n")) if m and m["rest"]
        ]
    return out


def text_pairs(text: str) -> list[tuple[str, str]]:
    """(label, value) of the bold or underlined labels of a section's text: the rest of the
    label's line and the paragraphs below it up to the next label or heading."""
    out: list[list[str]] = []
    for line in text.split("\n"):
        m = _LABEL_LINE.match(line)
        labelled = m and (m["colon1"] or m["colon2"] or m["open"] == "<u>" or not m["rest"]) and _is_label(m["label"])
        if labelled:
            out.append([_clean_label(m["label"]), strip_markup(m["rest"])])
        elif line.lstrip().startswith("#") and out:
            out.append(["", ""])  # a heading ends the field above it
        elif out and out[-1][0] and line.strip():
            out[-1][1] += "\n" + strip_markup(line)
    return [(label, value.strip()) for label, value in out if label and value.strip()]


def plain_text(text: str) -> str:
    """A section's text without markup; the words read inside pictures kept as lines."""
    text = PICTURE_TEXT.sub(lambda m: m["text"], text)
    return "\n".join(s for s in (strip_markup(line) for line in text.split("\n")) if s and not s.startswith("[Table"))


def _contents_like(table: dict) -> bool:
    cells = [str(c) for c in [*(table.get("columns") or []), *(r[0] for r in table.get("data") or [] if r)]]
    return sum(bool(re.search(r"(?:\.\s?|·\s?|…){4,}|^\d+(?:\.\d+)+\s+[A-Z]", c)) for c in cells) * 3 > len(cells)


def _labelled(rows: list[list[str]]) -> bool:
    firsts = [r[0] for r in rows if r and r[0].strip()]
    return bool(firsts) and sum(_is_label(_clean_label(c)) for c in firsts) * 3 >= len(firsts) * 2


def _is_label(text: str) -> bool:
    words = text.split()
    return (
        0 < len(words) <= MAX_LABEL_WORDS and not text.rstrip().endswith(".") and bool(re.search(r"[A-Za-z]{2}", text))
    )


def _clean_label(text: str) -> str:
    return " ".join(strip_markup(text).split()).strip(" :\uff1a")
