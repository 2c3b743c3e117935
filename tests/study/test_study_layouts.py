"""The study definition read from generated layouts equals their truth; the generator is sound.

``examples/study_layouts.py`` turns a seed into a small protocol whose objectives, endpoints and
eligibility criteria are printed in one randomly chosen variation of each family of forms
(objectives tables, headed lists, lead-in lists, endpoints printed apart, an unlevelled single
objective, criteria layouts) and knows their truth. A fixed sample of seeds, chosen so that every
family (and most variations) appears, is generated and parsed once each (module-scoped); the
reader's objectives, endpoints and criteria are compared with the truth exactly: a failure is a
form the reader does not handle yet, not a tolerance to tune.

The generator itself is tested cheaply: the same seed gives the same bytes, every variation is
reachable over seeds 0..199, and every truth is internally consistent and printed in its PDF.
``benchmarks/study_layouts.py`` runs the same comparison, scored, over hundreds of seeds.
"""

from __future__ import annotations

import re
from pathlib import Path

import pymupdf
import pytest
from helpers import load_module

# Under pytest-xdist (--dist loadgroup) the module runs in one worker: each layout is parsed once.
pytestmark = pytest.mark.xdist_group("study_layouts")

ROOT = Path(__file__).resolve().parents[2]
# Chosen (greedily, over seeds 0..199) to show every family and 64 of the 70 variations.
SAMPLE = (1, 2, 6, 14, 25, 37, 41, 101, 122, 168)
REACH = range(200)


@pytest.fixture(scope="module")
def layouts():
    return load_module("study_layouts", ROOT / "examples" / "study_layouts.py")


@pytest.fixture(scope="module")
def compositions(layouts):
    """Seed -> composition (spec, truth, forms) for seeds 0..199; no PDF is written."""
    return {seed: layouts.compose(seed) for seed in REACH}


@pytest.fixture(scope="module", params=SAMPLE, ids=[f"seed{s}" for s in SAMPLE])
def parsed(request, tmp_path_factory, layouts):
    """(seed, truth, pdf path, the study block read from the parse)."""
    from clinparser import PDFParser

    seed = request.param
    folder = tmp_path_factory.mktemp(f"layout{seed}")
    pdf = folder / f"layout_{seed:04d}.pdf"
    truth = layouts.build_layout(seed, pdf)
    result = PDFParser(workers=1).parse(
        pdf, output_dir=folder / "out", save_images=False, save_table_csv=False, save_report=False
    )
    return seed, truth, pdf, result["study"]


# --- the generator ---------------------------------------------------------------------------


def test_sample_shows_every_family(compositions, layouts):
    shown = {layouts.family_of(f) for s in SAMPLE for f in compositions[s].forms}
    assert shown == set(layouts.FAMILIES)


def test_every_variation_is_reachable(compositions, layouts):
    seen = {f for c in compositions.values() for f in c.forms}
    assert seen <= set(layouts.FORMS)
    assert sorted(set(layouts.FORMS) - seen) == []
    assert {layouts.family_of(f) for f in seen} == set(layouts.FAMILIES)


def test_same_seed_same_bytes(tmp_path, layouts):
    a = layouts.build_layout(7, tmp_path / "a.pdf")
    b = layouts.build_layout(7, tmp_path / "b.pdf")
    assert (tmp_path / "a.pdf").read_bytes() == (tmp_path / "b.pdf").read_bytes()
    assert a == b
    c = layouts.build_layout(8, tmp_path / "c.pdf")
    assert (tmp_path / "c.pdf").read_bytes() != (tmp_path / "a.pdf").read_bytes()
    assert c["study"] != a["study"]


def test_layout_is_the_composition(layouts):
    spec, study = layouts.layout(3)
    c = layouts.compose(3)
    assert study == c.study and spec.title == c.spec.title and spec.number == c.spec.number


_LEVELS = ("primary", "secondary", "exploratory")
_LABEL = re.compile(
    r"^(?:key\s+)?(?:primary|secondary|tertiary|exploratory|other)\b"
    r"(?:\s+(?:objectives?|endpoints?)(?:\(s\))?)?\s*:",
    re.IGNORECASE,
)


def _normal(text: str) -> bool:
    return all(line == " ".join(line.split()) and line for line in text.split("\n"))


