"""Study design (arms, epochs, interventions, population, design, indication, amendments) scored on USDM.

    python benchmarks/design.py [--corpus ../shared/corpus] [--gold ../shared/corpus/design]
                                [--usdm ../shared/usdm] [--outputs DIR [--reread]] [--parsed DIR]
                                [--only NAME ...] [--keep DIR] [--layout full|auto] [-v]

For each corpus document with a reference (``--gold DIR/NAME.design.json``, curated by hand; else
the published ``--usdm DIR/NAME.usdm.json``, the Alexion study and the CDISC pilot, whose M11
version ``CDISC_Pilot_Study_ICH_M11`` is scored against the pilot's file as
``benchmarks/study.py`` pairs them), the parse's USDM export (``to_usdm(result)``, the design
from ``result["study"]["design"]``) is written to a temporary ``usdm.json`` and scored by the
project's scorer run as it is (``../shared/tools/design_score.py usdm.json GOLD``, never copied).
Its summary line gives one row: arms, epochs and interventions F1, the interventions' attributes
(role, route, frequency, doses on matched pairs), population, design (allocation, model,
masking), indication, amendments F1 and the scorer's mean of the eight; then the means over the
scored documents. ``-v`` prints the scorer's details (what was missed, what differs) per
document below the table; ``--keep DIR`` keeps each export as ``DIR/NAME.usdm.json`` (to check
it with ``benchmarks/usdm_check.py``).

Where the parses come from is ``benchmarks/study.py``'s choice, with its options:

- ``--outputs DIR``: a ``clinparser batch`` output folder (documents matched by the manifest's
  ``source``; ``document.json`` and ``blocks.json`` read from each); its ``study`` block is
  scored as the batch wrote it (a result without one gets one from ``read_study``).
- ``--outputs DIR --reread``: the study read again by the current readers,
  ``clinparser.study.definition.read_study(document, blocks)`` (the design takes the title and
  criteria the identity and eligibility readers give it) on the saved files, after the
  schedules are read again from the saved tables as ``benchmarks/schedule.py --reread`` does
  (their epochs are the USDM design's too): a change to a study reader is measured over the
  corpus in seconds, without parsing again. The seconds it took are printed under the table.
- ``--parsed DIR``: saved results (``DIR/NAME.json``), each scored on its own study block.
- neither: each document is parsed here (``PDFParser(layout=--layout)``) into a temporary folder.

The export is what is scored, so what USDM cannot hold shows as a miss: a frequency or
non-randomized allocation without a CDISC code is not coded (``clinparser.export.usdm_design``),
and a protocol without an upper age limit has 100 years as its USDM maximum (the published
files' convention), which the hand-made references (null) count as wrong.
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
if str(ROOT / "benchmarks") not in sys.path:
    sys.path.insert(0, str(ROOT / "benchmarks"))
from loading import load_module  # noqa: E402

from clinparser.export.usdm import to_usdm  # noqa: E402

study_benchmark = load_module("study_benchmark", ROOT / "benchmarks" / "study.py")
schedule_benchmark = load_module("schedule_benchmark", ROOT / "benchmarks" / "schedule.py")
SHARED = ROOT.parent / "shared"
SCORER = SHARED / "tools" / "design_score.py"
PARTS = ("arms", "epochs", "interventions", "attrs", "population", "design", "indication", "amendments")

_PRF = re.compile(r"(arms|epochs|interventions|amendments) P/R/F1 ([\d.]+)/([\d.]+)/([\d.]+)")
_VALUE = re.compile(r"\b(attrs|population|design|indication|mean) ([\d.]+)")


def gold_of(doc: Path, gold_dir: Path, usdm_dir: Path):
    """The reference for a document: the hand-made design file, else the published USDM, or None."""
    hand = gold_dir / f"{doc.stem}.design.json"
    if hand.is_file():
        return hand
    published = usdm_dir / f"{study_benchmark.SAME_STUDY.get(doc.stem, doc.stem)}.usdm.json"
    return published if published.is_file() else None


def score_line(text: str) -> dict:
    """design_score.py's summary line as figures: the four F1s, the four values and the mean."""
    last = text.strip().splitlines()[-1] if text.strip() else ""
    out = {m[1]: float(m[4]) for m in _PRF.finditer(last)}
    out.update({m[1]: float(m[2]) for m in _VALUE.finditer(last)})
    if not set(PARTS) | {"mean"} <= out.keys():
        raise ValueError(f"not a design_score.py summary line: {last!r}")
    return out


