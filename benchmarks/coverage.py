"""Nothing lost, nothing doubled: the share of a PDF's body words found in the output tree.

    python benchmarks/coverage.py [--corpus ../shared/corpus] [PDF ...]

Body words are PyMuPDF's raw words (``page.get_text("words")``) minus those inside blocks the
pipeline dropped as running headers/footers or printed-TOC pages, and minus words drawn inside
a figure (they are kept, as pixels, in the figure's PNG). Output words are every
node's text (toc and non_toc), table columns and cells, and figure titles. Words are compared
as multisets after folding case and punctuation: *covered* = body words matched in the output;
*duplicated* = output words beyond their count in the body (words that came out twice).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path

import pymupdf

from clinparser.evaluate import flatten
from clinparser.pipeline import ParseOptions, parse_document

ROOT = Path(__file__).resolve().parent.parent
_WORD = re.compile(r"[^\W_]+", re.UNICODE)


_BREAK = re.compile(r"<br\s*/?>", re.I)
_TAG = re.compile(r"</?[a-z][^>]*>", re.I)
_UNTITLED = re.compile(r"^\[(Table|Image)\]$", re.M)


def words(text: str) -> list[str]:
    """Words, case folded; HTML the converter adds (<u>, <sup>) is markup, not words:
    "m<sup>2</sup>" is the PDF's "m2"; untitled placeholders are not text."""
    text = _UNTITLED.sub(" ", _TAG.sub("", _BREAK.sub(" ", text)))
    return [w.lower() for w in _WORD.findall(text)]


def _inside(word, box) -> bool:
    cx, cy = (word[0] + word[2]) / 2, (word[1] + word[3]) / 2
    return box[0] - 1 <= cx <= box[2] + 1 and box[1] - 1 <= cy <= box[3] + 1


def body_words(pdf: Path, blocks) -> Counter:
    dropped: dict[int, list] = {}
    for b in blocks:
        if (b.dropped or b.image is not None) and b.bbox and b.page:
            dropped.setdefault(b.page, []).append(b.bbox)
    count: Counter = Counter()
    with pymupdf.open(pdf) as doc:
        for page in doc:
            boxes = dropped.get(page.number + 1, [])
            for w in page.get_text("words"):
                if not any(_inside(w, box) for box in boxes):
                    count.update(words(w[4]))
    return count


def output_words(result: dict, toc_pages: list[int]) -> Counter:
    """Words of the tree, less the printed-TOC node (its pages are left out of the body too)."""
    count: Counter = Counter()
    for node in flatten(result["toc"]) + flatten(result["non_toc"]):
        if not node["number"] and node["pages"][0] in toc_pages and node["pages"][1] in toc_pages:
            continue
        count.update(words(f"{node['number']} {node['title']} {node['text']}"))
        for table in node["tables"]:
            # A table merged over pages printed its header on each: count it once a page.
            span = (table["pages"][1] or 0) - (table["pages"][0] or 0) + 1
            count.update(words(" ".join(table["columns"])) * max(1, span))
            count.update(words(" ".join(c for row in table["data"] for c in row)))
    return count


def measure(pdf: Path, show: int = 0) -> tuple[int, float, float]:
    parsed = parse_document(pdf, ParseOptions())
    body, out = body_words(pdf, parsed.converted.blocks), output_words(parsed.to_dict(), parsed.printed_toc.pages)
    total = sum(body.values())
    covered = sum(min(n, out[w]) for w, n in body.items())
    doubled = sum(max(0, out[w] - n) for w, n in body.items())
    if show:
        print("missing:", Counter({w: n - out[w] for w, n in body.items() if n > out[w]}).most_common(show), file=sys.stderr)
        print("doubled:", Counter({w: out[w] - n for w, n in body.items() if out[w] > n}).most_common(show), file=sys.stderr)
    return total, covered / total if total else 1.0, doubled / total if total else 0.0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    ap.add_argument("pdfs", nargs="*", type=Path)
    ap.add_argument("--show", type=int, default=0, help="list the N most missed and most doubled words")
    args = ap.parse_args(argv)
    pdfs = args.pdfs or sorted(args.corpus.glob("*.pdf"))
    if not pdfs:
        print(f"no PDFs under {args.corpus}", file=sys.stderr)
        return 1
    print("| protocol | body words | covered | duplicated |")
    print("|---|---|---|---|")
    for pdf in pdfs:
        total, covered, doubled = measure(pdf, args.show)
        print(f"| {pdf.stem} | {total} | {100 * covered:.2f}% | {100 * doubled:.2f}% |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
