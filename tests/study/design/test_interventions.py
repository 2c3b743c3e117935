"""Interventions: the products from tables, fields, the title and sentences; their roles, doses, routes
and frequencies."""

import pytest

from clinparser.study.design.fields import Field
from clinparser.study.design.interventions import read_interventions
from clinparser.study.trace import Tracer

NO_TRACE = Tracer([])
WHERE = Field("table", "", "6.1", (30, 30), False, "table")


def test_an_intervention_table_a_row_per_product():
    table = {
        "columns": ["Intervention Name", "Dose", "Route", "Frequency", "Use"],
        "data": [
            ["Drug X", "10 mg, 20 mg", "Oral tablet", "Once daily", "Investigational"],
            ["Placebo", "0 mg", "Oral", "Once daily", "Placebo"],
            ["Albuterol", "100 mcg", "Inhaled", "As needed", "Rescue medication"],
        ],
    }
    found = read_interventions([], [(table, WHERE)], NO_TRACE)
    assert [(i["name"], i["role"], i["route"]) for i in found] == [
        ("Drug X", "investigational", "oral"),
        ("Placebo", "placebo", "oral"),
        ("Albuterol", "rescue", "inhalation"),
    ]
    assert [d["printed"] for d in found[0]["doses"]] == ["10 mg", "20 mg"] and found[0]["frequency"] == "Once daily"
    assert found[2]["doses"][0]["unit"] == "ug" and found[2]["frequency"] == "As needed"


def test_a_table_of_chemotherapeutic_agents_a_row_per_product():
    table = {
        "columns": ["Chemotherapeutic Agent", "Dose", "Route", "Day", "Infusion Duration"],
        "data": [
            ["Docetaxel", "75 mg/m2", "IV", "1", "60 minutes"],
            ["Cyclophosphamide", "600 mg/m2", "IV", "1", "30 minutes"],
        ],
    }
    where = Field("Chemotherapy Administration", "", "4.1", (12, 12), False, "table")
    products = read_interventions([], [(table, where)], NO_TRACE)
    assert [(p["name"], [d["printed"] for d in p["doses"]], p["route"]) for p in products] == [
        ("Docetaxel", ["75 mg/m2"], "intravenous"),
        ("Cyclophosphamide", ["600 mg/m2"], "intravenous"),
    ]


def test_a_transposed_intervention_table_a_column_per_product():
    table = {
        "columns": ["Study intervention name", "Drug Y", "Drug Z"],
        "data": [
            ["Unit dose strength", "100 mg", "5 mg/kg"],
            ["Route of administration", "SC injection", "IV infusion"],
            ["Use", "Experimental", "Comparator"],
        ],
    }
    found = read_interventions([], [(table, WHERE)], NO_TRACE)
    assert [(i["name"], i["role"], i["route"]) for i in found] == [
        ("Drug Y", "investigational", "subcutaneous"),
        ("Drug Z", "comparator", "intravenous"),
    ]


def test_a_synopsis_table_naming_its_sponsor_is_no_column_per_product():
    # "Name of Sponsor" names the company: the synopsis's fields are read as fields
    table = {
        "columns": ["Title", "A Phase 1 Multiple Ascending Dose Study of Drugolisib"],
        "data": [
            ["Name of Sponsor", "Meridale Bio"],
            ["Phase", "Phase 1"],
            ["Dose Cohorts", "Cohort 1 (25 mg)\nCohort 2 (50 mg)"],
            [
                "Test Product, Dose and Mode of Administration",
                "Drugolisib (25 mg or 50 mg), by intramuscular injection",
            ],
        ],
    }
    field = Field(
        "Test Product, Dose and Mode of Administration",
        "Drugolisib (25 mg or 50 mg), by intramuscular injection every 8 weeks",
        "1.1",
        (3, 3),
        True,
        "table",
    )
    (product,) = read_interventions([field], [(table, WHERE)], NO_TRACE)
    assert (product["name"], product["route"]) == ("Drugolisib", "intramuscular")
    assert [d["printed"] for d in product["doses"]] == ["25 mg", "50 mg"]


def test_what_a_products_field_leaves_out_comes_from_the_dosing_sentences_naming_it():
    fields = [
        Field("Name of Study Drug", "Drugamab", "1.1", (3, 3), True, "table"),
        Field(
            "Dosage and Administration",
            "Drugamab 160 mg will be taken orally once daily.\nOther text 5 mg IV.",
            "6.1",
            (30, 30),
            False,
            "section",
        ),
    ]
    (product,) = read_interventions(fields, [], NO_TRACE)
    assert (product["name"], product["route"], product["frequency"]) == ("Drugamab", "oral", "once daily")
    assert [d["printed"] for d in product["doses"]] == ["160 mg"]  # the line naming another product is not read


