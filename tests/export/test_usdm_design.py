"""The study design (``result["study"]["design"]``, the issue 47 contract) exported as USDM v4.0
(clinparser/export/usdm_design.py, via to_usdm).

The design below is written by hand in the contract's shape; the codes expected are written out
here from the USDM CT (usdm4's cache) and the published files, not taken from the code."""

from __future__ import annotations

import copy
import json
import subprocess
import sys

import pytest
from test_usdm import USDM_API, assert_valid_usdm, usdm_schema  # noqa: F401  (the schema fixture)
from test_usdm_schedule import main_schedule, result_with
from test_usdm_study import study

from clinparser.export.usdm import study_design, study_version, to_usdm, usdm_errors
from clinparser.export.usdm_design import frequency_term

SCORER = USDM_API.parents[1] / "tools" / "design_score.py"


def item(**fields) -> dict:
    return {
        **fields,
        "pages": [3],
        "boxes": [{"page": 3, "bbox": [72.0, 100.0, 540.0, 120.0]}],
        "section": "1.1",
        "printed": "as printed",
    }


def reading() -> dict:
    """A design as the reader gives it: two arms, three epochs (two of them the schedule's), three
    interventions, everything the contract has."""
    return {
        "arms": [
            item(name="Arm A: Drug X 10 mg", type="experimental", interventions=["Drug X"]),
            item(name="Arm B: Placebo", type="placebo comparator", interventions=["Placebo"]),
        ],
        "epochs": [item(name="Screening"), item(name="Treatment"), item(name="Follow-up Period")],
        "interventions": [
            item(
                name="Drug X",
                role="investigational",
                route="oral",
                frequency="once daily (QD)",
                doses=[
                    {"value": 10, "unit": "mg", "printed": "10 mg"},
                    {"value": 2.5, "unit": "mg/kg", "printed": "2.5 mg/kg"},
                ],
            ),
            item(name="Placebo", role="placebo", route="oral", frequency="QD", doses=[]),
            item(
                name="Salbutamol",
                role="rescue",
                route="inhalation",
                frequency="as needed",
                doses=[{"value": 100, "unit": "ug", "printed": "100 µg"}],
            ),
        ],
        "population": {
            "planned_enrollment": item(value=120),
            "age": item(min=18, max=75, unit="years"),
            "sex": item(value="both"),
            "healthy_volunteers": item(value=False),
        },
        "allocation": item(value="randomized"),
        "model": item(value="parallel"),
        "masking": item(value="double blind"),
        "ratio": item(value="1:1"),
        "indication": item(value="moderate to severe atopic dermatitis"),
        "amendments": [
            item(number="1", date="2020-03-14", summary="Sites added."),
            item(number="2", date=None, summary=None),
        ],
    }


def design_result(design: dict | None = None) -> dict:
    """A result with a schedule (epochs Screening, Treatment Period) and a study with ``design``."""
    result = result_with([main_schedule()])
    result["study"] = dict(study(), design=reading() if design is None else design)
    return result


def export(design: dict | None = None) -> dict:
    return to_usdm(design_result(design))


def code(c: dict) -> tuple:
    c = c.get("standardCode", c)
    return c["code"], c["decode"]


