"""Schedules of activities in the generated protocols, against what their generator knows.

protocol_007 (committed in examples/input) prints its schedule sideways over two pages: page 4
has the activity labels and visits 1-5, page 5 repeats the labels and every row and gives visits
6-9 and ET. The header has four rows (a Study Period row whose cells span their visits, Visit,
Study Day, Window), group rows stand above their activities, and marks and labels carry
superscript footnote markers explained below the table on each page. Its truth gives every
table a "schedule": the object a reader should attach to it in document.json, or null for a
table that is no schedule (see the generator's docstring).

The table is checked first (one table over both pages, every visit column and every row), then
its schedule object, key by key. protocol_001's truth predates schedules; its two-page schedule
(continued downwards) is checked against what its truth table says by construction.
"""

from __future__ import annotations

import json

import pytest
from conftest import ROOT
from scoring.tree import flatten
from test_example_e2e import _cells, _truth_nodes

from clinparser import PDFParser

INPUT = ROOT / "examples" / "input"
SCHEDULE_KEYS = [
    "name",
    "main",
    "kind",
    "label_column",
    "epochs",
    "encounters",
    "activities",
    "groups",
    "marks",
    "footnotes",
    "notes",
]


def _document(folder) -> dict:
    """document.json as written: the schedule contract is about that file."""
    return json.loads((folder / "document.json").read_text(encoding="utf-8"))


def parsed_example(name: str, tmp_path_factory) -> tuple[dict, dict]:
    """A committed example parsed: (its truth, its document.json)."""
    truth = json.loads((INPUT / f"{name}.truth.json").read_text(encoding="utf-8"))
    parser = PDFParser()
    parser.parse(INPUT / f"{name}.pdf", output_dir=tmp_path_factory.mktemp(name), save_images=False, save_report=False)
    return truth, _document(parser.last_output)


@pytest.fixture(scope="module")
def p007(tmp_path_factory):
    """protocol_007 parsed once: (truth, document.json)."""
    return parsed_example("protocol_007", tmp_path_factory)


def _paired_tables(truth: dict, document: dict) -> list[tuple[dict, dict]]:
    """(truth table, parsed table) pairs, section by section in printed order."""
    got = {n["number"]: n["tables"] for n in flatten(document["toc"])}
    pairs = []
    for node in _truth_nodes(truth):
        assert len(got[node["number"]]) == len(node["tables"]), node["number"]
        pairs += zip(node["tables"], got[node["number"]])
    return pairs


def _folded(value):
    """Whitespace folded in every string: a line break inside a PDF cell cannot be told from a
    wrap, so the truth says words, not lines."""
    if isinstance(value, str):
        return " ".join(value.split())
    if isinstance(value, list):
        return [_folded(v) for v in value]
    if isinstance(value, dict):
        return {k: _folded(v) for k, v in value.items()}
    return value


def _schedule_pair(truth: dict, document: dict) -> tuple[dict, dict]:
    (pair,) = [(want, have) for want, have in _paired_tables(truth, document) if want.get("schedule")]
    return pair


# --- protocol_007: the table ----------------------------------------------------------------------


def test_sideways_schedule_is_one_table_with_every_visit_column_and_every_row(p007):
    want, have = _schedule_pair(*p007)
    assert have["title"] == want["title"]
    assert have["pages"] == [want["pages"][0], want["pages"][-1]] and want["pages"] == [4, 5]
    assert len(have["columns"]) == len(want["columns"]) == 11  # the labels once, then 10 visits
    # Body rows as printed, footnote markers glued to their text ("Xb,e"): the label column
    # once, then page 4's visits, then page 5's.
    assert [_cells(row) for row in have["data"]] == want["data"]


def test_sideways_schedule_header_rows_are_joined_per_column(p007):
    """Each column's four header rows joined " / ", the spanning Study Period cell given to
    every visit under it ("Treatment" spans visits 2-5 on page 4 and 6-7 on page 5)."""
    want, have = _schedule_pair(*p007)
    assert _cells(have["columns"]) == want["columns"]


# --- protocol_007: the schedule object --------------------------------------------------------------


