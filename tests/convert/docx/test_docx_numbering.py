"""Word's automatic numbering replayed from numbering.xml: each case is a small package written
by the test, and its expected labels are what Word displays for it."""

from __future__ import annotations

import zipfile

import pytest

from clinparser.convert.docx.docx_numbering import format_number, read_numbered_paragraphs

NS = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'


def lvl(ilvl, text, fmt="decimal", start=1, extra=""):
    return (
        f'<w:lvl w:ilvl="{ilvl}"><w:start w:val="{start}"/><w:numFmt w:val="{fmt}"/>'
        f'<w:lvlText w:val="{text}"/>{extra}</w:lvl>'
    )


OUTLINE = [lvl(0, "%1"), lvl(1, "%1.%2"), lvl(2, "%1.%2.%3")]


def abstract(aid, levels, extra=""):
    return f'<w:abstractNum w:abstractNumId="{aid}">{extra}{"".join(levels)}</w:abstractNum>'


def num(nid, aid, overrides=""):
    return f'<w:num w:numId="{nid}"><w:abstractNumId w:val="{aid}"/>{overrides}</w:num>'


def style(sid, outline=None, num_id=None, ilvl=None, based_on=None):
    ppr = ""
    if num_id is not None or ilvl is not None:
        ppr += (
            "<w:numPr>"
            + (f'<w:ilvl w:val="{ilvl}"/>' if ilvl is not None else "")
            + (f'<w:numId w:val="{num_id}"/>' if num_id is not None else "")
            + "</w:numPr>"
        )
    if outline is not None:
        ppr += f'<w:outlineLvl w:val="{outline}"/>'
    base = f'<w:basedOn w:val="{based_on}"/>' if based_on else ""
    return f'<w:style w:type="paragraph" w:styleId="{sid}"><w:name w:val="{sid}"/>{base}<w:pPr>{ppr}</w:pPr></w:style>'


def HEADING_STYLES(num_id="1"):
    return [style(f"Heading{k + 1}", outline=k, num_id=num_id, ilvl=k) for k in range(3)]


def p(text, sid="", num_id=None, ilvl=None, runs=None):
    ppr = f'<w:pStyle w:val="{sid}"/>' if sid else ""
    if num_id is not None or ilvl is not None:
        ppr += (
            "<w:numPr>"
            + (f'<w:ilvl w:val="{ilvl}"/>' if ilvl is not None else "")
            + (f'<w:numId w:val="{num_id}"/>' if num_id is not None else "")
            + "</w:numPr>"
        )
    body = runs if runs is not None else f'<w:r><w:t xml:space="preserve">{text}</w:t></w:r>'
    return f"<w:p><w:pPr>{ppr}</w:pPr>{body}</w:p>"


def labels(tmp_path, paragraphs, styles, abstracts, nums, only_numbered=True):
    path = tmp_path / "n.docx"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("word/document.xml", f"<w:document {NS}><w:body>{''.join(paragraphs)}</w:body></w:document>")
        z.writestr("word/styles.xml", f"<w:styles {NS}>{''.join(styles)}</w:styles>")
        z.writestr("word/numbering.xml", f"<w:numbering {NS}>{''.join(abstracts)}{''.join(nums)}</w:numbering>")
    out = read_numbered_paragraphs(path)
    return [(q.label, q.text) for q in out if q.label or not only_numbered]


def test_heading_outline_restarts_deeper_levels(tmp_path):
    paras = [
        p("Intro", "Heading1"),
        p("Background", "Heading2"),
        p("Rationale", "Heading2"),
        p("Prior", "Heading3"),
        p("Design", "Heading1"),
        p("Overall", "Heading2"),
        p("Detail", "Heading3"),
    ]
    got = labels(tmp_path, paras, HEADING_STYLES(), [abstract(0, OUTLINE)], [num(1, 0)])
    assert got == [
        ("1", "Intro"),
        ("1.1", "Background"),
        ("1.2", "Rationale"),
        ("1.2.1", "Prior"),
        ("2", "Design"),
        ("2.1", "Overall"),
        ("2.1.1", "Detail"),
    ]


