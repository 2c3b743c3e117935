"""Run PyMuPDF's layout converter over fixed page batches, in this process or in worker processes.

Two choices make the output the same, byte for byte, whatever the worker count:

* Batches are fixed (``BATCH_PAGES`` pages, in order) and results are put back in batch order,
  so a worker count only changes which process converts a batch, never what a batch is.
* Every ONNX Runtime session (the layout model's three, and RapidOCR's under ``--ocr``) is made
  single-threaded. By default each session takes as many threads as the machine has cores and
  spins them while idle, which oversubscribes the cores as soon as two processes run, and a
  float sum split over a different number of threads may round differently. One thread per
  session gives the same kernels on every page, in whichever process it is converted. The memory arena, which the layout package turns off
  for long-lived services, is turned back on: a conversion is short, and without the arena
  page faults cost a fifth of the run in system time (measured on Alexion, 6.4 s of 30 s).

Worker processes are started with ``spawn``: forking a process whose ONNX Runtime thread pools
are already running is unsafe, and spawn behaves the same on every platform.
"""

from __future__ import annotations

import contextlib
import io
import os
import signal
import sys
import threading
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Callable, Optional

from ..errors import ConversionError
from ..model import CAPTION, FOOTNOTE, HEADING, LIST_ITEM, PAGE_FOOTER, PAGE_HEADER, PICTURE, TABLE, TEXT, Block

BATCH_PAGES = 8
GB_PER_WORKER = 1.0  # memory to allow per worker process (measured peak: 0.55 GB)
WARM_START = 4  # workers started before the page count is known; more start as batches queue

