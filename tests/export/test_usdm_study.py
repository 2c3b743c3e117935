"""USDM v4.0 export of the study definition (clinparser/export/usdm_study.py, via to_usdm)."""

from __future__ import annotations

import copy
import json
import subprocess
import sys

import pytest
from test_usdm import USDM_API, assert_valid_usdm, node, usdm_schema  # noqa: F401  (the schema fixture)

from clinparser.export.usdm import to_usdm, usdm_errors
from clinparser.export.usdm_study import study_usdm

SCORER = USDM_API.parents[1] / "tools" / "study_score.py"


def criterion(category, identifier, text, applies_to=None):
    return {
        "category": category,
        "identifier": identifier,
        "text": text,
        "section": "5.1",
        "pages": [12],
        "boxes": [],
        "applies_to": applies_to,
    }


def study() -> dict:
    def item(level, label, text, endpoints=()):
        return {
            "level": level,
            "label": label,
            "text": text,
            "section": "3",
            "pages": [9],
            "boxes": [],
            "endpoints": [
                {"level": level, "label": label, "text": e, "section": "3", "pages": [9], "boxes": []}
                for e in endpoints
            ],
        }

    return {
        "titles": {
            "official": {"text": "A Phase 2 Study of Drug X in Adults", "page": 1},
            "short": None,
            "acronym": {"text": "XSTUDY", "page": 1},
        },
        "identifiers": [
            {"kind": "sponsor", "text": "XY-201", "page": 1, "source": "title page"},
            {"kind": "nct", "text": "NCT01234567", "page": 1, "source": "title page"},
            {"kind": "eudract", "text": "2020-001234-56", "page": 1, "source": "title page"},
            {"kind": "ind", "text": "123456", "page": 1, "source": "title page"},
            {"kind": "other_registry", "text": "ISRCTN12345678", "page": 1, "source": "title page"},
        ],
        "phase": {"value": "2", "printed": "Phase 2b"},
        "sponsor": {"text": "Example Pharma Inc.", "page": 1},
        "eligibility": [
            criterion("inclusion", "1.", "Age ≥ 18 years & < 65"),
            criterion("inclusion", "2.", "Signed consent:\na. written\nb. dated"),
            criterion("exclusion", "[1]", "Pregnancy."),
            criterion("inclusion", "1)", "Completed the main study.", applies_to="extension"),
            criterion("exclusion", None, "Any other reason."),
        ],
        "objectives": [
            item("primary", "Primary", "To assess efficacy of X.", ["Change in score at Week 12"]),
            item("secondary", "Safety", "To assess safety.", ["Adverse events", "Vital signs"]),
            item("exploratory", "Exploratory", "To explore biomarkers."),
        ],
        "abbreviations": [{"abbreviation": "AE", "expansion": "adverse event"}, {"abbreviation": "X", "expansion": ""}],
        "diagnostics": [],
    }


def result(with_study=True) -> dict:
    r = {
        "toc": [node("1", "SYNOPSIS", [1, 2], "Synopsis text.")],
        "non_toc": [],
        "metadata": {"source": "protocol.pdf", "versions": {"clinparser": "0.1.0"}},
    }
    if with_study:
        r["study"] = study()
    return r


def version_of(usdm: dict) -> dict:
    return usdm["study"]["versions"][0]


def code(c: dict) -> tuple:
    return c["code"], c["decode"]


def test_no_study_block_still_a_whole_wrapper():
    # A Wrapper needs a Study: without a study block it is a minimal one, named after the source file,
    # holding the narrative (and the schedules, when there are any).
    for r in (result(with_study=False), dict(result(with_study=False), study=None)):
        usdm = to_usdm(r)
        assert set(usdm) == {"usdmVersion", "systemName", "systemVersion", "study"}
        s = usdm["study"]
        assert s["name"] == "protocol" and s["documentedBy"][0]["name"] == "protocol protocol"
        v = version_of(usdm)
        assert v["titles"] == v["studyIdentifiers"] == v["organizations"] == v["roles"] == []
        assert [i["name"] for i in v["narrativeContentItems"]] == ["1 SYNOPSIS"]
        design = v["studyDesigns"][0]
        assert design["eligibilityCriteria"] == design["objectives"] == [] and code(design["studyType"]) == (
            "C98388",
            "Interventional Study",
        )


