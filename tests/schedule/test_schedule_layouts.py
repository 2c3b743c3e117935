"""examples/schedule_layouts.py: randomized schedule-of-activities layouts with exact truth.

Cheap tests of the generator (no parse): the same seed gives the same PDF byte for byte; every
variation of ``FORMS`` is chosen by some seed of 0..199; the truth is consistent (indexes in
range, one encounter per visit column, one activity per activity row, each family of variation
recorded once, pages within the document) and agrees with the PDF's text layer (every activity
and header cell printed on the timeline's pages).

Then a sample of seeds covering the main variations, each parsed once and scored against its
truth by the judging scorer (``../shared/tools/soa_score.py``, run as it is, as
``benchmarks/schedule_layouts.py`` does): activities, encounters and cells F1 at least 0.98.
These measure the schedule reader; one that fails says which layout it does not read yet.
"""

from __future__ import annotations

import re

import pymupdf
import pytest
from conftest import CORPUS, ROOT
from helpers import load_module

SCORER = CORPUS.parent / "tools" / "soa_score.py"
SEEDS = range(200)
# parsed and scored: together they have every variation of SAMPLE_COVERS
SAMPLE = [176, 134, 33, 5, 0, 14]
SAMPLE_COVERS = {
    "header.rows1",
    "header.rows2",
    "header.rows3",
    "header.epoch",
    "header.visit_day",
    "header.window_row",
    "header.window_cell",
    "header.rowspan",
    "header.footnotes",
    "header.labels_each",
    "header.label_merged",
    "notes.column",
    "groups.rows",
    "groups.column",
    "groups.none",
    "marks.x",
    "marks.check",
    "marks.bullet",
    "marks.letters",
    "marks.words",
    "marks.arrow_line",
    "marks.arrow_text",
    "marks.merged",
    "footnotes.marks",
    "footnotes.labels",
    "legend.row",
    "split.none",
    "split.down_repeat",
    "split.down_plain",
    "split.sideways",
    "page.portrait",
    "page.landscape",
    "page.rotated",
    "pk.none",
    "pk.table",
}


gen = load_module("schedule_layouts", ROOT / "examples" / "schedule_layouts.py")


@pytest.fixture(scope="module")
def layouts():
    """seed -> (protocol, truth) for seeds 0..199 (composed and paginated, not drawn)."""
    return {seed: gen.layout(seed) for seed in SEEDS}


def test_the_same_seed_gives_the_same_pdf(tmp_path):
    for seed in (3, 10):  # rotated pages, sideways split, ✓ and ←→ glyphs (embedded subsets)
        first = gen.build_layout(seed, tmp_path / "a" / f"{seed}.pdf")
        second = gen.build_layout(seed, tmp_path / "b" / f"{seed}.pdf")
        assert first == second
        assert (tmp_path / "a" / f"{seed}.pdf").read_bytes() == (tmp_path / "b" / f"{seed}.pdf").read_bytes()


def test_every_variation_is_reachable(layouts):
    seen = {form for _, truth in layouts.values() for form in truth["forms"]}
    assert seen == set(gen.FORMS), sorted(set(gen.FORMS) - seen)


def test_each_family_is_recorded_once_and_forms_are_known(layouts):
    one_of = [
        r"header\.rows\d",
        r"header\.window_",
        r"header\.label",
        r"notes\.",
        r"groups\.",
        r"split\.",
        r"page\.",
        r"pk\.",
    ]
    for seed, (_, truth) in layouts.items():
        assert set(truth["forms"]) <= set(gen.FORMS), seed
        assert truth["forms"] == sorted(set(truth["forms"])), seed
        for family in one_of:
            assert sum(bool(re.match(family, f)) for f in truth["forms"]) == 1, (seed, family, truth["forms"])
        glyphs = [f for f in truth["forms"] if f in ("marks.x", "marks.check", "marks.bullet", "marks.letters")]
        assert len(glyphs) == 1, (seed, truth["forms"])
        assert ("footnotes.none" in truth["forms"]) != any(
            f in truth["forms"] for f in ("footnotes.marks", "footnotes.labels")
        ), seed


