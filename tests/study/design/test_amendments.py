"""The amendment history."""

from design_builders import section

from clinparser.study.design.amendments import iso_date, read_amendments
from clinparser.study.trace import Tracer

NO_TRACE = Tracer([])


def test_amendment_history_table_without_the_original_and_administrative_changes():
    table = {
        "columns": ["Document", "Date"],
        "data": [
            ["Original Protocol", "01 March 2019"],
            ["Amendment 1", "14 June 2019"],
            ["Administrative Change 1", "20 July 2019"],
            ["Amendment 2", "03 January 2020"],
            ["Amendment 2 (JP 01)", "05 February 2020"],
        ],
    }
    document = {
        "non_toc": [{"title": "Protocol Amendment History", "text": "", "tables": [table], "pages": [2, 2]}],
        "toc": [],
    }
    found = read_amendments(document, NO_TRACE)
    assert [(a["number"], a["date"]) for a in found] == [("1", "2019-06-14"), ("2", "2020-01-03")]


def test_a_version_table_naming_no_amendment_counts_each_version_after_the_first():
    table = {
        "columns": ["Version Number", "Version Date"],
        "data": [["1.0", "12 Jan 2020"], ["2.0", "30 Jun 2020"], ["3.0", "1 Feb 2021"]],
    }
    document = {
        "non_toc": [],
        "toc": [{"number": "", "title": "Document History", "text": "", "tables": [table], "pages": [2, 2]}],
    }
    assert [a["number"] for a in read_amendments(document, NO_TRACE)] == ["2.0", "3.0"]


def test_dates_in_the_forms_protocols_print():
    assert iso_date("Amendment 3: 02Jun2016") == "2016-06-02"
    assert iso_date("March 14, 2021") == "2021-03-14" and iso_date("no date") is None


def test_bare_numbers_under_an_amendment_column_and_a_title_page_line_of_several_fields():
    table = {"columns": ["Amendment", "Date"], "data": [["Original", "24-Apr-2020"], ["1", "03-Oct-2020"]]}
    document = {"non_toc": [{"title": "Document History", "text": "", "tables": [table], "pages": [2, 2]}], "toc": []}
    assert [(a["number"], a["date"]) for a in read_amendments(document, NO_TRACE)] == [("1", "2020-10-03")]
    cover = "**Protocol Number:** DL-1 **Original Protocol:** 12-May-2021 **Amendment 1:** 19-Aug-2021"
    document = {"non_toc": [{"title": "A Study of Drug X", "text": cover, "tables": [], "pages": [1, 1]}], "toc": []}
    assert [(a["number"], a["date"]) for a in read_amendments(document, NO_TRACE)] == [("1", "2021-08-19")]


def test_a_history_table_with_month_year_dates_and_the_back_matters_amendment_headings():
    table = {
        "columns": ["Document", "Date"],
        "data": [
            ["Amendment 2 (not implemented)", "March 2020 (not implemented)"],
            ["Amendment 1", "December 2018"],
            ["Original Protocol", "July 2018"],
        ],
    }
    document = {
        "non_toc": [
            {"title": "Summary of Changes", "text": "", "tables": [table], "pages": [2, 2]},
            {
                "title": "Protocol amendment 3: (UK, 15 March 2021 version 1.0)",
                "text": "Changes.",
                "tables": [],
                "pages": [90, 91],
            },
        ],
        "toc": [],
    }
    found = read_amendments(document, NO_TRACE)
    assert [(a["number"], a["date"]) for a in found] == [("1", None), ("2", None), ("3", "2021-03-15")]


