"""Sequence acceptance: which numbered lines really open sections."""

from __future__ import annotations

from clinparser.model import HEADING, LIST_ITEM, TABLE, TEXT, Block, OutlineEntry
from clinparser.shared.numbering import ROMAN_BASE
from clinparser.structure.outline import OutlineIndex
from clinparser.structure.sections import choose_sections, find_candidates, split_merged_headings


def H(text, page=1):
    return Block(page=page, bbox=(72, 100, 500, 112), kind=HEADING, text=f"## **{text}**")


def T(text, page=1):
    return Block(page=page, bbox=(72, 120, 500, 160), kind=TEXT, text=text)


def L(text, page=1):
    return Block(page=page, bbox=(72, 120, 500, 160), kind=LIST_ITEM, text=text)


def accepted(blocks, outline=()):
    choice = choose_sections(find_candidates(blocks, OutlineIndex(list(outline))))
    return [c.number.label for c in choice.sections], choice


def test_numbered_criteria_after_a_subsection_are_list_items():
    blocks = [H("5 STUDY POPULATION"), H("5.1 Inclusion Criteria")]
    blocks += [L(f"{k}. Participant meets requirement number {k} of the protocol, as documented.") for k in range(1, 9)]
    blocks += [
        H("5.2 Exclusion Criteria"),
        L("1. Any condition that would put the participant at risk."),
        H("6 STUDY INTERVENTION"),
    ]
    labels, _ = accepted(blocks)
    assert labels == ["5", "5.1", "5.2", "6"]


def test_questionnaire_items_inside_an_appendix_are_not_chapters():
    blocks = [H("1 Introduction"), H("2 Objectives"), H("6 References")]
    blocks = [H("1 Introduction"), H("2 Objectives"), H("3 References"), H("Protocol Attachment LZZT.1 Scale")]
    blocks += [H(f"{k}. Item {k}") for k in (1, 2, 3, 4, 5)]
    blocks += [H("Protocol Attachment LZZT.2 Survey"), H("Protocol Attachment LZZT.3 Signatures")]
    labels, _ = accepted(blocks)
    assert labels == [
        "1",
        "2",
        "3",
        "Protocol Attachment LZZT.1",
        "Protocol Attachment LZZT.2",
        "Protocol Attachment LZZT.3",
    ]


def test_next_sibling_of_an_ancestor_is_valid():
    labels, _ = accepted([H("1 A"), H("1.1 B"), H("1.1.1 C"), H("1.1.1.1 D"), H("2 E"), H("2.1 F")])
    assert labels == ["1", "1.1", "1.1.1", "1.1.1.1", "2", "2.1"]


def test_gap_is_allowed_and_reported():
    labels, choice = accepted([H("1 A"), H("1.1 B"), H("1.3 D"), H("2 E")])
    assert labels == ["1", "1.1", "1.3", "2"]
    assert [g["number"] for g in choice.gaps] == ["1.3"]


def test_backward_jump_is_never_accepted():
    labels, _ = accepted([H("1 A"), H("2 B"), H("2.1 C"), H("1.1 Back"), H("2.2 D")])
    assert labels == ["1", "2", "2.1", "2.2"]


def test_missing_parent_is_reported():
    labels, choice = accepted([H("1 A"), H("1.1 B"), H("1.2 C"), H("1.3.1 Orphan"), H("1.4 D")])
    assert labels == ["1", "1.1", "1.2", "1.3.1", "1.4"]
    assert [m["number"] for m in choice.missing_parents] == ["1.3.1"]


def test_number_and_title_on_separate_lines():
    blocks = [H("1 A"), H("1.1."), T("Schema"), H("1.2 C")]
    cands = find_candidates(blocks, OutlineIndex([]))
    choice = choose_sections(cands)
    assert [(c.number.label, c.title, c.title_block) for c in choice.sections] == [
        ("1", "A", None),
        ("1.1.", "Schema", 2),
        ("1.2", "C", None),
    ]


def test_unstyled_level_four_heading_is_found_by_its_number():
    blocks = [
        H("2 Intro"),
        H("2.1 Background"),
        H("2.1.1 Studies"),
        T("2.1.1.1 Prior Phase 1 Data"),
        T("Body text of that section."),
        H("2.2 Next"),
    ]
    labels, _ = accepted(blocks)
    assert labels == ["2", "2.1", "2.1.1", "2.1.1.1", "2.2"]


