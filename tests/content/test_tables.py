from __future__ import annotations

import pandas as pd

from clinparser.content.tables import caption_of, continues, merge, to_table, write_csv
from clinparser.model import Table
from clinparser.shared.pipe_tables import parse_pipe_table


def test_pipe_table_cells_escapes_br_markup_and_multirow_header():
    md = "|**Visit**|Day|\n|Week|<br>|\n|---|---|\n|a\\|b|c<br>d|\n|_x_|"
    df = parse_pipe_table(md)
    assert df.columns.tolist() == ["Visit / Week", "Day"]
    assert df.values.tolist() == [["a|b", "c\nd"], ["x", ""]]


def test_ragged_rows_are_padded_and_extra_cells_kept():
    t = to_table(parse_pipe_table("|A|B|\n|---|---|\n|1|2|3|\n|4|"), title="", page=1)
    assert t.columns == ["A", "B", ""]
    assert t.data == [["1", "2", "3"], ["4", "", ""]]
    assert all(len(r) == len(t.columns) for r in t.data)


def test_not_a_table():
    assert parse_pipe_table("just text") is None


def test_captions():
    assert caption_of("**Table 3: Dosing**") == "Table 3: Dosing"
    assert (
        caption_of("Table 1a. Schedule of Non-laboratory Assessments")
        == "Table 1a. Schedule of Non-laboratory Assessments"
    )
    assert caption_of("Table LZZT.1. Laboratory Tests") == "Table LZZT.1. Laboratory Tests"
    assert caption_of("Tables are listed below") is None


def test_continued_table_merges_and_drops_repeated_header():
    first = Table("Table 1: SoA", 4, [4, 4], ["Procedure", "Day 1"], [["ECG", "X"]])
    second = Table("", 5, [5, 5], ["Procedure", "Day 1"], [["Procedure", "Day 1"], ["Labs", "X"]])
    assert continues(first, second, "")
    merge(first, second)
    assert first.pages == [4, 5] and first.data == [["ECG", "X"], ["Labs", "X"]]


def test_continued_caption_with_a_different_first_row_keeps_it_as_data():
    first = Table("Table 1: SoA", 4, [4, 4], ["Procedure", "Day 1"], [["ECG", "X"]])
    second = Table("", 5, [5, 5], ["Vitals", "X"], [["Labs", "X"]])
    assert continues(first, second, "Table 1: SoA (continued)")
    merge(first, second)
    assert first.data == [["ECG", "X"], ["Vitals", "X"], ["Labs", "X"]]


def test_tables_two_pages_apart_do_not_merge():
    first = Table("T", 4, [4, 4], ["A"], [["1"]])
    assert not continues(first, Table("", 7, [7, 7], ["A"], [["2"]]), "")


def test_csv_round_trip(tmp_path):
    t = Table("T", 1, [1, 1], ["Name", "Note, with comma", ""], [["a", 'quote " inside', "x\ny"], ["", "é", "3"]])
    write_csv(t, tmp_path / "t.csv")
    back = pd.read_csv(tmp_path / "t.csv", dtype=str, keep_default_na=False)
    assert back.values.tolist() == t.data
    assert [c if not c.startswith("Unnamed") else "" for c in back.columns] == t.columns


def test_caption_taken_in_as_the_header_row_becomes_the_title():
    from clinparser.content.tables import split_caption_row

    df = parse_pipe_table(
        "|**Table 2:**<br>**Primary Objective and E**|**stimand**|\n|---|---|\n"
        "|Objective|Estimand|\n|Efficacy|Attack rate|"
    )
    title, rest = split_caption_row(df)
    assert title == "Table 2: Primary Objective and Estimand"
    assert rest.columns.tolist() == ["Objective", "Estimand"] and rest.values.tolist() == [["Efficacy", "Attack rate"]]
    plain = parse_pipe_table("|Visit|Day|\n|---|---|\n|1|2|")
    assert split_caption_row(plain)[0] == ""


def _table(header, rows):
    lines = ["|" + "|".join(header) + "|", "|" + "|".join("---" for _ in header) + "|"]
    return to_table(parse_pipe_table("\n".join(lines + ["|" + "|".join(r) + "|" for r in rows])), title="", page=1)


def test_second_header_row_left_in_the_data_is_joined_to_the_header_per_column():
    t = _table(
        ["", "VISIT", "1", "2", "ET"],
        [["ACTIVITY", "WEEK", "-2", "0", ""], ["Informed consent", "", "X", "", ""], ["ECG", "", "", "X", "X"]],
    )
    assert t.columns == ["ACTIVITY", "VISIT / WEEK", "1 / -2", "2 / 0", "ET"]
    assert [r[0] for r in t.data] == ["Informed consent", "ECG"]