def test_a_dated_version_list_on_the_title_page_counts_each_version_after_the_first():
    text = (
        "Date of Protocol: 04 May 2023, Version 4.1\n11 October 2022 (US Only), Version 3.1\n"
        "10 February 2022, Version 2.0 18 October 2021, Version 1.0"
    )
    document = {"non_toc": [{"title": "Title Page", "text": text, "tables": [], "pages": [1, 1]}], "toc": []}
    assert [a["number"] for a in read_amendments(document, NO_TRACE)] == ["2.0", "3.1", "4.1"]
    one = {
        "non_toc": [
            {"title": "Title Page", "text": "Protocol Version 2.0, 10 February 2022", "tables": [], "pages": [1, 1]}
        ],
        "toc": [],
    }
    # one version is no list, but the title page's own version after the first is the amendment
    # the document is
    assert [a["number"] for a in read_amendments(one, NO_TRACE)] == ["2.0"]
    first = {
        "non_toc": [
            {"title": "Title Page", "text": "Protocol Version 1.0, 10 February 2022", "tables": [], "pages": [1, 1]}
        ],
        "toc": [],
    }
    assert read_amendments(first, NO_TRACE) == []  # the original protocol


def _history(*tables, text=""):
    return {
        "non_toc": [{"title": "Title Page", "text": text, "tables": [], "pages": [1, 1]}],
        "toc": [
            {
                "number": "11",
                "title": "Description of Global Amendments",
                "text": "",
                "pages": [58, 60],
                "tables": list(tables),
            }
        ],
    }


def test_one_labelled_box_per_amendment_even_when_the_boxes_were_joined():
    box1 = {
        "columns": ["Number of global amendment", "", "1"],
        "data": [
            ["Date of CTP revision", "", "15 October 2012"],
            ["Section to be changed", "", "Flow chart"],
            ["Rationale for change", "", "Clarity."],
        ],
    }
    joined = {
        "columns": ["Amendment No.", "2"],
        "data": [
            ["Date of amendment", "09 January 2015"],
            ["Description of change", "Visits added."],
            ["Amendment No.", "3"],
            ["Date of amendment", "28 March 2017"],
        ],
    }
    found = read_amendments(_history(box1, joined), NO_TRACE)
    assert [(a["number"], a["date"]) for a in found] == [("1", "2012-10-15"), ("2", "2015-01-09"), ("3", "2017-03-28")]
    # a labelled table whose number row is no amendment's is not a box
    other = {"columns": ["Number of participants", "120"], "data": [["Date of first visit", "1 May 2020"]]}
    assert read_amendments(_history(other), NO_TRACE) == []


def test_the_title_pages_own_version_and_the_earlier_version_its_rationale_names():
    title_table = {
        "columns": ["Protocol Number:", "AB-123"],
        "data": [["Version Number:", "3"], ["Date:", "5 April 2024"]],
    }
    document = {
        "non_toc": [
            {
                "title": "A Study of X",
                "tables": [title_table],
                "pages": [1, 1],
                "text": "## **PROTOCOL AMENDMENT, VERSION 3: RATIONALE**\n\nVersion 2 of the protocol was updated "
                "to extend the screening window.\n\nVersion 1 of the protocol was the original.",
            }
        ],
        "toc": [],
    }
    assert [(a["number"], a["date"]) for a in read_amendments(document, NO_TRACE)] == [("2", None), ("3", "2024-04-05")]
    # where amendments are named, a version number is another numbering and is not added
    named = {
        "non_toc": [
            {
                "title": "Title",
                "text": "Version: 4.0, 1 May 2021\n\nAmendment 2: 14 March 2021",
                "tables": [],
                "pages": [1, 1],
            }
        ],
        "toc": [],
    }
    assert [a["number"] for a in read_amendments(named, NO_TRACE)] == ["2"]


def test_a_bare_number_under_a_version_column_is_a_version():
    table = {"columns": ["Version", "Protocol / Date Final"], "data": [["2", "14 April 2020"], ["1", "18 March 2020"]]}
    document = {"non_toc": [{"title": "Protocol History", "text": "", "tables": [table], "pages": [2, 2]}], "toc": []}
    assert [(a["number"], a["date"]) for a in read_amendments(document, NO_TRACE)] == [("2", "2020-04-14")]


