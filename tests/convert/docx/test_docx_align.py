"""Word's heading numbers put in front of the DOCX heading blocks: the alignment of docling's
items to the document's paragraphs, and a whole parse of a Word file numbered automatically."""

from __future__ import annotations

from pathlib import Path

import pytest
from scoring.tree import flatten

from clinparser.convert.docx.docx_align import WORD_NUMBERING, apply_word_numbers
from clinparser.convert.docx.docx_numbering import NumberedParagraph
from clinparser.model import HEADING, LIST_ITEM, TABLE, TEXT, Block


def para(text, label="", heading=True, in_table=False):
    return NumberedParagraph(index=0, text=text, style="", heading=heading, in_table=in_table, label=label)


def item(kind, text, marker="1."):
    """A block as docling's backend gives it, and the docling item's own text."""
    markdown = {HEADING: f"## {text}", LIST_ITEM: f"{marker} {text}"}.get(kind, text)
    return Block(page=None, bbox=None, kind=kind, text=markdown), text


def apply(items, paragraphs):
    blocks, texts = [b for b, _ in items], [t for _, t in items]
    return blocks, apply_word_numbers(blocks, texts, paragraphs)


def test_converter_count_is_replaced_and_typed_numbers_are_kept():
    paragraphs = [
        para("Study Protocol", heading=False),
        para("Introduction", heading=False),  # a title-page line with a heading's words
        para("Introduction", "1.0"),
        para("Some text about the study.", heading=False),
        para("Rationale for the design", "1.1"),
        para("2.2 Dose Selection", "2.2"),  # auto-numbered and typed: Word shows it twice
        para("Unnumbered heading"),
        para("Schedule of Activities", "Appendix A"),
        para("Visit windows", "A.1"),
    ]
    blocks, report = apply(
        [
            item(TEXT, "Study Protocol"),
            item(TEXT, "Introduction"),
            item(HEADING, "1 Introduction"),  # docling's own count
            item(TEXT, "Some text about the study."),
            item(HEADING, "1.1 Rationale for the design"),
            item(HEADING, "1.2 2.2 Dose Selection"),
            item(HEADING, "Unnumbered heading"),
            item(HEADING, "2 Schedule of Activities"),
            item(HEADING, "2.1 Visit windows"),
        ],
        paragraphs,
    )
    assert [b.text for b in blocks if b.kind == HEADING] == [
        "## 1.0 Introduction",
        "## 1.1 Rationale for the design",
        "## 2.2 Dose Selection",
        "## Unnumbered heading",
        "## Appendix A Schedule of Activities",
        "## A.1 Visit windows",
    ]
    assert blocks[1].text == "Introduction"  # the title-page line is not a heading
    assert [b.number_source for b in blocks if b.kind == HEADING] == [
        WORD_NUMBERING,
        WORD_NUMBERING,
        "",
        "",
        WORD_NUMBERING,
        WORD_NUMBERING,
    ]
    assert (report.headings, report.typed_kept, report.unmatched) == (4, 1, [])
    assert report.summary().startswith("4 heading numbers come from Word's automatic numbering")


def test_a_citation_the_converter_glued_to_a_heading_is_marked_superscript_and_left_out_of_the_title():
    from clinparser.shared.numbering import parse_number

    cited = para("Pharmacology42", "12.1")
    cited.trailing_superscript = "42"
    unit = para("Dose per m2", "12.2")  # a "2" that is not superscript stays text
    blocks, _ = apply([item(HEADING, "1 Pharmacology42"), item(HEADING, "2 Dose per m2")], [cited, unit])
    assert [b.text for b in blocks] == ["## 12.1 Pharmacology<sup>42</sup>", "## 12.2 Dose per m2"]
    assert [parse_number(b.text).title for b in blocks] == ["Pharmacology", "Dose per m2"]


