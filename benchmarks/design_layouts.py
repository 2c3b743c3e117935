"""Study design read from many generated layouts, scored per family of variation.

    python benchmarks/design_layouts.py [--count 100] [--first-seed 0] [--jobs 1] [--keep DIR] [-v]

``examples/design_layouts.py`` turns a seed into a small synthetic protocol with a known design
(single group, parallel, crossover, dose escalation or factorial; arms, epochs, interventions,
population, allocation, model, masking, ratio, indication and amendments), printed in one random
variation of each family of forms real protocols use (title, amendment history, synopsis,
design prose, schema picture, intervention section, age and sex criterion), and returns its
exact truth in the flat format of ``../shared/corpus/design/README.md``. For each seed the layout
is written to a temporary folder, parsed (``PDFParser(workers=1).parse(pdf, output_dir=...,
save_images=False, save_table_csv=False, save_report=False)``), exported by
``clinparser.export.usdm.to_usdm`` (the design is ``study.versions[0].studyDesigns[0]``) to a
``usdm.json``, and scored against the truth by the project's judging scorer, run as it is
(``../shared/tools/design_score.py usdm.json truth.json``, never copied): arms, epochs and
interventions F1, the interventions' attributes, population, design, indication, amendments F1
and their mean. The randomization ratio, which that scorer does not score, is compared with
the truth's here, and so are the ages as read (the export's 100-year maximum for a protocol
without one hides them from the scorer) and the dates of the amendments found (it scores their
numbers).

Printed (Markdown): the overall means; a table per family of variation (one row per variation
among the layouts run: how many layouts have it and their mean per part); the seeds whose mean
is below 0.98 (or that failed), lowest first, with their parts and variations; how many of the
layouts printing a ratio had it read right, and the seeds where not; seconds per layout.
Progress goes to stderr, a line per layout. ``--jobs N`` runs N worker processes (each
parses with one worker of its own). ``--keep DIR`` keeps each layout's PDF, truth, parse output
and ``usdm.json`` under ``DIR/design_NNNN/``; ``-v`` prints the scorer's lists of what differs
(``design_score.py -v``) for the seeds below 0.98.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT / "benchmarks") not in sys.path:
    sys.path.insert(0, str(ROOT / "benchmarks"))

from loading import load_module  # noqa: E402

SCORER = ROOT.parent / "shared" / "tools" / "design_score.py"
THRESHOLD = 0.98
PARTS = ("arms", "epochs", "interventions", "attributes", "population", "design", "indication", "amendments", "mean")
_F1 = r"[\d.]+/[\d.]+/([\d.]+)"
_LINE = re.compile(
    rf"arms P/R/F1 {_F1} epochs P/R/F1 {_F1} interventions P/R/F1 {_F1} attrs ([\d.]+) "
    rf"population ([\d.]+) design ([\d.]+) indication ([\d.]+) amendments P/R/F1 {_F1} "
    rf"mean ([\d.]+)"
)

generator = load_module("design_layouts", ROOT / "examples" / "design_layouts.py")

_PARSER = None


def _parser():
    global _PARSER
    if _PARSER is None:
        from clinparser import PDFParser

        _PARSER = PDFParser(workers=1)
    return _PARSER


def design_line(text: str) -> dict | None:
    """The scorer's summary line as {part: score} (PARTS), or None when there is none."""
    m = _LINE.search(text)
    return {part: float(v) for part, v in zip(PARTS, m.groups())} if m else None


def score(usdm: Path, truth: Path, verbose: bool = False) -> tuple[dict | None, list[str]]:
    command = [sys.executable, str(SCORER), str(usdm), str(truth)] + (["-v"] if verbose else [])
    run = subprocess.run(command, capture_output=True, text=True, check=False)
    lines = [line for line in run.stdout.splitlines() if line.strip()]
    return design_line(run.stdout), [line for line in lines if not line.startswith("design arms")] + (
        [run.stderr.strip()[-300:]] if run.returncode else []
    )


