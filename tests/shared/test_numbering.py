from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from clinparser.shared.numbering import (
    APPENDIX_BASE,
    ROMAN_BASE,
    normalize_number,
    normalize_title,
    parse_number,
    roman_to_int,
    strip_markup,
)


@pytest.mark.parametrize(
    "line, label, key, title",
    [
        ("1 PROTOCOL SUMMARY", "1", (1,), "PROTOCOL SUMMARY"),
        ("# **1. PROTOCOL SUMMARY**", "1.", (1,), "PROTOCOL SUMMARY"),
        ("1.0 Introduction", "1.0", (1,), "Introduction"),
        ("## **_3.3.1. Final Report Signature_**", "3.3.1.", (3, 3, 1), "Final Report Signature"),
        ("1.2.3.4.5 Deep Heading", "1.2.3.4.5", (1, 2, 3, 4, 5), "Deep Heading"),
        ("10.3.1.2.1 Deeper", "10.3.1.2.1", (10, 3, 1, 2, 1), "Deeper"),
        ("3.2\tStudy Design", "3.2", (3, 2), "Study Design"),
        ("3.2 - Study Design", "3.2", (3, 2), "Study Design"),
        ("3.2 – Study Design", "3.2", (3, 2), "Study Design"),
        ("<u>4.1 Overall Design</u>", "4.1", (4, 1), "Overall Design"),
        ("Section 3 Study Design", "Section 3", (3,), "Study Design"),
        ("APPENDIX 4", "APPENDIX 4", (APPENDIX_BASE + 4,), ""),
        ("Appendix 4: Contraception", "Appendix 4", (APPENDIX_BASE + 4,), "Contraception"),
        ("Appendix A. Additional Safety", "Appendix A", (APPENDIX_BASE + 1,), "Additional Safety"),
        ("Annex 2 Forms", "Annex 2", (APPENDIX_BASE + 2,), "Forms"),
        (
            "Protocol Attachment LZZT.4 Revised Inventory",
            "Protocol Attachment LZZT.4",
            (APPENDIX_BASE + 4,),
            "Revised Inventory",
        ),
        ("A.1 Laboratory Tests", "A.1", (APPENDIX_BASE + 1, 1), "Laboratory Tests"),
        ("10.1 Appendix 1: Abbreviations", "10.1", (10, 1), "Appendix 1: Abbreviations"),
        ("7.3.9 12-Lead Electrocardiograms", "7.3.9", (7, 3, 9), "12-Lead Electrocardiograms"),
        ("1.2.", "1.2.", (1, 2), ""),
        ("0.12 Schedule of Activities", "0.12", (0, 12), "Schedule of Activities"),
        # a number glued to its title by its last dot
        ("2.2.2.1.Phase 1 Study (TV-10126)", "2.2.2.1.", (2, 2, 2, 1), "Phase 1 Study (TV-10126)"),
        ("**10.3.1.2.1.Plasma Glucose Values**", "10.3.1.2.1.", (10, 3, 1, 2, 1), "Plasma Glucose Values"),
        (
            "Attachment 3.Protocol JPBL Hepatic Monitoring",
            "Attachment 3",
            (APPENDIX_BASE + 3,),
            "Protocol JPBL Hepatic Monitoring",
        ),
        # a form outline: letter glued to the item number
        ("A2. Rationale and justification", "A2.", (APPENDIX_BASE + 1, 2), "Rationale and justification"),
        ("**B10** Data Safety", "B10", (APPENDIX_BASE + 2, 10), "Data Safety"),
        # Roman parts in their own key range
        ("I. SIGNATURES", "I.", (ROMAN_BASE + 1,), "SIGNATURES"),
        ("V.\tFLOW CHART", "V.", (ROMAN_BASE + 5,), "FLOW CHART"),
        # tab or several spaces
        ("3.2   Study  Design", "3.2", (3, 2), "Study Design"),
        # markup of any kind around or inside the line never hides the number
        ("<mark>5.1</mark> <ins>Inclusion</ins> Criteria", "5.1", (5, 1), "Inclusion Criteria"),
        ('<a id="x"></a>**6.2** ==Dose== ~~Old~~ Modification', "6.2", (6, 2), "Dose Old Modification"),
        ("[7.3 Safety Reporting](#page-40)", "7.3", (7, 3), "Safety Reporting"),
    ],
)
def test_recognizes_section_numbers(line, label, key, title):
    n = parse_number(line)
    assert n is not None and (n.label, n.key, n.title) == (label, key, title)


@pytest.mark.parametrize(
    "line",
    [
        "2006 Word-to-PDF",
        "3.2 10 mg dose",
        "0 Zero",
        "0.0 Zero",
        "Appendix 10.3",
        "",
        "Figure 1: Schema",
        "12. 5",
        "1.5mg daily",
        "3.e.g. this",
        "A0. Nothing",
    ],
)
def test_rejects_lines_that_open_no_section(line):
    assert parse_number(line) is None


def test_normalize_number_unifies_the_spellings_gold_lists_use():
    assert normalize_number("3.1.") == "3.1"
    assert normalize_number("1.0") == normalize_number("1") == "1"
    assert normalize_number("APPENDIX 4") == "appendix 4"
    assert normalize_number("Protocol Attachment LZZT.4") == "appendix 4"
    assert normalize_number("Appendix 4:") == "appendix 4"
    # lettered appendices keep their letter, as gold lists write them ("Appendix I" is the ninth)
    assert normalize_number("Appendix A") == normalize_number("appendix a") == "appendix a"
    assert normalize_number("APPENDIX I.") == "appendix i"
    assert normalize_number("A2.") == "a2"


def test_normalize_title_folds_markup_case_and_punctuation():
    assert normalize_title("**Schedule of Activities (SoA)**") == "schedule of activities soa"


def test_strip_markup():
    assert strip_markup("## **_Sex_** <u>x</u>") == "Sex x"


def test_roman_numerals():
    assert [roman_to_int(s) for s in ("I", "IV", "IX", "XIV", "IIII", "VX")] == [1, 4, 9, 14, None, None]


@given(st.text(max_size=200))
def test_never_crashes_and_keys_are_positive(text):
    n = parse_number(text)
    if n is not None:
        # a leading 0 only as numbered front matter ("0.1 Synopsis"), never a chapter 0
        assert all(k >= 1 for k in n.key[1:]) and n.key[0] >= (0 if len(n.key) > 1 else 1) and n.label
