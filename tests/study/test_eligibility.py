"""eligibility: which sections hold criteria (body, loose sections, synopsis; amendment copies
left out), their category and study step from the titles, subsections as criteria, the
item's shape and the diagnostics -- read_eligibility on hand-built documents (dicts shaped like
document.json / blocks.json). How criteria are cut out of a section's text: test_criteria.py."""

from pathlib import Path

from eligibility_builders import block, brief, doc, node, population, read  # noqa: F401

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus"


def test_synopsis_copy_is_not_taken_when_the_body_has_criteria():
    synopsis = node("Synopsis", "**Inclusion criteria:**\n\n1. Adult.\n\n2. Consent.", pages=(3, 4), number="1.1")
    body = population("1. Adults aged 18 years or older.\n\n2. Signed informed consent.", pages=(20, 20))
    criteria, diagnostics = read(doc(node("Protocol Summary", number="1", subsections=[synopsis]), body))
    assert brief(criteria) == [
        ("inclusion", "1.", "Adults aged 18 years or older."),
        ("inclusion", "2.", "Signed informed consent."),
    ]
    assert diagnostics == []


def test_synopsis_criteria_are_taken_and_flagged_when_the_body_has_none():
    synopsis = node("PROTOCOL SYNOPSIS", "", pages=(3, 5))
    inclusion = node("Inclusion:", "1. Adult.\n\n2. Consent.\n\n_Exclusion:_\n\n1. Pregnant.", pages=(5, 6))
    criteria, diagnostics = read(
        doc(node("Introduction", "Text.", pages=(7, 7), number="1"), non_toc=[synopsis, inclusion])
    )
    assert brief(criteria) == [
        ("inclusion", "1.", "Adult."),
        ("inclusion", "2.", "Consent."),
        ("exclusion", "1.", "Pregnant."),
    ]
    assert [d["kind"] for d in diagnostics] == ["synopsis_only"]


def test_criteria_for_another_step_are_labelled():
    main = node(
        "Inclusion Criteria",
        "1. Adults.\n\n# **Inclusion Criterion for Randomization**\n\n2. 80% compliance.",
        pages=(20, 20),
        number="4.2",
    )
    run_in = node("Inclusion Criteria for the Run-in Period", "1. Completed screening.", pages=(21, 21), number="4.3")
    ole = node(
        "Open-Label Extension",
        "",
        pages=(90, 90),
        number="12.6",
        subsections=[node("Exclusion Criteria", "1. Progressed.", pages=(90, 90), number="12.6.2")],
    )
    criteria, diagnostics = read(doc(main, run_in, ole))
    assert [(c["category"], c["identifier"], c["applies_to"], c["section"]) for c in criteria] == [
        ("inclusion", "1.", None, "4.2"),
        ("inclusion", "2.", "randomization", "4.2"),
        ("inclusion", "1.", "run-in", "4.3"),
        ("exclusion", "1.", "extension", "12.6.2"),
    ]
    assert diagnostics == []


def test_randomisation_criteria_section_takes_its_category_from_the_intro():
    body = (
        "Subjects are eligible to be randomised only if all of the following criteria apply:\n\n"
        "1. Kept a diary.\n\n2. Score below 15."
    )
    criteria, _ = read(doc(node("Randomisation criteria", body, number="6.3")))
    assert [(c["category"], c["identifier"], c["applies_to"]) for c in criteria] == [
        ("inclusion", "1.", "randomization"),
        ("inclusion", "2.", "randomization"),
    ]


def test_numbering_gap_and_repeat_are_diagnosed():
    body = "1. Adults.\n\n2. Consent.\n\n4. Able to swallow.\n\n4. Willing to comply."
    criteria, diagnostics = read(doc(node("Inclusion Criteria", body, number="5.1")))
    assert [c["identifier"] for c in criteria] == ["1.", "2.", "4.", "4."]
    assert [d["kind"] for d in diagnostics] == ["numbering_gap", "numbering_repeat"]
    assert "2." in diagnostics[0]["detail"] and "4." in diagnostics[0]["detail"]


def test_criteria_printed_as_numbered_subsections():
    subs = [
        node("Age 18 years or older", "", number="4.1.1"),
        node("Signed informed consent", "Consent is given before any study procedure.", number="4.1.2"),
    ]
    criteria, _ = read(doc(node("Inclusion Criteria", "", number="4.1", subsections=subs)))
    assert brief(criteria) == [
        ("inclusion", "4.1.1", "Age 18 years or older"),
        ("inclusion", "4.1.2", "Signed informed consent\nConsent is given before any study procedure."),
    ]
    assert [c["section"] for c in criteria] == ["4.1.1", "4.1.2"]


def test_subsection_about_the_list_is_not_a_criterion_and_footnotes_are_dropped():
    rationale = node(
        "Rationale for Exclusion of Certain Participants",
        "Carriers of the variant have higher exposure.",
        number="5.2.1",
    )
    body = (
        "1. Known allergy to the study drug.\n\n> 1 any antiplatelet therapy is permitted.\n\n"
        "2. Carrier of the variant."
    )
    criteria, _ = read(doc(node("Exclusion Criteria", body, number="5.2", subsections=[rationale])))
    assert brief(criteria) == [
        ("exclusion", "1.", "Known allergy to the study drug."),
        ("exclusion", "2.", "Carrier of the variant."),
    ]


def test_amendment_copies_and_empty_eligibility_sections():
    changes = node(
        "Summary of Changes",
        "",
        number="17",
        pages=(100, 100),
        subsections=[node("Section 6.1 Inclusion criteria", "1. Old wording.", number="17.1", pages=(100, 100))],
    )
    procedures = node(
        "Inclusion/Exclusion Criteria",
        "Eligibility is reviewed at the screening visit.",
        number="7.1.2",
        pages=(40, 40),
    )
    body = population("1. Adults.", pages=(20, 20))
    criteria, diagnostics = read(doc(body, procedures, changes))
    assert brief(criteria) == [("inclusion", "1.", "Adults.")]
    assert diagnostics == [
        {
            "kind": "no_criteria",
            "detail": "section 7.1.2 Inclusion/Exclusion Criteria looks like eligibility criteria but yielded none",
        }
    ]


def test_nothing_found_is_diagnosed():
    criteria, diagnostics = read(doc(node("Introduction", "Text.", number="1")))
    assert criteria == []
    assert [d["kind"] for d in diagnostics] == ["no_eligibility"]


def test_item_shape_and_trace():
    body = "1. Age at least 18 years at the time of signing informed consent."
    blocks = [block(26, "1. Age at least 18 years at the time of signing informed consent.", kind="list-item")]
    criteria, _ = read(doc(node("Inclusion Criteria", body, pages=(26, 26), number="6.1")), blocks)
    assert criteria == [
        {
            "category": "inclusion",
            "identifier": "1.",
            "text": "Age at least 18 years at the time of signing informed consent.",
            "section": "6.1",
            "pages": [26],
            "boxes": [{"page": 26, "bbox": [72, 100, 540, 120]}],
            "applies_to": None,
        }
    ]
