"""Run PyMuPDF's layout converter page by page, in this process and in worker processes.

Three choices make the output the same, byte for byte, whatever the worker count:

* Each page is converted on its own (``UNIT_PAGES`` pages per task, in order) and results are
  put back in page order, so a worker count only changes which process converts a page.
* The one thing pymupdf4llm computes across the pages of a call, the level of a heading (the
  rank of its font size among the headings' sizes), is computed afterwards over fixed groups
  of ``HEADING_RANK_PAGES`` pages, exactly as one call on those pages would (``rank_headings``).
* Every ONNX Runtime session (the layout model's three, and RapidOCR's on the pages ``page_recovery`` reads) is made
  single-threaded. By default each session takes as many threads as the machine has cores and
  spins them while idle, which oversubscribes the cores as soon as two processes run, and a
  float sum split over a different number of threads may round differently. One thread per
  session gives the same kernels on every page, in whichever process it is converted. The
  memory arena, which the layout package turns off for long-lived services, is turned back on:
  a conversion is short, and without the arena page faults cost a fifth of the run in system
  time (measured on Alexion, 6.4 s of 30 s).

With ``workers`` N, this process converts pages too, beside N - 1 worker processes: it has
imported PyMuPDF (and so built the model) anyway, and one process fewer to start is a second
of CPU saved. Sessions made here during a conversion stay pinned: that includes the OCR engine
``page_recovery`` keeps for later pages, which is made single-threaded anyway. Pages are
handed out one task at a time, so no core idles while another still has a long queue; the last
pages go one per task and only to a free process, so that all processes finish together.
Worker processes are started by ``worker_processes.WorkerPool`` as ``python -m`` processes of
ClinParser's own, never by re-importing the caller's ``__main__`` (see there): a parse works the
same in a script without the ``__main__`` guard, ``python -c``, stdin, a notebook, a thread or
another pool's worker, and converts the document once.
"""

from __future__ import annotations

import contextlib
import io
import queue
import signal
import sys
import threading
from concurrent.futures import FIRST_COMPLETED, Future, wait
from typing import Callable, Optional

from ...errors import ConversionError
from ...model import (
    CAPTION,
    FOOTNOTE,
    HEADING,
    LIST_ITEM,
    PAGE_FOOTER,
    PAGE_HEADER,
    PICTURE,
    TABLE,
    TEXT,
    Block,
    PageRecord,
)
from ...workers.worker_processes import WorkerDied, WorkerPool
from ..options import ParseOptions
from ..runtime.onnx_sessions import single_threaded_sessions
from .layout_route import FULL, Route, choose

UNIT_PAGES = 2  # pages per task: few enough that the last task is short, enough to keep calls few
TAIL_PAGES_PER_PROCESS = 2  # the last pages go out one per task, and only to a free process
HEADING_RANK_PAGES = 8  # heading levels are ranked over these many pages, as before (see above)
QUEUED_PER_WORKER = 2  # tasks waiting at each worker process, so it never waits for the next
WARM_START = 4  # workers started before the page count is known; more start as tasks queue

# pymupdf4llm box classes -> our block kinds
_KINDS = {
    "text": TEXT,
    "section-header": HEADING,
    "title": HEADING,
    "list-item": LIST_ITEM,
    "table": TABLE,
    "picture": PICTURE,
    "formula": PICTURE,
    "page-header": PAGE_HEADER,
    "page-footer": PAGE_FOOTER,
    "footnote": FOOTNOTE,
    "caption": CAPTION,
}
_RANKED = ("title", "section-header")  # the classes pymupdf4llm writes with a level of "#"

Unit = tuple[int, ...]  # 0-based page numbers
# One converted page: its blocks, for each heading block the font size its level is ranked by
# and the level the converter wrote (None for blocks that are not headings), and how its text
# was obtained.
PageResult = tuple[list[Block], list[Optional[tuple[int, int]]], PageRecord]


def units_of(page_count: int, processes: int = 1) -> list[Unit]:
    """``UNIT_PAGES`` pages per task, then one page per task for the last pages, so that the
    processes finish together: a process that runs out of tasks waits at most for one page
    elsewhere, not for a 2-page task and one queued behind it (on Inv's 15 pages, 0.6 s)."""
    tail = min(page_count, TAIL_PAGES_PER_PROCESS * processes) if processes > 1 else 0
    bulk = page_count - tail
    units = [tuple(range(start, min(start + UNIT_PAGES, bulk))) for start in range(0, bulk, UNIT_PAGES)]
    return units + [(page,) for page in range(bulk, page_count)]


