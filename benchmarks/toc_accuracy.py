"""Section-tree accuracy on every gold protocol: recall, precision and F1 per protocol and engine.

    python benchmarks/toc_accuracy.py [--corpus ../shared/corpus] [--engine pymupdf --engine docling]
                                      [--only NAME ...] [--save DIR] [--parsed DIR] [--show N] [--no-bookmarks]

A section counts when number and title both match a gold entry after the normalization the
corpus README describes (``scoring.tree``). Precision counts found sections only down
to the gold's ``complete_to_level``: deeper ones the gold does not list are unknown, not wrong.
Below the table: the targets (F1 >= 0.98 on every protocol, none below 0.95) and, per
protocol, the worst misses and extras (``--show`` of each).

The normal mode parses every document. ``--save DIR`` also writes each result to
``DIR/NAME.json``; ``--parsed DIR`` scores such results instead of parsing (engine
"parsed"), so a change to the section finder can be measured in seconds. The docling engine
runs only when a local models folder is configured (``DOCLING_ARTIFACTS_PATH``); otherwise
the table says why it did not run. ``--no-bookmarks`` parses a copy of each PDF without its
bookmarks: the tree then stands on the printed numbers (or their pictures) and the printed TOC.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from scoring.tree import score

from clinparser import PDFParser
from clinparser.errors import ModelsMissingError

ROOT = Path(__file__).resolve().parent.parent
TARGET, FLOOR = 0.98, 0.95


def _document(corpus: Path, name: str):
    return next((p for p in (corpus / f"{name}.pdf", corpus / f"{name}.docx") if p.exists()), None)


def _result(args, name: str, engine: str):
    """(result dict, seconds) or (None, why not)."""
    if args.parsed:
        path = args.parsed / f"{name}.json"
        if not path.exists():
            return None, f"not run: no {path.name} in {args.parsed}"
        return json.loads(path.read_text(encoding="utf-8")), 0.0
    doc = _document(args.corpus, name)
    if doc is None:
        return None, "not run: document missing"
    if args.no_bookmarks and doc.suffix == ".pdf":
        doc = _without_bookmarks(doc, args.no_bookmarks_dir)
    try:
        t0 = time.perf_counter()
        result = PDFParser(engine=engine).parse(doc, output_dir=None)
        seconds = time.perf_counter() - t0
    except ModelsMissingError as exc:
        return None, f"not run: {str(exc).split(':')[0]}"
    if args.save:
        args.save.mkdir(parents=True, exist_ok=True)
        (args.save / f"{name}.json").write_text(
            json.dumps(result, ensure_ascii=False, sort_keys=True), encoding="utf-8"
        )
    return result, seconds


def _without_bookmarks(pdf: Path, folder: Path) -> Path:
    """A copy of ``pdf`` with its bookmarks removed (same name, in ``folder``): the tree must
    then come from the printed numbers (or pictures of them) and the printed TOC alone."""
    import pymupdf

    out = folder / pdf.name
    with pymupdf.open(pdf) as doc:
        doc.set_toc([])
        doc.save(out, garbage=1)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    ap.add_argument("--engine", action="append", dest="engines")
    ap.add_argument("--only", action="append", help="score only these protocols (file stem)")
    ap.add_argument("--save", type=Path, help="also write each parse to DIR/NAME.json")
    ap.add_argument("--parsed", type=Path, help="score DIR/NAME.json results instead of parsing")
    ap.add_argument("--show", type=int, default=10, help="misses and extras listed per protocol")
    ap.add_argument(
        "--no-bookmarks",
        action="store_true",
        help="parse each PDF with its bookmarks removed (a copy in a temporary folder)",
    )
    args = ap.parse_args(argv)
    import tempfile

    folder = tempfile.TemporaryDirectory()
    args.no_bookmarks_dir = Path(folder.name)
    engines = ["parsed"] if args.parsed else (args.engines or ["pymupdf", "docling"])
    golds = sorted((args.corpus / "gold").glob("*.gold.json"))
    if args.only:
        golds = [g for g in golds if g.name.replace(".gold.json", "") in args.only]
    if not golds:
        print(f"no gold files under {args.corpus / 'gold'}", file=sys.stderr)
        return 1
    rows, details = [], []
    for gold_path in golds:
        name = gold_path.name.replace(".gold.json", "")
        gold = json.loads(gold_path.read_text(encoding="utf-8"))
        for engine in engines:
            result, seconds = _result(args, name, engine)
            if result is None:
                rows.append(f"| {name} | {engine} | {seconds} | | | | | |")
                continue
            s = score(result["toc"], gold)
            rows.append(
                f"| {name} | {engine} | {s.gold} | {s.found} | {s.recall:.3f} | {s.precision:.3f} | {s.f1:.3f} "
                f"| {seconds:.1f} |"
            )
            details.append((name, engine, s))
    print("| protocol | engine | gold | found | recall | precision | F1 | seconds |")
    print("|---|---|---|---|---|---|---|---|")
    print("\n".join(rows))
    for engine in engines:
        f1s = [s.f1 for _, e, s in details if e == engine]
        if f1s:
            print(
                f"\n{engine}: {len(f1s)} protocols, median F1 {statistics.median(f1s):.3f}, min {min(f1s):.3f}, "
                f"{sum(f >= TARGET for f in f1s)} at >= {TARGET}, {sum(f < FLOOR for f in f1s)} below {FLOOR}"
            )
    for name, engine, s in sorted(details, key=lambda d: d[2].f1):
        if not s.misses and not s.extras:
            continue
        print(f"\n{name} ({engine}) F1 {s.f1:.3f}: {len(s.misses)} missed, {len(s.extras)} extra")
        for number, title in s.misses[: args.show]:
            print(f"  missed  {number}  {title}")
        for number, title in s.extras[: args.show]:
            print(f"  extra   {number}  {title}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
