"""Where the models' time goes, operator by operator: each PDF parsed end to end in one process
with ONNX Runtime's own profiler on every session the parse makes.

    python benchmarks/model_ops.py [--corpus ../shared/corpus] [--only NAME ...] [PDF ...]

Each PDF runs ``clinparser FILE --workers 1`` (the CLI, review page included) in a fresh child
process, one document at a time, with every ``onnxruntime.InferenceSession`` made profiling
(the layout models, the table-grid models, RapidOCR's detection and recognition models, and our
quick check for words in a picture, which runs RapidOCR's detection model file). The profiler
times wall seconds: run it on an otherwise idle machine. For each document and model file:

* **runs** and **call s**: how many times the parse ran it and the wall seconds of those calls
  as Python sees them (one thread, one process, nothing else running: the CPU they took);
* **kernels s**: the seconds its operators' kernels took, by ONNX Runtime's profiler. A kernel
  allocates its own output, so the memory a run takes (and, without a memory arena, the
  system's time to hand it fresh pages) counts here;
* **outside kernels %**: the rest of the call: ONNX Runtime's own steps between kernels, the
  inputs handed over and the outputs handed back to Python;
* **share of the CPU %**: call seconds over the parse's CPU seconds;
* **top operators**: each operator kind's share of the kernel time.

Then the same per model file for all the documents together (busiest operators pooled), and
one line per document: its CPU seconds a page, the model kernels' seconds a page, the shares of
its CPU in RapidOCR's model files and in PyMuPDF's layout ones, outside the kernels, and spent
by the system (memory handed out, files) rather than by the process itself.

A speed change that keeps every output bit can only take from "outside kernels", from the
kernels' memory, or from work the parse asks for that it does not use. The profiler adds a
little to every operator, so compare shares, not seconds, with other runs.
"""

from __future__ import annotations

import collections
import json
import time
import weakref
from pathlib import Path

from in_one_process import child_or_pdfs, command_line, parse_with_cli, run_child

TOP_OPS = 5


def op_times(events: list) -> tuple[dict[str, float], int]:
    """From one session's profile (ONNX Runtime's trace events): seconds per operator kind, and
    how many runs it holds (``model_run`` events)."""
    ops: dict[str, float] = collections.defaultdict(float)
    runs = 0
    for event in events:
        if event.get("cat") == "Node" and event.get("name", "").endswith("_kernel_time"):
            ops[event["args"]["op_name"]] += event["dur"] / 1e6
        elif event.get("cat") == "Session" and event.get("name") == "model_run":
            runs += 1
    return dict(ops), runs


def _model_name(path_or_bytes) -> str:
    return Path(path_or_bytes).name if isinstance(path_or_bytes, (str, Path)) else "(model given as bytes)"


def child(pdf: str, out: str, profiles: str) -> None:
    """Parse ``pdf`` with the CLI in this process, every session profiled; print one JSON line."""
    import onnxruntime
    import rapidocr.inference_engine.onnxruntime.main as rapid_main

    made: list[tuple[str, weakref.ref, list]] = []  # (model file, session, [calls, seconds]) in order made
    real = onnxruntime.InferenceSession

    class Profiled(real):  # ClinParser's own session settings subclass this in turn
        def __init__(self, path_or_bytes, sess_options=None, providers=None, provider_options=None, **kwargs):
            options = sess_options or onnxruntime.SessionOptions()
            options.enable_profiling = True
            options.profile_file_prefix = str(Path(profiles) / f"session{len(made)}")
            super().__init__(
                path_or_bytes, sess_options=options, providers=providers, provider_options=provider_options, **kwargs
            )
            self._calls = [0, 0.0]
            # Held weakly: the parse frees models as it does (the layout model before OCR), and
            # ONNX Runtime writes a session's profile when the session is destroyed.
            made.append((_model_name(path_or_bytes), weakref.ref(self), self._calls))

        def run(self, *args, **kwargs):
            start = time.perf_counter()
            try:
                return super().run(*args, **kwargs)
            finally:
                self._calls[0] += 1
                self._calls[1] += time.perf_counter() - start

    onnxruntime.InferenceSession = Profiled
    rapid_main.InferenceSession = Profiled  # RapidOCR imports the class by name
    _, cpu, system, pages = parse_with_cli(pdf, out)
    models: dict[str, dict] = {}
    for index, (name, session, (calls, seconds)) in enumerate(made):
        if session() is not None:
            session().end_profiling()
        ops = session_ops(profiles, index, name, calls)
        row = models.setdefault(name, {"sessions": 0, "runs": 0, "call_s": 0.0, "ops": {}})
        row["sessions"] += 1
        row["runs"] += calls
        row["call_s"] += seconds
        for op, s in ops.items():
            row["ops"][op] = row["ops"].get(op, 0.0) + s
    print(json.dumps({"cpu": cpu, "models": models, "pages": pages, "system": system}, sort_keys=True))


def session_ops(profiles: str, index: int, name: str, calls: int) -> dict[str, float]:
    """The seconds per operator kind in the profile session ``index`` left in ``profiles``, once
    it is known to hold all of its ``calls`` runs."""
    files = sorted(Path(profiles).glob(f"session{index}_*.json"))
    if len(files) != 1:
        raise SystemExit(f"{name}: session {index} left {len(files)} profiles, not one")
    with open(files[0]) as fh:
        ops, runs = op_times(json.load(fh))
    if runs != calls:  # the profiler keeps a bounded number of events per session
        raise SystemExit(f"{name}: its profile holds {runs} of its {calls} runs; measure a shorter document")
    return ops


