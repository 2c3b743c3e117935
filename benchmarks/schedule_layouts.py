"""Schedules of activities on generated layouts: the schedule reader measured on hundreds of them.

    python benchmarks/schedule_layouts.py [--count 200] [--first-seed 0] [--jobs 1]
                                          [--keep DIR] [-v]

For each seed, ``examples/schedule_layouts.py`` writes a small synthetic protocol printing one
main schedule of activities (and sometimes a side PK sampling table) in one random variation of
the layouts real protocols use, with its exact truth in the reference-grid format of
``../shared/corpus/soa`` (see that generator's docstring for the variations). The PDF is parsed
(``PDFParser(workers=1).parse(..., save_images=False, save_table_csv=False,
save_report=False)``), exported by ``clinparser.export.usdm.to_usdm`` to a temporary
``usdm.json``, the truth written to a temporary ``layout_NNNN.soa.json``, and the two scored by
the project's judging scorer, run as it is (``../shared/tools/soa_score.py usdm.json grid.json``,
never copied); its summary line is read by ``benchmarks/schedule.py``'s ``soa_line``:
activities, encounters and activity x encounter cells F1.

Printed (Markdown): the overall means and seconds per layout; one row per variation (the
truth's ``forms``): how many layouts have it and their mean activities / encounters / cells
F1, and how many of them score cells below 0.98; then every seed scoring cells below 0.98 (or
failing) with its figures and variations, lowest first; and how many side-table columns the
reader links to the main visit the truth places them at (``main_encounters``). Progress goes to
stderr, a line per layout.

``--jobs N`` runs N worker processes (each parses with one worker of its own; the machine has 2
cores). ``--keep DIR`` keeps each layout's PDF, truth, ``document.json`` and ``usdm.json`` under
``DIR/layout_NNNN/``. ``-v`` prints the scorer's unmatched lists (``soa_score.py -v``) for each
seed below 0.98.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT / "benchmarks") not in sys.path:
    sys.path.insert(0, str(ROOT / "benchmarks"))  # benchmarks/schedule.py imports scoring.*

from loading import load_module  # noqa: E402

THRESHOLD = 0.98


soa_benchmark = load_module("schedule_benchmark", ROOT / "benchmarks" / "schedule.py")
generator = load_module("schedule_layouts", ROOT / "examples" / "schedule_layouts.py")
SCORER = soa_benchmark.SCORER
soa_line = soa_benchmark.soa_line

_PARSER = None


def _parser():
    global _PARSER
    if _PARSER is None:
        from clinparser import PDFParser

        _PARSER = PDFParser(workers=1)
    return _PARSER


def score(usdm: Path, grid: Path, verbose: bool = False) -> tuple[dict, list[str]]:
    """The scorer's figures ({"a", "e", "c": F1, "ga", "ge", "gc", "oa", "oe", "oc"}) and its
    other lines (the unmatched lists with ``verbose``)."""
    command = [sys.executable, str(SCORER), str(usdm), str(grid)] + (["-v"] if verbose else [])
    run = subprocess.run(command, capture_output=True, text=True, check=False)
    lines = [line for line in run.stdout.splitlines() if line.strip()]
    return soa_line(run.stdout + "\n" + run.stderr), lines[1:]


def measure(seed: int, work: Path, verbose: bool = False) -> dict:
    """Generate, parse, export and score layout `seed` in folder `work` (created). Returns
    {"seed", "forms", "figures" (or None), "error", "seconds", "parse_seconds", "lines",
    "output" (the parse's output folder), "truth"}."""
    from clinparser.export.usdm import to_usdm

    work.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    name = f"layout_{seed:04d}"
    pdf = work / f"{name}.pdf"
    out = {
        "seed": seed,
        "forms": [],
        "figures": None,
        "error": "",
        "lines": [],
        "output": None,
        "parse_seconds": 0.0,
        "truth": None,
        "links": (0, 0),
    }
    try:
        truth = generator.build_layout(seed, pdf)
        out["forms"], out["truth"] = truth["forms"], truth
        grid = work / f"{name}.soa.json"
        grid.write_text(json.dumps(truth, ensure_ascii=False), encoding="utf-8")
        parser = _parser()
        t0 = time.perf_counter()
        result = parser.parse(pdf, output_dir=work / "out", save_images=False, save_table_csv=False, save_report=False)
        out["parse_seconds"] = time.perf_counter() - t0
        out["output"] = str(parser.last_output) if parser.last_output else None
        usdm = work / f"{name}.usdm.json"
        usdm.write_text(json.dumps(to_usdm(result), ensure_ascii=False), encoding="utf-8")
        out["figures"], out["lines"] = score(usdm, grid, verbose)
        out["links"] = side_links(result, truth)
    except Exception as exc:  # a layout that breaks the parser is a finding, not a stop
        out["error"] = f"{type(exc).__name__}: {exc}"
    out["seconds"] = time.perf_counter() - start
    return out


def _schedules_in(node) -> list[dict]:
    """Every table's ``schedule`` in a parse result, in document order."""
    if isinstance(node, list):
        return [s for item in node for s in _schedules_in(item)]
    if not isinstance(node, dict):
        return []
    own = [node["schedule"]] if isinstance(node.get("schedule"), dict) else []
    return own + [s for key in sorted(k for k in node if k != "schedule") for s in _schedules_in(node[key])]


def side_links(result: dict, truth: dict) -> tuple[int, int]:
    """(side-table columns whose ``main_encounter`` is the truth's main visit, columns the truth
    places at a main visit), side tables paired with the truth's by caption and columns by
    order; a side table read with another number of columns counts none right."""
    ours = {" ".join((s.get("name") or "").split()): s for s in _schedules_in(result) if not s.get("main")}
    right = known = 0
    for timeline in truth["timelines"]:
        want = timeline.get("main_encounters")
        if not want:
            continue
        known += sum(w is not None for w in want)
        have = [
            e.get("main_encounter") for e in (ours.get(" ".join(timeline["name"].split())) or {}).get("encounters", [])
        ]
        if len(have) == len(want):
            right += sum(w is not None and w == h for w, h in zip(want, have))
    return right, known


def _job(task: tuple[int, str, str | None, bool]) -> dict:
    seed, tmp, keep, verbose = task
    work = Path(keep or tmp) / f"layout_{seed:04d}"
    try:
        row = measure(seed, work, verbose)
    finally:
        if not keep:
            shutil.rmtree(work, ignore_errors=True)
    row.pop("truth", None)
    return row


def _f(x: float) -> str:
    return f"{x:.3f}"


def report(rows: list[dict], wall: float, jobs: int) -> list[str]:
    scored = [r for r in rows if r["figures"]]
    failed = [r for r in rows if not r["figures"]]
    out = []
    n = len(rows)
    per = wall / n if n else 0.0
    cpu = sum(r["seconds"] for r in rows) / n if n else 0.0
    parse = sum(r["parse_seconds"] for r in rows) / n if n else 0.0
    out.append(
        f"## Schedule layouts: seeds {rows[0]['seed']}..{rows[-1]['seed']} ({n} layouts, {jobs} job(s))\n"
        if rows
        else "## Schedule layouts: none\n"
    )
    out.append(
        "| layouts | scored | activities F1 | encounters F1 | cells F1 | cells < 0.98 | "
        "seconds per layout (wall) | per layout in its process (parse) |"
    )
    out.append("|---|---|---|---|---|---|---|---|")
    if scored:
        means = {k: sum(r["figures"][k] for r in scored) / len(scored) for k in "aec"}
        low = sum(r["figures"]["c"] < THRESHOLD for r in scored) + len(failed)
        out.append(
            f"| {n} | {len(scored)} | {_f(means['a'])} | {_f(means['e'])} | {_f(means['c'])} | {low} "
            f"| {per:.2f} | {cpu:.2f} ({parse:.2f}) |"
        )
    else:
        out.append(f"| {n} | 0 | | | | {len(failed)} | {per:.2f} | {cpu:.2f} ({parse:.2f}) |")
    right, known = (sum(r.get("links", (0, 0))[i] for r in rows) for i in (0, 1))
    if known:
        out.append(
            f"\nSide-table columns linked to the main visit they sample at (``main_encounter``): "
            f"{right} of {known} ({right / known:.3f})"
        )
    out.append("\nMeans over the layouts that have each variation (a failed layout counts 0):\n")
    out.append("| variation | layouts | activities F1 | encounters F1 | cells F1 | cells < 0.98 |")
    out.append("|---|---|---|---|---|---|")
    for form in generator.FORMS:
        have = [r for r in rows if form in r["forms"]]
        if not have:
            out.append(f"| {form} | 0 | | | | |")
            continue
        fig = [r["figures"] or {"a": 0.0, "e": 0.0, "c": 0.0} for r in have]
        means = {k: sum(f[k] for f in fig) / len(fig) for k in "aec"}
        low = sum(f["c"] < THRESHOLD for f in fig)
        out.append(f"| {form} | {len(have)} | {_f(means['a'])} | {_f(means['e'])} | {_f(means['c'])} | {low} |")
    bad = sorted(
        (r for r in rows if not r["figures"] or r["figures"]["c"] < THRESHOLD),
        key=lambda r: (r["figures"]["c"] if r["figures"] else -1, r["seed"]),
    )
    out.append(f"\nSeeds scoring cells < {THRESHOLD} ({len(bad)}):\n")
    if bad:
        out.append(
            "| seed | activities F1 | encounters F1 | cells F1 | ours: activities / encounters / cells "
            "| truth: activities / encounters / cells | variations |"
        )
        out.append("|---|---|---|---|---|---|---|")
        for r in bad:
            f = r["figures"]
            forms = ", ".join(x for x in r["forms"] if not x.endswith((".none", ".portrait")))
            if f:
                out.append(
                    f"| {r['seed']} | {_f(f['a'])} | {_f(f['e'])} | {_f(f['c'])} | {f['oa']} / {f['oe']} / {f['oc']} "
                    f"| {f['ga']} / {f['ge']} / {f['gc']} | {forms} |"
                )
            else:
                out.append(f"| {r['seed']} | failed: {r['error'][:120]} | | | | | {forms} |")
        for r in bad:
            if r["lines"]:
                out.append(f"\n### seed {r['seed']}: soa_score.py -v\n")
                out += r["lines"]
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=200, help="how many layouts (default 200)")
    ap.add_argument("--first-seed", type=int, default=0, help="first seed (default 0)")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    ap.add_argument("--keep", type=Path, help="keep each layout's files under DIR/layout_NNNN/")
    ap.add_argument("-v", "--verbose", action="store_true", help="the scorer's unmatched lists for seeds below 0.98")
    args = ap.parse_args(argv)
    if not SCORER.is_file():
        print(f"scorer missing: {SCORER} (../shared/tools)", file=sys.stderr)
        return 1
    seeds = list(range(args.first_seed, args.first_seed + args.count))
    tmp = tempfile.TemporaryDirectory(prefix="clinparser-soa-layouts-")
    tasks = [(s, tmp.name, str(args.keep) if args.keep else None, args.verbose) for s in seeds]
    start = time.perf_counter()
    rows = []

    def progress(row: dict) -> None:
        rows.append(row)
        f = row["figures"]
        what = (
            f"activities {_f(f['a'])} encounters {_f(f['e'])} cells {_f(f['c'])}"
            if f
            else f"FAILED {row['error'][:160]}"
        )
        print(
            f"[{len(rows)}/{len(seeds)}] seed {row['seed']}: {what} ({row['seconds']:.1f} s)",
            file=sys.stderr,
            flush=True,
        )

    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs) as pool:
            for row in pool.imap_unordered(_job, tasks):
                progress(row)
    else:
        for task in tasks:
            progress(_job(task))
    wall = time.perf_counter() - start
    tmp.cleanup()
    rows.sort(key=lambda r: r["seed"])
    print("\n".join(report(rows, wall, args.jobs)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