def test_arms_with_their_cdisc_types_and_a_cell_per_arm_and_epoch():
    usdm = export()
    d = study_design(usdm)
    assert [(a["name"], code(a["type"])) for a in d["arms"]] == [
        ("Arm A: Drug X 10 mg", ("C174266", "Investigational Arm")),
        ("Arm B: Placebo", ("C174268", "Placebo Control Arm")),
    ]
    assert all(code(a["dataOriginType"]) == ("C188866", "Data Generated Within Study") for a in d["arms"])
    assert d["arms"][0]["description"] == "Interventions: Drug X"
    # Every arm has one cell in every epoch, each cell its own element (DDF00068, DDF00067, DDF00040).
    epochs = [e["id"] for e in d["epochs"]]
    assert [(c["armId"], c["epochId"]) for c in d["studyCells"]] == [(a["id"], e) for a in d["arms"] for e in epochs]
    elements = {e["id"]: e for e in d["elements"]}
    assert sorted(i for c in d["studyCells"] for i in c["elementIds"]) == sorted(elements) and len(elements) == 6
    # Only the Treatment epoch's elements name what the arm receives.
    interventions = {si["name"]: si["id"] for si in study_version(usdm)["studyInterventions"]}
    treated = {
        (c["armId"], c["epochId"]): elements[c["elementIds"][0]]["studyInterventionIds"] for c in d["studyCells"]
    }
    arm_a, arm_b = (a["id"] for a in d["arms"])
    treatment = next(e["id"] for e in d["epochs"] if e["name"] == "Treatment Period")
    assert treated[(arm_a, treatment)] == [interventions["Drug X"]] and treated[(arm_b, treatment)] == [
        interventions["Placebo"]
    ]
    assert all(v == [] for k, v in treated.items() if k[1] != treatment)
    # Other and unknown arm types; no arms, no cells.
    other = reading()
    other["arms"][1]["type"] = "other"
    assert code(study_design(export(other))["arms"][1]["type"]) == ("C17649", "Other")
    none = dict(reading(), arms=[])
    assert study_design(export(none))["studyCells"] == study_design(export(none))["elements"] == []


def test_the_designs_epochs_are_the_schedules_when_they_name_the_same_period():
    plain = study_design(to_usdm(result_with([main_schedule()])))
    d = study_design(export())
    # Screening and Treatment (Period) are the schedule's epochs, ids and all; Follow-up is added after them.
    assert [(e["id"], e["name"]) for e in plain["epochs"]] == [(e["id"], e["name"]) for e in d["epochs"][:2]]
    assert [e["name"] for e in d["epochs"]] == ["Screening", "Treatment Period", "Follow-up Period"]
    assert code(d["epochs"][2]["type"]) == ("C202578", "Follow-Up Epoch")
    assert [(e["previousId"], e["nextId"]) for e in d["epochs"]] == [
        (None, d["epochs"][1]["id"]),
        (d["epochs"][0]["id"], d["epochs"][2]["id"]),
        (d["epochs"][1]["id"], None),
    ]
    # The schedule's instances still point at the shared epochs.
    used = {i["epochId"] for t in d["scheduleTimelines"] for i in t["instances"] if i.get("epochId")}
    assert used == {e["id"] for e in d["epochs"][:2]}
    # A new epoch printed before the shared ones goes first.
    early = reading()
    early["epochs"].insert(0, item(name="Pre-screening"))
    assert [e["name"] for e in study_design(export(early))["epochs"]][:2] == ["Pre-screening", "Screening"]


def cycle_schedule_result(design: dict) -> dict:
    """The main schedule with its treatment columns under "Cycle 1" and "Cycle 2 and Subsequent
    Cycles" instead of one "Treatment Period"."""
    schedule = main_schedule()
    schedule["epochs"] = [
        {"label": "Screening", "encounters": [0]},
        {"label": "Cycle 1", "encounters": [1, 2]},
        {"label": "Cycle 2 and Subsequent Cycles", "encounters": [3]},
    ]
    for k, e in enumerate(schedule["encounters"][1:], start=1):
        e["epoch"] = "Cycle 1" if k < 3 else "Cycle 2 and Subsequent Cycles"
    result = result_with([schedule])
    result["study"] = dict(study(), design=design)
    return result


def test_a_schedules_cycles_are_the_designs_one_treatment_epoch():
    d = study_design(to_usdm(cycle_schedule_result(reading())))
    assert [e["name"] for e in d["epochs"]] == ["Screening", "Treatment", "Follow-up Period"]
    treatment = d["epochs"][1]["id"]
    used = {i["epochId"] for t in d["scheduleTimelines"] for i in t["instances"] if i.get("epochId")}
    assert used == {d["epochs"][0]["id"], treatment}  # the cycles' visits are in the treatment epoch
    assert {c["epochId"] for c in d["studyCells"]} == {e["id"] for e in d["epochs"]}
    # two treatment epochs printed (double-blind, then extension): which one a cycle is in is not
    # printed, so the cycles stay epochs of their own
    two = reading()
    two["epochs"].insert(2, item(name="Extension Treatment"))
    names = [e["name"] for e in study_design(to_usdm(cycle_schedule_result(two)))["epochs"]]
    assert "Cycle 1" in names and "Cycle 2 and Subsequent Cycles" in names


