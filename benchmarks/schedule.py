"""Schedules of activities: what every corpus document's parse holds, scored against USDM and hand-made grids.

    python benchmarks/schedule.py [--corpus ../shared/corpus] [--usdm ../shared/usdm]
                                  [--soa ../shared/corpus/soa]
                                  [--parsed DIR | --outputs BATCH_DIR | --save DIR] [--reread]
                                  [--only NAME ...] [-v]

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

Last, for each document with a hand-made grid (``--soa DIR/NAME.soa.json``, format in that
folder's README), the schedules exported as USDM (``clinparser.export.usdm.to_usdm``, written to a
temporary ``usdm.json``) are scored by the shared scorer, run as it is
(``../shared/tools/soa_score.py usdm.json GRID [-v]``, never copied): activities, encounters and
activity x encounter cells F1 with the counts on both sides, the means and the lowest, against
issue 27's targets (mean F1 >= 0.95 for each, none below 0.85). ``-v`` prints the scorer's
unmatched lists for each document below that table.

``--parsed DIR`` reads saved parses ``DIR/NAME.json`` (what ``benchmarks/coverage.py --save
DIR`` and ``toc_accuracy.py --save DIR`` write) instead of parsing; ``--outputs BATCH_DIR`` reads
the ``document.json`` of a ``clinparser batch`` output folder, documents matched by the file name
of the manifest's ``source``; otherwise each document is parsed here (``--save DIR`` keeps the
results).

``--reread`` (with ``--parsed`` or ``--outputs``; for development) runs the schedule reading
(``clinparser.schedule.find.attach_schedules``) again on the saved tables, so a change to the
reader is measured in seconds without parsing. It is an approximation of a fresh parse: the
tables' ``part_rows`` (where a part from a later page starts) are not written, so the reader
goes without them, and nothing before the schedule stage is re-run.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from scoring.schedule import RULES, audit, match, schedules_of, score

ROOT = Path(__file__).resolve().parent.parent
SCORER = ROOT.parent / "shared" / "tools" / "soa_score.py"
# issue 27: mean F1 over the grids at least this for activities, encounters and cells ...
TARGET_MEAN = 0.95
# ... and no document below this
TARGET_FLOOR = 0.85


def _documents(corpus: Path, only) -> list[Path]:
    docs = sorted(p for p in corpus.glob("*") if p.suffix in (".pdf", ".docx"))
    return [p for p in docs if not only or p.stem in only]


def _manifest(outputs: Path) -> dict[str, dict]:
    """Source file name -> manifest record, for the documents the batch wrote (the last record
    of a name wins)."""
    lines = (outputs / "manifest.jsonl").read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in lines if line.strip()]
    return {Path(r["source"]).name: r for r in records if r.get("status") in ("ok", "skipped") and r.get("output")}


def _section(d: dict):
    from clinparser.model import Section, Table

    s = Section(number=d["number"], title=d["title"], level=d["level"], pages=d["pages"], text=d["text"])
    s.tables = [
        Table(
            title=t["title"],
            page=t["page"],
            pages=t["pages"],
            columns=t["columns"],
            data=t["data"],
            path=t.get("path"),
            from_ocr=t.get("from_ocr", False),
        )
        for t in d.get("tables", [])
    ]
    s.subsections = [_section(c) for c in d.get("subsections", [])]
    return s


def _walk(d: dict):
    yield d
    for c in d.get("subsections", []):
        yield from _walk(c)


def reread(result: dict) -> dict:
    """The result with its schedules read again from its saved tables (``--reread``): a copy in
    which every table's ``schedule`` is what ``attach_schedules`` now makes of it. The saved
    tables have no ``part_rows``, so this approximates a fresh parse."""
    from clinparser.content.assemble import Tree
    from clinparser.schedule.find import attach_schedules

    out = json.loads(json.dumps(result))
    tree = Tree(toc=[_section(x) for x in out.get("toc", [])], non_toc=[_section(x) for x in out.get("non_toc", [])])
    attach_schedules(tree)
    saved = [d for root in out.get("toc", []) + out.get("non_toc", []) for d in _walk(root)]
    built = [n for root in tree.toc + tree.non_toc for n in root.walk()]
    for d, node in zip(saved, built):
        for t, table in zip(d.get("tables", []), node.tables):
            t.pop("schedule", None)
            if table.schedule is not None:
                t["schedule"] = table.schedule
    return out


def _result(args, doc: Path):
    """(parse result, None) or (None, why not)."""
    if args.parsed or args.outputs:
        if args.parsed:
            path = args.parsed / f"{doc.stem}.json"
            if not path.exists():
                return None, f"not run: no {path.name} in {args.parsed}"
        else:
            record = args.manifest.get(doc.name)
            if record is None:
                return None, f"not run: {doc.name} not in {args.outputs / 'manifest.jsonl'}"
            path = args.outputs / record["output"] / "document.json"
            if not path.exists():
                return None, f"not run: no {path}"
        result = json.loads(path.read_text(encoding="utf-8"))
        return (reread(result) if args.reread else result), None
    from clinparser import PDFParser

    result = PDFParser().parse(doc, output_dir=None)
    if args.save:
        args.save.mkdir(parents=True, exist_ok=True)
        (args.save / f"{doc.stem}.json").write_text(
            json.dumps(result, ensure_ascii=False, sort_keys=True), encoding="utf-8"
        )
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


_SOA_LINE = re.compile(
    r"activities_f1=(?P<a>[\d.]+) encounters_f1=(?P<e>[\d.]+) cells_f1=(?P<c>[\d.]+) "
    r"\(gold (?P<ga>\d+) activities, (?P<ge>\d+) encounters, (?P<gc>\d+) cells; "
    r"ours (?P<oa>\d+), (?P<oe>\d+), (?P<oc>\d+)\)"
)


def soa_line(text: str) -> dict:
    """The scorer's summary line as figures: {"a", "e", "c": F1, "ga", "ge", "gc", "oa", "oe", "oc": counts}."""
    for line in text.splitlines():
        m = _SOA_LINE.search(line)
        if m:
            return {k: (float(v) if k in "aec" else int(v)) for k, v in m.groupdict().items()}
    raise ValueError(f"no soa_score.py summary line in {text.strip()[:200]!r}")


