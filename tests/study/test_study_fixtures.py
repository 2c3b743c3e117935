"""The study definition read from the generated protocols 008-010 equals their truth.

``examples/make_protocol.py`` lays out protocols 008-010 and knows, by construction, every
eligibility criterion (category, printed identifier, text in the readers' conventions, section,
pages, study step), every objective with its endpoints, the title-page identifiers, the phase,
the titles, the sponsor and the abbreviations; their truth files carry it as a ``study`` block
(no "boxes", no "diagnostics": the generator does not know the parser's blocks).

Each protocol is generated into a temporary folder and parsed once (module-scoped); the study
block is the parse result's ``study`` key. Every comparison is exact: a failure is a
disagreement between the reader and the document, not a tolerance to tune.
"""

from __future__ import annotations

import pytest

NAMES = ["protocol_008", "protocol_009", "protocol_010"]

CRITERION_KEYS = ("category", "identifier", "text", "section", "pages", "applies_to")
ENDPOINT_KEYS = ("level", "label", "text", "section", "pages")


@pytest.fixture(scope="module", params=NAMES)
def fixture(request, tmp_path_factory, generator):
    """(name, truth's study block, the study block read from the parse)."""
    from clinparser import PDFParser

    name = request.param
    folder = tmp_path_factory.mktemp(name)
    pdf = folder / f"{name}.pdf"
    truth = generator.build_named(name, pdf)
    parser = PDFParser(workers=1)
    result = parser.parse(pdf, output_dir=folder / "out")
    study = result["study"]  # the API returns the study definition with the tree
    return name, truth["study"], study


def _criteria(items):
    return [{k: c.get(k) for k in CRITERION_KEYS} for c in items]


def _endpoints(items):
    return [{k: e.get(k) for k in ENDPOINT_KEYS} for e in items]


def _objectives(items):
    return [{**{k: o.get(k) for k in ENDPOINT_KEYS}, "endpoints": _endpoints(o.get("endpoints") or [])} for o in items]


def test_generator_declares_every_study_protocol(generator):
    assert all(generator.PROTOCOLS[n].study is not None for n in NAMES)


def test_eligibility_criteria(fixture):
    _, truth, study = fixture
    assert _criteria(study["eligibility"]) == truth["eligibility"]


def test_eligibility_criteria_without_pages(fixture):
    """The same comparison with pages left out: tells a wrong page from a wrong criterion."""
    _, truth, study = fixture
    drop = lambda items: [{k: v for k, v in c.items() if k != "pages"} for c in items]  # noqa: E731
    assert drop(_criteria(study["eligibility"])) == drop(truth["eligibility"])


def test_objectives_and_endpoints(fixture):
    _, truth, study = fixture
    assert _objectives(study["objectives"]) == truth["objectives"]


def test_objectives_and_endpoints_without_pages(fixture):
    _, truth, study = fixture

    def drop(items):
        return [
            {
                **{k: v for k, v in o.items() if k != "pages"},
                "endpoints": [{k: v for k, v in e.items() if k != "pages"} for e in o["endpoints"]],
            }
            for o in items
        ]

    assert drop(_objectives(study["objectives"])) == drop(truth["objectives"])


def test_identifiers(fixture):
    _, truth, study = fixture
    assert [(i["kind"], i["text"]) for i in study["identifiers"]] == [
        (i["kind"], i["text"]) for i in truth["identifiers"]
    ]


def test_identifier_pages_and_sources(fixture):
    _, truth, study = fixture
    assert [(i["kind"], i["text"], i["page"], i["source"]) for i in study["identifiers"]] == [
        (i["kind"], i["text"], i["page"], i["source"]) for i in truth["identifiers"]
    ]


def test_phase(fixture):
    _, truth, study = fixture
    assert study["phase"] == truth["phase"]


def test_titles(fixture):
    _, truth, study = fixture
    assert study["titles"] == truth["titles"]


def test_sponsor(fixture):
    _, truth, study = fixture
    assert study["sponsor"] == truth["sponsor"]


def test_abbreviations(fixture):
    _, truth, study = fixture
    assert study["abbreviations"] == truth["abbreviations"]
