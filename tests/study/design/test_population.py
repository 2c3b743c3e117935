"""Enrollment, ages, sex and healthy volunteers."""

import pytest

from clinparser.study.design.fields import Field
from clinparser.study.design.population import read_population
from clinparser.study.trace import Tracer


def crit(text):
    return {"category": "inclusion", "text": text, "pages": [30], "section": "5.1"}


def read(fields=(), criteria=(), title=None):
    out = read_population(list(fields), list(criteria), title, Tracer([]))
    return {
        k: ({kk: vv for kk, vv in v.items() if kk in ("value", "min", "max", "unit")} if v else None)
        for k, v in out.items()
    }


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Approximately 1700 participants will be screened to randomize 750.", 750),
        ("About 2,294 patients will be screened to achieve 1,950 randomly assigned", 1950),
        ("Approximately 360 subjects will be enrolled.", 360),
        ("120", 120),
    ],
)
def test_planned_enrollment_is_the_number_randomized_or_enrolled(text, expected):
    fields = [Field("Number of Participants", text, "1.1", (3, 3), True, "table")]
    assert read(fields)["planned_enrollment"] == {"value": expected}


@pytest.mark.parametrize(
    "text, low, high",
    [
        ("Male or female, 18 to 75 years of age, inclusive.", 18, 75),
        ("Aged between 18 and 65 years at screening.", 18, 65),
        ("At least 18 years of age at the time of consent.", 18, None),
        ("Age  18 years at screening.", 18, None),  # a "≥" the text layer lost
        ("Participants 12 years of age or older.", 12, None),
        ("Age > 65 years (senior adult focused study).", 65, None),
    ],
)
def test_ages_come_from_the_inclusion_criteria(text, low, high):
    assert read(criteria=[crit(text)])["age"] == {"min": low, "max": high, "unit": "years"}


def test_an_age_that_is_not_the_studys_is_not_read():
    assert read(criteria=[crit("Postmenopausal women must be older than 45 years.")])["age"] is None


def test_sex_and_healthy_volunteers():
    both = read(
        criteria=[crit("Male or female participants with plaque psoriasis.")],
        title={"text": "A Study in Patients With Psoriasis"},
    )
    assert both["sex"] == {"value": "both"} and both["healthy_volunteers"] == {"value": False}
    women = read(criteria=[crit("Women aged 18 to 45 years.")])
    assert women["sex"] == {"value": "female"}
    healthy = read(criteria=[crit("Healthy adult volunteers.")])
    assert healthy["healthy_volunteers"] == {"value": True}
    assert read()["sex"] is None and read()["healthy_volunteers"] is None  # nothing printed: null


def test_the_number_randomized_not_the_number_screened_before_it():
    fields = [
        Field(
            "Number of Subjects to be Randomized",
            "Approximately 600 patients screened and 400 randomized",
            "1.1",
            (3, 3),
            True,
            "table",
        )
    ]
    assert read(fields)["planned_enrollment"] == {"value": 400}


def test_a_criterion_requiring_one_sex_and_a_confirmed_cancer():
    out = read(
        criteria=[
            crit("Patients must have histologically confirmed localized breast cancer."),
            crit("Patients must be female"),
        ]
    )
    assert out["sex"] == {"value": "female"} and out["healthy_volunteers"] == {"value": False}


def test_criteria_limiting_no_sex_but_speaking_of_women_taking_part_admit_both():
    inclusion = crit("Patients who completed the parent trial.")
    pregnancy = {
        **crit("Pregnant women or women of child bearing potential not using contraception."),
        "category": "exclusion",
    }
    assert read(criteria=[inclusion, pregnancy])["sex"] == {"value": "both"}
    assert read(criteria=[inclusion])["sex"] is None  # nothing said of either sex: null
    assert read(criteria=[pregnancy])["sex"] is None  # no inclusion criterion read: null
    assert read(criteria=[crit("Are males, or females not of childbearing potential.")])["sex"] == {"value": "both"}


