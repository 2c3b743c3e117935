"""Where the models' time goes, operator by operator: each PDF parsed end to end in one process
with ONNX Runtime's own profiler on every session the parse makes.

    python benchmarks/model_ops.py [--corpus ../shared/corpus] [--only NAME ...] [PDF ...]

Each PDF runs ``clinparser FILE --workers 1`` (the CLI, review page included) in a fresh child
process, one document at a time, with every ``onnxruntime.InferenceSession`` made profiling
(the layout models, the table-grid models, RapidOCR's detection and recognition models, the
quick check for words in a picture). For each model file it prints:

* **runs** and **call s**: how many times the parse ran it and the wall seconds of those calls
  as Python sees them (one thread, one process: the CPU they took);
* **kernels s**: the seconds its operators' kernels took, by ONNX Runtime's profiler;
* **outside kernels %**: the rest of the call: handing the inputs over and copying the outputs
  out (a model whose output is large pays here);
* **share of the parse %**: call seconds over the parse's CPU seconds;
* **top operators**: each operator kind's share of the kernel time.

Then one line per document: its CPU seconds a page, the model kernels' seconds a page, the
share of its CPU in OCR's models (RapidOCR's) and in the layout models (PyMuPDF's), and the
share outside the kernels.

A speed change that keeps every output bit can only take from "outside kernels" or from work
the parse asks for that it does not use; the kernels themselves are the models' arithmetic.
The profiler adds a little to every operator, so compare shares, not seconds, with other runs.
"""

from __future__ import annotations

import collections
import json
import time
from pathlib import Path

from in_one_process import chosen_pdfs, command_line, parse_with_cli, run_child

TOP_OPS = 5


def op_times(events: list) -> tuple[dict[str, float], float]:
    """From one session's profile (ONNX Runtime's trace events): seconds per operator kind, and
    the seconds of its ``model_run`` events (the runs as ONNX Runtime timed them)."""
    ops: dict[str, float] = collections.defaultdict(float)
    runs = 0.0
    for event in events:
        if event.get("cat") == "Node" and event.get("name", "").endswith("_kernel_time"):
            ops[event["args"]["op_name"]] += event["dur"] / 1e6
        elif event.get("cat") == "Session" and event.get("name") == "model_run":
            runs += event["dur"] / 1e6
    return dict(ops), runs


def _model_name(path_or_bytes) -> str:
    return Path(path_or_bytes).name if isinstance(path_or_bytes, (str, Path)) else "(model given as bytes)"


def child(pdf: str, out: str, profiles: str) -> None:
    """Parse ``pdf`` with the CLI in this process, every session profiled; print one JSON line."""
    import onnxruntime
    import rapidocr.inference_engine.onnxruntime.main as rapid_main

    made: list[tuple[str, object, list]] = []  # (model file, session, [calls, seconds]) in order made
    real = onnxruntime.InferenceSession

    class Profiled(real):  # ClinParser's own session settings subclass this in turn
        def __init__(self, path_or_bytes, sess_options=None, providers=None, provider_options=None, **kwargs):
            options = sess_options or onnxruntime.SessionOptions()
            options.enable_profiling = True
            options.profile_file_prefix = str(Path(profiles) / f"session{len(made)}")
            super().__init__(path_or_bytes, sess_options=options, providers=providers, provider_options=provider_options, **kwargs)
            self._calls = [0, 0.0]
            made.append((_model_name(path_or_bytes), self, self._calls))

        def run(self, *args, **kwargs):
            start = time.perf_counter()
            try:
                return super().run(*args, **kwargs)
            finally:
                self._calls[0] += 1
                self._calls[1] += time.perf_counter() - start

    onnxruntime.InferenceSession = Profiled
    rapid_main.InferenceSession = Profiled  # RapidOCR imports the class by name
    _, cpu, pages = parse_with_cli(pdf, out)
    models: dict[str, dict] = {}
    for name, session, (calls, seconds) in made:  # the sessions are all still alive: held here
        with open(session.end_profiling()) as fh:
            ops, runs = op_times(json.load(fh))
        row = models.setdefault(name, {"sessions": 0, "runs": 0, "call_s": 0.0, "run_s": 0.0, "ops": {}})
        row["sessions"] += 1
        row["runs"] += calls
        row["call_s"] += seconds
        row["run_s"] += runs
        for op, s in ops.items():
            row["ops"][op] = row["ops"].get(op, 0.0) + s
    print(json.dumps({"cpu": cpu, "models": models, "pages": pages}, sort_keys=True))