class LayoutWorkers:
    """The layout converter for one PDF: this process plus ``workers - 1`` worker processes.

    Made before the caller imports PyMuPDF and opens the file, so that the workers' start-up
    (importing PyMuPDF, building the model: about a second each) overlaps the caller's. Use it
    as a context manager: leaving it on an error (or Ctrl-C) terminates the workers at once;
    after a conversion they have already been told to exit.
    """

    def __init__(self, path: str, options: ParseOptions):
        self.path, self.options = path, options
        workers = options.workers
        self.pool: Optional[WorkerPool] = None
        self.children = 0
        self.warnings: list[str] = []
        self.ledger: list[PageRecord] = []  # how each page's text was obtained, after convert()
        if workers > 1:
            try:
                self.pool = _start_pool(path, options, workers - 1)
                self.children = workers - 1
            except Exception as exc:  # no Python executable to start (an embedded interpreter), no pipes, ...
                self.warnings.append(
                    f"could not start layout worker processes ({type(exc).__name__}: {exc}); converted in one process"
                )
        _import_pymupdf_pinned()

    def __enter__(self) -> "LayoutWorkers":
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if self.pool is None:
            return
        if exc_type is not None:
            # Waiting would mean finishing the running tasks (and the queued ones) for nothing.
            self.pool.terminate()
        # Every worker process has exited and been reaped when the conversion returns.
        self.pool.shutdown(wait=True, cancel_futures=True)

    def convert(self, page_count: int, progress: Optional[Callable[[int, int], None]] = None) -> list[Block]:
        """Layout blocks of every page, in page order."""
        units = units_of(page_count, 1 + self.children)
        counter = _Counter(page_count, progress)
        tasks = _Tasks(units)
        converter = _Converter(self.path, self.options)
        # This process takes the first unit before the workers get any: they may still be
        # starting, and on a short PDF they would otherwise hold every unit while we wait.
        k = tasks.take()
        feeder = _Feeder(self.pool, self.children, tasks) if self.pool is not None else None
        try:
            with _LAYOUT_LOCK, single_threaded_sessions(), _using(_pinned_layout()):
                while k is not None:
                    tasks.results[k] = converter.convert(units[k])
                    counter.add(len(units[k]))
                    if feeder is not None:
                        feeder.report(counter)
                    k = tasks.take()
        except BaseException:
            tasks.stopped = True  # the feeder hands out nothing more, whoever catches this
            raise
        if feeder is not None:
            feeder.finish(counter)
        pages = [page for unit in tasks.results for page in unit]
        self.ledger = [record for _, _, record in pages]
        return rank_headings(pages)

    def read_pictures(
        self, renders: list[Callable[[], object]], progress: Optional[Callable[[int, int], None]] = None
    ) -> list[list]:
        """OCR's lines of each picture, in order; ``renders`` make each picture's pixels (an RGB
        array, or None), one at a time, in this process. This process and the worker
        processes read them side by side, each with the same single-threaded kernels, so the
        lines are the same whichever process read a picture. (A document's pictures were read
        by this process alone, after the pages, while the workers waited.) ``progress(done,
        total)`` after each picture.

        A picture whose pixels are those of one taken before (a logo or banner on every page,
        one image object placed again) is read once: it gets the first one's lines, which are
        what reading it again would give (the same kernels on the same pixels)."""
        from ..pictures.picture_words import ocr_lines

        if renders:
            _free_layout_model()  # its pages are converted; the OCR engine needs the room
        results: list = [None] * len(renders)
        order = iter(range(len(renders)))
        lock = threading.Lock()  # MuPDF renders one picture at a time
        errors: list[BaseException] = []
        first_of: dict[bytes, int] = {}  # a render's content -> the picture first read with it
        same_as: dict[int, int] = {}  # a picture -> the earlier one with the same pixels

        done = 0

        def take():
            with lock:
                while True:
                    k = None if errors else next(order, None)
                    if k is None:
                        return None, None
                    render = renders[k]()
                    key = _content_key(render)
                    if key is None or key not in first_of:
                        if key is not None:
                            first_of[key] = k
                        return k, render
                    same_as[k] = first_of[key]
                    _count()

        def _count() -> None:  # under the lock
            nonlocal done
            done += 1
            if progress:
                progress(done, len(renders))

        def keep(k: int, lines: list) -> None:
            with lock:  # one count, reported in order, whichever thread read the picture
                results[k] = lines
                _count()

        def at_worker() -> None:
            try:
                while (job := take())[0] is not None:
                    keep(job[0], self.pool.submit(_read_picture_in_worker, job[1]).result())
            except BaseException as exc:  # raised in the caller's thread below
                errors.append(exc)

        helpers = [
            threading.Thread(target=at_worker, daemon=True) for _ in range(self.children if len(renders) > 1 else 0)
        ]
        for helper in helpers:
            helper.start()
        try:
            while (job := take())[0] is not None:
                keep(job[0], ocr_lines(job[1]))
        except BaseException as exc:
            errors.append(exc)
        for helper in helpers:
            helper.join()
        if errors:
            if isinstance(errors[0], WorkerDied):
                raise ConversionError(
                    "a layout worker process died (out of memory, or killed): run again with --workers 1"
                ) from errors[0]
            raise errors[0]
        for k, first in same_as.items():
            results[k] = list(results[first])
        return results

    def release(self) -> None:
        """Let the worker processes exit while the caller goes on (nothing more is sent to them)."""
        if self.pool is not None:
            self.pool.shutdown(wait=False)


