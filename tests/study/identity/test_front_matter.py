"""front_matter: the zones of lines the identity readers see, and labelled fields printed run
together on one line cut apart (read through read_identity) -- on hand-built documents."""

from identity_builders import TITLE, block, node  # noqa: F401

from clinparser.study.identity import read_identity
from clinparser.study.identity.front_matter import FrontMatter


def test_labels_run_together_on_one_line_and_mislabelled_number():
    doc = {
        "toc": [node("PROTOCOL SYNOPSIS", "IND NUMBER: NCT04444444", pages=(2, 2), number="1")],
        "metadata": {},
        "non_toc": [
            node(
                "",
                "**TITLE: A MULTICENTER STUDY TO EVALUATE THE SAFETY OF DRUGAMAB IN PATIENTS WITH PNEUMONIA "
                "PROTOCOL NUMBER:** WX12345 **VERSION NUMBER:** 3 **IND NUMBER:** 148225 **NCT NUMBER:** NCT04444444 "
                "**SPONSOR:** Example Pharma Ltd **APPROVAL DATE:** see below",
            )
        ],
    }
    identity, diagnostics = read_identity(doc, [])
    assert identity["titles"]["official"]["text"] == (
        "A MULTICENTER STUDY TO EVALUATE THE SAFETY OF DRUGAMAB IN PATIENTS WITH PNEUMONIA"
    )
    assert [(i["kind"], i["text"]) for i in identity["identifiers"]] == [
        ("sponsor", "WX12345"),
        ("ind", "148225"),
        ("nct", "NCT04444444"),
    ]
    assert identity["sponsor"]["text"] == "Example Pharma Ltd"
    assert any(d["kind"] == "identifier_label_mismatch" for d in diagnostics)


def test_zones_of_a_document():
    title_page = node(
        "Clinical Study Protocol", "Protocol Title: A Study of X\n\nSponsor: Acme Pharma GmbH", pages=(1, 1)
    )
    history = node("Protocol Amendment History", "EudraCT Number: 2012-002805-23", pages=(2, 2))
    synopsis = node("Synopsis", "NCT Number: NCT01234567", pages=(3, 3), number="1")
    background = node(
        "Background",
        "An earlier trial enrolled 600 patients.",
        pages=(4, 4),
        number="2",
        subsections=[node("References", "Smith A. A phase 3 trial.", pages=(5, 5), number="2.1")],
    )
    blocks = [
        {"page": 4, "bbox": [0, 0, 10, 10], "kind": "page-header", "text": "Protocol EXT-301", "dropped": "furniture"}
    ]
    front = FrontMatter({"toc": [synopsis, background], "non_toc": [title_page, history], "metadata": {}}, blocks)
    assert [line.text for line in front.title_lines] == [
        "Clinical Study Protocol",
        "Protocol Title: A Study of X",
        "Sponsor: Acme Pharma GmbH",
    ]
    assert front.front_lines == []  # the amendment history is not front matter to read
    assert [line.text for line in front.synopsis_lines] == ["Synopsis", "NCT Number: NCT01234567"]
    assert [line.text for line in front.labelled_lines] == ["Background", "An earlier trial enrolled 600 patients."]
    assert [(line.text, line.first, line.zone) for line in front.header_lines] == [("Protocol EXT-301", 4, "header")]


def test_a_title_cut_after_a_preposition_goes_on_to_the_next_line():
    from clinparser.study.identity.front_matter import Line, value_after

    def line(text):
        return Line(text, text, 1, 1, "title", None)

    lines = [
        line("PROTOCOL TITLE"),
        line("- A Randomized, Double-Blind Trial of Drugamab, an Oral Inhibitor, for"),
        line("- On-Demand Treatment of Attacks in Adults"),
        line("Protocol Number: EX-301"),
    ]
    value, _ = value_after(lines, 0, "")
    assert value == (
        "- A Randomized, Double-Blind Trial of Drugamab, an Oral Inhibitor, for "
        "- On-Demand Treatment of Attacks in Adults"
    )
    # "Inhibitor" ends in "or" but is no cut word: a full line followed by a capital stops there
    lines[1] = line("- A Randomized, Double-Blind Trial of Drugamab, an Oral Plasma Inhibitor")
    assert value_after(lines, 0, "")[0] == "- A Randomized, Double-Blind Trial of Drugamab, an Oral Plasma Inhibitor"


def test_a_title_led_by_its_acronym_under_an_empty_label_is_the_labels_value():
    from clinparser.study.identity.front_matter import Line, value_after

    def line(text):
        return Line(text, text, 1, 1, "front matter", None)

    title = "BRIGHT: A Multinational, Phase 3, Randomized, Double-blind Study of Drugamab in Adults"
    lines = [line("Title of Study:"), line(title), line("Planned Study Period:"), line("2016 to 2024")]
    assert value_after(lines, 0, "")[0] == title
    # a field's label with a short value, or a worded label, is still the next label
    lines[1] = line("NCT: NCT01234567")
    assert value_after(lines, 0, "")[0] == ""
    lines[1] = line("Sponsor Name: Example Therapeutics, Inc. of Springfield and Shelbyville")
    assert value_after(lines, 0, "")[0] == ""
