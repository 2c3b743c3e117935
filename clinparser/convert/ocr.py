"""RapidOCR, one engine per process: the bundled detection and recognition models, nothing
downloaded. ``read_lines(image)`` reads an RGB image (a page render, a picture) into text lines
with their boxes in pixels; ``recognize_line(image)`` reads an image of one line (a heading
number drawn as a picture) with the recognition model alone; ``finds_text(image)`` runs the
detection model alone on the image shrunk to ``CHECK_SIDE`` pixels, a quick check for words.
"""

from __future__ import annotations

ENGINE_PARAMS = {
    # Protocol text is upright once the page's rotation is removed: the 0/180 degree line
    # classifier only costs time (15% of a dense page).
    "Global.use_cls": False,
    "Global.log_level": "critical",  # it logs every model load and every empty page
    # One thread: the same kernels in every process, so the same bytes for any --workers.
    "EngineConfig.onnxruntime.intra_op_num_threads": 1,
    "EngineConfig.onnxruntime.inter_op_num_threads": 1,
}

# The quick check's detector sees the image shrunk to this many pixels on its longer side
# (the reading engine enlarges the shorter side to 736): 0.02-0.15 s a picture, and it still
# finds a banner's URL, a label on a photographed parcel or a shaded table's cells.
CHECK_SIDE = 480
# A word logo fills up to two thirds of its picture's height (0.38-0.64 in the corpus).
MAX_LINE_SHARE = 2 / 3

_ENGINE = None  # one RapidOCR engine per process, made on the first image that needs it
_CHECKER = None  # the detection model alone, at CHECK_SIDE (RapidOCR loads models on first use)


def _engine():
    global _ENGINE
    if _ENGINE is None:
        from rapidocr import RapidOCR

        _ENGINE = RapidOCR(params=ENGINE_PARAMS)
    return _ENGINE


def _checker():
    global _CHECKER
    if _CHECKER is None:
        from rapidocr import RapidOCR

        _CHECKER = RapidOCR(params={**ENGINE_PARAMS, "Det.limit_type": "max", "Det.limit_side_len": CHECK_SIDE})
    return _CHECKER


def read_lines(image) -> list:
    """RapidOCR on an image (an RGB array): ``[(box, text, score), ...]``, a box being its four
    corners in pixels."""
    from .onnx_sessions import without_memory_arena

    with without_memory_arena():  # RapidOCR makes some of its sessions on first use
        # Every call says which models run: RapidOCR keeps the last call's choice.
        result = _engine()(image, use_det=True, use_cls=False, use_rec=True)
    if result.boxes is None or result.txts is None or result.scores is None:
        return []
    return list(zip(result.boxes, result.txts, result.scores))


def recognize_line(image) -> tuple[str, float]:
    """The recognition model alone on an image holding one line of text (no detection, no
    angle classifier): (text, confidence); ("", 0.0) when it reads nothing."""
    from .onnx_sessions import without_memory_arena

    with without_memory_arena():
        result = _engine()(image, use_det=False, use_cls=False, use_rec=True)
    if not result.txts:
        return "", 0.0
    return str(result.txts[0]), float(result.scores[0])


def finds_text(image) -> bool:
    """Whether the detection model alone, on the image shrunk to ``CHECK_SIDE`` pixels, finds
    a line of text in it: a box no taller than ``MAX_LINE_SHARE`` of the image (one box
    round the whole image is the detector taking a shape, a chart's bars, for a line)."""
    from .onnx_sessions import without_memory_arena

    with without_memory_arena():
        result = _checker()(image, use_det=True, use_cls=False, use_rec=False)
    if result.boxes is None:
        return False
    tallest = MAX_LINE_SHARE * image.shape[0]
    return any(max(p[1] for p in box) - min(p[1] for p in box) <= tallest for box in result.boxes)