class _Tasks:
    """The units of a conversion, handed out in order to whichever process asks first."""

    def __init__(self, units: list[Unit]):
        self.units = units
        # The first one-page unit starts the tail (units_of puts the longer ones first).
        self.tail = sum(len(unit) > 1 for unit in units)
        self.results: list[Optional[list[PageResult]]] = [None] * len(units)
        self._next = 0
        self._lock = threading.Lock()
        self.stopped = False

    def in_tail(self) -> bool:
        return self._next >= self.tail

    def take(self) -> Optional[int]:
        with self._lock:
            if self.stopped or self._next >= len(self.units):
                return None
            self._next += 1
            return self._next - 1


class _Feeder:
    """A thread of this process that keeps the worker processes supplied with units while this
    process converts its own; finished units are counted by the caller's thread."""

    def __init__(self, pool: WorkerPool, children: int, tasks: _Tasks):
        self.pool, self.tasks = pool, tasks
        self.finished: "queue.SimpleQueue[int]" = queue.SimpleQueue()  # pages per finished unit
        self.error: Optional[BaseException] = None
        self.children = children
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _depth(self) -> int:
        """Tasks to keep at the workers: one running and one queued each, but in the tail only
        the running one, so that a tail task goes to whichever process is free first."""
        return self.children if self.tasks.in_tail() else self.children * QUEUED_PER_WORKER

    def _submit(self) -> Optional[Future]:
        k = self.tasks.take()
        if k is None:
            return None
        future = self.pool.submit(_convert_in_worker, self.tasks.units[k])
        future.unit = k  # type: ignore[attr-defined]
        return future

    def _run(self) -> None:
        try:
            pending: set[Future] = set()
            while True:
                while len(pending) < self._depth():
                    more = self._submit()
                    if more is None:
                        break
                    pending.add(more)
                if not pending:
                    return
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    k = future.unit  # type: ignore[attr-defined]
                    self.tasks.results[k] = future.result()  # re-raises the worker's error here
                    self.finished.put(len(self.tasks.units[k]))
        except BaseException as exc:  # handed to the caller's thread, which raises it
            self.error = exc
            self.tasks.stopped = True

    def report(self, counter: "_Counter") -> None:
        """Count the units the workers finished; raise the error one of them hit."""
        while True:
            try:
                counter.add(self.finished.get_nowait())
            except queue.Empty:
                break
        if self.error is not None:
            if isinstance(self.error, WorkerDied):
                raise ConversionError(
                    "a layout worker process died (out of memory, or killed): run again with --workers 1"
                ) from self.error
            raise self.error

    def finish(self, counter: "_Counter") -> None:
        """Wait for the units still at the workers, counting them as they come in."""
        while self.thread.is_alive():
            self.thread.join(timeout=0.2)
            self.report(counter)
        self.report(counter)