def test_products_the_title_names_when_no_table_or_field_does():
    fields = [
        Field(
            "Study Design",
            "Participants will be randomized 3:1 to receive Zelomab 5 mg or placebo three times a week.",
            "1.1",
            (3, 3),
            True,
            "table",
        ),
        Field(
            "Dose and Administration",
            "Zelomab 5 mg is given intravenously three times a week (TIW).",
            "6.1",
            (30, 30),
            False,
            "section",
        ),
    ]
    title = {"text": "A Randomized, Placebo-controlled Study of Zelomab in Adults With Gout", "page": 1}
    found = read_interventions(fields, [], NO_TRACE, title=title)
    assert [(i["name"], i["role"]) for i in found] == [("Zelomab", "investigational"), ("Placebo", "placebo")]
    assert (found[0]["route"], [d["printed"] for d in found[0]["doses"]]) == ("intravenous", ["5 mg"])


def test_products_the_intervention_section_doses_in_sentences():
    fields = [
        Field(
            "Study Interventions Administered",
            "Zelomab 50 mg (tablets) will be taken orally once daily.\n"
            "Placebo tablets, identical in appearance to Zelomab, are taken orally once daily.",
            "6.1",
            (30, 30),
            False,
            "section",
        ),
        Field("Study Design", "Zelomab or placebo is given for 12 weeks.", "4.1", (20, 20), False, "section"),
    ]
    found = read_interventions(fields, [], NO_TRACE)
    assert [(i["name"], i["role"], i["route"]) for i in found] == [
        ("Zelomab", "investigational", "oral"),
        ("Placebo", "placebo", "oral"),
    ]


def test_a_product_a_past_study_gave_is_no_product_of_this_one():
    fields = [
        Field(
            "Use of the Zelotaxel Regimen in Older Patients",
            "Patients received either A or Zelotaxel every 3 weeks. Dexamethasone 8 mg orally twice daily was given "
            "as a premedication.\nZelotaxel 75 mg/m2 will be given intravenously every 3 weeks.",
            "2.2.4",
            (10, 10),
            False,
            "section",
        ),
        Field("Study Design", "Dexamethasone and Zelotaxel are named twice.", "4.1", (20, 20), False, "section"),
    ]
    assert [i["name"] for i in read_interventions(fields, [], NO_TRACE)] == ["Zelotaxel"]


def test_a_schedule_of_activities_is_no_intervention_table():
    table = {
        "columns": ["Procedure", "Day 1", "Day 8"],
        "data": [["Study drug administration", "X", "X"], ["Dose", "X", ""]],
        "schedule": {"main": True},
    }
    assert read_interventions([], [(table, WHERE)], NO_TRACE) == []


def test_a_placebo_named_before_its_sentence_takes_route_and_frequency_from_it_but_no_dose():
    fields = [
        Field(
            "Study Intervention",
            "Zelomab is supplied as 100 µg inhalation powder, inhaled once daily.\n"
            "Placebo powder that looks the same as Zelomab 100 µg is inhaled twice daily.",
            "6.1",
            (30, 30),
            False,
            "section",
        )
    ]
    title = {"text": "A Placebo-controlled Study of Zelomab 100 µg in Adults With Asthma", "page": 1}
    found = read_interventions(fields, [], NO_TRACE, title=title)
    placebo = next(i for i in found if i["role"] == "placebo")
    assert (placebo["route"], placebo["frequency"], placebo["doses"]) == ("inhalation", "twice daily", [])


def test_a_sentence_about_the_study_intervention_as_a_whole_fills_every_product():
    fields = [
        Field("Name of Study Drug", "Zelomab\nPlacebo", "1.1", (3, 3), True, "table"),
        Field(
            "Overview",
            "Study intervention will be administered subcutaneously every 2 weeks by site staff.",
            "1.1",
            (3, 3),
            True,
            "section",
        ),
    ]
    found = read_interventions(fields, [], NO_TRACE)
    assert [(i["name"], i["route"], i["frequency"]) for i in found] == [
        ("Zelomab", "subcutaneous", "every 2 weeks"),
        ("Placebo", "subcutaneous", "every 2 weeks"),
    ]
    fields[1] = Field(
        "Overview",
        "Study intervention is defined as any product given to a participant.",
        "1.1",
        (3, 3),
        True,
        "section",
    )
    assert {(i["route"], i["frequency"]) for i in read_interventions(fields, [], NO_TRACE)} == {(None, None)}


def test_the_volume_a_dose_comes_in_is_no_dose():
    fields = [
        Field("Name of Study Drug", "Zelomab", "1.1", (3, 3), True, "table"),
        Field(
            "Dosage and Administration",
            "Zelomab is supplied in a syringe containing 200 mg in 1.0 mL; Zelomab 200 mg/2 mL vials are also used.",
            "6.1",
            (30, 30),
            False,
            "section",
        ),
    ]
    (product,) = read_interventions(fields, [], NO_TRACE)
    assert [d["printed"] for d in product["doses"]] == ["200 mg"]


