"""Header rows a converter left in a table's body are lifted back into its header."""

from clinparser.shared.pipe_tables import header_like, lift_header


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