def test_a_schedules_baseline_band_before_the_treatment_epoch_is_that_epochs_first_day():
    schedule = main_schedule()
    schedule["epochs"] = [
        {"label": "Screening", "encounters": [0]},
        {"label": "Baseline", "encounters": [1]},
        {"label": "Treatment Period", "encounters": [2, 3]},
    ]
    schedule["encounters"][1]["epoch"] = "Baseline"
    result = result_with([schedule])
    result["study"] = dict(study(), design=reading())
    d = study_design(to_usdm(result))
    assert [e["name"] for e in d["epochs"]] == ["Screening", "Treatment Period", "Follow-up Period"]
    used = {i["epochId"] for t in d["scheduleTimelines"] for i in t["instances"] if i.get("epochId")}
    assert used == {d["epochs"][0]["id"], d["epochs"][1]["id"]}
    # the design printing the baseline as a period keeps it
    printed = reading()
    printed["epochs"].insert(1, item(name="Baseline"))
    assert "Baseline" in [
        e["name"] for e in study_design(to_usdm(dict(result, study=dict(study(), design=printed))))["epochs"]
    ]


def test_interventions_with_an_administration_per_dose_and_their_products():
    usdm = export()
    v, d = study_version(usdm), study_design(usdm)
    drug, placebo, rescue = v["studyInterventions"]
    assert d["studyInterventionIds"] == [drug["id"], placebo["id"], rescue["id"]]
    assert [code(si["role"]) for si in v["studyInterventions"]] == [
        ("C41161", "Experimental Intervention"),
        ("C753", "Placebo"),
        ("C165835", "Rescue Medications"),
    ]
    assert all(code(si["type"]) == ("C1909", "Pharmacologic Substance") for si in v["studyInterventions"])
    doses = [
        (a["dose"]["value"], code(a["dose"]["unit"]), code(a["route"]), code(a["frequency"]))
        for a in drug["administrations"]
    ]
    assert doses == [
        (10.0, ("C28253", "mg"), ("C38288", "Oral Route of Administration"), ("C25473", "Daily")),
        (2.5, ("C67401", "mg/kg"), ("C38288", "Oral Route of Administration"), ("C25473", "Daily")),
    ]
    products = {p["id"]: p for p in v["administrableProducts"]}
    assert [p["name"] for p in v["administrableProducts"]] == ["Drug X", "Salbutamol"]
    assert {products[a["administrableProductId"]]["name"] for a in drug["administrations"]} == {"Drug X"}
    assert code(products[drug["administrations"][0]["administrableProductId"]]["productDesignation"]) == (
        "C202579",
        "Investigational Medicinal Product",
    )
    assert code(v["administrableProducts"][1]["productDesignation"]) == ("C156473", "Auxiliary Medicinal Product")
    assert code(v["administrableProducts"][0]["administrableDoseForm"]) == ("C150001", "Unknown Dosage Form Category")
    # No dose: one administration with route and frequency, no product (a product goes with a dose: DDF00185).
    [only] = placebo["administrations"]
    assert (
        only["dose"] is None
        and only["administrableProductId"] is None
        and code(only["frequency"]) == ("C25473", "Daily")
    )
    assert code(rescue["administrations"][0]["frequency"]) == ("C64499", "As Needed")
    assert code(rescue["administrations"][0]["dose"]["unit"]) == ("C48152", "ug")


@pytest.mark.parametrize(
    "frequency, expected",
    [
        # once a day: a daily amount is the amount of each administration, and one dose printed
        # both ways ("15 mg", "15 mg/day") is one administration
        ("once daily", [(15.0, "mg"), (30.0, "mg"), (2.0, "mg/kg")]),
        # twice a day: a daily amount is not one administration's, so it stays as printed
        ("twice daily", [(15.0, "mg"), (15.0, "mg/day"), (30.0, "mg/day"), (2.0, "mg/kg/day")]),
    ],
)
def test_a_daily_amount_is_one_administrations_dose_only_when_given_once_a_day(frequency, expected):
    design = reading()
    drug = design["interventions"][0]
    drug["frequency"] = frequency
    drug["doses"] = [
        {"value": 15, "unit": "mg", "printed": "15 mg"},
        {"value": 15, "unit": "mg/day", "printed": "15 mg/day"},
        {"value": 30, "unit": "mg/day", "printed": "30 mg/day"},
        {"value": 2, "unit": "mg/kg/day", "printed": "2 mg/kg/day"},
    ]
    administrations = study_version(export(design))["studyInterventions"][0]["administrations"]
    assert [(a["dose"]["value"], code(a["dose"]["unit"])[1]) for a in administrations] == expected
    # what was printed stays said
    assert "30 mg/day" in " ".join(a["description"] or "" for a in administrations)


