"""What report.html costs, per corpus document: its size, the seconds to build it against the
seconds of the parse, and the time to first render in headless Chromium.

Each document is parsed once without the report (the parse's seconds), then the report is built
from that output folder and the source (its seconds: page pictures and the HTML), then opened
from the file system in the OS's Chromium, every non-file request aborted, until the tree is on
screen. Budget (issue 16): under 10 % of the parse, under 10 MB for 100 pages.

    python benchmarks/report.py [--corpus ../shared/corpus] [--only NAME ...] [--no-browser]

Prints a Markdown table. Needs Playwright and a chromium on PATH for the render column.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from clinparser import PDFParser  # noqa: E402
from clinparser.review.page_pictures import PAGES_DIR  # noqa: E402
from clinparser.review.report import REPORT_FILE, build_report  # noqa: E402

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def folder_size(folder: Path) -> tuple[int, int]:
    """Bytes of report.html, and of report.html plus its page pictures."""
    html = (folder / REPORT_FILE).stat().st_size
    pages = sum(p.stat().st_size for p in (folder / PAGES_DIR).glob("*")) if (folder / PAGES_DIR).is_dir() else 0
    return html, html + pages


class Browser:
    def __init__(self):
        from playwright.sync_api import sync_playwright

        executable = shutil.which("chromium") or shutil.which("chromium-browser")
        if not executable:
            raise SystemExit("no chromium on PATH: apt-get install chromium, or pass --no-browser")
        self._pw = sync_playwright().start()
        self.browser = self._pw.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)

    def first_render_ms(self, report: Path) -> tuple[float, int]:
        """Milliseconds from navigation to the tree being built and painted; requests outside
        the output folder (must be 0)."""
        context = self.browser.new_context(viewport={"width": 1366, "height": 768})
        root = report.parent.resolve().as_uri() + "/"
        outside = []

        def route(r):
            if r.request.url.startswith(root):
                r.continue_()
            else:
                outside.append(r.request.url)
                r.abort()

        context.route("**/*", route)
        page = context.new_page()
        page.goto(report.resolve().as_uri())
        page.wait_for_selector("body[data-ready='1']")
        ms = page.evaluate(
            "() => new Promise(done => requestAnimationFrame(() => "
            "requestAnimationFrame(() => done(performance.now()))))"
        )
        context.close()
        return ms, len(outside)

    def close(self):
        self.browser.close()
        self._pw.stop()


def measure(path: Path, work: Path, browser) -> dict:
    parser = PDFParser()
    start = time.perf_counter()
    parser.parse(path, output_dir=work, save_report=False)
    parse_s = time.perf_counter() - start
    folder = parser.last_output
    start = time.perf_counter()
    build_report(folder, path)
    report_s = time.perf_counter() - start
    html, total = folder_size(folder)
    row = {
        "document": path.name,
        "pages": parser_pages(folder),
        "parse_s": parse_s,
        "report_s": report_s,
        "html_mb": html / 1e6,
        "total_mb": total / 1e6,
    }
    if browser:
        row["render_ms"], row["outside"] = browser.first_render_ms(folder / REPORT_FILE)
    shutil.rmtree(folder)
    return row


def parser_pages(folder: Path) -> int:
    import json

    return json.loads((folder / "document.json").read_text(encoding="utf-8"))["metadata"]["page_count"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    ap.add_argument("--only", nargs="*", help="document names (file names or stems)")
    ap.add_argument("--no-browser", action="store_true", help="skip the time to first render")
    args = ap.parse_args()
    docs = sorted(p for p in args.corpus.glob("*") if p.suffix.lower() in (".pdf", ".docx"))
    if args.only:
        docs = [p for p in docs if p.name in args.only or p.stem in args.only]
    if not docs:
        raise SystemExit(f"no documents in {args.corpus}")
    browser = None if args.no_browser else Browser()
    print(
        "| document | pages | parse s | report s | report/parse | report.html MB | with pages MB | MB per 100 pages "
        "| first render ms | requests outside |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for path in docs:
                r = measure(path, Path(tmp), browser)
                per100 = f"{100 * r['total_mb'] / r['pages']:.2f}" if r["pages"] else "-"  # a DOCX has no pages
                render = f"{r['render_ms']:.0f} | {r['outside']}" if browser else "- | -"
                print(
                    f"| {r['document']} | {r['pages']} | {r['parse_s']:.1f} | {r['report_s']:.2f} "
                    f"| {r['report_s'] / r['parse_s']:.3f} "
                    f"| {r['html_mb']:.2f} | {r['total_mb']:.2f} | {per100} | {render} |",
                    flush=True,
                )
    finally:
        if browser:
            browser.close()


if __name__ == "__main__":
    main()
