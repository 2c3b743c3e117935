"""benchmarks/model_ops.py: every session the parse makes is profiled, and its operators add up."""

from __future__ import annotations

import sys
from pathlib import Path

import pymupdf

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

import model_ops  # noqa: E402

PDF = ROOT / "examples" / "input" / "protocol_001.pdf"


def test_operator_seconds_are_summed_by_kind_and_runs_apart():
    events = [
        {"cat": "Session", "name": "model_run", "dur": 3_000_000},
        {"cat": "Node", "name": "conv1_kernel_time", "dur": 1_000_000, "args": {"op_name": "Conv"}},
        {"cat": "Node", "name": "conv2_kernel_time", "dur": 500_000, "args": {"op_name": "Conv"}},
        {"cat": "Node", "name": "act_kernel_time", "dur": 250_000, "args": {"op_name": "PRelu"}},
        # The same node's other events (its inputs' fence) are not kernel time.
        {"cat": "Node", "name": "conv1_fence_before", "dur": 7_000_000, "args": {"op_name": "Conv"}},
        {"cat": "Session", "name": "session_initialization", "dur": 9_000_000},
    ]
    ops, runs = model_ops.op_times(events)
    assert ops == {"Conv": 1.5, "PRelu": 0.25}
    assert runs == 3.0


def test_every_page_runs_one_layout_model_and_the_kernels_fit_inside_the_calls():
    row = model_ops.measure(PDF)
    with pymupdf.open(PDF) as doc:
        pages = doc.page_count
    models = row["models"]
    # The full model's graph network runs after its image network, once per full-model page;
    # the text-only one on every other page. A session made past the hook would be missing here.
    full = models["layout_rf2.4.1+imf1.onnx"]["runs"]
    assert full == models["feature_imf1.onnx"]["runs"] > 0
    assert full + models.get("layout_rf2.4.1.onnx", {"runs": 0})["runs"] == pages
    for m in models.values():
        kernels = sum(m["ops"].values())
        assert m["runs"] == 0 or 0 < kernels <= m["call_s"] * 1.01  # bar clock rounding
    calls = sum(m["call_s"] for m in models.values())
    assert 0 < calls < row["cpu"]


def test_the_table_lists_the_busiest_model_first(capsys):
    rows = [
        ("doc", {"cpu": 10.0, "models": {
            "a.onnx": {"sessions": 1, "runs": 2, "call_s": 1.0, "run_s": 0.99, "ops": {"Conv": 0.9}},
            "b.onnx": {"sessions": 1, "runs": 4, "call_s": 4.0, "run_s": 3.9, "ops": {"Conv": 3.0, "Resize": 0.8}},
            "unused.onnx": {"sessions": 1, "runs": 0, "call_s": 0.0, "run_s": 0.0, "ops": {}},
        }}),
    ]
    lines = model_ops.table(rows)
    assert lines[2] == "| doc | b.onnx | 4 | 4.00 | 3.80 | 5 | 40 | Conv 79%, Resize 21% |"
    assert lines[3] == "| doc | a.onnx | 2 | 1.00 | 0.90 | 10 | 10 | Conv 100% |"
    assert len(lines) == 4  # a model made but never run has no row


def test_the_summary_splits_the_calls_into_ocr_and_layout_and_pools_the_documents():
    def row(pages, cpu, ocr_call, ocr_kernels, layout_call, layout_kernels):
        return {"pages": pages, "cpu": cpu, "models": {
            "PP-OCRv6_rec_small.onnx": {"sessions": 1, "runs": 1, "call_s": ocr_call, "run_s": ocr_call, "ops": {"Conv": ocr_kernels}},
            "feature_imf1.onnx": {"sessions": 1, "runs": 1, "call_s": layout_call, "run_s": layout_call, "ops": {"Conv": layout_kernels}},
        }}

    lines = model_ops.summary([("a", row(10, 5.0, 2.0, 1.9, 1.0, 1.0)), ("b", row(30, 15.0, 0.0, 0.0, 3.0, 2.9))])
    assert lines[2] == "| a | 10 | 0.500 | 0.290 | 40 | 20 | 2.0 |"
    assert lines[3] == "| b | 30 | 0.500 | 0.097 | 0 | 20 | 0.7 |"
    # Pooled over pages and CPU, not the mean of the documents' figures.
    assert lines[4] == "| **all 2** | 40 | 0.500 | 0.145 | 10 | 20 | 1.0 |"