def measure(pdf: Path) -> dict:
    return run_child(__file__, pdf, scratch_dirs=2)  # the parse's output, the profiles


MODEL_COLUMNS = [
    "model",
    "runs",
    "call s",
    "kernels s",
    "outside kernels %",
    "share of the CPU %",
    "ms a run",
    "top operators (share of kernels)",
]


def _model_cells(name: str, m: dict, cpu: float) -> list[str]:
    kernels = sum(m["ops"].values())
    top = sorted(m["ops"].items(), key=lambda kv: (-kv[1], kv[0]))[:TOP_OPS]
    ops = ", ".join(f"{op} {100 * s / kernels:.0f}%" for op, s in top) if kernels else "-"
    outside = 100 * (m["call_s"] - kernels) / m["call_s"] if m["call_s"] else 0.0
    return [
        name,
        str(m["runs"]),
        f"{m['call_s']:.2f}",
        f"{kernels:.2f}",
        f"{outside:.0f}",
        f"{100 * m['call_s'] / cpu:.1f}",
        f"{1000 * m['call_s'] / m['runs']:.0f}",
        ops,
    ]


def _markdown(header: list[str], rows: list[list[str]]) -> list[str]:
    return ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)] + ["| " + " | ".join(r) + " |" for r in rows]


def _busiest_first(models: dict) -> list[tuple[str, dict]]:
    """The models that ran, the most call seconds first (a model made but never run is left out)."""
    return sorted(((n, m) for n, m in models.items() if m["runs"]), key=lambda kv: (-kv[1]["call_s"], kv[0]))


def table(rows: list[tuple[str, dict]]) -> list[str]:
    """One line per document and model file, busiest first within a document; Markdown."""
    lines = [
        [document, *_model_cells(name, m, row["cpu"])]
        for document, row in rows
        for name, m in _busiest_first(row["models"])
    ]
    return _markdown(["document", *MODEL_COLUMNS], lines)


def by_model(rows: list[tuple[str, dict]]) -> list[str]:
    """One line per model file over all the documents, its operators pooled; Markdown."""
    pooled: dict[str, dict] = {}
    for _, row in rows:
        for name, m in row["models"].items():
            p = pooled.setdefault(name, {"runs": 0, "call_s": 0.0, "ops": collections.Counter()})
            p["runs"] += m["runs"]
            p["call_s"] += m["call_s"]
            p["ops"].update(m["ops"])
    cpu = sum(row["cpu"] for _, row in rows)
    return _markdown(MODEL_COLUMNS, [_model_cells(name, m, cpu) for name, m in _busiest_first(pooled)])


def is_ocr(model: str) -> bool:
    """RapidOCR's model files (PP-OCR detection, recognition, line angle) against the layout ones."""
    return "ocr" in model.lower()


def summary(rows: list[tuple[str, dict]]) -> list[str]:
    """One line per document and one for all: CPU seconds a page, and how much of it is model
    kernels, OCR's and the layout models' calls, the calls' time outside kernels, and the system's."""
    header = [
        "document",
        "pages",
        "CPU s/page",
        "model kernels s/page",
        "OCR models %",
        "layout models %",
        "outside kernels %",
        "system %",
    ]

    def cells(name: str, picked: list[dict]) -> list[str]:
        pages = sum(r["pages"] for r in picked)
        cpu = sum(r["cpu"] for r in picked)
        models = [(n, m) for r in picked for n, m in r["models"].items()]
        kernels = sum(sum(m["ops"].values()) for _, m in models)
        ocr = sum(m["call_s"] for n, m in models if is_ocr(n))
        layout = sum(m["call_s"] for n, m in models if not is_ocr(n))
        system = sum(r["system"] for r in picked)
        return [
            name,
            str(pages),
            f"{cpu / pages:.3f}",
            f"{kernels / pages:.3f}",
            f"{100 * ocr / cpu:.0f}",
            f"{100 * layout / cpu:.0f}",
            f"{100 * (ocr + layout - kernels) / cpu:.1f}",
            f"{100 * system / cpu:.0f}",
        ]

    lines = [cells(document, [row]) for document, row in rows]
    lines.append(cells(f"**all {len(rows)}**", [row for _, row in rows]))
    return _markdown(header, lines)


def main(argv=None) -> int:
    args = command_line(__doc__.split("\n\n")[0], child_args=3).parse_args(argv)
    pdfs = child_or_pdfs(args, child)
    if isinstance(pdfs, int):
        return pdfs
    started = time.perf_counter()
    rows = [(pdf.stem, measure(pdf)) for pdf in pdfs]  # one at a time: the profiler's timings are wall
    for lines in (table(rows), by_model(rows), summary(rows)):
        print("\n".join(lines))
        print()
    cpu = sum(r["cpu"] for _, r in rows)
    calls = sum(m["call_s"] for _, r in rows for m in r["models"].values())
    kernels = sum(sum(m["ops"].values()) for _, r in rows for m in r["models"].values())
    print(
        f"{len(rows)} documents, {cpu:.1f} CPU s; in model calls {calls:.1f} s ({100 * calls / cpu:.0f} %), "
        f"of which kernels {kernels:.1f} s; {time.perf_counter() - started:.0f} s wall"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