def test_a_healthy_patient_diagnosed_with_the_disease_is_no_healthy_volunteer():
    ill = "Healthy subject according to medical history who has been diagnosed with breast cancer."
    assert read(criteria=[crit(ill)])["healthy_volunteers"] == {"value": False}
    well = "Healthy male subjects who have not been diagnosed with diabetes."
    assert read(criteria=[crit(well)])["healthy_volunteers"] == {"value": True}


@pytest.mark.parametrize(
    "text, expected",
    [
        (
            "Approximately 1059 subjects will be screened to achieve 900 subjects to be included in the run-in "
            "period to reach the anticipated 750 subjects randomly assigned to trial product.",
            750,
        ),
        (
            "The analysis will be based on 180 patients randomized in cohort A and up to 310 patients "
            "randomized in cohort B, for a total of 490 patients.",
            490,
        ),
        ("A total of 4 doses will be given to 60 subjects enrolled.", 60),  # a total of doses is no count
    ],
)
def test_the_number_randomized_beats_one_to_achieve_and_a_total_beats_its_parts(text, expected):
    fields = [Field("Number of Participants", text, "1.1", (3, 3), True, "table")]
    assert read(fields)["planned_enrollment"] == {"value": expected}


@pytest.mark.parametrize(
    "texts, sex",
    [
        (["Males and postmenopausal females at least 50 years of age."], "both"),
        (
            [
                "Adults aged 18 years or older.",
                "For women of childbearing potential: agreement to use contraception.",
                "For men: agreement to use a condom and to refrain from donating sperm.",
            ],
            "both",
        ),
        # women's rules alone, and a male partner, say nothing of men taking part
        (
            [
                "Adults aged 18 years or older.",
                "Women of childbearing potential must use contraception; a male partner may use a condom.",
            ],
            None,
        ),
    ],
)
def test_sex_from_a_qualified_pair_or_a_rule_for_each_sex(texts, sex):
    out = read(criteria=[crit(t) for t in texts])
    assert (out["sex"] or {}).get("value") == sex
    if texts[0].startswith("Males"):
        assert out["age"] == {"min": 50, "max": None, "unit": "years"}  # "postmenopausal" is no age of menopause here


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Up to 30 participants (6 per cohort)", 30),
        ("Four cohorts of 8 participants each are to be enrolled one after another, up to 32 participants in all.", 32),
        ("120 patients per arm", None),
        (
            "Approximately 1900 patients will be screened to achieve 1800 randomized participants for an "
            "estimated total of 450 evaluable participants per intervention group.",
            1800,
        ),
        ("Approximately 100 patients will be randomized to each of the 3 treatment groups.", None),
        # counts the study passes on its way (an interim review's milestones)
        ("The DSMB will meet after 75, 150, 225, and 300 patients have completed 1 month.", None),
        ("A review takes place when 40 subjects have been dosed. In all, 120 subjects will be enrolled.", 120),
    ],
)
def test_a_part_count_per_cohort_or_each_is_not_the_planned_number(text, expected):
    fields = [Field("Planned Sample Size", text, "1.1", (3, 3), True, "table")]
    assert (read(fields)["planned_enrollment"] or {}).get("value") == expected


def test_a_products_code_is_no_count_and_a_disease_history_is_no_age():
    fields = [
        Field(
            "Study Design",
            "This is an open-label study of LDF-1342 in adults with kidney disease.",
            "1.1",
            (3, 3),
            True,
            "paragraph",
        )
    ]
    assert read(fields)["planned_enrollment"] is None
    criteria = [
        crit("Atopic dermatitis diagnosed at least 1 year before screening."),
        crit("Women between 12 and 80 years of age, inclusive, at the screening visit."),
    ]
    assert read(criteria=criteria)["age"] == {"min": 12, "max": 80, "unit": "years"}


