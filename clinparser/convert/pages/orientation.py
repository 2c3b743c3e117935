"""Pages printed sideways: a landscape table laid on a portrait page reads bottom to top.

The layout converter reads lines left to right, so a sideways page comes out transposed (the
last column first, the running header cut into the first column). Such a page is turned, on
the handle that is read, until its text runs left to right: the PDF's own /Rotate first, then
the direction most of its characters run in.
"""

from __future__ import annotations

from collections import Counter

# The turn (a /Rotate value) that makes text running in this direction read left to right.
_TURN = {(0, -1): 90, (0, 1): 270, (-1, 0): 180}
MIN_CHARS = 50  # fewer characters than this cannot tell a page's direction
MAJORITY = 0.5  # share of the characters that must run in one sideways direction


def sideways_turn(page) -> int:
    """The /Rotate that makes most of this page's text read left to right (0 when it does)."""
    runs: Counter = Counter()
    for block in page.get_text("dict", flags=0)["blocks"]:
        for line in block.get("lines", ()):
            direction = (round(line["dir"][0]), round(line["dir"][1]))
            runs[direction] += sum(len(span["text"].strip()) for span in line["spans"])
    total = sum(runs.values())
    if total < MIN_CHARS:
        return 0
    direction, count = runs.most_common(1)[0]
    return _TURN.get(direction, 0) if count > MAJORITY * total else 0


def upright(page) -> int:
    """Un-rotate the page (its /Rotate made part of its content) and turn it if its text runs
    sideways; the turn made (0, 90, 180 or 270)."""
    page.remove_rotation()
    turn = sideways_turn(page)
    turn_upright(page, turn)
    return turn


def turn_upright(page, turn: int) -> None:
    """Un-rotate the page and make the turn ``upright`` found for it on another handle."""
    page.remove_rotation()
    if turn:
        page.set_rotation(turn)
        page.remove_rotation()


def upright_all(doc) -> list[int]:
    """Every page upright, as ``upright`` does; the 1-based numbers of the pages turned."""
    return [page.number + 1 for page in doc if upright(page)]
