"""Boxes on a page, ``(x0, y0, x1, y1)`` in points, y growing downwards: the one home of the
measures several stages take of them."""

from __future__ import annotations

from typing import Sequence

Box = Sequence[float]


def span_overlap(a0: float, a1: float, b0: float, b1: float) -> float:
    """The length two intervals share (0 when they do not meet)."""
    return max(0.0, min(a1, b1) - max(a0, b0))


def horizontal_overlap(a: Box, b: Box) -> float:
    """The width two boxes share when seen from above (their x ranges' overlap)."""
    return span_overlap(a[0], a[2], b[0], b[2])


def vertical_overlap(a: Box, b: Box) -> float:
    """The height two boxes share when seen from the side (their y ranges' overlap)."""
    return span_overlap(a[1], a[3], b[1], b[3])


def intersection_area(a: Box, b: Box) -> float:
    """The area two boxes share (0 when they only touch or do not meet)."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def area(box: Box) -> float:
    return (box[2] - box[0]) * (box[3] - box[1])


def share_covered(cover: Box, box: Box) -> float:
    """The share of ``box``'s area that ``cover`` covers (0 for a box without area)."""
    whole = area(box)
    return intersection_area(cover, box) / whole if whole > 0 else 0.0


def contains(outer: Box, inner: Box, slack: float = 0.0) -> bool:
    """Whether ``inner`` lies within ``outer``, allowing ``slack`` points on every side."""
    return (
        outer[0] <= inner[0] + slack
        and outer[1] <= inner[1] + slack
        and outer[2] >= inner[2] - slack
        and outer[3] >= inner[3] - slack
    )