_KINDS = {
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

Batch = tuple[int, ...]  # 0-based page numbers


def available_cores() -> int:
    """Cores this process may use: its CPU affinity, capped by a cgroup v2 CPU quota if any."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    quota = _cgroup_value("cpu.max")  # "<quota> <period>" or "max <period>"
    if quota and quota[0] != "max":
        cores = min(cores, int(int(quota[0]) / int(quota[1])) or 1)
    return max(1, cores)


def default_workers() -> int:
    """The cores available, but no more than one worker per GB of the memory now available."""
    import psutil  # a dependency of PyMuPDF

    memory = psutil.virtual_memory().available
    limit = _cgroup_value("memory.max")  # a container's limit, which psutil does not see
    if limit and limit[0] != "max":
        memory = min(memory, int(limit[0]))
    return max(1, min(available_cores(), int(memory / 2**30 // GB_PER_WORKER)))


def _cgroup_value(name: str) -> Optional[list[str]]:
    try:
        with open(f"/sys/fs/cgroup/{name}", encoding="ascii") as handle:
            return handle.read().split()
    except (OSError, ValueError):  # no cgroup v2 here
        return None


def batches_of(page_count: int) -> list[Batch]:
    return [tuple(range(start, min(start + BATCH_PAGES, page_count))) for start in range(0, page_count, BATCH_PAGES)]


class LayoutWorkers:
    """The layout converter for one PDF: ``workers`` processes, or this process when 1.

    Made before the caller imports PyMuPDF and opens the file, so that the workers' start-up
    (importing PyMuPDF, building the model: about a second each) overlaps the caller's. Use it
    as a context manager: leaving it on an error (or Ctrl-C) terminates the workers at once;
    after a conversion they have already been told to exit.
    """

    def __init__(self, path: str, *, password: Optional[str], ocr: bool, workers: int):
        self.path, self.password, self.ocr = path, password, ocr
        self.pool: Optional[ProcessPoolExecutor] = None
        self.warnings: list[str] = []
        if workers > 1:
            try:
                self.pool = _start_pool(path, password, ocr, workers)
            except Exception as exc:  # no /dev/shm for semaphores, called from a daemonic process, ...
                self.warnings.append(f"could not start layout worker processes ({type(exc).__name__}: {exc}); converted in one process")

    def __enter__(self) -> "LayoutWorkers":
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if self.pool is None:
            return
        if exc_type is not None:
            # Waiting would mean finishing the running batches (and one queued) for nothing.
            # ProcessPoolExecutor has no public way to stop its workers before Python 3.14.
            for process in list(getattr(self.pool, "_processes", {}).values()):
                process.terminate()
        self.pool.shutdown(wait=True, cancel_futures=True)

    def convert(self, page_count: int, progress: Optional[Callable[[int, int], None]] = None) -> list[Block]:
        """Layout blocks of every page, in page order."""
        batches = batches_of(page_count)
        counter = _Counter(page_count, progress)
        results = self._in_workers(batches, counter) if self.pool else self._here(batches, counter)
        if self.pool is not None:
            self.pool.shutdown(wait=False)  # let the workers exit while the caller goes on
        return [block for batch in results for block in batch]

    def _here(self, batches: list[Batch], counter: "_Counter") -> list[list[Block]]:
        converter = _Converter(self.path, self.password, self.ocr)
        results = []
        with _LAYOUT_LOCK, _single_threaded_sessions(), _using(_pinned_layout()):
            for batch in batches:
                results.append(converter.convert(batch))
                counter.add(batch)
        return results

    def _in_workers(self, batches: list[Batch], counter: "_Counter") -> list[list[Block]]:
        results: list[Optional[list[Block]]] = [None] * len(batches)
        try:
            futures = {self.pool.submit(_convert_in_worker, batch): k for k, batch in enumerate(batches)}
            pending = set(futures)
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    k = futures[future]
                    results[k] = future.result()  # re-raises the worker's error here
                    counter.add(batches[k])
        except BrokenProcessPool as exc:
            raise ConversionError(
                "a layout worker process died (out of memory, or the calling script starts processes "
                "outside `if __name__ == '__main__':`): run again with --workers 1"
            ) from exc
        return results  # type: ignore[return-value]


def _start_pool(path: str, password: Optional[str], ocr: bool, workers: int) -> ProcessPoolExecutor:
    import multiprocessing

    context = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_start_worker, initargs=(path, password, ocr))
    # The pool starts a process for each submission no idle worker can take, up to ``workers``:
    # these no-ops start the first few now; the rest start only if batches queue up for them.
    for _ in range(min(workers, WARM_START)):
        pool.submit(_ready)
    return pool


class _Counter:
    """Reports pages done as batches finish, in whatever order they finish."""

    def __init__(self, total: int, progress: Optional[Callable[[int, int], None]]):
        self.total, self.done, self.progress = total, 0, progress

    def add(self, batch: Batch) -> None:
        self.done += len(batch)
        if self.progress:
            self.progress(self.done, self.total)


# -- one converter per process -------------------------------------------------------------

_LAYOUT_LOCK = threading.Lock()  # the layout model is process-global in PyMuPDF
_WORKER: Optional["_Converter"] = None
_WORKER_ERROR: Optional[ConversionError] = None
_WORKER_STACK = contextlib.ExitStack()  # settings a worker keeps until it exits
_PINNED = None


class _Converter:
    """Its own handle on the PDF: the converter edits the document it is given (it removes the
    structure tree and page rotation), so the caller's handle is never passed in."""

    def __init__(self, path: str, password: Optional[str], ocr: bool):
        import pymupdf

        try:
            self.doc = pymupdf.open(path, filetype="pdf")
        except Exception as exc:  # the caller opened it a moment ago: it changed or vanished since
            raise ConversionError(f"the layout converter cannot open the file: {exc}") from None
        if self.doc.needs_pass:
            self.doc.authenticate(password or "")
        self.ocr = ocr

    def convert(self, batch: Batch) -> list[Block]:
        import pymupdf4llm

        try:
            # pymupdf4llm prints its own messages: keep them off our stdout.
            with contextlib.redirect_stdout(io.StringIO()):
                chunks = pymupdf4llm.to_markdown(self.doc, pages=list(batch), page_chunks=True, use_ocr=self.ocr, show_progress=False)
        except Exception as exc:  # a converter failure is reported with its pages, as one line
            raise ConversionError(f"PyMuPDF layout analysis failed on pages {batch[0] + 1}-{batch[-1] + 1}: {exc}") from None
        return [block for chunk in chunks for block in chunk_blocks(chunk)]


def chunk_blocks(chunk: dict) -> list[Block]:
    """One pymupdf4llm page chunk -> our blocks (each layout box with its slice of the Markdown)."""
    page = int(chunk["metadata"]["page_number"])
    text = chunk["text"]
    out = []
    for box in chunk["page_boxes"]:
        start, stop = box["pos"]
        kind = _KINDS.get(box["class"], TEXT)
        out.append(Block(page=page, bbox=tuple(float(v) for v in box["bbox"]), kind=kind, text=text[start:stop].strip()))
    return out


def _start_worker(path: str, password: Optional[str], ocr: bool) -> None:
    global _WORKER, _PINNED, _WORKER_ERROR
    # Ctrl-C reaches the whole process group: the parent handles it and stops the pool, so
    # workers ignore it rather than each printing a traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _exit_with_parent()
    try:
        # For the life of this worker: also pins sessions made later (RapidOCR's, under --ocr).
        _WORKER_STACK.enter_context(_single_threaded_sessions())
        if "pymupdf" not in sys.modules:
            # Importing PyMuPDF builds its layout model; under the pin that is already the one
            # we need, which saves building a second (0.7 s per worker).
            import pymupdf

            _PINNED = pymupdf._get_layout
        else:  # the caller's main module imported PyMuPDF before we could pin it
            import pymupdf

            pymupdf._get_layout = _pinned_layout()  # the unpinned model is then freed
        _WORKER = _Converter(path, password, ocr)
    except ConversionError as exc:  # an initializer that raises would only "break" the pool
        _WORKER_ERROR = exc
    except Exception as exc:
        _WORKER_ERROR = ConversionError(f"a layout worker could not start: {type(exc).__name__}: {exc}")


def _exit_with_parent() -> None:
    """A worker whose parent was killed would otherwise wait for work forever."""
    import multiprocessing
    from multiprocessing.connection import wait as wait_for

    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def watch() -> None:
        wait_for([parent.sentinel])  # ready when the parent process has ended
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


def _ready() -> None:
    """A no-op: submitted once per worker so that all of them start at once."""


def _convert_in_worker(batch: Batch) -> list[Block]:
    if _WORKER is None:
        raise _WORKER_ERROR or ConversionError("layout worker used before it was started")
    return _WORKER.convert(batch)


def _pinned_layout():
    """PyMuPDF's layout model built with single-threaded sessions (one per process, cached)."""
    global _PINNED
    if _PINNED is None:
        from pymupdf.layout import DocumentLayoutAnalyzer

        with _single_threaded_sessions():
            model = DocumentLayoutAnalyzer.get_model()  # the same model pymupdf.layout.activate() builds
        _PINNED = model.predict
    return _PINNED


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


# Modules that import InferenceSession by name, so patching onnxruntime alone misses them.
_BOUND_BY_NAME = ("rapidocr.inference_engine.onnxruntime.main",)


def _bind(session_class) -> None:
    for name in _BOUND_BY_NAME:
        module = sys.modules.get(name)
        if module is not None and hasattr(module, "InferenceSession"):
            module.InferenceSession = session_class


@contextlib.contextmanager
def _single_threaded_sessions():
    """While open, every new onnxruntime.InferenceSession is single-threaded, without spinning,
    with its memory arena on."""
    import onnxruntime

    real = onnxruntime.InferenceSession

    class Pinned(real):  # a subclass, so isinstance checks still hold
        def __init__(self, path_or_bytes, sess_options=None, providers=None, provider_options=None, **kwargs):
            options = sess_options or onnxruntime.SessionOptions()
            options.intra_op_num_threads = 1
            options.inter_op_num_threads = 1
            options.enable_cpu_mem_arena = True
            options.add_session_config_entry("session.intra_op.allow_spinning", "0")
            super().__init__(path_or_bytes, sess_options=options, providers=providers, provider_options=provider_options, **kwargs)

    onnxruntime.InferenceSession = Pinned
    _bind(Pinned)
    try:
        yield
    finally:
        onnxruntime.InferenceSession = real
        _bind(real)  # also undoes the name a module imported while the pin was on