def test_background_therapy_given_in_a_sentence_is_an_intervention():
    where = Field(
        "Treatments Administered",
        "Drugzumab 50 mg is given by subcutaneous injection every 2 weeks. "
        "Drugzumab is supplied by the sponsor.\nParticipants keep taking oral Metformin as prescribed "
        "before screening as background therapy.",
        "5.1",
        (20, 20),
        False,
        "section",
    )
    found = read_interventions([where], [], NO_TRACE)
    assert [(i["name"], i["role"], i["route"], i["frequency"]) for i in found] == [
        ("Drugzumab", "investigational", "subcutaneous", "every 2 weeks"),
        ("Metformin", "background", "oral", "as prescribed"),
    ]


def test_a_products_frequency_is_the_one_most_lines_print_nearest_its_name():
    where = Field(
        "Treatments Administered",
        "The first is daily drugatinib (30 mg QD) and the second is weekly MTX.\n"
        "Drugatinib will be taken orally once daily.\nMTX capsules are taken once weekly and 1 tablet once daily.\n"
        "A single loading dose of drugatinib is given on Day 1; a single dose of drugatinib may be repeated.",
        "5.1",
        (20, 20),
        False,
        "section",
    )
    products = [
        {"name": "Drugatinib", "role": "investigational", "doses": [], "route": None, "frequency": "every week"},
        {"name": "MTX", "role": "comparator", "doses": [], "route": None, "frequency": None},
    ]
    from clinparser.study.design.interventions import _complete

    _complete(products, [where])
    assert [p["frequency"] for p in products] == ["daily", "weekly"]


def test_thrice_weekly_is_a_frequency():
    where = Field(
        "Investigational Product",
        "Investigational product will be administered thrice weekly with each "
        "hemodialysis treatment. Each subject will receive AMG 416 or placebo.",
        "6.2",
        (30, 30),
        False,
        "section",
    )
    products = [{"name": "AMG 416", "role": "investigational", "doses": [], "route": None, "frequency": None}]
    from clinparser.study.design.interventions import _complete

    _complete(products, [where])
    assert products[0]["frequency"] == "thrice weekly"


def test_one_infusion_of_a_product_is_a_single_dose_and_at_least_one_is_not():
    where = Field(
        "Study Treatment",
        "Patients in the active arm will receive one infusion of drugizumab 8 mg/kg.\n"
        "At baseline, patients will receive one infusion of drugizumab IV; one additional infusion "
        "of drugizumab can be given 8-24 hours later.\n"
        "Patients who received at least one infusion of drugizumab are in the safety population.",
        "4.3",
        (30, 31),
        False,
        "section",
    )
    products = [{"name": "Drugizumab", "role": "investigational", "doses": [], "route": None, "frequency": None}]
    from clinparser.export.usdm_design import frequency_term
    from clinparser.study.design.interventions import _complete

    _complete(products, [where])
    assert products[0]["frequency"] == "one infusion"
    assert frequency_term(products[0]["frequency"]) == ("C64576", "Once")
    # "at least one infusion" counts nothing, however many lines print it
    where.value = "\n".join([where.value.split("\n")[2]] * 3)
    products[0]["frequency"] = None
    _complete(products, [where])
    assert products[0]["frequency"] is None


def test_doses_printed_one_after_another_after_the_products_name_are_its_dose_levels():
    fields = [
        Field("Study Drug", "Drug X capsules, taken orally once daily.", "1.1", (3, 3), True, "paragraph"),
        Field(
            "Overall Design",
            "This study compares Drug X 1.5 mg/day and Drug X 3 mg/day with placebo. In the "
            "extension, subjects take Drug X 30 mg once daily (QD) alone and 15 mg QD alone versus MTX 20 mg. "
            "A single dose of Drug X 300 mg (1 x 300 mg tablet plus 1 placebo tablet), 600 mg (2 x 300 mg tablets), "
            "or 2 matching placebo tablets. Drug X 10 mg and Drug Y 20 mg are not doses of one product.",
            "4.1",
            (20, 20),
            False,
            "section",
        ),
    ]
    (product,) = [p for p in read_interventions(fields, [], NO_TRACE) if p["name"] == "Drug X"]
    assert [d["printed"] for d in product["doses"]] == [
        "1.5 mg/day",
        "3 mg/day",
        "30 mg",
        "15 mg",
        "300 mg",
        "600 mg",
        "10 mg",
    ]


def test_a_codes_letters_alone_do_not_name_the_product_a_dose_follows():
    fields = [
        Field("Study Intervention", "ABC 1234 tablets, taken orally once daily.", "1.1", (3, 3), True, "paragraph"),
        # a schema picture's text ran the code's number into the dose: "ABC 1234 50 mg"
        Field("Overall Design", "ABC 1234 10 mg QD\nABC 123450 mg QD\nPlacebo QD", "4.1", (20, 20), False, "section"),
    ]
    (product,) = [p for p in read_interventions(fields, [], NO_TRACE) if p["name"] == "ABC 1234"]
    assert [d["printed"] for d in product["doses"]] == ["10 mg"]


def test_a_codes_number_before_a_dose_is_no_dose_of_a_list_sharing_its_unit():
    fields = [
        Field("Investigational Product", "ZHE-1092, 5 mg, taken orally once daily", "1.1", (3, 3), True, "table"),
        Field("Dose", "MTX 7.5, 10 or 25 mg weekly", "1.2", (3, 3), True, "table"),
    ]
    products = {p["name"]: [d["printed"] for d in p["doses"]] for p in read_interventions(fields, [], NO_TRACE)}
    assert products["ZHE-1092"] == ["5 mg"]


