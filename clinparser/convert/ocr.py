"""RapidOCR, one engine per process: the bundled detection and recognition models, nothing
downloaded. ``read_lines(image)`` reads an RGB image (a page render, a picture) into text lines
with their boxes in pixels; ``recognize_line(image)`` reads an image of one line (a heading
number drawn as a picture) with the recognition model alone.
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

_ENGINE = None  # one RapidOCR engine per process, made on the first image that needs it


def _engine():
    global _ENGINE
    if _ENGINE is None:
        from rapidocr import RapidOCR

        _ENGINE = RapidOCR(params=ENGINE_PARAMS)
    return _ENGINE


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