def test_study_version_titles_identifiers_and_organizations():
    usdm = to_usdm(result())
    s = usdm["study"]
    assert s["id"] is None and s["name"] == "XY-201" and s["instanceType"] == "Study"
    v = version_of(usdm)
    assert v["id"] == "StudyVersion_0001" and v["versionIdentifier"] == "1"
    assert v["documentVersionIds"] == ["StudyDefinitionDocumentVersion_0001"]
    assert [(t["id"], t["text"], code(t["type"])) for t in v["titles"]] == [
        ("StudyTitle_0001", "A Phase 2 Study of Drug X in Adults", ("C207616", "Official Study Title")),
        ("StudyTitle_0002", "XSTUDY", ("C207646", "Study Acronym")),
    ]
    # Ids go on from the narrative's: Code_0001 is the document status, 2 and 3 the document's language and type.
    assert v["titles"][0]["type"]["id"] == "Code_0004"
    assert [c["id"] for c in (s["documentedBy"][0]["language"], s["documentedBy"][0]["type"])] == [
        "Code_0002",
        "Code_0003",
    ]
    orgs = {o["id"]: o for o in v["organizations"]}
    assert [(o["id"], o["name"], code(o["type"])) for o in v["organizations"]] == [
        ("Organization_0001", "Example Pharma Inc.", ("C54149", "Drug Company")),
        ("Organization_0002", "CT-GOV", ("C93453", "Study Registry")),
        ("Organization_0003", "EMA", ("C93453", "Study Registry")),
        ("Organization_0004", "FDA", ("C188863", "Regulatory Agency")),
        ("Organization_0005", "ISRCTN", ("C93453", "Study Registry")),
    ]
    assert [(i["id"], i["text"], orgs[i["scopeId"]]["name"]) for i in v["studyIdentifiers"]] == [
        ("StudyIdentifier_0001", "XY-201", "Example Pharma Inc."),
        ("StudyIdentifier_0002", "NCT01234567", "CT-GOV"),
        ("StudyIdentifier_0003", "2020-001234-56", "EMA"),
        ("StudyIdentifier_0004", "123456", "FDA"),
        ("StudyIdentifier_0005", "ISRCTN12345678", "ISRCTN"),
    ]
    # The sponsor role applies to the study version, as the Alexion file has it (usdm4 DDF00189/DDF00203).
    assert [(r["organizationIds"], code(r["code"]), r["appliesToIds"]) for r in v["roles"]] == [
        (["Organization_0001"], ("C70793", "Clinical Study Sponsor"), ["StudyVersion_0001"])
    ]
    assert [(a["id"], a["abbreviatedText"], a["expandedText"]) for a in v["abbreviations"]] == [
        ("Abbreviation_0001", "AE", "adverse event")
    ]


def test_phase_table():
    expected = {
        "1": ("C15600", "Phase I Trial"),
        "1/2": ("C15693", "Phase I/II Trial"),
        "2": ("C15601", "Phase II Trial"),
        "2/3": ("C15694", "Phase II/III Trial"),
        "3": ("C15602", "Phase III Trial"),
        "4": ("C15603", "Phase IV Trial"),
    }
    for value, term in expected.items():
        s = dict(study(), phase={"value": value, "printed": None})
        phase = study_usdm(s)["versions"][0]["studyDesigns"][0]["studyPhase"]
        assert phase["instanceType"] == "AliasCode" and code(phase["standardCode"]) == term
    assert (
        study_usdm(dict(study(), phase={"value": None, "printed": None}))["versions"][0]["studyDesigns"][0][
            "studyPhase"
        ]
        is None
    )