def test_a_product_field_naming_two_products_gives_each_its_own_doses():
    fields = [
        Field(
            "Test Product, Dose and Mode of Administration",
            "Velusolisib 100 mg as film-coated tablets taken orally twice daily; Narisoparin, 400 mg, taken orally "
            "twice daily",
            "1.1",
            (3, 3),
            True,
            "table",
        ),
    ]
    products = {p["name"]: [d["printed"] for d in p["doses"]] for p in read_interventions(fields, [], NO_TRACE)}
    assert products["Velusolisib"] == ["100 mg"]


def test_a_later_tables_dose_steps_add_to_the_products_doses():
    products = {
        "columns": ["Product", "Strength", "Route"],
        "data": [["Drug Z", "1.0 mg/mL and 3.0 mg/mL", "SC"], ["Placebo", "-", "SC"]],
    }
    steps = {
        "columns": ["Trial product name", "Dose", "Volume", "Duration"],
        "data": [
            ["Drug Z B 1.0 mg/mL or Drug Z placebo", "0.25 mg", "0.25 ml", "4 weeks"],
            ["Drug Z B 3.0 mg/mL or Drug Z placebo", "1.7 mg", "0.57 ml", "4 weeks"],
            ["Other drug", "99 mg", "1 ml", "4 weeks"],
        ],
    }
    found = read_interventions([], [(products, WHERE), (steps, WHERE)], NO_TRACE)
    assert [i["name"] for i in found] == ["Drug Z", "Placebo"]  # the later table adds no product
    assert [d["printed"] for d in found[0]["doses"]] == ["0.25 mg", "1.7 mg"] and found[1]["doses"] == []


def test_a_transposed_tables_role_from_the_first_role_row_that_names_one():
    # "Type" names a kind of product, not a role; "Use" names the role
    table = {
        "columns": ["Study intervention name", "Drug Y", "Albuterol"],
        "data": [
            ["Type", "Biologic", "Drug"],
            ["Dosage level", "100 mg", "As needed"],
            ["Route of administration", "SC injection", "Oral inhalation"],
            ["Use", "IMP", "Rescue medication"],
        ],
    }
    found = read_interventions([], [(table, WHERE)], NO_TRACE)
    assert [(i["name"], i["role"]) for i in found] == [("Drug Y", "investigational"), ("Albuterol", "rescue")]


def test_a_rescue_medication_given_in_prose_with_its_dose_in_brackets():
    fields = [
        Field(
            "Study Interventions Administered",
            "Drugex 100 mg (tablets) will be taken orally once daily. "
            "As rescue medication, Periterol (250 mg) may be taken orally as needed.",
            "5.1",
            (20, 20),
            False,
            "section",
        ),
        Field(
            "Overall Design", "All participants receive Drugex 100 mg once daily.", "3.1", (10, 10), False, "section"
        ),
    ]
    found = read_interventions(fields, [], NO_TRACE)
    assert [(i["name"], i["role"]) for i in found] == [("Drugex", "investigational"), ("Periterol", "rescue")]
    assert [d["printed"] for d in found[1]["doses"]] == ["250 mg"] and found[1]["frequency"] == "as needed"
    # "rescue medications" named as a class, no product: nothing is added
    plain = [
        Field(
            "Concomitant Therapy",
            "The use of rescue medications should be withheld before spirometry.",
            "6.5",
            (30, 30),
            False,
            "section",
        )
    ]
    assert read_interventions(plain, [], NO_TRACE) == []


