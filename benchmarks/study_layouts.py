"""Study definition read from many generated layouts, scored per family of variation.

    python benchmarks/study_layouts.py [--count 200] [--first-seed 0] [--keep DIR] [-v]

``examples/study_layouts.py`` turns a seed into a small synthetic protocol whose objectives,
endpoints and eligibility criteria are printed in one randomly chosen variation of each family
of forms real protocols use (objectives tables, headed lists, lead-in lists, endpoints printed
apart, an unlevelled single objective, criteria layouts), and knows their exact truth. For each
seed the layout is written to a temporary folder, parsed with
``PDFParser(workers=1).parse(pdf, output_dir=..., save_images=False, save_table_csv=False,
save_report=False)``, and the result's ``study`` block is written as the flat study file the
project's scorer accepts (``{"eligibility": [...], "objectives": [...]}``), next to the truth in
the same shape. The scorer, ``../shared/tools/study_score.py OURS GOLD``, is run as it is (never
copied); its last line gives eligibility, objectives and endpoints F1.

Besides F1, a layout part is *exact* when the reader's items equal the truth's, in order:
criteria (category, text); objectives (level, text); endpoints (level, text, under the right
objective). Printed: a Markdown table per family (one row per variation of that family among
the layouts run: how many layouts use it, mean F1 of the three parts, exact rates), the overall
means, the seeds that are not exact (with the parts that differ), and seconds per layout
(generation, parse, scoring). Progress goes to stderr, a line per layout. ``-v`` prints the
scorer's unmatched lists for the layouts that are not exact; ``--keep DIR`` keeps every PDF,
truth, flat study and parse result there.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCORER = ROOT.parent / "shared" / "tools" / "study_score.py"
PARTS = ("eligibility", "objectives", "endpoints")
_PRF = re.compile(r"(eligibility|objectives|endpoints) P/R/F1 ([\d.]+)/([\d.]+)/([\d.]+) \((\d+) vs (\d+)\)")


def load_generator():
    if str(ROOT / "benchmarks") not in sys.path:
        sys.path.insert(0, str(ROOT / "benchmarks"))
    from loading import load_module

    return load_module("study_layouts", ROOT / "examples" / "study_layouts.py")


def flat(study: dict) -> dict:
    """A study block as the scorer's flat file: criteria and objectives with endpoints."""
    return {
        "eligibility": [
            {"category": c.get("category"), "identifier": c.get("identifier"), "text": c.get("text") or ""}
            for c in study.get("eligibility") or []
        ],
        "objectives": [
            {
                "level": o.get("level"),
                "text": o.get("text") or "",
                "endpoints": [{"level": e.get("level"), "text": e.get("text") or ""} for e in o.get("endpoints") or []],
            }
            for o in study.get("objectives") or []
        ],
    }


def exact(ours: dict, truth: dict) -> dict[str, bool]:
    """Each part equal to the truth, in order (see module doc)."""

    def crit(d):
        return [(c["category"], c["text"]) for c in d["eligibility"]]

    def objs(d):
        return [(o["level"], o["text"]) for o in d["objectives"]]

    def ends(d):
        return [[(e["level"], e["text"]) for e in o["endpoints"]] for o in d["objectives"]]

    return {
        "eligibility": crit(ours) == crit(truth),
        "objectives": objs(ours) == objs(truth),
        "endpoints": objs(ours) == objs(truth) and ends(ours) == ends(truth),
    }


def score(ours_path: Path, gold_path: Path, verbose: bool) -> tuple[dict, list[str]]:
    command = [sys.executable, str(SCORER), str(ours_path), str(gold_path)] + (["-v"] if verbose else [])
    run = subprocess.run(command, capture_output=True, text=True, check=False)
    lines = run.stdout.strip().splitlines()
    found = {m[1]: float(m[4]) for m in _PRF.finditer(lines[-1] if lines else "")}
    if set(found) != set(PARTS):
        raise RuntimeError(f"study_score.py gave no summary line: {run.stdout[-300:]} {run.stderr[-300:]}")
    return found, lines[:-1]


def mean(values) -> float:
    values = list(values)
    return statistics.fmean(values) if values else float("nan")