def test_the_truth_is_consistent(layouts):
    for seed, (spec, truth) in layouts.items():
        tables = gen._tables(spec)
        timelines = truth["timelines"]
        assert 2 <= truth["pages"] <= gen.MAX_PAGES, seed
        assert len(timelines) == len(tables) == (2 if "pk.table" in truth["forms"] else 1), seed
        assert [t["main"] for t in timelines] == [True] + [False] * (len(timelines) - 1), seed
        for table, tl in zip(tables, timelines):
            assert tl["name"] == table.title and tl["name"], seed
            # one encounter per visit column, one activity per activity row
            assert len(tl["encounters"]) == table.n_visits, seed
            assert all(len(row.cells) == table.n_visits for row in table.activities()), seed
            assert len(tl["activities"]) == sum(not r.group for r in table.rows), seed
            assert all(e.strip() and " / /" not in e for e in tl["encounters"]), (seed, tl["encounters"])
            assert len({gen.norm(e) for e in tl["encounters"]}) == len(tl["encounters"]), (seed, tl["encounters"])
            marks = [tuple(m) for m in tl["marks"]]
            assert len(set(marks)) == len(marks), seed
            assert all(0 <= a < len(tl["activities"]) and 0 <= e < len(tl["encounters"]) for a, e in marks), seed
            assert {a for a, _ in marks} == set(range(len(tl["activities"]))), seed  # every activity is done somewhere
            assert tl["pages"] == sorted(tl["pages"]) and 1 <= tl["pages"][0] and tl["pages"][-1] <= truth["pages"], (
                seed
            )
            split = next(f for f in truth["forms"] if f.startswith("split."))
            if tl["main"]:
                assert len(tl["pages"]) == (1 if split == "split.none" else 2), (seed, split, tl["pages"])
        # no two activities of the document the scorer could take for one another
        labels = [a for tl in timelines for a in tl["activities"]]
        for i, a in enumerate(labels):
            assert not any(gen.too_close(a, b) for b in labels[i + 1 :]), (seed, a)


def _page_words(doc: pymupdf.Document, pages: list[int]) -> set[str]:
    return {w[4] for p in pages for w in doc[p - 1].get_text("words")}


@pytest.mark.parametrize("seed", [0, 3, 4, 10, 33, 134])
def test_the_pdf_prints_what_the_truth_says(seed, tmp_path):
    """Each activity label and each encounter's header cells are in the text layer of the
    timeline's pages (footnote letters glued to a word are allowed: "Vital signsb"); the
    marks count is the truth's number of printed mark cells plus the columns their spans
    cover."""
    pdf = tmp_path / f"layout_{seed}.pdf"
    truth = gen.build_layout(seed, pdf)
    with pymupdf.open(pdf) as doc:
        assert doc.page_count == truth["pages"]
        for tl in truth["timelines"]:
            words = _page_words(doc, tl["pages"])
            text = " ".join(sorted(words))
            for label in tl["activities"] + [p for e in tl["encounters"] for p in e.split(" / ")]:
                for word in label.split():
                    assert word in words or any(w.startswith(word) for w in words), (seed, label, word, text[:300])
        rotated = [p.number + 1 for p in doc if p.rotation]
        if "page.rotated" in truth["forms"]:
            assert set(truth["timelines"][0]["pages"]) <= set(rotated)
        else:
            assert not rotated


def test_the_benchmark_reads_the_scorer_as_benchmarks_schedule_does():
    bench = load_module("schedule_layouts_benchmark", ROOT / "benchmarks" / "schedule_layouts.py")
    line = (
        "activities_f1=1.000 encounters_f1=0.950 cells_f1=0.900 "
        "(gold 3 activities, 4 encounters, 5 cells; ours 3, 4, 6)"
    )
    assert bench.soa_line(line) == {"a": 1.0, "e": 0.95, "c": 0.9, "ga": 3, "ge": 4, "gc": 5, "oa": 3, "oe": 4, "oc": 6}
    assert bench.generator is gen


def test_the_parse_sample_covers_the_main_variations(layouts):
    covered = {f for seed in SAMPLE for f in layouts[seed][1]["forms"]}
    assert SAMPLE_COVERS <= covered, sorted(SAMPLE_COVERS - covered)


_scored: dict[int, dict] = {}


@pytest.fixture(scope="module")
def scored(tmp_path_factory):
    """seed -> the benchmark's measure of it (generated, parsed, exported, scored), each seed
    once per test process."""
    if not SCORER.is_file():
        pytest.skip(f"judging scorer missing: {SCORER} (CI has ../shared/tools)")
    bench = load_module("schedule_layouts_benchmark", ROOT / "benchmarks" / "schedule_layouts.py")
    assert bench.SCORER.resolve() == SCORER.resolve()

    def run(seed: int) -> dict:
        if seed not in _scored:
            _scored[seed] = bench.measure(seed, tmp_path_factory.mktemp(f"layout_{seed}"), verbose=True)
        return _scored[seed]

    return run


@pytest.mark.parametrize("seed", SAMPLE)
def test_the_reader_reads_the_sample_layouts(scored, seed):
    row = scored(seed)
    assert not row["error"], row["error"]
    f = row["figures"]
    why = (
        f"seed {seed} ({', '.join(row['forms'])}): activities {f['a']:.3f} encounters {f['e']:.3f} "
        f"cells {f['c']:.3f}; ours {f['oa']}/{f['oe']}/{f['oc']}, truth {f['ga']}/{f['ge']}/{f['gc']}\n"
        + "\n".join(row["lines"])
    )
    assert f["c"] >= 0.98, why
    assert f["a"] >= 0.98, why
    assert f["e"] >= 0.98, why
