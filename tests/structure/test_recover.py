"""Numbers that are not in the text: title-only headings get the outline's number."""

from __future__ import annotations

from clinparser.model import HEADING, TEXT, Block, OutlineEntry
from clinparser.structure.outline import OutlineIndex
from clinparser.structure.recover import merge, outline_candidates, outline_titled_candidates
from clinparser.structure.sections import choose_sections, find_candidates


def H(text, page):
    return Block(page=page, bbox=(72, 100, 500, 112), kind=HEADING, text=f"## **{text}**")


def T(text, page):
    return Block(page=page, bbox=(72, 120, 500, 160), kind=TEXT, text=text)


def chosen(blocks, entries):
    found = find_candidates(blocks, OutlineIndex(entries))
    choice = choose_sections(merge(found, outline_candidates(blocks, entries, found)))
    return [(c.number.label, c.title, c.source) for c in choice.sections]


def bm(number, title, page):
    return OutlineEntry(number, title, page, "bookmark")


# a wrapped title the layout model left as one bold text line, longer than most headings
LONG = (
    "Understanding the Intent, Scope and Public Health Benefits of Exploratory Biomarker Research: "
    "A Guide for Review Boards and Investigational Site Staff"
)


def test_title_only_headings_take_the_bookmark_number_on_their_page():
    entries = [
        bm("1.0", "INTRODUCTION", 3),
        bm("1.1", "Background", 3),
        bm("1.2", "Rationale", 4),
        bm("2.0", "DESIGN", 5),
        bm("2.1", LONG, 6),
    ]
    blocks = [
        H("Background", 2),  # a synopsis sub-heading: same title, wrong page
        H("1.0 INTRODUCTION", 3),
        H("Background", 3),
        T("Prose.", 3),
        H("Rationale", 4),
        H("2.0 DESIGN", 5),
        T(f"**{LONG}**", 6),
    ]
    assert chosen(blocks, entries) == [
        ("1.0", "INTRODUCTION", "text"),
        ("1.1", "Background", "bookmark"),
        ("1.2", "Rationale", "bookmark"),
        ("2.0", "DESIGN", "text"),
        ("2.1", LONG, "bookmark"),
    ]


def test_printed_toc_numbers_apply_after_the_page_offset_the_text_numbers_show():
    printed = [
        OutlineEntry(n, t, p, "printed")
        for n, t, p in (
            ("1", "Intro", 1),
            ("1.1", "Aims", 1),
            ("2", "Design", 2),
            ("2.1", "Arms", 2),
            ("3", "Safety", 3),
        )
    ]
    # printed page N is PDF page N + 2 (two unnumbered front pages)
    blocks = [H("Aims", 1), H("1 Intro", 3), H("Aims", 3), H("2 Design", 4), H("Arms", 4), H("3 Safety", 5)]
    assert [(n, s) for n, _, s in chosen(blocks, printed)] == [
        ("1", "text"),
        ("1.1", "printed"),
        ("2", "text"),
        ("2.1", "printed"),
        ("3", "text"),
    ]


def test_plain_text_that_matches_a_title_is_not_a_heading():
    entries = [bm("1", "Intro", 1), bm("1.1", "Aims", 1)]
    assert chosen([H("1 Intro", 1), T("Aims", 1)], entries) == [("1", "Intro", "text")]


def test_a_same_title_sub_heading_on_another_page_does_not_take_the_number():
    entries = [bm("1", "Introduction", 3), bm("1.1", "Background", 5), bm("2", "Design", 6)]
    blocks = [H("1 Introduction", 3), H("Background", 3), T("Prose.", 3), H("Background", 5), H("2 Design", 6)]
    found = find_candidates(blocks, OutlineIndex(entries))
    choice = choose_sections(merge(found, outline_candidates(blocks, entries, found)))
    assert [(c.number.label, c.page) for c in choice.sections] == [("1", 3), ("1.1", 5), ("2", 6)]


def test_a_number_whose_title_is_blacked_out_takes_the_title_the_outline_gives_it_on_that_page():
    entries = [
        bm("4", "Procedures", 7),
        bm("4.1", "Visits", 7),
        bm("4.2", "Exploratory Samples", 8),
        bm("5", "Safety", 9),
    ]
    blocks = [H("4 Procedures", 7), H("4.1 Visits", 7), T("Prose.", 7), T("4.2.", 8), H("5 Safety", 9)]
    found = find_candidates(blocks, OutlineIndex(entries))
    choice = choose_sections(merge(found, outline_titled_candidates(blocks, entries, found)))
    assert [(c.number.label, c.title, c.source, c.title_source) for c in choice.sections] == [
        ("4", "Procedures", "text", "text"),
        ("4.1", "Visits", "text", "text"),
        ("4.2.", "Exploratory Samples", "text", "bookmark"),
        ("5", "Safety", "text", "text"),
    ]
    # not on another page, and never for a chapter number alone (a list marker more often)
    far = [H("4 Procedures", 7), H("4.1 Visits", 7), T("Prose.", 7), T("4.2.", 12), H("5 Safety", 12)]
    found = find_candidates(far, OutlineIndex(entries))
    assert outline_titled_candidates(far, entries, found) == []
    assert outline_titled_candidates([T("5.", 9)], entries, []) == []
