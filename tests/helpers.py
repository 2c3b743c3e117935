"""Fixture makers more than one test module uses (importable: tests/ is on the path)."""

from __future__ import annotations

from pathlib import Path

from loading import load_module  # noqa: F401  (benchmarks/loading.py; conftest puts benchmarks/ on the path)


def make_docx(path: Path) -> Path:
    """A small Word protocol with real heading styles (python-docx comes with docling)."""
    import docx

    d = docx.Document()
    d.add_heading("Synthetic Word Protocol", level=0)
    d.add_paragraph("Sponsor: Example Pharma Inc.")
    d.add_heading("1 Introduction", level=1)
    d.add_paragraph("The introduction explains the study.")
    d.add_heading("1.1 Background", level=2)
    d.add_paragraph("Background text for the Word protocol.")
    d.add_heading("2 Study Population", level=1)
    d.add_heading("2.1 Inclusion Criteria", level=2)
    for k in range(1, 4):
        d.add_paragraph(f"{k}. Participant criterion number {k} holds.")
    table = d.add_table(rows=2, cols=2)
    table.cell(0, 0).text, table.cell(0, 1).text = "Visit", "Day"
    table.cell(1, 0).text, table.cell(1, 1).text = "Screening", "-28"
    d.add_heading("3 Statistics", level=1)
    d.add_paragraph("Analysis text.")
    d.save(path)
    return path


def truth_nodes(sections: list[dict]) -> list[dict]:
    """A generated protocol's truth sections, depth first (each node before its subsections)."""
    out = []
    for node in sections:
        out.append(node)
        out.extend(truth_nodes(node["subsections"]))
    return out


class Progress:
    """A parse reporter that keeps what it hears: (done, total) of the pages converted, and of
    the pictures whose words OCR read."""

    def __init__(self):
        self.pages_seen: list[tuple[int, int]] = []
        self.pictures_seen: list[tuple[int, int]] = []

    def stage(self, name):
        pass

    def pages(self, done, total):
        self.pages_seen.append((done, total))

    def pictures(self, done, total):
        self.pictures_seen.append((done, total))


def score_export(tool: Path, result: dict, gold: Path, tmp_path: Path) -> dict:
    """A result's USDM export scored by one of ``../shared/tools``' scorers (``study_score.py``,
    ``design_score.py``) against ``gold``, run in a child process as the project is judged: the
    figures of its ``score`` (the first of what it returns, when it returns several)."""
    import json
    import subprocess
    import sys

    import pytest

    from clinparser.export.usdm import to_usdm

    if not tool.exists():
        pytest.skip(f"scoring tool missing: {tool} (CI has ../shared/tools)")
    ours = tmp_path / "usdm.json"
    ours.write_text(json.dumps(to_usdm(result)), encoding="utf-8")
    code = (
        f"import json, sys; sys.path.insert(0, {str(tool.parent)!r}); import {tool.stem} as s; "
        f"got = s.score(s.load({str(ours)!r}), s.load({str(gold)!r})); "
        "print(json.dumps(got[0] if isinstance(got, tuple) else got))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)
