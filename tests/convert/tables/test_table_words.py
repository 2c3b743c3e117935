"""Table cells get the spacing of the page's own words."""

from __future__ import annotations

import pymupdf

from clinparser.convert.tables.table_words import join_cut_cells, respace, respace_tables
from clinparser.model import TABLE, Block

WORDS = [
    "Blood",
    "urea",
    "nitrogen",
    "(BUN)",
    "Creatine",
    "kinase",
    "ApoE",
    "genotyping",
    "X",
    "Total",
    "and",
    "direct",
    "bilirubin",
]


def test_lost_spaces_come_back_and_wrong_ones_go():
    table = "|Test|Mark|\n|---|---|\n|Blood urea nitrogen(BUN)|X|\n|Creatinekinase|X|\n|Apo Egenotyping|X|"
    fixed = respace(table, WORDS)
    assert fixed.splitlines()[2:] == ["|Blood urea nitrogen (BUN)|X|", "|Creatine kinase|X|", "|ApoE genotyping|X|"]
    assert fixed.splitlines()[:2] == ["|Test|Mark|", "|---|---|"]


def test_cells_with_line_breaks_are_respaced_part_by_part():
    assert (
        respace("|Total and directbilirubin<br>Creatinekinase|", WORDS)
        == "|Total and direct bilirubin<br>Creatine kinase|"
    )


def test_bold_cells_are_respaced_inside_their_emphasis():
    assert respace("|**Creatinekinase**|", WORDS) == "|**Creatine kinase**|"


def test_other_markup_unknown_text_and_short_cells_are_left_alone():
    table = "|<sup>Creatinekinase</sup>|Something elseentirely|X|"
    assert respace(table, WORDS) == table


def test_respace_tables_reads_the_words_inside_the_table_box():
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 100), "Creatine kinase", fontsize=10)
    page.insert_text((72, 300), "Outside the table", fontsize=10)
    block = Block(1, (60, 85, 300, 110), TABLE, "|Creatinekinase|")
    other = Block(1, (60, 285, 300, 310), "text", "Outsidethe table")
    respace_tables(doc, [block, other])
    assert block.text == "|Creatine kinase|" and other.text == "Outsidethe table"


def test_a_letter_spaced_layer_is_no_guide_to_the_cells_spacing():
    """A scanner's letter-spaced layer under a page OCR read: its "words" would space the
    cells OCR gave back into letters."""
    doc = pymupdf.open()
    page = doc.new_page()
    spaced = "St u dy I nt er ve nt io n Do sa ge Fo rm ul at io n Ro ut e of Ad mi ni st ra ti on Ta bl et or al"
    page.insert_text((72, 100), spaced, fontsize=8)
    block = Block(1, (60, 85, 560, 110), TABLE, "|Study Intervention|Dosage Formulation|")
    respace_tables(doc, [block])
    assert block.text == "|Study Intervention|Dosage Formulation|"
    assert respace("|Study Intervention|", spaced.split()) != "|Study Intervention|"  # what it would do


PARAGRAPH = ["As", "access", "to", "nintedanib", "outside", "of", "the", "clinical", "trial", "is", "now", "available"]


def test_a_paragraph_cut_at_the_column_lines_is_one_cell_again():
    # One cell spanning four columns, cut where the columns above are drawn, line by line.
    table = "|Rationale|As access to nintedan<br>trial is now|ib outsid<br>available|e of th|e clinical|"
    assert (
        join_cut_cells(table, ["Rationale"] + PARAGRAPH)
        == "|Rationale|As access to nintedanib outside of the clinical<br>trial is now available||||"
    )


def test_only_the_cells_that_cut_a_word_are_joined():
    words = ["4.2.1.2", "Management", "of", "liver", "enzyme", "elevation"]
    body = "|Description of change in the amendment|a|b|c|\n|---|---|---|---|\n"  # past the header rows
    assert join_cut_cells(body + "|4.2.1.2 Management|of liver e|nzyme|elevation|", words).endswith(
        "\n|4.2.1.2 Management|of liver enzyme||elevation|"
    )


def test_a_cell_with_an_extra_line_still_reads_across():
    words = ["Was", "added:", "For", "patients", "continuing", "treatment", "within", "this", "trial"]
    table = "|Was added:<br>For patients continuin<br>within this|g treatm<br>trial|ent|"
    assert join_cut_cells(table, words) == "|Was added:<br>For patients continuing treatment<br>within this trial|||"


def test_cells_meeting_at_word_boundaries_are_left_apart():
    for table, words in (
        ("|X|X|X|", ["X", "X", "X"]),
        ("|Adverse events|X|X|", ["Adverse", "events", "X", "X"]),
        ("|Week 2|Week 4|", ["Week", "2", "Week", "4"]),
    ):
        assert join_cut_cells(table, words) == table


def test_cells_not_read_in_the_page_order_or_with_markup_are_left_apart():
    # Column by column in the layer (not line by line), or other markup: no claim about a cut.
    assert join_cut_cells("|nintedan|ib|", ["ib", "nintedan"]) == "|nintedan|ib|"
    assert join_cut_cells("|nintedan<sup>a</sup>|ib|", ["nintedanib"]) == "|nintedan<sup>a</sup>|ib|"


def test_bold_cells_are_joined_and_stay_bold():
    body = "|1 Introduction to the study and its background ....5|p|\n|---|---|\n"
    assert join_cut_cells(body + "|**11 Appendi**|**ces ....62**|", ["11", "Appendices", "....62"]).endswith(
        "\n|**11 Appendices ....62**||"
    )


def test_a_cell_printed_elsewhere_does_not_stop_its_neighbours_joining():
    # A stamp the layer prints first sits between the cut cells' row neighbours.
    words = ["CONFIDENTIAL", "Trial", "ID:", "NN9536-4373", "Version:"]
    table = "|Trial ID: NN953|6-4373|CONFIDENTIAL|Version:|"  # a header row: the joined text spans both
    assert join_cut_cells(table, words) == "|Trial ID: NN9536-4373|Trial ID: NN9536-4373|CONFIDENTIAL|Version:|"


def test_a_spanning_header_cell_cut_at_a_column_line_spans_every_column_it_covers():
    # The epoch over visits 6 and 7, cut by their column line: a header names each column.
    table = (
        "|Study Period|Treat|ment|Follo|w-up|\n|---|---|---|---|---|\n|Visit|6|7|8|9|\n"
        "|Physical examination and vital signs of the participant|X|X|X|X|"
    )
    words = ["Study", "Period", "Treatment", "Follow-up", "Visit", "6", "7", "8", "9"]
    assert join_cut_cells(table, words).splitlines()[0] == "|Study Period|Treatment|Treatment|Follow-up|Follow-up|"


def test_cells_holding_only_line_breaks_are_left_as_they_are():
    table = "|Visit|<br>|<br>|\n|---|---|---|\n|Weight measured at every visit of the study|<br>|<br>|"
    assert join_cut_cells(table, ["Visit", "Weight", "measured"]) == table


def test_a_cell_holding_an_escaped_pipe_is_one_cell_left_as_it_is():
    # "Creatinekinase \| Apo Egenotyping" is one cell, and an escaped character leaves it alone;
    # the row is written back with its pipe still escaped, the cell beside it re-spaced.
    table = "|Creatinekinase \\| Apo Egenotyping|Apo Egenotyping|\n|---|---|"
    fixed = respace(join_cut_cells(table, WORDS), WORDS)
    assert fixed.splitlines() == ["|Creatinekinase \\| Apo Egenotyping|ApoE genotyping|", "|---|---|"]