def measure(pdf: Path) -> dict:
    return run_child(__file__, pdf, scratch_dirs=2)  # the parse's output, the profiles


def table(rows: list[tuple[str, dict]]) -> list[str]:
    """One line per document and model file, busiest first within a document; Markdown."""
    header = ["document", "model", "runs", "call s", "kernels s", "outside kernels %", "share of the parse %", "top operators (share of kernels)"]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for document, row in rows:
        for name, m in sorted(row["models"].items(), key=lambda kv: (-kv[1]["call_s"], kv[0])):
            kernels = sum(m["ops"].values())
            if not m["runs"]:
                continue
            top = sorted(m["ops"].items(), key=lambda kv: (-kv[1], kv[0]))[:TOP_OPS]
            ops = ", ".join(f"{op} {100 * s / kernels:.0f}%" for op, s in top) if kernels else "-"
            outside = 100 * (m["call_s"] - kernels) / m["call_s"] if m["call_s"] else 0.0
            lines.append(
                f"| {document} | {name} | {m['runs']} | {m['call_s']:.2f} | {kernels:.2f} | {outside:.0f} | "
                f"{100 * m['call_s'] / row['cpu']:.0f} | {ops} |"
            )
    return lines


def is_ocr(model: str) -> bool:
    """RapidOCR's models (PP-OCR detection, recognition, line angle) against the layout ones."""
    return "ocr" in model.lower()


def summary(rows: list[tuple[str, dict]]) -> list[str]:
    """One line per document and one for all: CPU seconds a page, and how much of it is model
    kernels, OCR's and the layout models' calls, and the calls' time outside kernels."""
    header = ["document", "pages", "CPU s/page", "model kernels s/page", "OCR models %", "layout models %", "outside kernels %"]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]

    def line(name: str, picked: list[dict]) -> str:
        pages = sum(r["pages"] for r in picked)
        cpu = sum(r["cpu"] for r in picked)
        models = [(n, m) for r in picked for n, m in r["models"].items()]
        kernels = sum(sum(m["ops"].values()) for _, m in models)
        ocr = sum(m["call_s"] for n, m in models if is_ocr(n))
        layout = sum(m["call_s"] for n, m in models if not is_ocr(n))
        return (
            f"| {name} | {pages} | {cpu / pages:.3f} | {kernels / pages:.3f} | {100 * ocr / cpu:.0f} | "
            f"{100 * layout / cpu:.0f} | {100 * (ocr + layout - kernels) / cpu:.1f} |"
        )

    lines += [line(document, [row]) for document, row in rows]
    lines.append(line(f"**all {len(rows)}**", [row for _, row in rows]))
    return lines


def main(argv=None) -> int:
    args = command_line(__doc__.split("\n\n")[0], child_args=3).parse_args(argv)
    if args.child:
        child(*args.child)
        return 0
    pdfs = chosen_pdfs(args)
    if not pdfs:
        return 2
    started = time.perf_counter()
    rows = [(pdf.stem, measure(pdf)) for pdf in pdfs]  # one at a time: the profiler's timings are wall
    print("\n".join(table(rows)))
    print()
    print("\n".join(summary(rows)))
    print()
    cpu = sum(r["cpu"] for _, r in rows)
    calls = sum(m["call_s"] for _, r in rows for m in r["models"].values())
    kernels = sum(sum(m["ops"].values()) for _, r in rows for m in r["models"].values())
    print(f"{len(rows)} documents, {cpu:.1f} CPU s; in model calls {calls:.1f} s ({100 * calls / cpu:.0f} %), "
          f"of which kernels {kernels:.1f} s; {time.perf_counter() - started:.0f} s wall")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