def test_a_synopsis_table_of_several_products_fields_is_no_product_table():
    # "Dose" printed under the investigational product and again under the reference therapy:
    # the synopsis's fields, not a column per product; the identity table after it lists them
    synopsis = {
        "columns": ["Investigational Product:", "Drugex"],
        "data": [
            ["Dose:", "30 mg QD"],
            ["", "15 mg QD"],
            ["Mode of Administration:", "Oral"],
            ["Reference Therapy:", "MTX\nMatching placebo for MTX\nMatching placebo for drugex"],
            ["Dose:", "MTX 7.5, 10, 15 or 25 mg as a single dose every week"],
            ["Mode of Administration:", "Oral"],
        ],
    }
    identity = {
        "columns": ["Investigational\nProduct", "Mode of\nAdministration", "Formulation", "Strength"],
        "data": [
            ["Drugex\n(ABC-494)", "oral", "tablet", "15 mg\n30 mg"],
            ["Drugex\n(ABC-494)\nmatching placebo", "oral", "tablet", "NA"],
            ["MTX", "oral", "capsule", "2.5 mg"],
            ["MTX matching\nplacebo", "oral", "capsule", "NA"],
        ],
    }
    fields = [
        Field(
            "Reference Therapy",
            "MTX\nMatching placebo for MTX\nMatching placebo for drugex",
            "1.2",
            (3, 3),
            True,
            "table",
        ),
        Field("Dose", "MTX 7.5, 10, 15 or 25 mg as a single dose every week", "1.2", (3, 3), True, "table"),
        Field(
            "Treatments Administered",
            "Drugex will be taken orally once daily. MTX is taken every week.",
            "5.5",
            (30, 30),
            False,
            "section",
        ),
    ]
    found = read_interventions(fields, [(synopsis, WHERE), (identity, WHERE)], NO_TRACE)
    assert [(i["name"], i["role"]) for i in found] == [
        ("Drugex (ABC-494)", "investigational"),
        ("Drugex (ABC-494) matching placebo", "placebo"),
        ("MTX", "comparator"),
        ("MTX matching placebo", "placebo"),
    ]  # the reference therapy field says MTX is the comparator
    assert [d["printed"] for d in found[0]["doses"]] == ["15 mg", "30 mg"]
    # a list of numbers sharing one unit: each a dose
    assert [d["printed"] for d in found[2]["doses"]] == ["2.5 mg", "7.5 mg", "10 mg", "15 mg", "25 mg"]
    # a placebo named for its product is given as that product is
    assert (found[1]["frequency"], found[3]["frequency"]) == (found[0]["frequency"], found[2]["frequency"])
    assert found[0]["frequency"] == "once daily" and found[2]["frequency"] == "every week"


def test_a_placebo_glued_to_its_products_name_by_the_text_layer_is_that_placebo():
    table = {
        "columns": ["Trial product", "Strength", "Route"],
        "data": [["Drugex B", "1.0 mg/mL", "SC"], ["Drugexplacebo", "-", "SC"], ["Drugex placebo", "-", "SC"]],
    }
    found = read_interventions([], [(table, WHERE)], NO_TRACE)
    assert [(i["name"], i["role"]) for i in found] == [("Drugex B", "investigational"), ("Drugex placebo", "placebo")]


def test_tables_of_the_standard_of_care_or_of_marked_visits_list_no_study_products():
    soc = {
        "title": "",
        "columns": ["Corticosteroid name", "Daily dose"],
        "data": [["Prednisone", "40 mg PO"], ["Hydrocortisone", "160 mg IV"]],
    }
    under_soc = Field("Current SOC in the master protocol", "", "I3", (70, 70), False, "table")
    assert read_interventions([], [(soc, under_soc)], NO_TRACE) == []
    assert [i["name"] for i in read_interventions([], [(soc, WHERE)], NO_TRACE)] == ["Prednisone", "Hydrocortisone"]
    # a schedule's part the schedule reader left: its rows are activities, not products or fields
    grid = {
        "columns": ["Study drug", "Day 0", "Day 1", "Day 2"],
        "data": [
            ["Study Drug/Placebo Administration", "X", "X", "X"],
            ["Dose adjustment", "", "X", "Report as they occur"],
        ],
    }
    assert read_interventions([], [(grid, WHERE)], NO_TRACE) == []


def test_a_dose_modification_sections_lower_dose_levels_are_the_products_doses():
    def section(label, text):
        return Field(label, text, "5.4", (40, 40), False, "section")

    products = [
        {"name": "Drugamide", "role": "investigational", "doses": [], "route": None, "frequency": None},
        {"name": "Placebo", "role": "placebo", "doses": [], "route": None, "frequency": None},
    ]
    fields = [
        section(
            "Increase or Reduction in Dose of the Study Drug(s)",
            "Study drug may be restarted at the original dose (160 mg/day) or a reduced dose (120 mg or 80 mg/day). "
            "Steroids must be reduced to ≤ 10 mg prednisone per day. The dose may be reduced by 10 mg. "
            "Dose level -2: 2.5 mg.",
        ),
        # the same sentence outside a dose modification section says nothing of dose levels
        section("Concomitant Medications", "Study drug may be given at a reduced dose (40 mg)."),
    ]
    from clinparser.study.design.interventions import _add_reduced_doses

    _add_reduced_doses(products, fields, None)
    assert [d["printed"] for d in products[0]["doses"]] == ["120 mg", "80 mg/day", "2.5 mg"]
    assert products[1]["doses"] == []
    # two investigational products: "study drug" names neither, so no dose is given to one
    products.append({"name": "Otherstat", "role": "investigational", "doses": [], "route": None, "frequency": None})
    products[0]["doses"] = []
    _add_reduced_doses(products, fields, None)
    assert products[0]["doses"] == [] and products[2]["doses"] == []


def test_a_dose_on_the_line_after_a_products_name_is_another_cells():
    # an intervention table with a column per product, its rows flattened into lines: the
    # rescue inhaler's name is followed by the first product's dose, on the next line
    from clinparser.study.design.interventions import _named_doses

    text = "RM-1677\nLicoterol\n1 mg/kg\n100 µg per actuation\nLicoterol 100 µg may be inhaled as needed."
    assert [d["printed"] for d in _named_doses(text, ["licoterol"])] == ["100 µg"]
    assert [d["printed"] for d in _named_doses(text, ["rm-1677"])] == []


