"""The committed example is what today's code makes: the generator's PDF and truth, byte for
byte, and the CLI's output for it, file for file."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
from conftest import ROOT

EXAMPLES = ROOT / "examples"


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("name", [f"protocol_{n:03d}" for n in range(1, 13)])
def test_generator_reproduces_the_committed_example_pdfs_and_truths(generator, tmp_path, name):
    pdf = tmp_path / f"{name}.pdf"
    truth = generator.build_named(name, pdf)
    assert pdf.read_bytes() == (EXAMPLES / "input" / f"{name}.pdf").read_bytes()
    committed = json.loads((EXAMPLES / "input" / f"{name}.truth.json").read_text(encoding="utf-8"))
    assert truth == committed


def test_cli_reproduces_the_committed_example_output(tmp_path):
    spec = importlib.util.spec_from_file_location("make_output", EXAMPLES / "make_output.py")
    make_output = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make_output)
    fresh = tmp_path / "output"
    make_output.make(out=fresh)
    committed, regenerated = _files(EXAMPLES / "output"), _files(fresh)
    assert sorted(regenerated) == sorted(committed)
    for name in committed:
        assert regenerated[name] == committed[name], (
            f"examples/output/{name} is stale: run python examples/make_output.py"
        )
