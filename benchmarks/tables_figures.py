"""Tables and figures recovered, per corpus PDF, against the document's own printed
"List of Tables" / "List of Figures".

    python benchmarks/tables_figures.py [--corpus ../shared/corpus]

For every listed entry ("Table 3: Dosing ..... 27"), it looks for a table (or figure) whose
title matches (same label, e.g. "Table 3", and agreeing words) and whose page range holds the
listed page (printed page numbers are mapped to physical pages by the median offset of the
matched TOC headings). A group entry ("Table 1" over lettered "Table 1a", "Table 1b") counts
when its lettered parts are found there. It also counts all tables and images found.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
from pathlib import Path

from scoring.tree import flatten

from clinparser.pipeline import ParseOptions, parse_document
from clinparser.shared.numbering import normalize_number, titles_agree

ROOT = Path(__file__).resolve().parent.parent
_LABEL = re.compile(r"^(table|figure)\s+([A-Z]{0,6}[.\-]?\d+[a-z]?)", re.I)


def label(title: str) -> str:
    m = _LABEL.match(title.strip())
    return f"{m[1].lower()} {m[2].lower().rstrip('.')}" if m else ""


def page_offset(parsed) -> int:
    """Physical page minus printed page, from TOC entries matched to accepted sections."""
    starts = {normalize_number(n["number"]): n["pages"][0] for n in flatten(parsed.to_dict()["toc"])}
    diffs = [
        starts[normalize_number(e.number)] - e.page
        for e in parsed.printed_toc.entries
        if e.number and e.page and starts.get(normalize_number(e.number))
    ]
    return int(statistics.median(diffs)) if diffs else 0


def evaluate(pdf: Path):
    parsed = parse_document(pdf, ParseOptions())
    result = parsed.to_dict()
    offset = page_offset(parsed)
    nodes = flatten(result["toc"]) + flatten(result["non_toc"])
    found = {"table": [t for n in nodes for t in n["tables"]], "figure": [i for n in nodes for i in n["images"]]}
    listed = {"table": [], "figure": []}
    for e in parsed.printed_toc.list_entries:
        lab = label(e.title)
        if lab:
            listed[lab.split()[0]].append((lab, e))
    row = {"tables_found": len(found["table"]), "images_found": len(found["figure"])}
    misses = []
    for kind in ("table", "figure"):
        hit = 0
        for lab, e in listed[kind]:
            want = e.page + offset if e.page else None
            near = [x for x in found[kind] if want is None or _pages(x)[0] - 1 <= want <= _pages(x)[1] + 1]
            ok = any(label(x["title"]) == lab and titles_agree(x["title"], e.title) for x in near)
            # A group caption ("Table 1. Schedule of Assessments" over Tables 1a, 1b, 1c)
            # is recovered when its lettered parts are.
            ok = ok or any(re.fullmatch(re.escape(lab) + "[a-z]", label(x["title"])) for x in near)
            hit += ok
            if not ok:
                misses.append(f"{kind}: {e.title} (page {e.page})")
        row[f"{kind}s_listed"] = len(listed[kind])
        row[f"{kind}s_recovered"] = hit
    return row, misses


def _pages(item):
    pages = item.get("pages") or [item["page"], item["page"]]
    return pages[0] or 0, pages[1] or 0


def pct(a, b):
    return f"{a}/{b} ({100 * a / b:.0f}%)" if b else "no list"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    args = ap.parse_args(argv)
    pdfs = sorted(args.corpus.glob("*.pdf"))
    if not pdfs:
        print(f"no PDFs under {args.corpus}", file=sys.stderr)
        return 1
    print("| protocol | listed tables recovered | listed figures recovered | tables found | images found |")
    print("|---|---|---|---|---|")
    all_misses = []
    for pdf in pdfs:
        row, misses = evaluate(pdf)
        print(
            f"| {pdf.stem} | {pct(row['tables_recovered'], row['tables_listed'])} "
            f"| {pct(row['figures_recovered'], row['figures_listed'])} | {row['tables_found']} "
            f"| {row['images_found']} |"
        )
        all_misses += [f"{pdf.stem}: {m}" for m in misses]
    if all_misses:
        print("\nNot recovered:")
        print("\n".join(f"  {m}" for m in all_misses))
    return 0


if __name__ == "__main__":
    sys.exit(main())
