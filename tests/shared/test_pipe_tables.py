"""Header rows a converter left in a table's body are lifted back into its header."""

from clinparser.shared.pipe_tables import (
    header_like,
    is_rule_row,
    is_table_row,
    lift_header,
    parse_pipe_table,
    row_cells,
)


def test_a_sparse_row_named_as_a_header_row_is_lifted_in_a_schedule():
    # "Window" and "Time point" rows are filled only under some visits: their first cell names
    # them as header rows, and they stand before the first marked row.
    columns = ["Cycle / Day", "Screening", "Cycle 1 / D1", "Cycle 1 / D1", "Cycle 1 / D8", "Cycle 2 / D1", "EOT"]
    data = [
        ["Window", "", "", "", "±1", "±2", ""],
        ["Time point", "", "SOI", "EOI", "", "", ""],
        ["Vital signs", "X", "X", "X", "X", "X", "X"],
    ]
    header, body = lift_header(columns, data)
    assert header == [
        "Cycle / Day / Window / Time point",
        "Screening",
        "Cycle 1 / D1 / SOI",
        "Cycle 1 / D1 / EOI",
        "Cycle 1 / D8 / ±1",
        "Cycle 2 / D1 / ±2",
        "EOT",
    ]
    assert body == [data[2]]


def test_a_sparse_row_not_named_as_a_header_row_is_not_header_like():
    assert header_like(["Window", "", "", "±1", "±2", ""])
    assert not header_like(["Comments", "", "", "see text", "", ""])
    assert not header_like(["Window", "", "", "", "X", ""])  # a mark: a body row


def test_row_cells_are_the_raw_cells_between_the_outer_pipes():
    # Spaces, <br> and markup are the caller's to clean; empty cells stay in their place.
    assert row_cells("| **Dose** | 1<br>2 |  || x |") == [" **Dose** ", " 1<br>2 ", "  ", "", " x "]
    assert row_cells("||a||") == ["", "a", ""]
    assert row_cells("|") == [""]


def test_row_cells_keep_an_escaped_pipe_in_its_cell():
    assert row_cells(r"| a \| b | c |") == [" a | b ", " c "]
    # A row ending in an escaped pipe has no closing pipe: the pipe is the last cell's.
    assert row_cells(r"|a|b\|") == ["a", "b|"]


def test_row_cells_read_a_row_with_spaces_around_it_or_without_its_outer_pipes():
    assert row_cells("  | a | b |\t") == [" a ", " b "]
    assert row_cells("|a|b") == ["a", "b"]
    assert row_cells("a | b") == ["a ", " b"]


def test_is_rule_row_is_the_line_under_the_header():
    assert is_rule_row("|---|:--:|---:|")
    assert is_rule_row("  | :--- | --- |  ")
    assert is_rule_row("---|---")
    assert not is_rule_row("| --- | x |")  # a cell with text: a body row
    assert not is_rule_row("| - | - |")  # one dash: a cell's own dash
    assert not is_rule_row("| | |")
    assert not is_rule_row("|---||---|")  # an empty cell in the rule


def test_is_table_row_opens_with_a_pipe():
    assert is_table_row("  | a | b |")
    assert is_table_row("|---|")
    assert not is_table_row("a | b")
    assert not is_table_row("")


def test_parse_pipe_table_cleans_the_cells_row_cells_reads():
    table = parse_pipe_table("| Test | Visit |\n|:---|:--:|\n| A \\| B | **X**<br>Y |\n|||")
    assert list(table.columns) == ["Test", "Visit"]
    assert table.values.tolist() == [["A | B", "X\nY"], ["", ""]]
