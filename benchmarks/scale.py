"""Scale: a generated N-page protocol parses; seconds per page and peak memory.

    python benchmarks/scale.py [--pages 1000] [--keep DIR]

Generates a protocol of N pages (a chapter every 11 pages, so 1,000 pages stay within the
two-digit chapter numbers protocols use; a numbered sub-section on every page, a level-3
heading every other page, prose, and a ruled table every 11th page), parses it
with the CLI in a child process, and reports pages, seconds, seconds per page, the child's peak
resident memory, and whether every generated section was found.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pymupdf

SENTENCE = "Participants in cohort {k} receive the assigned dose on day {d} and are followed for safety. "


def make(path: Path, pages: int) -> list[str]:
    """Write the PDF; return the section numbers it holds, in order."""
    doc, numbers = pymupdf.open(), []
    for p in range(pages):
        page = doc.new_page(width=612, height=792)
        page.insert_text((72, 40), "SCALE-001 Clinical Study Protocol", fontsize=8)
        page.insert_text((280, 770), f"Page {p + 1} of {pages}", fontsize=8)
        chapter, sub = p // 11 + 1, p % 11 + 1
        y = 80
        if sub == 1:
            page.insert_text((72, y), f"{chapter} CHAPTER {chapter} OF THE PROTOCOL", fontname="hebo", fontsize=14)
            numbers.append(str(chapter))
            y += 30
        page.insert_text((72, y), f"{chapter}.{sub} Topic {sub} of Chapter {chapter}", fontname="hebo", fontsize=12)
        numbers.append(f"{chapter}.{sub}")
        y += 20
        text = "".join(SENTENCE.format(k=p * 7 + i, d=i + 1) for i in range(12))
        page.insert_textbox(pymupdf.Rect(72, y, 540, y + 200), text, fontsize=10)
        y += 210
        if p % 2 == 0:
            page.insert_text((72, y), f"{chapter}.{sub}.1 Details of Topic {sub}", fontname="hebo", fontsize=11)
            numbers.append(f"{chapter}.{sub}.1")
            page.insert_textbox(pymupdf.Rect(72, y + 15, 540, y + 150), text, fontsize=10)
            y += 160
        if sub == 5:
            _table(page, y, p)
    doc.save(path, garbage=3, deflate=True)
    return numbers


def _table(page, y, p):
    cols, rows, w, h = 4, 6, 117, 16
    for r in range(rows + 1):
        page.draw_line((72, y + r * h), (72 + cols * w, y + r * h))
    for c in range(cols + 1):
        page.draw_line((72 + c * w, y), (72 + c * w, y + rows * h))
    for r in range(rows):
        for c in range(cols):
            label = ["Visit", "Day", "Window", "Procedure"][c] if r == 0 else f"R{r}C{c}-{p}"
            page.insert_text((76 + c * w, y + r * h + 11), label, fontsize=8)


def flat(nodes):
    for n in nodes:
        yield n
        yield from flat(n["subsections"])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pages", type=int, default=1000)
    ap.add_argument("--keep", type=Path, help="keep the generated PDF and output here")
    args = ap.parse_args(argv)
    work = args.keep or Path(tempfile.mkdtemp())
    work.mkdir(parents=True, exist_ok=True)
    pdf = work / f"scale_{args.pages}.pdf"
    expected = make(pdf, args.pages)
    t0 = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "clinparser", str(pdf), "-o", str(work / "out"), "--quiet"],
        capture_output=True,
        text=True,
    )
    seconds = time.perf_counter() - t0
    if proc.returncode:
        print(proc.stderr, file=sys.stderr)
        return proc.returncode
    peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    result = json.loads((Path(proc.stdout.strip()) / "document.json").read_text(encoding="utf-8"))
    found = [n["number"] for n in flat(result["toc"])]
    print("| pages | seconds | s/page | peak RSS (MB) | sections expected | found | exact |")
    print("|---|---|---|---|---|---|---|")
    print(
        f"| {args.pages} | {seconds:.1f} | {seconds / args.pages:.3f} | {peak_mb:.0f} | {len(expected)} | {len(found)} "
        f"| {found == expected} |"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
