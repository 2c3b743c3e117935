"""Box measures (clinparser/shared/geometry.py), each checked on boxes worked out by hand."""

import pytest

from clinparser.shared.geometry import (
    contains,
    horizontal_overlap,
    intersection_area,
    share_covered,
    span_overlap,
    vertical_overlap,
)


def test_spans_share_their_common_length_and_nothing_when_apart():
    assert span_overlap(0, 10, 4, 20) == 6
    assert span_overlap(0, 10, 10, 20) == 0
    assert span_overlap(0, 10, 12, 20) == 0


def test_boxes_overlap_by_axis():
    a, b = (0, 0, 10, 10), (6, 8, 20, 30)
    assert horizontal_overlap(a, b) == 4
    assert vertical_overlap(a, b) == 2
    assert intersection_area(a, b) == 8


def test_touching_boxes_share_no_area():
    assert intersection_area((0, 0, 10, 10), (10, 0, 20, 10)) == 0.0


def test_share_covered_is_of_the_second_box():
    cover, box = (0, 0, 10, 10), (5, 0, 15, 10)  # half of box lies under cover
    assert share_covered(cover, box) == pytest.approx(0.5)
    assert share_covered(box, (0, 0, 0, 10)) == 0.0  # a box without area


def test_contains_with_slack():
    outer = (10, 10, 100, 100)
    assert contains(outer, (20, 20, 50, 50))
    assert not contains(outer, (9.5, 20, 50, 50))
    assert contains(outer, (9.5, 20, 50, 50), slack=1)