def test_list_paragraph_in_the_heading_list_shifts_the_next_heading(tmp_path):
    # A numbered body paragraph on the headings' list takes a number too, as in Word.
    paras = [
        p("Plan", "Heading1"),
        p("Drugs", "Heading2"),
        p("Schedule: cycles of 28 days.", "", num_id=1, ilvl=1),
        p("Prophylaxis", "Heading2"),
    ]
    got = labels(tmp_path, paras, HEADING_STYLES(), [abstract(0, OUTLINE)], [num(1, 0)])
    assert got == [("1", "Plan"), ("1.1", "Drugs"), ("1.2", "Schedule: cycles of 28 days."), ("1.3", "Prophylaxis")]


def test_instances_of_one_list_share_counters_and_a_start_override_restarts_once(tmp_path):
    abstracts = [abstract(0, [lvl(0, "%1.")])]
    nums = [num(1, 0), num(2, 0), num(3, 0, '<w:lvlOverride w:ilvl="0"><w:startOverride w:val="5"/></w:lvlOverride>')]
    paras = [p("a", num_id=1), p("b", num_id=1), p("c", num_id=2), p("d", num_id=3), p("e", num_id=3), p("f", num_id=3)]
    assert labels(tmp_path, paras, [], abstracts, nums) == [
        ("1.", "a"),
        ("2.", "b"),
        ("3.", "c"),
        ("5.", "d"),
        ("6.", "e"),
        ("7.", "f"),
    ]


def test_letter_appendix_level_and_its_children(tmp_path):
    levels = [lvl(0, "Appendix %1", "upperLetter"), lvl(1, "%1.%2")]
    styles = [style("App1", outline=0, num_id=2, ilvl=0), style("App2", outline=1, num_id=2, ilvl=1)]
    paras = [p("Schedule", "App1"), p("Windows", "App2"), p("Labs", "App1"), p("Panels", "App2"), p("Tubes", "App2")]
    got = labels(tmp_path, paras, styles, [abstract(7, levels)], [num(2, 7)])
    assert got == [
        ("Appendix A", "Schedule"),
        ("A.1", "Windows"),
        ("Appendix B", "Labs"),
        ("B.1", "Panels"),
        ("B.2", "Tubes"),
    ]


def test_legal_numbering_shows_every_level_in_decimal(tmp_path):
    levels = [lvl(0, "%1.", "upperRoman"), lvl(1, "%1.%2", extra="<w:isLgl/>"), lvl(2, "%1.%2.%3")]
    paras = [p("x", num_id=1, ilvl=0), p("y", num_id=1, ilvl=0), p("z", num_id=1, ilvl=1), p("w", num_id=1, ilvl=2)]
    got = labels(tmp_path, paras, [], [abstract(0, levels)], [num(1, 0)])
    assert got == [("I.", "x"), ("II.", "y"), ("2.1", "z"), ("II.1.1", "w")]


def test_level_restart_zero_never_restarts(tmp_path):
    levels = [lvl(0, "Part %1"), lvl(1, "Item %2", extra='<w:lvlRestart w:val="0"/>')]
    paras = [p("a", num_id=1, ilvl=0), p("b", num_id=1, ilvl=1), p("c", num_id=1, ilvl=0), p("d", num_id=1, ilvl=1)]
    got = labels(tmp_path, paras, [], [abstract(0, levels)], [num(1, 0)])
    assert got == [("Part 1", "a"), ("Item 1", "b"), ("Part 2", "c"), ("Item 2", "d")]


def test_numbering_switched_off_takes_no_number_and_advances_nothing(tmp_path):
    paras = [
        p("Intro", "Heading1"),
        p("Background", "Heading2"),
        p("Definitions", "Heading2", num_id=0),
        p("Rationale", "Heading2"),
    ]
    got = labels(tmp_path, paras, HEADING_STYLES(), [abstract(0, OUTLINE)], [num(1, 0)], only_numbered=False)
    assert got == [("1", "Intro"), ("1.1", "Background"), ("", "Definitions"), ("1.2", "Rationale")]


def test_unused_parent_levels_show_their_start(tmp_path):
    # Word numbers Heading 2, Heading 2, Heading 1 as 1.1, 1.2, 2 and a Heading 3 right
    # under a Heading 1 as 1.1.1; a parent level that starts at 6 shows 6.
    paras = [p("a", "Heading2"), p("b", "Heading2"), p("c", "Heading1"), p("d", "Heading3")]
    got = labels(tmp_path, paras, HEADING_STYLES(), [abstract(0, OUTLINE)], [num(1, 0)])
    assert got == [("1.1", "a"), ("1.2", "b"), ("2", "c"), ("2.1.1", "d")]
    other = [lvl(0, "%1", start=6), lvl(1, "%1.%2")]
    assert labels(tmp_path, [p("Pre-study", num_id=4, ilvl=1)], [], [abstract(3, other)], [num(4, 3)]) == [
        ("6.1", "Pre-study")
    ]


