"""clinparser batch: one folder per document, a manifest, isolated failures, resumable runs."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pymupdf
import pytest

from clinparser.batch import run as batch
from clinparser.convert.options import ParseOptions
from clinparser.errors import InputError

ROOT = Path(__file__).resolve().parents[2]


def _env() -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    return env


def run_cli(*args, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "clinparser", "batch", *map(str, args)],
        capture_output=True,
        text=True,
        env=_env(),
        **kwargs,
    )


def manifest(out: Path) -> dict[str, dict]:
    lines = [json.loads(line) for line in (out / "manifest.jsonl").read_text(encoding="utf-8").splitlines()]
    return {Path(line["source"]).name: line for line in lines}


def document_folders(out: Path) -> list[Path]:
    return sorted(p for p in out.iterdir() if p.is_dir())


def output_files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def mixed_folder(tmp_path_factory, generator):
    """A good PDF, a DOCX, a truncated PDF and an encrypted one."""
    from helpers import make_docx

    folder = tmp_path_factory.mktemp("mixed")
    good = folder / "good.pdf"
    generator.build_named("protocol_002", good)
    make_docx(folder / "word.docx")
    (folder / "truncated.pdf").write_bytes(good.read_bytes()[:1000])
    pymupdf.open(good).save(
        folder / "locked.pdf", encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="secret", owner_pw="owner"
    )
    return folder


def test_a_folder_of_good_and_bad_files_then_a_rerun_that_skips(mixed_folder, tmp_path):
    out = tmp_path / "out"
    proc = run_cli(mixed_folder, "-o", out, "--format", "chunks", "--combined-chunks", "--workers", "2")
    assert proc.returncode == 10, proc.stderr[-3000:]
    lines = manifest(out)
    assert {name: line["status"] for name, line in lines.items()} == {
        "good.pdf": "ok",
        "word.docx": "ok",
        "truncated.pdf": "failed",
        "locked.pdf": "failed",
    }
    assert "damaged" in lines["truncated.pdf"]["error"] and "truncated.pdf" in lines["truncated.pdf"]["error"]
    assert "encrypted" in lines["locked.pdf"]["error"] and "--password" in lines["locked.pdf"]["error"]
    for name in ("good.pdf", "word.docx"):
        line = lines[name]
        assert line["sections"] >= 3 and line["error"] is None and line["warnings"] == 0
        assert line["pages"] == (10 if name == "good.pdf" else 0)  # a Word file has no pages
        assert line["output"].startswith(Path(name).stem + "-") and line["output"].endswith(line["sha256"][:12])
        result = json.loads((out / line["output"] / "document.json").read_text(encoding="utf-8"))
        assert result["metadata"]["sha256"] == line["sha256"]
    assert [p.name for p in document_folders(out)] == sorted(lines[n]["output"] for n in ("good.pdf", "word.docx"))
    per_document = "".join(
        (out / lines[n]["output"] / "chunks.jsonl").read_text(encoding="utf-8")
        for n in sorted(lines)
        if lines[n]["status"] == "ok"
    )
    combined = (out / "chunks.jsonl").read_text(encoding="utf-8")
    assert combined and sorted(combined.splitlines()) == sorted(per_document.splitlines())
    assert "failed" in proc.stderr and "locked.pdf is encrypted" in proc.stderr  # the summary says it too
    before = {p.name: output_files(p) for p in document_folders(out)}

    start = time.monotonic()
    again = run_cli(mixed_folder, "-o", out, "--format", "chunks", "--combined-chunks", "--workers", "2")
    assert again.returncode == 10
    lines = manifest(out)
    assert {name: line["status"] for name, line in lines.items()} == {
        "good.pdf": "skipped",
        "word.docx": "skipped",
        "truncated.pdf": "failed",
        "locked.pdf": "failed",
    }
    assert lines["good.pdf"]["pages"] == 10 and lines["good.pdf"]["seconds"] == 0
    assert {p.name: output_files(p) for p in document_folders(out)} == before
    assert time.monotonic() - start < 60

    # Other options are another output: the documents are parsed again, in place.
    third = run_cli(mixed_folder / "good.pdf", "-o", out, "--format", "usdm")
    assert third.returncode == 0, third.stderr[-2000:]
    assert manifest(out)["good.pdf"]["status"] == "ok"
    assert (out / lines["good.pdf"]["output"] / "usdm.json").exists()
    assert not (out / lines["good.pdf"]["output"] / "chunks.jsonl").exists()


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM])
def test_a_killed_run_leaves_no_partial_folder_and_resumes(generator, tmp_path, how):
    import psutil

    inputs = tmp_path / "in"
    inputs.mkdir()
    for name in ("protocol_001", "protocol_002"):
        generator.build_named(name, inputs / f"{name}.pdf")
    out = tmp_path / "out"
    proc = subprocess.Popen(
        [sys.executable, "-m", "clinparser", "batch", str(inputs), "-o", str(out), "--workers", "1", "-q"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=_env(),
    )
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and proc.poll() is None:  # until the first document is done
        if (out / "manifest.jsonl").exists() and '"ok"' in (out / "manifest.jsonl").read_text(encoding="utf-8"):
            break
        time.sleep(0.1)
    assert proc.poll() is None, "the batch ended before it could be killed"
    workers = psutil.Process(proc.pid).children(recursive=True)
    os.kill(proc.pid, how)
    proc.wait()
    if how == signal.SIGTERM:  # stopped as Ctrl-C stops it: its workers and their partial folders go at once
        assert proc.returncode == 130
        assert not [p for p in out.iterdir() if p.name.startswith(".clinparser-")]
        psutil.wait_procs(workers, timeout=10)
        assert workers and not [w for w in workers if w.is_running() and w.status() != psutil.STATUS_ZOMBIE]
    done = [p for p in document_folders(out) if not p.name.startswith(".")]
    assert len(done) == 1 and (done[0] / "batch.json").exists(), "a document folder appeared before it was complete"

    again = run_cli(inputs, "-o", out, "--workers", "1", "-q")
    assert again.returncode == 0, again.stderr[-2000:]
    statuses = sorted(line["status"] for line in manifest(out).values())
    assert statuses == ["ok", "skipped"]
    assert not [p for p in out.iterdir() if p.name.startswith(".clinparser-")], "a partial folder was left"


def test_inputs_folders_globs_and_errors(tmp_path):
    (tmp_path / "a").mkdir()
    for name in ("a/x.pdf", "a/y.DOCX", "a/notes.txt", "z.pdf"):
        (tmp_path / name).write_bytes(b"%PDF-1.4")
    found = batch.find_inputs([str(tmp_path / "a"), str(tmp_path / "*.pdf"), str(tmp_path / "a" / "x.pdf")])
    assert [p.name for p in found] == ["x.pdf", "y.DOCX", "z.pdf"]  # each once, in the order given
    with pytest.raises(InputError, match="no such file"):
        batch.find_inputs([str(tmp_path / "missing*.pdf")])


def test_same_name_other_content_gets_its_own_folder_and_options_decide_skipping(tmp_path):
    one, two = tmp_path / "one", tmp_path / "two"
    one.mkdir(), two.mkdir()
    (one / "p.pdf").write_bytes(b"%PDF-1.4 first")
    (two / "p.pdf").write_bytes(b"%PDF-1.4 second")
    jobs = batch.plan([one / "p.pdf", two / "p.pdf"])
    assert jobs[0].output != jobs[1].output and all(j.output.startswith("p-") for j in jobs)
    settings = batch.Settings()
    out = tmp_path / "out"
    (out / jobs[0].output).mkdir(parents=True)
    marker = {"sha256": jobs[0].sha256, "options": settings.key(), "pages": 3, "sections": 2, "warnings": 0}
    (out / jobs[0].output / "batch.json").write_text(json.dumps(marker))
    assert batch.already_done(jobs[0], settings, out)["status"] == "skipped"
    assert batch.already_done(jobs[1], settings, out) is None
    other = batch.Settings(fmt="usdm")
    assert batch.already_done(jobs[0], other, out) is None
    workers = batch.Settings(options=ParseOptions(workers=7))
    assert batch.already_done(jobs[0], workers, out) is not None, "the worker count does not change the output"


# -- output to an fsspec URL ---------------------------------------------------------------------

EXAMPLES = ROOT / "examples" / "input"


def url_files(fs, root: str) -> dict[str, bytes]:
    return {path[len(root) + 1 :]: fs.cat_file(path) for path in sorted(fs.find(root))}


def without_seconds(text: bytes) -> list[dict]:
    return [{k: v for k, v in json.loads(line).items() if k != "seconds"} for line in text.decode("utf-8").splitlines()]


def test_a_batch_to_a_url_writes_what_a_folder_gets_reruns_skip_and_unfinished_uploads_are_redone(tmp_path):
    import uuid

    import fsspec

    inputs = [str(EXAMPLES / "protocol_003.pdf"), str(EXAMPLES / "protocol_004.pdf")]
    settings = batch.Settings(fmt="chunks")
    local = tmp_path / "local"
    batch.run_batch(inputs, local, settings, combined_chunks=True)
    url = f"memory://run-{uuid.uuid4().hex[:8]}"  # memory:// is one store per process: a fresh name
    fs, root = fsspec.url_to_fs(url)
    pages = []
    lines = batch.run_batch(inputs, url, settings, combined_chunks=True, on_pages=lambda *note: pages.append(note))
    assert [line["status"] for line in lines] == ["ok", "ok"], lines

    remote = url_files(fs, root)
    folder = {str(p.relative_to(local)): p.read_bytes() for p in sorted(local.rglob("*")) if p.is_file()}
    assert sorted(remote) == sorted(folder) and len(remote) > 10
    assert {k: v for k, v in remote.items() if k != "manifest.jsonl"} == {
        k: v for k, v in folder.items() if k != "manifest.jsonl"
    }
    assert without_seconds(remote["manifest.jsonl"]) == without_seconds(folder["manifest.jsonl"])
    assert (
        max(done for source, done, total in pages if source.endswith("protocol_003.pdf")) == 7
    )  # the workers' pages reached the driver

    # A rerun skips everything, from the URL's contents alone.
    again = batch.run_batch(inputs, url, settings, combined_chunks=True)
    assert [line["status"] for line in again] == ["skipped", "skipped"]
    assert {k: v for k, v in url_files(fs, root).items() if k != "manifest.jsonl"} == {
        k: v for k, v in remote.items() if k != "manifest.jsonl"
    }

    # An upload interrupted before its marker (the last thing written), and the temporary
    # folder of another one: the document is parsed again, the leftover removed.
    first = lines[0]["output"]
    fs.rm(f"{root}/{first}/batch.json")
    fs.pipe_file(f"{root}/.clinparser-partial-0123456789ab/document.json", b"{}")
    third = batch.run_batch(inputs, url, settings, combined_chunks=True)
    assert [line["status"] for line in third] == ["ok", "skipped"]
    assert {k: v for k, v in url_files(fs, root).items() if k != "manifest.jsonl"} == {
        k: v for k, v in remote.items() if k != "manifest.jsonl"
    }

    # Other options replace the folder: nothing of the old output stays in it.
    usdm = batch.run_batch(inputs[1:], url, batch.Settings(fmt="usdm"))
    assert usdm[0]["status"] == "ok"
    names = url_files(fs, f"{root}/{lines[1]['output']}")
    assert "usdm.json" in names and "chunks.jsonl" not in names
    fs.rm(root, recursive=True)


def test_url_errors_are_one_line(tmp_path):
    import uuid

    from clinparser.errors import OutputError

    pdf = str(EXAMPLES / "protocol_004.pdf")
    with pytest.raises(OutputError, match="no fsspec filesystem for nosuch://"):
        batch.run_batch([pdf], "nosuch://bucket/run", batch.Settings())
    (tmp_path / "file").write_text("not a folder")
    with pytest.raises(OutputError, match="cannot write to file://.*Not a directory"):
        batch.run_batch([pdf], f"file://{tmp_path}/file/run", batch.Settings())
    with pytest.raises(OutputError, match="in this process's memory.*every node"):
        batch.run_batch([pdf], f"memory://run-{uuid.uuid4().hex[:8]}", batch.Settings(), ray_address="auto")


def test_a_url_whose_filesystem_is_not_installed_says_what_to_install(tmp_path):
    import importlib.util

    if importlib.util.find_spec("s3fs"):
        pytest.skip("s3fs is installed here: s3:// has its filesystem")
    proc = run_cli(EXAMPLES / "protocol_004.pdf", "-o", "s3://some-bucket/run")
    assert proc.returncode == 7
    assert proc.stderr.strip().splitlines() == [
        "clinparser: error: cannot write to s3://some-bucket/run: "
        "s3:// needs s3fs, which is not installed: pip install s3fs"
    ]


def test_documents_are_ordered_by_pages_not_bytes(tmp_path):
    """A long text PDF is small in bytes; a short one holding a picture is large. The long one
    goes first, so it does not start last and run alone; failures and Word files have their place."""
    long_text, short_picture = tmp_path / "long.pdf", tmp_path / "short.pdf"
    with pymupdf.open() as doc:
        for k in range(30):
            doc.new_page().insert_text((72, 72), f"page {k}")
        doc.save(long_text)
    with pymupdf.open() as doc:
        doc.new_page().insert_image(pymupdf.Rect(72, 72, 372, 372), stream=_random_png())
        doc.save(short_picture)
    assert short_picture.stat().st_size > long_text.stat().st_size
    word = tmp_path / "notes.docx"
    word.write_bytes(b"x" * (5 * batch.DOCX_BYTES_PER_PAGE))  # counts as 5 pages, unopened
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.7 not really")
    jobs = batch.plan([short_picture, broken, word, long_text])
    assert [Path(job.path).name for job in batch.longest_first(jobs)] == [
        "long.pdf",
        "notes.docx",
        "short.pdf",
        "broken.pdf",
    ]
    assert [batch.work_of(job) for job in jobs] == [1, 0, 5, 30]


def _random_png() -> bytes:
    """A picture that does not compress: bytes in the file."""
    import random

    rng = random.Random(7)
    samples = bytes(rng.randrange(256) for _ in range(300 * 300 * 3))
    return pymupdf.Pixmap(pymupdf.csRGB, 300, 300, samples, False).tobytes("png")
