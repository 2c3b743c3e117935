"""Many protocols at once: a shell loop of ``clinparser`` calls against ``clinparser batch``.

    python benchmarks/batch.py [--corpus ../shared/corpus] [--only NAME ...] [--modes a,b,r,c2,c1]

Modes, each a fresh command on the same documents (PDF and DOCX), timed end to end:
(a) a shell loop: one ``clinparser FILE`` call per document, default ``--workers``;
(b) ``clinparser batch`` with the local process pool (default ``--workers``);
(r) the same ``clinparser batch`` command again, which skips every document;
(c2), (c1) ``clinparser batch --ray auto`` against a Ray cluster on this machine with 2 and
1 CPUs (``ray start --head --num-cpus N`` before the clock starts, as a cluster would be
running; ``ray stop`` after).
It prints, per mode: seconds, documents per minute, pages per second, the speed-up over (a),
the CPU seconds the command and its processes used (user + system, from the kernel's account
of waited-for descendants; Ray's workers are not the command's, so n/a for c2 and c1), how busy
that kept the cores (CPU seconds over seconds times cores), peak memory (the largest sum of
resident memory over the command's processes and Ray's workers, sampled every 100 ms), and
whether every document's files are byte-identical to (a)'s (``batch.json``, which only batch
writes, aside).

The CPU seconds bound what any batch can win: a batch does each document's work too, so it
takes at least its CPU seconds over the cores. "ceiling" is (a)'s seconds over that: the
speed-up a batch doing this mode's work would reach with every core busy all the time.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parent.parent
RAY = str(Path(sys.executable).parent / "ray")  # the command-line tool of the Ray in this environment


def clinparser(*args: str) -> list[str]:
    return [sys.executable, "-m", "clinparser", *args]


def ray_workers() -> list[psutil.Process]:
    """Ray's worker processes (Ray renames them ``ray::IDLE``, ``ray::parse_one``...)."""
    found = []
    for proc in psutil.process_iter(["cmdline"]):
        cmdline = " ".join(proc.info["cmdline"] or [])
        if cmdline.startswith("ray::") or "default_worker.py" in cmdline:
            found.append(proc)
    return found


def cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def children_cpu() -> float:
    """CPU seconds (user + system) of this process's waited-for descendants so far."""
    times = os.times()
    return times.children_user + times.children_system


def run_timed(commands: list[list[str]], env: dict, with_ray: bool) -> tuple[float, float, list[int], float]:
    """Run the commands one after the other; seconds, peak MB, exit codes, CPU seconds."""
    peak, codes = 0.0, []
    cpu = children_cpu()
    start = time.perf_counter()
    for command in commands:
        proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        parent = psutil.Process(proc.pid)
        while proc.poll() is None:
            try:
                processes = [parent, *parent.children(recursive=True)] + (ray_workers() if with_ray else [])
                peak = max(peak, sum(_rss(p) for p in processes) / 2**20)
            except psutil.NoSuchProcess:
                pass
            time.sleep(0.1)
        codes.append(proc.returncode)
    return time.perf_counter() - start, peak, codes, children_cpu() - cpu


def _rss(proc: psutil.Process) -> int:
    try:
        return proc.memory_info().rss
    except psutil.Error:
        return 0


def files_of(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.name != "batch.json"
    }


def loop_outputs(out: Path, docs: list[Path]) -> dict[str, dict[str, bytes]]:
    return {
        doc.name: files_of(next((out / doc.stem).iterdir()))
        for doc in docs
        if (out / doc.stem).is_dir() and any((out / doc.stem).iterdir())
    }


def batch_outputs(out: Path) -> dict[str, dict[str, bytes]]:
    lines = [json.loads(line) for line in (out / "manifest.jsonl").read_text(encoding="utf-8").splitlines()]
    return {
        Path(line["source"]).name: files_of(out / line["output"])
        for line in lines
        if line["status"] in ("ok", "skipped")
    }