def test_printed_toc_evidence_outweighs_a_plausible_list():
    # Without evidence "2." and "3." after "1." could be chapters; the TOC says they are not.
    blocks = [
        H("1 Scope"),
        L("2. Participants enrolled at the site"),
        L("3. Participants screened at the site"),
        H("2 Design"),
        H("3 Population"),
    ]
    outline = [
        OutlineEntry("1", "Scope", 1, "printed"),
        OutlineEntry("2", "Design", 2, "printed"),
        OutlineEntry("3", "Population", 3, "printed"),
    ]
    labels, _ = accepted(blocks, outline)
    assert labels == ["1", "2", "3"]


def test_duplicate_number_keeps_the_first_and_is_reported():
    labels, choice = accepted([H("1 A"), H("2 Design"), H("2 Population"), H("3 C")])
    assert labels == ["1", "2", "3"]
    assert [d["number"] for d in choice.duplicates] == ["2"]


def test_a_heading_repeated_on_the_next_page_is_not_a_duplicate():
    labels, choice = accepted(
        [H("1 A"), H("APPENDIX 1 Scale", 5), T("cover page"), H("APPENDIX 1 Scale", 6), H("APPENDIX 2 Survey", 7)]
    )
    assert labels == ["1", "APPENDIX 1", "APPENDIX 2"]
    assert choice.duplicates == [] and choice.out_of_order == []


def test_no_numbered_lines_means_no_sections():
    labels, _ = accepted([T("Just prose."), H("Introduction")])
    assert labels == []


def test_roman_outline_with_relative_letters_and_arabic_third_level():
    blocks = [
        H("I. INTRODUCTION"),
        H("A. Background"),
        H("B. Rationale"),
        H("II. STUDY DESIGN"),
        H("A. Overview"),
        H("1. Dose Selection"),
        H("2. Dose Escalation"),
        H("B. Arms"),
        H("III. POPULATION"),
        H("A. Inclusion Criteria"),
        T("1. Adults aged 18 to 65 years who consent to take part."),
        T("2. Body mass index between 27 and 40."),
        H("B. Exclusion Criteria"),
    ]
    choice = choose_sections(find_candidates(blocks, OutlineIndex([])))
    # Roman parts have their own key range (ROMAN_BASE + n): "I." is never chapter "1".
    got = [(c.number.label, (c.key[0] - ROMAN_BASE, *c.key[1:])) for c in choice.sections]
    assert got == [
        ("I.", (1,)),
        ("A.", (1, 1)),
        ("B.", (1, 2)),
        ("II.", (2,)),
        ("A.", (2, 1)),
        ("1.", (2, 1, 1)),
        ("2.", (2, 1, 2)),
        ("B.", (2, 2)),
        ("III.", (3,)),
        ("A.", (3, 1)),
        ("B.", (3, 2)),
    ]


def test_lettered_appendix_children():
    labels, _ = accepted(
        [
            H("1 Body"),
            H("2 More"),
            H("APPENDIX A: LABORATORY"),
            H("A.1 Hematology"),
            H("A.2 Chemistry"),
            H("APPENDIX B: QUESTIONNAIRE"),
            H("1. Mobility"),
            H("7. Orientation"),
            H("APPENDIX C: SIGNATURES"),
        ]
    )
    assert labels == ["1", "2", "APPENDIX A", "A.1", "A.2", "APPENDIX B", "APPENDIX C"]


def test_heading_that_fits_nowhere_is_reported_out_of_order():
    _, choice = accepted([H("1 A"), H("2 B"), H("2.1 C"), H("1.4 Stray"), H("3 D")])
    assert [o["number"] for o in choice.out_of_order] == ["1.4"]


def test_missing_first_child_is_a_gap_not_a_lost_parent():
    labels, choice = accepted([H("1 A"), H("1.1 B"), H("2 Procedures"), H("2.2 General"), H("3 Next")])
    assert labels == ["1", "1.1", "2", "2.2", "3"]
    assert [g["number"] for g in choice.gaps] == ["2.2"]


def test_heading_the_layout_model_called_a_bullet():
    blocks = [
        H("7 STUDY PROCEDURES"),
        L("- **7.1 Schedule of Assessments**"),
        T("The schedule follows."),
        H("7.2 General"),
    ]
    labels, _ = accepted(blocks)
    assert labels == ["7", "7.1", "7.2"]


