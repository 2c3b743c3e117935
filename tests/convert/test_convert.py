"""Convert stage: input checks, the DOCX path, docling without models, and no network ever."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest
from helpers import Progress, make_docx
from scoring.tree import flatten

from clinparser import PDFParser
from clinparser.convert.engines.docling_backend import models_folder
from clinparser.errors import ModelsMissingError


def test_docx_gives_a_numbered_tree(tmp_path):
    result = PDFParser().parse(make_docx(tmp_path / "p.docx"), output_dir=tmp_path / "out")
    assert [(n["number"], n["title"]) for n in flatten(result["toc"])] == [
        ("1", "Introduction"),
        ("1.1", "Background"),
        ("2", "Study Population"),
        ("2.1", "Inclusion Criteria"),
        ("3", "Statistics"),
    ]
    criteria = flatten(result["toc"])[3]
    assert "1. Participant criterion number 1 holds." in criteria["text"]
    assert criteria["tables"][0]["data"] == [["Screening", "-28"]]
    assert result["metadata"]["engine"] == "docling"


def test_models_folder_checks(tmp_path, monkeypatch):
    monkeypatch.delenv("DOCLING_ARTIFACTS_PATH", raising=False)
    with pytest.raises(ModelsMissingError, match="docling-tools models download"):
        models_folder(None)
    with pytest.raises(ModelsMissingError, match="lacks docling-project--docling-layout-heron"):
        models_folder(tmp_path)
    for name in ("docling-project--docling-layout-heron", "docling-project--docling-models"):
        (tmp_path / name).mkdir()
    assert models_folder(tmp_path) == tmp_path
    monkeypatch.setenv("DOCLING_ARTIFACTS_PATH", str(tmp_path))
    assert models_folder(None) == tmp_path


# Installed as sitecustomize in every interpreter the test starts (the parse's layout worker
# processes included), so that imports, too, happen with the network blocked. Each attempt is
# appended to the file named by NO_NETWORK_LOG.
GUARD = textwrap.dedent(
    """
    import os, socket
    with open(os.environ["NO_NETWORK_LOG"] + ".loaded", "a") as log:
        log.write(f"{os.getpid()}\\n")  # which processes ran with the guard
    def refuse(name):
        def blocked(*args, **kwargs):
            with open(os.environ["NO_NETWORK_LOG"], "a") as log:
                log.write(f"{os.getpid()} {name}\\n")
            raise OSError("network blocked by test")
        return blocked
    socket.socket.connect = refuse("connect")
    socket.socket.connect_ex = refuse("connect_ex")
    socket.create_connection = refuse("create_connection")
    socket.getaddrinfo = refuse("getaddrinfo")
    """
)

NO_NETWORK = textwrap.dedent(
    """
    import json, os, sys
    import socket
    assert socket.getaddrinfo.__name__ == "blocked", "the guard is not installed"
    from clinparser import PDFParser
    from clinparser.errors import ModelsMissingError
    out = {}
    from clinparser.export.chunks import Chunker
    from clinparser.export.usdm import to_usdm
    if __name__ == "__main__":
        for name, path in (("pdf", sys.argv[1]), ("docx", sys.argv[2])):
            r = PDFParser(workers=2).parse(path, output_dir=sys.argv[3])  # 2: worker processes too
            out[name] = len(r["toc"])
            usdm_version = to_usdm(r)["study"]["versions"][0]
            out[name + "_exports"] = bool(Chunker().document(r)) and bool(usdm_version["narrativeContentItems"])
        try:
            PDFParser(engine="docling", models_dir=sys.argv[3] + "/no-models").parse(sys.argv[1], output_dir=None)
            out["docling"] = "parsed?!"
        except ModelsMissingError as e:
            out["docling"] = "models missing"
        with open(os.environ["NO_NETWORK_LOG"]) as log:
            out["attempts"] = log.read().split()
        print(json.dumps(out))
    """
)


def test_no_network_attempt_on_any_path(example, tmp_path):
    pdf, _ = example
    docx_path = make_docx(tmp_path / "p.docx")
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(GUARD)
    (tmp_path / "attempts.log").write_text("")
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(site), *sys.path]),
        "NO_NETWORK_LOG": str(tmp_path / "attempts.log"),
    }
    script = tmp_path / "no_network.py"
    script.write_text(NO_NETWORK)
    proc = subprocess.run(
        [sys.executable, str(script), str(pdf), str(docx_path), str(tmp_path / "out")],
        capture_output=True,
        text=True,
        env=env,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out == {
        "pdf": 10,
        "docx": 3,
        "pdf_exports": True,
        "docx_exports": True,
        "docling": "models missing",
        "attempts": [],
    }
    guarded = set((tmp_path / "attempts.log.loaded").read_text().split())
    # workers=2: this process and one layout worker process (started as python -m, so it loads
    # sitecustomize like any Python process); the guard must have run in both.
    assert len(guarded) >= 2, f"the guard ran in {len(guarded)} processes: the script and its layout worker expected"


def _words_png(words: str) -> bytes:
    import pymupdf

    doc = pymupdf.open()
    page = doc.new_page(width=300, height=60)
    page.insert_text((10, 35), words, fontname="helv", fontsize=16)
    return page.get_pixmap(dpi=200, alpha=False).tobytes("png")


def test_a_word_documents_pictures_are_read_and_counted_as_they_go(tmp_path):
    """A DOCX's pictures are known by their pixels only: each is OCR'd, and the reporter hears
    of each one read, in order (the CLI's "reading words in pictures" bar)."""
    import io

    import docx

    path = make_docx(tmp_path / "p.docx")
    d = docx.Document(path)
    for words in ("Screening visit schedule", "Dose escalation scheme"):
        d.add_picture(io.BytesIO(_words_png(words)))
    d.save(path)
    counts = Progress()
    result = PDFParser().parse(path, output_dir=None, reporter=counts)
    assert counts.pictures_seen == [(1, 2), (2, 2)]
    assert result["metadata"]["pictures"]["words_from_ocr"] == 2