def test_list_markers_become_words_and_outline_level_items_become_headings():
    paragraphs = [
        para("Objectives", "1"),
        para("Visit", heading=False, in_table=True),
        para("Day 1", heading=False, in_table=True),
        para("Participants are randomised.", "1.", heading=False),
        para("1 mg once daily", "2.", heading=False),
        para("Endpoints", "1.1"),
        para("Design", "2"),
        para("Schedule of Activities", "Appendix C"),  # a custom heading style docling listed
    ]
    blocks, report = apply(
        [
            item(HEADING, "1 Objectives"),
            item(TABLE, "| Visit | Day 1 |"),
            item(LIST_ITEM, "Participants are randomised.", marker="1.d.1."),
            item(LIST_ITEM, "1 mg once daily", marker="1.d.2."),
            item(TEXT, "a paragraph docling read differently"),
            item(HEADING, "1.1 Endpoints"),
            item(HEADING, "Design"),  # docling did not count this one
            item(LIST_ITEM, "Schedule of Activities", marker="Appendix A"),
        ],
        paragraphs,
    )
    assert [(b.kind, b.text) for b in blocks] == [
        (HEADING, "## 1 Objectives"),
        (TABLE, "| Visit | Day 1 |"),
        (LIST_ITEM, "1. Participants are randomised."),
        (LIST_ITEM, "2. 1 mg once daily"),
        (TEXT, "a paragraph docling read differently"),
        (HEADING, "## 1.1 Endpoints"),
        (HEADING, "## 2 Design"),
        (HEADING, "## Appendix C Schedule of Activities"),
    ]
    assert (report.headings, report.list_items, report.unmatched) == (4, 2, [])


def test_a_heading_found_in_no_paragraph_is_reported_not_guessed():
    blocks, report = apply([item(HEADING, "3 Something docling made up")], [para("Objectives", "1")])
    assert blocks[0].text == "## 3 Something docling made up"
    assert report.unmatched == ["3 Something docling made up"]
    assert report.summary().endswith(
        "1 headings could not be matched to a Word paragraph, their numbers (if any) are the converter's: "
        "'3 Something docling made up'"
    )


# --- a whole parse of a Word file with automatic heading numbering ----------------------------

W_NS = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'

# (number as Word shows it, title) of every section, in order: the truth of the file below.
TRUTH = [
    ("1", "Introduction"),
    ("1.1", "Background"),
    ("1.2", "Rationale"),  # a heading with numbering switched off comes between 1.1 and 1.2
    ("1.2.1", "Prior Studies"),
    ("2", "Study Design"),
    ("2.1", "Overall Design"),  # restart: not 1.3
    ("2.2", "Dose Selection"),  # typed and auto-numbered: not doubled
    ("3", "Safety"),
    ("3.1", "Adverse Events"),
    ("Appendix A", "Schedule of Activities"),  # letter level; the definition starts at E, its instance at A
    ("A.1", "Visit Windows"),
    ("Appendix B", "Laboratory Tests"),
]


def make_numbered_docx(path: Path) -> Path:
    """A protocol whose heading numbers exist only in numbering.xml (python-docx comes with docling)."""
    import docx
    from docx.oxml import parse_xml

    d = docx.Document()
    numbering = d.part.numbering_part.element

    def lvl(ilvl, text, fmt="decimal", start=1):
        return (
            f'<w:lvl w:ilvl="{ilvl}"><w:start w:val="{start}"/><w:numFmt w:val="{fmt}"/>'
            f'<w:lvlText w:val="{text}"/></w:lvl>'
        )

    outline = "".join(lvl(k, ".".join(f"%{j + 1}" for j in range(k + 1))) for k in range(3))
    appendix = lvl(0, "Appendix %1", "upperLetter", start=5) + lvl(1, "%1.%2")  # a template whose appendices began at E
    numbering.insert(0, parse_xml(f'<w:abstractNum {W_NS} w:abstractNumId="90">{outline}</w:abstractNum>'))
    numbering.insert(1, parse_xml(f'<w:abstractNum {W_NS} w:abstractNumId="91">{appendix}</w:abstractNum>'))
    numbering.append(parse_xml(f'<w:num {W_NS} w:numId="90"><w:abstractNumId w:val="90"/></w:num>'))
    numbering.append(
        parse_xml(
            f'<w:num {W_NS} w:numId="91"><w:abstractNumId w:val="91"/>'
            '<w:lvlOverride w:ilvl="0"><w:startOverride w:val="1"/></w:lvlOverride></w:num>'
        )
    )

    def link(style, num_id, ilvl):
        style.element.get_or_add_pPr().insert(
            0, parse_xml(f'<w:numPr {W_NS}><w:ilvl w:val="{ilvl}"/><w:numId w:val="{num_id}"/></w:numPr>')
        )

    for k in range(3):
        link(d.styles[f"Heading {k + 1}"], 90, k)
    app1 = d.styles.add_style("Appendix Heading 1", docx.enum.style.WD_STYLE_TYPE.PARAGRAPH)
    app1.base_style = d.styles["Heading 1"]
    link(app1, 91, 0)
    app2 = d.styles.add_style("Appendix Heading 2", docx.enum.style.WD_STYLE_TYPE.PARAGRAPH)
    app2.base_style = d.styles["Heading 2"]
    link(app2, 91, 1)

    def body(text):
        d.add_paragraph(text)

    d.add_paragraph("Clinical Study Protocol XYZ-001", style="Title")
    body("A randomised study of a drug in adults, written in Word with automatic heading numbers.")
    d.add_heading("Introduction", 1)
    body("This protocol describes the study.")
    d.add_heading("Background", 2)
    body("The disease is common and current treatments are limited.")
    off = d.add_heading("Definitions", 2)
    off._p.get_or_add_pPr().insert(0, parse_xml(f'<w:numPr {W_NS}><w:numId w:val="0"/></w:numPr>'))
    body("Terms used in this protocol are defined here.")
    d.add_heading("Rationale", 2)
    body("The rationale rests on earlier studies.")
    d.add_heading("Prior Studies", 3)
    body("Two earlier studies found a benefit.")
    d.add_heading("Study Design", 1)
    body("The design is described below.")
    d.add_heading("Overall Design", 2)
    body("Participants are randomised to drug or placebo.")
    d.add_heading("2.2 Dose Selection", 2)
    body("The dose was chosen from the phase 1 results.")
    d.add_heading("Safety", 1)
    body("Safety is assessed at every visit.")
    d.add_heading("Adverse Events", 2)
    body("Adverse events are recorded from consent onwards.")
    d.add_paragraph("Schedule of Activities", style="Appendix Heading 1")
    body("The schedule lists every visit.")
    d.add_paragraph("Visit Windows", style="Appendix Heading 2")
    body("Visits may take place within three days of the planned date.")
    d.add_paragraph("Laboratory Tests", style="Appendix Heading 1")
    body("Blood samples are analysed centrally.")
    d.save(path)
    return path


