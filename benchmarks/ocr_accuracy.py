"""OCR against the truth: pages with a good text layer, rendered and read, scored on that layer.

    python benchmarks/ocr_accuracy.py [--corpus ../shared/corpus] [--use pages|pictures] [--dpi N]
                                      [--per-document 6] [--against NAME=VALUE ...]
                                      [--against-scale S | --against-glyph-pixels N] [PDF ...]

A page whose text layer is readable (``page_check.before_conversion`` finds nothing wrong,
and it has at least ``MIN_WORDS`` words) is a page whose words are known exactly. Each chosen
page is rendered at ``--dpi`` and read by RapidOCR with the parser's settings for ``--use``
(``pages``: how a recovered page is read, ``convert/ocr.PAGE_PARAMS``, at its 150 dpi by
default; ``pictures``: how a picture is read, ``ENGINE_PARAMS``, at 200 dpi), in one thread
with the parser's session settings, and with those settings changed by ``--against``
(RapidOCR parameter names, e.g. ``Rec.rec_batch_num=6``) and/or with detection shrunk (issue 49):

- ``--against-scale S``: detection sees every image shrunk to S of its size (RapidOCR's
  detector itself never shrinks one: its rule, ``Det.limit_type: min`` at 736, only enlarges
  a small image);
- ``--against-glyph-pixels N``: detection sees an image shrunk so that its print is N pixels
  tall (``glyph_height``: the quarter-smallest of its letter-like ink blobs), never enlarged,
  and left whole when RapidOCR would enlarge it or the shrink is under 10 %.

Recognition reads crops of the full image either way (RapidOCR maps detection's boxes back
to the image it was given). The check of the print's size counts in the reading's CPU.
Both readings are scored on the layer's words:

- **found**: of the layer's words (``\\w+`` runs, as a multiset), the share the reading holds;
- **wrong**: words read that the layer does not hold (a misread, two words run together);
- **CPU s**: the reading's CPU time (rendering not counted);
- **lines differ**: lines the two readings read differently, of the lines the parser's read,
  the two readings' lines aligned in order first (a line one reading adds or loses counts once,
  not once for every line after it).

Pages are spread evenly over each document (``--per-document`` of them, the same every run).
The two readings of a page run one after the other in this process, so the machine's drift
cancels in the CPU ratio.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MIN_WORDS = 80  # a page with fewer is a title page or a figure: too little to score
USES = ("pages", "pictures")
_WORD = re.compile(r"\w+", re.UNICODE)


def words(text: str) -> Counter:
    return Counter(_WORD.findall(text))


def score(truth: str, lines: list[str]) -> dict:
    """The layer's words against a reading's lines: how many there are, found and read wrong."""
    want, got = words(truth), words("\n".join(lines))
    found = sum((want & got).values())
    return {"words": sum(want.values()), "found": found, "wrong": sum(got.values()) - found}


def differing_lines(ours: list[str], theirs: list[str]) -> int:
    """How many lines differ between two readings of one page, aligned in order: a line read
    differently, added or lost counts once (a changed run counts its longer side)."""
    from difflib import SequenceMatcher

    matcher = SequenceMatcher(None, ours, theirs, autojunk=False)
    return sum(max(i2 - i1, j2 - j1) for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal")


def chosen_pages(doc, per_document: int) -> list[int]:
    """Up to ``per_document`` pages (0-based) spread evenly over the document, each with a
    readable layer of at least ``MIN_WORDS`` words."""
    from clinparser.convert.pages.page_check import before_conversion

    picks = sorted({min(doc.page_count - 1, doc.page_count * k // per_document + 1) for k in range(per_document)})
    out = []
    for number in picks:
        page = doc[number]
        if sum(words(page.get_text()).values()) >= MIN_WORDS and before_conversion(page, page.get_bboxlog()) is None:
            out.append(number)
    return out


DET_MIN_SIDE = 736  # RapidOCR's default Det.limit_side_len (limit_type "min"): a shorter side under it is enlarged
MIN_GLYPHS = 30  # fewer letter-like blobs than this: too few to measure the print by; no shrink
MIN_SHRINK = 0.9  # a shrink by less than 10 % is not made


def glyph_height(image) -> float:
    """The print's size in pixels: the height under which a quarter of the image's letter-like
    ink blobs lie (4 to 100 pixels tall, at most three times as wide: not a dot, a rule, a box
    or a shape); 0.0 when there are fewer than ``MIN_GLYPHS``. A quarter, not the half: the
    smallest print (footnotes, a contents page's numbers) is what detection must still find."""
    import cv2
    import numpy as np

    grey = cv2.cvtColor(np.ascontiguousarray(image[:, :, :3]), cv2.COLOR_RGB2GRAY)
    ink = (grey < 128).astype(np.uint8)  # picture_words.INK
    _, _, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    heights, widths = stats[1:, cv2.CC_STAT_HEIGHT], stats[1:, cv2.CC_STAT_WIDTH]
    glyphs = heights[(heights >= 4) & (heights <= 100) & (widths <= 3 * heights)]
    return float(np.percentile(glyphs, 25)) if glyphs.size >= MIN_GLYPHS else 0.0


def glyph_scale(image, glyph_pixels: float) -> float:
    """The share of its size detection sees ``image`` at so its print is ``glyph_pixels`` tall:
    never over 1, and 1 when RapidOCR enlarges the image anyway, when the print cannot be
    measured, or when the shrink would be under 10 %."""
    if min(image.shape[:2]) < DET_MIN_SIDE:
        return 1.0
    height = glyph_height(image)
    scale = glyph_pixels / height if height else 1.0
    return scale if scale <= MIN_SHRINK else 1.0


def detect_at(reader, image, scale: float) -> None:
    """Set ``reader``'s detector (its size rule is read again on every call) to see ``image`` at
    ``scale`` of its size, or, at 1, by the reader's configured rule (``Det.limit_type`` and
    ``Det.limit_side_len``, which ``--against`` may change)."""
    detector = reader._load_det_model()
    if scale < 1.0:
        detector.limit_type, detector.limit_side_len = "max", round(max(image.shape[:2]) * scale)
    else:
        detector.limit_type, detector.limit_side_len = reader.cfg.Det.limit_type, reader.cfg.Det.limit_side_len


def read(reader, image, scale_of=None) -> tuple[list[str], float]:
    """The lines ``reader`` (a RapidOCR engine) reads in ``image`` and the CPU seconds it took,
    under the parser's session settings: RapidOCR makes its model sessions on first use, so
    they are made here, single-threaded and without a memory arena as in a page worker.
    ``scale_of(image)``: the share of its size detection sees the image at (RapidOCR's own
    rule when None)."""
    from clinparser.convert.runtime.onnx_sessions import single_threaded_sessions, without_memory_arena

    start = time.process_time()
    with single_threaded_sessions(), without_memory_arena():
        if scale_of is not None:
            detect_at(reader, image, scale_of(image))
        result = reader(image, use_det=True, use_cls=False, use_rec=True)
    return [str(t) for t in (result.txts or [])], time.process_time() - start


def measure(pdf: Path, dpi: int, per_document: int, readers: dict, scale_of=None) -> dict:
    """Per reader: its summed score and CPU over the chosen pages; and the lines that differ.
    ``scale_of``: the "against" reader's detection scale for an image (None: RapidOCR's)."""
    import numpy as np
    import pymupdf

    totals = {name: Counter() for name in readers}
    differ = lines = 0
    with pymupdf.open(pdf) as doc:
        pages = chosen_pages(doc, per_document)
        for number in pages:
            page = doc[number]
            pix = page.get_pixmap(dpi=dpi, alpha=False)
            image = np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.width, pix.n)
            truth = page.get_text()
            seen = {}
            for name, reader in readers.items():
                seen[name], cpu = read(reader, image, scale_of if name == "against" else None)
                totals[name].update(score(truth, seen[name]))
                totals[name]["cpu"] += cpu
            ours, theirs = seen["parser"], seen["against"]
            lines += len(ours)
            differ += differing_lines(ours, theirs)
    return {"pages": len(pages), "totals": totals, "lines": lines, "differ": differ}


