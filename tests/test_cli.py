"""The command line as a user meets it: one-line errors, exit codes, pure JSON on stdout."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest


def run(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "clinparser", *map(str, args)], capture_output=True, text=True, cwd=cwd)


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
