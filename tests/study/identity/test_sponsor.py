"""sponsor: the sponsor's name, labelled or printed alone on the title page, read through
read_identity on hand-built documents."""

import pytest
from identity_builders import TITLE, block, node, title_page_blocks  # noqa: F401

from clinparser.study.identity import read_identity


def test_sponsor_label_inside_a_title_page_line_is_placed_on_its_own_page():
    # The title is printed on page 1 and again on page 2, where "Sponsor:" runs on after it; the
    # synopsis (page 5) repeats the sponsor: the title page's, on page 2, is the one taken.
    title = "A Phase 3 Randomized Double-Blind Trial of Drugamab Versus Placebo in Ovarian Cancer"
    title_page = node(
        "Protocol",
        f"## **{title}**\n\n**{title} Sponsor:** ACME Bio, Inc. 1000 Winter Street\n\n**Co-Sponsor:** Other Pharma Ltd",
        pages=(1, 2),
    )
    synopsis = node("Protocol Synopsis", "Sponsor: ACME Bio, Inc.", pages=(5, 5), number="1")
    blocks = [
        block(1, f"## **{title}**"),
        block(2, f"**{title} Sponsor:** ACME Bio, Inc. 1000 Winter Street"),
        block(5, "Sponsor: ACME Bio, Inc."),
    ]
    identity, _ = read_identity({"toc": [synopsis], "non_toc": [title_page], "metadata": {}}, blocks)
    assert identity["sponsor"] == {"text": "ACME Bio, Inc.", "page": 2}


def test_stacked_labels_take_the_sponsor_name_not_the_next_labels_value():
    # Labels in one column, values in the next: the line after "Study Sponsor:" is the version's value.
    text = (
        "Protocol Version:\n\nDate:\n\nStudy Sponsor:\n\n3.0 (Amendment 2.0) Amendment 2.0: 21 Feb 2018\n\n"
        "Enanto Pharmaceuticals, Inc. 500 Arsenal St. Watertown, MA 02472\n\nSponsor Medical Monitor:"
    )
    identity, _ = read_identity({"toc": [], "non_toc": [node("CLINICAL STUDY PROTOCOL", text)], "metadata": {}}, [])
    assert identity["sponsor"] == {"text": "Enanto Pharmaceuticals, Inc.", "page": 1}


@pytest.mark.parametrize(
    "line, sponsor",
    [
        ("Janssen Research & Development", "Janssen Research & Development"),
        ("Acme Pharma GmbH", "Acme Pharma GmbH"),
        ("Nordisk Example A/S", "Nordisk Example A/S"),
        ("Clinical Study Protocol", None),  # no company's name
        ("Confidential Pharmaceuticals", None),  # a confidentiality line
        ("Prepared by: Example Therapeutics", None),  # a labelled line, not a bare name
        ("A Study of Drugamab by Example Pharmaceuticals", None),  # a title
    ],
)
def test_unlabelled_company_name_at_the_top_of_the_title_page(line, sponsor):
    text = f"{line}\n\n{TITLE}\n\nProtocol EXT-301; Phase 3\n\nEudraCT NUMBER: 2013-004494-28"
    identity, _ = read_identity({"toc": [], "non_toc": [node("Title Page", text)], "metadata": {}}, [])
    assert identity["sponsor"] == ({"text": sponsor, "page": 1} if sponsor else None)


def test_a_labelled_sponsor_wins_over_an_unlabelled_company_line():
    text = f"Acme Pharma GmbH\n\n{TITLE}\n\nSponsor: Example Therapeutics, Inc."
    identity, _ = read_identity({"toc": [], "non_toc": [node("Title Page", text)], "metadata": {}}, [])
    assert identity["sponsor"] == {"text": "Example Therapeutics, Inc.", "page": 1}
