"""The code passes ruff's lint and format checks, configured in pyproject.toml (lines <= 120).

CI runs the test suite, so this is where the lint runs in CI: a finding fails the suite."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _ruff() -> list[str]:
    found = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    if found is None:
        pytest.fail("ruff is not installed: it is in the [dev] extra (pip install -e '.[dev]')")
    return [found]


@pytest.mark.parametrize("check", [["check", "."], ["format", "--check", "."]], ids=["lint", "format"])
def test_ruff_finds_nothing(check):
    done = subprocess.run(_ruff() + check, cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-1000:]


def test_the_lint_catches_a_long_line(tmp_path):
    """The configuration is the one read: a 121-character line is a finding."""
    bad = tmp_path / "long.py"
    bad.write_text("x = '" + "a" * 115 + "'\n")
    done = subprocess.run(
        _ruff() + ["check", "--config", str(ROOT / "pyproject.toml"), str(bad)], capture_output=True, text=True
    )
    assert done.returncode == 1 and "E501" in done.stdout
