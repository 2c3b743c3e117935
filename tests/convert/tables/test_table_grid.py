"""Ruled tables are read from their drawn grid when it reads them better than the layout model."""

from __future__ import annotations

import pymupdf
import pytest
from scoring.tree import flatten

from clinparser.convert.tables.table_grid import regrid_tables
from clinparser.model import TABLE, TEXT, Block
from clinparser.shared.pipe_tables import parse_pipe_table

# A schedule drawn by the test: a label column, then eight narrow day columns under two
# spanning epoch cells; "Procedure" spans the two header rows.
LEFT, LABEL_RIGHT, WIDTH, DAYS = 60.0, 200.0, 24.0, ["1", "2-3", "4-7", "8", "9", "10", "11-14", "15"]
EPOCHS = [("Treatment", 0, 5), ("Follow-up", 5, 8)]  # label, first day column, end
ROWS = [("Consent", {0}), ("Vital signs", {0, 2, 5, 7}), ("Dosing", {1, 2, 3, 4})]
TOP, HEIGHT = 100.0, 18.0
RIGHT = LABEL_RIGHT + WIDTH * len(DAYS)
BOTTOM = TOP + HEIGHT * (2 + len(ROWS))
BOX = (LEFT - 2, TOP - 2, RIGHT + 2, BOTTOM + 2)
# How the layout model misreads such a table: neighbouring day columns merged.
MERGED = "\n".join(
    [
        "|Procedure|Treatment||Follow-up|",
        "|---|---|---|---|",
        "||1 2-3 4-7|8 9|10 11-14 15|",
        "|Consent|X|||",
        "|Vital signs|X X|X|X|",
        "|Dosing|X X X|X||",
    ]
)


def _x(col: int) -> float:
    return LABEL_RIGHT + WIDTH * col


def _text(page, x: float, top: float, text: str) -> None:
    page.insert_text((x + 2, top + 12), text, fontsize=7)


def _draw_schedule(page, rules: bool = True) -> None:
    if rules:
        line = page.draw_line
        for y in [TOP, TOP + 2 * HEIGHT] + [TOP + HEIGHT * (3 + k) for k in range(len(ROWS))]:
            line((LEFT, y), (RIGHT, y))
        line((LABEL_RIGHT, TOP + HEIGHT), (RIGHT, TOP + HEIGHT))  # under the epochs only
        for x in (LEFT, LABEL_RIGHT, RIGHT):
            line((x, TOP), (x, BOTTOM))
        for _, start, end in EPOCHS:  # an epoch's day columns are split below its cell
            for col in range(start + 1, end):
                line((_x(col), TOP + HEIGHT), (_x(col), BOTTOM))
            line((_x(end), TOP), (_x(end), BOTTOM))
    _text(page, LEFT, TOP + HEIGHT / 2, "Procedure")
    for label, start, _ in EPOCHS:
        _text(page, _x(start), TOP, label)
    for col, day in enumerate(DAYS):
        _text(page, _x(col), TOP + HEIGHT, day)
    for k, (label, marks) in enumerate(ROWS):
        top = TOP + HEIGHT * (2 + k)
        _text(page, LEFT, top, label)
        for col in marks:
            _text(page, _x(col), top, "X")


def _schedule(rules: bool = True) -> pymupdf.Document:
    doc = pymupdf.open()
    _draw_schedule(doc.new_page(width=842, height=595), rules)
    return doc


def test_a_ruled_schedule_is_read_from_its_grid():
    block = Block(1, BOX, TABLE, MERGED)
    assert regrid_tables(_schedule(), [block]) == 1
    table = parse_pipe_table(block.text)
    # Every day its own column; the epoch label reaches every day column it spans.
    expected = ["Procedure"] + [f"{label} / {DAYS[c]}" for label, start, end in EPOCHS for c in range(start, end)]
    assert table.columns.tolist() == expected
    assert table.values.tolist() == [
        [label] + ["X" if c in marks else "" for c in range(len(DAYS))] for label, marks in ROWS
    ]


