"""Section-aware retrieval chunks: the tree cut into records a vector index can take.

Every section gives one ``section`` record (its whole text, children included, for a
retriever to fetch as context) and, in reading order, ``text`` chunks within a token budget
(split by semchunk at paragraph, then sentence boundaries, with overlap), one ``table``
chunk per table (split by rows when over budget, each piece repeating the header row) and
one ``figure`` chunk per figure. Each chunk's ``parent_id`` is its section's record, and its
text starts with the heading path so it stands alone.

When the result has a study definition (``result["study"]``), the section records are followed
by one ``criterion`` chunk per eligibility criterion, in the study's order, then one
``objective`` chunk per objective with its endpoints in its text, so a screening tool can fetch
"exclusion criterion 7" by id or by metadata (``category``, ``identifier``, ``applies_to``;
``level``, ``label``, ``endpoint_count``), then one ``design`` chunk: the study design in words
(arms, epochs, interventions, population, allocation, model, masking, indication, amendments;
metadata ``design_parts``, ``arm_count``, ``epoch_count``, ``intervention_count``). Their heading path is their
section's plus a line naming the item ("Exclusion criterion 7"), their ``parent_id`` their section's record (None when
the tree has no such section), and a criterion or objective over the budget is split like text
(``chunk_index`` / ``chunk_count`` then number its pieces; every non-section id is
``<group>:<chunk_index>``).

Token counting is offline. The default counter is deterministic and dependency-free: words
and runs of punctuation (regex ``\\w+|[^\\w\\s]+``), which tracks BPE counts of English prose
within about 20% (a tokenizer splits rare words further). ``tokenizer_file`` uses a local
``tokenizer.json`` through the ``tokenizers`` library instead; nothing is ever downloaded.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Callable, Iterator, Optional

import semchunk

from ..shared.markup import PICTURE_TEXT
from ..study.design.lines import PARTS, design_lines, main_section

TokenCounter = Callable[[str], int]
_TOKEN = re.compile(r"\w+|[^\w\s]+")
_NUMBER = re.compile(r"[\w.]+")
_PLACEHOLDER = re.compile(r"^\[(?P<title>[^\]]*)\]$")


def default_counter(text: str) -> int:
    return len(_TOKEN.findall(text))


def tokenizer_counter(path: Path) -> TokenCounter:
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(path))
    return lambda text: len(tok.encode(text, add_special_tokens=False).ids)


def heading(node: dict) -> str:
    return f"{node['number']} {node['title']}".strip() if node["number"] else node["title"]


def full_text(node: dict) -> str:
    """A section's text with its children's, each under its heading (the ``section`` record)."""
    parts = [node["text"]] if node["text"] else []
    for child in node["subsections"]:
        parts.append(f"{heading(child)}\n\n{full_text(child)}".strip())
    return "\n\n".join(p for p in parts if p)


def table_markdown(columns: list[str], rows: list[list[str]]) -> str:
    """A compact pipe table (no alignment padding: padding would only spend tokens)."""

    def line(cells):
        return "| " + " | ".join(str(c).replace("|", "\\|").replace("\n", "<br>") for c in cells) + " |"

    return "\n".join([line(columns), "|" + "---|" * len(columns)] + [line(r) for r in rows])


class Chunker:
    def __init__(self, max_tokens: int = 512, overlap: int = 64, counter: Optional[TokenCounter] = None):
        if max_tokens < 32:
            raise ValueError("max_tokens must be at least 32")
        if not 0 <= overlap < max_tokens:
            raise ValueError("overlap must be at least 0 and less than max_tokens")
        self.max_tokens, self.overlap = max_tokens, overlap
        self.count = counter or default_counter

    def document(self, result: dict) -> list[dict]:
        """All records of a result, in document order (front matter, body, back matter), then,
        when it has a study definition, its criteria and objectives."""
        meta = result["metadata"]
        doc = {"document_id": meta["sha256"][:16], "source": meta["source"]}
        nodes = sorted(
            result["non_toc"] + result["toc"], key=lambda n: (n["pages"][0] or 0, 0 if not n["number"] else 1)
        )
        records: list[dict] = []
        used: set[str] = set()
        for node in nodes:
            records.extend(self._section(node, [], None, doc, used))
        if result.get("study"):
            records += list(self._study(result["study"], records, doc, used))
        return records

    def _section(self, node: dict, path: list[str], parent: Optional[str], doc: dict, used: set[str]) -> Iterator[dict]:
        path = path + [heading(node)]
        section_id = _unique(f"{doc['document_id']}:{node['number'].rstrip('.') or _slug(node['title'])}", used)
        base = {
            **doc,
            "section_number": node["number"],
            "section_title": node["title"],
            "heading_path": path,
            "pages": node["pages"],
        }
        body = full_text(node)
        head = " > ".join(path)
        yield _record(section_id, f"{head}\n\n{body}".strip(), base, "section", parent, self.count)
        pieces = list(self._pieces(node, head))
        for k, (kind, text) in enumerate(pieces):
            rec = _record(f"{section_id}:{k}", text, base, kind, section_id, self.count)
            rec["metadata"].update(chunk_index=k, chunk_count=len(pieces))
            yield rec
        for child in node["subsections"]:
            yield from self._section(child, path, section_id, doc, used)

    # --- the study definition: criteria and objectives ------------------------------------------

    def _study(self, study: dict, records: list[dict], doc: dict, used: set[str]) -> Iterator[dict]:
        """``criterion`` chunks, then ``objective`` chunks, each under the section it was read from, then
        the ``design`` chunk."""
        sections = _section_index(records)
        seen: dict[str, int] = {}
        for item in study.get("eligibility") or []:
            category = item.get("category") or "criterion"
            seen[category] = seen.get(category, 0) + 1
            ident = _ident(item.get("identifier"))
            name = (f"{category.capitalize()} criterion" if item.get("category") else "Criterion") + (
                f" {ident}" if ident else ""
            )
            if item.get("applies_to"):
                name += f" (applies to {item['applies_to']})"
            key = f"{category}-{ident or 'item' + str(seen[category])}"
            extra = {
                "category": item.get("category"),
                "identifier": item.get("identifier"),
                "applies_to": item.get("applies_to"),
            }
            yield from self._item(
                "criterion", key, name, [item.get("text") or ""], item, [item], extra, sections, doc, used
            )
        objectives = study.get("objectives") or []
        names = [f"{o.get('label') or (o.get('level') or '').capitalize()} objective".strip() for o in objectives]
        by_name: dict[str, int] = {}
        by_level: dict[str, int] = {}
        for obj, name in zip(objectives, names):
            level = obj.get("level") or "other"
            by_level[level] = by_level.get(level, 0) + 1
            by_name[name] = by_name.get(name, 0) + 1
            if names.count(name) > 1:  # "Secondary objective 2" of 3
                name += f" {by_name[name]}"
            endpoints = obj.get("endpoints") or []
            paragraphs = [obj.get("text") or ""] + [
                f"{e.get('label') or (e.get('level') or '').capitalize()} endpoint: {e.get('text') or ''}".strip()
                for e in endpoints
            ]
            extra = {"level": obj.get("level"), "label": obj.get("label"), "endpoint_count": len(endpoints)}
            key = f"objective-{level}-{by_level[level]}"
            yield from self._item(
                "objective", key, name, paragraphs, obj, [obj, *endpoints], extra, sections, doc, used
            )
        yield from self._design(study.get("design"), sections, doc, used)

    def _design(self, design: Optional[dict], sections: dict[str, dict], doc: dict, used: set[str]) -> Iterator[dict]:
        """One ``design`` chunk: the design's lines (``study.design.lines``), one paragraph per
        part, under the section most of it was read from; none when the design holds nothing."""
        lines = design_lines(design)
        if not lines:
            return
        paragraphs = ["\n".join(line.text for line in lines if line.part == part) for part in PARTS]
        parts = [part for part in PARTS if any(line.part == part for line in lines)]
        extra = {
            "design_parts": parts,
            "arm_count": len(design.get("arms") or []),
            "epoch_count": len(design.get("epochs") or []),
            "intervention_count": len(design.get("interventions") or []),
        }
        anchor = {"section": main_section(lines)}
        yield from self._item(
            "design",
            "design",
            "Study design",
            [p for p in paragraphs if p],
            anchor,
            [line.item for line in lines],
            extra,
            sections,
            doc,
            used,
        )

    def _item(
        self,
        kind: str,
        key: str,
        name: str,
        paragraphs: list[str],
        item: dict,
        spans: list[dict],
        extra: dict,
        sections: dict[str, dict],
        doc: dict,
        used: set[str],
    ) -> Iterator[dict]:
        """One study item's chunks: ``paragraphs`` under its section's heading path plus ``name``;
        ``spans`` are the items whose pages it covers (an objective and its endpoints)."""
        found = sections.get(_section_key(item.get("section"))) or sections.get(_title_key(item.get("section")))
        meta = found["metadata"] if found else {}
        path = list(meta.get("heading_path") or []) + [name]
        pages = sorted({p for s in spans for p in s.get("pages") or [] if p is not None})
        base = {
            **doc,
            "section_number": meta["section_number"] if found else (item.get("section") or ""),
            "section_title": meta["section_title"] if found else "",
            "heading_path": path,
            "pages": [pages[0], pages[-1]] if pages else [None, None],
            **extra,
        }
        section = _section_key(item.get("section"))
        if not found:  # no such section in the tree: its number (or its title's slug) still names it
            section = section if _NUMBER.fullmatch(section) else _slug(section)
        prefix = found["id"] if found else f"{doc['document_id']}:{section}"
        group = _unique(f"{prefix}:{key}", used)
        head = " > ".join(path)
        pieces = [text for _, text in self._text(paragraphs, head)] or [head]
        for k, text in enumerate(pieces):
            rec = _record(f"{group}:{k}", text, base, kind, found["id"] if found else None, self.count)
            rec["metadata"].update(chunk_index=k, chunk_count=len(pieces))
            yield rec

    def _pieces(self, node: dict, head: str) -> Iterator[tuple[str, str]]:
        """(kind, text) in reading order: text runs split at table/figure placeholders."""
        pending = {"figure": list(node["images"]), "table": list(node["tables"])}
        run: list[str] = []
        for para in node["text"].split("\n\n"):
            if PICTURE_TEXT.match(para.strip()):
                continue  # a picture's words: its figure chunk carries them (``image["text"]``)
            m = _PLACEHOLDER.match(para.strip())
            if not m:
                run.append(para)
                continue
            yield from self._text(run, head)
            run = []
            kind = _placeholder_kind(m["title"], pending)
            if not pending[kind]:
                continue
            item = pending[kind].pop(0)
            yield from (self._figure(item, head) if kind == "figure" else self._table(item, head))
        yield from self._text(run, head)

    def _budget(self, head: str) -> int:
        return max(16, self.max_tokens - self.count(head) - 2)

    def _text(self, paragraphs: list[str], head: str) -> Iterator[tuple[str, str]]:
        text = "\n\n".join(p for p in paragraphs if p.strip())
        if not text:
            return
        budget = self._budget(head)
        overlap = min(self.overlap, budget // 2)
        for piece in semchunk.chunk(text, budget, self.count, overlap=overlap or None):
            yield "text", f"{head}\n\n{piece}"

    def _table(self, table: dict, head: str) -> Iterator[tuple[str, str]]:
        """The table whole if it fits; else pieces of rows, each repeating the header row."""
        title, rows = table["title"] or "Table", table["data"]

        def piece(start: int, end: int) -> str:
            part = f" (rows {start + 1}-{end} of {len(rows)})" if start or end < len(rows) else ""
            return f"{head}\n\n{title}{part}\n\n{table_markdown(table['columns'], rows[start:end])}"

        start = 0
        while True:  # at least one row a piece, however long that row is
            end = start + 1
            while end < len(rows) and self.count(piece(start, end + 1)) <= self.max_tokens:
                end += 1
            yield "table", piece(start, end)
            if end >= len(rows):
                return
            start = end

    def _figure(self, image: dict, head: str) -> Iterator[tuple[str, str]]:
        """The figure's title and file, with the words read inside it (in pieces that fit)."""
        where = f"\n\nImage: {image['path']}" if image.get("path") else ""
        top = f"{head}\n\n{image['title'] or 'Figure'}{where}"
        if not image.get("text"):
            yield "figure", top
            return
        budget = self._budget(top)
        for piece in semchunk.chunk(image["text"], budget, self.count):
            yield "figure", f"{top}\n\n{piece}"


