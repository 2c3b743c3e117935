"""RapidOCR, made once per process: the bundled detection and recognition models, nothing
downloaded. ``read_lines(image)`` reads an RGB image (a picture, or with ``whole_page`` a page
render) into text lines with their boxes in pixels; ``recognize_line(image)`` reads an image
of one line (a heading number drawn as a picture) with the recognition model alone;
``finds_text(image)`` runs the detection model alone on the image shrunk to ``CHECK_SIDE``
pixels, a quick check for words.
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
# A whole page's lines are recognised one at a time, not in batches of 6 padded to the batch's
# widest line: the padding is work that reads nothing, 18 % of a page's OCR. Scored on the text
# layer of 100 corpus pages rendered at recovery's 150 dpi (benchmarks/ocr_accuracy.py), the
# words found are the same (0.9876 against 0.9874, 38,009 words; 54 of 5,021 lines differ).
# Pictures keep the batches: on the corpus's degraded scanned forms the two ways read many
# lines differently, and there is no truth there to say which way is better. (A process that
# reads both holds two engines, about 40 MB more; the peak is still lower, docs/benchmarks.md.)
PAGE_PARAMS = {**ENGINE_PARAMS, "Rec.rec_batch_num": 1}

# The quick check runs RapidOCR's bundled detection model itself (onnxruntime, no RapidOCR
# engine: making one loads its whole configuration, 0.6 s, which a document whose only pictures
# are charts would pay for nothing). It sees the image shrunk to CHECK_SIDE pixels on its longer
# side: 0.02-0.15 s a picture, and it still finds a banner's URL, a label on a photographed
# parcel or a shaded table's cells.
CHECK_SIDE = 480
DETECTION_MODEL = "PP-OCRv6_det_small.onnx"  # the one RapidOCR's engine uses (its config.yaml)
TEXT_PROBABILITY = 0.3  # RapidOCR's own thresholds: a pixel is text above this,
LINE_SCORE = 0.5  # and a region is a line when its mean probability reaches this
# A word logo fills up to two thirds of its picture's height (0.38-0.64 in the corpus); one
# region as tall as the picture is the detector taking a shape (a chart's bars) for a line.
MAX_LINE_SHARE = 2 / 3

_ENGINES: dict = {}  # RapidOCR engines of this process by use ("pictures", "pages"), each made on first need
_DETECTOR = None  # the detection model's session, made on the first picture that needs the check


def _engine(use: str = "pictures"):
    if use not in _ENGINES:
        from rapidocr import RapidOCR

        _ENGINES[use] = RapidOCR(params=PAGE_PARAMS if use == "pages" else ENGINE_PARAMS)
    return _ENGINES[use]


def _detector():
    global _DETECTOR
    if _DETECTOR is None:
        import importlib.util
        from pathlib import Path

        import onnxruntime

        package = importlib.util.find_spec("rapidocr").submodule_search_locations[0]  # not imported
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = options.inter_op_num_threads = 1  # the same kernels everywhere
        _DETECTOR = onnxruntime.InferenceSession(
            str(Path(package) / "models" / DETECTION_MODEL), options, providers=["CPUExecutionProvider"]
        )
    return _DETECTOR


def read_lines(image, whole_page: bool = False) -> list:
    """RapidOCR on an image (an RGB array): ``[(box, text, score), ...]``, a box being its four
    corners in pixels. ``whole_page``: the image is a render of a page (``PAGE_PARAMS``)."""
    from .onnx_sessions import without_memory_arena

    with without_memory_arena():  # RapidOCR makes some of its sessions on first use
        # Every call says which models run: RapidOCR keeps the last call's choice.
        result = _engine("pages" if whole_page else "pictures")(image, use_det=True, use_cls=False, use_rec=True)
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
    """Whether the detection model alone, on the image shrunk to ``CHECK_SIDE`` pixels, finds a
    line of text in it, read off its probability map as RapidOCR reads boxes (its "DB" rule,
    the same thresholds): each region of text pixels, as its smallest rectangle, counts when its
    mean probability is ``LINE_SCORE`` or more, it is at least 3 pixels thick, and, grown as
    RapidOCR grows it (by 1.6 times its area over its perimeter on every side), no taller than
    ``MAX_LINE_SHARE`` of the image."""
    import cv2  # OpenCV comes with RapidOCR; RapidOCR's own module for this would load its configuration
    import numpy as np

    x = _detector_input(image)
    probability = _detector().run(None, {"x": x})[0][0, 0]
    mask = cv2.dilate((probability > TEXT_PROBABILITY).astype(np.uint8), np.ones((2, 2), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    tallest = MAX_LINE_SHARE * probability.shape[0]
    for contour in contours:
        _, (w, h), _ = cv2.minAreaRect(contour)
        if min(w, h) < 3:
            continue
        x0, y0, bw, bh = cv2.boundingRect(contour)
        region = np.zeros((bh, bw), np.uint8)
        cv2.fillPoly(region, [contour - [x0, y0]], 1)
        if cv2.mean(probability[y0 : y0 + bh, x0 : x0 + bw], region)[0] < LINE_SCORE:
            continue
        grow = w * h * 1.6 / (2 * (w + h))
        if bh + 2 * grow <= tallest:
            return True
    return False


def _detector_input(image):
    """The image as the detection model takes it (RapidOCR's own preparation): shrunk (never
    enlarged) so its longer side is at most ``CHECK_SIDE``, both sides rounded to a multiple
    of 32, scaled to [-1, 1], channels first."""
    import cv2
    import numpy as np

    h, w = image.shape[:2]
    ratio = min(1.0, CHECK_SIDE / max(h, w))
    height, width = max(32, round(int(h * ratio) / 32) * 32), max(32, round(int(w * ratio) / 32) * 32)
    small = cv2.resize(np.ascontiguousarray(image[:, :, :3]), (width, height))
    x = (small.astype(np.float32) / 255.0 - 0.5) / 0.5
    return np.ascontiguousarray(x.transpose(2, 0, 1)[None])