def test_a_box_that_stops_short_of_the_last_column_rule_still_reads_every_column():
    # The layout model's box hugs the text: it ends 14 points left of the table's right rule,
    # beyond the margin, though it holds the last column's words. The rules crossing the box
    # reach the right rule, so the grid keeps its last column.
    block = Block(1, (BOX[0], BOX[1], RIGHT - 14, BOX[3]), TABLE, MERGED)
    assert regrid_tables(_schedule(), [block]) == 1
    table = parse_pipe_table(block.text)
    assert len(table.columns) == 1 + len(DAYS)
    assert table.columns.tolist()[-1] == "Follow-up / 15"


def _arrow(page, x0: float, x1: float, y: float) -> None:
    """A double-headed arrow as word processors draw it: a shaft and two filled triangles."""
    page.draw_line((x0 + 5, y), (x1 - 5, y))
    for tip, back in ((x0, x0 + 6), (x1, x1 - 6)):
        page.draw_polyline([(tip, y), (back, y - 3), (back, y + 3), (tip, y)], color=(0, 0, 0), fill=(0, 0, 0))


def _spanned_schedule(fill, first_merged: int) -> pymupdf.Document:
    """Visits 1-4; "Adverse events" is one cell merged over visits ``first_merged + 1`` to 4, into
    which ``fill(page)`` draws; the other rows ruled per visit."""
    doc = pymupdf.open()
    page = doc.new_page(width=842, height=595)
    rows = [
        ("Procedure", ["1", "2", "3", "4"]),
        ("Consent", ["X", "", "", ""]),
        ("Adverse events", None),
        ("Vital signs", ["X", "X", "X", "X"]),
    ]
    bottom = TOP + HEIGHT * len(rows)
    for k in range(len(rows) + 1):
        page.draw_line((LEFT, TOP + HEIGHT * k), (_x(4), TOP + HEIGHT * k))
    for x in (LEFT, LABEL_RIGHT, *[_x(c) for c in range(1, first_merged + 1)], _x(4)):
        page.draw_line((x, TOP), (x, bottom))
    for col in range(first_merged + 1, 4):  # inner visit rules, broken by the merged cell
        page.draw_line((_x(col), TOP), (_x(col), TOP + HEIGHT * 2))
        page.draw_line((_x(col), TOP + HEIGHT * 3), (_x(col), bottom))
    for k, (label, cells) in enumerate(rows):
        _text(page, LEFT, TOP + HEIGHT * k, label)
        for col, cell in enumerate(cells or []):
            if cell:
                _text(page, _x(col), TOP + HEIGHT * k, cell)
    fill(page)
    return doc


def _arrow_schedule() -> pymupdf.Document:
    """The merged cell spans all four visits; an arrow is drawn in it from visit 2 to visit 4
    (word processors draw it so)."""
    return _spanned_schedule(lambda page: _arrow(page, _x(1) + 2, _x(4) - 2, TOP + HEIGHT * 2.5), 0)


def test_an_arrow_drawn_across_visits_marks_each_column_it_spans():
    model = "\n".join(
        [
            "|Procedure|1|2|3|4|",
            "|---|---|---|---|---|",
            "|Consent|X||||",
            "|Adverse events|||||",
            "|Vital signs|X|X|X|X|",
        ]
    )
    block = Block(1, (LEFT - 2, TOP - 2, _x(4) + 2, TOP + HEIGHT * 4 + 2), TABLE, model)
    assert regrid_tables(_arrow_schedule(), [block]) == 1
    table = parse_pipe_table(block.text)
    assert table.values.tolist() == [
        ["Consent", "X", "", "", ""],
        ["Adverse events", "", "\u2194", "\u2194", "\u2194"],
        ["Vital signs", "X", "X", "X", "X"],
    ]


def _merged_schedule(merged_text: str) -> pymupdf.Document:
    """The merged cell spans visits 2 to 4 and holds ``merged_text``."""
    return _spanned_schedule(lambda page: _text(page, _x(1), TOP + HEIGHT * 2, merged_text), 1)


