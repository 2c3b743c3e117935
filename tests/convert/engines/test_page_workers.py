"""Layout worker processes: the same bytes for any worker count, pinned sessions, clear errors."""

from __future__ import annotations

import functools
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pymupdf
import pytest
from helpers import Progress
from scoring.tree import flatten

from clinparser import PDFParser
from clinparser.convert.engines import page_workers
from clinparser.convert.options import ParseOptions
from clinparser.convert.pages.orientation import upright
from clinparser.convert.runtime import onnx_sessions
from clinparser.errors import ConversionError
from clinparser.model import Block, PageRecord
from clinparser.workers import cores


def output_files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def generated_protocol(tmp_path_factory, generator, purpose: str):
    """A fresh protocol_001 in its own folder, opened for a fixture to change."""
    folder = tmp_path_factory.mktemp(purpose)
    pdf = folder / "protocol_001.pdf"
    generator.build_named("protocol_001", pdf)
    return folder, pymupdf.open(pdf)


@pytest.fixture(scope="module")
def rotated_example(tmp_path_factory, generator):
    """protocol_001 with its figure page (8) turned 90 degrees, as scanned landscape pages are."""
    folder, doc = generated_protocol(tmp_path_factory, generator, "rotated")
    assert doc[7].get_images(), "the generator moved its figure off page 8; update this fixture"
    doc[7].set_rotation(90)
    rotated = folder / "rotated.pdf"
    doc.save(rotated)
    return rotated


