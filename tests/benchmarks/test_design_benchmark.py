"""benchmarks/design.py: the scorer's line read into a row, and a saved result scored end to end."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from helpers import load_module

ROOT = Path(__file__).resolve().parents[2]
design_benchmark = load_module("design_benchmark", ROOT / "benchmarks" / "design.py")
sys.path.insert(0, str(ROOT / "tests" / "export"))
from test_usdm_design import design_result  # noqa: E402

LINE = (
    "design arms P/R/F1 1.000/0.500/0.667 epochs P/R/F1 0.250/1.000/0.400 interventions P/R/F1 1.000/1.000/1.000 "
    "attrs 0.750 population 0.800 design 0.667 indication 0.000 amendments P/R/F1 0.000/0.000/0.000 mean 0.536"
)


def test_the_scorers_summary_line():
    s = design_benchmark.score_line("  arms missed: Arm B\n" + LINE + "\n")
    assert s == {
        "arms": 0.667,
        "epochs": 0.4,
        "interventions": 1.0,
        "amendments": 0.0,
        "attrs": 0.75,
        "population": 0.8,
        "design": 0.667,
        "indication": 0.0,
        "mean": 0.536,
    }
    with pytest.raises(ValueError):
        design_benchmark.score_line("eligibility P/R/F1 1.000/1.000/1.000 (1 vs 1)")


@pytest.mark.skipif(
    not design_benchmark.SCORER.is_file(), reason=f"design scorer not available: {design_benchmark.SCORER}"
)
def test_a_saved_result_is_exported_and_scored(tmp_path, capsys):
    corpus, parsed, gold, keep = (tmp_path / n for n in ("corpus", "parsed", "gold", "keep"))
    for folder in (corpus, parsed, gold):
        folder.mkdir()
    (corpus / "X_Study.pdf").write_bytes(b"")  # named only: --parsed reads the saved result
    (corpus / "Y_NoReference.pdf").write_bytes(b"")
    (parsed / "X_Study.json").write_text(json.dumps(design_result()), encoding="utf-8")
    (gold / "X_Study.design.json").write_text(
        json.dumps(
            {
                "arms": [{"name": "Arm A: Drug X 10 mg", "type": "experimental"}],
                "epochs": ["Screening"],
                "interventions": [
                    {
                        "name": "Drug X",
                        "role": "investigational",
                        "doses": ["10 mg"],
                        "route": "oral",
                        "frequency": "once daily",
                    }
                ],
                "population": {
                    "planned_enrollment": 120,
                    "min_age": 18,
                    "max_age": 75,
                    "sex": "both",
                    "healthy_volunteers": False,
                },
                "design": {"allocation": "randomized", "model": "parallel", "masking": "double blind"},
                "indication": "atopic dermatitis",
                "amendments": [{"number": "1"}, {"number": "2"}],
            }
        ),
        encoding="utf-8",
    )
    assert (
        design_benchmark.main(
            [
                "--corpus",
                str(corpus),
                "--gold",
                str(gold),
                "--usdm",
                str(tmp_path / "none"),
                "--parsed",
                str(parsed),
                "--keep",
                str(keep),
            ]
        )
        == 0
    )
    out = capsys.readouterr().out.splitlines()
    row = next(line for line in out if line.startswith("| X_Study.pdf"))
    # two arms, three epochs and three interventions exported against one of each; all else as the reference has it
    assert (
        row == "| X_Study.pdf | X_Study.design.json | 0.67 | 0.50 | 0.50 | 1.00 | 1.00 | 1.00 | 1.00 | 1.00 | 0.833 |"
    )
    assert any(line.startswith("| **mean** (1 documents)") for line in out)
    assert not any("Y_NoReference" in line for line in out)  # no reference: not listed
    assert (keep / "X_Study.usdm.json").is_file()
    with pytest.raises(SystemExit):
        design_benchmark.main(["--reread"])  # --reread needs --outputs