@pytest.mark.parametrize(
    "merged, cells",
    [
        ("Xa", ["", "Xa", "Xa", "Xa"]),  # a mark merged over three visits marks each of them
        ("Ongoing", ["", "Ongoing", "Ongoing", "Ongoing"]),  # a short phrase in a grid of marks too
        (
            "Collected at each visit of the treatment period as described",
            ["", "Collected at each visit of the treatment period as described", "", ""],
        ),  # a note
        ("<------>", ["", "<------>", "<------>", "<------>"]),  # an arrow typed in it: the merge is how far it runs
    ],
)
def test_a_mark_merged_over_visits_marks_each_visit_it_spans(merged, cells):
    model = "\n".join(
        [
            "|Procedure|1|2|3|4|",
            "|---|---|---|---|---|",
            "|Consent|X||||",
            f"|Adverse events||{merged}|||",
            "|Vital signs|X|X|X|X|",
        ]
    )
    block = Block(1, (LEFT - 2, TOP - 2, _x(4) + 2, TOP + HEIGHT * 4 + 2), TABLE, model)
    regrid_tables(_merged_schedule(merged), [block])
    table = parse_pipe_table(block.text)
    assert table.values.tolist()[1] == ["Adverse events"] + cells


def test_a_line_without_arrowheads_marks_nothing():
    doc = _schedule()
    doc[0].draw_line((_x(2) + 2, TOP + HEIGHT * 2.5), (_x(7) - 2, TOP + HEIGHT * 2.5))  # a stray rule
    block = Block(1, BOX, TABLE, MERGED)
    regrid_tables(doc, [block])
    assert "\u2194" not in block.text


def test_a_table_without_rules_is_left_exactly_as_it_was():
    block = Block(1, BOX, TABLE, MERGED)
    assert regrid_tables(_schedule(rules=False), [block]) == 0
    assert block.text == MERGED


def test_a_grid_that_misses_some_of_the_block_is_not_used():
    # An unruled column of row groups left of the rules, inside the model's table: the grid
    # would drop it.
    doc = _schedule()
    for k, (label, _) in enumerate(ROWS):
        _text(doc[0], 8, TOP + HEIGHT * (2 + k), f"Arm {k}")
    model = MERGED
    for k, (label, _) in enumerate(ROWS):
        model = model.replace(f"|{label}|", f"|Arm {k}|{label}|")
    block = Block(1, (6, BOX[1], BOX[2], BOX[3]), TABLE, model)
    assert regrid_tables(doc, [block]) == 0 and block.text == model


def test_rows_printed_without_rules_between_them_keep_the_model_reading():
    # One ruled body row holding three printed rows, their lines level across both columns:
    # the grid would merge them, the model's three rows are right.
    doc = pymupdf.open()
    page = doc.new_page()
    for y in (100, 118, 172):
        page.draw_line((60, y), (300, y))
    for x in (60, 180, 300):
        page.draw_line((x, 100), (x, 172))
    _text(page, 60, 100, "Test")
    _text(page, 180, 100, "Result")
    for k, (test, result) in enumerate([("Sodium", "Normal"), ("Potassium", "Low"), ("Calcium", "High")]):
        _text(page, 60, 118 + 16 * k, test)
        _text(page, 180, 118 + 16 * k, result)
    model = "|Test|Result|\n|---|---|\n|Sodium|Normal|\n|Potassium|Low|\n|Calcium|High|"
    block = Block(1, (58, 98, 302, 174), TABLE, model)
    assert regrid_tables(doc, [block]) == 0 and block.text == model


def test_a_last_column_printed_without_its_outer_rule_is_read_as_one_more_column():
    # The rules stop at the last day column; a follow-up column stands right of them, unruled.
    doc = _schedule()
    page = doc[0]
    _text(page, RIGHT, TOP + HEIGHT, "FU")
    _text(page, RIGHT, TOP + 3 * HEIGHT, "X")
    model = MERGED.replace("|Follow-up|", "|Follow-up||").replace("|---|---|---|---|", "|---|---|---|---|---|")
    model = model.replace("|10 11-14 15|", "|10 11-14 15|FU|").replace("|Consent|X|||", "|Consent|X||||")
    model = model.replace("|Vital signs|X X|X|X|", "|Vital signs|X X|X|X|X|").replace(
        "|Dosing|X X X|X||", "|Dosing|X X X|X|||"
    )
    block = Block(1, (BOX[0], BOX[1], RIGHT + 20, BOX[3]), TABLE, model)
    assert regrid_tables(doc, [block]) == 1
    table = parse_pipe_table(block.text)
    assert len(table.columns) == 2 + len(DAYS) and table.columns.tolist()[-1] == "FU"
    assert table.values.tolist()[1][-1] == "X"  # vital signs at FU
    # words above the grid right of it (a caption's end) are no column: the grid is not used
    doc = _schedule()
    _text(doc[0], RIGHT, TOP - 16, "cont.")
    block = Block(1, (BOX[0], TOP - 18, RIGHT + 20, BOX[3]), TABLE, MERGED)
    assert regrid_tables(doc, [block]) == 0


