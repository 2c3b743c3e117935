"""Page furniture left, tables left split, empty headers and figure tiles, per corpus PDF.

    python benchmarks/furniture_tables.py [--corpus ../shared/corpus]
    python benchmarks/furniture_tables.py --results DIR   # score DIR/NAME.json, parse nothing

The measures are taken against the PDF itself, not against what the converter said, so they
hold on any protocol:

- **furniture /100 pp**: output lines (section titles, text lines, table cells) equal to a
  running header/footer line. A line of the PDF is furniture when it recurs (case and spacing
  folded, digits folded to ``#``) in the top or bottom 10 % of at least 30 % of the pages.
  Lines without three letters (a bare page number) are left out: they cannot be told from a
  number in a table cell. An output line that the pages it comes from (its section's or
  table's) also print in their body, between the bands, is content that reads like the
  header ("Boehringer Ingelheim" in a synopsis table, "19 Mar 2021" in a document history)
  and is not counted; the strict count, which counts it, is shown beside. An output line
  made of two or more such lines and nothing else but numbers counts too: a header block
  the converter ran into one line ("Protocol Date: 21 December 2017 Novo Nordisk ... Page: 8
  of 104"). A word printed twice over itself (a stamp drawn twice for weight) and read run
  together ("CONFIDENTIALCONFIDENTIAL") is folded to one.
- **split pairs**: two tables on consecutive pages with the same normalised header (one table
  cut in two), with nothing between them in the output but what stands between the parts of
  one table (furniture, a footnote, a "(continued)" caption, a spanning row come out as a
  heading): tables in different sections, with another table between them, with a passage of
  30 words between them (the next amendment's "Summary of changes" after its rationale), or
  with a heading between them that the page prints above the second table's header row, are
  two tables. Headers are compared with markup, case and spacing folded and their numbers
  kept ("Number of global amendment | 1" and "| 2" are two amendments' tables). The strict
  count, every such pair, is shown beside.
- **empty headers**: tables with more than two columns whose header cells are mostly empty
  while the first data row is mostly filled (the header row was left in ``data``).
- **abutting images**: two images of one page whose boxes touch, edge to edge, over a shared
  column span or row span (tiles of one figure).

``--results DIR`` scores results already written as ``DIR/NAME.json`` (the ``document.json``
of a parse, or ``PDFParser().parse`` output dumped as JSON).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path

import pymupdf
from scoring.tree import flatten

from clinparser.convert.pages.orientation import upright

ROOT = Path(__file__).resolve().parent.parent
BAND = 0.10  # top/bottom share of the page height
SHARE = 0.30  # share of pages a line must recur on
TOUCH = 3.0  # points: boxes this close touch


def signature(line: str) -> str:
    """A line with markup, case, spacing and digits folded; a word printed twice over itself
    and read run together ("CONFIDENTIALCONFIDENTIAL") counted once."""
    line = re.sub(r"[*_#|`~]+", " ", line).lower()
    line = re.sub(r"\d+", "#", line)
    return " ".join(re.sub(r"^([^\W\d_]{3,}?)\1+$", r"\1", w) for w in line.split())


MAX_JOINED_WORDS = 60  # a longer output line is not a header block run into one line


def joined(sig: str, furniture: set[str]) -> list[str]:
    """The furniture lines this output line is made of, when it is two or more of them run
    together and nothing else but numbers (a header block the converter read as one line, in
    any order); else []."""
    words = sig.split()
    if len(words) > MAX_JOINED_WORDS:
        return []
    best: list = [None] * (len(words) + 1)  # the most furniture lines covering words[:i]
    best[0] = []
    for i in range(len(words)):
        if best[i] is None:
            continue
        steps = [(i + 1, [])] if not any(c.isalpha() for c in words[i]) else []  # "2.0", "8 of 104"
        steps += [
            (j, [" ".join(words[i:j])]) for j in range(i + 1, len(words) + 1) if " ".join(words[i:j]) in furniture
        ]
        for j, piece in steps:
            if best[j] is None or len(best[i]) + len(piece) > len(best[j]):
                best[j] = best[i] + piece
    return best[-1] if best[-1] and len(best[-1]) >= 2 else []


def furniture_lines(pdf: Path) -> set[str]:
    """Signatures of the lines that recur in the top/bottom band of >= 30 % of the pages."""
    return scan(pdf)[0]


def scan(pdf: Path) -> tuple[set[str], dict[str, set[int]]]:
    """The furniture signatures (above), and for every signature the pages that print it in
    their body, between the bands (content that happens to read like a header line)."""
    doc = pymupdf.open(pdf)
    pages_with: Counter = Counter()
    body: dict[str, set[int]] = {}
    for page in doc:
        upright(page)  # as the converter does: the page as it is read, sideways pages turned
        height = page.rect.height
        seen = set()
        for block in page.get_text("dict")["blocks"]:
            for line in block.get("lines", []):
                y0, y1 = line["bbox"][1], line["bbox"][3]
                sig = signature("".join(s["text"] for s in line["spans"]))
                if sum(c.isalpha() for c in sig) < 3:
                    continue
                if y1 <= height * BAND or y0 >= height * (1 - BAND):
                    seen.add(sig)
                else:
                    body.setdefault(sig, set()).add(page.number + 1)
        pages_with.update(seen)
    need = max(3, SHARE * doc.page_count)
    return {sig for sig, n in pages_with.items() if n >= need}, body


def _output_lines(result: dict):
    """(line, first page, last page) of every output line: titles, text, table cells."""
    for node in flatten(result["toc"]) + flatten(result["non_toc"]):
        first, last = (node["pages"] or [None, None])[:2]
        yield node["title"], first, last
        for line in node["text"].splitlines():
            yield line, first, last
        for table in node["tables"]:
            t_first, t_last = (table["pages"] or [first, last])[:2]
            for cell in table["columns"] + [c for row in table["data"] for c in row]:
                for line in str(cell).splitlines():
                    yield line, t_first, t_last


def furniture_left(result: dict, furniture: set[str], body: dict[str, set[int]] | None = None) -> int:
    """Output lines equal to a furniture line; with ``body``, less those the pages they come
    from also print in their body (a synopsis cell "Boehringer Ingelheim", a document history's
    "19 Mar 2021": content that reads like the running header)."""
    count = 0
    for line, first, last in _output_lines(result):
        sig = signature(line)
        pieces = [sig] if sig in furniture else joined(sig, furniture)
        if not pieces:
            continue
        pages = range(first, (last or first) + 1) if first else range(0)
        if all(any(p in (body or {}).get(piece, ()) for p in pages) for piece in pieces):
            continue
        count += 1
    return count


def _tables(result: dict) -> list[dict]:
    tables = [t for n in flatten(result["toc"]) + flatten(result["non_toc"]) for t in n["tables"]]
    return sorted(
        (t for t in tables if t["pages"] and t["pages"][0]), key=lambda t: (t["pages"][0], t["pages"][1] or 0)
    )


def _header(table: dict) -> tuple[str, ...]:
    """The header row with markup, case and spacing folded, its numbers kept: a header row
    repeated over the pages of one table repeats them, and two tables whose headers differ
    only in a number are two ("Number of global amendment | 1", then "... | 2")."""
    return tuple(" ".join(re.sub(r"[*_#|`~]+", " ", str(c)).lower().split()) for c in table["columns"])


SEPARATING_WORDS = 30  # text between two tables with this many words is a passage of its own


def split_pairs(result: dict, strict: bool = False, pdf: Path | None = None) -> int:
    """Tables whose header equals that of a table ending on the page before, with nothing
    between them in the output but what stands between the parts of one table: furniture, a
    footnote, a "(continued)" caption, a heading made of a spanning row. Tables in different
    sections, with another table between them, or with a passage of SEPARATING_WORDS words
    between them, are two tables (an amendment's "Summary of changes" table after the previous
    amendment's rationale); so are tables with a heading between them that the page (``pdf``)
    prints above the second table's header row: it introduces that table. ``strict``: every
    such pair."""
    place = {}
    for node in flatten(result["toc"]) + flatten(result["non_toc"]):
        pieces = re.split(r"\[Table\]", node["text"])
        for k, table in enumerate(node["tables"]):
            place[id(table)] = (node, k, pieces)
    tables = _tables(result)
    ends = {(t["pages"][1], _header(t)): t for t in tables if any(_header(t))}
    count = 0
    doc = pymupdf.open(pdf) if pdf is not None and not strict else None
    for t in tables:
        before = ends.get((t["pages"][0] - 1, _header(t)))
        if before is None or not any(_header(t)):
            continue
        if strict or not _separated(place.get(id(before)), place.get(id(t)), doc, t):
            count += 1
    return count


def _separated(a, b, doc, table: dict) -> bool:
    if a is None or b is None or a[0] is not b[0]:
        return True
    node, first, pieces = a
    if len(pieces) != len(node["tables"]) + 1:  # placeholders not one per table: no claim
        return False
    if b[1] != first + 1:  # another table stands between them
        return True
    between = "".join(pieces[first + 1 : b[1] + 1])
    if len(re.findall(r"[^\W_]+", between)) >= SEPARATING_WORDS:
        return True
    # A heading alone separates only when printed above the second table's header row: a
    # long table's spanning row ("Section 3.3 ...") often comes out as a heading between two
    # parts of the table, and it is printed below the header row repeated at the page's top.
    headings = [strip(line) for line in between.splitlines() if line.startswith("#")]
    return doc is not None and any(_printed_above(doc, table, h) for h in headings if h)


def strip(line: str) -> str:
    """A Markdown line's text, markup gone."""
    return " ".join(re.sub(r"<[^>]+>|[*_#|`~]+", " ", line).split())


def _printed_above(doc, table: dict, heading: str) -> bool:
    """Does the table's first page print ``heading`` above the table's header row?"""
    page = doc[table["pages"][0] - 1]
    upright(page)
    cell = next((strip(str(c)).split("\n")[0] for c in table["columns"] if strip(str(c))), "")
    found = page.search_for(heading[:40])
    header = page.search_for(cell[:40]) if cell else []
    return bool(found and header) and min(r.y0 for r in found) < min(r.y0 for r in header)


def empty_headers(result: dict) -> int:
    count = 0
    for t in _tables(result):
        cols = [str(c).strip() for c in t["columns"]]
        if len(cols) <= 2 or not t["data"]:
            continue
        first = [str(c).strip() for c in t["data"][0]]
        if sum(not c for c in cols) > len(cols) / 2 and sum(bool(c) for c in first) > len(first) / 2:
            count += 1
    return count


def _overlap(a0, a1, b0, b1) -> float:
    return max(0.0, min(a1, b1) - max(a0, b0))


def abutting_images(result: dict) -> int:
    """Pairs of images on one page that touch edge to edge over most of their shared side."""
    by_page: dict = {}
    for node in flatten(result["toc"]) + flatten(result["non_toc"]):
        for img in node["images"]:
            if img["bbox"] and img["page"]:
                by_page.setdefault(img["page"], []).append(img["bbox"])
    pairs = 0
    for boxes in by_page.values():
        for i, a in enumerate(boxes):
            for b in boxes[i + 1 :]:
                pairs += touches(a, b)
    return pairs


def touches(a, b) -> bool:
    width = min(a[2] - a[0], b[2] - b[0])
    height = min(a[3] - a[1], b[3] - b[1])
    stacked = min(abs(a[3] - b[1]), abs(b[3] - a[1])) <= TOUCH and _overlap(a[0], a[2], b[0], b[2]) >= 0.8 * width
    side = min(abs(a[2] - b[0]), abs(b[2] - a[0])) <= TOUCH and _overlap(a[1], a[3], b[1], b[3]) >= 0.8 * height
    return stacked or side


def measure(pdf: Path, result: dict) -> dict:
    pages = result["metadata"]["page_count"] or 1
    furniture, body = scan(pdf)
    left = furniture_left(result, furniture, body)
    return {
        "pages": pages,
        "furniture": left,
        "furniture_strict": furniture_left(result, furniture),
        "furniture_per_100": 100 * left / pages,
        "split_pairs": split_pairs(result, pdf=pdf),
        "split_pairs_strict": split_pairs(result, strict=True),
        "empty_headers": empty_headers(result),
        "tables": len(_tables(result)),
        "abutting_images": abutting_images(result),
    }


def _result(pdf: Path, results: Path | None) -> dict:
    if results is not None:
        return json.loads((results / f"{pdf.stem}.json").read_text(encoding="utf-8"))
    from clinparser import PDFParser

    return PDFParser().parse(pdf, output_dir=None)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    ap.add_argument("--results", type=Path, help="score DIR/NAME.json instead of parsing")
    args = ap.parse_args(argv)
    pdfs = sorted(args.corpus.glob("*.pdf"))
    if args.results is not None:
        pdfs = [p for p in pdfs if (args.results / f"{p.stem}.json").exists()]
    if not pdfs:
        print(
            f"no PDFs to score under {args.corpus}" + (f" with results in {args.results}" if args.results else ""),
            file=sys.stderr,
        )
        return 1
    print(
        "| protocol | pages | furniture lines | per 100 pp | (strict: lines, per 100 pp) | split pairs (strict) "
        "| empty headers / tables | abutting images |"
    )
    print("|---|---|---|---|---|---|---|---|")
    total = Counter()
    for pdf in pdfs:
        m = measure(pdf, _result(pdf, args.results))
        total.update({k: v for k, v in m.items() if k != "furniture_per_100"})
        strict = f"{m['furniture_strict']}, {100 * m['furniture_strict'] / m['pages']:.1f}"
        print(
            f"| {pdf.stem} | {m['pages']} | {m['furniture']} | {m['furniture_per_100']:.1f} | {strict} "
            f"| {m['split_pairs']} ({m['split_pairs_strict']}) | {m['empty_headers']} / {m['tables']} "
            f"| {m['abutting_images']} |"
        )
    per100 = 100 * total["furniture"] / max(1, total["pages"])
    strict = f"{total['furniture_strict']}, {100 * total['furniture_strict'] / max(1, total['pages']):.1f}"
    print(
        f"| **all** | {total['pages']} | {total['furniture']} | {per100:.1f} | {strict} "
        f"| {total['split_pairs']} ({total['split_pairs_strict']}) | {total['empty_headers']} / {total['tables']} "
        f"| {total['abutting_images']} |"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