def test_same_bytes_for_any_worker_count(rotated_example, tmp_path, monkeypatch):
    # One page per task makes 14 tasks of the 14-page example, so that 2 and 3 workers really
    # share the pages out differently (tasks are cut in this process, so the patch holds).
    monkeypatch.setattr(page_workers, "UNIT_PAGES", 1)
    outputs, progress = {}, {}
    for workers in (1, 2, 3):
        parser, pages = PDFParser(workers=workers), Progress()
        parser.parse(rotated_example, output_dir=tmp_path / f"w{workers}", reporter=pages)
        outputs[workers] = output_files(parser.last_output)
        progress[workers] = pages.pages_seen
    assert "document.json" in outputs[1] and any(name.endswith(".png") for name in outputs[1])
    assert outputs[2] == outputs[1]
    assert outputs[3] == outputs[1]
    assert len(progress[1]) == 14  # one report per page done here
    for seen in progress.values():  # growing to the total, however the pages were shared out
        assert seen[-1] == (14, 14) and len(seen) >= 2
        assert [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_headings_are_ranked_as_one_call_over_their_group_of_pages_ranks_them(example):
    """2-page tasks plus rank_headings give what pymupdf4llm gives for each group of 8 pages
    converted at once, the last, partial group included."""
    import contextlib
    import io

    import pymupdf4llm

    pdf, _ = example
    count = pymupdf.open(pdf).page_count
    assert count > page_workers.HEADING_RANK_PAGES, "the example no longer has a second, partial group"
    converter = page_workers._Converter(str(pdf), ParseOptions(layout="full"))
    with onnx_sessions.single_threaded_sessions(), page_workers._using(page_workers._pinned_layout()):
        pages = [page for unit in page_workers.units_of(count) for page in converter.convert(unit)]
        per_page_text = [b.text for blocks, _, _ in pages for b in blocks]
        ours = page_workers.rank_headings(pages)
        theirs = []
        for start in range(0, count, page_workers.HEADING_RANK_PAGES):
            group = list(range(start, min(count, start + page_workers.HEADING_RANK_PAGES)))
            with contextlib.redirect_stdout(io.StringIO()):
                chunks = pymupdf4llm.to_markdown(pymupdf.open(pdf), pages=group, page_chunks=True, use_ocr=False)
            theirs += [b for chunk in chunks for b in page_workers.chunk_blocks(chunk)]
    assert [(b.page, b.kind, b.bbox, b.text) for b in ours] == [(b.page, b.kind, b.bbox, b.text) for b in theirs]
    changed = sum(a != b.text for a, b in zip(per_page_text, ours))
    assert changed >= 3, "the example no longer has headings whose level depends on other pages"


def test_rank_headings_follows_pymupdf4llm_rules():
    def page(size):  # a page with one heading: level 1 on its own
        return [Block(page=1, bbox=(0, 0, 1, 1), kind="heading", text="# H")], [(size, 1)], PageRecord(1, "text")

    sizes = (30, 28, 26, 24, 22, 20, 18)  # seven sizes: the smallest two share level 6
    ranked = page_workers.rank_headings([page(s) for s in sizes])  # one per page: each was level 1
    assert [b.text for b in ranked] == ["# H", "## H", "### H", "#### H", "##### H", "###### H", "###### H"]
    assert page_workers._relevel("H", 1, 2) == "H"  # no marker where one was expected: left alone
    assert page_workers._relevel("# #2 H", 1, 3) == "### #2 H"


PYMUPDF_KEEPS_ITS_OWN_MODEL = textwrap.dedent(
    """
    import sys

    if __name__ == "__main__":
        if sys.argv[2] == "imported-first":
            import pymupdf
            before = pymupdf._get_layout
        from clinparser import PDFParser

        PDFParser(workers=1).parse(sys.argv[1], output_dir=None)
        import onnxruntime, pymupdf, pymupdf4llm

        assert onnxruntime.InferenceSession.__name__ == "InferenceSession", "the pin outlived the parse"
        if sys.argv[2] == "imported-first":
            assert pymupdf._get_layout is before, "the caller's layout function was replaced"
        else:  # PyMuPDF's own model, built unpinned when first asked for
            assert pymupdf._get_layout.__name__ == "_default_layout", pymupdf._get_layout
        chunks = pymupdf4llm.to_markdown(pymupdf.open(sys.argv[1]), pages=[0], page_chunks=True, use_ocr=False)
        assert chunks[0]["page_boxes"], "PyMuPDF's own layout no longer works"
        print("ok")
    """
)


@pytest.mark.parametrize("order", ["imported-first", "imported-by-us"])
def test_pymupdf_keeps_its_own_layout_model_after_a_parse(example, tmp_path, order):
    pdf, _ = example
    script = tmp_path / "after_a_parse.py"
    script.write_text(PYMUPDF_KEEPS_ITS_OWN_MODEL)
    proc = subprocess.run([sys.executable, str(script), str(pdf), order], capture_output=True, text=True)
    assert proc.returncode == 0 and proc.stdout.strip().endswith("ok"), proc.stderr[-2000:]


def test_rotated_page_keeps_its_figure_where_it_is_drawn(rotated_example):
    result = PDFParser(workers=2).parse(rotated_example, output_dir=None)
    images = [img for sec in flatten(result["toc"] + result["non_toc"]) for img in sec["images"] if img["page"] == 8]
    assert len(images) == 1, "the figure on the rotated page was lost or split"
    page = pymupdf.open(rotated_example)[7]
    # The coordinates the output uses: the page as it is read, its text left to right (the
    # fixture's /Rotate 90 shows it sideways; it is turned back to portrait to be read).
    assert upright(page) == 270 and page.rect.width < page.rect.height
    drawn = pymupdf.Rect(page.get_image_info()[0]["bbox"])
    found = pymupdf.Rect(images[0]["bbox"])
    assert (found & drawn).get_area() >= 0.8 * drawn.get_area(), (found, drawn)
    assert (found & page.rect) == found


def test_sessions_made_under_the_pin_are_single_threaded():
    import onnxruntime
    import pymupdf.layout

    model = Path(pymupdf.layout.__file__).parent / "resources" / "onnx" / "feature_imf1.onnx"
    real = onnxruntime.InferenceSession
    with onnx_sessions.single_threaded_sessions():
        session = onnxruntime.InferenceSession(str(model), providers=["CPUExecutionProvider"])
    options = session.get_session_options()
    assert (options.intra_op_num_threads, options.inter_op_num_threads) == (1, 1)
    assert options.enable_cpu_mem_arena
    assert isinstance(session, real)
    assert onnxruntime.InferenceSession is real, "the pin must not outlive its block"


def test_units_and_the_default_worker_count():
    assert page_workers.units_of(5) == [(0, 1), (2, 3), (4,)]
    # With other processes, the last pages go one per task (2 per process).
    assert page_workers.units_of(10, 2) == [(0, 1), (2, 3), (4, 5), (6,), (7,), (8,), (9,)]
    assert page_workers.units_of(11, 2) == [(0, 1), (2, 3), (4, 5), (6,), (7,), (8,), (9,), (10,)]
    assert page_workers.units_of(3, 2) == [(0,), (1,), (2,)]
    assert 1 <= PDFParser().options.workers == cores.default_workers() <= cores.available_cores()
    with pytest.raises(ValueError, match="at least 1"):
        PDFParser(workers=0)


class HeldPool:
    """A stand-in for the process pool whose tasks finish only when the test says so."""

    def __init__(self):
        import threading

        self.lock = threading.Lock()
        self.running: list = []
        self.log: list[tuple[tuple[int, ...], int]] = []  # (unit, tasks already at the workers)

    def submit(self, fn, unit):
        from concurrent.futures import Future

        with self.lock:
            self.log.append((unit, len(self.running)))
            future = Future()
            self.running.append((future, unit))
            return future

    def finish_oldest(self):
        with self.lock:
            future, unit = self.running.pop(0)
        future.set_result([([], [])] * len(unit))  # no blocks, no headings on its pages


def test_tail_tasks_go_only_to_a_free_worker_not_behind_a_running_one():
    import time

    tasks = page_workers._Tasks(page_workers.units_of(10, 2))
    pool = HeldPool()
    feeder = page_workers._Feeder(pool, 1, tasks)

    def queued_all_it_will():  # as many tasks out as it keeps, or none left to hand out
        return len(pool.running) >= feeder._depth() or tasks._next == len(tasks.units)

    deadline = time.monotonic() + 10
    while not feeder.finished.qsize() == 7 and time.monotonic() < deadline:
        while not queued_all_it_will() and time.monotonic() < deadline:
            time.sleep(0.01)
        if pool.running:
            pool.finish_oldest()
        time.sleep(0.01)
    feeder.thread.join(5)
    assert feeder.error is None and not feeder.thread.is_alive()
    units = [unit for unit, _ in pool.log]
    assert units == page_workers.units_of(10, 2), "every unit once, in order"
    queued_behind = dict(pool.log)
    assert queued_behind[(2, 3)] == 1, "a 2-page task waits at the worker behind the running one"
    assert all(queued_behind[(p,)] == 0 for p in range(6, 10)), pool.log


@pytest.mark.parametrize("workers", [1, 2])
def test_a_file_that_vanished_is_a_conversion_error(tmp_path, workers):
    with page_workers.LayoutWorkers(str(tmp_path / "gone.pdf"), ParseOptions(layout="full", workers=workers)) as layout:
        with pytest.raises(ConversionError, match="cannot open the file"):
            layout.convert(16)


IN_A_DAEMON = textwrap.dedent(
    """
    import json, multiprocessing, sys

    def parse(path):
        from clinparser import PDFParser

        result = PDFParser(workers=2).parse(path, output_dir=None)
        return len(result["toc"]), result["metadata"]["warnings"]

    if __name__ == "__main__":
        # A pool's workers are daemonic, and daemonic processes may not start children.
        with multiprocessing.get_context("spawn").Pool(1) as pool:
            print(json.dumps(pool.apply(parse, (sys.argv[1],))))
    """
)


def test_parse_inside_a_process_pool_still_uses_worker_processes(example, tmp_path):
    pdf, _ = example
    script = tmp_path / "in_a_daemon.py"
    script.write_text(IN_A_DAEMON)
    proc = subprocess.run([sys.executable, str(script), str(pdf)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-2000:]
    sections, warnings = json.loads(proc.stdout.strip().splitlines()[-1])
    assert sections == 10
    # Worker processes are not multiprocessing children, so a daemonic process may start them.
    assert not any("could not start layout worker processes" in w for w in warnings), warnings


def test_an_error_terminates_the_workers_at_once(example):
    import time

    pdf, _ = example
    with pytest.raises(RuntimeError):
        with page_workers.LayoutWorkers(str(pdf), ParseOptions(layout="full", workers=2)) as layout:
            processes = list(layout.pool.processes)
            layout.pool.submit(time.sleep, 60)  # a long task, which waiting would sit through
            started = time.monotonic()
            raise RuntimeError("the caller failed, e.g. too many pages")
    assert time.monotonic() - started < 20, "leaving waited for the running task"
    assert processes and all(p.poll() is not None for p in processes)


@pytest.fixture(scope="module")
def scanned_example(tmp_path_factory, generator):
    """protocol_001 with page 10 replaced by a picture of itself: a page only OCR can read."""
    folder, doc = generated_protocol(tmp_path_factory, generator, "scanned")
    picture = doc[9].get_pixmap(dpi=150)
    width, height = doc[9].rect.width, doc[9].rect.height
    doc.delete_page(9)
    page = doc.new_page(9, width=width, height=height)
    page.insert_image(page.rect, pixmap=picture)
    scanned = folder / "scanned.pdf"
    doc.save(scanned)
    return scanned


def test_recovery_gives_the_same_bytes_for_any_worker_count(scanned_example, tmp_path):
    """The default (--ocr auto) recovers the scanned page in whichever process converts it."""
    outputs = {}
    for workers in (1, 2):
        parser = PDFParser(workers=workers)
        parser.parse(scanned_example, output_dir=tmp_path / f"w{workers}")
        outputs[workers] = output_files(parser.last_output)
    assert outputs[2] == outputs[1]
    blocks = json.loads(outputs[1]["blocks.json"])
    page_10 = " ".join(b["text"] for b in blocks if b["page"] == 10)
    assert len(page_10.split()) > 20, "OCR did not read the scanned page"
    ledger = json.loads(outputs[1]["document.json"])["metadata"]["pages"]
    assert [r["page"] for r in ledger if r["source"] == "ocr"] == [10]


def test_cli_rejects_zero_workers(example, tmp_path):
    pdf, _ = example
    proc = subprocess.run(
        [sys.executable, "-m", "clinparser", str(pdf), "--workers", "0", "-o", str(tmp_path)],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2 and "--workers" in proc.stderr
    assert not any(tmp_path.iterdir())


def test_form_fields_are_read_once_per_document_not_once_per_task(example, tmp_path, monkeypatch):
    from pymupdf4llm.helpers import utils

    pdf, _ = example
    doc = pymupdf.open(pdf)
    widget = pymupdf.Widget()
    widget.field_name, widget.field_type, widget.rect = (
        "site",
        pymupdf.PDF_WIDGET_TYPE_TEXT,
        pymupdf.Rect(400, 20, 500, 40),
    )
    doc[0].add_widget(widget)
    form = tmp_path / "form.pdf"
    doc.save(form)
    reads = []
    real = utils.extract_form_fields_with_pages

    def counting(d, xrefs=False):
        reads.append(1)
        return real(d, xrefs=xrefs)

    monkeypatch.setattr(utils, "extract_form_fields_with_pages", counting)
    converter = page_workers._Converter(str(form), ParseOptions(layout="full"))
    with onnx_sessions.single_threaded_sessions(), page_workers._using(page_workers._pinned_layout()):
        pages = [page for unit in page_workers.units_of(6) for page in converter.convert(unit)]
    assert len(pages) == 6 and len(reads) == 1
    assert utils.extract_form_fields_with_pages is counting, "the library's function was not put back"


def test_a_worker_killed_mid_run_is_one_clear_error(example):
    import os
    import signal

    pdf, _ = example
    with page_workers.LayoutWorkers(str(pdf), ParseOptions(layout="full", workers=2)) as layout:
        children = list(layout.pool.processes)

        def kill_the_worker(done, total):  # called here, after this process's first task
            for child in children:
                if child.poll() is None:
                    os.kill(child.pid, signal.SIGKILL)

        with pytest.raises(ConversionError, match="a layout worker process died"):
            layout.convert(14, kill_the_worker)


def test_the_text_only_layout_model_reads_grids_with_the_full_models_extractor():
    from clinparser.convert.engines import page_workers

    full, text = page_workers._pinned_layout(), page_workers._pinned_text_layout()
    assert text.__self__._model.feature_set_name == "rf" and full.__self__._model.feature_set_name != "rf"
    assert text.__self__._model.table_grid_extractor is full.__self__._model.table_grid_extractor


def _text_render(words: str):
    """An RGB array of a line of text on white, as a picture's render for OCR looks."""
    import numpy as np

    doc = pymupdf.open()
    page = doc.new_page(width=300, height=60)
    page.insert_text((10, 35), words, fontname="helv", fontsize=16)
    pix = page.get_pixmap(dpi=200, alpha=False)
    return np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.width, 3)


def test_pictures_are_read_by_this_process_and_the_workers_alike(example, monkeypatch):
    import time

    from clinparser.convert.pictures import picture_words

    pdf, _ = example
    renders = [_text_render(w) for w in ("Screening visit", "Day 15 follow-up", "Informed consent", "Vital signs")] + [
        None
    ]
    alone = [picture_words.ocr_lines(r) for r in renders]
    assert all(alone[:4]) and alone[4] == []
    real, here = picture_words.ocr_lines, []

    def slow(render):  # this process reads slowly, so the worker surely takes some pictures
        here.append(render)
        time.sleep(1.0)
        return real(render)

    monkeypatch.setattr(picture_words, "ocr_lines", slow)
    counts = []
    with page_workers.LayoutWorkers(str(pdf), ParseOptions(layout="full", workers=2)) as layout:
        shared = layout.read_pictures(
            [lambda r=r: r for r in renders], progress=lambda done, total: counts.append((done, total))
        )
    assert shared == alone
    assert 0 < len(here) < len(renders), "the pictures were not shared out"
    # the progress counts each picture once, in order, whichever process read it
    assert counts == [(k, len(renders)) for k in range(1, len(renders) + 1)]


def test_a_workers_text_only_model_also_reads_grids_with_the_full_models_extractor():
    """In a process that converts pages (the caller and each worker), PyMuPDF is first imported
    under the pin (``_import_pymupdf_pinned``), so the full model is the one
    ``pymupdf.layout.activate()`` wraps in a function of its own, not a model's ``predict``: the
    text-only model must find that model's extractor all the same, not build a second one (most
    of its start-up)."""
    script = (
        "from clinparser.convert.engines import page_workers as w\n"
        "import sys\n"
        "assert 'pymupdf' not in sys.modules\n"
        "w._import_pymupdf_pinned()\n"
        "full, text = w._pinned_layout(), w._pinned_text_layout()\n"
        "assert not hasattr(full, '__self__')  # the import's own function: the case under test\n"
        "model = full.__closure__[0].cell_contents  # the model activate() wraps\n"
        "print(text.__self__._model.table_grid_extractor is model._model.table_grid_extractor)\n"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.strip().splitlines()[-1] == "True"


def test_the_model_behind_a_layout_function():
    from clinparser.convert.engines.page_workers import _model_behind

    class Model:
        def predict(self, page):
            return page

    model = Model()

    def wrapper(*args):  # as pymupdf.layout.activate() wraps its model
        return model.predict(*args)

    assert _model_behind(model.predict) is model
    assert _model_behind(wrapper) is model

    @functools.wraps(model.predict)
    def timed(*args):  # a wrapper that names what it wraps, as a benchmark's timer does
        return model.predict(*args)

    assert _model_behind(timed) is model
    assert _model_behind(len) is None and _model_behind(lambda page: page) is None


def test_without_a_model_to_share_the_text_only_model_is_built_whole(monkeypatch):
    """A layout function with no model behind it (a PyMuPDF that keeps its model elsewhere):
    the text-only model is built with its own grid reader, not left without one."""
    from pymupdf.layout import DocumentLayoutAnalyzer

    calls = []

    class Built:
        def predict(self, page):
            return page

    def get_model(**kwargs):
        calls.append(kwargs)
        return Built()

    monkeypatch.setattr(DocumentLayoutAnalyzer, "get_model", get_model)
    monkeypatch.setattr(page_workers, "_PINNED", lambda page: page)
    monkeypatch.setattr(page_workers, "_PINNED_TEXT", None)
    page_workers._pinned_text_layout()
    assert calls == [{"feature_set_name": "rf"}]


def test_a_picture_with_the_pixels_of_one_read_before_is_read_once(example, monkeypatch):
    from clinparser.convert.pictures import picture_words

    pdf, _ = example
    logo, other = _text_render("Sponsor logo"), _text_render("Vital signs")
    renders = [logo, other, logo.copy(), None, logo.copy()]
    alone = [picture_words.ocr_lines(r) for r in renders]
    real, read = picture_words.ocr_lines, []

    def counted(render):
        read.append(render)
        return real(render)

    monkeypatch.setattr(picture_words, "ocr_lines", counted)
    counts = []
    with page_workers.LayoutWorkers(str(pdf), ParseOptions(layout="full", workers=1)) as layout:
        shared = layout.read_pictures(
            [lambda r=r: r for r in renders], progress=lambda done, total: counts.append((done, total))
        )
    assert shared == alone and shared[0] and shared[2] == shared[0]
    assert len(read) == 3  # the logo once, the other picture, the picture with no render
    assert counts == [(k, len(renders)) for k in range(1, len(renders) + 1)]
