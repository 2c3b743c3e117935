"""``clinparser batch --ray auto|ADDRESS``: one Ray task per document (the optional extra
``clinparser[ray]``; Ray is imported only here, only when asked for).

Each task runs ``batch.parse_one``: it parses the document with one CPU and writes its folder
under the batch's output itself, so that output must be one every node reaches: a local
folder on one machine; a shared mount such as NFS, or an fsspec URL (``s3://...``), on a
cluster. The task returns the document's manifest line; the driver writes the manifest.
ClinParser (and the URL's fsspec package, such as s3fs) must be installed on every node (or
shipped with Ray's ``runtime_env``).

Pages converted reach the driver live: each task sends ``(source, done, total)`` to a small
actor without waiting for it (one message per few pages), and the driver collects them while
it waits for results.
"""

from __future__ import annotations

import os
from dataclasses import replace
from typing import Callable, Iterator, Optional

from ..errors import InputError
from .task import Job, Settings, parse_one, record


def connect(address: str) -> None:
    """``auto``: the Ray cluster this machine belongs to (``RAY_ADDRESS``, or one ``ray start``
    made here), or else a new local Ray on this machine's cores; anything else is a cluster's
    address (``ray://head:10001``, ``head:6379``). An already initialized Ray is used as it is.

    Ray reports usage statistics over the internet by default; ClinParser makes no network
    call, so a Ray it starts has that turned off (and no dashboard, a web server nobody asked
    for). A cluster someone else started keeps its own settings: start it with
    ``--disable-usage-stats``."""
    os.environ["RAY_USAGE_STATS_ENABLED"] = "0"  # read by ray.init when it starts a local Ray
    try:
        import ray
    except ImportError:
        raise InputError("--ray needs Ray, which is not installed: pip install 'clinparser[ray]'") from None
    if ray.is_initialized():
        return
    try:
        # None is Ray's own "connect to the running cluster if there is one, else start one".
        ray.init(
            address=None if address == "auto" else address,
            logging_level="ERROR",
            log_to_driver=False,
            include_dashboard=False,
        )  # ignored when connecting
    except (ConnectionError, RuntimeError, ValueError) as exc:
        raise InputError(f"cannot connect to the Ray cluster at {address}: {exc}") from None


POLL = 0.5  # seconds between collections of page notes while waiting for results


class PageBoard:
    """The Ray actor page notes are sent to: it keeps them until the driver takes them."""

    def __init__(self):
        self.notes: list[tuple] = []

    def add(self, note: tuple) -> None:
        self.notes.append(note)

    def take(self) -> list[tuple]:
        notes, self.notes = self.notes, []
        return notes


class _Sender:
    """In a task: sends page notes to the board without waiting for them (the conversion goes
    on at once). A task waits once, at its end, for its last note to be on the board, so that
    the driver, which collects after it sees the task's result, has every note of it."""

    def __init__(self, board):
        self.board, self.last = board, None

    def __call__(self, note: tuple) -> None:
        self.last = self.board.add.remote(note)

    def flush(self) -> None:
        if self.last is not None:
            import ray

            ray.wait([self.last], timeout=10)  # an actor gone (the driver stopped) does not hold the task


def parse_in_task(job: Job, settings: Settings, out: str, board=None) -> dict:
    """``parse_one`` in a Ray task, its page notes sent to ``board``."""
    send = _Sender(board) if board is not None else None
    try:
        return parse_one(job, settings, out, send)
    finally:
        if send is not None:
            send.flush()


def run_on_ray(
    jobs: list[Job],
    settings: Settings,
    out: str,
    address: str,
    on_pages: Optional[Callable[[str, int, int], None]] = None,
) -> Iterator[tuple[Job, dict]]:
    """Yield ``(job, manifest line)`` as the tasks finish; ``on_pages(source, done, total)`` is
    called (in this thread) as the tasks convert pages."""
    connect(address)
    import ray

    # One CPU per document, its pages converted in the task's own process; a task whose
    # process dies is not retried (it would likely die again): it is that document's failure.
    task = ray.remote(num_cpus=1, max_retries=0)(parse_in_task)
    # The board takes no CPU: it must not hold a document's slot, and its work is a list append.
    board = ray.remote(num_cpus=0)(PageBoard).remote() if on_pages else None
    each = replace(settings, options=replace(settings.options, workers=1))
    pending = {task.remote(job, each, out, board): job for job in jobs}

    def collect() -> None:
        if board is not None:
            for note in ray.get(board.take.remote()):
                on_pages(*note)

    try:
        while pending:
            done, _ = ray.wait(list(pending), num_returns=1, timeout=POLL if board is not None else None)
            collect()
            for ref in done:
                job = pending.pop(ref)
                try:
                    line = ray.get(ref)
                except ray.exceptions.RayError as exc:
                    line = record(
                        job, "failed", f"{job.source}: the Ray task parsing it failed: {str(exc).splitlines()[0]}"
                    )
                yield job, line
    finally:
        for ref in pending:  # Ctrl-C, or a driver error: stop what is still running
            ray.cancel(ref, force=True)
        if board is not None:
            ray.kill(board)
