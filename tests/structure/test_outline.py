from __future__ import annotations

from clinparser.convert.bookmarks import read_bookmarks
from clinparser.model import HEADING, TEXT, Block
from clinparser.structure.outline import OutlineIndex, find_printed_toc, number_bookmarks, parse_entry, toc_lines


def test_entry_forms():
    cases = {
        "3.1. Study Design ........ 12": ("3.1.", "Study Design", 12),
        "1  PROTOCOL SUMMARY  10": ("1", "PROTOCOL SUMMARY", 10),
        "APPENDIX 4 Contraception.....88": ("APPENDIX 4", "Contraception", 88),
        "TITLE PAGE ........ 1": ("", "TITLE PAGE", 1),
    }
    for line, want in cases.items():
        e = parse_entry(line)
        assert (e.number, e.title, e.page) == want, line


def test_non_entries():
    assert parse_entry("Participants will be randomized 2:1") is None
    assert parse_entry("Section Page") is None


def test_table_rows_and_br_become_single_lines():
    text = "|<br>1.<br>SIGNATURE PAGE........2|\n|---|\n|6.1|Background.........23|"
    assert toc_lines(text) == ["1. SIGNATURE PAGE........2", "6.1 Background.........23"]


def test_finds_toc_pages_and_continuations_but_not_body_pages():
    blocks = [
        Block(2, None, HEADING, "# TABLE OF CONTENTS"),
        Block(2, None, TEXT, "1 Introduction ....... 4\n2 Design ....... 5\n2.1 Arms ....... 5"),
        Block(3, None, TEXT, "3 Population ....... 6\n4 Statistics ....... 7\n5 References ....... 8"),
        Block(4, None, HEADING, "# 1 Introduction"),
        Block(4, None, TEXT, "The study begins here and refers to Table 1 on page 5."),
    ]
    toc = find_printed_toc(blocks)
    assert toc.pages == [2, 3]
    assert [e.number for e in toc.entries] == ["1", "2", "2.1", "3", "4", "5"]


def test_bookmarks_split_number_from_title():
    entries = number_bookmarks(read_bookmarks([[1, "1. PROTOCOL SUMMARY", 9], [1, "TITLE PAGE", 1]]))
    assert [(e.number, e.title, e.page) for e in entries] == [("1.", "PROTOCOL SUMMARY", 9), ("", "TITLE PAGE", 1)]


def test_a_bookmark_without_a_destination_has_no_page():
    # PyMuPDF gives -1 for a bookmark whose destination is missing (and 0 has no page either).
    entries = read_bookmarks([[1, "3 OBJECTIVES", -1], [1, "4 DESIGN", 0], [1, "5 POPULATION", 12]])
    assert [e.page for e in entries] == [None, None, 12]


def test_index_matches_number_and_title_after_normalizing():
    index = OutlineIndex(number_bookmarks(read_bookmarks([[1, "1.3. Schedule of Activities (SoA)", 14]])))
    assert index.match("1.3", "**Schedule of Activities (SoA)**") == "title"
    assert index.match("1.3.", "Something else") == "number"
    assert index.match("1.4", "Schedule") == ""