def test_boxes_set_side_by_side_or_left_as_lines_of_text():
    side = {
        "columns": ["Amendment No.", "2", "3"],
        "data": [
            ["Date of revision", "27-Jul-2022", "28-Feb-2023"],
            ["Sections changed", "Statistical methods", "Study procedures"],
        ],
    }
    text = (
        "The changes made by each global amendment follow.\n\n"
        "Amendment No. 1\nDate of revision 04-Apr-2022\nSections changed Flow chart"
    )
    document = _history(side)
    document["toc"][0]["text"] = text
    found = read_amendments(document, NO_TRACE)
    assert [(a["number"], a["date"]) for a in found] == [("1", "2022-04-04"), ("2", "2022-07-27"), ("3", "2023-02-28")]


def test_a_history_run_on_in_one_line_with_two_series_of_amendments():
    text = (
        "_Protocol History:_\n\nVersion 1.0 [10Nov2015] Version 1.1 [FR] Nonsubstantial Amendment 1 [21Apr2016] "
        "Version 2.0 Substantial Amendment 1 [02Jun2016] Version 2.1 [CA, US] Nonsubstantial Amendment 2 [04Oct2017] "
        "Version 3.0 Substantial Amendment 2 [14Dec2017]"
    )
    document = {"non_toc": [{"title": "Title Page", "text": text, "tables": [], "pages": [1, 1]}], "toc": []}
    found = read_amendments(document, NO_TRACE)
    assert sorted((a["number"], a["date"]) for a in found) == [
        ("Nonsubstantial Amendment 1", "2016-04-21"),
        ("Nonsubstantial Amendment 2", "2017-10-04"),
        ("Substantial Amendment 1", "2016-06-02"),
        ("Substantial Amendment 2", "2017-12-14"),
    ]


def test_the_documents_own_amendment_printed_only_in_its_running_header():
    table = {
        "columns": ["Document", "Date"],
        "data": [
            ["Original Protocol", "01 March 2019"],
            ["Amendment 1", "14 June 2019"],
            ["Amendment 2", "03 Jan 2020"],
        ],
    }
    document = {"toc": [], "non_toc": [dict(section(None, "Protocol Amendment History"), tables=[table])]}
    header = {"page": 1, "bbox": [72, 30, 540, 42], "kind": "text", "dropped": "furniture"}
    blocks = [
        {**header, "text": "Drugamab M15-555 Protocol Amendment 3 EudraCT 2015-003376-75"},
        {**header, "page": 2, "text": "Version 5.1 Incorporating Nonsubstantial Amendment 6"},  # another's
    ]
    found = read_amendments(document, Tracer(blocks))
    assert [(a["number"], a["date"]) for a in found] == [("1", "2019-06-14"), ("2", "2020-01-03"), ("3", None)]
    assert found[-1]["pages"] == [1] and found[-1]["printed"].startswith("Drugamab M15-555")
    # the header of a later page is no title page's
    blocks[0]["page"] = 9
    assert [a["number"] for a in read_amendments(document, Tracer(blocks))] == ["1", "2"]


def title_page(text: str) -> dict:
    return {"non_toc": [{"title": "Title Page", "text": text, "tables": [], "pages": [1, 1]}], "toc": []}


def test_a_title_page_line_listing_every_amendment_and_the_original():
    text = (
        "Version 3.0 (Amendment 2.0) Amendment 2.0: 21 Feb 2018 Amendment 1.0: 14 Dec 2017 "
        "Original Protocol: 27 Oct 2017"
    )
    found = read_amendments(title_page(text), NO_TRACE)
    assert sorted((a["number"], a["date"]) for a in found) == [("1.0", "2017-12-14"), ("2.0", "2018-02-21")]


