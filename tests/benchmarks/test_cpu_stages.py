"""benchmarks/cpu_stages.py: its stages hook the functions that do the work, and add up."""

from __future__ import annotations

import sys
from pathlib import Path

import pymupdf

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

import cpu_stages  # noqa: E402

PDF = ROOT / "examples" / "input" / "protocol_001.pdf"


def test_every_page_is_counted_under_one_model_and_the_stages_add_up():
    row = cpu_stages.measure(PDF)
    with pymupdf.open(PDF) as doc:
        pages = doc.page_count
    assert row["pages"] == pages
    # A wrapper that no longer hooks its function (a rename) shows as a page count that is off.
    assert sum(row["model_pages"].values()) == pages
    assert set(row["stages"]) == set(cpu_stages.STAGES)
    assert row["stages"]["start-up"] > 0 and row["stages"]["full model"] + row["stages"]["text-only model"] > 0
    assert row["stages"]["converter, rest"] > 0
    # "ours, rest" is the call's CPU less the timed stages: it stays at or above zero only if no
    # second is counted twice (a wrapper's nested calls taken off its own time).
    assert all(v >= -0.05 for v in row["stages"].values())  # bar clock rounding


def test_the_table_has_a_row_per_document_and_the_totals(capsys):
    assert cpu_stages.main([str(PDF), "--jobs", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("| document | pages | CPU s/page | start-up %")
    assert out[2].startswith("| protocol_001 |") and out[3].startswith("| **all 1** |")
    assert "median CPU s/page" in out[-1]
