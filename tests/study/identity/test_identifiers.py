"""identifiers: registry, IND and sponsor protocol numbers -- struck-through ones, ones only in the
running headers, disagreeing ones -- read through read_identity on hand-built documents."""

from identity_builders import TITLE, block, node  # noqa: F401

from clinparser.study.identity import read_identity


def test_struck_through_identifier_is_not_current():
    doc = {
        "toc": [],
        "metadata": {},
        "non_toc": [
            node(
                "Title Page",
                "Protocol Title: " + TITLE + "\n\nEudraCT number: ~~2021-006881-19~~\n\n"
                "EU CT number: 2024-511089-36-00",
            )
        ],
    }
    identity, diagnostics = read_identity(doc, [])
    assert [(i["kind"], i["text"]) for i in identity["identifiers"]] == [("eu_ct", "2024-511089-36-00")]
    assert any(d["kind"] == "identifier_not_current" for d in diagnostics)


def test_identifier_only_in_running_header_and_unlabelled_title():
    doc = {
        "toc": [node("Introduction", "Text.", pages=(3, 3), number="1")],
        "metadata": {},
        "non_toc": [
            node(
                "",
                "## **A Randomized, Open-label Study to Evaluate Safety of Drugamab in Healthy Participants**\n\n"
                "Version 1.0, 01 Jan 2020",
                pages=(1, 2),
            )
        ],
    }
    bl = [block(p, "ABC-123-0045 Final Protocol", dropped="furniture", kind="page-footer") for p in (1, 2, 3)]
    bl += [block(p, "Protocol/Amendment No.: 0045", dropped="furniture", kind="page-header") for p in (2, 3)]
    identity, _ = read_identity(doc, bl)
    assert identity["identifiers"] == [{"kind": "sponsor", "text": "ABC-123-0045", "page": 1, "source": "header"}]
    assert identity["titles"]["official"]["text"].startswith("A Randomized, Open-label Study")
    assert identity["phase"] == {"value": None, "printed": None}


def test_disagreeing_numbers_are_diagnosed():
    doc = {
        "toc": [node("Synopsis", "EudraCT Number: 2019-000001-11", pages=(2, 2), number="1")],
        "metadata": {},
        "non_toc": [node("", "Protocol Title: " + TITLE + "\n\nEudraCT Number: 2019-000002-22")],
    }
    identity, diagnostics = read_identity(doc, [])
    assert [i["text"] for i in identity["identifiers"]] == ["2019-000002-22", "2019-000001-11"]
    assert any(d["kind"] == "identifier_disagreement" for d in diagnostics)