@pytest.mark.parametrize(
    "sentence, expected",
    [
        (
            "All subjects must be on a stable maximum tolerated labeled daily dose of ACEi or ARB for at least 4 weeks "
            "prior to randomization.",
            "ACEi or ARB",
        ),
        (
            "In addition, all subjects should take a dietary supplement of folic acid (or equivalent) throughout.",
            "folic acid",
        ),
        ("All participants will continue on a stable dose of metformin during the study.", "metformin"),
        (
            "Throughout the study, participants are to be maintained on their baseline maintenance asthma treatment "
            "consisting of ICS plus at least one other controller.",
            "baseline maintenance asthma treatment",
        ),
        ("Participants will remain on their study treatment until disease progression.", None),
        # not every participant, the study's own product, or the standard of care
        ("Subjects should continue on their stable doses of NSAIDs during the study.", None),
        ("All subjects will take a single dose of study drug at the clinic.", None),
        ("All patients will receive a stable dose of standard of care during the study.", None),
    ],
)
def test_a_therapy_all_participants_must_be_on_is_background(sentence, expected):
    fields = [
        Field("Name of Study Drug", "Zelomab", "1.1", (3, 3), True, "table"),
        Field(
            "Study Intervention",
            "Study intervention will be administered subcutaneously every 2 weeks by site staff.",
            "5.1",
            (20, 20),
            False,
            "section",
        ),
        Field("Inclusion Criteria", sentence, "4.1", (15, 15), False, "section"),
    ]
    found = read_interventions(fields, [], NO_TRACE)
    background = [(i["name"], i["route"], i["frequency"]) for i in found if i["role"] == "background"]
    # the sentence about the study intervention as a whole says nothing of a background therapy
    assert background == ([(expected, None, None)] if expected else [])


@pytest.mark.parametrize(
    "sentence, expected",
    [
        (
            "All patients should receive either pegfilgrastim 6 mg SC x 1 or equivalent therapy (i.e. filgrastim) "
            "24 to 72 hours following the end of the infusion.",
            ("pegfilgrastim", ["6 mg"], "subcutaneous", "x 1"),
        ),
        (
            "Allopurinol 300mg PO once daily during cycle 2 and 3 on days 1-7 for all subjects.",
            ("Allopurinol", ["300mg"], "oral", "once daily"),
        ),
        (
            "Participants are required to receive concomitant antiplatelet therapy.",
            ("antiplatelet therapy", [], None, None),
        ),
        # the study's own product given to all, a test done for all, a background named by its kind
        ("All subjects will receive open-label zelomab 15 mg QD.", None),
        ("For all subjects, a resting 12-lead ECG will be recorded.", None),
        ("Patients are required to receive background therapy with ADT.", None),
        ("Patients are required to receive the treatment they were assigned.", None),
        ("Patients are required to receive protocol therapy until progression.", None),
        ("Total 600 mg per day for all patients.", None),
    ],
)
def test_a_dosed_product_or_a_therapy_given_to_everyone_is_background(sentence, expected):
    fields = [
        Field("Name of Study Drug", "Zelomab", "1.1", (3, 3), True, "table"),
        Field("Treatment Plan", sentence, "5.1", (20, 20), False, "section"),
    ]
    found = read_interventions(fields, [], NO_TRACE)
    background = [
        (i["name"], [d["printed"] for d in i["doses"]], i["route"], i["frequency"])
        for i in found
        if i["role"] == "background"
    ]
    assert background == ([expected] if expected else [])


def test_an_inhalers_dose_per_actuation_is_a_dose():
    from clinparser.study.design.interventions import _doses

    assert [(d["value"], d["unit"]) for d in _doses("Unit dose strength: 100 mcg/actuation (deliverable)")] == [
        (100, "ug")
    ]
    assert [(d["value"], d["unit"]) for d in _doses("50 µg per puff, 2 puffs as needed")] == [(50, "ug")]
    # a concentration is still no dose of its own
    assert _doses("100 mg/mL") == []


def test_a_products_route_is_the_first_printed_and_oral_inhalation_is_inhalation():
    from clinparser.study.design.interventions import _route_in

    # a loading dose's route is printed after the regimen's
    assert _route_in("TEV-123 administered subcutaneously every 2 weeks after one intravenous loading dose") == (
        "subcutaneous"
    )
    assert _route_in("A single IV infusion, then subcutaneous injections") == "intravenous"
    assert _route_in("a white crystalline powder intended for oral inhalation only") == "inhalation"
    assert _route_in("Tablets are taken orally once daily") == "oral"


def test_a_volume_is_no_dose_of_a_product_dosed_by_mass_and_a_placebo_has_none():
    table = {
        "columns": ["Intervention Name", "Dose", "Route"],
        "data": [
            ["Drugatinib", "200 mg with 240 mL of water", "Oral"],
            ["Placebo", "3 mL pen", "Subcutaneous"],
            ["Saline flush", "10 mL", "Intravenous"],
        ],
    }
    where = Field("Study Interventions", "", "6.1", (40, 40), False, "table")
    found = read_interventions([], [(table, where)], NO_TRACE)
    assert [(p["name"], [d["printed"] for d in p["doses"]]) for p in found] == [
        ("Drugatinib", ["200 mg"]),
        ("Placebo", []),
        ("Saline flush", ["10 mL"]),  # dosed by volume alone: the volume is its dose
    ]