def test_what_has_no_code_is_kept_as_printed_and_what_is_unknown_is_said():
    design = reading()
    design["interventions"][0].update(
        role=None,
        frequency="every 26 weeks",
        route="other",
        doses=[{"value": 2, "unit": "puffs", "printed": "2 puffs"}],
    )
    si = study_version(export(design))["studyInterventions"][0]
    # A frequency CDISC has no term for: the printed words, in ClinParser's own code system.
    [administration] = si["administrations"]
    frequency = administration["frequency"]["standardCode"]
    assert (frequency["code"], frequency["decode"], frequency["codeSystem"]) == (
        "every 26 weeks",
        "every 26 weeks",
        "ClinParser",
    )
    # A dose unit without a code: no dose, the printed dose in the description; route other: none.
    assert administration["dose"] is None and administration["route"] is None
    assert (
        "dose as printed: 2 puffs" in administration["description"] and "route: other" in administration["description"]
    )
    # A role not printed is coded, and said.
    assert code(si["role"]) == ("C41161", "Experimental Intervention")
    assert "its role (coded Experimental Intervention" in si["notes"][0]["text"]


@pytest.mark.parametrize(
    "printed, term",
    [
        ("once daily", ("C25473", "Daily")),
        ("QD", ("C25473", "Daily")),
        ("daily", ("C25473", "Daily")),
        ("twice daily (BID)", ("C64496", "Twice Daily")),
        ("b.i.d.", ("C64496", "Twice Daily")),
        ("three times a day", ("C64527", "Three Times Daily")),
        ("once weekly", ("C64526", "Once Weekly")),
        ("every 3 weeks (Q3W)", ("C64535", "Every Three Weeks")),
        ("Q2W", ("C71127", "Every Two Weeks")),
        ("every two weeks", ("C71127", "Every Two Weeks")),
        ("once every 4 weeks", ("C64529", "Every Four Weeks")),
        ("every 12 hours", ("C64502", "Every Twelve Hours")),
        ("q8h", ("C64523", "Every Eight Hours")),
        ("every other day", ("C64525", "Every Other Day")),
        ("every 3 months", ("C64537", "Every Three Months")),
        ("single dose", ("C64576", "Once")),
        ("x 1", ("C64576", "Once")),  # "6 mg SC x 1"
        ("as needed", ("C64499", "As Needed")),
        ("PRN", ("C64499", "As Needed")),
        ("continuous infusion", ("C53279", "Continuous")),
        ("thrice weekly", ("C64528", "Three Times Weekly")),
        ("three times a week (TIW)", ("C64528", "Three Times Weekly")),
        ("Days 1, 8 and 15 of every 28-day cycle", ("C176289", "Three Times Per Cycle")),
        ("on Days 1 and 8 of each 21 day cycle", ("C176288", "Two Times Per Cycle")),
        # None: no term, two terms, a number the codelist has no term for.
        ("every 26 weeks", None),
        ("QD for 7 days, then BID", None),
        ("on Days 1 and 8", ("C71325", "Intermittent")),
        ("Days 1, 6 and 13", ("C71325", "Intermittent")),
        ("Days 1 to 5", None),
        ("Days 1-14 of each 21-day cycle", None),  # a range: daily dosing in the cycle, no count
        ("", None),
        (None, None),
    ],
)
def test_printed_frequencies_and_their_cdisc_terms(printed, term):
    assert frequency_term(printed) == term