def test_a_symbol_font_greater_or_equal_the_text_layer_kept_as_a_private_code_point():
    out = read(criteria=[crit("Be \uf0b3 18 years of age on day of signing informed consent.")])
    assert out["age"] == {"min": 18, "max": None, "unit": "years"}


@pytest.mark.parametrize(
    "texts, title, sex",
    [
        (["Subject is diagnosed with histologically confirmed adenocarcinoma of the prostate."], None, "male"),
        (
            ["Adults aged 18 years or older."],
            "A Study of Drug X in Metastatic Hormone Sensitive Prostate Cancer",
            "male",
        ),
        (["Histologically diagnosed high-grade serous epithelial ovarian cancer."], None, "female"),
        # a criterion naming a sex wins; a disease of no one sex's organs says nothing
        (["Male or female patients with prostate cancer or breast cancer."], None, "both"),
        (["Adults with metastatic breast cancer.", "No history of prostate surgery."], None, None),
    ],
)
def test_sex_of_a_disease_of_one_sexs_organs_when_no_criterion_names_it(texts, title, sex):
    out = read(criteria=[crit(t) for t in texts], title={"text": title} if title else None)
    assert (out["sex"] or {}).get("value") == sex


def test_an_age_before_a_diagnosis_is_the_studys_one_dated_by_it_is_not():
    assert read(criteria=[crit("Man or woman \uf0b3 30 years-old with a clinical diagnosis of T2DM")])["age"] == {
        "min": 30,
        "max": None,
        "unit": "years",
    }
    assert read(criteria=[crit("Atopic dermatitis diagnosed at least 1 year before screening.")])["age"] is None


def test_an_exclusion_keeping_out_an_age_gives_the_bound_no_inclusion_criterion_gives():
    def age(*texts):
        criteria = [dict(crit(t), category=c) for c, t in texts]
        got = read(criteria=criteria)["age"]
        return got and (got["min"], got["max"])

    assert age(("inclusion", "Untreated CLL."), ("exclusion", "Individuals < 18 years old")) == (18, None)
    assert age(("exclusion", "Patients older than 80 years at screening")) == (None, 80)
    # the inclusion criterion's ages come first; an age inside an exclusion's sentence is not one
    assert age(("inclusion", "Aged 18 to 65 years"), ("exclusion", "Individuals < 21 years old")) == (18, 65)
    assert age(("exclusion", "Diagnosis of diabetes at < 30 years of age")) is None
    # a duration is no age
    assert age(("exclusion", "Diabetes for more than 10 years")) is None
    assert age(("exclusion", "Disease duration less than 1 year")) is None
    assert age(("exclusion", "HIV diagnosed over 5 years ago")) is None


def test_with_no_sample_size_field_the_section_selecting_participants_gives_the_number():
    # an investigator's plan: the count only in "Selection of ... Participants"; its bare leading
    # numbers are no count ("18 years or older" opens a criterion there)
    fields = [
        Field("Overall Design", "A placebo-controlled trial.", "Plan", (2, 2), True, "section"),
        Field(
            "Selection of Overweight and Obese Participants",
            "18 years or older with BMI over 30.\nWe plan to study a cohort of 112 patients (using a stratified "
            "design) with BMI over 30. Anticipating 20% drop out, we will screen 160 patients.",
            "Plan",
            (3, 3),
            True,
            "section",
        ),
    ]
    assert read(fields)["planned_enrollment"] == {"value": 112}


@pytest.mark.parametrize(
    "sentence",
    [
        "Participants who withdraw may be replaced, up to a maximum of 10 subjects.",
        "Each site will screen approximately 40 patients.",
        "In a previous study of 45 patients the response rate was 30%.",
    ],
)
def test_a_selection_section_counts_only_a_planned_number(sentence):
    fields = [Field("Selection of Study Participants", sentence, "5", (9, 9), False, "section")]
    assert read(fields)["planned_enrollment"] is None
