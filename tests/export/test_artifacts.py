from __future__ import annotations

import json
import re

import pytest

from clinparser.content.assemble import Tree
from clinparser.errors import OutputError, SchemaError
from clinparser.export.artifacts import SaveOptions, section_folders, slug, write_output
from clinparser.model import Converted, Image, Section, Table
from clinparser.pipeline import Parsed
from clinparser.structure.outline import PrintedToc

HOSTILE = [
    "../../etc/passwd",
    "CON",
    "a/b\\c:d*e?",
    "x" * 400,
    "tab\tnew\nline\x00",
    "\u202eevil\u202c",
    "emoji 🧪 test",
    "",
    ".",
    "..",
]
SAFE = re.compile(r"^[A-Za-z0-9._-]+$")


def test_slugs_are_safe_short_and_never_dot_paths():
    for title in HOSTILE:
        s = slug(title)
        assert SAFE.match(s) and len(s) <= 60 and s not in (".", "..") and not s.startswith("."), (title, s)


def test_folder_names_are_unique_even_when_titles_collide():
    nodes = [Section("1", "Intro", 1), Section("1", "Intro", 1), Section("1", "INTRO", 1), Section("", "", 1)]
    names = list(section_folders(nodes).values())
    assert len(set(n.lower() for n in names)) == len(names)


def _parsed(titles):
    nodes = []
    for k, title in enumerate(titles, 1):
        node = Section(str(k), title, 1, [1, 1], "t")
        node.tables.append(Table("T", 1, [1, 1], ["a"], [["1"]]))
        node.images.append(Image("F", 1, (0, 0, 10, 10), 1, 1, png=b"\x89PNG"))
        nodes.append(node)
    return Parsed(
        tree=Tree(nodes, []), metadata=_metadata(), converted=Converted([], 1, "pymupdf"), printed_toc=PrintedToc()
    )


def _metadata() -> dict:
    """The least metadata the schema accepts: write_output refuses a result that breaks it."""
    summary = {
        "sections": 0,
        "numbers_from": {},
        "outline_entries_found": {},
        "numbering_irregularities": 0,
        "bundled_documents": [],
        "verdict": "ok",
    }
    diagnostics = {
        key: []
        for key in (
            "toc_entries_missing_in_body",
            "numbering_gaps",
            "missing_parents",
            "duplicate_numbers",
            "out_of_order",
            "unresolved_references",
            "numbers_from_outline",
        )
    }
    return {
        "source": "x.pdf",
        "sha256": "0" * 64,
        "page_count": 1,
        "engine": "pymupdf",
        "versions": {"clinparser": "0", "docling": None, "pymupdf": None},
        "warnings": [],
        "diagnostics": {**diagnostics, "summary": summary},
        "pages": [],
    }


def test_hostile_titles_never_write_outside_the_output_folder(tmp_path):
    out = tmp_path / "out"
    folder = write_output(_parsed(HOSTILE), out, SaveOptions())
    written = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert written and all(p.resolve().is_relative_to(folder.resolve()) for p in written)
    doc = json.loads((folder / "document.json").read_text())
    for node in doc["toc"]:
        for item in node["tables"] + node["images"]:
            assert (folder / item["path"]).is_file()


def test_save_flags_are_independent(tmp_path):
    folder = write_output(
        _parsed(["A"]), tmp_path, SaveOptions(save_intermediate_files=False, save_images=False, save_table_csv=True)
    )
    doc = json.loads((folder / "document.json").read_text())
    assert doc["toc"][0]["images"][0]["path"] is None and doc["toc"][0]["tables"][0]["path"]
    assert not (folder / "images").exists() and not (folder / "markdown.md").exists()


def test_a_failed_write_leaves_nothing_behind(tmp_path, monkeypatch):
    import clinparser.export.artifacts as artifacts

    def boom(*a, **k):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(artifacts, "write_csv", boom)
    with pytest.raises(OutputError, match="No space left"):
        write_output(_parsed(["A"]), tmp_path, SaveOptions())
    assert list(tmp_path.iterdir()) == []


def test_a_result_that_breaks_the_schema_is_refused_and_nothing_is_written(tmp_path):
    parsed = _parsed(["A"])
    parsed.metadata["diagnostics"]["toc_entries_missing_in_body"] = [
        {"number": "3", "title": "Objectives", "page": -1, "source": "bookmark"}
    ]
    with pytest.raises(SchemaError, match="does not match clinparser's own schema .*page"):
        write_output(parsed, tmp_path, SaveOptions())
    assert list(tmp_path.iterdir()) == []


def test_two_runs_in_the_same_second_get_two_folders(tmp_path):
    a = write_output(_parsed(["A"]), tmp_path, SaveOptions())
    b = write_output(_parsed(["A"]), tmp_path, SaveOptions())
    assert a != b and a.is_dir() and b.is_dir()
