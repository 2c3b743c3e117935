"""Make the README's two screenshots of report.html, in headless Chromium (the OS's package):

docs/report_section.png      a section selected on the generated protocol_001
docs/report_diagnostics.png  the diagnostics list of protocol_002 (it has a numbering gap)

python docs/make_screenshots.py
"""

from __future__ import annotations

import re
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

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


def parse(name: str, tmp: Path) -> Path:
    from clinparser import PDFParser

    parser = PDFParser()
    parser.parse(ROOT / "examples" / "input" / f"{name}.pdf", output_dir=tmp / name)
    return parser.last_output


def save(page, name: str) -> None:
    """The screenshot in 256 colours: a small PNG for the README."""
    import io

    from PIL import Image

    shot = Image.open(io.BytesIO(page.screenshot(type="png"))).convert("RGB")
    shot.quantize(256, method=Image.Quantize.MEDIANCUT).save(ROOT / "docs" / name, optimize=True)


def main() -> None:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        first, second = parse("protocol_001", Path(tmp)), parse("protocol_002", Path(tmp))
        browser = p.chromium.launch(executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1366, "height": 768})
        page.goto((first / "report.html").as_uri())
        page.wait_for_selector("body[data-ready='1']")
        page.locator("#tree li").filter(has=page.locator(".num", has_text=re.compile(r"^4\.1$"))).click()
        page.wait_for_timeout(400)
        save(page, "report_section.png")
        page.goto((second / "report.html").as_uri())
        page.wait_for_selector("body[data-ready='1']")
        page.click("#tab-diag")
        page.locator("#diag li").filter(has_text="numbering gap").click()
        page.wait_for_timeout(400)
        save(page, "report_diagnostics.png")
        browser.close()


if __name__ == "__main__":
    main()