def _parser_dpi(use: str) -> int:
    """The resolution the parser renders at for ``use``."""
    from clinparser.convert.pages import page_recovery
    from clinparser.convert.pictures import picture_words

    return page_recovery.OCR_DPI if use == "pages" else picture_words.OCR_DPI


def setting(text: str) -> tuple[str, object]:
    """``NAME=VALUE`` with VALUE read as an int, a float, true/false, or left a string."""
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, got {text!r}")
    for kind in (int, float):
        try:
            return name, kind(value)
        except ValueError:
            pass
    return name, {"true": True, "false": False}.get(value.lower(), value)


def _row(name: str, row: dict) -> str:
    ours, theirs = row["totals"]["parser"], row["totals"]["against"]
    share = lambda t: t["found"] / t["words"] if t["words"] else 1.0  # noqa: E731
    ratio = ours["cpu"] / theirs["cpu"] if theirs["cpu"] else float("nan")
    return (
        f"| {name} | {row['pages']} | {ours['words']} | {share(ours):.4f} | {share(theirs):.4f} "
        f"| {ours['wrong']} | {theirs['wrong']} "
        f"| {ours['cpu']:.1f} | {theirs['cpu']:.1f} | {ratio:.2f} | {row['differ']} of {row['lines']} |"
    )


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    ap.add_argument(
        "--use", choices=USES, default="pages", help="the parser's settings for recovered pages or for pictures"
    )
    ap.add_argument(
        "--dpi", type=int, help="render resolution (default: the parser's for --use: pages 150, pictures 200)"
    )
    ap.add_argument("--per-document", type=int, default=6, help="pages chosen per document")
    ap.add_argument(
        "--against",
        type=setting,
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a RapidOCR parameter changed from the parser's settings (repeatable)",
    )
    shrink = ap.add_mutually_exclusive_group()
    shrink.add_argument("--against-scale", type=float, metavar="S", help="detection at S (0-1) of every image's size")
    shrink.add_argument(
        "--against-glyph-pixels", type=float, metavar="N", help="detection shrunk so the print is N pixels tall"
    )
    ap.add_argument("pdfs", nargs="*", type=Path, help="these PDFs instead of the whole corpus")
    args = ap.parse_args(argv)
    pdfs = args.pdfs or sorted(args.corpus.glob("*.pdf"))
    if not pdfs:
        print(f"no PDFs under {args.corpus}", file=sys.stderr)
        return 1
    if not (args.against or args.against_scale or args.against_glyph_pixels):
        print(
            "nothing to compare against: give --against NAME=VALUE (e.g. Rec.rec_batch_num=6), "
            "--against-scale S or --against-glyph-pixels N",
            file=sys.stderr,
        )
        return 2
    from rapidocr import RapidOCR

    from clinparser.convert.runtime.ocr import ENGINE_PARAMS, PAGE_PARAMS

    ours = PAGE_PARAMS if args.use == "pages" else ENGINE_PARAMS
    dpi = args.dpi or _parser_dpi(args.use)
    readers = {"parser": RapidOCR(params=dict(ours)), "against": RapidOCR(params={**ours, **dict(args.against)})}
    changes, scale_of = [f"{k}={v}" for k, v in args.against], None
    if args.against_scale:
        changes.append(f"detection at {args.against_scale} of the size")
        scale_of = lambda image: min(1.0, args.against_scale)  # noqa: E731
    if args.against_glyph_pixels:
        changes.append(f"detection with print {args.against_glyph_pixels:g} px tall")
        scale_of = lambda image: glyph_scale(image, args.against_glyph_pixels)  # noqa: E731
    print(f"{args.use} against: {', '.join(changes)}; {dpi} dpi")
    print(
        "| document | pages | layer words | found | found, against | wrong | wrong, against "
        "| CPU s | CPU s, against | CPU ratio | lines differ |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    everything = {"pages": 0, "totals": {"parser": Counter(), "against": Counter()}, "lines": 0, "differ": 0}
    for pdf in pdfs:
        row = measure(pdf, dpi, args.per_document, readers, scale_of)
        print(_row(pdf.stem, row), flush=True)
        for key in ("pages", "lines", "differ"):
            everything[key] += row[key]
        for name in readers:
            everything["totals"][name].update(row["totals"][name])
    print(_row(f"**all {len(pdfs)}**", everything))
    return 0


if __name__ == "__main__":
    sys.exit(main())
