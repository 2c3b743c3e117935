"""What kind of timeline a schedule is."""

import pytest

from clinparser.schedule.kinds import caption_kind, timeline_kind


@pytest.mark.parametrize(
    "caption, kind",
    [
        ("Table 1: Schedule of Activities", None),
        ("Table 3: Pharmacokinetic Sampling Schedule", "pk_pd"),
        ("Schedule of PK/PD and Biomarker Assessments", "pk_pd"),
        ("Table 4 Open-Label Extension Schedule of Assessments", "extension"),
        ("Second Course Phase (Retreatment with Pembrolizumab)", "extension"),
        ("Schedule of Activities: Follow-up Period", "follow_up"),
        ("Schedule of Activities: Screening, Treatment and Follow-up", None),  # the study as a whole
        ("Table 9: Schedule of Events – Main Study – Extended Visit Cycle", None),  # "extended" cycles, no extension
    ],
)
def test_the_caption_names_the_kind(caption, kind):
    assert caption_kind(caption) == kind


def test_columns_that_are_all_hours_make_a_sampling_timeline():
    hours = [{"timing": {"unit": "hour", "from": h, "to": h, "cycle": None}, "timepoints": []} for h in (0, 1, 2)]
    assert timeline_kind("Table 2", hours) == "pk_pd"
    days = [{"timing": {"unit": "day", "from": d, "to": d, "cycle": None}, "timepoints": []} for d in (1, 8)]
    assert timeline_kind("Table 2", days) is None
