"""A pool of worker processes that never re-runs the caller's script.

``multiprocessing`` with ``spawn`` (and ``forkserver``) prepares each child by importing the
parent's ``__main__`` module again, under the name ``__mp_main__``, so that functions defined
there can be found: a script without ``if __name__ == "__main__":`` runs its top level once more
in every child (a parse in a script parsed the document twice), and where ``__main__`` cannot be
re-imported (stdin, some notebook and embedded set-ups) the child dies. ``fork`` copies a process
whose ONNX Runtime thread pools may already be running, which is unsafe.

So these workers are plain processes of the same interpreter running
``python -m clinparser.workers.worker_main``: they import ClinParser and nothing of the caller's.
The parent sends each one pickled calls of module-level ClinParser functions (pickled by
reference) on its stdin and reads the pickled results from its stdout (the worker moves its own
fd 1 to stderr, so a stray print cannot corrupt the stream). Because they are not
``multiprocessing`` children, they also start inside a daemonic pool worker, a thread, or a
Jupyter kernel. A worker whose parent dies sees its stdin close (or its parent change) and exits.

The interface is the part of ``concurrent.futures.Executor`` ClinParser uses: ``submit`` returns a
``Future``; ``shutdown`` lets the workers finish and exit; ``terminate`` kills them at once.
"""

from __future__ import annotations

import os
import pickle
import queue
import subprocess
import sys
import threading
from concurrent.futures import Future
from pathlib import Path
from typing import Any, Callable, Optional

WORKER_MODULE = "clinparser.workers.worker_main"
_STOP = None  # put on the queue: the thread that takes it ends its worker


class WorkerDied(Exception):
    """The worker process running a task ended before it answered (killed, out of memory, crashed)."""


class WorkerPool:
    """Up to ``max_workers`` worker processes; ``start`` of them are started at once (their
    start-up overlaps the caller's), the rest only when tasks queue up with no worker free.

    ``initializer(*initargs)`` runs first in every worker process. A worker that dies fails
    the task it was running with ``WorkerDied``; the next task starts a fresh process.
    ``on_note(future, note)`` is called (in a pool thread) with each note a running task sends
    with ``worker_main.note`` (for example its pages done).
    """

    def __init__(
        self,
        max_workers: int,
        *,
        initializer: Optional[Callable] = None,
        initargs: tuple = (),
        start: int = 0,
        on_note: Optional[Callable[[Future, Any], None]] = None,
    ):
        if not sys.executable:
            raise RuntimeError("no Python executable to start worker processes with (sys.executable is empty)")
        self.max_workers = max_workers
        self.init = (initializer, initargs) if initializer is not None else None
        self.on_note = on_note
        self.processes: list[subprocess.Popen] = []  # every process started, live or not
        self._tasks: "queue.Queue[Any]" = queue.Queue()
        self._threads: list[threading.Thread] = []
        self._idle = 0  # threads waiting for a task
        self._lock = threading.Lock()
        self._closing = False
        for _ in range(min(start, max_workers)):
            self._add_thread()

    # -- the caller's side ----------------------------------------------------------------

    def submit(self, fn: Callable, *args) -> Future:
        future: Future = Future()
        with self._lock:
            if self._closing:
                raise RuntimeError("submit after shutdown")
            self._tasks.put((future, fn, args))
            if self._tasks.qsize() > self._idle and len(self._threads) < self.max_workers:
                self._add_thread()
        return future

    def shutdown(self, wait: bool = True, cancel_futures: bool = False) -> None:
        """Tell every worker to exit once its running task is done; with ``wait``, wait for that."""
        with self._lock:
            if not self._closing:
                self._closing = True
                if cancel_futures:
                    self._cancel_queued()
                for _ in self._threads:
                    self._tasks.put(_STOP)
        if wait:
            for thread in self._threads:
                thread.join()
            for process in self.processes:
                process.wait()

    def terminate(self) -> None:
        """Kill every worker process now (their running tasks fail with ``WorkerDied``)."""
        with self._lock:
            self._closing = True
            self._cancel_queued()
            for _ in self._threads:
                self._tasks.put(_STOP)
        for process in list(self.processes):
            if process.poll() is None:
                process.kill()

    def _cancel_queued(self) -> None:
        while True:
            try:
                item = self._tasks.get_nowait()
            except queue.Empty:
                return
            if item is not _STOP:
                item[0].cancel()

    # -- one thread per worker process ----------------------------------------------------

    def _add_thread(self) -> None:
        # The process starts here, not in the thread, so it is in ``processes`` at once.
        thread = threading.Thread(
            target=self._serve, args=(self._start_process(),), daemon=True, name="clinparser-worker"
        )
        self._threads.append(thread)
        thread.start()

    def _serve(self, process: subprocess.Popen) -> None:
        try:
            while True:
                if process.poll() is not None:
                    if self._closing:
                        return
                    process = self._start_process()
                with self._lock:
                    self._idle += 1
                item = self._tasks.get()
                with self._lock:
                    self._idle -= 1
                if item is _STOP:
                    return
                future, fn, args = item
                if not future.set_running_or_notify_cancel():
                    continue
                try:
                    ok, value = self._call(process, future, fn, args)
                except (EOFError, OSError, pickle.UnpicklingError):
                    process.wait()
                    future.set_exception(
                        WorkerDied(f"worker process {process.pid} ended with exit code {process.returncode}")
                    )
                    continue
                except BaseException as exc:  # the call could not be sent (an argument does not pickle)
                    future.set_exception(exc)
                    continue
                if ok:
                    future.set_result(value)
                else:
                    future.set_exception(value)
        finally:
            _close(process)

    def _start_process(self) -> subprocess.Popen:
        process = subprocess.Popen(
            [sys.executable, "-m", WORKER_MODULE, str(os.getpid())],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=_child_env(),
        )
        self.processes.append(process)
        if self.init is not None:
            pickle.dump(self.init, process.stdin, protocol=pickle.HIGHEST_PROTOCOL)
        else:
            pickle.dump((None, ()), process.stdin, protocol=pickle.HIGHEST_PROTOCOL)
        process.stdin.flush()
        return process

    def _call(self, process: subprocess.Popen, future: Future, fn: Callable, args: tuple) -> tuple[bool, Any]:
        """Send one call; hand its notes to ``on_note``; return its answer ``(ok, value)``."""
        pickle.dump((fn, args), process.stdin, protocol=pickle.HIGHEST_PROTOCOL)
        process.stdin.flush()
        while True:
            kind, value = pickle.load(process.stdout)
            if kind != "note":
                return kind == "ok", value
            if self.on_note is not None:
                self.on_note(future, value)


def _close(process: subprocess.Popen) -> None:
    """Tell a worker to exit (its stdin closes) and release our ends of its pipes."""
    for stream in (process.stdin, process.stdout):
        try:
            stream.close()
        except OSError:  # the worker is gone: the pipe is broken, which is what we wanted
            pass


def _child_env() -> dict[str, str]:
    """The caller's environment, with this ClinParser's folder first on the path, so the worker
    imports the same ClinParser the caller did (a notebook may have added it to sys.path)."""
    env = dict(os.environ)
    root = str(Path(__file__).resolve().parent.parent.parent)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH", "")) if p)
    return env