def page_count(doc: Path) -> int:
    if doc.suffix.lower() != ".pdf":
        return 0
    import pymupdf

    with pymupdf.open(doc) as pdf:
        return pdf.page_count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--only", nargs="*", help="file names (or stems) of the corpus to use")
    parser.add_argument("--modes", default="a,b,r,c2,c1")
    args = parser.parse_args()
    docs = sorted(p for p in args.corpus.iterdir() if p.suffix.lower() in (".pdf", ".docx"))
    if args.only:
        docs = [d for d in docs if d.name in args.only or d.stem in args.only]
    pages = sum(page_count(d) for d in docs)
    modes = args.modes.split(",")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    work = Path(tempfile.mkdtemp(prefix="clinparser-batch-bench-"))
    inputs = [str(d) for d in docs]
    rows, outputs = [], {}
    try:
        for mode in modes:
            with_ray = mode.startswith("c")
            run_env = dict(env)
            if mode == "a":
                out = work / "a"
                commands = [clinparser(str(d), "-o", str(out / d.stem), "--quiet") for d in docs]
            elif mode in ("b", "r"):
                out = work / "b"
                commands = [clinparser("batch", *inputs, "-o", str(out), "--quiet")]
            else:
                out = work / mode
                cpus = mode[1:]
                subprocess.run(
                    [
                        RAY,
                        "start",
                        "--head",
                        f"--num-cpus={cpus}",
                        "--include-dashboard=false",
                        "--disable-usage-stats",
                    ],
                    check=True,
                    capture_output=True,
                    env=env,
                )
                run_env["RAY_ADDRESS"] = "auto"
                commands = [clinparser("batch", *inputs, "-o", str(out), "--quiet", "--ray", "auto")]
            try:
                seconds, peak, codes, cpu = run_timed(commands, run_env, with_ray)
            finally:
                if with_ray:
                    subprocess.run([RAY, "stop", "--force"], capture_output=True, env=env)
            found = loop_outputs(out, docs) if mode == "a" else batch_outputs(out)
            outputs[mode] = found
            rows.append((mode, seconds, peak, codes, len(found), None if with_ray else cpu))
            print(
                f"{mode}: {seconds:.1f} s, CPU {cpu:.1f} s, peak {peak:.0f} MB, "
                f"exit codes {sorted(set(codes))}, {len(found)} documents",
                file=sys.stderr,
            )
    finally:
        shutil.rmtree(work, ignore_errors=True)
    base = next((seconds for mode, seconds, *_ in rows if mode == "a"), None)
    print(f"{len(docs)} documents ({sum(d.suffix.lower() == '.docx' for d in docs)} DOCX), {pages} PDF pages\n")
    n = cores()
    print(f"{n} cores")
    print(
        "| mode | seconds | documents/min | pages/s | vs (a) | CPU s | cores busy | "
        "ceiling vs (a) | peak MB | same bytes as (a) |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for mode, seconds, peak, codes, count, cpu in rows:
        same = (
            "n/a"
            if mode == "a" or "a" not in outputs
            else (
                "yes"
                if outputs[mode] == outputs["a"]
                else f"NO ({sum(outputs[mode].get(k) != v for k, v in outputs['a'].items())} differ)"
            )
        )
        speed = f"{base / seconds:.2f}x" if base else "n/a"
        busy = f"{cpu / (seconds * n):.0%}" if cpu is not None else "n/a"
        ceiling = f"{base / (cpu / n):.2f}x" if cpu and base and mode != "r" else "n/a"
        cpu_s = f"{cpu:.1f}" if cpu is not None else "n/a"
        print(
            f"| {mode} | {seconds:.1f} | {len(docs) / seconds * 60:.1f} | {pages / seconds:.2f} | {speed} | "
            f"{cpu_s} | {busy} | {ceiling} | {peak:.0f} | {same} |"
        )


if __name__ == "__main__":
    main()