def test_a_schedule_header_row_of_two_printed_lines_does_not_stop_the_grid():
    # "Day" over "Window" in one ruled header row, "15" over "±3" in each day cell: lines level
    # across the row, as in rows printed without rules, but above the first marked row.
    doc = pymupdf.open()
    page = doc.new_page(width=842, height=595)
    xs = [60, 180, 220, 260, 300]
    ys = [100, 118, 146, 164, 182]
    for y in ys:
        page.draw_line((xs[0], y), (xs[-1], y))
    for x in xs:
        page.draw_line((x, ys[0]), (x, ys[-1]))
    for k, text in enumerate(["Visit", "1", "2", "3"]):
        _text(page, xs[k], ys[0], text)
    for k, (upper, lower) in enumerate([("Day", "Window"), ("1", ""), ("15", "±3"), ("29", "±3")]):
        _text(page, xs[k], ys[1], upper)
        if lower:
            _text(page, xs[k], ys[1] + 12, lower)
    for r, (label, marks) in enumerate([("Consent", {0}), ("ECG", {0, 1, 2})]):
        _text(page, xs[0], ys[2 + r], label)
        for c in marks:
            _text(page, xs[1 + c], ys[2 + r], "X")
    model = "|Visit|1|2 3|\n|---|---|---|\n|Day|1|15 29|\n|Window||±3 ±3|\n|Consent|X||\n|ECG|X|X X|"
    block = Block(1, (58, 98, 302, 184), TABLE, model)
    assert regrid_tables(doc, [block]) == 1
    table = parse_pipe_table(block.text)
    assert table.values.tolist()[-1] == ["ECG", "X", "X", "X"]


def _schedule_with(label: str, x: float, row: int = 1, first_mark: bool = True) -> pymupdf.Document:
    """The drawn schedule with the text of one body row's label replaced by ``label`` at ``x``
    (one text run), and that row's mark in the first day column left out unless ``first_mark``."""
    doc = pymupdf.open()
    page = doc.new_page(width=842, height=595)
    global ROWS
    saved = ROWS
    ROWS = [
        (lab, marks) if k != row else ("", marks if first_mark else marks - {0}) for k, (lab, marks) in enumerate(saved)
    ]
    try:
        _draw_schedule(page)
    finally:
        ROWS = saved
    page.insert_text((x, TOP + HEIGHT * (2 + row) + 12), label, fontsize=7)
    return doc


def test_two_cells_whose_texts_meet_at_a_rule_with_no_space_still_read_from_the_grid():
    # "Vital signs" ends on the label column's rule and the first day's "X" follows with no
    # space, one text run: the text layer has one word "signsX", which the rule parts between
    # two characters.
    width = pymupdf.get_text_length("Vital signs", fontsize=7)
    doc = _schedule_with("Vital signsX", LABEL_RIGHT - width - 0.3, first_mark=False)
    block = Block(1, BOX, TABLE, MERGED)
    assert regrid_tables(doc, [block]) == 1
    table = parse_pipe_table(block.text)
    assert table.values.tolist()[1][:2] == ["Vital signs", "X"]


def test_a_rule_through_the_middle_of_a_word_keeps_the_model_reading():
    # "Vital signs" printed across the label column's rule, the rule through the "g".
    before = pymupdf.get_text_length("Vital si", fontsize=7)
    half_g = pymupdf.get_text_length("g", fontsize=7) / 2
    doc = _schedule_with("Vital signs", LABEL_RIGHT - before - half_g)
    block = Block(1, BOX, TABLE, MERGED)
    assert regrid_tables(doc, [block]) == 0 and block.text == MERGED


