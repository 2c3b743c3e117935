"""benchmarks/model_ops.py: every session the parse makes is profiled, and its operators add up."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pymupdf
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

import model_ops  # noqa: E402

# The generator's protocol whose form and table are printed as pictures: OCR reads them.
PDF = ROOT / "examples" / "input" / "protocol_012.pdf"


def test_operator_seconds_are_summed_by_kind_and_runs_apart():
    events = [
        {"cat": "Session", "name": "model_run", "dur": 3_000_000},
        {"cat": "Session", "name": "model_run", "dur": 1_000_000},
        {"cat": "Node", "name": "conv1_kernel_time", "dur": 1_000_000, "args": {"op_name": "Conv"}},
        {"cat": "Node", "name": "conv2_kernel_time", "dur": 500_000, "args": {"op_name": "Conv"}},
        {"cat": "Node", "name": "act_kernel_time", "dur": 250_000, "args": {"op_name": "PRelu"}},
        # The same node's other events (its inputs' fence) are not kernel time.
        {"cat": "Node", "name": "conv1_fence_before", "dur": 7_000_000, "args": {"op_name": "Conv"}},
        {"cat": "Session", "name": "session_initialization", "dur": 9_000_000},
    ]
    ops, runs = model_ops.op_times(events)
    assert ops == {"Conv": 1.5, "PRelu": 0.25}
    assert runs == 2


def test_every_session_is_profiled_layout_and_ocr_and_the_kernels_fit_inside_the_calls():
    row = model_ops.measure(PDF)
    with pymupdf.open(PDF) as doc:
        pages = doc.page_count
    models = row["models"]
    # The full model's graph network runs after its image network, once per full-model page;
    # the text-only one on every other page. A session made past the hook would be missing here.
    full = models["layout_rf2.4.1+imf1.onnx"]["runs"]
    assert full == models["feature_imf1.onnx"]["runs"] > 0
    assert full + models.get("layout_rf2.4.1.onnx", {"runs": 0})["runs"] == pages
    # RapidOCR makes its sessions through its own module's name for the class: hooked too.
    assert models["PP-OCRv6_det_small.onnx"]["runs"] > 0 and models["PP-OCRv6_rec_small.onnx"]["runs"] > 0
    for m in models.values():
        kernels = sum(m["ops"].values())
        assert m["runs"] == 0 or 0 < kernels <= m["call_s"] * 1.01  # bar clock rounding
    calls = sum(m["call_s"] for m in models.values())
    assert 0 < calls < row["cpu"]
    assert 0 <= row["system"] < row["cpu"]


def test_a_sessions_profile_must_be_there_once_and_hold_every_run(tmp_path):
    run = {"cat": "Session", "name": "model_run", "dur": 5}
    kernel = {"cat": "Node", "name": "c_kernel_time", "dur": 2_000_000, "args": {"op_name": "Conv"}}
    (tmp_path / "session3_2026.json").write_text(json.dumps([run, kernel, run, kernel]))
    assert model_ops.session_ops(str(tmp_path), 3, "m.onnx", calls=2) == {"Conv": 4.0}
    # ONNX Runtime drops events past its cap with nothing but a log line: fewer runs than calls.
    with pytest.raises(SystemExit, match="holds 2 of its 3 runs"):
        model_ops.session_ops(str(tmp_path), 3, "m.onnx", calls=3)
    with pytest.raises(SystemExit, match="session 4 left 0 profiles"):
        model_ops.session_ops(str(tmp_path), 4, "m.onnx", calls=0)
    (tmp_path / "session3_2027.json").write_text("[]")
    with pytest.raises(SystemExit, match="session 3 left 2 profiles"):
        model_ops.session_ops(str(tmp_path), 3, "m.onnx", calls=2)


def _model(runs, call_s, ops):
    return {"sessions": 1, "runs": runs, "call_s": call_s, "ops": ops}


def test_the_tables_list_the_busiest_model_first_and_pool_the_documents():
    rows = [
        (
            "doc",
            {
                "cpu": 10.0,
                "models": {
                    "a.onnx": _model(2, 1.0, {"Conv": 0.9}),
                    "b.onnx": _model(4, 4.0, {"Conv": 3.0, "Resize": 0.8}),
                    "unused.onnx": _model(0, 0.0, {}),
                },
            },
        ),
        ("other", {"cpu": 30.0, "models": {"a.onnx": _model(8, 9.0, {"Conv": 4.5, "PRelu": 4.5})}}),
    ]
    lines = model_ops.table(rows)
    assert lines[2] == "| doc | b.onnx | 4 | 4.00 | 3.80 | 5 | 40.0 | 1000 | Conv 79%, Resize 21% |"
    assert lines[3] == "| doc | a.onnx | 2 | 1.00 | 0.90 | 10 | 10.0 | 500 | Conv 100% |"
    assert lines[4] == "| other | a.onnx | 8 | 9.00 | 9.00 | 0 | 30.0 | 1125 | Conv 50%, PRelu 50% |"
    assert len(lines) == 5  # a model made but never run has no row
    pooled = model_ops.by_model(rows)
    # a.onnx over both documents: 10 runs, 10 s of calls, 9.9 s of kernels, a quarter of the 40 s.
    assert pooled[2] == "| a.onnx | 10 | 10.00 | 9.90 | 1 | 25.0 | 1000 | Conv 55%, PRelu 45% |"
    assert pooled[3] == "| b.onnx | 4 | 4.00 | 3.80 | 5 | 10.0 | 1000 | Conv 79%, Resize 21% |"
    assert len(pooled) == 4


def test_the_summary_splits_the_calls_into_ocr_and_layout_and_pools_the_documents():
    def row(pages, cpu, system, ocr_call, ocr_kernels, layout_call, layout_kernels):
        return {
            "pages": pages,
            "cpu": cpu,
            "system": system,
            "models": {
                "PP-OCRv6_rec_small.onnx": _model(1, ocr_call, {"Conv": ocr_kernels}),
                "feature_imf1.onnx": _model(1, layout_call, {"Conv": layout_kernels}),
            },
        }

    lines = model_ops.summary(
        [("a", row(10, 5.0, 1.0, 2.0, 1.9, 1.0, 1.0)), ("b", row(30, 15.0, 0.0, 0.0, 0.0, 3.0, 2.9))]
    )
    assert lines[2] == "| a | 10 | 0.500 | 0.290 | 40 | 20 | 2.0 | 20 |"
    assert lines[3] == "| b | 30 | 0.500 | 0.097 | 0 | 20 | 0.7 | 0 |"
    # Pooled over pages and CPU, not the mean of the documents' figures.
    assert lines[4] == "| **all 2** | 40 | 0.500 | 0.145 | 10 | 20 | 1.0 | 5 |"