def measure(seed: int, work: Path, verbose: bool = False) -> dict:
    """Generate, parse, export and score layout `seed` in folder `work` (created). Returns
    {"seed", "forms", "scores" (or None), "error", "seconds", "parse_seconds", "lines"}."""
    from clinparser.export.usdm import to_usdm

    work.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    name = f"design_{seed:04d}"
    pdf = work / f"{name}.pdf"
    out = {"seed": seed, "forms": [], "scores": None, "error": "", "lines": [], "parse_seconds": 0.0}
    out.update(ratio=None, amendment_dates=[], ages=None)
    try:
        truth = generator.build_layout(seed, pdf)
        out["forms"] = truth["forms"]
        gold = work / f"{name}.design.json"
        gold.write_text(json.dumps(truth, indent=1, ensure_ascii=False), encoding="utf-8")
        t0 = time.perf_counter()
        result = _parser().parse(
            pdf, output_dir=work / "out", save_images=False, save_table_csv=False, save_report=False
        )
        out["parse_seconds"] = time.perf_counter() - t0
        usdm = work / f"{name}.usdm.json"
        usdm.write_text(json.dumps(to_usdm(result), ensure_ascii=False), encoding="utf-8")
        out["scores"], out["lines"] = score(usdm, gold, verbose)
        design = (result.get("study") or {}).get("design") or {}
        out["ratio"] = (truth["design"].get("ratio"), (design.get("ratio") or {}).get("value"))
        out["amendment_dates"] = amendment_dates(truth.get("amendments") or [], design.get("amendments") or [])
        age = (design.get("population") or {}).get("age") or {}
        pop = truth.get("population") or {}
        out["ages"] = ((pop.get("min_age"), pop.get("max_age")), (age.get("min"), age.get("max")))
        if out["scores"] is None:
            out["error"] = "design_score.py gave no summary line: " + " ".join(out["lines"])[-200:]
    except Exception as exc:  # a layout that breaks the parser is a finding, not a stop
        out["error"] = f"{type(exc).__name__}: {exc}"
    out["seconds"] = time.perf_counter() - start
    return out


def _job(task: tuple[int, str, str | None, bool]) -> dict:
    seed, tmp, keep, verbose = task
    work = Path(keep or tmp) / f"design_{seed:04d}"
    try:
        return measure(seed, work, verbose)
    finally:
        if not keep:
            shutil.rmtree(work, ignore_errors=True)


ZERO = {part: 0.0 for part in PARTS}


def _scores(r: dict) -> dict:
    return r["scores"] or ZERO  # a failed layout counts 0


def _means(rows: list[dict]) -> list[str]:
    return [f"{statistics.fmean(_scores(r)[p] for r in rows):.3f}" for p in PARTS]


HEAD = "| variation | layouts | " + " | ".join(PARTS) + " | below 0.98 |"
RULE = "|---|---|" + "---|" * len(PARTS) + "---|"


def report(rows: list[dict], wall: float, jobs: int) -> list[str]:
    n = len(rows)
    if not n:
        return ["## Design layouts: none"]
    low = [r for r in rows if _scores(r)["mean"] < THRESHOLD]
    out = [
        f"## Design layouts: seeds {rows[0]['seed']}..{rows[-1]['seed']} ({n} layouts, {jobs} job(s))\n",
        HEAD,
        RULE,
        f"| **all layouts** | {n} | " + " | ".join(_means(rows)) + f" | {len(low)} |",
        "",
    ]
    for family, prefix in generator.FAMILIES.items():
        out += [f"### {family}\n", HEAD, RULE]
        for form in (f for f in generator.FORMS if f.startswith(prefix)):
            have = [r for r in rows if form in r["forms"]]
            if have:
                below = sum(_scores(r)["mean"] < THRESHOLD for r in have)
                out.append(f"| {form} | {len(have)} | " + " | ".join(_means(have)) + f" | {below} |")
            else:
                out.append(f"| {form} | 0 |" + " |" * (len(PARTS) + 1))
        out.append("")
    out += [f"### Seeds with a mean below {THRESHOLD} ({len(low)})\n"]
    if low:
        out += ["| seed | " + " | ".join(PARTS) + " | variations |", "|---|" + "---|" * (len(PARTS) + 1)]
        for r in sorted(low, key=lambda r: (_scores(r)["mean"], r["seed"])):
            kinds = ", ".join(
                f
                for f in r["forms"]
                if f.startswith(
                    (
                        "design.kind",
                        "synopsis.t",
                        "synopsis.i",
                        "synopsis.l",
                        "schema.",
                        "interv.t",
                        "interv.p",
                        "amend.",
                    )
                )
            )
            if r["scores"]:
                out.append(f"| {r['seed']} | " + " | ".join(f"{r['scores'][p]:.2f}" for p in PARTS) + f" | {kinds} |")
            else:
                out.append(f"| {r['seed']} | failed: {r['error'][:150]} |" + " |" * (len(PARTS) - 1) + f" {kinds} |")
        for r in low:
            if r["lines"]:
                out += [f"\n#### seed {r['seed']}: design_score.py -v\n", "```"] + r["lines"] + ["```"]
    out += ratio_lines(rows) + age_lines(rows) + amendment_date_lines(rows)
    parse = statistics.fmean(r["parse_seconds"] for r in rows)
    each = statistics.fmean(r["seconds"] for r in rows)
    out.append(f"\nSeconds per layout: {wall / n:.2f} wall; {each:.2f} in its process (parse {parse:.2f}).")
    return out