def test_literal_level_text_and_level_text_pointing_deeper(tmp_path):
    levels = [lvl(0, "5.4.1", "none"), lvl(1, "%3.%2")]
    paras = [p("Neutropenia", num_id=1, ilvl=0), p("never shown", num_id=1, ilvl=1)]
    assert labels(tmp_path, paras, [], [abstract(0, levels)], [num(1, 0)]) == [("5.4.1", "Neutropenia")]


def test_numbering_style_link_is_followed(tmp_path):
    # abstractNum 1 only links to the numbering style "Outline", whose numId 2 -> abstractNum 0.
    styles = [
        (
            '<w:style w:type="numbering" w:styleId="Outline"><w:name w:val="Outline"/>'
            '<w:pPr><w:numPr><w:numId w:val="2"/></w:numPr></w:pPr></w:style>'
        )
    ]
    abstracts = [
        abstract(0, [lvl(0, "Section %1")], '<w:styleLink w:val="Outline"/>'),
        abstract(1, [], '<w:numStyleLink w:val="Outline"/>'),
    ]
    paras = [p("a", num_id=5), p("b", num_id=5)]
    assert labels(tmp_path, paras, styles, abstracts, [num(2, 0), num(5, 1)]) == [
        ("Section 1", "a"),
        ("Section 2", "b"),
    ]


def test_style_level_found_by_the_level_linked_to_the_style(tmp_path):
    # A style carrying only numId is at the level whose w:pStyle names it.
    levels = [lvl(0, "%1", extra='<w:pStyle w:val="H1"/>'), lvl(1, "%1.%2", extra='<w:pStyle w:val="H2"/>')]
    styles = [style("H1", outline=0, num_id=1), style("H2", outline=1, num_id=1)]
    paras = [p("a", "H1"), p("b", "H2")]
    assert labels(tmp_path, paras, styles, [abstract(0, levels)], [num(1, 0)]) == [("1", "a"), ("1.1", "b")]


def test_table_paragraphs_count_and_hidden_runs_are_not_text(tmp_path):
    cell = f"<w:tbl><w:tr><w:tc>{p('in a cell', num_id=1)}</w:tc></w:tr></w:tbl>"
    hidden = "<w:r><w:t>Shown</w:t></w:r><w:r><w:rPr><w:vanish/></w:rPr><w:t> hidden</w:t></w:r>"
    paras = [p("first", num_id=1), cell, p("", num_id=1, runs=hidden)]
    assert labels(tmp_path, paras, [], [abstract(0, [lvl(0, "%1)")])], [num(1, 0)]) == [
        ("1)", "first"),
        ("2)", "in a cell"),
        ("3)", "Shown"),
    ]


def test_bullets_are_not_numbers(tmp_path):
    paras = [p("point", num_id=1)]
    assert labels(tmp_path, paras, [], [abstract(0, [lvl(0, "o", "bullet")])], [num(1, 0)]) == []


@pytest.mark.parametrize(
    "value, fmt, shown",
    [
        (1, "upperLetter", "A"),
        (26, "lowerLetter", "z"),
        (27, "upperLetter", "AA"),
        (28, "upperLetter", "BB"),
        (4, "upperRoman", "IV"),
        (14, "lowerRoman", "xiv"),
        (7, "decimalZero", "07"),
        (12, "decimalZero", "12"),
        (3, "decimal", "3"),
        (22, "ordinal", "22nd"),
        (5, "none", ""),
        (9, "someScriptFormat", "9"),
    ],
)
def test_number_formats(value, fmt, shown):
    assert format_number(value, fmt) == shown