def test_each_product_takes_the_doses_of_its_own_lines_and_not_the_supportive_cares():
    fields = [
        Field(
            "Drug administration",
            "Cycle 1 and 2: drugatinib 420mg PO daily on day 1-28\n"
            "Cycle 3 and 4: drugatinib 420mg PO daily on day 1-28, gotabine 25mg/m2/day on day 1-5\n"
            "Drugatinib is taken orally once daily. Gotabine is given as an intravenous infusion.",
            "5.2",
            (30, 30),
            False,
            "section",
        ),
        Field(
            "Supportive Care (non-investigational)",
            "Anti-viral prophylaxis: Acyclovir 800 mg PO twice daily may be used. Acyclovir 800 mg is not obligatory.",
            "5.6",
            (31, 31),
            False,
            "section",
        ),
    ]
    products = [
        {"name": "Drugatinib", "role": "investigational", "doses": [], "route": None, "frequency": None},
        {"name": "Gotabine", "role": "investigational", "doses": [], "route": None, "frequency": None},
    ]
    from clinparser.study.design.interventions import _add_prose_products, _complete

    _add_prose_products(products, fields, None, NO_TRACE)
    assert [p["name"] for p in products] == ["Drugatinib", "Gotabine"]  # no acyclovir
    _complete(products, fields)
    assert [[d["printed"] for d in p["doses"]] for p in products] == [["420mg"], ["25mg/m2/day"]]


def test_a_product_the_sentence_gives_as_the_active_comparator_is_the_comparator():
    from clinparser.study.design.interventions import _add_prose_products

    where = Field(
        "Study Interventions Administered",
        "Drugatinib is supplied as 100 mg and 200 mg tablets and will be taken orally once daily. "
        "Fezoimod is supplied as 10 mg tablets and will be taken orally once daily as the active comparator.",
        "5.1",
        (30, 30),
        False,
        "section",
    )
    arms = Field("Treatment Groups", "Drugatinib 100 mg QD\nFezoimod 10 mg QD", "1", (3, 3), True, "paragraph")
    found: list = []
    _add_prose_products(found, [where, arms], None, NO_TRACE)
    assert [(p["name"], p["role"]) for p in found] == [("Drugatinib", "investigational"), ("Fezoimod", "comparator")]


def test_a_dosed_product_given_to_all_in_a_study_naming_no_other_is_not_background():
    fields = [
        Field(
            "Treatment Plan",
            "All patients will receive pembrolizumab 200 mg IV every 3 weeks.",
            "5.1",
            (20, 20),
            False,
            "section",
        )
    ]
    assert [i for i in read_interventions(fields, [], NO_TRACE) if i["role"] == "background"] == []


def test_without_a_section_on_giving_them_the_design_text_gives_a_products_route_and_frequency():
    # an investigator's research plan: no "Study Intervention" section, the design says it all
    fields = [
        Field(
            "Study Design",
            "Patients will be randomized to fixed or titrated dosing.\n"
            "Patients randomized to the fixed dose will start Zelomab 5mg daily (orally).",
            "Research Plan",
            (2, 2),
            True,
            "paragraph",
        )
    ]
    title = {"text": "RCT of Fixed vs Titrated Zelomab in Patients With Gout", "page": 1}
    found = read_interventions(fields, [], NO_TRACE, title=title)
    assert [(i["name"], i["role"], i["route"], i["frequency"]) for i in found] == [
        ("Zelomab", "investigational", "oral", "daily")
    ]


def test_a_design_saying_placebo_controlled_has_a_placebo_a_study_told_of_does_not():
    title = {"text": "Effects of Zelomab on Gastric Functions in Obesity", "page": 1}

    def products(design):
        fields = [Field("Overall Design", design, "Plan", (2, 2), True, "section")]
        return [(i["name"], i["role"]) for i in read_interventions(fields, [], NO_TRACE, title=title)]

    ours = "We shall perform a placebo-controlled, parallel-group trial of zelomab, 3mg SQ daily."
    assert products(ours) == [("Zelomab", "investigational"), ("Placebo", "placebo")]
    told_of = "Patients previously treated in a placebo-controlled trial will receive zelomab 3 mg."
    assert products(told_of) == [("Zelomab", "investigational")]


