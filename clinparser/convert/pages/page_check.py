"""Where a page is judged unreadable: is its text layer what a reader sees on the page?

Two looks at every page, both cheap next to the layout model:

* **Before conversion**, from the page's painting log (``page.get_bboxlog()``, about 3 ms a
  page): a page with no visible text but pictures or drawings (a scan, a page flattened to an
  image), a page whose only text is invisible (render mode 3: the OCR layer a scanner puts under
  its image), and visible text painted over by a later full-size image (a layer nobody sees).
* **After conversion**, from what the converter returned: text whose characters have no
  Unicode mapping (U+FFFD, control characters: a font whose glyph codes are not characters),
  a letter-spaced layer ("St u d y I nter ve nti o ns"), and a page that converted to nothing
  while its text layer shows words.

A page judged unreadable is recovered by OCR (``page_recovery``); every other page keeps its
text layer untouched.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Iterable, Optional

from ...shared.geometry import contains, intersection_area
from ...shared.markup import HTML_TAG

# A text layer is unreadable when at least this share of its characters has no mapping.
UNMAPPED_SHARE = 0.10
# ... or when this many characters have none, whatever the share (a heading in a broken font).
UNMAPPED_CHARS = 60
# A layer is letter-spaced when many of its "words" are lowercase fragments of one or two
# letters that are not words ("St u d y I nter ve nti o n s": 7 of 11). In English prose,
# and in tables of "X" marks, almost none are: a schedule's mark typed lower case ("x") is
# one of the short words (a schedule of 30 "x" marks and its footnote letters is not
# letter-spaced; reading it as such sent a good layer to OCR).
SPACED_SHARE = 0.3
SPACED_MIN_TOKENS = 30
_SHORT_WORDS = frozenset(
    "a i am an as at be by do go he if in is it me my no of on or so to up us we vs "
    "mg kg ml dl mm cm iv im sc x".split()
)
# Pictures covering at least this share of the page make it a picture of a page.
FULL_PAGE = 0.5
# A page that converted to fewer words than this share of its text layer's converted to nothing.
NOTHING_SHARE = 0.2
NOTHING_MIN_WORDS = 20
NOTHING_MAX_WORDS = 100  # a page that converted to this many words did not convert to nothing
# Text outside every layout box: less than this share of it covered, between the bands.
UNBOXED_COVER = 0.2
UNBOXED_BAND = 0.08

_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)
_UNMAPPED = re.compile("[\ufffd\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


@dataclass(frozen=True)
class Verdict:
    """Why a page must be recovered; ``None`` where its text layer is fine."""

    kind: str  # one of KINDS
    reason: str  # for the ledger and the warning, in words


KINDS = (
    "no-layer",
    "invisible-layer",
    "hidden-layer",
    "drawn-text",
    "unmapped",
    "letter-spaced",
    "converted-to-nothing",
    "always",
)


def before_conversion(page, log: Optional[list] = None) -> Optional[Verdict]:
    """Judge a page from its painting log (``page.get_bboxlog()``), before the converter reads it."""
    log = page.get_bboxlog() if log is None else log
    area = abs(page.rect) or 1.0
    visible, invisible, covered = _text_entries(log)
    pictures = [bbox for kind, bbox in log if kind in ("fill-image", "fill-imgmask")]
    if not visible and invisible:
        return Verdict("invisible-layer", "its only text is an invisible layer (the OCR layer of a scan)")
    if covered and covered >= 0.5 * visible and _opaque_full_page_image(page):
        return Verdict("hidden-layer", "its text layer is hidden under a full-page image")
    if not visible and not invisible and _picture_share(pictures, page.rect) >= FULL_PAGE:
        return Verdict("no-layer", "it has no text layer, only an image of the page")
    if not visible and not invisible and _drawn_text(log, area):
        return Verdict("drawn-text", "it has no text layer, only drawings")
    return None


def after_conversion(texts: Iterable[str], layer_words: Callable[[], int]) -> Optional[Verdict]:
    """Judge what the converter returned for a page (its blocks' text); ``layer_words()``
    counts the words of the page's own text layer, asked only for a page with few words."""
    text = HTML_TAG.sub(" ", "\n".join(texts))
    chars = sum(1 for c in text if not c.isspace())
    unmapped = len(_UNMAPPED.findall(text))
    if unmapped and (unmapped >= UNMAPPED_CHARS or unmapped >= UNMAPPED_SHARE * chars):
        share = unmapped / chars if chars else 1.0
        return Verdict("unmapped", f"{share:.0%} of its characters have no Unicode mapping (a font without one)")
    words = _WORD.findall(text)
    if letter_spaced(words):
        return Verdict("letter-spaced", "its text layer is letter-spaced (words broken into letters)")
    if len(words) < NOTHING_MAX_WORDS:
        in_layer = layer_words()
        if in_layer >= NOTHING_MIN_WORDS and len(words) < NOTHING_SHARE * in_layer:
            return Verdict(
                "converted-to-nothing", f"it converted to {len(words)} words while its text layer has {in_layer}"
            )
    return None


def letter_spaced(words: list[str]) -> bool:
    """Are these words a letter-spaced layer's: many lowercase fragments that are no words?"""
    words = [w for word in words for w in _WORD.findall(word)]
    return len(words) >= SPACED_MIN_TOKENS and sum(_fragment(w) for w in words) >= SPACED_SHARE * len(words)


def _fragment(word: str) -> bool:
    return len(word) <= 2 and word.islower() and word not in _SHORT_WORDS


def unboxed_text(page, log: list, boxes: list) -> list[tuple]:
    """Text-layer blocks (``page.get_text("blocks")`` entries) that no layout box covers: the
    layout model left them out of every box (a heading, a caption, a paragraph under a title),
    so the converter returned none of their words. Blocks in the top and bottom bands (running
    headers, which the layout model often leaves unboxed and the clean stage drops anyway) and
    blocks of fewer than two words are left alone. The painting log answers first, so the text
    layer is only read on a page that has such text."""
    height = page.rect.height

    def loose(bbox) -> bool:
        inner = bbox[1] >= UNBOXED_BAND * height and bbox[3] <= (1 - UNBOXED_BAND) * height
        return inner and _covered(bbox, boxes) < UNBOXED_COVER

    if not any(kind in ("fill-text", "stroke-text") and loose(bbox) for kind, bbox in log):
        return []
    return [x for x in page.get_text("blocks") if x[6] == 0 and loose(x[:4]) and len(_WORD.findall(x[4])) >= 2]


def _covered(bbox, boxes) -> float:
    """Share of ``bbox``'s area inside any of ``boxes`` (summed: boxes rarely overlap)."""
    area = (bbox[2] - bbox[0]) * (bbox[3] - bbox[1])
    if area <= 0:
        return 1.0
    return sum(intersection_area(bbox, b) for b in boxes) / area


def layer_words(page) -> int:
    """Words in the page's text layer as PyMuPDF reads them (visible or not)."""
    return len(_WORD.findall(page.get_text("text")))


def _text_entries(log) -> tuple[int, int, int]:
    """Counts of visible and invisible text entries, and of visible ones painted over later by
    an image covering them (a text layer under a scan)."""
    visible = invisible = covered = 0
    images: list = []  # images painted so far, scanned backwards below
    for kind, bbox in reversed(log):
        if kind in ("fill-image", "fill-imgmask"):
            images.append(bbox)
        elif kind in ("fill-text", "stroke-text"):
            visible += 1
            if any(contains(image, bbox, slack=1) for image in images):
                covered += 1
        elif kind == "ignore-text":
            invisible += 1
    return visible, invisible, covered


def _picture_share(boxes, rect) -> float:
    """Share of the page covered by the largest picture (pictures rarely overlap on a scan)."""
    best = 0.0
    for x0, y0, x1, y1 in boxes:
        w = max(0.0, min(x1, rect.x1) - max(x0, rect.x0))
        h = max(0.0, min(y1, rect.y1) - max(y0, rect.y0))
        best = max(best, w * h)
    return best / (abs(rect) or 1.0)


def _opaque_full_page_image(page) -> bool:
    """A picture of the page without a transparency mask: what lies under it is not seen (a
    translucent watermark over the text is not such a picture)."""
    boxes = [info["bbox"] for info in page.get_image_info() if not info.get("has-mask")]
    return _picture_share(boxes, page.rect) >= FULL_PAGE


def _drawn_text(log, area: float) -> bool:
    """Text converted to outlines: hundreds of small filled paths, no text. A chart has a few
    dozen; a page of outlined glyphs has one path a letter."""
    small = [b for kind, b in log if kind == "fill-path" and (b[2] - b[0]) * (b[3] - b[1]) < 0.001 * area]
    return len(small) >= 300
