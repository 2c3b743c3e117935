"""The indication."""

from clinparser.study.design.fields import Field
from clinparser.study.design.indication import read_indication
from clinparser.study.trace import Tracer

NO_TRACE = Tracer([])


def test_the_indication_field_first_then_the_title():
    fields = [Field("Indication", "Secondary hyperparathyroidism.", None, (3, 3), True, "paragraph")]
    assert read_indication(fields, None, NO_TRACE)["value"] == "Secondary hyperparathyroidism"
    title = {
        "text": "A Phase 3 Study of Drug X in Participants With Previously Treated Metastatic Breast Cancer (STUDY-1)",
        "page": 1,
    }
    assert read_indication([], title, NO_TRACE)["value"] == "Previously Treated Metastatic Breast Cancer"
    # a condition printed in lower case after "in" (not "in a sub-study"), up to "utilizing"
    lower = {
        "text": "A single arm study to assess the effect of Drugmab on airway structure in asthma with type 2 "
        "inflammation utilizing quantitative CT in a sub-study",
        "page": 1,
    }
    assert read_indication([], lower, NO_TRACE)["value"] == "asthma with type 2 inflammation"
    # a statistics table's "Treatment Condition(s)" names the arms, not the disease
    arms = [
        Field("Treatment Condition(s)", "A single dose of Drug X 300 mg or placebo", "17.2", (54, 54), False, "table")
    ]
    assert read_indication(arms, title, NO_TRACE)["value"] == "Previously Treated Metastatic Breast Cancer"


def test_a_titles_disease_after_an_event_less_who_has_it_and_none_for_healthy_people():
    def of(text):
        found = read_indication([], {"text": text, "page": 1}, NO_TRACE)
        return found and found["value"]

    assert (
        of("A dose-finding study of Drug X in patients following an acute ischemic stroke") == "acute ischemic stroke"
    )
    assert of("A study of PK-guided Drug X in senior adult breast cancer patients receiving chemotherapy") == (
        "breast cancer"
    )
    assert of("A Phase 1 Drug Interaction Study of Drug X on Drug Y in Healthy Participants") is None
