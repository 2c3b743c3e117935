"""The committed example is what today's code makes: the generator's PDF and truth, byte for
byte, and the CLI's output for it, file for file."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from conftest import ROOT

EXAMPLES = ROOT / "examples"


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_generator_reproduces_the_committed_example_pdf_and_truth(example):
    pdf, truth = example
    assert pdf.read_bytes() == (EXAMPLES / "input" / "protocol_001.pdf").read_bytes()
    committed = json.loads((EXAMPLES / "input" / "protocol_001.truth.json").read_text(encoding="utf-8"))
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
        assert regenerated[name] == committed[name], f"examples/output/{name} is stale: run python examples/make_output.py"
