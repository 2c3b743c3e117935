"""Schedules of activities: what every corpus document's parse holds, and scores against USDM.

    python benchmarks/schedule.py [--corpus ../shared/corpus] [--usdm ../shared/usdm]
                                  [--parsed DIR | --save DIR] [--only NAME ...]

First table: for EVERY corpus document, the schedules its parse holds (``table["schedule"]``):
name, encounters x activities, group rows, marks, diagnostics; "none" when it has none.

Then, for each document with a published USDM file (``--usdm DIR/NAME.usdm.json``), the
measures of ``scoring.schedule``: activities, encounters and cells, precision / recall /
F1, under the rule ``shown`` (main timeline, plus the other reference objects one of our
schedules shows: an ET column, a PK time-point table) and the strict rule ``main`` (main
timeline only). The module docstring states every matching rule. Below the table, per document
under ``shown``: every unmatched item on both sides, every match other than an identical
label, and the reference points the rule leaves out; under ``main``, what of ours matches only
objects outside the main timeline.

``--parsed DIR`` reads saved parses ``DIR/NAME.json`` (what ``benchmarks/coverage.py --save
DIR`` and ``toc_accuracy.py --save DIR`` write) instead of parsing; otherwise each document is
parsed here (``--save DIR`` keeps the results).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from scoring.schedule import RULES, audit, match, schedules_of, score

ROOT = Path(__file__).resolve().parent.parent


def _documents(corpus: Path, only) -> list[Path]:
    docs = sorted(p for p in corpus.glob("*") if p.suffix in (".pdf", ".docx"))
    return [p for p in docs if not only or p.stem in only]


def _result(args, doc: Path):
    """(parse result, None) or (None, why not)."""
    if args.parsed:
        path = args.parsed / f"{doc.stem}.json"
        if not path.exists():
            return None, f"not run: no {path.name} in {args.parsed}"
        return json.loads(path.read_text(encoding="utf-8")), None
    from clinparser import PDFParser

    result = PDFParser().parse(doc, output_dir=None)
    if args.save:
        args.save.mkdir(parents=True, exist_ok=True)
        (args.save / f"{doc.stem}.json").write_text(json.dumps(result, ensure_ascii=False, sort_keys=True), encoding="utf-8")
    return result, None


def _cell(text) -> str:
    return " ".join(str(text).split()).replace("|", "/")


def schedule_rows(name: str, result) -> list[str]:
    """One row per schedule of the document (or one saying there is none)."""
    if result is None:
        return []
    rows = []
    for k, s in enumerate(schedules_of(result)):
        rows.append(
            f"| {name} | {k + 1} | {_cell(s.get('name', ''))[:70]} | {'yes' if s.get('main') else ''} "
            f"| {len(s.get('encounters', []))} x {len(s.get('activities', []))} | {len(s.get('groups', []))} "
            f"| {len(s.get('marks', []))} | {len(s.get('diagnostics', []))} |"
        )
    return rows or [f"| {name} | - | none | | | | | |"]


def _prf(m) -> str:
    return f"{m.precision:.3f} / {m.recall:.3f} / {m.f1:.3f}"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    ap.add_argument("--usdm", type=Path, default=ROOT.parent / "shared" / "usdm", help="folder of NAME.usdm.json references")
    ap.add_argument("--parsed", type=Path, help="read DIR/NAME.json parses instead of parsing")
    ap.add_argument("--save", type=Path, help="also write each parse to DIR/NAME.json")
    ap.add_argument("--only", action="append", help="only these documents (file stem)")
    args = ap.parse_args(argv)
    docs = _documents(args.corpus, args.only)
    if not docs:
        print(f"no documents under {args.corpus}" + (f" named {', '.join(args.only)}" if args.only else ""), file=sys.stderr)
        return 1
    print("| document | # | schedule | main | encounters x activities | groups | marks | diagnostics |")
    print("|---|---|---|---|---|---|---|---|")
    scored = []
    for doc in docs:
        result, why = _result(args, doc)
        if result is None:
            print(f"| {doc.stem} | - | {why} | | | | | |")
            continue
        print("\n".join(schedule_rows(doc.stem, result)), flush=True)
        ref_path = args.usdm / f"{doc.stem}.usdm.json"
        if ref_path.exists():
            try:
                usdm = json.loads(ref_path.read_text(encoding="utf-8"))
                scored.append((doc.stem, match(result, usdm)))
            except (ValueError, KeyError, IndexError, TypeError) as exc:
                print(f"{ref_path}: not a USDM study design this benchmark can read ({type(exc).__name__}: {exc})", file=sys.stderr)
    if not scored:
        print(f"\nnone of these documents has a USDM reference in {args.usdm}")
        return 0
    print("\n| document | rule | activities P / R / F1 | encounters P / R / F1 | cells P / R / F1 |")
    print("|---|---|---|---|---|")
    evaluations = {}
    for name, m in scored:
        for rule in RULES:
            e = evaluations[(name, rule)] = score(m, rule)
            print(f"| {name} | {rule} | {_prf(e.activities)} | {_prf(e.encounters)} | {_prf(e.cells)} |")
    for name, _ in scored:
        shown, strict = evaluations[(name, "shown")], evaluations[(name, "main")]
        print(f"\n## {name} (rule shown)")
        print("\n".join(audit(shown)))
        print(f"\n{name} under rule main: extras that match only objects outside the main timeline:")
        for kind in ("activities", "encounters", "cells"):
            extra = sorted(set(getattr(strict, kind).unmatched_ours) - set(getattr(shown, kind).unmatched_ours))
            print(f"  {kind}: {len(extra)}" + (": " + "; ".join(extra) if extra and kind != "cells" else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
