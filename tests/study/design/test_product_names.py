"""Which phrase names a product, the products a title names, and which names are one product."""

import pytest

from clinparser.study.design.product_names import aliases, is_product_name, same_product, title_products

DOSING = "Zelomab 5 mg will be given intravenously three times a week. Placebo matching zelomab is given the same way."


@pytest.mark.parametrize(
    "name",
    [
        "Period 2",
        "On Day 1",
        "0 to 4 hours",
        "Double-Blind Treatment Period",
        "Patients assigned to the active arm",
        "Investigational medicinal product",
        "Test IMP",
        "Criteria",
        "Doses",
        "Time Window",
    ],
)
def test_phrases_that_say_where_when_or_what_kind_name_no_product(name):
    assert not is_product_name(name)


@pytest.mark.parametrize("name", ["Zelomab", "ABC-1234", "Folic acid", "Androgen Deprivation Therapy (ADT)", "KQ 416"])
def test_product_names_are_kept(name):
    assert is_product_name(name)


@pytest.mark.parametrize(
    "title, products",
    [
        (
            "A Phase 1, Randomized, Placebo-controlled Study to Evaluate the Safety of Zelomab "
            "Administered Intravenously to Adults With Gout",
            [("Zelomab", "investigational"), ("Placebo", "placebo")],
        ),
        (
            "A Randomized Study of the Effects of Zelomab on Renal Outcomes in Subjects With Gout",
            [("Zelomab", "investigational")],
        ),
        (
            "A Study of Zelomab Plus Background Therapy (BT) Versus Placebo Plus BT in Patients With Gout",
            [("Zelomab", "investigational"), ("Background Therapy (BT)", "background"), ("Placebo", "placebo")],
        ),
        (
            "A Study to Evaluate the Efficacy and Safety of Zelomab Compared With Placebo in Adults With Gout",
            [("Zelomab", "investigational"), ("Placebo", "placebo")],
        ),
        ("A Study of the Safety and Efficacy of Investigational Therapeutics for Patients With Gout", []),
        (
            "A Phase II Study Using Zelomab and Short-Course Gotinib in Previously Untreated Patients with Gout",
            [("Zelomab", "investigational"), ("Gotinib", "investigational")],
        ),
        (
            "A Phase 3 Randomized Double-Blind Trial of Maintenance with Zelomab Versus Placebo in Patients With Gout",
            [("Zelomab", "investigational"), ("Placebo", "placebo")],
        ),
    ],
)
def test_the_products_a_title_names(title, products):
    text = DOSING + " All patients continue their BT. Gotinib 25 mg/m2/day on days 1-5."
    assert title_products(title, text) == products


def test_two_regimens_of_one_product_compared_in_a_title_are_one_investigational_product():
    # "Fixed vs Titrated Zelomab": the versus joins two regimens, not a product and its comparator
    assert title_products("RCT of Fixed vs Titrated Zelomab in Patients With Gout", DOSING) == [
        ("Zelomab", "investigational")
    ]


@pytest.mark.parametrize(
    "text",
    [
        "We propose a placebo-controlled, parallel-group trial of zelomab for 12 weeks.",
        "The trial compares zelomab, 5mg SQ daily versus placebo.",
    ],
)
def test_a_product_a_controlled_trial_tests_or_dosed_after_a_comma_is_given(text):
    assert title_products("Effects of Zelomab on Gastric Functions in Obesity", text) == [
        ("Zelomab", "investigational")
    ]


def test_a_title_phrase_no_sentence_doses_is_no_product():
    # "Uric Acid Balance" stands where a product would; the text measures it, never gives it
    title = "An Open-label Study to Assess Uric Acid Balance in Participants With Gout Treated With Zelomab"
    text = "Uric acid balance will be assessed for the 15 mg/day dose. The dose of Zelomab on uric acid balance."
    assert title_products(title, text) == []


def test_a_title_in_capitals_takes_the_bodys_spelling():
    assert title_products("A STUDY OF ZELOMAB IN PATIENTS WITH GOUT", DOSING) == [("Zelomab", "investigational")]


def test_one_product_by_its_code_its_bracketed_name_or_its_abbreviation():
    text = "Patients receive ABC-1234 (zelomab) 5 mg."
    assert same_product("Zelomab", "ABC-1234", text)
    assert same_product("Zelomab (ABC-1234)", "zelomab", "")
    assert same_product("Zelomab", "ZLM", "", {"ZLM": "zelomab"})
    assert not same_product("Zelomab", "Placebo", text)
    assert aliases("Zelomab", {"ZLM": "zelomab"}, "zelomab (ZMB) is given") == ["zelomab", "zlm", "zmb"]


def test_a_code_in_a_capitals_title_keeps_its_capitals():
    from clinparser.study.design.product_names import title_products

    found = title_products("A STUDY OF EXP-4170 IN ADULTS", "Participants receive Exp-4170 200 mg or EXP-4170 400 mg.")
    assert [name for name, _ in found] == ["EXP-4170"]


def test_reviewed_titles_a_comparator_after_a_non_product_and_a_coaching_trial():
    # "Surgery" is no product the text gives: "versus" after it makes no comparator of Zelomab
    assert title_products("A Randomized Trial of Surgery vs Zelomab in Gout", DOSING) == [
        ("Zelomab", "investigational")
    ]
    # the title's own "Controlled Trial of" is no dosing text: nothing the body gives
    assert title_products("A Randomized Controlled Trial of Telephone Coaching in Adults With Gout", "") == []
    assert title_products("A Trial of Early vs Delayed Zelomab in Gout", DOSING) == [("Zelomab", "investigational")]
