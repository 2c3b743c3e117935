"""study.design said in words (clinparser/study/design/lines.py): what the design chunk and the
review page's Study tab show."""

from clinparser.study.design.lines import design_lines, main_section


def _traced(section="4.1", **fields):
    return {"pages": [3], "boxes": [], "section": section, "printed": "printed", **fields}


def _empty(**parts):
    design = {
        "arms": [],
        "epochs": [],
        "interventions": [],
        "amendments": [],
        "allocation": None,
        "model": None,
        "masking": None,
        "ratio": None,
        "indication": None,
        "population": {"planned_enrollment": None, "age": None, "sex": None, "healthy_volunteers": None},
    }
    return {**design, **parts}


def test_nothing_printed_gives_no_line():
    assert design_lines(None) == [] and design_lines({}) == [] and design_lines(_empty()) == []


def test_ages_say_which_bounds_are_printed():
    def age(**bounds):
        population = {**_empty()["population"], "age": _traced(**bounds)}
        return [line.text for line in design_lines(_empty(population=population))]

    assert age(min=18, max=65, unit="years") == ["Age: 18 to 65 years"]
    assert age(min=18.0, max=None, unit="years") == ["Age: at least 18 years"]
    assert age(min=None, max=24, unit="months") == ["Age: at most 24 months"]
    assert age(min=None, max=None, unit="years") == []


def test_each_item_keeps_its_trace_and_the_parts_come_in_order():
    arm = _traced(name="Cohort 1", type="experimental", interventions=["A", "B"])
    masking = _traced(section=None, value="open label")
    amendment = _traced(section="Title page", number="2", date=None, summary="Added  a\ncohort.")
    healthy = _traced(section="5.1", value=True)
    population = {**_empty()["population"], "healthy_volunteers": healthy, "sex": _traced(value="both")}
    lines = design_lines(
        _empty(
            arms=[arm],
            masking=masking,
            amendments=[amendment],
            population=population,
            epochs=[_traced(name="Run-in"), _traced(name="Treatment")],
            indication=_traced(value="Asthma"),
        )
    )
    assert [(line.part, line.text) for line in lines] == [
        ("design", "Masking: open label"),
        ("population", "Sex: female and male"),
        ("population", "Healthy volunteers: yes"),
        ("arm", "Arm: Cohort 1 (experimental); receives A, B"),
        ("epoch", "Epoch 1 of 2: Run-in"),
        ("epoch", "Epoch 2 of 2: Treatment"),
        ("indication", "Indication: Asthma"),
        ("amendment", "Amendment 2: Added a cohort."),
    ]
    assert lines[3].item is arm and lines[-1].label == "Amendment 2"
    assert main_section(lines) == "4.1"  # five items from 4.1, one from 5.1, one from the title page
    assert main_section([line for line in lines if line.part == "design"]) is None
