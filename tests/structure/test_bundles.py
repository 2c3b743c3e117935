"""Bundled documents: where the protocol ends and another document begins."""

from __future__ import annotations

from clinparser.model import HEADING, LIST_ITEM, TEXT, Block
from clinparser.structure.bundles import split_documents
from clinparser.structure.outline import OutlineIndex
from clinparser.structure.sections import find_candidates


def H(text, page):
    return Block(page=page, bbox=(72, 100, 500, 112), kind=HEADING, text=f"## **{text}**")


def T(text, page):
    return Block(page=page, bbox=(72, 120, 500, 160), kind=TEXT, text=text)


def split(blocks, toc_starts):
    choice, documents = split_documents(blocks, find_candidates(blocks, OutlineIndex([])), toc_starts)
    return [c.number.label for c in choice.sections], [
        (d.title, [c.number.label for c in d.sections], d.start) for d in documents
    ]


PROTOCOL = [
    H("1 Introduction", 3),
    H("1.1 Background", 3),
    H("2 Design", 4),
    H("2.1 Overview", 4),
    H("3 Safety", 5),
    H("3.1 Events", 5),
]


def test_an_amendment_with_its_own_contents_is_a_document_of_its_own():
    amendment = [
        H("Protocol Amendment", 6),
        T("no 2", 6),
        H("Contents", 7),
        H("1 Introduction", 8),
        H("2 Changes", 8),
        H("2.1 Section 3.1 Events", 8),
    ]
    blocks = PROTOCOL + amendment
    main, documents = split(blocks, toc_starts=[7])
    assert main == ["1", "1.1", "2", "2.1", "3", "3.1"]
    # the document starts at its title page (page 6: no numbered heading on it)
    assert documents == [("Protocol Amendment no 2", ["1", "2", "2.1"], len(PROTOCOL))]


def test_the_longest_numbering_is_the_protocol_even_when_a_wrapper_comes_first():
    wrapper = [H("Report Appendix", 1), H("1 Cover", 1), H("1.1 Listing", 1)]
    main, documents = split(wrapper + PROTOCOL, toc_starts=[3])
    assert main == ["1", "1.1", "2", "2.1", "3", "3.1"]
    assert [d[1] for d in documents] == [["1", "1.1"]]


def test_a_summary_numbered_1_before_the_contents_and_chapter_2_after_is_one_document():
    blocks = [
        H("1 Protocol Summary", 2),
        H("1.1 Synopsis", 2),
        H("2 Introduction", 4),
        H("2.1 Background", 4),
        H("3 Design", 5),
    ]
    main, documents = split(blocks, toc_starts=[3])
    assert main == ["1", "1.1", "2", "2.1", "3"] and documents == []


def test_a_contents_page_before_a_flat_questionnaire_does_not_cut_the_protocol():
    questionnaire = [
        H("Contents", 6),
        H("1. Mobility", 7),
        H("2. Self-care", 7),
        H("3. Usual activities", 7),
        H("4 Appendix Notes", 8),
    ]
    main, documents = split(PROTOCOL + questionnaire, toc_starts=[6])
    assert main == ["1", "1.1", "2", "2.1", "3", "3.1", "4"] and documents == []


def test_numbered_criteria_in_a_synopsis_before_the_contents_are_not_a_document():
    crit = [f"{k}. {t}" for k, t in enumerate(("Female, at least 18 years", "ECOG 0-2", "Able to swallow tablets"), 1)]
    synopsis = [H("Synopsis", 1)] + [Block(page=1, bbox=None, kind=LIST_ITEM, text=f"**{c}**") for c in crit]
    main, documents = split(synopsis + PROTOCOL, toc_starts=[3])
    assert main == ["1", "1.1", "2", "2.1", "3", "3.1"] and documents == []
