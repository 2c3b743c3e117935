"""A numbered heading boxed with the line under it is split where the author broke the line."""

import pymupdf

from clinparser.convert.repairs.heading_lines import split_heading_lines
from clinparser.model import HEADING, TEXT, Block

BODY = "The null hypothesis is that there is no difference between the groups in the time to relief."


def _page(heading_lines: list[str]):
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    y = 100
    for line in heading_lines:
        page.insert_text((54, y), line, fontname="hebo", fontsize=11)
        y += 16
    for _ in range(3):  # body lines that fill the column: its right edge
        page.insert_text((54, y), BODY, fontname="helv", fontsize=11)
        y += 14
    return doc


def _heading(text: str, lines: int) -> Block:
    return Block(page=1, bbox=(50, 88, 560, 88 + 16 * lines), kind=HEADING, text=text)


def test_a_short_numbered_line_and_the_heading_under_it_become_two_headings():
    doc = _page(["17.7.1 Primary Endpoint", "Primary Analysis Hypothesis"])
    out = split_heading_lines(doc, [_heading("# **17.7.1 Primary Endpoint Primary Analysis Hypothesis**", 2)])
    assert [(b.kind, b.text) for b in out] == [
        (HEADING, "# **17.7.1 Primary Endpoint**"),
        (HEADING, "# **Primary Analysis Hypothesis**"),
    ]
    assert out[0].bbox[3] <= out[1].bbox[1]


def test_a_title_that_fills_its_line_and_wraps_stays_one_heading():
    first = "5.2.1 Demographic and Baseline Characteristics of the Study Population Enrolled in"
    doc = _page([first, "Both Parts"])
    width = pymupdf.get_text_length(first, fontname="hebo", fontsize=11)
    body = pymupdf.get_text_length(BODY, fontname="helv", fontsize=11)
    assert width + pymupdf.get_text_length("Both ", fontname="hebo", fontsize=11) > body  # "Both" would not fit
    block = _heading(f"## {first} Both Parts", 2)
    assert split_heading_lines(doc, [block]) == [block]


def test_headings_without_a_number_and_other_blocks_are_left_alone():
    doc = _page(["Primary Endpoint", "Primary Analysis Hypothesis"])
    block = _heading("# **Primary Endpoint Primary Analysis Hypothesis**", 2)
    text = Block(page=1, bbox=(50, 88, 560, 120), kind=TEXT, text="17.7.1 Primary Endpoint Primary Analysis Hypothesis")
    assert split_heading_lines(doc, [block, text]) == [block, text]
