"""Layout worker processes: the same bytes for any worker count, pinned sessions, clear errors."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pymupdf
import pytest

from clinparser import PDFParser
from clinparser.convert import page_workers
from clinparser.errors import ConversionError
from clinparser.evaluate import flatten


def output_files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


class Pages:
    def __init__(self):
        self.seen: list[tuple[int, int]] = []

    def stage(self, name):
        pass

    def pages(self, done, total):
        self.seen.append((done, total))


@pytest.fixture(scope="module")
def rotated_example(tmp_path_factory, generator):
    """protocol_001 with its figure page (8) turned 90 degrees, as scanned landscape pages are."""
    folder = tmp_path_factory.mktemp("rotated")
    pdf = folder / "protocol_001.pdf"
    generator.build_named("protocol_001", pdf)
    doc = pymupdf.open(pdf)
    assert doc[7].get_images(), "the generator moved its figure off page 8; update this fixture"
    doc[7].set_rotation(90)
    rotated = folder / "rotated.pdf"
    doc.save(rotated)
    return rotated


def test_same_bytes_for_any_worker_count(rotated_example, tmp_path, monkeypatch):
    # Batches of 3 pages make 5 batches of the 14-page example, so that 2 and 3 workers really
    # share the batches out differently (batches are cut in this process, so the patch holds).
    monkeypatch.setattr(page_workers, "BATCH_PAGES", 3)
    outputs, progress = {}, {}
    for workers in (1, 2, 3):
        parser, pages = PDFParser(workers=workers), Pages()
        parser.parse(rotated_example, output_dir=tmp_path / f"w{workers}", reporter=pages)
        outputs[workers] = output_files(parser.last_output)
        progress[workers] = pages.seen
    assert "document.json" in outputs[1] and any(name.endswith(".png") for name in outputs[1])
    assert outputs[2] == outputs[1]
    assert outputs[3] == outputs[1]
    for seen in progress.values():  # one report per batch, growing to the total
        assert len(seen) == 5 and seen[-1] == (14, 14)
        assert [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_rotated_page_keeps_its_figure_where_it_is_drawn(rotated_example):
    result = PDFParser(workers=2).parse(rotated_example, output_dir=None)
    images = [img for sec in flatten(result["toc"] + result["non_toc"]) for img in sec["images"] if img["page"] == 8]
    assert len(images) == 1, "the figure on the rotated page was lost or split"
    page = pymupdf.open(rotated_example)[7]
    page.remove_rotation()  # the coordinates the output uses: the page as it is seen
    assert page.rect.width > page.rect.height
    drawn = pymupdf.Rect(page.get_image_info()[0]["bbox"])
    found = pymupdf.Rect(images[0]["bbox"])
    assert (found & drawn).get_area() >= 0.8 * drawn.get_area(), (found, drawn)
    assert (found & page.rect) == found


def test_sessions_made_under_the_pin_are_single_threaded():
    import onnxruntime
    import pymupdf.layout

    model = Path(pymupdf.layout.__file__).parent / "resources" / "onnx" / "feature_imf1.onnx"
    real = onnxruntime.InferenceSession
    with page_workers._single_threaded_sessions():
        session = onnxruntime.InferenceSession(str(model), providers=["CPUExecutionProvider"])
    options = session.get_session_options()
    assert (options.intra_op_num_threads, options.inter_op_num_threads) == (1, 1)
    assert options.enable_cpu_mem_arena
    assert isinstance(session, real)
    assert onnxruntime.InferenceSession is real, "the pin must not outlive its block"


def test_batches_and_the_default_worker_count():
    assert page_workers.batches_of(17) == [tuple(range(0, 8)), tuple(range(8, 16)), (16,)]
    assert 1 <= PDFParser().options.workers == page_workers.default_workers() <= page_workers.available_cores()
    with pytest.raises(ValueError, match="at least 1"):
        PDFParser(workers=0)


@pytest.mark.parametrize("workers", [1, 2])
def test_a_file_that_vanished_is_a_conversion_error(tmp_path, workers):
    with page_workers.LayoutWorkers(str(tmp_path / "gone.pdf"), password=None, ocr=False, workers=workers) as layout:
        with pytest.raises(ConversionError, match="cannot open the file"):
            layout.convert(16)


def test_no_worker_processes_possible_means_one_process_and_a_warning(example, monkeypatch):
    pdf, _ = example

    def no_pool(*args):
        raise OSError("[Errno 38] Function not implemented")

    monkeypatch.setattr(page_workers, "_start_pool", no_pool)
    result = PDFParser(workers=2).parse(pdf, output_dir=None)
    assert any("could not start layout worker processes" in w for w in result["metadata"]["warnings"])
    assert result["toc"], "the parse must still succeed"


def test_cli_rejects_zero_workers(example, tmp_path):
    pdf, _ = example
    proc = subprocess.run([sys.executable, "-m", "clinparser", str(pdf), "--workers", "0", "-o", str(tmp_path)], capture_output=True, text=True)
    assert proc.returncode == 2 and "--workers" in proc.stderr
    assert not any(tmp_path.iterdir())