def reread_design(document: dict, blocks: list) -> dict:
    """The study block read again by the current readers (imported here: they may be newer
    than this script): the design takes its title, criteria and abbreviations from the
    identity and eligibility readers, so those are read again too."""
    from clinparser.study.definition import read_study

    return read_study({k: v for k, v in document.items() if k != "study"}, blocks)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=SHARED / "corpus")
    ap.add_argument(
        "--gold", type=Path, default=SHARED / "corpus" / "design", help="folder of NAME.design.json references"
    )
    ap.add_argument("--usdm", type=Path, default=SHARED / "usdm", help="folder of published NAME.usdm.json references")
    ap.add_argument(
        "--outputs", type=Path, help="a `clinparser batch` output folder (with manifest.jsonl) to read parses from"
    )
    ap.add_argument(
        "--reread",
        action="store_true",
        help="with --outputs: score the design the current reader reads "
        "from the saved document.json and blocks.json, not the batch's",
    )
    ap.add_argument("--parsed", type=Path, help="a folder of saved results (NAME.json) to score instead of parsing")
    ap.add_argument("--only", action="append", help="only these documents (file stem)")
    ap.add_argument("--keep", type=Path, help="write each export to DIR/NAME.usdm.json")
    ap.add_argument(
        "--layout", choices=("full", "auto"), default="auto", help="the parser's --layout when parsing here"
    )
    ap.add_argument("-v", "--verbose", action="store_true", help="print the scorer's details per document")
    args = ap.parse_args(argv)
    if args.parsed and args.outputs:
        ap.error("--parsed and --outputs are two sources of parses: give one")
    if args.reread and not args.outputs:
        ap.error("--reread reads the design again from a batch's saved files: give --outputs")
    if not SCORER.is_file():
        print(f"scorer not found: {SCORER}", file=sys.stderr)
        return 1
    docs = sorted(p for p in args.corpus.glob("*") if p.suffix in (".pdf", ".docx")) if args.corpus.is_dir() else []
    docs = [(d, g) for d in docs if (not args.only or d.stem in args.only) and (g := gold_of(d, args.gold, args.usdm))]
    if not docs:
        print(f"no documents under {args.corpus} with a reference in {args.gold} or {args.usdm}", file=sys.stderr)
        return 1
    manifest = study_benchmark._manifest(args.outputs) if args.outputs else {}
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)

    empty = " |" * (len(PARTS) + 1)
    rows, scores, details, reread_seconds = [], [], [], 0.0
    with tempfile.TemporaryDirectory(prefix="clinparser-design-") as tmp:
        work = Path(tmp)
        for doc, gold in docs:
            parsed = study_benchmark._parse(args, doc, manifest, work)
            if isinstance(parsed, str):
                rows.append(f"| {doc.name} | {gold.name} | {parsed}{empty[2:]}")
                continue
            document, blocks, _ = parsed
            result = dict(document)
            if blocks is not None:
                if args.reread:
                    started = time.perf_counter()
                    result = schedule_benchmark.reread(result)  # the schedules' epochs are the design's too
                    result["study"] = reread_design(result, blocks)
                    reread_seconds += time.perf_counter() - started
                elif not document.get("study"):
                    result["study"] = study_benchmark.read_study(document, blocks)
            usdm_path = (args.keep or work) / f"{doc.stem}.usdm.json"
            usdm_path.write_text(json.dumps(to_usdm(result), ensure_ascii=False), encoding="utf-8")
            command = [sys.executable, str(SCORER), str(usdm_path), str(gold)] + (["-v"] if args.verbose else [])
            run = subprocess.run(command, capture_output=True, text=True, check=False)
            try:
                s = score_line(run.stdout)
            except ValueError as exc:
                rows.append(f"| {doc.name} | {gold.name} | scorer failed: {exc} {run.stderr.strip()[-200:]}{empty[2:]}")
                continue
            scores.append(s)
            rows.append(
                f"| {doc.name} | {gold.name} | " + " | ".join(f"{s[p]:.2f}" for p in PARTS) + f" | {s['mean']:.3f} |"
            )
            if args.verbose:
                details.append((doc.name, gold.name, run.stdout.rstrip().splitlines()[:-1]))
            print(f"{doc.name}: scored against {gold.name}", file=sys.stderr, flush=True)

    print(
        "| document | reference | arms F1 | epochs F1 | interventions F1 | attributes | population | design "
        "| indication | amendments F1 | mean |"
    )
    print("|---" * (len(PARTS) + 3) + "|")
    print("\n".join(rows))
    if scores:
        means = " | ".join(f"{statistics.fmean(s[p] for s in scores):.3f}" for p in PARTS)
        print(f"| **mean** ({len(scores)} documents) | | {means} | {statistics.fmean(s['mean'] for s in scores):.3f} |")
    if args.reread:
        print(f"\nread_study: {reread_seconds:.2f} s over {len(scores)} documents")
    for name, gold_name, lines in details:
        print(f"\n## {name} (against {gold_name})")
        print("\n".join(lines) if lines else "  (nothing missed)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
