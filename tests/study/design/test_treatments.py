"""Interventions and arms."""

from clinparser.study.design.fields import Field
from clinparser.study.design.treatments import read_arms, read_interventions, single_arm
from clinparser.study.trace import Tracer

NO_TRACE = Tracer([])
WHERE = Field("table", "", "6.1", (30, 30), False, "table")


def test_an_intervention_table_a_row_per_product():
    table = {"columns": ["Intervention Name", "Dose", "Route", "Frequency", "Use"], "data": [
        ["Drug X", "10 mg, 20 mg", "Oral tablet", "Once daily", "Investigational"],
        ["Placebo", "0 mg", "Oral", "Once daily", "Placebo"],
        ["Albuterol", "100 mcg", "Inhaled", "As needed", "Rescue medication"]]}
    found = read_interventions([], [(table, WHERE)], NO_TRACE)
    assert [(i["name"], i["role"], i["route"]) for i in found] == [
        ("Drug X", "investigational", "oral"), ("Placebo", "placebo", "oral"), ("Albuterol", "rescue", "inhalation")]
    assert [d["printed"] for d in found[0]["doses"]] == ["10 mg", "20 mg"] and found[0]["frequency"] == "Once daily"
    assert found[2]["doses"][0]["unit"] == "ug" and found[2]["frequency"] == "As needed"


def test_a_transposed_intervention_table_a_column_per_product():
    table = {"columns": ["Study intervention name", "Drug Y", "Drug Z"], "data": [
        ["Unit dose strength", "100 mg", "5 mg/kg"], ["Route of administration", "SC injection", "IV infusion"],
        ["Use", "Experimental", "Comparator"]]}
    found = read_interventions([], [(table, WHERE)], NO_TRACE)
    assert [(i["name"], i["role"], i["route"]) for i in found] == [("Drug Y", "investigational", "subcutaneous"),
                                                                   ("Drug Z", "comparator", "intravenous")]


def test_arms_listed_in_a_field_or_named_in_the_assigning_sentence():
    products = [{"name": "Drug X", "role": "investigational"}, {"name": "Placebo", "role": "placebo"}]
    listed = [Field("Treatment Groups", "Arm A: Drug X 10 mg (N = 100)\nArm B: Placebo (N = 50)", "1.1", (3, 3), True, "table")]
    assert [(a["name"], a["type"]) for a in read_arms(listed, products, NO_TRACE)] == [
        ("Arm A: Drug X 10 mg", "experimental"), ("Arm B: Placebo", "placebo comparator")]
    prose = [Field("Study Design", "Participants will be randomized 2:1 to receive either Drug X 10 mg once daily or matching placebo "
                   "for 12 weeks.", "1.1", (3, 3), True, "paragraph")]
    arms = read_arms(prose, products, NO_TRACE)
    assert [a["name"] for a in arms] == ["Drug X 10 mg once daily", "matching placebo"]
    assert arms[0]["interventions"] == ["Drug X"]


def test_a_single_arm_is_named_for_its_treatment():
    product = {"name": "Drug X", "role": "investigational", "doses": [{"printed": "100 mg"}], "pages": [], "boxes": [],
               "section": None, "printed": ""}
    assert [a["name"] for a in single_arm([product], NO_TRACE)] == ["Drug X 100 mg"]


def test_the_two_arms_a_title_compares_when_nothing_else_names_arms():
    from clinparser.study.design.treatments import arms_in_title
    products = [{"name": "Drugamab", "role": "investigational"}, {"name": "Placebo", "role": "placebo"}]
    title = {"text": "A Phase 3, Randomized Study of Drugamab Plus Standard Therapy Versus Placebo Plus Standard Therapy "
                     "in Patients With Gout", "page": 1}
    arms = arms_in_title(title, products, NO_TRACE)
    assert [(a["name"], a["type"]) for a in arms] == [("Drugamab Plus Standard Therapy", "experimental"),
                                                        ("Placebo Plus Standard Therapy", "placebo comparator")]
    assert arms_in_title({"text": "A Study of Drugamab in Patients With Gout"}, products, NO_TRACE) == []


def test_what_a_products_field_leaves_out_comes_from_the_dosing_sentences_naming_it():
    fields = [Field("Name of Study Drug", "Drugamab", "1.1", (3, 3), True, "table"),
              Field("Dosage and Administration", "Drugamab 160 mg will be taken orally once daily.\nOther text 5 mg IV.",
                    "6.1", (30, 30), False, "section")]
    (product,) = read_interventions(fields, [], NO_TRACE)
    assert (product["name"], product["route"], product["frequency"]) == ("Drugamab", "oral", "once daily")
    assert [d["printed"] for d in product["doses"]] == ["160 mg"]  # the line naming another product is not read