def rank_headings(pages: list[PageResult]) -> list[Block]:
    """Give each heading the level one pymupdf4llm call over its group of ``HEADING_RANK_PAGES``
    pages gives it (the rank of its font size among the group's heading sizes, at most 6),
    in place of the level the call over its task's pages gave it."""
    blocks: list[Block] = []
    for start in range(0, len(pages), HEADING_RANK_PAGES):
        group = pages[start : start + HEADING_RANK_PAGES]
        sizes = {ranked[0] for _, heads, _ in group for ranked in heads if ranked is not None}
        top = sorted(sizes, reverse=True)[:6]  # sorted once per group, not once per heading
        for page_blocks, heads, _ in group:
            for block, ranked in zip(page_blocks, heads):
                if ranked is not None:
                    size, written = ranked
                    block.text = _relevel(block.text, written, _level(size, top))
            blocks.extend(page_blocks)
    return blocks


def _level(size: int, top: list[int]) -> int:
    """pymupdf4llm's ``update_header_tags``, for one heading: the rank of its size among the
    group's six largest heading sizes, 6 for any smaller one."""
    return top.index(size) + 1 if size >= top[-1] else 6


def _relevel(text: str, old: int, new: int) -> str:
    """``text`` with its ``old`` level marker replaced by ``new``; unchanged if it has none (a
    pymupdf4llm that writes headings differently: the level then follows the task's pages,
    the same for any worker count, and the ranking test says so)."""
    if text.startswith("#" * old) and text[old : old + 1] in ("", " "):
        return "#" * new + text[old:]
    return text


def _start_pool(path: str, options: ParseOptions, children: int) -> WorkerPool:
    # The first few start now; the rest start only if units queue up for them.
    return WorkerPool(children, initializer=_start_worker, initargs=(path, options), start=min(children, WARM_START))


class _Counter:
    """Reports pages done as units finish, in whatever order they finish."""

    def __init__(self, total: int, progress: Optional[Callable[[int, int], None]]):
        self.total, self.done, self.progress = total, 0, progress

    def add(self, pages: int) -> None:
        self.done += pages
        if self.progress:
            self.progress(self.done, self.total)


# -- one converter per process -------------------------------------------------------------

_LAYOUT_LOCK = threading.Lock()  # the layout model is process-global in PyMuPDF
_WORKER: Optional["_Converter"] = None
_WORKER_ERROR: Optional[ConversionError] = None
_WORKER_STACK = contextlib.ExitStack()  # settings a worker keeps until it exits
_PINNED = None
_PINNED_TEXT = None  # the text-only layout model, built when a page first needs it


class _Converter:
    """Its own handle on the PDF: the converter edits the document it is given (it removes the
    structure tree and page rotation), so the caller's handle is never passed in."""

    def __init__(self, path: str, options: ParseOptions):
        import pymupdf

        try:
            self.doc = pymupdf.open(path, filetype="pdf")
        except Exception as exc:  # the caller opened it a moment ago: it changed or vanished since
            raise ConversionError(f"the layout converter cannot open the file: {exc}") from None
        if self.doc.needs_pass:
            self.doc.authenticate(options.password or "")
        self.options = options
        self.form_fields: Optional[dict] = None

    def convert(self, unit: Unit) -> list[PageResult]:
        from ..pages.page_recovery import read_pages
        from ..steps import on_each_page

        try:
            # pymupdf4llm prints its own messages: keep them off our stdout.
            routes: dict[int, Route] = {}
            with (
                contextlib.redirect_stdout(io.StringIO()),
                self._form_fields_read_once(),
                _using(_routed_layout(self.options.layout, routes)),
            ):
                results = read_pages(self.doc, unit, self.options.ocr, self._parse)
            for _, _, record in results:  # under "full" nothing was chosen: the ledger stays as it was
                route = routes.get(record.page)
                if route is not None and self.options.layout != FULL:
                    record.layout, record.layout_reason = route.model, route.reason
            on_each_page(self.doc, results, self.options)
            return results
        except Exception as exc:  # a converter failure is reported with its pages, as one line
            raise ConversionError(
                f"PyMuPDF layout analysis failed on pages {unit[0] + 1}-{unit[-1] + 1}: {exc}"
            ) from None

    @staticmethod
    def _parse(doc, pages: Unit) -> list[tuple[list[Block], list[Optional[tuple[int, int]]]]]:
        """What pymupdf4llm.to_markdown(page_chunks=True) does, in its two steps, so that the
        font size each heading's level was ranked by can be read off the parsed pages. OCR is
        ours to decide (``page_recovery``): the converter reads each page's text as it is."""
        from pymupdf4llm.helpers.document_layout import parse_document

        parsed = parse_document(doc, pages=list(pages), use_ocr=False, force_text=True, show_progress=False)
        chunks = parsed.to_markdown(page_chunks=True, show_progress=False)
        results = []
        for page, chunk in zip(parsed.pages, chunks):
            heads = [(box.max_fontsize, box.header_level) if box.boxclass in _RANKED else None for box in page.boxes]
            results.append((chunk_blocks(chunk), heads))
        return results

    @contextlib.contextmanager
    def _form_fields_read_once(self):
        """Every call reads the whole document's form fields (a walk over all its pages), which
        would make small tasks cost O(pages) each: read them once per document instead."""
        from pymupdf4llm.helpers import utils

        real = utils.extract_form_fields_with_pages

        def once(doc, xrefs=False):
            if doc is not self.doc or xrefs:
                return real(doc, xrefs=xrefs)
            if self.form_fields is None:
                self.form_fields = real(doc)
            return self.form_fields

        utils.extract_form_fields_with_pages = once
        try:
            yield
        finally:
            utils.extract_form_fields_with_pages = real