def test_population_planned_enrollment_age_sex_and_healthy_subjects():
    population = study_design(export())["population"]
    assert (
        population["plannedEnrollmentNumber"]["value"] == 120.0
        and population["plannedEnrollmentNumber"]["unit"] is None
    )
    age = population["plannedAge"]
    assert (
        age["minValue"]["value"],
        age["maxValue"]["value"],
        code(age["maxValue"]["unit"]),
        age["isApproximate"],
    ) == (18.0, 75.0, ("C29848", "Year"), False)
    assert [code(c) for c in population["plannedSex"]] == [("C16576", "Female"), ("C20197", "Male")]
    assert population["includesHealthySubjects"] is False and population["notes"] == []
    # No upper bound printed: 100 years, said; healthy volunteers read true.
    design = reading()
    design["population"]["age"]["max"] = None
    design["population"]["healthy_volunteers"]["value"] = True
    population = study_design(export(design))["population"]
    assert population["plannedAge"]["maxValue"]["value"] == 100.0 and population["includesHealthySubjects"] is True
    assert population["notes"][0]["text"].startswith("No upper age limit is printed")
    # Nothing printed: nothing filled, and the design's note says so.
    bare = dict(
        reading(), population={"planned_enrollment": None, "age": None, "sex": None, "healthy_volunteers": None}
    )
    d = study_design(export(bare))
    assert d["population"]["plannedAge"] is None and d["population"]["plannedSex"] == []
    assert d["population"]["plannedEnrollmentNumber"] is None
    unread = d["notes"][-1]["text"]
    assert unread.startswith("Not read by ClinParser") and "planned enrollment" in unread and "planned sex" in unread


def test_model_masking_allocation_and_ratio():
    d = study_design(export())
    assert code(d["model"]) == ("C82639", "Parallel Study")
    assert code(d["blindingSchema"]) == ("C15228", "Double Blind Study")
    assert [code(c) for c in d["characteristics"]] == [("C46079", "Randomized")]
    assert any(n["text"] == "Allocation ratio as printed: 1:1." for n in d["notes"])
    expected = {
        "open label": ("C49659", "Open Label Study"),
        "single blind": ("C28233", "Single Blind Study"),
        "triple blind": ("C15228", "Double Blind Study"),
        "quadruple blind": ("C15228", "Double Blind Study"),
    }
    for masking, term in expected.items():
        design = dict(reading(), masking=item(value=masking))
        d = study_design(export(design))
        assert code(d["blindingSchema"]) == term
        assert any("Masking printed as" in n["text"] for n in d["notes"]) == ("tri" in masking or "quad" in masking)
    models = {
        "crossover": ("C82637", "Crossover Study"),
        "factorial": ("C82638", "Factorial Study"),
        "single group": ("C82640", "Single Group Study"),
        "sequential": ("C142568", "Group Sequential Design"),
    }
    for model, term in models.items():
        assert code(study_design(export(dict(reading(), model=item(value=model))))["model"]) == term
    non = study_design(export(dict(reading(), allocation=item(value="non-randomized"))))
    assert [code(c) for c in non["characteristics"]] == [("C93043", "Nonrandomized")]
    # No model read: the schema's required model is Parallel with two arms, Single Group with one; said.
    for arms, term in (
        (reading()["arms"], ("C82639", "Parallel Study")),
        (reading()["arms"][:1], ("C82640", "Single Group Study")),
    ):
        d = study_design(export(dict(reading(), model=None, arms=arms)))
        assert code(d["model"]) == term and f"the intervention model (coded {term[1]}" in d["notes"][-1]["text"]


def test_indication_and_amendments():
    usdm = export()
    [indication] = study_design(usdm)["indications"]
    assert (indication["name"], indication["label"], indication["description"], indication["isRareDisease"]) == (
        "IND1",
        "moderate to severe atopic dermatitis",
        "moderate to severe atopic dermatitis",
        False,
    )
    first, second = study_version(usdm)["amendments"]
    assert [(a["name"], a["number"], a["summary"]) for a in (first, second)] == [
        ("AMEND_1", "1", "Sites added."),
        ("AMEND_2", "2", ""),
    ]
    assert (first["previousId"], second["previousId"]) == (None, first["id"])
    assert code(first["primaryReason"]["code"]) == ("C17649", "Other") and first["primaryReason"]["otherReason"]
    [date] = first["dateValues"]
    assert (date["dateValue"], code(date["type"])) == ("2020-03-14", ("C71476", "Approval Date"))
    assert second["dateValues"] == []


