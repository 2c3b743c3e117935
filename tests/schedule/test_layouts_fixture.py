"""protocol_011 (committed in examples/input): schedules as other sponsors print them, parsed
end to end and compared with what the generator knows, key by key.

Table 1 (the main schedule) has a five-row header: Study Period and Cycle cells spanning their
visits, Day, a Window row only some visits fill, and a Time point row giving Cycle 1 Day 1 three
columns (SOI, EOI, 4 h); a Comments column of prose; two notes rows across the grid under the
body ("Note: ...", "Abbreviations: ..."); its rows continue onto the next page under the
repeated header. Table 2 is a second timeline: PK sampling time points under their days ("Day
22" spanning two columns at the right edge of the grid).

What the truth says: the comments column is no visit; the notes rows are notes, not
activities; the three time-point columns of Cycle 1 Day 1 are one encounter listing them, and
each mark says at which time points it is made; each encounter has its short label ("Cycle 1 /
D1" where "D1" alone would not tell the cycles apart); the second timeline is "pk_pd", its time
points its encounters.
"""

from __future__ import annotations

import pytest
from test_schedule_fixture import SCHEDULE_KEYS, _folded, _paired_tables, parsed_example


@pytest.fixture(scope="module")
def p011(tmp_path_factory):
    """protocol_011 parsed once: (truth, document.json)."""
    return parsed_example("protocol_011", tmp_path_factory)


def _schedules(truth, document):
    pairs = [(want, have) for want, have in _paired_tables(truth, document) if want.get("schedule")]
    assert [w["title"] for w, _ in pairs] == [
        "Table 1: Schedule of Activities",
        "Table 2: Schedule of Pharmacokinetic Sampling",
    ]
    return pairs


@pytest.mark.parametrize("which", [0, 1])
@pytest.mark.parametrize("key", SCHEDULE_KEYS)
def test_schedule_matches_the_truth(p011, which, key):
    want, have = _schedules(*p011)[which]
    assert "schedule" in have, f"{want['title']}: no schedule object"
    assert _folded(have["schedule"][key]) == want["schedule"][key]


def test_the_page_split_schedule_is_one_table_with_every_row(p011):
    want, have = _schedules(*p011)[0]
    assert want["pages"] == [3, 4] and have["pages"] == [3, 4]
    assert len(have["data"]) == len(want["data"])


def test_the_reader_says_what_it_left_out_and_what_it_joined(p011):
    (_, main), (_, pk) = _schedules(*p011)
    said = main["schedule"]["diagnostics"]
    assert any("'Comments'" in d and "not a visit" in d for d in said)
    assert sum("notes or legend row" in d for d in said) == 2
    assert any("time points within visit 'Treatment / Cycle 1 / D1'" in d for d in said)
    assert any("sampling timeline" in d for d in pk["schedule"]["diagnostics"])


def test_usdm_labels_are_the_short_labels_and_the_kind_describes_the_timeline(p011):
    from clinparser.export.usdm import study_design, to_usdm

    _, document = p011
    design = study_design(to_usdm(document))
    labels = [e["label"] for e in design["encounters"]]
    assert labels[:8] == [
        "Screening",
        "Cycle 1 / D1",
        "Cycle 1 / D8",
        "Cycle 2 / D1",
        "Cycle 2 / D8",
        "EOT",
        "FU",
        "Day 1 / Predose",
    ]
    assert design["encounters"][1]["name"] == "Treatment / Cycle 1 / D1"
    assert "Time points: SOI, EOI, 4 h" in design["encounters"][1]["description"]
    assert [t["description"] for t in design["scheduleTimelines"]] == ["Main timeline", "PK/PD sampling timeline"]
    assert [t["mainTimeline"] for t in design["scheduleTimelines"]] == [True, False]