def _placeholder_kind(title: str, pending: dict) -> str:
    """Which item a placeholder stands for: the next picture or the next table whose placeholder
    it is ("[Image]", "[Table]" or the item's title); of both, the picture (a table read from a
    picture, titled by the same caption, follows the picture's placeholder)."""
    fits = {
        kind: bool(items) and (items[0]["title"] or ("Image" if kind == "figure" else "Table")) == title
        for kind, items in pending.items()
    }
    named_figure = title == "Image" or title.lower().startswith(("figure", "fig."))
    if fits["figure"]:
        return "figure"
    if fits["table"]:
        return "table"
    return "figure" if named_figure else "table"


def _record(rid: str, text: str, base: dict, kind: str, parent: Optional[str], count: TokenCounter) -> dict:
    meta = {**base, "kind": kind, "parent_id": parent, "token_count": count(text), "chunk_index": 0, "chunk_count": 1}
    return {"id": rid, "text": text, "metadata": meta}


def _section_key(section: Optional[str]) -> str:
    """A section number as ids and lookups use it: "5.2." and "5.2" are the same section."""
    return (section or "").strip().rstrip(".")


def _title_key(section: Optional[str]) -> str:
    return "title:" + re.sub(r"[^0-9a-z]+", " ", (section or "").lower()).strip()


def _section_index(records: list[dict]) -> dict[str, dict]:
    """Section records by number, and by title (a study names an unnumbered section by its
    title, "Inclusion criteria:"); the first of each wins."""
    out: dict[str, dict] = {}
    for r in records:
        meta = r["metadata"]
        if meta["kind"] != "section":
            continue
        if meta["section_number"]:
            out.setdefault(_section_key(meta["section_number"]), r)
        out.setdefault(_title_key(meta["section_title"]), r)
    out.pop("", None)
    out.pop("title:", None)
    return out


def _ident(identifier: Optional[str]) -> str:
    """A criterion's printed identifier without its punctuation: "7." / "7)" / "[7]" -> "7"."""
    return re.sub(r"[^0-9A-Za-z.]+", "-", identifier or "").strip(".-")


def _slug(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")[:40] or "untitled"


def _unique(rid: str, used: set[str]) -> str:
    out, n = rid, 2
    while out in used:
        out, n = f"{rid}~{n}", n + 1
    used.add(out)
    return out