def test_eligibility_criteria_and_items():
    v = version_of(to_usdm(result()))
    design = v["studyDesigns"][0]
    items = {i["id"]: i for i in v["eligibilityCriterionItems"]}
    crit = design["eligibilityCriteria"]
    assert [(c["id"], c["name"], c["identifier"], code(c["category"]), c["criterionItemId"]) for c in crit] == [
        ("EligibilityCriterion_0001", "IN01", "1", ("C25532", "Inclusion Criteria"), "EligibilityCriterionItem_0001"),
        ("EligibilityCriterion_0002", "IN02", "2", ("C25532", "Inclusion Criteria"), "EligibilityCriterionItem_0002"),
        ("EligibilityCriterion_0003", "EX01", "1", ("C25370", "Exclusion Criteria"), "EligibilityCriterionItem_0003"),
        ("EligibilityCriterion_0004", "EX02", "", ("C25370", "Exclusion Criteria"), "EligibilityCriterionItem_0005"),
    ]
    assert [(c["previousId"], c["nextId"]) for c in crit] == [
        (None, "EligibilityCriterion_0002"),
        ("EligibilityCriterion_0001", "EligibilityCriterion_0003"),
        ("EligibilityCriterion_0002", "EligibilityCriterion_0004"),
        ("EligibilityCriterion_0003", None),
    ]
    assert items["EligibilityCriterionItem_0001"]["text"] == "<p>Age ≥ 18 years &amp; &lt; 65</p>"
    assert items["EligibilityCriterionItem_0002"]["text"] == "<p>Signed consent:<br />a. written<br />b. dated</p>"
    # The extension's criterion is not in the main design: its item only, with a note.
    extension = items["EligibilityCriterionItem_0004"]
    assert extension["name"] == "extension-IN01" and extension["text"] == "<p>Completed the main study.</p>"
    assert [n["text"] for n in extension["notes"]] == [
        "Applies to: extension (not a criterion of the main study design)"
    ]
    assert all(c["criterionItemId"] != extension["id"] for c in crit)


def test_a_sub_studys_criteria_are_the_designs_listed_by_a_cohort(usdm_schema):  # noqa: F811
    with_sub_study = dict(
        study(),
        eligibility=study()["eligibility"]
        + [criterion("inclusion", "INC #10", "Consent to the biopsy sub-study.", applies_to="sub-study")],
    )
    usdm = to_usdm({**result(), "study": with_sub_study})
    assert_valid_usdm(usdm_schema, usdm)
    design = version_of(usdm)["studyDesigns"][0]
    crit = {c["id"]: c for c in design["eligibilityCriteria"]}
    population = design["population"]
    assert len(crit) == 5 and all("_cohort" not in c for c in crit.values())
    assert [crit[i]["identifier"] for i in population["criterionIds"]] == ["1", "2", "1", ""]
    [cohort] = population["cohorts"]
    assert cohort["name"] == "Sub-Study" and cohort["instanceType"] == "StudyCohort"
    assert [crit[i]["identifier"] for i in cohort["criterionIds"]] == ["INC #10"]


def test_objectives_and_endpoints():
    design = version_of(to_usdm(result()))["studyDesigns"][0]
    objs = design["objectives"]
    assert [(o["id"], o["name"], o["label"], o["text"], code(o["level"])) for o in objs] == [
        ("Objective_0001", "OBJ1", "Primary", "To assess efficacy of X.", ("C85826", "Trial Primary Objective")),
        ("Objective_0002", "OBJ2", "Safety", "To assess safety.", ("C85827", "Trial Secondary Objective")),
        ("Objective_0003", "OBJ3", "Exploratory", "To explore biomarkers.", ("C163559", "Trial Exploratory Objective")),
    ]
    assert [
        [(e["id"], e["name"], e["text"], e["purpose"], code(e["level"])) for e in o["endpoints"]] for o in objs
    ] == [
        [("Endpoint_0001", "END1", "Change in score at Week 12", "", ("C94496", "Primary Endpoint"))],
        [
            ("Endpoint_0002", "END2", "Adverse events", "", ("C139173", "Secondary Endpoint")),
            ("Endpoint_0003", "END3", "Vital signs", "", ("C139173", "Secondary Endpoint")),
        ],
        [],
    ]
    assert design["instanceType"] == "InterventionalStudyDesign"
    assert code(design["studyType"]) == ("C98388", "Interventional Study")
    # The model is not read: the codelist's term for a design without arms, and a note says so.
    assert code(design["model"]) == ("C82640", "Single Group Study")
    assert "intervention model (coded Single Group Study" in design["notes"][0]["text"]
    assert design["population"]["plannedSex"] == [] and design["population"]["plannedAge"] is None  # nothing invented
    # USDM reads an objective's and an endpoint's text as XHTML: "&" is escaped.
    amp = dict(
        study(),
        objectives=[
            {
                "level": "primary",
                "label": "Primary",
                "text": "Efficacy & safety",
                "endpoints": [{"level": "primary", "text": "AUC < 5 & Cmax"}],
            }
        ],
    )
    escaped = version_of(to_usdm(dict(result(), study=amp)))["studyDesigns"][0]["objectives"][0]
    assert (escaped["text"], escaped["endpoints"][0]["text"]) == ("Efficacy &amp; safety", "AUC &lt; 5 &amp; Cmax")


