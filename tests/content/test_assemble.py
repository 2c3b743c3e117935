"""Filing blocks into sections: reading order decides, the numbers build the tree."""

from __future__ import annotations

from clinparser.content.assemble import assemble
from clinparser.model import CAPTION, HEADING, PICTURE, TABLE, TEXT, Block, RawImage
from clinparser.structure.outline import OutlineIndex
from clinparser.structure.sections import choose_sections, find_candidates


def picture(page, y):
    return Block(
        page, (100, y, 300, y + 100), PICTURE, "", image=RawImage(page, (100, y, 300, y + 100), b"\x89PNG", 10, 10)
    )


def build(blocks, unnumbered=()):
    choice = choose_sections(find_candidates(blocks, OutlineIndex([])))
    return assemble(blocks, choice.sections, set(unnumbered))


def test_image_at_the_top_of_a_page_before_its_first_heading_stays_with_the_previous_section():
    blocks = [
        Block(1, (72, 80, 500, 95), HEADING, "# 1 Introduction"),
        Block(1, (72, 100, 500, 700), TEXT, "Text of one."),
        picture(2, 60),
        Block(2, (72, 170, 500, 180), CAPTION, "Figure 1: Flow"),
        Block(2, (72, 200, 500, 215), HEADING, "# 2 Design"),
        Block(2, (72, 220, 500, 300), TEXT, "Text of two."),
    ]
    tree = build(blocks)
    one, two = tree.toc
    assert [i.title for i in one.images] == ["Figure 1: Flow"] and two.images == []
    assert one.text == "Text of one.\n\n[Figure 1: Flow]"
    assert one.pages == [1, 2]


def test_table_caption_above_becomes_title_and_a_placeholder_keeps_its_place():
    blocks = [
        Block(1, None, HEADING, "## 1 Objectives"),
        Block(1, None, TEXT, "Before."),
        Block(1, None, TEXT, "**Table 2: Objectives and Endpoints**"),
        Block(1, None, TABLE, "|Objective|Endpoint|\n|---|---|\n|Efficacy|DSI-75|"),
        Block(1, None, TEXT, "After."),
    ]
    (node,) = build(blocks).toc
    assert node.tables[0].title == "Table 2: Objectives and Endpoints"
    assert node.text == "Before.\n\n[Table 2: Objectives and Endpoints]\n\nAfter."


def test_children_nest_by_number_and_text_is_each_nodes_own():
    blocks = [
        Block(1, None, HEADING, "# 1 A"),
        Block(1, None, TEXT, "a"),
        Block(1, None, HEADING, "# 1.1 B"),
        Block(1, None, TEXT, "b"),
        Block(1, None, HEADING, "### 1.1.1.1 Orphan level four"),
        Block(1, None, TEXT, "d"),
        Block(1, None, HEADING, "# 2 C"),
    ]
    tree = build(blocks)
    assert [n.number for n in tree.toc] == ["1", "2"]
    one = tree.toc[0]
    assert one.text == "a" and one.subsections[0].text == "b"
    orphan = one.subsections[0].subsections[0]
    assert (orphan.number, orphan.level, orphan.text) == ("1.1.1.1", 4, "d")


def test_front_and_back_matter_go_to_non_toc():
    blocks = [
        Block(1, None, HEADING, "# Protocol Title Page"),
        Block(1, None, TEXT, "Sponsor: Example"),
        Block(2, None, HEADING, "# 1 Introduction"),
        Block(2, None, HEADING, "## Sub-heading without number"),
        Block(2, None, TEXT, "body"),
        Block(3, None, HEADING, "# Signature Page"),
        Block(3, None, TEXT, "Signed"),
    ]
    tree = build(blocks, unnumbered={"signature page"})
    assert [(n.number, n.title) for n in tree.non_toc] == [("", "Protocol Title Page"), ("", "Signature Page")]
    assert "Sub-heading without number" in tree.toc[0].text
    assert tree.non_toc[1].text == "Signed"


