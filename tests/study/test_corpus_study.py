"""The study definition of the real protocols, scored as the project is judged: the USDM export
run through ``../shared/tools/study_score.py`` against the hand-made references (and the published
USDM of Alexion). The parses are the session's shared ones (``corpus_run``)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from conftest import CORPUS

from clinparser.export.usdm import to_usdm

SCORER = CORPUS.parent / "tools" / "study_score.py"
REFERENCES = (
    sorted(p.name.removesuffix(".study.json") for p in (CORPUS / "study").glob("*.study.json"))
    if CORPUS.is_dir()
    else []
)


def score(result: dict, gold, tmp_path) -> dict:
    """The scorer's figures for our export: {"eligibility": (p, r, f1, n, n), ..., "identifiers": x, ...}."""
    if not SCORER.exists():
        pytest.skip(f"scoring tool missing: {SCORER} (CI has ../shared/tools)")
    ours = tmp_path / "usdm.json"
    ours.write_text(json.dumps(to_usdm(result)), encoding="utf-8")
    code = (
        f"import json, sys; sys.path.insert(0, {str(SCORER.parent)!r}); import study_score as s; "
        f"print(json.dumps(s.score(s.load({str(ours)!r}), s.load({str(gold)!r}))))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


@pytest.mark.corpus
@pytest.mark.parametrize("name", REFERENCES or ["no-references"])
def test_hand_made_references_are_met(corpus_run, name, tmp_path):
    if not REFERENCES:
        pytest.skip(f"study references not available: {CORPUS / 'study'} is missing (CI has ../shared/corpus)")
    result, _ = corpus_run(f"{name}.pdf")
    got = score(result, CORPUS / "study" / f"{name}.study.json", tmp_path)
    assert got["eligibility"][2] >= 0.97, got
    assert got["identifiers"] == 1.0, got
    assert got["phase"] in (None, 1.0), got
    assert got["objectives"][2] >= 0.85 and got["endpoints"][2] >= 0.8, got


@pytest.mark.corpus("Alexion_NCT04573309_Wilsons.pdf")
def test_published_usdm_eligibility_is_met(corpus_run, tmp_path):
    gold = CORPUS.parent / "usdm" / "Alexion_NCT04573309_Wilsons.usdm.json"
    if not gold.exists():
        pytest.skip(f"published USDM missing: {gold}")
    result, _ = corpus_run("Alexion_NCT04573309_Wilsons.pdf")
    got = score(result, gold, tmp_path)
    assert got["eligibility"][2] >= 0.97 and got["objectives"][2] >= 0.97 and got["endpoints"][2] >= 0.97, got
