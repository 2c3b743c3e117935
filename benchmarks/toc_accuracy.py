"""Section-tree accuracy on the gold protocols: recall, precision and F1 per protocol and engine.

    python benchmarks/toc_accuracy.py [--corpus ../shared/corpus] [--engine pymupdf --engine docling]

A section counts when number and title both match a gold entry after the normalization the
corpus README describes (``clinparser.evaluate``). Misses and extras are listed below the
table. The docling engine runs only when a local models folder is configured
(``DOCLING_ARTIFACTS_PATH``); otherwise the table says why it did not run.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from clinparser import PDFParser
from clinparser.errors import ModelsMissingError
from clinparser.evaluate import score

ROOT = Path(__file__).resolve().parent.parent


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    ap.add_argument("--engine", action="append", dest="engines")
    args = ap.parse_args(argv)
    engines = args.engines or ["pymupdf", "docling"]
    golds = sorted((args.corpus / "gold").glob("*.gold.json"))
    if not golds:
        print(f"no gold files under {args.corpus / 'gold'}", file=sys.stderr)
        return 1
    rows, details = [], []
    for gold_path in golds:
        name = gold_path.name.replace(".gold.json", "")
        doc = next((p for p in (args.corpus / f"{name}.pdf", args.corpus / f"{name}.docx") if p.exists()), None)
        gold = json.loads(gold_path.read_text(encoding="utf-8"))
        for engine in engines:
            try:
                t0 = time.perf_counter()
                result = PDFParser(engine=engine).parse(doc, output_dir=None)
                seconds = time.perf_counter() - t0
            except ModelsMissingError as exc:
                rows.append(f"| {name} | {engine} | not run: {str(exc).split(':')[0]} | | | | |")
                continue
            s = score(result["toc"], gold)
            rows.append(f"| {name} | {engine} | {s.gold} | {s.found} | {s.recall:.3f} | {s.precision:.3f} | {s.f1:.3f} | {seconds:.1f} |")
            details.append((name, engine, s))
    print("| protocol | engine | gold | found | recall | precision | F1 | seconds |")
    print("|---|---|---|---|---|---|---|---|")
    print("\n".join(rows))
    for name, engine, s in details:
        print(f"\n{name} ({engine}): {len(s.misses)} missed, {len(s.extras)} extra")
        for number, title in s.misses:
            print(f"  missed  {number}  {title}")
        for number, title in s.extras:
            print(f"  extra   {number}  {title}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
