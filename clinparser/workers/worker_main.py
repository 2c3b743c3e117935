"""The program a worker process runs: ``python -m clinparser.workers.worker_main PARENT_PID``.

Started by ``worker_processes.WorkerPool``. It reads pickled ``(function, args)`` calls on stdin
(the first is the initializer, or ``(None, ())``, and gets no answer) and writes a pickled
``("ok", result)`` or ``("error", exception)`` answer for each other call on stdout, after any
``("note", value)`` the call sent with ``note``. It ends when stdin closes (the parent
is done with it, or died) or when its parent process is gone.
"""

from __future__ import annotations

import os
import pickle
import signal
import sys
import threading
import time

_answers = None  # this worker's answer stream (None: not in a worker process)
_answers_lock = threading.Lock()


def note(value) -> None:
    """Send ``value`` to the parent as a note about the running call (for example its pages
    done); nothing happens outside a worker process (in the caller's own process, a Ray task)."""
    if _answers is not None:
        _send(_answers, ("note", value))


def main() -> None:
    global _answers
    requests = sys.stdin.buffer
    answers = _answers = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # anything else printed, by Python or C code, goes to stderr, not into the answers
    sys.stdout = sys.stderr
    # Ctrl-C reaches the whole process group: the parent handles it and stops its workers, so
    # a worker ignores it rather than print a traceback or answer with the interrupt.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _exit_with_parent(int(sys.argv[1]) if len(sys.argv) > 1 else None)
    try:
        init, init_args = pickle.load(requests)
    except EOFError:  # the parent gave up before we started
        return
    # An initializer that fails makes every task fail with its error (the parent reports it).
    failed = None
    try:
        if init is not None:
            init(*init_args)
    except BaseException as exc:
        failed = exc
    while True:
        try:
            fn, args = pickle.load(requests)
        except EOFError:
            return
        if failed is not None:
            answer = ("error", failed)
        else:
            try:
                answer = ("ok", fn(*args))
            except BaseException as exc:  # handed to the caller, which raises it where it waits
                answer = ("error", exc)
        _send(answers, answer)


def _send(answers, answer) -> None:
    try:
        data = pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception as exc:  # a result or exception that does not pickle: say what it was
        kind, value = answer
        if kind == "note":
            return
        data = pickle.dumps(
            (
                "error",
                RuntimeError(
                    f"worker {'result' if kind == 'ok' else 'error'} cannot be sent back: "
                    f"{type(value).__name__}: {value} ({exc})"
                ),
            )
        )
    with _answers_lock:  # a note may come from another thread of the call
        answers.write(data)
        answers.flush()


def _exit_with_parent(parent: int | None) -> None:
    """A worker whose parent was killed mid-task would finish the task for nobody: exit now."""
    if parent is None:
        return

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


if __name__ == "__main__":
    # Run the imported copy of this module, not ``__main__``: ``note`` (imported by the tasks
    # as clinparser.workers.worker_main) must find the answer stream ``main`` sets.
    from clinparser.workers import worker_main

    worker_main.main()
    sys.stderr.flush()
    # Nothing is left to do: skip the interpreter's teardown of the converter's modules, which
    # the parent would otherwise wait for.
    os._exit(0)