def test_a_product_given_on_listed_days_has_those_days_as_its_frequency():
    # a drug-interaction study: the probe on three days, the perpetrator daily; a list below "study
    # intervention as follows:" gives each its own days, not one frequency for all
    table = {
        "columns": ["Study Intervention", "Zelomab", "Gotinib"],
        "data": [
            ["Unit Dose Strength/Dosage Level", "20 mg", "200 mg"],
            ["Route of Administration", "Oral", "Oral"],
            ["Dosing Instructions", "administered alone on Day 1 and with gotinib on Days 6 and 13", "daily"],
        ],
    }
    design = Field(
        "Overall Design",
        "Participants will receive study intervention as follows:\nDay 1: 20 mg zelomab alone\n"
        "Days 7 to 12: once daily (QD) doses of 200 mg gotinib administered alone",
        "4.1",
        (20, 20),
        False,
        "section",
    )
    found = read_interventions([design], [(table, WHERE)], NO_TRACE)
    assert [(i["name"], i["frequency"]) for i in found] == [("Zelomab", "Days 1, 6 and 13"), ("Gotinib", "daily")]
    cycle = {
        "columns": ["Intervention Name", "Dose", "Dosing Instructions"],
        "data": [["Gotinib", "80 mg/m2", "IV on Days 1, 8, and 15 of every 28 day (4-week) cycle"]],
    }
    found = read_interventions([], [(cycle, WHERE)], NO_TRACE)
    assert found[0]["frequency"] == "Days 1, 8 and 15 of every 28-day cycle"


def test_a_list_below_a_sentence_about_the_study_intervention_gives_no_product_its_frequency():
    table = {"columns": ["Intervention Name", "Dose", "Route"], "data": [["Zelomab", "20 mg", "Oral"]]}
    design = Field(
        "Overall Design",
        "Participants will receive study intervention as follows:\nDay 1: 20 mg zelomab alone\n"
        "Days 7 to 12: once daily (QD) doses of 200 mg gotinib co-administered",
        "4.1",
        (20, 20),
        False,
        "section",
    )
    assert read_interventions([design], [(table, WHERE)], NO_TRACE)[0]["frequency"] is None


def test_the_doses_given_in_the_sections_of_an_empty_administration_chapter_are_read():
    table = {"columns": ["Intervention Name", "Unit Dose Strength", "Route"], "data": [["Zelomab", "100 mg", "Oral"]]}
    chapter = Field(
        "Administration",
        "In the main study, zelomab 300 mg (3 x 100 mg capsules) will be administered orally QD.",
        "5.2",
        (30, 30),
        False,
        "chapter",
    )
    doses = lambda found: [d["printed"] for d in found[0]["doses"]]  # noqa: E731
    assert doses(read_interventions([], [(table, WHERE)], NO_TRACE)) == ["100 mg"]
    assert doses(read_interventions([], [(table, WHERE)], NO_TRACE, chapters=[chapter])) == ["100 mg", "300 mg"]


def test_a_dose_an_earlier_trial_tested_told_in_the_dose_rationale_is_not_a_dose_given():
    table = {"columns": ["Intervention Name", "Dose", "Route"], "data": [["Zelomab", "2.4 mg", "Subcutaneous"]]}
    rationale = Field(
        "Justification for dose",
        "Results from the phase 2 dose-finding trial (ZX-4153) showed that the zelomab 0.4 mg once-daily dose was "
        "most effective. In this study zelomab 1.7 mg is given for the first 4 weeks.",
        "5.5",
        (30, 30),
        False,
        "section",
    )
    found = read_interventions([rationale], [(table, WHERE)], NO_TRACE)
    assert [d["printed"] for d in found[0]["doses"]] == ["2.4 mg", "1.7 mg"]


def test_reviewed_doses_placebos_and_days_a_plausible_protocol_prints():
    from clinparser.study.design.interventions import _dosing_days

    table = {"columns": ["Intervention Name", "Dose", "Route"], "data": [["Zelomab", "10 mg", "Oral"]]}
    rationale = Field(
        "Rationale for Dose Selection",
        "Zelomab 10 mg and zelomab 20 mg were selected for this study.",
        "4.3",
        (20, 20),
        False,
        "section",
    )
    found = read_interventions([rationale], [(table, WHERE)], NO_TRACE)
    assert [d["printed"] for d in found[0]["doses"]] == ["10 mg", "20 mg"]  # this study's, said in the past tense
    title = {"text": "An Open-label Extension Study of Zelomab in Gout", "page": 1}
    for design in (
        "Participants who took part in the double-blind, placebo-controlled Study ZX-301 will receive zelomab 5 mg.",
        "This study is not placebo-controlled; all participants receive zelomab 5 mg.",
    ):
        fields = [Field("Overall Design", design, "4.1", (20, 20), False, "section")]
        assert [i["role"] for i in read_interventions(fields, [], NO_TRACE, title=title)] == ["investigational"]
    assert _dosing_days("300 mg IV infusion; PK samples on Days 1 and 8 of Cycle 1") is None
    assert _dosing_days("given on days 1, 8 and 15 of each 28-day cycle") == "Days 1, 8 and 15 of every 28-day cycle"
    wrapped = Field(
        "Study Intervention",
        "Study intervention will be\nadministered orally once daily.",
        "6",
        (30, 30),
        False,
        "table",
    )
    found = read_interventions([wrapped], [(table, WHERE)], NO_TRACE)
    assert found[0]["frequency"] == "once daily"