def test_a_character_printed_across_the_outer_rule_belongs_to_the_edge_cell():
    # The label's first letter starts 3.5 points left of the table's left rule: its middle is
    # outside the grid.
    doc = _schedule_with("Vital signs", LEFT - 3.5)
    block = Block(1, (LEFT - 6, BOX[1], BOX[2], BOX[3]), TABLE, MERGED)
    assert regrid_tables(doc, [block]) == 1
    assert parse_pipe_table(block.text).values.tolist()[1][0] == "Vital signs"


def test_a_label_the_model_repeats_over_the_columns_it_spans_is_not_lost_text():
    # The model writes the spanning epoch in each of its merged columns: the grid holds it once.
    model = MERGED.replace("|Procedure|Treatment||Follow-up|", "|Procedure|Treatment|Treatment|Follow-up|")
    block = Block(1, BOX, TABLE, model)
    assert regrid_tables(_schedule(), [block]) == 1
    assert len(parse_pipe_table(block.text).columns) == 1 + len(DAYS)


def test_text_the_box_took_in_above_the_grid_becomes_a_text_block_before_the_table():
    # A page header printed over a sideways table, 12 points above its top rule, inside the
    # model's box: the model wrote it into the table's first row.
    doc = _schedule()
    doc[0].insert_text((LEFT, TOP - 12), "Protocol XY-123 Page 9 of 104", fontsize=7)
    model = "|Protocol XY-123|Page 9 of 104||\n" + MERGED
    blocks, heads = [Block(1, (BOX[0], TOP - 22, BOX[2], BOX[3]), TABLE, model)], [None]
    assert regrid_tables(doc, blocks, heads) == 1
    assert [b.kind for b in blocks] == [TEXT, TABLE] and heads == [None, None]
    assert blocks[0].text == "Protocol XY-123 Page 9 of 104"
    assert blocks[1].bbox[1] >= blocks[0].bbox[3]
    assert len(parse_pipe_table(blocks[1].text).columns) == 1 + len(DAYS)


def test_a_line_just_over_the_top_rule_is_no_band_and_keeps_the_model_reading():
    # Printed 2 points over the top rule: an unruled header row, not text beside the table.
    doc = _schedule()
    doc[0].insert_text((_x(0) + 2, TOP - 2), "Study day", fontsize=7)
    model = "||Study day||\n" + MERGED
    blocks = [Block(1, (BOX[0], TOP - 14, BOX[2], BOX[3]), TABLE, model)]
    assert regrid_tables(doc, blocks) == 0 and len(blocks) == 1 and blocks[0].text == model


@pytest.mark.corpus("Alexion_NCT04573309_Wilsons.pdf")
def test_alexion_schedule_has_its_day_columns_apart(corpus_run):
    """Page 14's schedule: 26 ruled columns the layout model merged ("-3 4-7 8 9")."""
    result, _ = corpus_run("Alexion_NCT04573309_Wilsons.pdf")
    tables = [
        t for n in flatten(result["toc"]) + flatten(result["non_toc"]) for t in n["tables"] if t["pages"][0] == 14
    ]
    assert tables, "no table starts on page 14"
    columns = tables[0]["columns"]
    days = [c.split(" / ")[-1] for c in columns]
    assert "2-3" in days and "4-7" in days, columns
    assert days.index("4-7") == days.index("2-3") + 1
    assert any(c.startswith("Inpatient Period 1 / ") and c.endswith(" / 2-3") for c in columns), columns
    assert all(len(row) == len(columns) for row in tables[0]["data"])


def test_the_worker_reads_the_grid_of_its_text_pages_but_not_of_pages_ocr_read(tmp_path, monkeypatch):
    # The grid is read by the worker process that converted the page, from its own handle:
    # on a page OCR read, that handle's words are OCR's, so its table stays as converted.
    from clinparser.convert.engines import page_workers
    from clinparser.convert.options import ParseOptions
    from clinparser.convert.pages import page_recovery
    from clinparser.model import OCR, TEXT_LAYER, PageRecord

    doc = pymupdf.open()
    for _ in range(2):
        _draw_schedule(doc.new_page(width=842, height=595))
    pdf = tmp_path / "schedules.pdf"
    doc.save(pdf)

    def converted(doc, unit, mode, parse):
        sources = {0: TEXT_LAYER, 1: OCR}
        return [([Block(n + 1, BOX, TABLE, MERGED)], [None], PageRecord(n + 1, sources[n])) for n in unit]

    monkeypatch.setattr(page_recovery, "read_pages", converted)
    results = page_workers._Converter(str(pdf), ParseOptions(layout="full")).convert((0, 1))
    text_page, ocr_page = (blocks[0].text for blocks, _, _ in results)
    assert parse_pipe_table(text_page).shape == (len(ROWS), 1 + len(DAYS))
    assert ocr_page == MERGED


