"""categories: what a title, heading or intro sentence says about the criteria under it."""

import pytest

from clinparser.study.categories import EXCLUSION, INCLUSION, category_from_line, category_of, step_of


@pytest.mark.parametrize(
    "title, category",
    [
        ("Inclusion Criteria", INCLUSION),
        ("**Subject Exclusion Criteria**", EXCLUSION),
        ("Inclusion/Exclusion Criteria", None),
        ("Eligibility Criteria", None),
    ],
)
def test_category_of_a_title(title, category):
    assert category_of(title) == category


@pytest.mark.parametrize(
    "line, category",
    [
        ("Participants are eligible to be included in the study only if all of the following apply:", INCLUSION),
        ("Participants are excluded from the study if any of the following apply:", EXCLUSION),
        ("Subjects will not be eligible if they meet any of these criteria (excluded from inclusion):", EXCLUSION),
        ("The following applies:", None),
    ],
)
def test_category_from_an_intro_sentence(line, category):
    assert category_from_line(line) == category


def test_step_is_the_innermost_heading_that_names_one():
    assert step_of(["Open-Label Extension", "Inclusion Criteria"]) == "extension"
    assert step_of(["Run-in Period", "Criteria for Randomization"]) == "randomization"
    assert step_of(["Study Population", "Inclusion Criteria"]) is None
