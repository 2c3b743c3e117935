"""Speed, side by side in one run: bare PyMuPDF text, the bare converter, and clinparser.

    python benchmarks/speed.py [--corpus ../shared/corpus] [--pages 500] [--rounds 1]

For each corpus PDF and a generated long protocol (``scale.make``), each round runs, in
alternating order so drift cancels and each in a fresh child process (so model loading is
counted for both and peak memory is the child's own):
(a) ``page.get_text()`` on every page, the floor; (b) ``pymupdf4llm.to_markdown(doc,
page_chunks=True)``, what a user would otherwise run; (c) ``clinparser`` end to end with the
default engine. It prints pages, seconds per page, c/b, c/a and c's peak memory.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))


def child(mode: str, pdf: str) -> None:
    t0 = time.perf_counter()
    if mode == "a":
        import pymupdf

        with pymupdf.open(pdf) as doc:
            for page in doc:
                page.get_text()
    elif mode == "b":
        import contextlib
        import io

        import pymupdf
        import pymupdf4llm

        with contextlib.redirect_stdout(io.StringIO()), pymupdf.open(pdf) as doc:
            pymupdf4llm.to_markdown(doc, page_chunks=True)
    else:
        from clinparser import PDFParser

        with tempfile.TemporaryDirectory() as out:
            PDFParser().parse(pdf, output_dir=out)
    seconds = time.perf_counter() - t0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"seconds": seconds, "peak_mb": peak}))


def measure(mode: str, pdf: Path) -> dict:
    out = subprocess.run([sys.executable, __file__, "--child", mode, str(pdf)], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    ap.add_argument("--pages", type=int, default=500, help="pages of the generated protocol (0: none)")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--child", nargs=2, metavar=("MODE", "PDF"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        child(*args.child)
        return 0
    import pymupdf
    from scale import make

    pdfs = sorted(args.corpus.glob("*.pdf"))
    work = Path(tempfile.mkdtemp())
    if args.pages:
        generated = work / f"generated_{args.pages}.pdf"
        make(generated, args.pages)
        pdfs.append(generated)
    print("| document | pages | a s/page | b s/page | c s/page | c/b | c/a | c peak MB |")
    print("|---|---|---|---|---|---|---|---|")
    for pdf in pdfs:
        with pymupdf.open(pdf) as doc:
            pages = doc.page_count
        runs = {"a": [], "b": [], "c": []}
        for r in range(args.rounds):
            for mode in ("abc" if r % 2 == 0 else "cba"):
                runs[mode].append(measure(mode, pdf))
        sec = {m: statistics.median(x["seconds"] for x in v) for m, v in runs.items()}
        peak = max(x["peak_mb"] for x in runs["c"])
        print(
            f"| {pdf.stem} | {pages} | {sec['a'] / pages:.4f} | {sec['b'] / pages:.3f} | {sec['c'] / pages:.3f} "
            f"| {sec['c'] / sec['b']:.2f} | {sec['c'] / sec['a']:.0f} | {peak:.0f} |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
