"""clinparser batch --ray: a real local Ray cluster gives the bytes the local pool gives."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from clinparser.batch import run as batch

ray = pytest.importorskip("ray", reason="Ray is the optional extra clinparser[ray] (CI installs it)")

ROOT = Path(__file__).resolve().parents[2]


def output_files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def local_ray():
    # Ray's worker processes import clinparser: give them this checkout, as the test has it.
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    os.environ["RAY_USAGE_STATS_ENABLED"] = "0"  # a test makes no network call either
    ray.init(num_cpus=2, include_dashboard=False, runtime_env={"env_vars": {"PYTHONPATH": path}}, logging_level="ERROR")
    yield
    ray.shutdown()


def test_ray_and_the_local_pool_write_the_same_bytes(local_ray, generator, tmp_path):
    from helpers import make_docx

    inputs = tmp_path / "in"
    inputs.mkdir()
    generator.build_named("protocol_002", inputs / "good.pdf")
    make_docx(inputs / "word.docx")
    (inputs / "broken.pdf").write_bytes(b"%PDF-1.7\n not a real PDF at all")
    settings = batch.Settings(fmt="chunks")
    runs = {}
    for mode in ("local", "ray"):
        out = tmp_path / mode
        lines = batch.run_batch([str(inputs)], out, settings, ray_address="auto" if mode == "ray" else None)
        assert [line["status"] for line in lines] == ["failed", "ok", "ok"], lines
        assert "broken.pdf" in lines[0]["error"]
        runs[mode] = {line["output"]: output_files(out / line["output"]) for line in lines if line["status"] == "ok"}
        manifest = [json.loads(line) for line in (out / "manifest.jsonl").read_text(encoding="utf-8").splitlines()]
        assert [m["source"] for m in manifest] == [line["source"] for line in lines]
    assert runs["ray"] == runs["local"]
    assert all("document.json" in files and "chunks.jsonl" in files for files in runs["ray"].values())


def test_ray_tasks_write_to_a_url_and_report_their_pages_as_they_go(local_ray, tmp_path):
    """Each task uploads its document's folder to a file:// URL (memory:// would be each Ray
    worker's own), with the bytes a local-path batch writes; pages reach the driver live."""
    inputs = [str(ROOT / "examples" / "input" / name) for name in ("protocol_003.pdf", "protocol_004.pdf")]
    settings = batch.Settings(fmt="chunks")
    local = batch.run_batch(inputs, tmp_path / "local", settings)
    url = f"file://{tmp_path}/remote"
    pages: list[tuple] = []
    lines = batch.run_batch(inputs, url, settings, ray_address="auto", on_pages=lambda *note: pages.append(note))
    assert [line["status"] for line in lines] == ["ok", "ok"], lines
    for mine, theirs in zip(lines, local):
        assert mine["output"] == theirs["output"]
        assert output_files(tmp_path / "remote" / mine["output"]) == output_files(tmp_path / "local" / theirs["output"])
    assert not [p for p in (tmp_path / "remote").iterdir() if p.name.startswith(".")], "a temporary upload was left"

    for line in lines:
        counts = [(done, total) for source, done, total in pages if source == line["source"]]
        assert counts and counts[-1] == (line["pages"], line["pages"]), (line["source"], counts)
        assert [done for done, _ in counts] == sorted(done for done, _ in counts)
    seven = [done for source, done, _ in pages if source.endswith("protocol_003.pdf")]
    assert len(seven) > 1 and seven[0] < 7, "pages are reported as they are converted, not once at the end"

    again = batch.run_batch(inputs, url, settings, ray_address="auto")
    assert [line["status"] for line in again] == ["skipped", "skipped"]


def test_a_ray_clinparser_starts_reports_no_usage_statistics():
    """Ray sends usage statistics over the internet unless told not to; ``connect`` tells it.
    Run in a fresh process whose environment says nothing, with no cluster to join."""
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    script = (
        "import ray\n"
        "from ray._common.usage import usage_lib\n"
        "from clinparser.batch.on_ray import connect\n"
        "assert usage_lib.usage_stats_enabled(), 'Ray reports by default: this test would prove nothing'\n"
        "connect('local')\n"
        "print(usage_lib.usage_stats_enabled(), ray.cluster_resources().get('CPU', 0) > 0)\n"
        "ray.shutdown()\n"
    )
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["False", "True"]