def test_the_sponsor_organization_type_by_its_name():
    types = {}
    for name in (
        "Example Pharma Inc.",
        "University of Oxford",
        "Massachusetts General Hospital",
        "National Cancer Institute (NCI)",
        "Acme CRO Ltd",
    ):
        v = version_of(to_usdm(dict(result(), study=dict(study(), sponsor={"text": name}))))
        types[name] = code(v["organizations"][0]["type"])
    assert types == {
        "Example Pharma Inc.": ("C54149", "Drug Company"),
        "University of Oxford": ("C18240", "Academia"),
        "Massachusetts General Hospital": ("C21541", "Healthcare Facility"),
        "National Cancer Institute (NCI)": ("C199144", "Governmental Agency or Group"),
        "Acme CRO Ltd": ("C54148", "Contract Research Organization"),
    }


def test_the_design_readers_hook_fills_model_sex_and_age(usdm_schema):  # noqa: F811
    reading = {
        "model": {"value": "parallel"},
        "population": {"sex": "both", "age": {"min": 18, "max": 65, "unit": "years"}},
    }
    usdm = to_usdm(dict(result(), study=dict(study(), design=reading)))
    design = version_of(usdm)["studyDesigns"][0]
    assert code(design["model"]) == ("C82639", "Parallel Study")
    population = design["population"]
    assert [code(c) for c in population["plannedSex"]] == [("C16576", "Female"), ("C20197", "Male")]
    age = population["plannedAge"]
    assert (age["minValue"]["value"], age["maxValue"]["value"], code(age["minValue"]["unit"]["standardCode"])) == (
        18.0,
        65.0,
        ("C29848", "Year"),
    )
    unread = next(n["text"] for n in design["notes"] if n["text"].startswith("Not read by ClinParser"))
    assert "model" not in unread and "planned sex" not in unread and "planned age" not in unread
    assert_valid_usdm(usdm_schema, usdm)
    # What it cannot read is left as it was: an unknown model, an age without its minimum. No
    # maximum printed: USDM's Range needs one, 100 years as the published files write it, said.
    half = to_usdm(
        dict(result(), study=dict(study(), design={"model": "adaptive", "population": {"age": {"min": 18}}}))
    )
    design = version_of(half)["studyDesigns"][0]
    assert code(design["model"]) == ("C82640", "Single Group Study")
    age = design["population"]["plannedAge"]
    assert (age["minValue"]["value"], age["maxValue"]["value"]) == (18.0, 100.0)
    assert "No upper age limit is printed" in design["population"]["notes"][0]["text"]
    no_min = to_usdm(dict(result(), study=dict(study(), design={"population": {"age": {"min": None, "max": 65}}})))
    assert version_of(no_min)["studyDesigns"][0]["population"]["plannedAge"] is None


def test_ids_unique_deterministic_and_after_the_schedules():
    usdm = to_usdm(result())
    ids = []

    def walk(o):
        if isinstance(o, dict):
            if isinstance(o.get("id"), str):
                ids.append(o["id"])
            for x in o.values():
                walk(x)
        elif isinstance(o, list):
            for x in o:
                walk(x)

    walk(usdm)
    assert len(ids) == len(set(ids))
    assert json.dumps(to_usdm(copy.deepcopy(result())), sort_keys=True) == json.dumps(usdm, sort_keys=True)
    # Ids taken elsewhere in the export are skipped: classes count on after them.
    taken = {"x": [{"id": "Code_0007"}, {"id": "CommentAnnotation_0003"}]}
    s = study_usdm(study(), existing=taken)
    assert s["versions"][0]["titles"][0]["type"]["id"] == "Code_0008"  # no document given: no document codes
    assert s["versions"][0]["eligibilityCriterionItems"][3]["notes"][0]["id"] == "CommentAnnotation_0004"