def chunk_blocks(chunk: dict) -> list[Block]:
    """One pymupdf4llm page chunk -> our blocks (each layout box with its slice of the Markdown)."""
    page = int(chunk["metadata"]["page_number"])
    text = chunk["text"]
    out = []
    for box in chunk["page_boxes"]:
        start, stop = box["pos"]
        kind = _KINDS.get(box["class"], TEXT)
        out.append(
            Block(page=page, bbox=tuple(float(v) for v in box["bbox"]), kind=kind, text=text[start:stop].strip())
        )
    return out


def _start_worker(path: str, options: ParseOptions) -> None:
    global _WORKER, _WORKER_ERROR
    # Ctrl-C reaches the whole process group: the parent handles it and stops the pool, so
    # workers ignore it rather than each printing a traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        # For the life of this worker: also pins sessions made later (RapidOCR's, under --ocr).
        _WORKER_STACK.enter_context(single_threaded_sessions())
        _import_pymupdf_pinned()
        import pymupdf

        # The model built on import, or (the caller's main module imported PyMuPDF before we
        # could pin it) a new pinned one, after which the unpinned model is freed.
        pymupdf._get_layout = _pinned_layout()
        _WORKER = _Converter(path, options)
    except ConversionError as exc:  # an initializer that raises would only "break" the pool
        _WORKER_ERROR = exc
    except Exception as exc:
        _WORKER_ERROR = ConversionError(f"a layout worker could not start: {type(exc).__name__}: {exc}")


def _content_key(render) -> Optional[bytes]:
    """What identifies a render's pixels: its shape and a digest of its bytes (None for no render)."""
    if render is None:
        return None
    import hashlib

    return repr(render.shape).encode() + hashlib.blake2b(render.tobytes(), digest_size=16).digest()


def _read_picture_in_worker(render) -> list:
    from ..pictures.picture_words import ocr_lines

    _free_layout_model()
    return ocr_lines(render)


def _free_layout_model() -> None:
    """A process reading pictures has converted its last page: its layout model (most of its
    memory) goes, so that the OCR engines loaded now do not raise the run's peak memory. This
    process builds the model again when it next converts (0.7 s)."""
    global _WORKER, _PINNED, _PINNED_TEXT
    if _WORKER is None and _PINNED is None and _PINNED_TEXT is None:
        return
    import gc

    import pymupdf

    if _WORKER is not None:  # a worker process: PyMuPDF's layout function is our pinned model
        pymupdf._get_layout = _default_layout  # built again only if something asks for a layout
    _WORKER = _PINNED = _PINNED_TEXT = None
    gc.collect()
    _trim_heap()


def _trim_heap() -> None:
    """Hand freed memory back to the system (glibc keeps it for reuse otherwise)."""
    import ctypes
    import ctypes.util

    name = ctypes.util.find_library("c")
    try:
        ctypes.CDLL(name).malloc_trim(0)
    except (OSError, AttributeError, TypeError):  # not glibc: the memory stays with the process
        pass


