"""phase: the printed forms of a study's phase and where it is taken from, read through
read_identity on hand-built documents."""

import pytest
from identity_builders import TITLE, block, node  # noqa: F401

from clinparser.study.identity import read_identity


@pytest.mark.parametrize(
    "printed, value",
    [
        ("Study Phase: Phase IIIa", "3"),
        ("Trial phase: 2b", "2"),
        ("Phase: IB/2", "1/2"),
        ("Clinical Phase: Phase I/II", "1/2"),
        ("Development Phase: 4", "4"),
        ("Study Phase: 2/3", "2/3"),
        ("Clinical phase: III", "3"),
    ],
)
def test_phase_forms(printed, value):
    doc = {
        "toc": [],
        "metadata": {},
        "non_toc": [node("", "Protocol Title: An Open-label Study of X in Y\n\n" + printed)],
    }
    identity, _ = read_identity(doc, [])
    assert identity["phase"]["value"] == value
    assert identity["phase"]["printed"].lower().startswith("phase")


def test_phase_from_title_when_not_labelled():
    doc = {"toc": [], "metadata": {}, "non_toc": [node("", "A Phase I/II, Open-label Study of X in Adults With Y")]}
    identity, _ = read_identity(doc, [])
    assert identity["phase"] == {"value": "1/2", "printed": "Phase I/II"}


def test_a_reference_list_outside_the_outline_is_not_read_for_the_phase():
    # No outline found: every node is outside it; the literature list cites another trial's phase.
    title_page = node(
        "Effects of Drugamab on Gastric Functions in Obesity", "Principal Investigator: A. Person", pages=(1, 1)
    )
    refs = node(
        "Literature Cited",
        "Smith A. Drugamab (CONQUER): a randomised, placebo-controlled, phase 3 trial. Lancet 2011;377:1341-1352",
        pages=(12, 12),
    )
    identity, _ = read_identity({"toc": [], "non_toc": [title_page, refs], "metadata": {}}, [])
    assert identity["phase"] == {"value": None, "printed": None}


def test_m11_title_page_trial_phase_field_wins_over_phase_in_prose():
    # The ICH M11 title page prints "Trial Phase:" as a labelled field (a two-column table, and
    # the same labels stacked over their values in the text); a phase named in the title or in
    # the synopsis prose ("the phase 2 study ...", "open-label extension phase") is not read.
    title = "A Phase 2 Study of Drug X in Patients with Mild to Moderate Disease"
    table = {
        "title": "",
        "page": 1,
        "pages": [1],
        "columns": ["Full Title:", title],
        "data": [["Sponsor Protocol Identifier:", "ABC-123"], ["Trial Phase:", "Phase 3"]],
    }
    title_page = node(
        "",
        "M11 Example\n\n[Table]\n\nFull Title:\n\nSponsor Protocol Identifier:\n\nABC-123\n\n"
        "Trial Phase:\n\nPhase 3\n\nShort Title:\n\nDrug X in Disease",
        pages=(1, 1),
        tables=[table],
    )
    synopsis = node(
        "Protocol Synopsis",
        "An earlier phase 2 study showed benefit; patients may enter an open-label extension phase.",
        pages=(3, 3),
        number="1.1",
    )
    identity, _ = read_identity({"toc": [synopsis], "non_toc": [title_page], "metadata": {}}, [])
    assert identity["phase"] == {"value": "3", "printed": "Phase 3"}