def test_two_headings_boxed_together_are_split():
    from clinparser.structure.sections import split_merged_headings

    merged = Block(
        48,
        (108, 250, 518, 280),
        HEADING,
        "# **8. WITHDRAWAL FROM TREATMENT, PROCEDURES, AND STUDY 8.1 Subjects' Decision to Withdraw**",
    )
    prose = Block(48, None, HEADING, "# **9. Dosing of 10 mg 2.5 Times Daily**")
    blocks = split_merged_headings([H("7 Before"), merged, T("Subjects may withdraw."), prose])
    labels, choice = accepted(blocks)
    assert labels == ["7", "8.", "8.1", "9."]
    assert choice.sections[1].title == "WITHDRAWAL FROM TREATMENT, PROCEDURES, AND STUDY"
    assert choice.sections[2].title == "Subjects' Decision to Withdraw"


def test_front_matter_numbered_0_x_is_part_of_the_tree():
    labels, choice = accepted(
        [
            H("0.1 Synopsis"),
            H("0.2 Schedule of Activities"),
            T("Dosing of 0.5 mg daily"),
            H("1 Introduction"),
            H("1.1 Background"),
            H("2 Design"),
        ]
    )
    assert labels == ["0.1", "0.2", "1", "1.1", "2"]
    assert choice.gaps == [] and choice.missing_parents == []


def test_roman_front_matter_does_not_take_chapter_ones_place():
    blocks = [
        H("I. SIGNATURES"),
        Block(page=1, bbox=None, kind=HEADING, text="### **1.  SPONSOR'S SIGNATURE**"),
        H("II. SYNOPSIS"),
    ]
    blocks += [
        Block(page=2, bbox=None, kind=HEADING, text="# **1 INTRODUCTION**"),
        H("1.1 Background"),
        H("2 DESIGN"),
        H("2.1 Overview"),
    ]
    labels, choice = accepted(blocks)
    assert labels == ["1", "1.1", "2", "2.1"]
    assert choice.out_of_order == []  # Roman front matter is front matter, not a stray


def test_roman_parts_and_arabic_chapters_never_share_a_number():
    labels, _ = accepted(
        [
            H("I. SIGNATURES"),
            H("II. SYNOPSIS"),
            H("1 INTRODUCTION"),
            H("1.1 Background"),
            H("2 DESIGN"),
            H("2.1 Overview"),
        ]
    )
    assert labels == ["1", "1.1", "2", "2.1"]


def test_a_plain_number_with_a_bold_title_missing_from_a_stale_toc_is_a_heading():
    stale = [OutlineEntry(n, t, 1, "printed") for n, t in (("1", "A"), ("1.1", "B"), ("1.2", "C"), ("2", "D"))]
    labels, _ = accepted([H("1 A"), H("1.1 B"), H("1.2 C"), T("1.3 **Committee Review**"), H("2 D")], stale)
    assert labels == ["1", "1.1", "1.2", "1.3", "2"]


def test_appendix_i_after_appendix_h_is_the_ninth_letter():
    blocks = (
        [H("1 Body"), H("APPENDIX A. FIRST")]
        + [H(f"APPENDIX {c}. PART {c}") for c in "BCDEFGH"]
        + [H("APPENDIX I. PUBLICATION POLICY"), H("APPENDIX J. LAST")]
    )
    labels, _ = accepted(blocks)
    assert labels == ["1"] + [f"APPENDIX {c}" for c in "ABCDEFGHIJ"]


def test_appendix_i_alone_is_still_the_first_roman_appendix():
    labels, _ = accepted([H("1 Body"), H("APPENDIX I. FORMS"), H("APPENDIX II. SCALES")])
    assert labels == ["1", "APPENDIX I", "APPENDIX II"]


def test_appendix_labels_inside_an_appendices_chapter_nest_under_it():
    blocks = [
        H("10 Statistics"),
        H("11 Appendices"),
        H("Appendix 1 Abbreviations"),
        L("1. A list item inside the appendix."),
        H("Appendix 2 Laboratory Tests"),
        H("12 References"),
    ]
    choice = choose_sections(find_candidates(blocks, OutlineIndex([])))
    assert [(c.number.label, c.key) for c in choice.sections] == [
        ("10", (10,)),
        ("11", (11,)),
        ("Appendix 1", (11, 1)),
        ("Appendix 2", (11, 2)),
        ("12", (12,)),
    ]


