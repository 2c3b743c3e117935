"""Nothing lost, nothing doubled: a PDF's words in the output tree, per document and per page.

    python benchmarks/coverage.py [--corpus ../shared/corpus] [--show N] [--layout full|auto] [PDF ...]

**Per document.** Body words are the pages' reference words (below): PyMuPDF's raw words
(``page.get_text("words")``), or the benchmark's own OCR where a page's layer is unreadable,
minus those inside blocks the pipeline dropped as running headers/footers or printed-TOC
pages; inside a kept picture, the words this benchmark's own OCR reads in the picture's box on
a render of the page (below), whether they are pixels or text. Output words are every node's
text (toc and non_toc, the words read inside pictures included), table columns and cells
(tables read from pictures included), and figure titles. Words are
compared as multisets after folding case and punctuation: *covered* = body words matched in the
output; *duplicated* = output words beyond their count in the body (words that came out twice).

**Per page.** A page's reference words are its text layer's words where that layer is readable
(those the page shows: a word with no ink under it, text drawn white on white, is not on the page;
a letter "o" opening a line is Word's second-level bullet, written as a list marker;
and no running header or footer line, by ``furniture_tables.py``'s rule or a line the parse dropped as
furniture on three pages or more, found by the parse on that page or not),
and otherwise the words this benchmark reads itself from a 200 dpi render of the page with
RapidOCR (its own call, apart from the parse's, which renders at 150 dpi; a line over three
times the page's median line height is a shape read as a glyph, not text); words inside dropped
blocks are left out as above, and inside a kept picture the reference is OCR of a 200 dpi
render of its box (the picture's words, whether pixels or text). A layer is unreadable here when it has no words, when
most of its characters are invisible (render mode 3), or when 10 % of them have no Unicode
mapping: the benchmark's own rule, not the parser's ``page_check``. The page's output words are
the words of the blocks the pipeline kept for that page (the blocks the tree is assembled
from, a picture's being the words read inside it; the per-document figure checks that the
tree holds them). Reported: pages checked (with
reference words), pages the parse recovered and how (its page ledger), pages under 90 % and
under 50 % of their reference words, the worst page, and replacement (U+FFFD) or control
characters anywhere in the written output (JSON, Markdown, CSV).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from collections import Counter
from pathlib import Path

import pymupdf

from clinparser.export.artifacts import SaveOptions, write_output

sys.path.insert(0, str(Path(__file__).resolve().parent))
from furniture_tables import BAND, furniture_lines, signature  # noqa: E402  (the one furniture rule)
from scoring.tree import flatten

from clinparser.pipeline import ParseOptions, parse_document

ROOT = Path(__file__).resolve().parent.parent
_WORD = re.compile(r"[^\W_]+", re.UNICODE)


_BREAK = re.compile(r"<br\s*/?>", re.I)
_TAG = re.compile(r"</?[a-z][^>]*>", re.I)
_UNTITLED = re.compile(r"^\[(Table|Image)\]$", re.M)
_COMMENT = re.compile(r"<!--.*?-->", re.S)  # the markers around a picture's words


def words(text: str) -> list[str]:
    """Words, case folded; HTML the converter adds (<u>, <sup>) is markup, not words:
    "m<sup>2</sup>" is the PDF's "m2"; untitled placeholders are not text."""
    text = _UNTITLED.sub(" ", _TAG.sub("", _BREAK.sub(" ", _COMMENT.sub(" ", text))))
    return [w.lower() for w in _WORD.findall(text)]


def _inside(word, box) -> bool:
    cx, cy = (word[0] + word[2]) / 2, (word[1] + word[3]) / 2
    return box[0] - 1 <= cx <= box[2] + 1 and box[1] - 1 <= cy <= box[3] + 1


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


