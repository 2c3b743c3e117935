"""The page characters PyMuPDF's ``find_tables`` collects, built for what a ruled grid needs.

``find_tables`` first fills its character list (``pymupdf.table.make_chars``): one dict of 23
keys per character, each made from three PyMuPDF geometry objects. With the ruling-line
strategies nothing reads most of them: the characters only tell which ruled boxes hold text
(their ``x0``/``x1``/``y0``/``y1``) and which candidate grids have any (``top``/``bottom``
and ``text``). On a ruled schedule page that dict building was half of ``find_tables``'s time
(Alexion: 1.1 of 2.0 s), so ``table_grid`` asks for the lean list below instead.

The values are the ones ``make_chars`` computes, bit for bit: ``y0``/``y1`` are the box turned
into PDF coordinates by the page's matrix, which MuPDF does in single precision, so they are
computed in single precision here too. Only pages in the common case are served this way
(not rotated, a matrix that only flips y); any other page, and a PyMuPDF whose table module
is laid out differently, gets PyMuPDF's own ``make_chars``.
"""

from __future__ import annotations

import contextlib
import threading

import numpy as np
from pymupdf import table as _table

_LOCK = threading.Lock()  # the swap below is module-global in PyMuPDF's table module


@contextlib.contextmanager
def lean_table_chars():
    """While open, ``find_tables`` builds its character list with ``lean_make_chars``."""
    real = getattr(_table, "make_chars", None)
    if real is None or not hasattr(getattr(_table, "CHARS", None), "_list"):
        yield  # another PyMuPDF: leave it alone
        return
    with _LOCK:
        _table.make_chars = lambda page, clip=None: lean_make_chars(page, clip, real)
        try:
            yield
        finally:
            _table.make_chars = real


def lean_make_chars(page, clip=None, real=None):
    """Fill ``find_tables``'s character list with the keys the ruling-line strategies read;
    return the text page, as ``make_chars`` does. ``real``: PyMuPDF's own, for other pages."""
    a, b, c, d, e, f = page.transformation_matrix
    if page.rotation or (a, b, c, d) != (1, 0, 0, -1):
        return (real or _table.make_chars)(page, clip=clip)
    textpage = page.get_textpage(clip=clip, flags=_table.FLAGS)
    boxes, texts = [], []
    for block in page.get_text("rawdict", textpage=textpage)["blocks"]:
        for line in block["lines"]:
            # make_chars's order: spans, then characters, left to right.
            for span in sorted(line["spans"], key=lambda s: s["bbox"][0]):
                for char in sorted(span["chars"], key=lambda ch: ch["bbox"][0]):
                    boxes.append(char["bbox"])
                    texts.append(char["c"])
    if not boxes:
        return textpage
    array = np.asarray(boxes, dtype=np.float64)
    # The box in PDF coordinates: y -> f - y, in single precision as MuPDF computes it.
    flipped = (np.float32(f) - array[:, 1:4:2].astype(np.float32)).astype(np.float64).tolist()
    chars = _table.CHARS._list()
    for (x0, top, x1, bottom), (y1, y0), text in zip(boxes, flipped, texts):
        chars.append({"x0": x0, "x1": x1, "top": top, "bottom": bottom, "y0": y0, "y1": y1, "text": text})
    return textpage