def test_a_heading_the_layout_model_put_in_a_tables_last_row_is_a_heading():
    table = Block(
        page=3, bbox=None, kind=TABLE, text="|Protocol|Date:|\n|---|---|\n|Trial ID|Page 62|\n|**11 Appendices**||"
    )
    out = split_merged_headings([table])
    assert [(b.kind, b.text) for b in out] == [
        (TABLE, "|Protocol|Date:|\n|---|---|\n|Trial ID|Page 62|"),
        (HEADING, "## **11 Appendices**"),
    ]
    quoted = Block(
        page=3,
        bbox=None,
        kind=TABLE,
        text="|Section|Change|\n|---|---|\n|4.1|New text|\n|**Section 9.13. Interim Analysis**||",
    )
    assert split_merged_headings([quoted]) == [quoted]  # a change table quoting a section stays whole


def test_a_table_of_one_header_row_reading_as_a_number_and_a_title_is_a_heading():
    stacked = Block(page=52, bbox=None, kind=TABLE, text="|5.2.1<br>Demographics|\n|---|")
    assert [(b.kind, b.text) for b in split_merged_headings([stacked])] == [(HEADING, "## 5.2.1 Demographics")]
    apart = Block(page=52, bbox=None, kind=TABLE, text="|**7.2.6**|**Pregnancy**|\n|---|---|")
    assert [(b.kind, b.text) for b in split_merged_headings([apart])] == [(HEADING, "## **7.2.6** **Pregnancy**")]
    for table in (
        "|Visit|Week 1|Week 2|\n|---|---|---|",
        "|Screening|Day 1|\n|---|---|",
        "|5.2.1|Demographics|Age|\n|---|---|---|",
    ):
        block = Block(page=52, bbox=None, kind=TABLE, text=table)
        assert split_merged_headings([block]) == [block]  # no number, or a wider header: a table


def test_headings_the_outline_confirms_bridge_a_page_that_lost_three_siblings():
    outline = [
        OutlineEntry(n, t, 1, "bookmark")
        for n, t in (("6", "Endpoints"), ("6.1", "Primary"), ("6.5", "PFS2"), ("6.6", "Survival"), ("7", "Safety"))
    ]
    labels, choice = accepted(
        [H("6 Endpoints"), H("6.1 Primary"), H("6.5 PFS2"), H("6.6 Survival"), H("7 Safety")], outline
    )
    assert labels == ["6", "6.1", "6.5", "6.6", "7"]
    assert "6.5" in [g["number"] for g in choice.gaps]  # and reported
    # without the outline's word for it, a line three numbers on is body text
    labels, _ = accepted(
        [H("3 Dosing"), H("3.1 Regimen"), T("3.5 Patients received the drug as planned."), H("4 Safety")]
    )
    assert labels == ["3", "3.1", "4"]


def test_a_heading_the_outline_lists_is_split_from_the_paragraph_it_was_boxed_with():
    from clinparser.model import LIST_ITEM, TEXT, OutlineEntry
    from clinparser.structure.outline import OutlineIndex
    from clinparser.structure.sections import split_outline_headings

    outline = OutlineIndex([OutlineEntry("6.2.", "Preparation, Handling, Storage, and Accountability", 24, "printed")])
    glued = Block(
        24,
        (70, 100, 540, 160),
        LIST_ITEM,
        "- 6.2. Preparation, Handling, Storage, and Accountability 1. The investigator must confirm storage.",
    )
    head, rest = split_outline_headings([glued], outline)
    assert (head.kind, head.text) == (HEADING, "# 6.2. Preparation, Handling, Storage, and Accountability")
    assert (rest.kind, rest.text) == (LIST_ITEM, "1. The investigator must confirm storage.")
    # Without the outline's title, or when the line is only the title, nothing is split.
    alone = Block(24, None, TEXT, "6.2. Preparation, Handling, Storage, and Accountability")
    other = Block(30, None, TEXT, "7.1. Other things happen here and go on for a long sentence of body text.")
    assert split_outline_headings([alone, other], outline) == [alone, other]


def test_a_run_in_numbered_paragraph_is_not_a_heading():
    # "5.2 Label: sentence." numbered like the headings around it; the gap 5.1 -> 5.3 is cheaper
    blocks = [
        H("5 TREATMENT"),
        H("5.1 Drug administration"),
        T("Prose about the drug."),
        L("5.2 Therapy schedule: All cycles will be 28 days long and start on a Monday."),
        H("5.3 Prophylactic Medications:"),
        H("6 EVALUATION"),
    ]
    labels, _ = accepted(blocks)
    assert labels == ["5", "5.1", "5.3", "6"]
    # a heading whose title has a colon but is no sentence stays a heading
    labels, _ = accepted(
        [H("5 TREATMENT"), H("5.1 Drug administration"), H("5.2 Schedule: Cycles and Days"), H("5.3 Other")]
    )
    assert labels == ["5", "5.1", "5.2", "5.3"]


