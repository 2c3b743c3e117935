"""read_abbreviations on hand-built documents."""

from clinparser.study.abbreviations import read_abbreviations


def node(title, text="", tables=(), subsections=(), number=""):
    return {
        "number": number,
        "title": title,
        "level": 1,
        "pages": [5, 6],
        "text": text,
        "tables": list(tables),
        "images": [],
        "references": [],
        "subsections": list(subsections),
    }


def test_abbreviations_table_with_header_row_and_stacked_cells():
    table = {
        "title": "",
        "page": 5,
        "pages": [5, 5],
        "columns": ["Abbreviation", "Definition"],
        "data": [
            ["AE", "adverse event"],
            ["ECG\nPK", "electrocardiogram\npharmacokinetics"],
            ["%CV", "coefficient of variation"],
        ],
    }
    doc = {
        "toc": [node("Introduction", "AE is used below.", number="1")],
        "non_toc": [node("List of Abbreviations and Definitions of Terms", "[Table]", tables=[table])],
    }
    assert read_abbreviations(doc) == [
        {"abbreviation": "AE", "expansion": "adverse event"},
        {"abbreviation": "ECG", "expansion": "electrocardiogram"},
        {"abbreviation": "PK", "expansion": "pharmacokinetics"},
        {"abbreviation": "%CV", "expansion": "coefficient of variation"},
    ]


def test_abbreviations_as_a_list_and_a_pipe_table():
    text = (
        "The following abbreviations are used in this protocol.\n\n"
        "AE: adverse event\n\nBMI = body mass index\n\nCRF  case report form\n\nDSMB – Data Safety Monitoring Board\n\n"
        "|ULN|upper limit of normal|\n|---|---|\n|WBC|white blood cell|"
    )
    doc = {
        "non_toc": [],
        "toc": [node("Trial Overview", "", number="1", subsections=[node("Abbreviations", text, number="1.1")])],
    }
    assert read_abbreviations(doc) == [
        {"abbreviation": "AE", "expansion": "adverse event"},
        {"abbreviation": "BMI", "expansion": "body mass index"},
        {"abbreviation": "CRF", "expansion": "case report form"},
        {"abbreviation": "DSMB", "expansion": "Data Safety Monitoring Board"},
        {"abbreviation": "ULN", "expansion": "upper limit of normal"},
        {"abbreviation": "WBC", "expansion": "white blood cell"},
    ]


def test_no_abbreviations_section_and_amendment_lists_ignored():
    doc = {
        "toc": [node("Introduction", "AE: adverse event", number="1")],
        "non_toc": [node("Protocol Amendment 2", "", subsections=[node("Appendix 1 Abbreviations", "EXT: extension")])],
    }
    assert read_abbreviations(doc) == []


def test_a_printed_table_of_contents_read_into_the_section_is_no_abbreviation():
    # AbbVie M16-098: the printed TOC that follows the list came out as tables of the list's section;
    # its rows ("2.0 | Table of Contents", "5.3 | Safety Variables....80") became abbreviations.
    abbreviations = {
        "title": "",
        "page": 5,
        "pages": [5, 5],
        "columns": ["ACR", "American College of Rheumatology"],
        "data": [["SF-36", "Short Form 36"], ["gp130", "glycoprotein 130"]],
    }
    contents = {
        "title": "",
        "page": 6,
        "pages": [6, 6],
        "columns": ["2.0", "Table of Contents"],
        "data": [
            ["1.0", "Title Page....................1"],
            ["5.3.4", "Safety Variables..........84"],
            ["Table 2.", "Clinical Laboratory Tests........71"],
        ],
    }
    stray = {
        "title": "",
        "page": 6,
        "pages": [6, 6],
        "columns": ["TB", "tuberculosis"],
        "data": [["8.1.5", "Safety Analyses 119"], ["3.0", "Introduction ...........26"]],
    }
    doc = {
        "non_toc": [],
        "toc": [
            node(
                "List of Abbreviations",
                "[Table]\n\n[Table]\n\n[Table]",
                number="1.3",
                tables=[abbreviations, contents, stray],
            )
        ],
    }
    assert read_abbreviations(doc) == [
        {"abbreviation": "ACR", "expansion": "American College of Rheumatology"},
        {"abbreviation": "SF-36", "expansion": "Short Form 36"},
        {"abbreviation": "gp130", "expansion": "glycoprotein 130"},
    ]
