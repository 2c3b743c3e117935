"""Which layout model reads a page, decided before any model runs, from what the page's text
layer and drawing list show.

PyMuPDF's layout model comes in two forms: the full one (an image network over a render of
the page, then a graph network over its boxes) and the text-only graph network (the ``rf``
feature set), about four times cheaper because it renders nothing. The full model is needed
where the page's pixels carry the layout: pictures, ruled grids, filled cells, several columns,
forms, sideways text. A page showing none of these (one column of text, no picture, no rules)
is plain prose, and the text-only model reads it.

``choose(page)`` gives the model and the reason; the reason is written to the page ledger
(``metadata.pages[].layout``), so a page read differently can be traced to the rule that sent
it there.
"""

from __future__ import annotations

from dataclasses import dataclass

FULL = "full"
TEXT_ONLY = "text-only"
MODES = (FULL, "auto")

EDGE = 0.08  # share of the page height at top and bottom holding running headers and footers
MIN_PICTURE = 0.005  # share of the page area an image must cover to count as a picture
MIN_WORDS = 40  # fewer words than this: a title page, a figure page, a form, a scan
MAX_RULES = 2  # more straight rules than this (a table's grid, a box): the page has a ruled layout
RULE_LENGTH = 40.0  # points: shorter strokes are underlines of a word, glyph parts, ticks
SIDE_GAP = 18.0  # points between two lines on one baseline: columns or cells, not one line
LABEL_WIDTH = 60.0  # points: a heading's number or a list's marker before a gap is this narrow


@dataclass(frozen=True)
class Route:
    model: str  # FULL or TEXT_ONLY
    reason: str


def choose(page, mode: str = "auto") -> Route:
    """The model that reads ``page`` and why."""
    if mode == FULL:
        return Route(FULL, "--layout full")
    if page.first_widget is not None:
        return Route(FULL, "form fields")
    area, band = abs(page.rect), _body_band(page)
    if any(abs(band & info["bbox"]) >= MIN_PICTURE * area for info in page.get_image_info()):
        return Route(FULL, "a picture")
    lines = _body_lines(page, band)
    if sum(len(text.split()) for _, text, _ in lines) < MIN_WORDS:
        return Route(FULL, "little text")
    if any(direction != (1.0, 0.0) for _, _, direction in lines):
        return Route(FULL, "text not running left to right")
    if _rules(page, band) > MAX_RULES:
        return Route(FULL, "ruled lines or filled boxes")
    if _side_by_side(lines):
        return Route(FULL, "text side by side (columns or a table)")
    return Route(TEXT_ONLY, "plain text")


def _body_band(page):
    """The page less its header and footer bands (a logo, a ruled header box is furniture)."""
    import pymupdf

    r = page.rect
    return pymupdf.Rect(r.x0, r.y0 + EDGE * r.height, r.x1, r.y1 - EDGE * r.height)


def _body_lines(page, band) -> list[tuple[tuple, str, tuple]]:
    """(box, text, direction) of the page's text lines in the body ``band``."""
    top, bottom = band.y0, band.y1
    out = []
    for block in page.get_text("dict", flags=0)["blocks"]:
        for line in block.get("lines", ()):
            text = "".join(span["text"] for span in line["spans"]).strip()
            box = line["bbox"]
            if text and top <= (box[1] + box[3]) / 2 <= bottom:
                out.append((box, text, tuple(round(v, 3) for v in line["dir"])))
    return out


def _rules(page, band) -> int:
    """Straight rules and filled boxes drawn in the body ``band``: lines at least
    ``RULE_LENGTH`` long, and rectangles (a cell's fill, a frame) at least that wide."""
    count = 0
    for path in page.get_drawings():
        box = path["rect"]  # a straight rule's box has no height or no width
        if not (band.y0 <= (box.y0 + box.y1) / 2 <= band.y1):
            continue
        for item in path["items"]:
            if item[0] == "l":
                p, q = item[1], item[2]
                if abs(p.x - q.x) >= RULE_LENGTH or abs(p.y - q.y) >= RULE_LENGTH:
                    count += 1
            elif item[0] in ("re", "qu"):
                rect = item[1].rect if item[0] == "qu" else item[1]
                if rect.width >= RULE_LENGTH or rect.height >= RULE_LENGTH:
                    count += 1
    return count


def _side_by_side(lines: list) -> bool:
    """Rows where two lines of text stand on one baseline with a gap between them, the left one
    wider than a label (a heading's number or a bullet before its text is not a column):
    columns or table cells, on two rows or more."""
    rows: dict[int, list[tuple[float, float]]] = {}
    for box, _, _ in lines:
        rows.setdefault(round(box[3]), []).append((box[0], box[2]))
    split = 0
    for spans in rows.values():
        spans.sort()
        split += any(b[0] - a[1] >= SIDE_GAP and a[1] - a[0] > LABEL_WIDTH for a, b in zip(spans, spans[1:]))
    return split >= 2