def test_a_label_whose_colon_the_converter_split_off_takes_the_title_after_it():
    blocks = [
        H("1 Introduction"),
        H("2 References"),
        T("APPENDIX A:  Schedule of Events"),
        T("APPENDIX   B"),
        T(""),
        T(":"),
        T("LABORATORY RESEARCH STUDIES"),
        T("Body of the appendix."),
    ]
    cands = find_candidates(blocks, OutlineIndex([]))
    choice = choose_sections(cands)
    assert [(c.number.label, c.title) for c in choice.sections][-2:] == [
        ("APPENDIX A", "Schedule of Events"),
        ("APPENDIX B", "LABORATORY RESEARCH STUDIES"),
    ]


def test_a_reference_mark_in_superscript_ends_no_title():
    from clinparser.shared.numbering import parse_number

    assert parse_number("## 12.1 **Pharmacology**<sup>**42, 43**</sup>").title == "Pharmacology"
    assert parse_number("## 4.3 Safety Follow-up<sup>a</sup>").title == "Safety Follow-up"
    assert parse_number("## 7.2 Dose per m<sup>2</sup>").title == "Dose per m2"  # a unit's exponent stays


def test_outline_titles_whose_word_gaps_fell_inside_words_still_match():
    from clinparser.model import OutlineEntry
    from clinparser.structure.sections import split_outline_headings

    # a printed TOC page whose text layer put its gaps by glyph position, not by word
    outline = OutlineIndex(
        [OutlineEntry("5.2.", "PACKA GING ANDLABELING", 49, "printed"), OutlineEntry("5.3.", "STORA GE", 49, "printed")]
    )
    glued = Block(
        49,
        (70, 100, 540, 160),
        TEXT,
        "5.2. Packaging and Labeling Tablets and matching placebo are supplied in bottles.",
    )
    head, rest = split_outline_headings([glued], outline)
    assert (head.kind, head.text, rest.text) == (
        HEADING,
        "# 5.2. Packaging and Labeling",
        "Tablets and matching placebo are supplied in bottles.",
    )
    assert outline.match("5.3", "Storage") == "title"
    assert outline.match("5.3", "Stor") == "title"  # a prefix, as before
    assert outline.match("5.3", "Shipping") == "number"


def test_a_lone_title_line_on_a_page_read_by_ocr_counts_as_heading_styled():
    # OCR wrote the page in one font: no heading style, and the printed TOC stops at level 3
    outline = [
        OutlineEntry(n, t, 1, "printed")
        for n, t in (("1", "Intro"), ("1.1", "Studies"), ("1.1.1", "Toxicology"), ("1.2", "Clinical"))
    ]

    def ocr(text):
        block = T(text, page=2)
        block.number_source = "ocr"
        return block

    blocks = [
        H("1 Intro"),
        H("1.1 Studies"),
        H("1.1.1 Toxicology"),
        T("Prose."),  # 1.1.1.1 blacked out
        ocr("1.1.1.2. Reproductive Toxicity Studies"),
        ocr("Prose on the scanned page."),
        ocr("1.1.1.3. Genetic Toxicity"),
        ocr("1.1.1.4. The animals were dosed daily for four weeks."),
        H("1.2 Clinical"),
    ]
    labels, _ = accepted(blocks, outline)
    assert labels == ["1", "1.1", "1.1.1", "1.1.1.2.", "1.1.1.3.", "1.2"]
    # the same lines on a page with a text layer carry the layout model's word: not headings
    plain = [T(b.text, page=2) if b.number_source == "ocr" else b for b in blocks]
    labels, _ = accepted(plain, outline)
    assert labels == ["1", "1.1", "1.1.1", "1.2"]