@pytest.fixture(scope="module")
def numbered_docx_result(tmp_path_factory):
    from clinparser import PDFParser

    path = make_numbered_docx(tmp_path_factory.mktemp("wordnum") / "numbered.docx")
    return PDFParser(workers=1).parse(path, output_dir=None)


def test_word_numbered_headings_give_the_tree_word_shows(numbered_docx_result):
    got = [(n["number"], n["title"]) for n in flatten(numbered_docx_result["toc"])]
    assert got == TRUTH


def test_word_numbering_is_reported(numbered_docx_result):
    warnings = numbered_docx_result["metadata"]["warnings"]
    assert any(
        w.startswith("11 heading numbers come from Word's automatic numbering")
        and "1 auto-numbered paragraphs kept the number typed" in w
        for w in warnings
    ), warnings


@pytest.mark.corpus("NHLBI_IbrutinibFludarabineCLL.docx")
def test_real_word_protocol_gets_the_numbers_word_shows(corpus_run):
    # Its headings are numbered by Word only; a numbered body paragraph on the headings' list
    # shifts them (5.3), a level's text is a literal (5.4.1), another list instance supplies
    # an unused parent level (6.1). Chapters are scored elsewhere ("1.0" is how Word shows them).
    from conftest import gold
    from scoring.tree import score

    name = "NHLBI_IbrutinibFludarabineCLL.docx"
    result, _ = corpus_run(name)
    entries = gold(name)
    below_chapters = [g for g in (entries["sections"] if isinstance(entries, dict) else entries) if "." in g["number"]]
    s = score(result["toc"], below_chapters)
    assert s.recall >= 0.97, s.misses


def test_unreadable_numbering_is_a_warning_not_a_failed_parse(tmp_path, monkeypatch):
    import docx

    from clinparser.convert.docx import docx_numbering
    from clinparser.convert.engines.docling_backend import convert_docx

    d = docx.Document()
    d.add_heading("Introduction", 1)
    d.add_paragraph("Body text.")
    d.save(tmp_path / "plain.docx")

    def broken(path):
        raise KeyError("word/numbering.xml")

    monkeypatch.setattr(docx_numbering, "read_numbered_paragraphs", broken)
    converted = convert_docx(tmp_path / "plain.docx")
    assert [b.text for b in converted.blocks] == ["## Introduction", "Body text."]
    assert converted.warnings == [
        "Word's automatic numbering could not be computed (KeyError): heading numbers are the converter's "
        "and may be wrong"
    ]