def test_numbered_with_a_hyphen_and_dated_in_numbers_in_the_documents_order():
    text = (
        "Protocol Created 11/04/2008 Expedited Approval 11/17/2009 Amendment-001 Expedited Approval 07/14/2010\n\n"
        "Amendment-002 Expedited Approval 09/21/2015\n\nAmendment-003 Approved 10/02/2016\n\n"
        "Renewal-001 Expedited Approval 01/26/2010"
    )
    found = read_amendments(title_page(text), NO_TRACE)
    # 11/17/2009 and 07/14/2010 put the month first, so 10/02/2016 is 2 October
    assert [(a["number"], a["date"]) for a in found] == [("1", "2010-07-14"), ("2", "2015-09-21"), ("3", "2016-10-02")]
    # with nothing to tell the order, a date whose numbers are both 12 or less is no date
    alone = read_amendments(title_page("Amendment#1 (10/2/2015)"), NO_TRACE)
    assert [(a["number"], a["date"]) for a in alone] == [("1", None)]
    assert iso_date("14/07/2010") == "2010-07-14" and iso_date("10/2/2015", day_first=True) == "2015-02-10"


def test_a_lettered_amendment_heading():
    document = {
        "non_toc": [
            dict(
                section(None, "Protocol Amendment Summary of Changes Table"),
                text="### **Amendment (a)**\n\nThis amendment is non-substantial.",
            )
        ],
        "toc": [],
    }
    assert [a["number"] for a in read_amendments(document, NO_TRACE)] == ["a"]
    # in a sentence, a letter after "amendment" is no amendment's number
    prose = title_page("The reasons for this amendment (a) and (b) are listed below.")
    assert read_amendments(prose, NO_TRACE) == []


def test_a_version_taking_in_several_amendments_dates_none_of_them():
    text = (
        "Updated protocol including amendment no. 4 (DE), 5(UK) and 6 (all countries) Version 4.0, 29 March 2019\n\n"
        "Protocol Amendment no 5 Date: 25 July 2018"
    )
    found = read_amendments(title_page(text), NO_TRACE)
    assert [(a["number"], a["date"]) for a in found] == [("4", None), ("5", "2018-07-25")]

    table = {
        "columns": ["Document version", "Date", "Applicable in"],
        "data": [
            [
                "Updated protocol including amendment no. 2 (UK) and 3 (all countries)",
                "Version 3.0, 06 June 2018",
                "All",
            ]
        ],
    }
    in_table = read_amendments(
        {"non_toc": [dict(section(None, "Protocol History"), tables=[table])], "toc": []}, NO_TRACE
    )
    assert [(a["number"], a["date"]) for a in in_table] == [("2", None)]


def test_a_title_page_table_cell_running_the_history_on():
    cover = {
        "columns": ["Protocol Number:", "CPX-169-111"],
        "data": [
            ["Sponsor:", "Pellucid Medicines"],
            ["History:", "Amendment 2: 27-Jul-2022 Amendment 1:<br>28-Sep-2021 Original<br>Protocol: 16-May-2021"],
        ],
    }
    document = {"non_toc": [{"title": "", "text": "[Table]", "tables": [cover], "pages": [1, 1]}], "toc": []}
    found = read_amendments(document, NO_TRACE)
    assert [(a["number"], a["date"]) for a in found] == [("1", "2021-09-28"), ("2", "2022-07-27")]


def test_a_qualified_amendment_stays_whole_and_a_date_after_a_comma_is_its_date():
    text = (
        "Administrative Amendment 1: 12 Jan 2020\n\nAmendment 3, 12 March 2019\n\n"
        "Amendment 4 (Version 5.0), 15 June 2020\n\nAmendment 5: 31/02/2021"
    )
    found = read_amendments(title_page(text), NO_TRACE)
    # an administrative change is no amendment; a date that does not exist is no date
    assert [(a["number"], a["date"]) for a in found] == [("3", "2019-03-12"), ("4", "2020-06-15"), ("5", None)]
