"""Speed, side by side in one run: bare PyMuPDF text, the bare converter, and clinparser.

    python benchmarks/speed.py [--corpus ../shared/corpus] [--pages 500] [--rounds 1] [PDF ...]

For each corpus PDF and a generated long protocol (``scale.make``), each round runs, in
alternating order so drift cancels and each in a fresh child process (so model loading is
counted for both and peak memory is the child's own):
(a) ``page.get_text()`` on every page, the floor; (b) ``pymupdf4llm.to_markdown(doc,
page_chunks=True)``, what a user would otherwise run; (c) ``clinparser`` end to end with the
default engine, its default ``--workers`` (the cores available) and ``--layout auto`` (each
page's layout model chosen by ``layout_route``); (cf) the same with ``--layout full``, the
default (the full model on every page); (c1) c with ``--workers 1``. It prints pages, seconds per page, c/b, c/cf,
c1/b, c/a, our own stages' seconds in c1 (everything but the layout converter's start-up and conversion, which b
pays too: imports, opening, pictures, sections, writing) and their share of b, the floor of c/b (c1's
conversion split evenly over c's N workers, plus c1's own seconds, over b: what c could reach
if the pages shared out perfectly), the seconds c1 spends in the page checks (``page_check``:
the painting log read per page, the looks before and after conversion, the search for text no
layout box holds; recovering a flagged page is not counted) and their share of c1, and c's
peak memory: the largest sum of resident memory over the child and its worker processes
(sampled every 50 ms).
"""

from __future__ import annotations

import argparse
import json
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
        from clinparser.convert.engines import page_workers

        # The converter's share (its start-up: PyMuPDF's import, the model): the rest is ours.
        converting: list[float] = []
        page_workers.LayoutWorkers.__init__ = _timed(page_workers.LayoutWorkers.__init__, converting)
        page_workers.LayoutWorkers.convert = _timed(page_workers.LayoutWorkers.convert, converting)
        checking = _time_page_checks() if mode == "c1" else []
        with tempfile.TemporaryDirectory() as out:
            PDFParser(workers=1 if mode == "c1" else None, layout="full" if mode == "cf" else "auto").parse(
                pdf, output_dir=out
            )
        seconds = time.perf_counter() - t0
        print(
            json.dumps({"seconds": seconds, "own_seconds": seconds - sum(converting), "check_seconds": sum(checking)})
        )
        return
    print(json.dumps({"seconds": time.perf_counter() - t0}))


def _timed(real, spent: list[float]):
    """``real``, adding the seconds each call takes to ``spent``."""

    def run(*args, **kwargs):
        start = time.perf_counter()
        try:
            return real(*args, **kwargs)
        finally:
            spent.append(time.perf_counter() - start)

    return run


def _time_page_checks() -> list[float]:
    """Time the page checks (``page_check``: the painting log each page's verdict is read
    from, the looks before and after conversion, the search for text no layout box holds)
    as ``page_recovery`` calls them; in c1 every page is read in this process."""
    import pymupdf

    from clinparser.convert.pages import page_recovery

    spent: list[float] = []
    for name in ("before_conversion", "after_conversion", "unboxed_text"):
        setattr(page_recovery, name, _timed(getattr(page_recovery, name), spent))
    real_log, timed_log = pymupdf.Page.get_bboxlog, _timed(pymupdf.Page.get_bboxlog, spent)

    def bboxlog(page, *args, **kwargs):  # the checks' reads, not the converter's
        ours = sys._getframe(1).f_globals.get("__name__", "").startswith("clinparser.")
        return (timed_log if ours else real_log)(page, *args, **kwargs)

    pymupdf.Page.get_bboxlog = bboxlog
    return spent


def measure(mode: str, pdf: Path) -> dict:
    import psutil  # a dependency of PyMuPDF

    # Output goes to files, not pipes: a child that writes more than a pipe holds would block.
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        proc = subprocess.Popen(
            [sys.executable, __file__, "--child", mode, str(pdf)], stdout=out, stderr=err, text=True
        )
        watched = psutil.Process(proc.pid)
        peak = 0
        while proc.poll() is None:
            peak = max(peak, _tree_rss(watched))
            time.sleep(0.05)
        out.seek(0), err.seek(0)
        stdout, stderr = out.read(), err.read()
    if proc.returncode:
        raise SystemExit(f"{mode} failed on {pdf.name}: {stderr.strip().splitlines()[-1:]}")
    result = json.loads(stdout.strip().splitlines()[-1])
    result["peak_mb"] = peak / 2**20
    return result


def _tree_rss(proc) -> int:
    import psutil

    total = 0
    try:
        for p in [proc, *proc.children(recursive=True)]:
            total += p.memory_info().rss
    except psutil.Error:  # a process ended while being sampled
        pass
    return total


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    ap.add_argument("--pages", type=int, default=500, help="pages of the generated protocol (0: none)")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("pdfs", nargs="*", type=Path, help="these PDFs instead of the whole corpus")
    ap.add_argument("--child", nargs=2, metavar=("MODE", "PDF"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        child(*args.child)
        return 0
    import pymupdf
    from scale import make

    pdfs = args.pdfs or sorted(args.corpus.glob("*.pdf"))
    work = Path(tempfile.mkdtemp())
    if args.pages:
        generated = work / f"generated_{args.pages}.pdf"
        make(generated, args.pages)
        pdfs.append(generated)
    from clinparser.workers.cores import default_workers

    workers = default_workers()  # what c runs with
    print(f"c: {workers} workers")
    print(
        "| document | pages | a s/page | b s/page | c s/page | cf s/page | c1 s/page | c/b | c/cf | c/b floor "
        "| c1/b | c/a | own s | own/b | checks s | checks/c1 | c peak MB | cf peak MB |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for pdf in pdfs:
        with pymupdf.open(pdf) as doc:
            pages = doc.page_count
        modes = ["a", "b", "c", "cf", "c1"]
        runs = {m: [] for m in modes}
        for r in range(args.rounds):
            for mode in modes if r % 2 == 0 else modes[::-1]:
                runs[mode].append(measure(mode, pdf))
        sec = {m: statistics.median(x["seconds"] for x in v) for m, v in runs.items()}
        peak = max(x["peak_mb"] for x in runs["c"])
        peak_full = max(x["peak_mb"] for x in runs["cf"])
        own = statistics.median(x["own_seconds"] for x in runs["c1"])
        checks = statistics.median(x["check_seconds"] for x in runs["c1"])
        floor = ((sec["c1"] - own) / workers + own) / sec["b"]
        print(
            f"| {pdf.stem} | {pages} | {sec['a'] / pages:.4f} | {sec['b'] / pages:.3f} | {sec['c'] / pages:.3f} "
            f"| {sec['cf'] / pages:.3f} | {sec['c1'] / pages:.3f} "
            f"| {sec['c'] / sec['b']:.2f} | {sec['c'] / sec['cf']:.2f} | {floor:.2f} | {sec['c1'] / sec['b']:.2f} "
            f"| {sec['c'] / sec['a']:.0f} | {own:.2f} | {own / sec['b']:.3f} | {checks:.2f} | {checks / sec['c1']:.3f} "
            f"| {peak:.0f} | {peak_full:.0f} |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
