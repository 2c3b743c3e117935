"""What the benchmarks that parse each PDF end to end in a child process of their own share
(``cpu_stages.py``, ``model_ops.py``): their command line, the PDFs it picks, the parse in the
child and the one JSON line the child prints back."""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def command_line(description: str, child_args: int) -> argparse.ArgumentParser:
    """``--corpus``, ``--only``, the PDFs, and the hidden ``--child`` with ``child_args`` values."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    ap.add_argument("--only", action="append", help="only these documents (file stem; repeat the flag)")
    ap.add_argument("pdfs", nargs="*", type=Path)
    ap.add_argument("--child", nargs=child_args, help=argparse.SUPPRESS)
    return ap


def child_or_pdfs(args, child) -> list[Path] | int:
    """The PDFs to measure (``chosen_pdfs``), or the exit code when there is nothing to measure
    here: 0 once ``--child`` has run ``child(*values)``, 2 when no PDF is left."""
    if args.child:
        child(*args.child)
        return 0
    return chosen_pdfs(args) or 2


def chosen_pdfs(args) -> list[Path]:
    """The PDFs named, else the corpus's, less those ``--only`` leaves out; says so when none is left."""
    pdfs = args.pdfs or sorted(args.corpus.glob("*.pdf"))
    if args.only:
        pdfs = [p for p in pdfs if p.stem in args.only]
    if not pdfs:
        print(f"no PDF to measure (corpus: {args.corpus})", file=sys.stderr)
    return pdfs


def parse_with_cli(pdf: str, out: str) -> tuple[float, float, float, int]:
    """``clinparser PDF --workers 1`` in this process: the CPU clock when it started, the CPU
    seconds it took, the part of them the system spent for it, and the PDF's page count."""
    from clinparser.cli import main

    system = resource.getrusage(resource.RUSAGE_SELF).ru_stime
    started = time.process_time()
    try:
        main([pdf, "--workers", "1", "--quiet", "-o", out])
    except SystemExit as exc:
        if exc.code:
            raise
    cpu = time.process_time() - started
    system = resource.getrusage(resource.RUSAGE_SELF).ru_stime - system
    # Only now: the parse imports PyMuPDF itself, under its own session settings, as a real call
    # does (imported before, it builds an unpinned layout model and then a second, pinned one).
    import pymupdf

    with pymupdf.open(pdf) as doc:
        return started, cpu, system, doc.page_count


def run_child(script: str, pdf: Path, scratch_dirs: int = 1) -> dict:
    """``script --child PDF DIR...`` in a fresh process, with ``scratch_dirs`` empty folders
    removed afterwards; the JSON of its last line, or the child's last error line as an exit."""
    with ExitStack() as stack:
        dirs = [stack.enter_context(tempfile.TemporaryDirectory()) for _ in range(scratch_dirs)]
        run = subprocess.run([sys.executable, script, "--child", str(pdf), *dirs], capture_output=True, text=True)
    if run.returncode:
        last = run.stderr.strip().splitlines()[-1] if run.stderr.strip() else f"exit code {run.returncode}"
        raise SystemExit(f"{pdf.name}: the parse failed: {last}")
    return json.loads(run.stdout.strip().splitlines()[-1])