def measure(pdf: Path, show: int = 0, save: Path | None = None, layout: str = "auto") -> dict:
    parsed = parse_document(pdf, ParseOptions(layout=layout))
    result = parsed.to_dict()
    if save is not None:  # for the other benchmarks' --parsed/--results: one parse, all measures
        save.mkdir(parents=True, exist_ok=True)
        (save / f"{pdf.stem}.json").write_text(json.dumps(result, ensure_ascii=False, sort_keys=True), encoding="utf-8")
    pages = page_coverage(pdf, parsed.converted.blocks)
    body = sum((p["ref"] for p in pages), Counter())  # each page's reference words (see page_coverage)
    out = output_words(result, parsed.printed_toc.pages)
    total = sum(body.values())
    covered = sum(min(n, out[w]) for w, n in body.items())
    doubled = sum(max(0, out[w] - n) for w, n in body.items())
    if show:
        print(
            "missing:",
            Counter({w: n - out[w] for w, n in body.items() if n > out[w]}).most_common(show),
            file=sys.stderr,
        )
        print(
            "doubled:",
            Counter({w: out[w] - n for w, n in body.items() if out[w] > n}).most_common(show),
            file=sys.stderr,
        )
    with tempfile.TemporaryDirectory() as folder:
        written = write_output(parsed, Path(folder), SaveOptions(True, False, True))
        bad = bad_characters(written)
    return {
        "total": total,
        "covered": covered / total if total else 1.0,
        "doubled": doubled / total if total else 0.0,
        "pages": pages,
        "ledger": Counter(r["source"] for r in result["metadata"]["pages"]),
        "bad": bad,
    }


# -- per page ------------------------------------------------------------------------------

_OCR = None


def _ocr_words(page, clip=None) -> list[tuple]:
    """The benchmark's own reading of a page (or of the region ``clip`` of it): RapidOCR on a
    200 dpi render, as (x0, y0, x1, y1, text) in page points, one entry per line it reads."""
    global _OCR
    import numpy as np
    from rapidocr import RapidOCR

    if _OCR is None:
        _OCR = RapidOCR(params={"Global.log_level": "critical"})
    clip = pymupdf.Rect(clip) & page.rect if clip is not None else page.rect
    if clip.is_empty:
        return []
    pix = page.get_pixmap(dpi=200, alpha=False, clip=clip)
    image = np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.width, pix.n)
    result = _OCR(image)
    if result.boxes is None or result.txts is None:
        return []
    scale = 72 / 200
    out = []
    for box, text in zip(result.boxes, result.txts):
        xs, ys = [clip.x0 + p[0] * scale for p in box], [clip.y0 + p[1] * scale for p in box]
        out.append((min(xs), min(ys), max(xs), max(ys), text))
    return _text_sized(out)


