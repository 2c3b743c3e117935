"""Shared fixtures. Parses are expensive (seconds per PDF): each document is parsed once per
test session and the result shared, read-only, by the tests that need it."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus"
USDM = ROOT.parent / "shared" / "usdm"
CORPUS_PDFS = sorted(CORPUS.glob("*.pdf")) if CORPUS.is_dir() else []
# The scoring code benchmarks use (benchmarks/scoring) is not part of the package; tests of it
# and tests that flatten a tree with it import it as the benchmarks do: as ``scoring``.
sys.path.insert(0, str(ROOT / "benchmarks"))


def pytest_configure(config):
    """Under pytest-xdist (``-n 2 --dist loadgroup``, the README's test command) each worker
    process is held to a core of its own. A parse then converts in its own process
    (``default_workers()`` counts the cores a process may use), instead of each test worker
    starting layout worker processes that fight the other test worker for the same two cores:
    on this 2-core machine that contention made the suite slower under xdist than without it.
    The tests that are about worker processes ask for them (``workers=2``); the output does
    not depend on the count (``test_same_bytes_for_any_worker_count``)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    count = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "0") or 0)
    if not worker.startswith("gw") or not hasattr(os, "sched_setaffinity"):
        return
    cores = sorted(os.sched_getaffinity(0))
    if count > 1 and len(cores) >= count:
        os.sched_setaffinity(0, {cores[int(worker[2:]) % len(cores)]})


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook reads the groups (it runs first otherwise)
def pytest_collection_modifyitems(config, items):
    """Under pytest-xdist the tests of one real protocol run in one worker: they share that
    worker's parse of it (``corpus_run``), so each document is parsed once, while the two
    workers take different documents and the other tests side by side."""
    for item in items:
        marker = item.get_closest_marker("corpus")
        if marker is None:
            continue
        params = getattr(item, "callspec", None)
        document = marker.args[0] if marker.args else (params.params.get("name") if params else None)
        if document is None:
            raise pytest.UsageError(
                f"{item.nodeid}: a corpus test names its document: "
                "@pytest.mark.corpus(\"file.pdf\") or a 'name' parameter"
            )
        item.add_marker(pytest.mark.xdist_group(f"corpus-{Path(str(document)).stem}"))


def pytest_runtest_setup(item):
    """A corpus test fails, saying why, when xdist does not group: on pytest 9.2 its
    ``loadgroup`` silently stopped grouping (pytest-xdist#1386: it marks a group in the node
    id, which pytest 9.2 no longer reads), and each document was parsed once per test of it."""
    if (
        getattr(item.config.option, "loadgroup", False)
        and item.get_closest_marker("xdist_group")
        and "@" not in item.nodeid
    ):
        pytest.fail(
            "pytest-xdist --dist loadgroup is not grouping tests: install the pytest the dev extra pins "
            "(pip install '.[dev]'; pytest-xdist#1386)",
            pytrace=False,
        )


def _load_generator():
    from helpers import load_module

    return load_module("make_protocol", ROOT / "examples" / "make_protocol.py")


@pytest.fixture(scope="session")
def generator():
    return _load_generator()


@pytest.fixture(scope="session")
def example(tmp_path_factory, generator):
    """The generated example protocol: (pdf path, truth dict), made fresh in a temp folder."""
    folder = tmp_path_factory.mktemp("example")
    pdf = folder / "protocol_001.pdf"
    truth = generator.build(pdf)
    return pdf, truth


@pytest.fixture(scope="session", params=["protocol_001", "protocol_002", "protocol_003"])
def any_example(request, tmp_path_factory, generator):
    """Each generated protocol (realistic, decimal traps, Roman outline): (truth, result, folder)."""
    from clinparser import PDFParser

    folder = tmp_path_factory.mktemp(request.param)
    pdf = folder / f"{request.param}.pdf"
    truth = generator.build_named(request.param, pdf)
    parser = PDFParser()
    result = parser.parse(pdf, output_dir=folder / "out")
    return truth, result, parser.last_output


@pytest.fixture(scope="session")
def example_run(example, tmp_path_factory):
    """The example parsed through the API, artifacts written: (result, output folder)."""
    from clinparser import PDFParser

    pdf, _ = example
    parser = PDFParser()
    result = parser.parse(pdf, output_dir=tmp_path_factory.mktemp("example_out"))
    return result, parser.last_output


def corpus_file(name: str) -> Path:
    path = CORPUS / name
    if not path.exists():
        pytest.skip(f"real-protocol corpus not available: {path} is missing (CI has ../shared/corpus)")
    return path


_corpus_cache: dict[str, tuple[dict, Path]] = {}


@pytest.fixture(scope="session")
def corpus_run(tmp_path_factory):
    """Parse a corpus file once per session: corpus_run(name) -> (result, output folder)."""
    from clinparser import PDFParser

    def run(name: str):
        path = corpus_file(name)
        if name not in _corpus_cache:
            parser = PDFParser()
            # The review page is tested on the generated examples; drawing every corpus page for
            # it would add a twentieth to the suite's longest part.
            result = parser.parse(path, output_dir=tmp_path_factory.mktemp("corpus_out"), save_report=False)
            _corpus_cache[name] = (result, parser.last_output)
        return _corpus_cache[name]

    return run


def gold(name: str) -> list[dict]:
    path = CORPUS / "gold" / f"{Path(name).stem}.gold.json"
    if not path.exists():
        pytest.skip(f"gold section list missing: {path}")
    return json.loads(path.read_text(encoding="utf-8"))
