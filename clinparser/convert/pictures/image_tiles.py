"""Figures made of tiles: picture boxes of one page that abut are one figure.

Word and PDF producers often slice a large figure into strips (a study schema as ten
horizontal bands) or a grid. The layout model boxes each tile; a reader sees one figure. Tiles
touch edge to edge (within ``TOUCH`` points, overlapping a little is common) and share their
column span (stacked) or their row span (side by side); a grid is joined through its
neighbours. The joined box replaces the tiles, at the first tile's place in reading order, so
the engine renders it once and its caption is found as for any picture.
"""

from __future__ import annotations

from dataclasses import replace

from ...model import PICTURE, BBox, Block
from ...shared.geometry import horizontal_overlap, vertical_overlap

TOUCH = 3.0  # points between (or overlapping) edges that still touch
SHARED = 0.8  # share of the shorter side the two boxes must have in common


def abut(a: BBox, b: BBox) -> bool:
    """Do two boxes touch along a shared side (stacked in one column, or side by side in one row)?"""
    width = min(a[2] - a[0], b[2] - b[0])
    height = min(a[3] - a[1], b[3] - b[1])
    stacked = min(abs(a[3] - b[1]), abs(b[3] - a[1])) <= TOUCH and horizontal_overlap(a, b) >= SHARED * width
    beside = min(abs(a[2] - b[0]), abs(b[2] - a[0])) <= TOUCH and vertical_overlap(a, b) >= SHARED * height
    return stacked or beside


def _groups(boxes: list[BBox]) -> list[int]:
    """For each box, the index of the first box of its group (abutting, transitively)."""
    root = list(range(len(boxes)))

    def find(i: int) -> int:
        while root[i] != i:
            i = root[i]
        return i

    for i in range(len(boxes)):
        for j in range(i + 1, len(boxes)):
            if abut(boxes[i], boxes[j]):
                a, b = find(i), find(j)
                root[max(a, b)] = min(a, b)
    return [find(i) for i in range(len(boxes))]


def join_tiles(blocks: list[Block]) -> list[Block]:
    """The blocks with each page's abutting picture boxes joined into one picture (union box)."""
    pictures: dict[object, list[int]] = {}
    for k, b in enumerate(blocks):
        if b.kind == PICTURE and b.bbox is not None and b.page is not None:
            pictures.setdefault(b.page, []).append(k)
    union: dict[int, BBox] = {}
    gone: set[int] = set()
    for indices in pictures.values():
        groups = _groups([blocks[k].bbox for k in indices])
        for pos, k in enumerate(indices):
            head = indices[groups[pos]]
            if head == k:
                continue
            a, b = union.get(head, blocks[head].bbox), blocks[k].bbox
            union[head] = (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))
            gone.add(k)
    return [replace(b, bbox=union[k], image=None) if k in union else b for k, b in enumerate(blocks) if k not in gone]
