"""The study definition of the real protocols, scored as the project is judged: the USDM export
run through ``../shared/tools/study_score.py`` against the hand-made references (and the published
USDM of Alexion). The parses are the session's shared ones (``corpus_run``)."""

from __future__ import annotations

import pytest
from conftest import CORPUS
from helpers import score_export

SCORER = CORPUS.parent / "tools" / "study_score.py"
REFERENCES = (
    sorted(p.name.removesuffix(".study.json") for p in (CORPUS / "study").glob("*.study.json"))
    if CORPUS.is_dir()
    else []
)


@pytest.mark.corpus
@pytest.mark.parametrize("name", REFERENCES or ["no-references"])
def test_hand_made_references_are_met(corpus_run, name, tmp_path):
    if not REFERENCES:
        pytest.skip(f"study references not available: {CORPUS / 'study'} is missing (CI has ../shared/corpus)")
    result, _ = corpus_run(f"{name}.pdf")
    got = score_export(SCORER, result, CORPUS / "study" / f"{name}.study.json", tmp_path)
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
    got = score_export(SCORER, result, gold, tmp_path)
    assert got["eligibility"][2] >= 0.97 and got["objectives"][2] >= 0.97 and got["endpoints"][2] >= 0.97, got