def _cell_lines_by_definition(chars):
    """The rule ``_cell_lines`` states, written plainly: a character joins the last line when its
    middle is within 0.45 of the taller of itself and that line (the line's extent taken over
    all its characters so far) of the line's middle."""
    rows = []
    for ch in sorted(chars, key=lambda ch: (ch[1] + ch[3]) / 2):
        mid, height = (ch[1] + ch[3]) / 2, ch[3] - ch[1]
        if rows:
            top, bottom = min(c[1] for c in rows[-1]), max(c[3] for c in rows[-1])
            if abs(mid - (top + bottom) / 2) < 0.45 * max(height, bottom - top):
                rows[-1].append(ch)
                continue
        rows.append([ch])
    return [[c[4] for c in sorted(row, key=lambda c: c[0])] for row in rows]


def test_cell_lines_group_characters_by_the_stated_rule():
    import random

    from clinparser.convert.tables.table_grid import _cell_lines

    rng = random.Random(7)
    for _ in range(300):
        chars = []
        for k in range(rng.randint(1, 60)):  # lines of text, superscripts, stray marks
            y = rng.choice([100.0, 111.5, 123.0, 104.0]) + rng.uniform(-1.5, 1.5)
            size = rng.choice([9.0, 9.0, 5.5, 14.0])
            x = rng.uniform(0, 200)
            chars.append((x, y - size / 2, x + 4.0, y + size / 2, chr(65 + k % 26)))
        expected = ["".join(row) for row in _cell_lines_by_definition(chars)]
        assert ["".join(t.split()) for _, _, t in _cell_lines(chars)] == ["".join(r.split()) for r in expected]


def _headerless_page(last_empty: bool) -> tuple[pymupdf.Document, tuple]:
    """A schedule page printed with no header: a label column and four visit columns, the
    last with no mark on this page; the model's box hugs the words and stops before it."""
    doc = pymupdf.open()
    page = doc.new_page(width=842, height=595)
    left, label_right, width, top, height = 60.0, 200.0, 60.0, 100.0, 18.0
    rows = [
        ("Dosing", {0, 1, 2}),
        ("Injection site check", {0, 1}),
        ("Antibodies", {0} | (set() if last_empty else {3})),
    ]
    right, bottom = label_right + 4 * width, top + height * len(rows)
    for k in range(len(rows) + 1):
        page.draw_line((left, top + k * height), (right, top + k * height))
    for x in [left, label_right] + [label_right + width * (c + 1) for c in range(4)]:
        page.draw_line((x, top), (x, bottom))
    for k, (label, marks) in enumerate(rows):
        _text(page, left, top + k * height, label)
        for c in marks:
            _text(page, label_right + width * c, top + k * height, "X")
    return doc, (left - 2, top - 2, label_right + 3 * width - 10, bottom + 2)


def test_an_empty_last_column_the_box_left_out_is_kept_as_a_column():
    # The columns of a page printed without its header are known by position only: the empty
    # visit column on the right keeps the others where they are (its rules end with the rows')
    doc, box = _headerless_page(last_empty=True)
    block = Block(1, box, TABLE, "|Dosing|X|X|X|\n|---|---|---|---|\n|Injection site check|X|X||\n|Antibodies|X|||")
    assert regrid_tables(doc, [block]) == 1
    table = parse_pipe_table(block.text)
    assert len(table.columns) == 5
    assert table.values.tolist()[-1] == ["Antibodies", "X", "", "", ""]


def test_a_typed_arrow_row_under_a_spanning_label_is_body_not_header():
    from clinparser.convert.tables.table_grid import _marked

    assert _marked([["", "\u2190\u2014\u2014\u2014\u2014\u2192", ""]])
    assert _marked([["<------>"]]) and _marked([["\u2190\u2014 Continuous \u2014\u2192"]])
    assert not _marked([["<b>"]]) and not _marked([["Visit 1 \u2192 Visit 2"]])