def test_a_caption_styled_as_a_heading_stays_with_its_table():
    blocks = [
        Block(1, None, HEADING, "# Methods"),
        Block(1, None, TEXT, "Gastric emptying was measured."),
        Block(1, None, HEADING, "# **<u>Table 5. GE in healthy controls</u>**"),
        Block(1, None, TABLE, "|Group|T1/2|\n|---|---|\n|Controls|120|"),
    ]
    tree = build(blocks)
    assert [n.title for n in tree.non_toc] == ["Methods"]
    assert tree.non_toc[0].tables[0].title == "Table 5. GE in healthy controls"


def _pipe(header, rows):
    lines = ["|" + "|".join(header) + "|", "|" + "|".join("---" for _ in header) + "|"]
    return "\n".join(lines + ["|" + "|".join(r) + "|" for r in rows])


def test_a_table_over_three_pages_with_footers_footnotes_and_a_continued_caption_is_one_table():
    from clinparser.clean.furniture import mark_furniture

    header = ["**Assessment**", "**Screening**", "**Week 4**"]
    blocks = [
        Block(1, (72, 80, 500, 95), HEADING, "# 1 Schedule of Activities"),
        Block(1, (72, 100, 500, 110), TEXT, "**Table 1: Schedule of Activities**"),
    ]
    for p in (1, 2, 3):
        if p == 2:  # page 3 has no caption: only its repeated header says it goes on
            blocks.append(Block(p, (72, 60, 500, 70), TEXT, "Table 1: Schedule of Activities (continued)"))
        blocks.append(
            Block(p, (72, 120, 500, 600), TABLE, _pipe(header, [[f"Test {p}.{k}", "X", ""] for k in range(3)]))
        )
        blocks.append(Block(p, (72, 610, 500, 640), TEXT, f"a. Footnote of page {p}."))
        blocks.append(Block(p, (72, 760, 500, 772), TEXT, f"Protocol ABC-123 Version 2.0 Page {p} of 3"))
    mark_furniture(blocks, {p: (612, 792) for p in (1, 2, 3)}, 3)
    (node,) = build(blocks).toc
    (table,) = node.tables
    assert table.pages == [1, 3] and table.title == "Table 1: Schedule of Activities"
    assert [r[0] for r in table.data] == [f"Test {p}.{k}" for p in (1, 2, 3) for k in range(3)]
    assert "Page" not in node.text and "a. Footnote of page 2." in node.text


def test_same_header_on_the_next_page_after_a_heading_is_a_new_table():
    header = ["Section", "Change"]
    blocks = [
        Block(1, None, HEADING, "# 1 Amendments"),
        Block(1, None, TABLE, _pipe(header, [["2.1", "Added"]])),
        Block(2, None, HEADING, "## Amendment 2"),
        Block(2, None, TABLE, _pipe(header, [["3.1", "Removed"]])),
    ]
    (node,) = build(blocks).toc
    assert [t.pages for t in node.tables] == [[1, 1], [2, 2]]


def test_a_schedule_continued_sideways_is_one_table_with_the_visits_joined():
    rows = ["Informed consent", "Vital signs", "ECG"]
    left = _pipe(["", "VISIT", "1", "2"], [["ACTIVITY", "WEEK", "-2", "0"]] + [[r, "", "X", ""] for r in rows])
    right = _pipe(
        ["", "VISIT", "3", "ET"],
        [["ACTIVITY", "WEEK", "4", ""]] + [[r, "", "", "X" if r == "ECG" else ""] for r in rows],
    )
    blocks = [
        Block(1, None, HEADING, "# 1 Schedule of Events"),
        Block(1, None, TABLE, left),
        Block(1, None, TEXT, "X = performed at this visit."),
        Block(2, None, HEADING, "#### Schedule of Events (concluded)"),
        Block(2, None, TABLE, right),
    ]
    (node,) = build(blocks).toc
    (table,) = node.tables
    # The second header row (ACTIVITY / WEEK) is part of the header, joined per column.
    assert table.pages == [1, 2] and table.columns == ["ACTIVITY", "VISIT / WEEK", "1 / -2", "2 / 0", "3 / 4", "ET"]
    assert table.data[0] == ["Informed consent", "", "X", "", "", ""] and table.data[2] == ["ECG", "", "X", "", "", "X"]


