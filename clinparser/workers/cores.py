"""How many worker processes this machine can take: the cores this process may use and the
memory now available, both capped by a container's cgroup v2 limits (which the standard library
and psutil do not see)."""

from __future__ import annotations

import os
from typing import Optional

GB_PER_WORKER = 1.0  # memory to allow per layout worker process (measured peak: 0.55 GB)


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
