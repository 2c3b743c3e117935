"""USDM exports checked by CDISC's rules as data4knowledge's usdm4 implements them.

    python benchmarks/usdm_check.py FILE ... [--python PYTHON312] [--json]

Each FILE is a ``usdm.json`` (ClinParser's or a published one), or a protocol (``.pdf``/``.docx``)
that is parsed and exported first. usdm4 needs Python >= 3.12, ClinParser runs on 3.11: the rules
run in another interpreter, the first of ``--python``, ``$CLINPARSER_USDM4_PYTHON``,
``/work/venv312/bin/python`` and ``python3.12`` on the PATH that can import ``usdm4``, which runs
the script ``benchmarks/usdm4_rules.py``. Set one up with::

    python3.12 -m venv ~/venv312 && ~/venv312/bin/pip install usdm4==0.29.0   # the release .ci/run installs

Prints, per file: whether usdm4's ``Wrapper`` loads it whole (objects before and after its round
trip; what it drops, it drops silently), then the ERROR and WARNING findings counted by rule.
Exits 1 when a file does not load or has an ERROR finding, 2 when no usdm4 Python is found.
Offline: usdm4's terminology and XHTML schema ship in its wheel.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
RULES_SCRIPT = HERE / "usdm4_rules.py"
ENV = "CLINPARSER_USDM4_PYTHON"
CANDIDATES = ("/work/venv312/bin/python",)


class NoUsdm4(RuntimeError):
    """No Python >= 3.12 with usdm4 was found (or the one named does not have it)."""


def _has_usdm4(python: str) -> str | None:
    """None when ``python`` is >= 3.12 and imports usdm4; else why not."""
    try:
        done = subprocess.run(
            [python, "-c", "import sys, usdm4; sys.exit(0 if sys.version_info >= (3, 12) else 3)"],
            capture_output=True,
            text=True,
            timeout=120,
        )
    except (OSError, subprocess.TimeoutExpired) as e:
        return f"{python} does not run ({e})"
    if done.returncode == 3:
        return f"{python} is older than Python 3.12"
    if done.returncode:
        return f"{python} cannot import usdm4 ({(done.stderr.strip().splitlines() or ['?'])[-1]})"
    return None


def find_python(explicit: str | None = None) -> str:
    """The interpreter to run usdm4 with (module docstring). One named by ``explicit`` or the
    environment variable must work: a named interpreter that cannot is an error, not a fallback."""
    named = explicit or os.environ.get(ENV)
    if named:
        why = _has_usdm4(named)
        if why:
            raise NoUsdm4(f"{'--python' if explicit else ENV}: {why}")
        return named
    tried = []
    for candidate in (*CANDIDATES, shutil.which("python3.12")):
        if candidate and Path(candidate).exists():
            why = _has_usdm4(candidate)
            if why is None:
                return candidate
            tried.append(why)
    raise NoUsdm4(
        "no Python >= 3.12 with usdm4: set --python or "
        + ENV
        + (f" ({'; '.join(tried)})" if tried else " (none of /work/venv312, python3.12 on the PATH)")
    )


def run_rules(python: str, paths: list[Path]) -> list[dict]:
    """usdm4's report of each file (``benchmarks/usdm4_rules.py``'s JSON)."""
    done = subprocess.run([python, str(RULES_SCRIPT), *map(str, paths)], capture_output=True, text=True, timeout=1800)
    if done.returncode:
        tail = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise RuntimeError(f"usdm4 rules script failed ({done.returncode}): {tail}")
    return json.loads(done.stdout)


def counts(report: dict, level: str) -> Counter:
    """Findings of one level (``ERROR``/``WARNING``) counted by rule id."""
    return Counter(f["rule_id"] for f in report["findings"] if f["level"] == level)


def table(report: dict, name: str | None = None) -> str:
    """The report as the text this script prints."""
    lines = [f"== {name or report['file']}"]
    if report["loads"]:
        objects = report["objects"]
        dropped = ", ".join(f"{k} {v}" for k, v in report["dropped"].items()) or "none"
        lines.append(
            f"loads whole: {'yes' if not report['dropped'] else 'NO'} "
            f"(objects {objects['file']} in the file, {objects['after_round_trip']} after the Wrapper "
            f"round trip; dropped: {dropped})"
        )
    else:
        lines.append(f"loads whole: NO (Wrapper refused it: {report['load_error']})")
    if report["extra_keys"]:
        lines.append(f"top-level keys the Wrapper does not have: {', '.join(report['extra_keys'])}")
    for level in ("ERROR", "WARNING"):
        found = counts(report, level)
        lines.append(
            f"{level}: {sum(found.values())}"
            + ("" if not found else "  " + ", ".join(f"{rule} {n}" for rule, n in sorted(found.items())))
        )
    if report["exceptions"]:
        lines.append("rule exceptions: " + ", ".join(e["rule_id"] for e in report["exceptions"]))
    lines.append(f"rules run: {report['rules_run']}")
    return "\n".join(lines)


def _export(doc: Path, work: Path) -> Path:
    from clinparser import PDFParser
    from clinparser.export.artifacts import dumps
    from clinparser.export.usdm import to_usdm

    result = PDFParser().parse(doc, output_dir=work / doc.stem, save_report=False)
    out = work / f"{doc.stem}.usdm.json"
    out.write_text(dumps(to_usdm(result)), encoding="utf-8")
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+", type=Path, help="usdm.json files, or protocols (.pdf/.docx) to parse first")
    ap.add_argument("--python", help=f"a Python >= 3.12 with usdm4 (default: ${ENV}, /work/venv312, python3.12)")
    ap.add_argument("--json", action="store_true", help="print usdm4's reports as JSON instead of the tables")
    args = ap.parse_args(argv)
    missing = [str(f) for f in args.files if not f.is_file()]
    if missing:
        print(f"usdm_check: no such file: {', '.join(missing)}", file=sys.stderr)
        return 2
    try:
        python = find_python(args.python)
    except NoUsdm4 as e:
        print(f"usdm_check: {e}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        paths = [_export(f, Path(tmp)) if f.suffix.lower() in (".pdf", ".docx") else f for f in args.files]
        reports = run_rules(python, paths)
    if args.json:
        print(json.dumps(reports, ensure_ascii=False, indent=1))
    else:
        print("\n\n".join(table(r, str(f)) for r, f in zip(reports, args.files)))
    bad = any(not r["loads"] or r["dropped"] or counts(r, "ERROR") or r["exceptions"] for r in reports)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