def test_a_schedule_with_a_three_row_header_over_two_pages_is_one_table_with_its_header_lifted():
    # The converter cut the spanning "Treatment period" at other places on each page, and left
    # the "Week" and "Day" header rows in the data of both parts.
    first = _pipe(
        ["", "Screening", "Treatme", "nt period", ""],
        [["Week", "-2", "1", "4", "8"], ["Day", "-14", "1", "29", "57"], ["ECG", "X", "X", "", "X"]],
    )
    second = _pipe(
        ["", "Screening", "Treatmen", "t period", ""],
        [["Week", "-2", "1", "4", "8"], ["Day", "-14", "1", "29", "57"], ["Labs", "X", "", "X", ""]],
    )
    blocks = [
        Block(1, None, HEADING, "# 1 Schedule of Activities"),
        Block(1, None, TABLE, first),
        Block(1, None, TEXT, "a. Footnote of the first part."),
        Block(2, None, TABLE, second),
    ]
    (node,) = build(blocks).toc
    (table,) = node.tables
    assert table.pages == [1, 2]
    # Week 1 is Day 1: both rows' values stay ("1 / 1"), as "8 / 57" does.
    assert table.columns == [
        "Week / Day",
        "Screening / -2 / -14",
        "Treatment period / 1 / 1",
        "Treatment period / 4 / 29",
        "8 / 57",
    ]
    assert table.data == [["ECG", "X", "X", "", "X"], ["Labs", "X", "", "X", ""]]


HEADER = "|Original text|New wording|Reason for change|\n|---|---|---|\n"
ROW_1 = (
    "|The patients will be randomly assigned to the treatment arms|The patients will be assigned to the arms|Clarified|"
)
ROW_2 = (
    "|Adverse events of special interest are reported within one day"
    "|Adverse events of special interest are reported|Updated|"
)


def test_a_spanning_row_taken_out_as_a_line_goes_back_in_and_the_table_is_one():
    blocks = [
        Block(1, (72, 60, 500, 75), HEADING, "# 1 Amendments"),
        Block(1, (72, 80, 700, 370), TABLE, HEADER + ROW_1),
        Block(1, (72, 390, 360, 400), HEADING, "# **Section 7.1.10 Adverse Events of Special Interest**"),
        Block(1, (72, 409, 720, 496), TABLE, ROW_2 + "\n|---|---|---|"),
        # The converter put the next spanning row into the part above: a headless part just below.
        Block(
            1,
            (72, 512, 714, 534),
            TABLE,
            "|For purposes of this protocol the following are considered|For purposes of this protocol|Updated|\n"
            "|---|---|---|",
        ),
        Block(2, (72, 80, 720, 300), TABLE, HEADER + ROW_1.replace("Clarified", "Reworded")),
    ]
    (node,) = build(blocks).toc
    (table,) = node.tables
    assert table.pages == [1, 2] and table.columns == ["Original text", "New wording", "Reason for change"]
    assert [row[0][:25] for row in table.data] == [
        "The patients will be rand",
        "Section 7.1.10 Adverse Ev",
        "Adverse events of special",
        "For purposes of this prot",
        "The patients will be rand",
    ]
    assert table.data[1][1:] == ["", ""] and "Section 7.1.10" not in node.text


def test_a_new_table_with_its_own_header_under_a_caption_line_is_a_table_of_its_own():
    blocks = [
        Block(1, (72, 60, 500, 75), HEADING, "# 1 Amendments"),
        Block(1, (72, 80, 700, 370), TABLE, HEADER + ROW_1),
        Block(1, (72, 390, 360, 400), TEXT, "**Laboratory tests**"),
        Block(1, (72, 409, 720, 496), TABLE, "|Panel|Test|Unit|\n|---|---|---|\n|Chemistry|Creatinine|mg/dL|"),
        Block(
            1,
            (72, 600, 720, 700),
            TABLE,
            "|The next table is far below the last one and holds sentences|b|c|\n|---|---|---|",
        ),
    ]
    (node,) = build(blocks).toc
    assert [t.columns[0][:20] for t in node.tables] == ["Original text", "Panel", "The next table is fa"]
    assert "Laboratory tests" in node.text


# --- pictures with words ------------------------------------------------------------------