def test_the_export_validates_is_deterministic_and_its_references_hold(usdm_schema):  # noqa: F811
    usdm = export()
    assert_valid_usdm(usdm_schema, usdm)
    assert json.dumps(export(), sort_keys=True) == json.dumps(usdm, sort_keys=True)
    ids = []

    def walk(o):
        if isinstance(o, dict):
            ids.append(o.get("id")) if isinstance(o.get("id"), str) else None
            [walk(x) for x in o.values()]
        elif isinstance(o, list):
            [walk(x) for x in o]

    walk(usdm)
    assert len(ids) == len(set(ids))
    # A design with nothing read is valid too.
    nothing = {
        "arms": [],
        "epochs": [],
        "interventions": [],
        "population": {},
        "allocation": None,
        "model": None,
        "masking": None,
        "ratio": None,
        "indication": None,
        "amendments": [],
    }
    assert_valid_usdm(usdm_schema, export(nothing))
    # Broken references are found.
    broken = copy.deepcopy(usdm)
    study_design(broken)["studyCells"][0]["epochId"] = "StudyEpoch_0099"
    study_version(broken)["studyInterventions"][0]["administrations"][0]["administrableProductId"] = (
        "AdministrableProduct_0099"
    )
    study_design(broken)["elements"][1]["studyInterventionIds"] = ["StudyIntervention_0099"]
    errors = usdm_errors(broken, usdm_schema)
    assert any("StudyEpoch_0099" in e for e in errors) and any("AdministrableProduct_0099" in e for e in errors)
    assert any("StudyIntervention_0099" in e for e in errors)


@pytest.mark.skipif(not SCORER.is_file(), reason=f"design scorer not available: {SCORER}")
def test_the_scorer_reads_the_export(tmp_path):
    usdm = tmp_path / "usdm.json"
    usdm.write_text(json.dumps(export()), encoding="utf-8")
    gold = tmp_path / "gold.design.json"
    gold.write_text(
        json.dumps(
            {
                "arms": [
                    {"name": "Arm A: Drug X 10 mg", "type": "experimental"},
                    {"name": "Arm B: Placebo", "type": "placebo comparator"},
                ],
                "epochs": ["Screening", "Treatment", "Follow-up"],
                "interventions": [
                    {
                        "name": "Drug X",
                        "role": "investigational",
                        "doses": ["10 mg", "2.5 mg/kg"],
                        "route": "oral",
                        "frequency": "once daily",
                    },
                    {"name": "Placebo", "role": "placebo", "doses": [], "route": "oral", "frequency": "QD"},
                    {
                        "name": "Salbutamol",
                        "role": "rescue",
                        "doses": ["100 ug"],
                        "route": "inhalation",
                        "frequency": "as needed",
                    },
                ],
                "population": {
                    "planned_enrollment": 120,
                    "min_age": 18,
                    "max_age": 75,
                    "age_unit": "years",
                    "sex": "both",
                    "healthy_volunteers": False,
                },
                "design": {"allocation": "randomized", "model": "parallel", "masking": "double blind", "ratio": "1:1"},
                "indication": "atopic dermatitis",
                "amendments": [{"number": "1", "date": "2020-03-14"}, {"number": "2", "date": None}],
            }
        ),
        encoding="utf-8",
    )
    out = subprocess.run(
        [sys.executable, str(SCORER), str(usdm), str(gold)], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip().splitlines()[-1] == (
        "design arms P/R/F1 1.000/1.000/1.000 epochs P/R/F1 1.000/1.000/1.000 interventions P/R/F1 1.000/1.000/1.000 "
        "attrs 1.000 population 1.000 design 1.000 indication 1.000 amendments P/R/F1 1.000/1.000/1.000 mean 1.000"
    )


def test_days_of_a_cycle_are_coded_as_times_per_cycle_and_the_days_kept_in_the_description():
    design = reading()
    design["interventions"][0]["frequency"] = "Days 1, 8 and 15 of every 28-day cycle"
    administrations = study_version(export(design))["studyInterventions"][0]["administrations"]
    assert {code(a["frequency"]) for a in administrations} == {("C176289", "Three Times Per Cycle")}
    assert all(
        "frequency as printed: Days 1, 8 and 15 of every 28-day cycle" in a["description"] for a in administrations
    )
