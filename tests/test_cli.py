"""The command line as a user meets it: one-line errors, exit codes, pure JSON on stdout."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest


def run(*args, cwd=None):
    return subprocess.run(
        [sys.executable, "-m", "clinparser", *map(str, args)], capture_output=True, text=True, cwd=cwd
    )


def one_error_line(proc):
    lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("clinparser: error: "), proc.stderr
    assert "Traceback" not in proc.stderr
    return lines[0]


def test_version():
    proc = run("--version")
    assert proc.returncode == 0 and proc.stdout.startswith("clinparser ")


def test_parse_prints_the_output_folder(example, tmp_path):
    pdf, _ = example
    proc = run(pdf, "--output-dir", tmp_path, "--quiet")
    assert proc.returncode == 0, proc.stderr
    folder = Path(proc.stdout.strip())
    assert folder.parent == tmp_path and (folder / "document.json").is_file()


def test_json_mode_writes_only_json_to_stdout(example, tmp_path):
    pdf, _ = example
    proc = run(pdf, "--output-dir", tmp_path, "--json")
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["toc"] and result["metadata"]["source"] == "protocol_001.pdf"


def _file(name, content):
    def make(folder):
        path = folder / name
        path.write_bytes(content)
        return path

    return make


@pytest.mark.parametrize(
    "make, code, words",
    [
        (lambda d: d / "missing.pdf", 3, "no such file"),
        (lambda d: d, 3, "is a directory"),
        (_file("empty.pdf", b""), 3, "empty"),
        (_file("page.pdf", b"<html><body>hi</body></html>"), 3, "HTML"),
        (_file("notes.pdf", b"just some notes"), 3, "text file"),
        (_file("archive.pdf", b"PK\x03\x04rest"), 3, "ZIP"),
        (_file("data.xlsx", b"PK\x03\x04"), 3, "unsupported file type"),
        (_file("broken.docx", b"PK\x03\x04 not really a zip"), 3, "not a valid .docx"),
        (_file("garbage.pdf", b"%PDF-1.7\n" + b"\x00garbage" * 50), 3, "damaged"),
    ],
)
def test_bad_input_gets_one_line_and_its_exit_code(tmp_path, make, code, words):
    proc = run(make(tmp_path), "--output-dir", tmp_path / "out")
    assert proc.returncode == code
    assert words in one_error_line(proc)
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_docling_engine_without_models_says_how_to_provision(example, tmp_path):
    pdf, _ = example
    proc = run(pdf, "--engine", "docling", "--models", tmp_path / "nope", "--output-dir", tmp_path / "out")
    assert proc.returncode == 5
    line = one_error_line(proc)
    assert "docling-tools models download" in line and "--models" in line


def test_unknown_engine_is_a_usage_error(example, tmp_path):
    pdf, _ = example
    proc = run(pdf, "--engine", "magic", "--output-dir", tmp_path)
    assert proc.returncode != 0 and "Traceback" not in proc.stderr


def test_debug_shows_the_traceback(tmp_path):
    proc = run(tmp_path / "missing.pdf", "--debug")
    assert proc.returncode != 0 and "Traceback" in proc.stderr


def test_validate(example_run, tmp_path):
    _, folder = example_run
    ok = run("validate", folder / "document.json")
    assert ok.returncode == 0 and "valid" in ok.stdout
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"toc": []}))
    proc = run("validate", bad)
    assert proc.returncode == 8 and "does not match the schema" in one_error_line(proc)
    garbage = tmp_path / "garbage.json"
    garbage.write_text("{not json")
    assert run("validate", garbage).returncode == 3


def test_chunks_command_writes_jsonl_that_loads_line_by_line(example, tmp_path):
    pdf, _ = example
    proc = run("chunks", pdf, "--output-dir", tmp_path, "--json", "--quiet", "--max-tokens", "200")
    assert proc.returncode == 0, proc.stderr
    records = [json.loads(line) for line in proc.stdout.splitlines()]
    assert records and all(r["metadata"]["token_count"] <= 200 for r in records if r["metadata"]["kind"] == "text")
    (folder,) = tmp_path.iterdir()
    assert (folder / "chunks.jsonl").read_text(encoding="utf-8") == proc.stdout


def test_bad_format_options_are_one_line_errors(example, tmp_path):
    pdf, _ = example
    assert "no such tokenizer file" in one_error_line(
        run("chunks", pdf, "--tokenizer", tmp_path / "missing.json", "-o", tmp_path)
    )
    assert "unknown --format" in one_error_line(run(pdf, "--format", "xml", "-o", tmp_path))


def test_unreadable_file(tmp_path, monkeypatch):
    # CI runs as root, for whom every file is readable: the permission check is simulated.
    import clinparser.convert.inspect_input as inspect_input
    from clinparser.convert.inspect_input import sniff
    from clinparser.errors import InputError

    locked = tmp_path / "locked.pdf"
    locked.write_bytes(b"%PDF-1.7\n")
    monkeypatch.setattr(inspect_input.os, "access", lambda path, mode: False)
    with pytest.raises(InputError, match="permission denied") as info:
        sniff(locked)
    assert info.value.exit_code == 3


def test_ocr_alone_means_always_and_a_mode_is_passed_on():
    from clinparser.cli import _ocr_alone_means_always

    assert _ocr_alone_means_always(["x.pdf", "--ocr"]) == ["x.pdf", "--ocr=always"]
    assert _ocr_alone_means_always(["--ocr", "x.pdf"]) == ["--ocr=always", "x.pdf"]
    assert _ocr_alone_means_always(["x.pdf", "--ocr", "never", "-q"]) == ["x.pdf", "--ocr=never", "-q"]
    assert _ocr_alone_means_always(["x.pdf", "--ocr=auto"]) == ["x.pdf", "--ocr=auto"]


@pytest.mark.parametrize(
    ("option", "said"),
    [
        ("--ocr=sometimes", "auto, always, never"),
        ("--layout=fast", "unknown layout mode 'fast': choose one of full, auto"),
    ],
)
def test_an_unknown_mode_is_one_line(example, tmp_path, option, said):
    pdf, _ = example
    proc = run(pdf, option, "-o", tmp_path)
    assert proc.returncode != 0 and "Traceback" not in proc.stderr
    assert said in proc.stderr
    assert not any(tmp_path.iterdir())


def test_batch_takes_the_same_ocr_modes(example, tmp_path):
    pdf, _ = example
    proc = run("batch", pdf, "-o", tmp_path, "--ocr", "never", "--workers", "1", "-q")
    assert proc.returncode == 0, proc.stderr
    (line,) = [json.loads(x) for x in (tmp_path / "manifest.jsonl").read_text(encoding="utf-8").splitlines()]
    assert line["status"] == "ok"