def soa_score(result: dict, grid: Path, work: Path, verbose: bool):
    """(figures, the scorer's other lines) for one document, scored by ``soa_score.py`` on its
    USDM export."""
    from clinparser.export.usdm import to_usdm

    ours = work / f"{grid.name[: -len('.soa.json')]}.usdm.json"
    ours.write_text(json.dumps(to_usdm(result), ensure_ascii=False), encoding="utf-8")
    command = [sys.executable, str(SCORER), str(ours), str(grid)] + (["-v"] if verbose else [])
    run = subprocess.run(command, capture_output=True, text=True, check=False)
    figures = soa_line(run.stdout + "\n" + run.stderr)
    return figures, [line for line in run.stdout.splitlines() if not _SOA_LINE.search(line)]


def _run_scorer(ours: Path, grid: Path) -> dict:
    run = subprocess.run(
        [sys.executable, str(SCORER), str(ours), str(grid)], capture_output=True, text=True, check=False
    )
    return soa_line(run.stdout + "\n" + run.stderr)


def _hits(f1: float, ours: int, gold: int) -> int:
    """True positives back from an F1 and the two counts (F1 = 2 TP / (ours + gold))."""
    return round(f1 * (ours + gold) / 2)


def per_timeline(result: dict, grid: Path, work: Path) -> dict:
    """The grid scored one timeline at a time: each of the grid's timelines against the schedule
    of ours it matches best (most cells, then encounters), the shared scorer run as it is on
    each pair, one schedule to one timeline; the counts summed over the pairs, our unpaired
    schedules counted as all wrong. This shows what the pooled score's matching of identical
    visit labels across timelines ("Day 1" in three tables) costs; it is not the target."""
    from clinparser.export.usdm_schedule import schedule_design

    gold = json.loads(grid.read_text(encoding="utf-8"))
    ours = [s for s in schedules_of(result) if s.get("encounters") and s.get("activities")]
    gold_files, our_files = [], []
    for t, timeline in enumerate(gold["timelines"]):
        gold_files.append(work / f"{grid.stem}.t{t}.soa.json")
        gold_files[-1].write_text(json.dumps({"timelines": [timeline]}), encoding="utf-8")
    for k, schedule in enumerate(ours):
        our_files.append(work / f"{grid.stem}.s{k}.usdm.json")
        our_files[-1].write_text(json.dumps(schedule_design([schedule]), ensure_ascii=False), encoding="utf-8")
    scores = {(t, k): _run_scorer(o, g) for t, g in enumerate(gold_files) for k, o in enumerate(our_files)}
    pairs, used = {}, set()
    for (t, k), f in sorted(scores.items(), key=lambda x: (-x[1]["c"], -x[1]["e"], x[0])):
        if t not in pairs and k not in used:
            pairs[t] = k
            used.add(k)
    totals = {}
    for key, n_ours, n_gold in (("a", "oa", "ga"), ("e", "oe", "ge"), ("c", "oc", "gc")):
        hits = sum(_hits(scores[(t, k)][key], scores[(t, k)][n_ours], scores[(t, k)][n_gold]) for t, k in pairs.items())
        ours_n = sum(scores[(0, k)][n_ours] for k in range(len(our_files))) if gold_files else 0
        gold_n = sum(scores[(t, 0)][n_gold] for t in range(len(gold_files))) if our_files else 0
        p_, r_ = (hits / ours_n if ours_n else 0.0), (hits / gold_n if gold_n else 0.0)
        totals[key] = 2 * p_ * r_ / (p_ + r_) if p_ + r_ else 0.0
    return totals


