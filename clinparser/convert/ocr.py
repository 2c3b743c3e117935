"""RapidOCR, one engine per process: the bundled detection and recognition models, nothing
downloaded. ``read_lines(image)`` reads an RGB image (a page render, a picture) into text lines
with their boxes in pixels.
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


def read_lines(image) -> list:
    """RapidOCR on an image (an RGB array): ``[(box, text, score), ...]``, a box being its four
    corners in pixels."""
    global _ENGINE
    from .onnx_sessions import without_memory_arena

    with without_memory_arena():  # RapidOCR makes some of its sessions on first use
        if _ENGINE is None:
            from rapidocr import RapidOCR

            _ENGINE = RapidOCR(params=ENGINE_PARAMS)
        result = _ENGINE(image)
    if result.boxes is None or result.txts is None or result.scores is None:
        return []
    return list(zip(result.boxes, result.txts, result.scores))
