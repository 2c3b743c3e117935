"""``clinparser batch --ray auto|ADDRESS``: one Ray task per document (the optional extra
``clinparser[ray]``; Ray is imported only here, only when asked for).

Each task runs ``batch.parse_one``: it parses the document with one CPU and writes its folder
under the batch's output path itself, so that path must be the same on every node (a local
folder on one machine; a shared mount such as NFS on a cluster). The task returns the
document's manifest line; the driver writes the manifest. ClinParser must be installed on
every node (or shipped with Ray's ``runtime_env``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Iterator

from .batch import Job, Settings, parse_one, record
from .errors import InputError


def connect(address: str) -> None:
    """``auto``: the Ray cluster this machine belongs to (``RAY_ADDRESS``, or one ``ray start``
    made here), or else a new local Ray on this machine's cores; anything else is a cluster's
    address (``ray://head:10001``, ``head:6379``). An already initialized Ray is used as it is."""
    try:
        import ray
    except ImportError:
        raise InputError("--ray needs Ray, which is not installed: pip install 'clinparser[ray]'") from None
    if ray.is_initialized():
        return
    try:
        # None is Ray's own "connect to the running cluster if there is one, else start one".
        ray.init(address=None if address == "auto" else address, logging_level="ERROR", log_to_driver=False)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        raise InputError(f"cannot connect to the Ray cluster at {address}: {exc}") from None


def run_on_ray(jobs: list[Job], settings: Settings, out: str, address: str) -> Iterator[tuple[Job, dict]]:
    """Yield ``(job, manifest line)`` as the tasks finish."""
    connect(address)
    import ray

    # One CPU per document, its pages converted in the task's own process; a task whose
    # process dies is not retried (it would likely die again): it is that document's failure.
    task = ray.remote(num_cpus=1, max_retries=0)(parse_one)
    each = replace(settings, options=replace(settings.options, workers=1))
    pending = {task.remote(job, each, out): job for job in jobs}
    try:
        while pending:
            done, _ = ray.wait(list(pending), num_returns=1)
            job = pending.pop(done[0])
            try:
                line = ray.get(done[0])
            except ray.exceptions.RayError as exc:
                line = record(job, "failed", f"{job.source}: the Ray task parsing it failed: {str(exc).splitlines()[0]}")
            yield job, line
    finally:
        for ref in pending:  # Ctrl-C, or a driver error: stop what is still running
            ray.cancel(ref, force=True)