@pytest.mark.parametrize("chunk", range(4))
def test_truth_is_consistent(compositions, chunk):
    for seed in list(REACH)[chunk::4]:
        c = compositions[seed]
        study, forms = c.study, c.forms
        objectives, criteria = study["objectives"], study["eligibility"]
        where = f"seed {seed}"
        assert objectives and criteria, where
        # Objectives: levels in order, texts as printed without glyph or label, each once.
        levels = [o["level"] for o in objectives]
        assert set(levels) <= set(_LEVELS), where
        assert levels == sorted(levels, key=_LEVELS.index), where
        assert levels[0] == "primary", where
        texts = [o["text"] for o in objectives]
        assert len(set(texts)) == len(texts), where
        for o in objectives:
            assert _normal(o["text"]) and "\n" not in o["text"], (where, o["text"])
            assert not o["text"].startswith("\u2022") and not _LABEL.match(o["text"]), (where, o["text"])
            for e in o["endpoints"]:
                assert e["level"] in _LEVELS and _normal(e["text"]), (where, e)
                assert not e["text"].startswith("\u2022") and not _LABEL.match(e["text"]), (where, e)
                if "single.endpoints.with_secondary" not in forms:
                    assert e["level"] == o["level"], (where, o["text"], e)
        endpoints = [e["text"] for o in objectives for e in o["endpoints"]]
        assert len(set(endpoints)) == len(endpoints), where
        if any(f.startswith("single.") for f in forms):
            assert len(objectives) == 1 and objectives[0]["level"] == "primary", where
            assert objectives[0]["endpoints"], where
        if any(f.startswith("table.") for f in forms):
            assert all(o["endpoints"] for o in objectives), where
        # Criteria: inclusion then exclusion; identifiers as printed, numbers counting up.
        categories = [c["category"] for c in criteria]
        assert categories == sorted(categories, key=("inclusion", "exclusion").index), where
        assert {"inclusion", "exclusion"} == set(categories), where
        for category in ("inclusion", "exclusion"):
            ids = [c["identifier"] for c in criteria if c["category"] == category]
            if None in ids:
                assert set(ids) == {None}, where  # a bulleted list has no numbers at all
                continue
            numbers = [int(re.match(r"\d+", i)[0]) for i in ids]
            assert numbers == list(range(numbers[0], numbers[0] + len(numbers))), (where, ids)
        for crit in criteria:
            assert _normal(crit["text"]), (where, crit["text"])
            for line in crit["text"].split("\n")[1:]:
                assert re.match(r"(?:\(?[a-z]+[.)]|Note:) ", line), (where, line)
        assert len({c["text"] for c in criteria}) == len(criteria), where


def test_truth_is_printed(parsed):
    """Every line of the truth is in the PDF's text layer (cells and wrapped lines joined)."""
    seed, truth, pdf, _ = parsed
    with pymupdf.open(pdf) as doc:
        text = " ".join(page.get_text("text", clip=pymupdf.Rect(0, 50, 612, 742)) for page in doc)
    text = " ".join(text.split()).replace("\u2022 ", "")
    study = truth["study"]
    lines = [line for c in study["eligibility"] for line in c["text"].split("\n")]
    lines += [t for o in study["objectives"] for t in [o["text"]] + [e["text"] for e in o["endpoints"]]]
    assert [line for line in lines if line not in text] == []


# --- the reader on the sample ----------------------------------------------------------------


def test_objectives(parsed):
    _, truth, _, study = parsed
    assert [(o["level"], o["text"]) for o in study["objectives"]] == [
        (o["level"], o["text"]) for o in truth["study"]["objectives"]
    ]


def test_endpoints(parsed):
    """Each objective's endpoints (level, text) under it, in order."""
    _, truth, _, study = parsed
    assert [[(e["level"], e["text"]) for e in o.get("endpoints") or []] for o in study["objectives"]] == [
        [(e["level"], e["text"]) for e in o["endpoints"]] for o in truth["study"]["objectives"]
    ]


def test_criteria(parsed):
    _, truth, _, study = parsed
    assert [(c["category"], c["text"]) for c in study["eligibility"]] == [
        (c["category"], c["text"]) for c in truth["study"]["eligibility"]
    ]


def test_criteria_identifiers(parsed):
    _, truth, _, study = parsed
    assert [(c["category"], c["identifier"]) for c in study["eligibility"]] == [
        (c["category"], c["identifier"]) for c in truth["study"]["eligibility"]
    ]
