"""Allocation, model, masking and ratio from the title and the design fields."""

import pytest

from clinparser.study.design.fields import Field
from clinparser.study.design.kind import read_kind
from clinparser.study.trace import Tracer

NO_TRACE = Tracer([])


def design(text):
    return [Field("Study Design", text, "1.1", (3, 3), True, "paragraph")]


def values(out):
    return {k: (v or {}).get("value") for k, v in out.items()}


def test_the_title_states_the_kind_and_the_design_field_the_ratio():
    title = {
        "text": "A Randomized, Double-blind, Placebo-controlled, Parallel-group Study of Drug X in Adults",
        "page": 1,
    }
    out, notes = read_kind(
        design("Participants will be randomized in a 2:1 ratio to Drug X or placebo."), title, [], NO_TRACE
    )
    assert values(out) == {"masking": "double blind", "allocation": "randomized", "model": "parallel", "ratio": "2:1"}
    assert notes == []


@pytest.mark.parametrize(
    "sentence, ratio",
    [
        ("Approximately 1800 participants will be randomized 1:1:1:1 to 1 of the 3 drug arms or placebo.", "1:1:1:1"),
        ("Participants will be randomly assigned in a [1:1:1:1] ratio to receive study intervention.", "1:1:1:1"),
        ("Subjects are randomized in a 2 : 2 : 1 ratio.", "2:2:1"),
        ("Randomized 3:1, stratified by region (95% CI 1.2:3.4 excluded).", "3:1"),
    ],
)
def test_a_ratio_of_any_number_of_groups(sentence, ratio):
    out, _ = read_kind(design(sentence), None, [], NO_TRACE)
    assert values(out)["ratio"] == ratio


def test_places_that_disagree_are_a_diagnostic_and_the_first_wins():
    title = {"text": "An Open-label Study of Drug X", "page": 1}
    out, notes = read_kind(design("This double-blind study ..."), title, [], NO_TRACE)
    assert values(out)["masking"] == "open label"
    assert [n["kind"] for n in notes] == ["design_masking_disagrees"]


def test_a_model_not_printed_follows_from_the_arms_and_says_so():
    out, notes = read_kind(design("Participants receive Drug X."), None, [{"name": "A"}, {"name": "B"}], NO_TRACE)
    assert values(out)["model"] == "parallel" and "design_model_inferred" in [n["kind"] for n in notes]
    out, _ = read_kind(design("Participants who cross over to open-label treatment"), None, [], NO_TRACE)
    assert values(out)["model"] is None  # "cross over" to another treatment is no crossover design


def test_a_single_arm_study_is_single_group_and_non_randomized():
    out, _ = read_kind(design("This is a single-arm, open-label study."), None, [], NO_TRACE)
    assert values(out) == {
        "masking": "open label",
        "allocation": "non-randomized",
        "model": "single group",
        "ratio": None,
    }


def test_an_uncontrolled_disease_is_no_single_group_design():
    title = {"text": "A Randomized Crossover Study of Drug X in Participants with Uncontrolled Hypertension", "page": 1}
    out, _ = read_kind([], title, [{"name": "Sequence AB"}, {"name": "Sequence BA"}], NO_TRACE)
    assert values(out)["model"] == "crossover"
    out, _ = read_kind(design("This is an uncontrolled, open-label study of Drug X."), None, [], NO_TRACE)
    assert values(out)["model"] == "single group"


@pytest.mark.parametrize(
    "text, model",
    [
        ("This is a Phase 1, fixed sequence, open-label study in healthy participants.", "single group"),
        ("An open-label, single-sequence study of the effect of Drug X on Drug Y.", "single group"),
        ("A randomized, two-sequence crossover study.", "crossover"),
        ("A single-sequence crossover design in 12 participants.", "crossover"),  # the crossover it says
        ("This is a non-randomized trial. All comparisons will be made using historical data.", "single group"),
        ("A historically controlled, open-label study of Drug X.", "single group"),
    ],
)
def test_a_fixed_sequence_study_is_single_group(text, model):
    out, _ = read_kind(design(text), None, [], NO_TRACE)
    assert values(out)["model"] == model


def test_unblinding_and_one_arm_of_several_say_nothing_of_masking_or_model():
    out, _ = read_kind(
        design(
            "Every attempt will be made to minimize the number of people unblinded. Further enrollment "
            "into one arm may be discontinued."
        ),
        None,
        [],
        NO_TRACE,
    )
    assert values(out)["masking"] is None and values(out)["model"] is None
    out, _ = read_kind(design("This is an unblinded study in a one-arm design."), None, [], NO_TRACE)
    assert values(out)["masking"] == "open label" and values(out)["model"] == "single group"


def test_a_design_the_sentence_rules_out_is_not_the_design():
    out, _ = read_kind(
        design(
            "A cross-over of treatment groups after disease progression will not be allowed. "
            "Participants are randomized to one of two parallel groups."
        ),
        None,
        [],
        NO_TRACE,
    )
    assert values(out)["model"] == "parallel"


def test_an_extension_trials_parent_trial_and_a_randomisation_not_applicable():
    fields = [
        Field(
            "Trial Design",
            "The purpose of this trial is to offer the option to all patients who completed the "
            "randomized phase III trial 1199.32 or 1199.34 to receive treatment. The aim is treatment "
            "continuation; therefore, randomization, blinding and use of placebo would not be appropriate.",
            "3.2",
            (20, 20),
            False,
            "section",
        ),
        Field("RANDOMISATION", "Not applicable as this is an extension trial.", "7.6", (47, 47), False, "section"),
    ]
    out, _ = read_kind(fields, None, [], NO_TRACE)
    assert values(out)["allocation"] == "non-randomized"
    # the study's own design is still read where a sentence states it
    own, _ = read_kind(
        design("This randomized, double-blind study enrolls 300 patients from the parent study."), None, [], NO_TRACE
    )
    assert values(own)["allocation"] == "randomized" and values(own)["masking"] == "double blind"


def test_dose_escalation_is_a_sequential_design_only_when_the_study_is_one():
    out, _ = read_kind(design("This is a dose escalation study in sequential cohorts."), None, [], NO_TRACE)
    assert values(out)["model"] == "sequential"
    for text in (
        # a titration in a run-in period, and another study's design
        "Visits every 2nd week during dose escalation (run-in period).",
        "Based on data from the completed dose escalation study with Drug X, the subset will respond.",
    ):
        out, _ = read_kind(design(text), None, [], NO_TRACE)
        assert values(out)["model"] is None, text


def test_a_blinded_study_blinding_participants_and_staff_is_double_blind():
    text = (
        "This is a randomized, blinded, placebo-controlled trial. The pharmacist is not blinded. "
        "Blinding of the participant and clinical staff is achieved by a sleeve over the infusion bags."
    )
    assert values(read_kind(design(text), None, [], NO_TRACE)[0])["masking"] == "double blind"
    # only the pharmacist's or only the staff's blinding, none, or one side only: not said
    for text in (
        "A blinded trial. The pharmacist will be unblinded; all other study staff will be blinded.",
        "Participants and investigators will not be blinded.",
        "Neither the participants nor the investigators will be blinded.",
        "The outcome assessors will be blinded; participants and treating clinicians will know the allocation.",
        "In an emergency the investigator may break the blinding for a participant and the clinical staff.",
    ):
        assert values(read_kind(design(text), None, [], NO_TRACE)[0])["masking"] is None, text