def _amendment_key(number: object) -> str:
    """ "02", "2", "2.0" and "Version 2.0" are one number."""
    m = re.search(r"\d+(?:\.\d+)*", str(number or ""))
    return (re.sub(r"(?:\.0+)+$", "", m.group(0)).lstrip("0") or "0") if m else str(number or "").strip().lower()


def amendment_dates(truth: list[dict], read: list[dict]) -> list[tuple[str, str | None, str | None]]:
    """(number, truth date, date read) of each true amendment the reader found."""
    dates = {_amendment_key(a.get("number")): a.get("date") for a in read}
    return [
        (str(a["number"]), a.get("date"), dates[_amendment_key(a["number"])])
        for a in truth
        if _amendment_key(a["number"]) in dates
    ]


def amendment_date_lines(rows: list[dict]) -> list[str]:
    """The dates of the amendments found (design_score.py scores their numbers only): right,
    not read (null: a numeric date whose order the document does not show is no date), wrong."""
    found = [(r["seed"], *x) for r in rows for x in r.get("amendment_dates") or [] if x[1]]
    wrong = [x for x in found if x[3] and x[3] != x[2]]
    null = sum(x[3] is None for x in found)
    out = [
        f"\nAmendment dates (design_score.py scores the numbers only): right on "
        f"{len(found) - len(wrong) - null} of {len(found)} found, {null} not read, {len(wrong)} wrong"
    ]
    out += [f"- seed {s}: amendment {n} read {got!r}, printed {want!r}" for s, n, want, got in wrong]
    return out


def age_lines(rows: list[dict]) -> list[str]:
    """The ages as read (document.json), against the truth's: the USDM export gives a protocol
    without an upper age 100 years (the published files' convention), which the truth's null
    counts wrong whatever the reader did, so the scored population cannot show the ages."""
    have = [r for r in rows if r.get("ages")]
    wrong = [r for r in have if tuple(r["ages"][1]) != tuple(r["ages"][0])]
    out = [f"\nAges as read (minimum, maximum): right on {len(have) - len(wrong)} of {len(have)}"]
    out += [f"- seed {r['seed']}: read {tuple(r['ages'][1])}, printed {tuple(r['ages'][0])}" for r in wrong]
    return out


def ratio_lines(rows: list[dict]) -> list[str]:
    """The randomization ratio read against the truth's (design_score.py does not score it):
    right on how many of the layouts that print one, and the seeds where it is not."""
    printed = [r for r in rows if r.get("ratio") and r["ratio"][0]]
    wrong = [r for r in printed if r["ratio"][1] != r["ratio"][0]]
    out = [
        f"\nRandomization ratio (not scored by design_score.py): right on {len(printed) - len(wrong)} of {len(printed)}"
    ]
    out += [f"- seed {r['seed']}: read {r['ratio'][1]!r}, printed {r['ratio'][0]!r}" for r in wrong]
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=100, help="how many layouts (default 100)")
    ap.add_argument("--first-seed", type=int, default=0, help="first seed (default 0)")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    ap.add_argument("--keep", type=Path, help="keep each layout's files under DIR/design_NNNN/")
    ap.add_argument(
        "-v", "--verbose", action="store_true", help="the scorer's lists of what differs, for the seeds below 0.98"
    )
    args = ap.parse_args(argv)
    if not SCORER.is_file():
        print(f"scorer missing: {SCORER} (../shared/tools)", file=sys.stderr)
        return 1
    seeds = list(range(args.first_seed, args.first_seed + args.count))
    tmp = tempfile.TemporaryDirectory(prefix="clinparser-design-layouts-")
    tasks = [(s, tmp.name, str(args.keep) if args.keep else None, args.verbose) for s in seeds]
    start = time.perf_counter()
    rows: list[dict] = []

    def progress(row: dict) -> None:
        rows.append(row)
        s = row["scores"]
        what = " ".join(f"{p[:5]} {s[p]:.2f}" for p in PARTS) if s else f"FAILED {row['error'][:160]}"
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
