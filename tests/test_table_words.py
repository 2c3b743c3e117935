"""Table cells get the spacing of the page's own words."""

from __future__ import annotations

import pymupdf

from clinparser.convert.table_words import respace, respace_tables
from clinparser.model import TABLE, Block

WORDS = ["Blood", "urea", "nitrogen", "(BUN)", "Creatine", "kinase", "ApoE", "genotyping", "X", "Total", "and", "direct", "bilirubin"]


def test_lost_spaces_come_back_and_wrong_ones_go():
    table = "|Test|Mark|\n|---|---|\n|Blood urea nitrogen(BUN)|X|\n|Creatinekinase|X|\n|Apo Egenotyping|X|"
    fixed = respace(table, WORDS)
    assert fixed.splitlines()[2:] == ["|Blood urea nitrogen (BUN)|X|", "|Creatine kinase|X|", "|ApoE genotyping|X|"]
    assert fixed.splitlines()[:2] == ["|Test|Mark|", "|---|---|"]


def test_cells_with_line_breaks_are_respaced_part_by_part():
    assert respace("|Total and directbilirubin<br>Creatinekinase|", WORDS) == "|Total and direct bilirubin<br>Creatine kinase|"


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