def table(rows: list[dict], key_rows: list[tuple[str, list[dict]]]) -> list[str]:
    out = [
        "| variation | layouts | eligibility F1 | objectives F1 | endpoints F1 "
        "| exact eligibility | exact objectives | exact endpoints | exact all |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for name, mine in key_rows:
        if not mine:
            continue
        cells = [f"{mean(r['f1'][p] for r in mine):.3f}" for p in PARTS]
        rates = [f"{100 * mean(r['exact'][p] for r in mine):.0f}%" for p in PARTS]
        rates.append(f"{100 * mean(all(r['exact'].values()) for r in mine):.0f}%")
        out.append(f"| {name} | {len(mine)} | " + " | ".join(cells + rates) + " |")
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=200, help="how many layouts (default 200)")
    ap.add_argument("--first-seed", type=int, default=0, help="first seed (default 0)")
    ap.add_argument("--keep", type=Path, help="keep PDFs, truths, flat studies and results here")
    ap.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="print the scorer's unmatched lists for the layouts that are not exact",
    )
    args = ap.parse_args(argv)
    if not SCORER.is_file():
        print(f"scorer not found: {SCORER}", file=sys.stderr)
        return 1
    from clinparser import PDFParser

    gen = load_generator()
    parser = PDFParser(workers=1)
    rows: list[dict] = []
    seeds = range(args.first_seed, args.first_seed + args.count)
    started_all = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="clinparser-layouts-") as tmp:
        work = args.keep or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        for n, seed in enumerate(seeds, 1):
            stem = f"layout_{seed:04d}"
            t0 = time.perf_counter()
            truth = gen.build_layout(seed, work / f"{stem}.pdf")
            t1 = time.perf_counter()
            result = parser.parse(
                work / f"{stem}.pdf",
                output_dir=work / f"{stem}.out",
                save_images=False,
                save_table_csv=False,
                save_report=False,
            )
            t2 = time.perf_counter()
            ours, gold = flat(result.get("study") or {}), flat(truth["study"])
            (work / f"{stem}.ours.json").write_text(json.dumps(ours, indent=1, ensure_ascii=False), encoding="utf-8")
            (work / f"{stem}.gold.json").write_text(json.dumps(gold, indent=1, ensure_ascii=False), encoding="utf-8")
            if args.keep:
                (work / f"{stem}.truth.json").write_text(
                    json.dumps(truth, indent=1, ensure_ascii=False), encoding="utf-8"
                )
            f1, unmatched = score(work / f"{stem}.ours.json", work / f"{stem}.gold.json", args.verbose)
            t3 = time.perf_counter()
            row = {
                "seed": seed,
                "forms": truth["forms"],
                "pages": truth["pages"],
                "f1": f1,
                "exact": exact(ours, gold),
                "unmatched": unmatched,
                "seconds": (t1 - t0, t2 - t1, t3 - t2),
            }
            rows.append(row)
            wrong = [p for p in PARTS if not row["exact"][p]]
            print(
                f"[{n}/{len(seeds)}] seed {seed}: {truth['pages']} pages, parse {t2 - t1:.2f}s; F1 "
                + " ".join(f"{p[:4]} {f1[p]:.2f}" for p in PARTS)
                + ("; exact" if not wrong else f"; not exact: {', '.join(wrong)}"),
                file=sys.stderr,
                flush=True,
            )
    elapsed = time.perf_counter() - started_all

    gen_forms = gen.FORMS
    print(f"# Study definition on {len(rows)} generated layouts (seeds {seeds.start}..{seeds.stop - 1})\n")
    for family, prefix in gen.FAMILIES.items():
        forms = [f for f in gen_forms if f.startswith(prefix)]
        key_rows = [(f"**any {prefix[:-1]}**", [r for r in rows if any(f.startswith(prefix) for f in r["forms"])])]
        key_rows += [(f, [r for r in rows if f in r["forms"]]) for f in forms]
        print(f"## {family}\n")
        print("\n".join(table(rows, key_rows)) + "\n")
    print("## Overall\n")
    print("\n".join(table(rows, [("**all layouts**", rows)])) + "\n")
    bad = [r for r in rows if not all(r["exact"].values())]
    print(f"Not exact: {len(bad)} of {len(rows)} layouts")
    for r in bad:
        wrong = [p for p in PARTS if not r["exact"][p]]
        print(f"- seed {r['seed']}: {', '.join(wrong)} (F1 " + ", ".join(f"{r['f1'][p]:.2f}" for p in PARTS) + ")")
        if args.verbose:
            print("\n".join(f"  {line}" for line in r["unmatched"]))
    gen_s, parse_s, score_s = (mean(r["seconds"][k] for r in rows) for k in range(3))
    print(
        f"\nSeconds per layout: {elapsed / max(1, len(rows)):.2f} in all (generate {gen_s:.2f}, "
        f"parse {parse_s:.2f}, score {score_s:.2f}); {mean(r['pages'] for r in rows):.1f} pages on average"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