def _ruled_png(rows) -> bytes:
    import pymupdf

    doc = pymupdf.open()
    page = doc.new_page(width=340, height=20 + 30 * len(rows))
    xs = [10, 170, 250, 330]
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            page.insert_text((xs[c] + 6, 10 + r * 30 + 20), text, fontsize=12)
    for r in range(len(rows) + 1):
        page.draw_line((xs[0], 10 + r * 30), (xs[-1], 10 + r * 30), width=1.5)
    for x in xs:
        page.draw_line((x, 10), (x, 10 + len(rows) * 30), width=1.5)
    return page.get_pixmap(dpi=150).tobytes("png")


def _worded(page, y, lines, png=b"\x89PNG"):
    block = picture(page, y)
    block.image.png = png
    block.image.words = [((10, 10 + 30 * k, 200, 30 + 30 * k), text) for k, text in enumerate(lines)]
    block.image.words_from = "ocr"
    return block


def test_a_pictures_words_follow_its_placeholder_as_a_marked_block_and_a_caption_below_still_titles_it():
    blocks = [
        Block(1, (72, 80, 500, 95), HEADING, "# 1 Diary"),
        _worded(1, 100, ["Daily Itch Diary", "Did itching wake you?"]),
        Block(1, (72, 210, 500, 220), CAPTION, "Figure 1: Diary"),
        Block(1, (72, 230, 500, 240), TEXT, "After."),
    ]
    (one,) = build(blocks).toc
    (image,) = one.images
    assert (
        image.title == "Figure 1: Diary"
        and image.text == "Daily Itch Diary\nDid itching wake you?"
        and image.text_from == "ocr"
    )
    assert one.text == (
        "[Figure 1: Diary]\n\n<!-- text in the picture (ocr) -->\nDaily Itch Diary\nDid itching wake you?\n"
        "<!-- end of text in the picture -->\n\nAfter."
    )


def test_a_ruled_picture_becomes_a_table_after_the_picture_and_one_continued_beside_it_joins_it():
    from clinparser.convert.pictures.picture_words import decode, ocr_lines

    left = _ruled_png([["Visit", "1", "2"], ["Consent", "X", ""], ["Vital signs", "X", "X"]])
    right = _ruled_png([["Visit", "3", "4"], ["Consent", "", ""], ["Vital signs", "X", "X"]])
    first, second = picture(1, 100), picture(1, 300)
    for block, png in ((first, left), (second, right)):
        block.image.png, block.image.words, block.image.words_from = png, ocr_lines(decode(png)), "ocr"
    blocks = [
        Block(1, (72, 80, 500, 95), HEADING, "# 1 Schedule of Activities"),
        first,
        Block(1, (72, 210, 500, 220), TEXT, "Schedule of Activities (continued)"),
        second,
    ]
    (one,) = build(blocks).toc
    (table,) = one.tables
    assert table.from_ocr and table.columns == ["Visit", "1", "2", "3", "4"]
    assert table.data == [["Consent", "X", "", "", ""], ["Vital signs", "X", "X", "X", "X"]]
    assert one.text == "[Image]\n\n[Table]\n\nSchedule of Activities (continued)\n\n[Image]"
    assert len(one.images) == 2


def test_a_picture_with_no_words_is_its_placeholder_alone():
    blocks = [Block(1, (72, 80, 500, 95), HEADING, "# 1 Design"), picture(1, 100)]
    (one,) = build(blocks).toc
    assert one.text == "[Image]" and one.images[0].text == "" and one.tables == []


def test_a_long_unnumbered_heading_keeps_its_words_whole_in_its_nodes_text():
    # A title page's title, boxed as one heading: the node's title is cut, nothing is lost.
    title = (
        "A Multinational, Phase 3, Randomized, Double-blind Study of "
        + "Drug X Plus Standard Care " * 8
        + "in Patients with Cancer"
    )
    blocks = [
        Block(1, None, HEADING, f"# **{title}**"),
        Block(1, None, TEXT, "Sponsor: Example"),
        Block(2, None, HEADING, "# 1 Introduction"),
        Block(2, None, TEXT, "body"),
    ]
    tree = build(blocks)
    node = tree.non_toc[0]
    assert len(node.title) == 200 and title.startswith(node.title)
    assert title in node.text.replace("**", "") and node.text.endswith("Sponsor: Example")


