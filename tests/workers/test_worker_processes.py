"""Worker processes: started without the caller's __main__, so the API works in any script."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import psutil
import pymupdf
import pytest

from clinparser.workers.worker_processes import WorkerDied, WorkerPool

ROOT = Path(__file__).resolve().parents[2]


def _env() -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    return env


def test_pool_runs_calls_returns_errors_and_survives_a_dead_worker():
    from clinparser.batch.task import _PageNotes

    notes = []
    pool = WorkerPool(1, start=1, on_note=lambda future, value: notes.append(value))
    try:
        assert pool.submit(os.getpid).result(60) != os.getpid()
        assert pool.submit(_PageNotes("a.pdf").pages, 3, 5).result(60) is None
        assert notes == [("a.pdf", 3, 5)], "a task's note did not reach the parent"
        with pytest.raises(ValueError, match="invalid literal"):
            pool.submit(int, "x").result(60)
        first = pool.processes[0]
        running = pool.submit(time.sleep, 60)
        time.sleep(1)
        first.kill()
        with pytest.raises(WorkerDied):
            running.result(60)
        assert pool.submit(len, "abc").result(60) == 3, "the next task gets a fresh worker"
        assert len(pool.processes) == 2
    finally:
        pool.shutdown(wait=True)
    assert all(p.poll() is not None for p in pool.processes), "a worker outlived shutdown"


# A script without the __main__ guard: under multiprocessing's spawn each worker would run it
# again (and parse again). MARKS gets one line per run of the top level.
UNGUARDED = textwrap.dedent(
    """
    import json, os, sys, threading
    import psutil
    from clinparser import PDFParser
    from clinparser.convert.engines import page_workers

    with open(sys.argv[2], "a") as marks:
        marks.write(f"{os.getpid()}\\n")
    submitted = []
    real_submit = page_workers.WorkerPool.submit
    def counting(self, *args):
        submitted.append(1)
        return real_submit(self, *args)
    page_workers.WorkerPool.submit = counting

    def parse():
        result = PDFParser(workers=2).parse(sys.argv[1], output_dir=None)
        alive = [p.pid for p in psutil.Process().children(recursive=True)]
        return {"sections": len(result["toc"]), "warnings": result["metadata"]["warnings"], "alive": alive}

    runs = [parse()]
    if sys.argv[3] == "thread":
        box = []
        thread = threading.Thread(target=lambda: box.append(parse()))
        thread.start(); thread.join()
        runs += box
    print(json.dumps({"runs": runs, "tasks_at_workers": len(submitted)}))
    """
)


@pytest.fixture(scope="module")
def six_pages(tmp_path_factory, generator):
    folder = tmp_path_factory.mktemp("six")
    full = folder / "protocol_001.pdf"
    generator.build_named("protocol_001", full)
    doc = pymupdf.open(full)
    doc.select(range(6))
    short = folder / "six.pdf"
    doc.save(short)
    return short


@pytest.mark.parametrize("form", ["script", "thread", "-c", "stdin"])
def test_parse_works_once_in_any_kind_of_script(six_pages, tmp_path, form):
    marks = tmp_path / "marks.txt"
    script = tmp_path / "unguarded.py"
    script.write_text(UNGUARDED)
    args = [str(six_pages), str(marks), form]
    if form in ("script", "thread"):
        proc = subprocess.run(
            [sys.executable, str(script), *args], capture_output=True, text=True, env=_env(), cwd=tmp_path
        )
    elif form == "-c":
        proc = subprocess.run(
            [sys.executable, "-c", UNGUARDED, *args], capture_output=True, text=True, env=_env(), cwd=tmp_path
        )
    else:
        proc = subprocess.run(
            [sys.executable, "-", *args], input=UNGUARDED, capture_output=True, text=True, env=_env(), cwd=tmp_path
        )
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert len(marks.read_text().split()) == 1, "the script's top level ran again in a worker"
    assert len(out["runs"]) == (2 if form == "thread" else 1)
    for run in out["runs"]:
        assert run["sections"] >= 1
        assert not any("worker" in w for w in run["warnings"]), run["warnings"]
        assert run["alive"] == [], "a worker process outlived parse()"
    assert out["tasks_at_workers"] >= 1, "the pages were not shared with a worker process"


def test_no_worker_outlives_the_cli(six_pages, tmp_path):
    proc = subprocess.Popen(
        [sys.executable, "-m", "clinparser", str(six_pages), "--workers", "2", "-o", str(tmp_path), "--quiet"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=_env(),
    )
    seen: set[int] = set()
    parent = psutil.Process(proc.pid)
    while proc.poll() is None:
        try:
            seen.update(child.pid for child in parent.children(recursive=True))
        except psutil.NoSuchProcess:
            break
        time.sleep(0.05)
    proc.communicate()
    assert proc.returncode == 0
    assert seen, "no worker process was seen: the test no longer watches anything"
    alive = [pid for pid in seen if psutil.pid_exists(pid) and psutil.Process(pid).status() != psutil.STATUS_ZOMBIE]
    assert alive == [], "worker processes still running after the CLI returned"


def test_a_worker_exits_when_its_parent_is_killed(tmp_path):
    script = textwrap.dedent(
        """
        import time
        from clinparser.workers.worker_processes import WorkerPool
        pool = WorkerPool(1, start=1)
        pool.submit(time.sleep, 120)
        print(pool.processes[0].pid, flush=True)
        time.sleep(120)
        """
    )
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True, env=_env())
    worker = int(proc.stdout.readline())
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    deadline = time.monotonic() + 10
    while (
        psutil.pid_exists(worker)
        and psutil.Process(worker).status() != psutil.STATUS_ZOMBIE
        and time.monotonic() < deadline
    ):
        time.sleep(0.1)
    assert not psutil.pid_exists(worker) or psutil.Process(worker).status() == psutil.STATUS_ZOMBIE, (
        "the worker kept running"
    )


def test_parse_works_once_in_a_jupyter_kernel(six_pages, tmp_path):
    manager_module = pytest.importorskip(
        "jupyter_client.manager", reason="the dev extra installs jupyter_client and ipykernel"
    )
    pytest.importorskip("ipykernel")
    marks = tmp_path / "marks.txt"
    manager, client = manager_module.start_new_kernel(kernel_name="python3", env=_env(), cwd=str(tmp_path))
    printed: list[str] = []

    def collect(message):
        if message["msg_type"] == "stream":
            printed.append(message["content"]["text"])
        elif message["msg_type"] == "error":
            printed.append("\n".join(message["content"]["traceback"]))

    try:
        code = f"import sys\nsys.argv = ['kernel', {str(six_pages)!r}, {str(marks)!r}, 'kernel']\n" + UNGUARDED
        reply = client.execute_interactive(code, timeout=300, output_hook=collect)
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)
    assert reply["content"]["status"] == "ok", "".join(printed)[-3000:]
    out = json.loads("".join(printed).strip().splitlines()[-1])
    assert len(marks.read_text().split()) == 1, "the cell ran again in a worker"
    run = out["runs"][0]
    assert run["sections"] >= 1 and run["alive"] == [] and out["tasks_at_workers"] >= 1
    assert not any("worker" in w for w in run["warnings"]), run["warnings"]
