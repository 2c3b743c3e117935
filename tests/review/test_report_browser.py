"""report.html in a real browser: headless Chromium (the OS package, which .ci/run installs)
driven by Playwright, every request recorded and anything outside the output folder blocked.
Skipped with a reason where there is no browser."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

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


def _chromium() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if not path:
        pytest.skip("no chromium on PATH (apt-get install chromium; .ci/run does): the report's browser tests need one")
    return path


@pytest.fixture(scope="module")
def browser():
    executable = _chromium()
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install '.[dev]')")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def protocol_002(generator, tmp_path_factory):
    """The example with a numbering gap (8.1 then 8.3), parsed: (truth, output folder)."""
    from clinparser import PDFParser

    folder = tmp_path_factory.mktemp("p002")
    pdf = folder / "protocol_002.pdf"
    truth = generator.build_named("protocol_002", pdf)
    parser = PDFParser()
    parser.parse(pdf, output_dir=folder / "out")
    return truth, parser.last_output


class Opened:
    """The report open in a fresh page, with what it asked for and what it complained about."""

    def __init__(self, browser, folder: Path):
        self.root = folder.resolve().as_uri() + "/"
        self.context = browser.new_context(viewport={"width": 1366, "height": 768})
        self.requests, self.errors = [], []
        self.context.route("**/*", self._route)
        self.page = self.context.new_page()
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.goto(self.root + "report.html")
        self.page.wait_for_selector("body[data-ready='1']")

    def _route(self, route):
        if route.request.url.startswith(self.root):
            route.continue_()
        else:
            route.abort()  # recorded by the request listener all the same

    def row(self, number: str):
        return self.page.locator("#tree li").filter(has=self.page.locator(".num", has_text=_exact(number)))

    def selected_number(self) -> str:
        return self.page.locator("#tree li.selected .num").inner_text()

    def in_pages_view(self, locator) -> bool:
        box, pane = locator.bounding_box(), self.page.locator("#pages").bounding_box()
        return box is not None and pane["y"] <= box["y"] and box["y"] + 10 <= pane["y"] + pane["height"]

    def close(self):
        self.context.close()


def _exact(number: str):
    import re

    return re.compile(rf"^\s*{re.escape(number)}\s*$")


def _numbers(sections):
    for s in sections:
        yield s["number"]
        yield from _numbers(s["subsections"])


@pytest.fixture
def opened(browser, protocol_002):
    report = Opened(browser, protocol_002[1])
    yield report
    report.close()


def test_it_loads_offline_with_no_error_and_no_request_outside_the_output_folder(opened):
    page = opened.page
    for k in range(page.locator(".page").count()):  # scroll through, so every lazy picture loads
        page.locator(".page").nth(k).scroll_into_view_if_needed()
    for _ in range(100):  # polled here: the page's CSP forbids wait_for_function's eval
        if page.locator(".page img").evaluate_all("imgs => imgs.every(i => i.complete && i.naturalWidth > 0)"):
            break
        page.wait_for_timeout(100)
    assert page.locator(".page img").evaluate_all("imgs => imgs.every(i => i.complete && i.naturalWidth > 0)")
    assert opened.errors == []
    assert opened.requests and all(url.startswith(opened.root) for url in opened.requests), opened.requests
    assert any(url.endswith("pages/page_0010.png") for url in opened.requests)


def test_every_section_of_the_example_is_in_the_tree(opened, protocol_002):
    truth, _ = protocol_002
    shown = {n.strip().rstrip(".").lower() for n in opened.page.locator("#tree .num").all_inner_texts()}
    wanted = {n.rstrip(".").lower() for n in _numbers(truth["sections"])}
    assert wanted <= shown, wanted - shown


def test_clicking_3_1_shows_its_text_and_scrolls_its_first_page_into_view_with_its_start_marked(opened, protocol_002):
    truth, _ = protocol_002
    section = next(s for s in truth["sections"][2]["subsections"] if s["number"] == "3.1")
    opened.row("3.1").click()
    assert opened.page.locator("#content h2").inner_text().startswith("3.1")
    assert section["paragraphs"][0][:60] in opened.page.locator("#content .body").inner_text()
    start = opened.page.locator(".box.start.sel")
    assert start.count() == 1
    assert start.evaluate("e => e.parentElement.id") == f"page-{section['page']}"
    assert opened.in_pages_view(start)


def test_clicking_a_table_box_selects_the_section_holding_it(opened, protocol_002):
    truth, _ = protocol_002
    holders = {n for n, s in _walk(truth["sections"]) if s.get("tables")}
    boxes = opened.page.locator(".box.table")
    assert boxes.count() >= len(holders)
    chosen = set()
    for k in range(boxes.count()):
        boxes.nth(k).scroll_into_view_if_needed()
        boxes.nth(k).click()
        chosen.add(opened.selected_number())
        assert "sel" in boxes.nth(k).get_attribute("class")  # the clicked box is its section's
    assert chosen == holders


def _walk(sections):
    for s in sections:
        yield s["number"], s
        yield from _walk(s["subsections"])


def test_the_numbering_gap_in_the_diagnostics_jumps_to_its_page(opened, protocol_002):
    truth, _ = protocol_002
    page_of = dict((n, s["page"]) for n, s in _walk(truth["sections"]))
    opened.page.click("#tab-diag")
    entry = opened.page.locator("#diag li").filter(has_text="numbering gap")
    assert entry.count() == 1 and "8.3" in entry.inner_text()
    opened.page.locator("#pages").evaluate("p => p.scrollTo(0, 0)")
    entry.click()
    target = opened.page.locator(".page.target")
    assert target.get_attribute("id") == f"page-{page_of['8.3']}"
    assert opened.in_pages_view(target) and opened.selected_number() == "8.3"


def test_arrow_keys_walk_the_sections_in_order(opened):
    opened.row("2.2").click()
    opened.page.keyboard.press("ArrowDown")
    assert opened.selected_number() == "2.2.1"
    opened.page.keyboard.press("k")
    opened.page.keyboard.press("k")
    assert opened.selected_number() == "2.1"


def test_the_filter_keeps_matching_sections_only(opened):
    opened.page.fill("#filter", "criteria")
    visible = [t for t in opened.page.locator("#tree li:visible .title").all_inner_texts()]
    assert visible and all("criteria" in t.lower() for t in visible)


def test_long_titles_do_not_break_the_layout(opened):
    """protocol_002 has a 120-character section title (6.1): it is cut in the tree, wrapped in
    the content, and nothing scrolls sideways."""
    page = opened.page
    opened.row("6.1").click()
    assert "Investigational Product" in page.locator("#content h2").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    for pane in ("#tree", "#content"):
        assert page.locator(pane).evaluate("e => e.scrollWidth <= e.clientWidth"), pane


@pytest.fixture(scope="module")
def with_study(protocol_002, tmp_path_factory):
    """protocol_002's output with a study definition in document.json (read here when the parse
    did not write one), one criterion given markup-like text, and its report rebuilt."""
    import json

    from clinparser.review.report import build_report
    from clinparser.study.definition import read_study

    folder = tmp_path_factory.mktemp("p002_study") / "out"
    shutil.copytree(protocol_002[1], folder)
    document = json.loads((folder / "document.json").read_text(encoding="utf-8"))
    blocks = json.loads((folder / "blocks.json").read_text(encoding="utf-8"))
    study = document.get("study") or read_study(document, blocks)
    criterion = next(c for c in study["eligibility"] if c["category"] == "exclusion" and c["boxes"])
    criterion["text"] += " <b>not bold</b> & <i>kept</i>"
    document["study"] = study
    (folder / "document.json").write_text(json.dumps(document), encoding="utf-8")
    build_report(folder)
    return criterion, folder


def test_clicking_a_criterion_in_the_study_tab_lights_its_boxes_on_its_page(browser, with_study):
    criterion, folder = with_study
    opened = Opened(browser, folder)
    try:
        page = opened.page
        assert page.locator("#tab-study").is_visible() and page.locator("#study").is_hidden()
        page.click("#tab-study")
        assert page.locator("#study").is_visible() and page.locator("#tree-pane").is_hidden()
        assert page.locator("#study h3", has_text="Inclusion criteria").count() == 1
        assert page.locator(".box.study:visible").count() == 0  # lit only when chosen
        item = page.locator("#study li.criterion").filter(has_text="not bold")
        assert item.count() == 1
        assert "<b>not bold</b> & <i>kept</i>" in item.locator(".txt").inner_text()  # text, not markup
        assert page.locator("#study b, #study i").count() == 0
        page.locator("#pages").evaluate("p => p.scrollTo(0, 0)")
        item.click()
        lit = page.locator(".box.study.sel")
        assert lit.count() == len(criterion["boxes"]) and lit.first.is_visible()
        assert lit.first.evaluate("e => e.parentElement.id") == f"page-{criterion['boxes'][0]['page']}"
        assert opened.in_pages_view(lit.first)
        ident = criterion["identifier"].rstrip(".)")
        assert page.locator("#content h2").inner_text() == f"Exclusion criterion {ident}"
        assert "<b>not bold</b>" in page.locator("#content .body").inner_text()
        page.locator("#content .subs a").click()  # to the section it was read from
        assert opened.selected_number().rstrip(".") == criterion["section"].rstrip(".")
        assert page.locator(".box.study.sel").count() == 0
        assert opened.errors == [] and all(url.startswith(opened.root) for url in opened.requests)
    finally:
        opened.close()


def test_clicking_a_design_item_in_the_study_tab_lights_where_it_was_read(browser, with_study):
    import json

    from clinparser.study.design.lines import design_lines

    _, folder = with_study
    design = json.loads((folder / "document.json").read_text(encoding="utf-8"))["study"]["design"]
    lines = design_lines(design)
    chosen = next(
        k for k, line in enumerate(lines) if line.item.get("boxes")
    )  # the example prints its enrollment, ages ...
    line = lines[chosen]
    opened = Opened(browser, folder)
    try:
        page = opened.page
        page.click("#tab-study")
        assert page.locator("#study h3", has_text=f"Study design ({len(lines)})").count() == 1
        items = page.locator("#study li.design")
        assert items.count() == len(lines)
        items.nth(chosen).click()
        lit = page.locator(".box.study.sel")
        assert lit.count() == len(line.item["boxes"]) and lit.first.is_visible()
        assert lit.first.evaluate("e => e.parentElement.id") == f"page-{line.item['boxes'][0]['page']}"
        assert page.locator("#content h2").inner_text() == line.label
        body = page.locator("#content .body").inner_text()
        assert line.text in body and " ".join(line.item["printed"].split()) in body
        assert opened.errors == []
    finally:
        opened.close()