def test_boxes_of_the_same_labels_one_below_another_on_a_page_stay_separate_tables():
    def box(number, date):
        return _pipe(["Amendment No.", number], [["Date of revision", date], ["Sections changed", "Flow chart"]])

    blocks = [
        Block(5, (72, 80, 500, 95), HEADING, "# 1 Description of Global Amendments"),
        Block(5, (72, 290, 504, 463), TABLE, box("1", "04-Apr-2022")),
        Block(5, (72, 477, 540, 563), TABLE, box("2", "27-Jul-2022")),
    ]
    (node,) = build(blocks).toc
    assert [t.columns for t in node.tables] == [["Amendment No.", "1"], ["Amendment No.", "2"]]
    # the same parts beside each other (or without boxes) are still one table's columns
    beside = [
        blocks[0],
        Block(5, (72, 290, 300, 463), TABLE, box("1", "04-Apr-2022")),
        Block(5, (310, 290, 540, 463), TABLE, box("2", "27-Jul-2022")),
    ]
    (node,) = build(beside).toc
    assert [t.columns for t in node.tables] == [["Amendment No.", "1", "2"]]


def test_a_record_table_cut_at_a_page_break_is_one_table_its_next_part_header_a_row():
    # labels down the left; the part on page 2 starts with a row the converter read as a header
    # (the page's furniture between the parts is dropped before filing)
    blocks = [
        Block(1, (72, 80, 500, 95), HEADING, "# 1 Study Intervention"),
        Block(1, (72, 100, 500, 110), TEXT, "**Table 4 Study interventions administered**"),
        Block(
            1,
            (72, 120, 500, 700),
            TABLE,
            _pipe(
                ["**Study intervention name**", "Drug A", "Albuterol"],
                [["**Type**", "Biologic", "Drug"], ["**Dosage level**", "100 mg", "As needed"]],
            ),
        ),
        Block(
            2,
            (72, 80, 500, 300),
            TABLE,
            _pipe(
                ["**Route of administration**", "SC injection", "Inhaled"], [["**Use**", "IMP", "Rescue medication"]]
            ),
        ),
    ]
    (node,) = build(blocks).toc
    (table,) = node.tables
    assert table.pages == [1, 2]
    assert [r[0] for r in table.data] == ["Type", "Dosage level", "Route of administration", "Use"]


def test_a_table_of_other_rows_on_the_next_page_is_not_the_rest_of_a_record_table():
    # as wide, right after it, but its rows are numbered, not labelled; or text stands between
    record = Block(1, None, TABLE, _pipe(["Name", "Drug A"], [["Dose", "10 mg"], ["Route", "Oral"]]))
    numbered = Block(2, None, TABLE, _pipe(["Visit", "Day"], [["1", "1"], ["2", "8"]]))
    (node,) = build([Block(1, None, HEADING, "# 1 Study Intervention"), record, numbered]).toc
    assert [t.pages for t in node.tables] == [[1, 1], [2, 2]]
    labelled = Block(2, None, TABLE, _pipe(["Storage", "Below 25 C"], [["Supplier", "Sponsor"]]))
    between = Block(2, None, TEXT, "The pharmacy keeps the study drug locked.")
    (node,) = build([Block(1, None, HEADING, "# 1 Study Intervention"), record, between, labelled]).toc
    assert [t.pages for t in node.tables] == [[1, 1], [2, 2]]


def test_a_sentence_about_a_figure_above_it_is_no_caption_and_the_caption_below_titles_it():
    blocks = [
        Block(1, (72, 80, 500, 95), HEADING, "# 1 Design"),
        Block(1, (72, 100, 500, 110), TEXT, "Figure 1 shows how the study runs from screening to the last visit."),
        picture(1, 120),
        Block(1, (72, 210, 500, 220), CAPTION, "Figure 1: Study Design"),
    ]
    (one,) = build(blocks).toc
    (image,) = one.images
    assert image.title == "Figure 1: Study Design"
    assert one.text.startswith("Figure 1 shows how the study runs")
