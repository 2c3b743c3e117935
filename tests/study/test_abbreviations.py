"""read_abbreviations on hand-built documents."""

from clinparser.study.abbreviations import read_abbreviations


def node(title, text="", tables=(), subsections=(), number=""):
    return {"number": number, "title": title, "level": 1, "pages": [5, 6], "text": text, "tables": list(tables),
            "images": [], "references": [], "subsections": list(subsections)}


def test_abbreviations_table_with_header_row_and_stacked_cells():
    table = {"title": "", "page": 5, "pages": [5, 5], "columns": ["Abbreviation", "Definition"],
             "data": [["AE", "adverse event"], ["ECG\nPK", "electrocardiogram\npharmacokinetics"],
                      ["%CV", "coefficient of variation"]]}
    doc = {"toc": [node("Introduction", "AE is used below.", number="1")],
           "non_toc": [node("List of Abbreviations and Definitions of Terms", "[Table]", tables=[table])]}
    assert read_abbreviations(doc) == [
        {"abbreviation": "AE", "expansion": "adverse event"},
        {"abbreviation": "ECG", "expansion": "electrocardiogram"},
        {"abbreviation": "PK", "expansion": "pharmacokinetics"},
        {"abbreviation": "%CV", "expansion": "coefficient of variation"},
    ]


def test_abbreviations_as_a_list_and_a_pipe_table():
    text = ("The following abbreviations are used in this protocol.\n\n"
            "AE: adverse event\n\nBMI = body mass index\n\nCRF  case report form\n\nDSMB – Data Safety Monitoring Board\n\n"
            "|ULN|upper limit of normal|\n|---|---|\n|WBC|white blood cell|")
    doc = {"non_toc": [], "toc": [node("Trial Overview", "", number="1",
                                       subsections=[node("Abbreviations", text, number="1.1")])]}
    assert read_abbreviations(doc) == [
        {"abbreviation": "AE", "expansion": "adverse event"},
        {"abbreviation": "BMI", "expansion": "body mass index"},
        {"abbreviation": "CRF", "expansion": "case report form"},
        {"abbreviation": "DSMB", "expansion": "Data Safety Monitoring Board"},
        {"abbreviation": "ULN", "expansion": "upper limit of normal"},
        {"abbreviation": "WBC", "expansion": "white blood cell"},
    ]


def test_no_abbreviations_section_and_amendment_lists_ignored():
    doc = {"toc": [node("Introduction", "AE: adverse event", number="1")],
           "non_toc": [node("Protocol Amendment 2", "", subsections=[node("Appendix 1 Abbreviations", "EXT: extension")])]}
    assert read_abbreviations(doc) == []