def _convert_in_worker(unit: Unit) -> list[PageResult]:
    if _WORKER is None:
        raise _WORKER_ERROR or ConversionError("layout worker used before it was started")
    return _WORKER.convert(unit)


def _import_pymupdf_pinned() -> None:
    """Import PyMuPDF here (if nobody has yet) with its layout model built single-threaded.

    Importing PyMuPDF builds its model; built under the pin it is the one this process converts
    with, which saves building a second (0.7 s). PyMuPDF itself is then given back its usual
    model, built when something other than our conversion first asks for a layout."""
    global _PINNED
    if "pymupdf" in sys.modules:
        return
    with single_threaded_sessions():
        import pymupdf
    if callable(pymupdf._get_layout):  # the layout package is installed and activated
        _PINNED = pymupdf._get_layout
        pymupdf._get_layout = _default_layout


def _default_layout(*args, **kwargs):
    """PyMuPDF's own layout function, as ``pymupdf.layout.activate()`` makes it, built lazily."""
    import pymupdf
    from pymupdf.layout import DocumentLayoutAnalyzer

    model = DocumentLayoutAnalyzer.get_model()
    pymupdf._get_layout = model.predict
    return model.predict(*args, **kwargs)


def _pinned_layout():
    """PyMuPDF's layout model built with single-threaded sessions (one per process, cached)."""
    global _PINNED
    if _PINNED is None:
        from pymupdf.layout import DocumentLayoutAnalyzer

        with single_threaded_sessions():
            model = DocumentLayoutAnalyzer.get_model()  # the same model pymupdf.layout.activate() builds
        _PINNED = model.predict
    return _PINNED


def _routed_layout(mode: str, routes: dict):
    """A layout function that reads each page with the model ``layout_route.choose`` gives it
    (``mode`` "full": the full model everywhere), noting the route in ``routes`` by page number."""
    full = _pinned_layout()

    def layout(page, **kwargs):
        route = choose(page, mode)
        routes[page.number + 1] = route
        model = full if route.model == FULL else _pinned_text_layout()
        return model(page, **kwargs)

    return layout


def _pinned_text_layout():
    """The text-only form of the layout model (the ``rf`` feature set: no image network),
    single-threaded like the full one, built on first use (one per process, cached).

    Both forms read a table's grid with the same extractor; building a second one is most of
    the text-only model's start-up and memory (in a process that converts pages, 0.20 CPU s and
    67 MB against 0.08 s and 18 MB), so it is built with the smallest extractor and given the full model's own (the
    very object: the same grid reading on both paths)."""
    global _PINNED_TEXT
    if _PINNED_TEXT is None:
        from pymupdf.layout import DocumentLayoutAnalyzer

        full = getattr(_model_behind(_pinned_layout()), "_model", None)
        extractor = getattr(full, "table_grid_extractor", None)
        with single_threaded_sessions():
            if extractor is None:  # a PyMuPDF that keeps its model elsewhere: build it all
                model = DocumentLayoutAnalyzer.get_model(feature_set_name="rf")
            else:
                model = DocumentLayoutAnalyzer.get_model(feature_set_name="rf", table_grid_model_ver="V1")
                model._model.table_grid_extractor = extractor
        _PINNED_TEXT = model.predict
    return _PINNED_TEXT


def _model_behind(layout):
    """The layout model whose prediction ``layout`` is: a model's own ``predict``, or the
    function ``pymupdf.layout.activate()`` makes on import (the model of a process that imported
    PyMuPDF under the pin, see ``_import_pymupdf_pinned``), which holds the model in its
    closure; through any wrapper that names what it wraps (``functools.wraps``); None for
    anything else."""
    import inspect

    layout = inspect.unwrap(layout)
    held = [getattr(layout, "__self__", None)]
    for cell in getattr(layout, "__closure__", None) or ():
        try:
            held.append(cell.cell_contents)
        except ValueError:  # a variable of the enclosing function not bound yet
            pass
    return next((h for h in held if callable(getattr(h, "predict", None))), None)


@contextlib.contextmanager
def _using(layout):
    """Use ``layout`` as PyMuPDF's layout function, then put the caller's one back."""
    import pymupdf

    previous = pymupdf._get_layout
    pymupdf._get_layout = layout
    try:
        yield
    finally:
        pymupdf._get_layout = previous
