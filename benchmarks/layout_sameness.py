"""Is the routed layout the same? Every corpus PDF parsed both ways, compared page by page.

    python benchmarks/layout_sameness.py [--corpus ../shared/corpus] [--only NAME ...]
                                         [--save DIR] [--show N]

Each PDF is parsed twice in this run, side by side (which goes first alternates): ``--layout full`` (the full layout
model on every page, the old path) and ``--layout auto`` (opt-in: each page's model chosen by
``clinparser/convert/engines/layout_route.py``). Per page, the blocks the tree is assembled from are
compared, in order:

* **kinds**: the sequence of block kinds (text, heading, list-item, table, picture, ...);
* **headings**: the heading blocks' text, their Markdown level included;
* **tables**: the table blocks' text (their cells);
* **furniture**: which blocks were dropped as running headers/footers;
* **text**: the words of the kept blocks, in order (a paragraph split or joined differently
  changes kinds or blocks, not words).

The table gives, per document: pages, pages the router sent to the text-only model, pages
that differ in each respect (a page differs in several at once), the section tree (numbers and
titles) same or not, and the seconds of each parse with their ratio (auto / full). Below it,
every page that differs, with its route and what differs (``--show`` lines of each kind).
``--save DIR`` writes each parse to ``DIR/full/NAME.json`` and ``DIR/auto/NAME.json``, which
``toc_accuracy.py --parsed``, ``schedule.py --parsed``, ``furniture_tables.py --results`` and
``study.py --parsed`` read, so every accuracy figure is measured on both.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

from clinparser.convert.options import ParseOptions
from clinparser.model import HEADING, PAGE_FOOTER, PAGE_HEADER, TABLE
from clinparser.pipeline import parse_document

ROOT = Path(__file__).resolve().parent.parent
_WORD = re.compile(r"[^\W_]+", re.UNICODE)
ASPECTS = ("kinds", "headings", "tables", "furniture", "text")


def page_view(blocks) -> dict[int, dict]:
    """Per page, what is compared (see the module docstring)."""
    pages: dict[int, dict] = {}
    for b in blocks:
        if b.page is None:
            continue
        v = pages.setdefault(b.page, {a: [] for a in ASPECTS})
        v["kinds"].append(b.kind)
        if b.kind == HEADING and not b.dropped:
            v["headings"].append(b.text.strip())
        if b.kind == TABLE:
            v["tables"].append(b.text.strip())
        if b.dropped == "furniture" or b.kind in (PAGE_HEADER, PAGE_FOOTER):
            v["furniture"].append((b.kind, b.dropped, " ".join(b.text.split())))
        if not b.dropped:
            v["text"].extend(w.lower() for w in _WORD.findall(b.text))
    return pages


def tree(result: dict) -> list[tuple[str, str]]:
    out = []

    def walk(node):
        out.append((node["number"], node["title"]))
        for child in node.get("subsections", []):
            walk(child)

    for node in result["toc"]:
        walk(node)
    return out


def compare(pdf: Path, save: Path | None, auto_first: bool = False) -> dict:
    """``auto_first``: which mode parses first alternates over the documents, so that the one
    parsing first (in a process not yet warm: imports, the model in this process) is not
    always the same side of the ratio."""
    runs = {}
    for mode in ("auto", "full") if auto_first else ("full", "auto"):
        started = time.perf_counter()
        parsed = parse_document(pdf, ParseOptions(layout=mode))
        seconds = time.perf_counter() - started
        result = parsed.to_dict()
        runs[mode] = (parsed, result, seconds)
        if save is not None:
            (save / mode).mkdir(parents=True, exist_ok=True)
            (save / mode / f"{pdf.stem}.json").write_text(
                json.dumps(result, ensure_ascii=False, sort_keys=True), encoding="utf-8"
            )
    full, auto = page_view(runs["full"][0].converted.blocks), page_view(runs["auto"][0].converted.blocks)
    routes = {r["page"]: r.get("layout", {}) for r in runs["auto"][1]["metadata"]["pages"]}
    differ = []
    for page in sorted(set(full) | set(auto)):
        a, b = full.get(page, {x: [] for x in ASPECTS}), auto.get(page, {x: [] for x in ASPECTS})
        what = [x for x in ASPECTS if a[x] != b[x]]
        if what:
            differ.append({"page": page, "route": routes.get(page, {}), "what": what, "full": a, "auto": b})
    return {
        "pages": runs["full"][0].converted.page_count,
        "text_only": sum(1 for r in routes.values() if r.get("model") == "text-only"),
        "differ": differ,
        "tree_same": tree(runs["full"][1]) == tree(runs["auto"][1]),
        "seconds": (runs["full"][2], runs["auto"][2]),
    }


def _first_difference(a: list, b: list) -> str:
    for k, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return f"#{k}: {str(x)[:70]!r} -> {str(y)[:70]!r}"
    return f"{len(a)} -> {len(b)} items"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    ap.add_argument("--only", nargs="*", default=None)
    ap.add_argument("--save", type=Path)
    ap.add_argument("--show", type=int, default=3, help="pages listed per kind of difference and document")
    args = ap.parse_args(argv)
    pdfs = sorted(args.corpus.glob("*.pdf"))
    if args.only:
        pdfs = [p for p in pdfs if p.stem in args.only]
    if not pdfs:
        print(f"no PDF in {args.corpus}", file=sys.stderr)
        return 2
    print(
        "| document | pages | text-only | "
        + " | ".join(f"{a} differ" for a in ASPECTS)
        + " | tree same | full s | auto s | auto/full |"
    )
    print("|---|" + "---|" * (len(ASPECTS) + 6))
    rows, details = [], []
    for k, pdf in enumerate(pdfs):
        r = compare(pdf, args.save, auto_first=k % 2 == 1)
        counts = [sum(a in d["what"] for d in r["differ"]) for a in ASPECTS]
        full_s, auto_s = r["seconds"]
        rows.append((r, counts))
        print(
            f"| {pdf.stem} | {r['pages']} | {r['text_only']} | "
            + " | ".join(map(str, counts))
            + f" | {'yes' if r['tree_same'] else 'NO'} | {full_s:.1f} | {auto_s:.1f} | {auto_s / full_s:.2f} |",
            flush=True,
        )
        details.append((pdf.stem, r))
    pages = sum(r["pages"] for r, _ in rows)
    text_only = sum(r["text_only"] for r, _ in rows)
    totals = [sum(c[k] for _, c in rows) for k in range(len(ASPECTS))]
    full_s = sum(r["seconds"][0] for r, _ in rows)
    auto_s = sum(r["seconds"][1] for r, _ in rows)
    print(
        f"| **all** | {pages} | {text_only} | "
        + " | ".join(map(str, totals))
        + f" | {sum(r['tree_same'] for r, _ in rows)}/{len(rows)} "
        f"| {full_s:.1f} | {auto_s:.1f} | {auto_s / full_s:.2f} |"
    )
    print()
    for name, r in details:
        if not r["differ"]:
            continue
        print(f"### {name}: {len(r['differ'])} of {r['pages']} pages differ")
        for aspect in ASPECTS:
            hits = [d for d in r["differ"] if aspect in d["what"]]
            for d in hits[: args.show]:
                route = d["route"].get("model", "?")
                print(
                    f"- p{d['page']} ({route}: {d['route'].get('reason', '')}) {aspect}: "
                    f"{_first_difference(d['full'][aspect], d['auto'][aspect])}"
                )
            if len(hits) > args.show:
                print(f"- ... {len(hits) - args.show} more pages whose {aspect} differ")
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