def test_a_centred_title_boxed_as_two_headings_under_a_number_printed_alone_is_one_title():
    from clinparser.structure.sections import join_title_lines

    number = Block(page=39, bbox=(69, 122, 134, 134), kind=HEADING, text="# **Appendix B**")
    line1 = Block(
        page=39, bbox=(175, 140, 437, 152), kind=HEADING, text="# **Docetaxel Pharmacokinetic Sampling Instructions**"
    )
    line2 = Block(
        page=39,
        bbox=(180, 158, 432, 170),
        kind=HEADING,
        text="# **Using Saladax Biomedical’s** **_MyDocetaxel_ ™ Test**",
    )
    body = Block(
        page=39, bbox=(69, 193, 527, 226), kind=TEXT, text="Samples for Pharmacokinetic (PK) Measurements: ..."
    )
    out = join_title_lines([number, line1, line2, body])
    assert [b.text for b in out] == [
        "# **Appendix B**",
        "# **Docetaxel Pharmacokinetic Sampling Instructions** **Using Saladax Biomedical’s** **_MyDocetaxel_ ™ Test**",
        body.text,
    ]
    assert out[1].bbox == (175, 140, 437, 170)
    [candidate] = find_candidates(out, OutlineIndex([]))
    assert (
        candidate.title
        == "Docetaxel Pharmacokinetic Sampling Instructions Using Saladax Biomedical’s MyDocetaxel ™ Test"
    )
    # a numbered heading and the run-in heading under it stay apart; so do left-aligned headings
    numbered = Block(page=57, bbox=(54, 140, 300, 159), kind=HEADING, text="# **17.7.1 Primary Endpoint**")
    run_in = Block(page=57, bbox=(54, 162, 300, 178), kind=HEADING, text="# **Primary Analysis Hypothesis**")
    assert join_title_lines([numbered, run_in]) == [numbered, run_in]
    left1 = Block(page=39, bbox=(69, 140, 437, 152), kind=HEADING, text="# **Sampling Instructions**")
    left2 = Block(page=39, bbox=(69, 158, 300, 170), kind=HEADING, text="# **Shipping**")
    assert join_title_lines([number, left1, left2]) == [number, left1, left2]


def test_bold_numbered_headings_inside_one_list_block_open_blocks_of_their_own():
    from clinparser.model import LIST_ITEM

    merged = Block(
        page=70,
        bbox=(72, 360, 209, 418),
        kind=LIST_ITEM,
        text="- **7.2.5. Cycle 1, Day 21** \uf0b7 CBC \n\n- **7.2.6. Cycle 2, Day 1**",
    )
    out = split_merged_headings([merged])
    assert [b.text for b in out] == ["- **7.2.5. Cycle 1, Day 21**\n\n- CBC", "- **7.2.6. Cycle 2, Day 1**"]
    assert [c.title for c in find_candidates(out, OutlineIndex([]))] == ["Cycle 1, Day 21", "Cycle 2, Day 1"]
    plain = Block(
        page=70,
        bbox=(72, 360, 209, 418),
        kind=LIST_ITEM,
        text="- 1. Age 18 or older\n\n- 2. Signed consent \uf0b7 in writing",
    )
    assert split_merged_headings([plain]) == [plain]  # no bold section number: a list stays whole


def test_a_numbered_list_read_as_a_two_column_table_is_that_list():
    from clinparser.model import LIST_ITEM

    rows = [
        ("4.2.12", "Use of concomitant medication other than that used<br>in the management of disease"),
        ("4.2.13", "Use of any herbal medicine, vitamins, and supplements"),
        ("4.2.14", "Positive result for alcohol at Day -2, or known drug abuse"),
    ]
    text = "\n".join([f"|{rows[0][0]}|{rows[0][1]}|", "|---|---|"] + [f"|{n}|{t}|" for n, t in rows[1:]])
    out = split_merged_headings([Block(page=24, bbox=(72, 100, 540, 400), kind=TABLE, text=text)])
    assert [(b.kind, b.text) for b in out] == [
        (LIST_ITEM, "- 4.2.12 Use of concomitant medication other than that used in the management of disease"),
        (LIST_ITEM, "- 4.2.13 Use of any herbal medicine, vitamins, and supplements"),
        (LIST_ITEM, "- 4.2.14 Positive result for alcohol at Day -2, or known drug abuse"),
    ]
    # numbers out of sequence, a third column, or short cells (a real table of codes): a table
    for table in (
        "|1|Screening visit for all subjects|\n|---|---|\n|3|Treatment visit for all subjects|\n"
        "|4|Follow-up visit for all subjects|",
        "|1|Screening visit for all subjects|X|\n|---|---|---|\n|2|Treatment visit for all subjects|X|\n"
        "|3|Follow-up visit for all|X|",
        "|1|Mild|\n|---|---|\n|2|Moderate|\n|3|Severe|",
    ):
        block = Block(page=24, bbox=(72, 100, 540, 400), kind=TABLE, text=table)
        assert split_merged_headings([block]) == [block]