def test_a_spanning_header_cell_covers_the_sub_columns_under_it():
    t = _table(
        ["", "Treatment period", "", "", "Follow-up", ""],
        [
            ["Assessment", "Week 1", "Week 2", "Week 4", "Week 8", "Week 12"],
            ["Vital signs", "X", "X", "X", "", "X"],
            ["ECG", "X", "", "", "X", ""],
        ],
    )
    assert t.columns == [
        "Assessment",
        "Treatment period / Week 1",
        "Treatment period / Week 2",
        "Treatment period / Week 4",
        "Follow-up / Week 8",
        "Follow-up / Week 12",
    ]
    assert t.data[0] == ["Vital signs", "X", "X", "X", "", "X"]


def test_a_spanning_cell_cut_by_the_column_boundaries_is_glued_back_as_printed():
    t = _table(
        ["", "Scree", "ning", "Interve", "ntion period", "Safety"],
        [["Visit", "site", "site", "site", "phone", "site"], ["ECG", "X", "", "X", "", "X"]],
    )
    # A value repeated along a row ("site") is a column's own value, never glued to its neighbour.
    assert t.columns == [
        "Visit",
        "Screening / site",
        "Screening / site",
        "Intervention period / site",
        "Intervention period / phone",
        "Safety / site",
    ]
    assert t.data == [["ECG", "X", "", "X", "", "X"]]


def test_a_first_data_row_of_numbers_stays_data():
    t = _table(["Study", "", "N"], [["Minami 2006", "solid tumour", "69"], ["Bruno 1998", "NSCLC", "640"]])
    assert t.columns == ["Study", "", "N"] and len(t.data) == 2


def test_a_key_value_table_keeps_its_rows():
    # "X)" numbers the tenth change: it is not an activity mark.
    t = _table(
        ["Number of amendments", "", "2"],
        [["", "I)", "Background update"], ["", "II)", "Benefit/risk update"], ["", "X)", "Dose update"]],
    )
    assert t.columns == ["Number of amendments", "", "2"] and t.data[0] == ["", "I)", "Background update"]


def test_continued_captions():
    from clinparser.content.tables import is_continued

    for title in (
        "Table 2 (continued)",
        "Schedule of Activities (Cont.)",
        "Table 3 cont'd",
        "Visits 9-13 (concluded)",
        "SoA (cont)",
    ):
        assert is_continued(title), title
    assert not is_continued("Contraception requirements") and not is_continued("Table 4 Content of the kit")


def test_a_one_row_header_keeps_its_cells_apart_but_mends_a_cut_word():
    t = _table(["Dose", "mg/kg", "Arm A", "placebo", "IUD", "intrauterine device"], [["Low", "1", "10", "12", "", ""]])
    assert t.columns == ["Dose", "mg/kg", "Arm A", "placebo", "IUD", "intrauterine device"]
    t = _table(["Origin", "al text", "New wording", "P", "retreatment"], [["a", "b", "c", "d", "e"]])
    assert t.columns == ["Original text", "Original text", "New wording", "Pretreatment", "Pretreatment"]


def test_a_header_cut_at_other_places_on_the_next_page_is_the_same_header():
    from clinparser.content.tables import same_header

    first = Table("", 4, [4, 4], ["Activity", "Double-Blind Trea", "tment"], [["ECG", "X", ""]])
    second = Table("", 5, [5, 5], ["Activity", "Double-Blind Treatme", "nt"], [["Labs", "", "X"]])
    assert same_header(first, second)
    assert not same_header(first, Table("", 5, [5, 5], ["Activity", "Double-Blind", "Follow-up"], [["Labs", "", "X"]]))


def test_merge_records_where_the_next_page_part_starts_and_lifting_keeps_it_in_step():
    from clinparser.content.tables import finish_header, merge
    from clinparser.model import Table

    first = Table(
        "T", 1, [1, 1], ["", "Visit 1", "Visit 2"], [["Week", "0", "2"], ["ECG", "X", ""], ["Labs", "X", "X"]]
    )
    second = Table("", 2, [2, 2], ["", "Visit 1", "Visit 2"], [["Week", "0", "2"], ["Weight", "", "X"]])
    merge(first, second)
    assert first.part_rows == [3] and first.data[3][0] == "Weight"
    finish_header(first)  # the "Week" row goes up into the header
    assert first.data[first.part_rows[0]][0] == "Weight"