def _text_sized(lines: list[tuple]) -> list[tuple]:
    """OCR lines of the page's text size: a line over three times the median line height is a
    shape read as a glyph (a block of redaction bars read as one 128 pt "三"), not text."""
    if len(lines) < 3:
        return lines
    heights = sorted(line[3] - line[1] for line in lines)
    median = heights[len(heights) // 2]
    return [line for line in lines if line[3] - line[1] <= 3 * median]


def readable(page) -> bool:
    """The benchmark's own judgement of a text layer (see the module docstring)."""
    chars = visible = unmapped = 0
    for span in page.get_texttrace():
        for c in span["chars"]:
            if chr(c[0]).isspace():
                continue
            chars += 1
            visible += span["type"] != 3 and span["opacity"] > 0
            unmapped += c[0] == 0xFFFD or c[0] < 32
    return chars > 0 and visible >= 0.5 * chars and unmapped < 0.1 * chars


def without_bullets(entries: list[tuple]) -> list[tuple]:
    """Layer words less a letter "o" that opens a line: Word's second-level bullet, drawn as
    an "o" in Courier New (often a line of its own beside its item), which the converter writes
    as a list marker ("-"), like any other bullet glyph (those are no words to begin with)."""
    return [e for e in entries if not (e[4] == "o" and e[7] == 0)]


INK = 235  # a grey level darker than this, somewhere in a word's box, is ink on the page


def shown(page, entries: list[tuple]) -> list[tuple]:
    """The layer's words the page shows: some ink inside the word's box on a render. Text drawn
    in the colour of what lies under it (white on a white page, a template's "Blank header")
    is in the layer but not on the page; nothing the parse leaves out of it is lost."""
    pix = page.get_pixmap(dpi=72, colorspace="gray", alpha=False)
    width, height, samples = pix.width, pix.height, pix.samples
    sx, sy = width / page.rect.width, height / page.rect.height
    kept = []
    for entry in entries:
        x0, y0 = max(0, int(entry[0] * sx)), max(0, int(entry[1] * sy))
        x1, y1 = min(width, int(entry[2] * sx) + 1), min(height, int(entry[3] * sy) + 1)
        if any(min(samples[y * width + x0 : y * width + x1], default=255) < INK for y in range(y0, y1)):
            kept.append(entry)
    return kept


def running_lines(page, running: set[str], dropped: set[str], ocr_lines=None) -> list[tuple]:
    """Boxes of the page's running header/footer lines, whether or not the parse found them on
    this page: furniture is not content, so it is no reference word either. Two sources: the
    furniture benchmark's own rule (``running``: recurring in the top/bottom band of 30 % of the
    pages), and the lines the parse itself took out as furniture on at least ``DROPPED_PAGES``
    pages (``dropped``, as word signatures), wherever they stand (a header block a table
    swallowed on one page loses its rows there, not a dropped block). ``ocr_lines``: the
    benchmark's OCR lines of a page without a readable layer."""
    height = page.rect.height
    if ocr_lines is not None:
        lines = [(entry[:4], entry[4]) for entry in ocr_lines]
    else:
        lines = [
            (line["bbox"], "".join(span["text"] for span in line["spans"]))
            for block in page.get_text("dict")["blocks"]
            for line in block.get("lines", [])
        ]

    def in_band(box, share=BAND) -> bool:
        return box[3] <= height * share or box[1] >= height * (1 - share)

    return [
        box
        for box, text in lines
        if _part_of(text, dropped, in_band(box, WIDE_BAND)) or (in_band(box) and signature(text) in running)
    ]


WIDE_BAND = 0.2  # a piece of a dropped furniture line this near an edge is furniture, however short


def word_signature(line: str) -> str:
    """A line's words, lower case, numbers as "#": markup and punctuation aside ("~~Status:~~")."""
    return " ".join("#" if w[0].isdigit() else w for w in re.findall(r"[^\W\d_]+|\d+", line.lower()))


def _part_of(text: str, dropped: set[str], near_edge: bool) -> bool:
    """Is this line one of the lines a dropped block joined ("pi christine m walko" of "mcc #
    pi christine m walko march # #")? Whole words of it with two letters or more ("62 of 104",
    "Status:"), near the page's edge; elsewhere only a line of three letters and eight characters
    or more. A bare number is never taken for furniture (a table cell near the top)."""
    sig = word_signature(text)
    letters = sum(c.isalpha() for c in sig)
    if letters < 2 or (not near_edge and (len(sig) < 8 or letters < 3)):
        return False
    return any(f" {sig} " in f" {d} " for d in dropped)


DROPPED_PAGES = 3


def dropped_furniture(blocks) -> set[str]:
    """Word signatures of the lines the parse dropped as furniture on at least DROPPED_PAGES pages."""
    pages: dict[str, set] = {}
    for b in blocks:
        if b.dropped == "furniture":
            for line in re.split(r"\n|<br\s*/?>", b.text):
                sig = word_signature(line)
                if sum(c.isalpha() for c in sig) >= 3:
                    pages.setdefault(sig, set()).add(b.page)
    return {sig for sig, found in pages.items() if len(found) >= DROPPED_PAGES}


def page_coverage(pdf: Path, blocks) -> list[dict]:
    """Per page: reference words (layer or the benchmark's OCR), output words, share covered."""
    excluded: dict[int, list] = {}
    pictures: dict[int, list] = {}
    kept: dict[int, Counter] = {}
    for b in blocks:
        if not b.page:
            continue
        if b.dropped and b.bbox:
            excluded.setdefault(b.page, []).append(b.bbox)
        elif b.image is not None and b.bbox:
            # A kept picture: its words are what OCR of the page's render reads in its box, and
            # the parse's are the words it read inside the picture.
            pictures.setdefault(b.page, []).append(b.bbox)
            kept.setdefault(b.page, Counter()).update(words(" ".join(text for _, text in b.image.words)))
        elif not b.dropped:
            kept.setdefault(b.page, Counter()).update(words(b.text))
    rows = []
    running, dropped = furniture_lines(pdf), dropped_furniture(blocks)
    with pymupdf.open(pdf) as doc:
        for page in doc:
            number = page.number + 1
            page.remove_rotation()  # the blocks' coordinates are those of the un-rotated page
            layer = readable(page)
            entries = without_bullets(shown(page, page.get_text("words"))) if layer else _ocr_words(page)
            boxes = excluded.get(number, []) + running_lines(page, running, dropped, entries if not layer else None)
            figures = pictures.get(number, [])
            inside = [entry for box in figures for entry in _ocr_words(page, box)] if layer else []
            ref: Counter = Counter()
            for entry in entries + inside:
                in_figure = any(_inside(entry, box) for box in figures)
                if not any(_inside(entry, box) for box in boxes) and (in_figure == (entry in inside) or not layer):
                    ref.update(words(entry[4]))
            total = sum(ref.values())
            if not total:
                continue
            got = kept.get(number, Counter())
            share = sum(min(n, got[w]) for w, n in ref.items()) / total
            rows.append(
                {"page": number, "reference": "layer" if layer else "ocr", "words": total, "share": share, "ref": ref}
            )
    return rows


_BAD = re.compile("[\ufffd\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def bad_characters(folder: Path) -> int:
    """U+FFFD and control characters (other than newline, tab, CR) in every written text file."""
    count = 0
    for path in folder.rglob("*"):
        if path.suffix in (".json", ".md", ".csv", ".jsonl"):
            text = path.read_text(encoding="utf-8")
            count += len(_BAD.findall(text)) + text.count("\\ufffd")
    return count


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    ap.add_argument("pdfs", nargs="*", type=Path)
    ap.add_argument(
        "--save", type=Path, help="also write each parse to DIR/NAME.json (toc_accuracy.py --parsed DIR reads them)"
    )
    ap.add_argument(
        "--show", type=int, default=0, help="list the N most missed and most doubled words, and pages under 90%%"
    )
    ap.add_argument(
        "--layout",
        choices=("full", "auto"),
        default="auto",
        help="the parser's --layout (default: auto, the parser's default)",
    )
    args = ap.parse_args(argv)
    pdfs = args.pdfs or sorted(args.corpus.glob("*.pdf"))
    if not pdfs:
        print(f"no PDFs under {args.corpus}", file=sys.stderr)
        return 1
    print(
        "| protocol | body words | covered | duplicated | pages checked | recovered (ocr/rebuilt) | OCR reference "
        "| < 90 % | < 50 % | worst page | bad chars |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for pdf in pdfs:
        m = measure(pdf, args.show, args.save, args.layout)
        pages = m["pages"]
        low = [p for p in pages if p["share"] < 0.9]
        worst = min(pages, key=lambda p: (p["share"], p["page"])) if pages else None
        worst_text = f"p{worst['page']} {100 * worst['share']:.0f}% of {worst['words']}" if worst else "-"
        print(
            f"| {pdf.stem} | {m['total']} | {100 * m['covered']:.2f}% | {100 * m['doubled']:.2f}% | {len(pages)} "
            f"| {m['ledger']['ocr']}/{m['ledger']['rebuilt']} | {sum(p['reference'] == 'ocr' for p in pages)} "
            f"| {len(low)} ({100 * len(low) / max(1, len(pages)):.1f}%) | {sum(p['share'] < 0.5 for p in pages)} "
            f"| {worst_text} | {m['bad']} |",
            flush=True,
        )
        if args.show:
            for p in low:
                print(f"  p{p['page']}: {100 * p['share']:.0f}% of {p['words']} ({p['reference']})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
