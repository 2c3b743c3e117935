from __future__ import annotations

import copy

from clinparser.export.schema import errors


def test_a_real_result_is_valid(example_run):
    result, _ = example_run
    assert errors(result) == []


def test_the_schema_catches_broken_results(example_run):
    result, _ = example_run
    broken = copy.deepcopy(result)
    del broken["toc"][0]["title"]
    assert any("title" in e for e in errors(broken))
    broken = copy.deepcopy(result)
    broken["non_toc"][0]["number"] = "7"
    assert errors(broken)
    broken = copy.deepcopy(result)
    broken["metadata"]["source"] = "/home/user/protocol.pdf"
    assert errors(broken)
    broken = copy.deepcopy(result)
    broken["toc"][0]["subsections"][0]["tables"] = [{"title": "x"}]
    assert errors(broken)


def test_the_study_design_contract(example_run):
    # The design reader's block (issue 47's contract): a whole one is valid, a wrong shape is not.
    from test_usdm_design import item, reading

    result, _ = example_run
    with_design = copy.deepcopy(result)
    with_design["study"]["design"] = reading()
    assert errors(with_design) == []
    nothing = {
        "arms": [],
        "epochs": [],
        "interventions": [],
        "allocation": None,
        "model": None,
        "masking": None,
        "ratio": None,
        "indication": None,
        "amendments": [],
        "population": {"planned_enrollment": None, "age": None, "sex": None, "healthy_volunteers": None},
    }
    assert errors(dict(with_design, study=dict(with_design["study"], design=nothing))) == []
    open_age = copy.deepcopy(with_design)
    open_age["study"]["design"]["population"]["age"]["max"] = None
    assert errors(open_age) == []

    def broken(change) -> list[str]:
        b = copy.deepcopy(with_design)
        change(b["study"]["design"])
        return errors(b)

    assert broken(lambda d: d["population"].update(sex="both"))  # a bare value, not an item
    assert broken(lambda d: d["arms"][0].pop("pages"))  # no trace
    assert broken(lambda d: d["arms"][0].update(type="Experimental"))  # not the contract's words
    assert broken(lambda d: d.update(model=item(value="Parallel")))
    assert broken(lambda d: d["interventions"][0]["doses"].append({"value": "10", "unit": "mg", "printed": "10 mg"}))
    assert broken(lambda d: d["interventions"][0]["doses"].append({"value": 10, "unit": "MG", "printed": "10 MG"}))
    assert broken(lambda d: d["amendments"][0].update(date="14 Mar 2020"))
    assert broken(lambda d: d["epochs"][0].update(label="x"))  # a key the contract does not have
    assert broken(lambda d: d.pop("ratio"))
