"""Study definition (eligibility, objectives, endpoints, identifiers, title, phase) scored on USDM.

    python benchmarks/study.py [--corpus ../shared/corpus] [--gold ../shared/corpus/study]
                               [--usdm ../shared/usdm] [--outputs DIR] [--only NAME ...] [-v]
                               [--layout full|auto] [--parsed DIR]

For each corpus document with a reference (``--gold DIR/NAME.study.json``, hand-made; else the
published ``--usdm DIR/NAME.usdm.json``, and for ``CDISC_Pilot_Study_ICH_M11`` the CDISC pilot's,
the same study), the parse's USDM export (``to_usdm(result)`` with ``result["study"]``) is written
to a temporary ``usdm.json`` and scored by the project's scorer, run as it is
(``../shared/tools/study_score.py usdm.json GOLD``, never copied). Its last line is read into one
row: eligibility P / R / F1 (ours v gold), objectives and endpoints F1, identifier recall, title
similarity, phase; then the means over the scored documents (a title or phase the reference does
not give is "n/a" and left out of its mean). ``-v`` prints the scorer's unmatched lists per
document below the table.

``--outputs DIR`` reuses a ``clinparser batch`` output folder: documents are matched by the
manifest's ``source`` file name and read from their ``document.json`` and ``blocks.json``;
otherwise each document is parsed here into a temporary folder. A result without a ``study``
block (a pipeline that does not yet read it) gets one from ``read_study``. The second table is
the study reading's cost: seconds of ``read_study`` per document, timed here, against the
document's parse seconds from the manifest (``--outputs`` only).

``--reread`` (with ``--outputs``) scores the study block that the current code reads from the
saved ``document.json`` and ``blocks.json`` instead of the one the batch wrote: a change to the
readers is measured over the whole corpus in seconds, without parsing again.

``--parsed DIR`` scores saved results instead (``DIR/NAME.json``, as ``toc_accuracy.py --save``
and ``layout_sameness.py --save`` write them), each with the study block its parse read; a
document with no saved result is listed as not run.
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

from clinparser.export.usdm import to_usdm
from clinparser.study.definition import read_study

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
SCORER = SHARED / "tools" / "study_score.py"
# A document whose reference is another document's published file (the same study).
SAME_STUDY = {"CDISC_Pilot_Study_ICH_M11": "CDISC_Pilot_Study"}

_PRF = re.compile(r"(eligibility|objectives|endpoints) P/R/F1 ([\d.]+)/([\d.]+)/([\d.]+) \((\d+) vs (\d+)\)")
_VALUE = re.compile(r"(identifiers|title|phase) (n/a|[\d.]+)")


def gold_of(doc: Path, gold_dir: Path, usdm_dir: Path):
    """The reference file for a document, or None."""
    hand = gold_dir / f"{doc.stem}.study.json"
    if hand.is_file():
        return hand
    published = usdm_dir / f"{SAME_STUDY.get(doc.stem, doc.stem)}.usdm.json"
    return published if published.is_file() else None


def _manifest(outputs: Path) -> dict[str, dict]:
    """Source file name -> manifest record, for the documents the batch wrote."""
    lines = (outputs / "manifest.jsonl").read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in lines if line.strip()]
    return {Path(r["source"]).name: r for r in records if r.get("status") in ("ok", "skipped") and r.get("output")}


def _parse(args, doc: Path, manifest: dict, work: Path):
    """(document dict, blocks, parse seconds or None) or a reason it is not run."""
    if args.parsed:
        saved = args.parsed / f"{doc.stem}.json"
        if not saved.is_file():
            return f"not run: no {saved}"
        document = json.loads(saved.read_text(encoding="utf-8"))
        if "study" not in document:
            return f"not run: {saved} has no study block"
        return document, None, None
    if args.outputs:
        record = manifest.get(doc.name)
        if record is None:
            return f"not run: {doc.name} not in {args.outputs / 'manifest.jsonl'}"
        folder = args.outputs / record["output"]
        seconds = record.get("seconds")
    else:
        from clinparser import PDFParser

        parser = PDFParser(layout=args.layout)
        started = time.perf_counter()
        parser.parse(doc, output_dir=work / doc.stem, save_images=False, save_table_csv=False, save_report=False)
        seconds, folder = time.perf_counter() - started, Path(parser.last_output)
    if not (folder / "document.json").is_file() or not (folder / "blocks.json").is_file():
        return f"not run: no document.json / blocks.json in {folder}"
    document = json.loads((folder / "document.json").read_text(encoding="utf-8"))
    blocks = json.loads((folder / "blocks.json").read_text(encoding="utf-8"))
    return document, blocks, seconds


def score_line(text: str) -> dict:
    """The scorer's last line as figures: {"eligibility": (p, r, f1, n_ours, n_gold), ...,
    "identifiers": float, "title": float | None, "phase": float | None}."""
    last = text.strip().splitlines()[-1] if text.strip() else ""
    out: dict = {}
    for m in _PRF.finditer(last):
        out[m[1]] = (float(m[2]), float(m[3]), float(m[4]), int(m[5]), int(m[6]))
    for m in _VALUE.finditer(last):
        out[m[1]] = None if m[2] == "n/a" else float(m[2])
    if not {"eligibility", "objectives", "endpoints", "identifiers"} <= out.keys():
        raise ValueError(f"not a study_score.py summary line: {last!r}")
    return out


def _opt(value, digits: int = 2) -> str:
    return "n/a" if value is None else f"{value:.{digits}f}"


def _mean(values) -> str:
    values = [v for v in values if v is not None]
    return f"{statistics.fmean(values):.3f}" if values else "n/a"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=SHARED / "corpus")
    ap.add_argument(
        "--gold", type=Path, default=SHARED / "corpus" / "study", help="folder of NAME.study.json references"
    )
    ap.add_argument("--usdm", type=Path, default=SHARED / "usdm", help="folder of published NAME.usdm.json references")
    ap.add_argument(
        "--outputs", type=Path, help="a `clinparser batch` output folder (with manifest.jsonl) to read parses from"
    )
    ap.add_argument("--only", action="append", help="only these documents (file stem)")
    ap.add_argument("-v", "--verbose", action="store_true", help="print the scorer's unmatched lists")
    ap.add_argument(
        "--layout",
        choices=("full", "auto"),
        default="auto",
        help="the parser's --layout when parsing here (default: auto, the parser's)",
    )
    ap.add_argument("--parsed", type=Path, help="a folder of saved results (NAME.json) to score instead of parsing")
    ap.add_argument(
        "--reread",
        action="store_true",
        help="with --outputs: score the study the current readers read "
        "from the saved document.json and blocks.json, not the batch's",
    )
    args = ap.parse_args(argv)
    if args.parsed and args.outputs:
        ap.error("--parsed and --outputs are two sources of parses: give one")
    if args.reread and not args.outputs:
        ap.error("--reread reads the study again from a batch's saved files: give --outputs")
    if not SCORER.is_file():
        print(f"scorer not found: {SCORER}", file=sys.stderr)
        return 1
    docs = sorted(p for p in args.corpus.glob("*") if p.suffix in (".pdf", ".docx")) if args.corpus.is_dir() else []
    docs = [(d, g) for d in docs if (not args.only or d.stem in args.only) and (g := gold_of(d, args.gold, args.usdm))]
    if not docs:
        print(f"no documents under {args.corpus} with a reference in {args.gold} or {args.usdm}", file=sys.stderr)
        return 1
    manifest = _manifest(args.outputs) if args.outputs else {}

    rows, scores, costs, details = [], [], [], []
    with tempfile.TemporaryDirectory(prefix="clinparser-study-") as tmp:
        work = Path(tmp)
        for doc, gold in docs:
            parsed = _parse(args, doc, manifest, work)
            if isinstance(parsed, str):
                rows.append(f"| {doc.name} | {parsed} | | | | | |")
                continue
            document, blocks, parse_seconds = parsed
            result = dict(document)
            if blocks is not None:  # a saved result (--parsed) is scored on its own study block
                started = time.perf_counter()
                study = read_study(document, blocks)
                read_seconds = time.perf_counter() - started
                costs.append((doc.name, read_seconds, parse_seconds))
                if args.reread:
                    result["study"] = study
                else:
                    result.setdefault("study", study)  # the pipeline's own block when it has one
            usdm_path = work / f"{doc.stem}.usdm.json"
            usdm_path.write_text(json.dumps(to_usdm(result), ensure_ascii=False), encoding="utf-8")
            command = [sys.executable, str(SCORER), str(usdm_path), str(gold)] + (["-v"] if args.verbose else [])
            run = subprocess.run(command, capture_output=True, text=True, check=False)
            try:
                s = score_line(run.stdout)
            except ValueError as exc:
                rows.append(f"| {doc.name} | scorer failed: {exc} {run.stderr.strip()[-200:]} | | | | | |")
                continue
            scores.append(s)
            e = s["eligibility"]
            rows.append(
                f"| {doc.name} | {e[0]:.3f} / {e[1]:.3f} / {e[2]:.3f} ({e[3]} v {e[4]}) "
                f"| {s['objectives'][2]:.3f} ({s['objectives'][3]} v {s['objectives'][4]}) "
                f"| {s['endpoints'][2]:.3f} ({s['endpoints'][3]} v {s['endpoints'][4]}) "
                f"| {s['identifiers']:.2f} | {_opt(s.get('title'))} | {_opt(s.get('phase'), 0)} |"
            )
            if args.verbose:
                details.append((doc.name, gold.name, run.stdout.rstrip().splitlines()[:-1]))
            print(f"{doc.name}: scored against {gold.name}", file=sys.stderr, flush=True)

    print(
        "| document | eligibility P / R / F1 (ours v gold) | objectives F1 | endpoints F1 | identifiers "
        "| title | phase |"
    )
    print("|---|---|---|---|---|---|---|")
    print("\n".join(rows))
    if scores:
        print(
            f"| **mean** ({len(scores)} documents) "
            f"| {_mean(s['eligibility'][0] for s in scores)} / {_mean(s['eligibility'][1] for s in scores)} / "
            f"{_mean(s['eligibility'][2] for s in scores)} | {_mean(s['objectives'][2] for s in scores)} "
            f"| {_mean(s['endpoints'][2] for s in scores)} | {_mean(s['identifiers'] for s in scores)} "
            f"| {_mean(s.get('title') for s in scores)} | {_mean(s.get('phase') for s in scores)} |"
        )

    print("\n| document | read_study s | parse s | share |")
    print("|---|---|---|---|")
    for name, read_seconds, parse_seconds in costs:
        share = f"{100 * read_seconds / parse_seconds:.1f}%" if parse_seconds else "n/a"
        print(f"| {name} | {read_seconds:.2f} | {_opt(parse_seconds)} | {share} |")
    if costs:
        total_read = sum(c[1] for c in costs)
        parsed_total = sum(c[2] for c in costs if c[2])
        print(
            f"| **total** | {total_read:.2f} | {_opt(parsed_total or None)} "
            f"| {f'{100 * total_read / parsed_total:.1f}%' if parsed_total else 'n/a'} |"
        )

    for name, gold_name, lines in details:
        print(f"\n## {name} (against {gold_name})")
        print("\n".join(lines) if lines else "  (nothing unmatched)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