def test_the_study_validates_against_the_usdm_schema(usdm_schema):  # noqa: F811
    usdm = to_usdm(result())
    assert_valid_usdm(usdm_schema, usdm)
    # The export is the Wrapper: its four fields, no other.
    assert set(usdm) == {"study", "usdmVersion", "systemName", "systemVersion"}
    assert usdm_schema("Wrapper-Input", usdm) == []
    # A minimal study block (nothing read) is valid too.
    empty = {
        "titles": {"official": None, "short": None, "acronym": None},
        "identifiers": [],
        "phase": {"value": None, "printed": None},
        "sponsor": None,
        "eligibility": [],
        "objectives": [],
        "abbreviations": [],
        "diagnostics": [],
    }
    assert_valid_usdm(usdm_schema, to_usdm(dict(result(), study=empty)))
    # Errors are found and located.
    broken = copy.deepcopy(usdm)
    del version_of(broken)["studyDesigns"][0]["objectives"][0]["endpoints"][0]["purpose"]
    version_of(broken)["studyIdentifiers"][0]["scopeId"] = "Organization_0099"
    errors = usdm_errors(broken, usdm_schema)
    assert any(
        e.startswith("InterventionalStudyDesign_0001: objectives/0/endpoints/0") and "purpose" in e for e in errors
    )
    assert any("Organization_0099" in e for e in errors)


@pytest.mark.skipif(not SCORER.is_file(), reason=f"study scorer not available: {SCORER}")
def test_the_scorer_reads_the_export(tmp_path):
    usdm = tmp_path / "usdm.json"
    usdm.write_text(json.dumps(to_usdm(result())), encoding="utf-8")
    gold = tmp_path / "gold.json"
    gold.write_text(
        json.dumps(
            {
                "identifiers": [{"kind": "nct", "text": "NCT01234567"}, {"kind": "sponsor", "text": "XY-201"}],
                "official_title": "A Phase 2 Study of Drug X in Adults",
                "phase": "2",
                "eligibility": [
                    criterion("inclusion", "1", "Age ≥ 18 years & < 65"),
                    criterion("inclusion", "2", "Signed consent: a. written b. dated"),
                    criterion("exclusion", "1", "Pregnancy."),
                    criterion("exclusion", None, "Any other reason."),
                ],
                "objectives": [
                    {
                        "level": o["level"],
                        "text": o["text"],
                        "endpoints": [{"level": e["level"], "text": e["text"]} for e in o["endpoints"]],
                    }
                    for o in study()["objectives"]
                ],
            }
        ),
        encoding="utf-8",
    )
    out = subprocess.run(
        [sys.executable, str(SCORER), str(usdm), str(gold)], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip().splitlines()[-1] == (
        "eligibility P/R/F1 1.000/1.000/1.000 (4 vs 4); objectives P/R/F1 1.000/1.000/1.000 (3 vs 3); "
        "endpoints P/R/F1 1.000/1.000/1.000 (3 vs 3); identifiers 1.00; title 1.00; phase 1"
    )


def test_an_abbreviation_listed_twice_is_one_abbreviation_with_its_expansions():
    # two lists, or one expanded two ways: USDM wants each abbreviated text once (DDF00170)
    s = study()
    s["abbreviations"] = [
        {"abbreviation": "IMP", "expansion": "investigational medicinal product"},
        {"abbreviation": "AE", "expansion": "adverse event"},
        {"abbreviation": "IMP", "expansion": "Investigational medicinal product"},
        {"abbreviation": "IMP", "expansion": "investigational medicinal products"},
    ]
    v = version_of(to_usdm({**result(), "study": s}))
    assert [(a["abbreviatedText"], a["expandedText"]) for a in v["abbreviations"]] == [
        ("IMP", "investigational medicinal product; investigational medicinal products"),
        ("AE", "adverse event"),
    ]
