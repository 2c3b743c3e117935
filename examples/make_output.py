"""Regenerate ``examples/output/``: what ``clinparser examples/input/protocol_001.pdf`` writes.

The CLI writes into a timestamped folder; this script runs it into a temporary folder and
moves that run's files to ``examples/output/`` so the committed example has a stable path.
``tests/test_examples_current.py`` regenerates it the same way and compares.

    python examples/make_output.py
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
PDF = HERE / "input" / "protocol_001.pdf"
OUT = HERE / "output"


def run_cli(pdf: Path, workdir: Path) -> Path:
    """Run the CLI as a user would; return the run folder it printed."""
    done = subprocess.run(
        [sys.executable, "-m", "clinparser", str(pdf), "--output-dir", str(workdir), "--quiet"],
        check=True,
        capture_output=True,
        text=True,
    )
    return Path(done.stdout.strip())


def make(out: Path = OUT, pdf: Path = PDF) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        run = run_cli(pdf, Path(tmp))
        if out.exists():
            shutil.rmtree(out)
        shutil.copytree(run, out)


if __name__ == "__main__":
    make()
    print(OUT)