def soa_table(scored: list, failed: list) -> list[str]:
    """The Markdown table of the grid scores, with the means, the lowest and the targets."""
    out = [
        "| document | activities F1 | encounters F1 | cells F1 | ours: activities / encounters / cells "
        "| grid: activities / encounters / cells |",
        "|---|---|---|---|---|---|",
    ]
    for name, f in scored:
        out.append(
            f"| {name} | {f['a']:.3f} | {f['e']:.3f} | {f['c']:.3f} | {f['oa']} / {f['oe']} / {f['oc']} "
            f"| {f['ga']} / {f['ge']} / {f['gc']} |"
        )
    for name, why in failed:
        out.append(f"| {name} | {_cell(why)} | | | | |")
    if scored:
        means = {k: sum(f[k] for _, f in scored) / len(scored) for k in "aec"}
        lows = {k: min(scored, key=lambda x: x[1][k]) for k in "aec"}
        out.append(
            f"| **mean** ({len(scored)} documents) | {means['a']:.3f} | {means['e']:.3f} | {means['c']:.3f} | | |"
        )
        out.append("| **lowest** | " + " | ".join(f"{lows[k][1][k]:.3f} ({lows[k][0]})" for k in "aec") + " | | |")
        out.append(
            f"| **target** | mean ≥ {TARGET_MEAN}, none < {TARGET_FLOOR} | mean ≥ {TARGET_MEAN}, none < {TARGET_FLOOR} "
            f"| mean ≥ {TARGET_MEAN}, none < {TARGET_FLOOR} | | |"
        )
        met = {k: means[k] >= TARGET_MEAN and lows[k][1][k] >= TARGET_FLOOR for k in "aec"}
        out.append("| **met** | " + " | ".join("yes" if met[k] else "no" for k in "aec") + " | | |")
        if failed:
            out.append(f"\n{len(failed)} document(s) with a grid not scored: the figures above leave them out.")
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    ap.add_argument(
        "--usdm", type=Path, default=ROOT.parent / "shared" / "usdm", help="folder of NAME.usdm.json references"
    )
    ap.add_argument("--soa", type=Path, help="folder of hand-made NAME.soa.json grids (default: CORPUS/soa)")
    source = ap.add_mutually_exclusive_group()
    source.add_argument("--parsed", type=Path, help="read DIR/NAME.json parses instead of parsing")
    source.add_argument(
        "--outputs",
        type=Path,
        metavar="BATCH_DIR",
        help="read the document.json files of a `clinparser batch` output folder instead of parsing "
        "(documents matched by the file name of manifest.jsonl's source)",
    )
    source.add_argument("--save", type=Path, help="also write each parse to DIR/NAME.json")
    ap.add_argument(
        "--reread",
        action="store_true",
        help="with --parsed or --outputs, for development: read the schedules again from the saved tables "
        "with the current schedule reader. An approximation of a fresh parse: the tables' part_rows "
        "(where a later page's part starts) are not written, and no earlier stage is re-run",
    )
    ap.add_argument("-v", "--verbose", action="store_true", help="print soa_score.py's unmatched lists for each grid")
    ap.add_argument("--only", action="append", help="only these documents (file stem)")
    args = ap.parse_args(argv)
    if args.reread and not (args.parsed or args.outputs):
        ap.error("--reread needs --parsed DIR or --outputs BATCH_DIR (a fresh parse reads the schedules anyway)")
    args.soa = args.soa or args.corpus / "soa"
    args.manifest = _manifest(args.outputs) if args.outputs else {}
    docs = _documents(args.corpus, args.only)
    if not docs:
        print(
            f"no documents under {args.corpus}" + (f" named {', '.join(args.only)}" if args.only else ""),
            file=sys.stderr,
        )
        return 1
    print("| document | # | schedule | main | encounters x activities | groups | marks | diagnostics |")
    print("|---|---|---|---|---|---|---|---|")
    scored, grids, grid_failed, grid_details, timelines = [], [], [], [], []
    tmp = tempfile.TemporaryDirectory(prefix="clinparser-soa-")
    work = Path(tmp.name)
    for doc in docs:
        result, why = _result(args, doc)
        grid = args.soa / f"{doc.stem}.soa.json"
        if result is None:
            print(f"| {doc.stem} | - | {why} | | | | | |")
            if grid.is_file():
                grid_failed.append((doc.stem, why))
            continue
        print("\n".join(schedule_rows(doc.stem, result)), flush=True)
        if grid.is_file():
            try:
                figures, lines = soa_score(result, grid, work, args.verbose)
                grids.append((doc.stem, figures))
                grid_details.append((doc.stem, lines))
                timelines.append((doc.stem, per_timeline(result, grid, work)))
            except ValueError as exc:
                grid_failed.append((doc.stem, f"scorer failed: {exc}"))
        ref_path = args.usdm / f"{doc.stem}.usdm.json"
        if ref_path.exists():
            try:
                usdm = json.loads(ref_path.read_text(encoding="utf-8"))
                scored.append((doc.stem, match(result, usdm)))
            except (ValueError, KeyError, IndexError, TypeError) as exc:
                print(
                    f"{ref_path}: not a USDM study design this benchmark can read ({type(exc).__name__}: {exc})",
                    file=sys.stderr,
                )
    tmp.cleanup()
    if scored:
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
    else:
        print(f"\nnone of these documents has a USDM reference in {args.usdm}")
    if grids or grid_failed:
        how = (
            "parsed here"
            if not (args.parsed or args.outputs)
            else f"read from {args.parsed or args.outputs}" + (", schedules re-read (--reread)" if args.reread else "")
        )
        print(f"\n## Against the hand-made grids ({args.soa}; {how}; scored by {SCORER})\n")
        print("\n".join(soa_table(grids, grid_failed)))
        print(
            "\nThe same grids scored one timeline at a time (each grid timeline against the schedule of ours that "
            "matches it best, the shared scorer run on each pair; not the target, see per_timeline):\n"
        )
        print("| document | activities F1 | encounters F1 | cells F1 |\n|---|---|---|---|")
        for name, f in timelines:
            print(f"| {name} | {f['a']:.3f} | {f['e']:.3f} | {f['c']:.3f} |")
        if timelines:
            print(
                "| **mean** | "
                + " | ".join(f"{sum(f[k] for _, f in timelines) / len(timelines):.3f}" for k in "aec")
                + " |"
            )
        if args.verbose:
            for name, lines in grid_details:
                print(f"\n### {name} (grid): soa_score.py -v")
                print("\n".join(lines))
    else:
        print(f"\nnone of these documents has a grid in {args.soa}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