@pytest.mark.parametrize("key", SCHEDULE_KEYS)
def test_schedule_matches_the_truth(p007, key):
    want, have = _schedule_pair(*p007)
    assert "schedule" in have, "the schedule of activities has no schedule object"
    assert _folded(have["schedule"][key]) == want["schedule"][key]


def test_schedule_diagnostics_are_lines(p007):
    _, have = _schedule_pair(*p007)
    assert "schedule" in have, "the schedule of activities has no schedule object"
    diagnostics = have["schedule"]["diagnostics"]
    assert isinstance(diagnostics, list) and all(isinstance(d, str) and "\n" not in d for d in diagnostics)


def test_tables_that_are_no_schedule_have_no_schedule_key(p007):
    pairs = _paired_tables(*p007)
    plain = [have for want, have in pairs if want["schedule"] is None]
    assert [t["title"] for t in plain] == ["Table 2: Infusion Details"]
    assert all("schedule" not in t for t in plain)


# --- protocol_001: a schedule continued downwards -------------------------------------------------------


def _marked(row: list[str]) -> bool:
    """An activity row of protocol_001's schedule: only "X" or blank after the label, one X at
    least (its first row gives the visit days and is no activity)."""
    return "X" in row[1:] and set(row[1:]) <= {"X", ""}


def _expected_001(table: dict) -> dict:
    """What protocol_001's truth table says of its schedule: no epochs, groups or footnotes are
    printed; one encounter per visit column, no time points; the activities are the marked
    rows; no notes rows."""
    rows = [(r, row) for r, row in enumerate(table["data"]) if _marked(row)]
    return {
        "name": table["title"],
        "main": True,
        "kind": "main",
        "label_column": 0,
        "epochs": [],
        "groups": [],
        "footnotes": [],
        "notes": [],
        "activities": [{"label": row[0], "row": r, "group": None, "footnotes": []} for r, row in rows],
        "marks": [
            {"activity": a, "encounter": c - 1, "text": "X", "footnotes": [], "timepoints": []}
            for a, (_, row) in enumerate(rows)
            for c, cell in enumerate(row)
            if c and cell == "X"
        ],
    }


def test_downward_schedule_of_protocol_001_matches_its_truth_table(example, example_run):
    _, truth = example
    _, folder = example_run
    pairs = _paired_tables(truth, _document(folder))
    soa = [(want, have) for want, have in pairs if want["title"] == "Table 1: Schedule of Activities"]
    ((want, have),) = soa
    assert want["pages"] == [4, 5]  # the fixture's promise: split once, downwards
    assert "schedule" in have, "the schedule of activities has no schedule object"
    schedule = _folded(have["schedule"])
    expected = _expected_001(want)
    assert {k: schedule[k] for k in expected} == expected
    # The printed visit headers ("Screening", "Week 2") leave timing to the reader; their
    # columns and the absence of epochs do not.
    assert [(e["column"], e["epoch"]) for e in schedule["encounters"]] == [
        (c, None) for c in range(1, len(want["columns"]))
    ]
    for want_other, have_other in pairs:
        if want_other is not want:
            assert "schedule" not in have_other, want_other["title"]


def test_the_schedule_exports_to_usdm_and_validates(p007):
    from pathlib import Path

    from clinparser.export.usdm import schema_validator, study_design, to_usdm, usdm_errors

    api = Path(__file__).resolve().parents[3] / "shared" / "usdm" / "USDM_API.json"
    if not api.is_file():
        pytest.skip(f"USDM v4.0 API specification not available: {api} is missing (CI has ../shared/usdm)")
    truth, document = p007
    usdm = to_usdm(document)
    design = study_design(usdm)
    (schedule,) = [t["schedule"] for n in flatten(document["toc"]) for t in n["tables"] if t.get("schedule")]
    assert len(design["encounters"]) == len(schedule["encounters"])
    assert len(design["epochs"]) == len(schedule["epochs"])
    (timeline,) = design["scheduleTimelines"]
    marked = sorted(
        len({m["activity"] for m in schedule["marks"] if m["encounter"] == e})
        for e in range(len(schedule["encounters"]))
    )
    instances = [i for i in timeline["instances"] if i["instanceType"] == "ScheduledActivityInstance"]
    assert sorted(len(i["activityIds"]) for i in instances) == marked
    assert usdm_errors(usdm, schema_validator(api)) == []