def test_text_box_text_is_not_its_anchor_paragraphs_text(tmp_path):
    box = (
        "<w:r><w:t>Heading</w:t></w:r><w:r><w:drawing><w:txbxContent>"
        "<w:p><w:r><w:t> in a box</w:t></w:r></w:p></w:txbxContent></w:drawing></w:r>"
        "<w:hyperlink><w:r><w:t> linked</w:t></w:r></w:hyperlink>"
    )
    assert labels(tmp_path, [p("", num_id=1, runs=box)], [], [abstract(0, [lvl(0, "%1")])], [num(1, 0)]) == [
        ("1", "Heading linked")
    ]


def test_parts_are_found_through_the_package_relationships_and_strict_namespace(tmp_path):
    # A generator that names its parts differently and writes Strict OOXML.
    strict = 'xmlns:w="http://purl.oclc.org/ooxml/wordprocessingml/main"'
    rel = "http://schemas.openxmlformats.org/package/2006/relationships"
    path = tmp_path / "s.docx"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr(
            "_rels/.rels",
            f'<Relationships xmlns="{rel}"><Relationship Id="r1" '
            'Type="http://purl.oclc.org/ooxml/officeDocument/relationships/officeDocument" '
            'Target="main/doc.xml"/></Relationships>',
        )
        z.writestr(
            "main/_rels/doc.xml.rels",
            f'<Relationships xmlns="{rel}"><Relationship Id="r2" '
            'Type="http://purl.oclc.org/ooxml/officeDocument/relationships/numbering" '
            'Target="lists.xml"/></Relationships>',
        )
        z.writestr(
            "main/doc.xml", f"<w:document {strict}><w:body>{p('a', num_id=1).replace(NS, '')}</w:body></w:document>"
        )
        z.writestr(
            "main/lists.xml",
            f"<w:numbering {strict}>{abstract(0, [lvl(0, 'Part %1', 'upperRoman')])}{num(1, 0)}</w:numbering>",
        )
    assert [(q.label, q.text) for q in read_numbered_paragraphs(path)] == [("Part I", "a")]


def test_a_paragraph_deleted_with_tracked_changes_takes_no_number(tmp_path):
    gone = (
        '<w:p><w:pPr><w:pStyle w:val="Heading2"/><w:rPr>'
        '<w:del w:id="1" w:author="a" w:date="2020-01-01T00:00:00Z"/></w:rPr></w:pPr>'
        '<w:del w:id="2" w:author="a" w:date="2020-01-01T00:00:00Z">'
        "<w:r><w:delText>Old heading</w:delText></w:r></w:del></w:p>"
    )
    paras = [p("Intro", "Heading1"), p("Background", "Heading2"), gone, p("Rationale", "Heading2")]
    got = labels(tmp_path, paras, HEADING_STYLES(), [abstract(0, OUTLINE)], [num(1, 0)])
    assert got == [("1", "Intro"), ("1.1", "Background"), ("1.2", "Rationale")]


def test_superscript_runs_ending_a_paragraph_are_its_trailing_superscript(tmp_path):
    sup = '<w:r><w:rPr><w:vertAlign w:val="superscript"/></w:rPr><w:t>{}</w:t></w:r>'
    plain = '<w:r><w:t xml:space="preserve">{}</w:t></w:r>'
    cited = '<w:r><w:rPr><w:rStyle w:val="Cite"/></w:rPr><w:t>{}</w:t></w:r>'
    cite_style = (
        '<w:style w:type="character" w:styleId="Cite"><w:name w:val="Cite"/>'
        '<w:rPr><w:vertAlign w:val="superscript"/></w:rPr></w:style>'
    )
    paras = [
        p("", runs=plain.format("Pharmacology") + f"<w:hyperlink>{sup.format('4')}{sup.format('2')}</w:hyperlink>"),
        p(
            "", runs=plain.format("Dosing") + cited.format("7") + plain.format(" ")
        ),  # superscript by its character style
        p("", runs=plain.format("Area in m") + sup.format("2") + plain.format(" per patient")),  # not at the end
        p("", runs=plain.format("Safety")),
    ]
    path = tmp_path / "s.docx"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("word/document.xml", f"<w:document {NS}><w:body>{''.join(paras)}</w:body></w:document>")
        z.writestr("word/styles.xml", f"<w:styles {NS}>{cite_style}</w:styles>")
    got = [(q.text, q.trailing_superscript) for q in read_numbered_paragraphs(path)]
    assert got == [("Pharmacology42", "42"), ("Dosing7 ", "7"), ("Area in m2 per patient", ""), ("Safety", "")]
