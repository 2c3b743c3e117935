"""Where a parse's CPU goes: each corpus PDF parsed end to end in one process, its CPU seconds
split by stage.

    python benchmarks/cpu_stages.py [--corpus ../shared/corpus] [--jobs 2] [--only NAME ...] [PDF ...]

Each PDF runs ``clinparser FILE --workers 1`` (the CLI, review page included) in a fresh child
process, so every stage runs in that process and the stages add up to its CPU time (``time.
process_time``: CPU, not wall, so two children side by side (``--jobs``) do not inflate each
other's figures much). The stages are timed by wrapping the functions that do them:

* **full model** / **text-only model**: PyMuPDF's layout model on the pages ``layout_route``
  sends to each (``--layout auto``, the default); pages counted per model;
* **converter, rest**: the rest of pymupdf4llm's page parsing (text extraction, Markdown);
* **recovery OCR**: rendering and reading the pages ``page_check`` judges unreadable, and the
  rest of recovering them (removing the unreadable text, writing the lines read);
* **picture OCR**: reading the words in pictures (``picture_words.ocr_lines``), including the
  quick checks that decide whether a picture is read;
* **OCR start-up**: making RapidOCR's engine (once per process that reads anything);
* **start-up**: what comes before the first page is converted: imports, reading the options,
  opening the file, building the layout model;
* **ours, rest**: everything else: the page checks, tables, pictures' renders, sections, the
  study definition, schedules, writing, the review page.

It prints one row per document (CPU seconds per page and each stage's share) and the corpus
totals: what a speed change can hope to save is bounded by the share of the stage it touches.
"""

from __future__ import annotations

import functools
import json
import statistics
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from in_one_process import child_or_pdfs, command_line, parse_with_cli, run_child

STAGES = (
    "start-up",
    "full model",
    "text-only model",
    "converter, rest",
    "recovery OCR",
    "picture OCR",
    "OCR start-up",
    "ours, rest",
)


def child(pdf: str, out: str) -> None:
    """Parse ``pdf`` with the CLI in this process, stages timed; print one JSON line."""
    from clinparser.convert.engines import page_workers
    from clinparser.convert.pages import page_recovery
    from clinparser.convert.pictures import picture_words
    from clinparser.convert.runtime import ocr

    spent: dict[str, float] = {}
    pages: dict[str, int] = {}
    inner: list[float] = []  # per timed call under way, the time of the timed calls inside it

    def timed(name: str, real, count: bool = False):
        """``real``, its own CPU time (less the timed calls inside it) added to ``name``."""

        @functools.wraps(real)  # the parse still finds the model behind a wrapped layout function
        def wrapper(*args, **kwargs):
            start = time.process_time()
            inner.append(0.0)
            try:
                return real(*args, **kwargs)
            finally:
                elapsed = time.process_time() - start
                nested = inner.pop()
                spent[name] = spent.get(name, 0.0) + elapsed - nested
                if inner:
                    inner[-1] += elapsed
                if count:
                    pages[name] = pages.get(name, 0) + 1

        return wrapper

    full, text = page_workers._pinned_layout, page_workers._pinned_text_layout
    page_workers._pinned_layout = lambda: timed("full model", full(), count=True)
    page_workers._pinned_text_layout = lambda: timed("text-only model", text(), count=True)
    page_workers._Converter._parse = staticmethod(timed("converter", page_workers._Converter._parse))
    page_recovery.ocr_page = timed("recovery OCR", page_recovery.ocr_page)
    picture_words.ocr_lines = timed("picture OCR", picture_words.ocr_lines)
    ocr._engine = timed("OCR start-up", ocr._engine)
    first: list[float] = []  # CPU time when the converter first runs: start-up is what came before
    parse = page_workers._Converter._parse

    def first_parse(*args, **kwargs):
        if not first:  # less the timed stages before it (a first page recovered by OCR)
            first.append(time.process_time() - sum(spent.values()))
        return parse(*args, **kwargs)

    page_workers._Converter._parse = staticmethod(first_parse)
    start, total, _, page_count = parse_with_cli(pdf, out)
    stages = {
        "start-up": (first[0] if first else start) - start,
        "full model": spent.get("full model", 0.0),
        "text-only model": spent.get("text-only model", 0.0),
        "converter, rest": spent.get("converter", 0.0),
        "recovery OCR": spent.get("recovery OCR", 0.0),
        "picture OCR": spent.get("picture OCR", 0.0),
        "OCR start-up": spent.get("OCR start-up", 0.0),
    }
    stages["ours, rest"] = total - sum(stages.values())
    print(json.dumps({"pages": page_count, "cpu": total, "stages": stages, "model_pages": pages}))


def measure(pdf: Path) -> dict:
    return run_child(__file__, pdf)


def main(argv=None) -> int:
    ap = command_line(__doc__.split("\n\n")[0], child_args=2)
    ap.add_argument("--jobs", type=int, default=2, help="documents measured side by side (each in its own process)")
    args = ap.parse_args(argv)
    pdfs = child_or_pdfs(args, child)
    if isinstance(pdfs, int):
        return pdfs
    started = time.perf_counter()
    with ThreadPoolExecutor(max(1, args.jobs)) as pool:
        rows = list(pool.map(measure, pdfs))
    header = [
        "document",
        "pages",
        "CPU s/page",
        *[f"{s} %" for s in STAGES],
        "full / text-only pages",
        "full model s/page",
        "text-only s/page",
    ]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    totals = {s: 0.0 for s in STAGES}
    for pdf, row in zip(pdfs, rows):
        for s in STAGES:
            totals[s] += row["stages"][s]
        mp = row["model_pages"]
        full, text = mp.get("full model", 0), mp.get("text-only model", 0)
        shares = [f"{100 * row['stages'][s] / row['cpu']:.0f}" for s in STAGES]
        per_full = f"{row['stages']['full model'] / full:.3f}" if full else "-"
        per_text = f"{row['stages']['text-only model'] / text:.3f}" if text else "-"
        print(
            f"| {pdf.stem} | {row['pages']} | {row['cpu'] / row['pages']:.3f} | "
            + " | ".join(shares)
            + f" | {full} / {text} | {per_full} | {per_text} |"
        )
    cpu = sum(r["cpu"] for r in rows)
    pages = sum(r["pages"] for r in rows)
    print(
        f"| **all {len(rows)}** | {pages} | {cpu / pages:.3f} | "
        + " | ".join(f"{100 * totals[s] / cpu:.0f}" for s in STAGES)
        + " | | | |"
    )
    print()
    print(f"CPU seconds in all: {cpu:.1f}; by stage: " + ", ".join(f"{s} {totals[s]:.1f}" for s in STAGES))
    print(
        f"median CPU s/page {statistics.median(r['cpu'] / r['pages'] for r in rows):.3f}; "
        f"{time.perf_counter() - started:.0f} s wall"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
