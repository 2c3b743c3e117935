"""The offline install kit (scripts/offline-kit.sh, docs/offline-install.md), end to end.

Builds a kit (ClinParser's wheel from this tree and every wheel it needs), installs it into a
fresh venv with ``pip install --no-index --find-links KIT clinparser`` and no pip configuration
(no mirror, no find-links, no index), then parses the bundled example PDF in that venv. Where
``unshare -n`` works (root, Linux), the install and the parse run in a network namespace of
their own, with no network at all: the air-gapped machine, for real.

Where the wheels come from: with CLINPARSER_WHEELHOUSE set (folders of wheels, a previous kit
for one, separated by ``os.pathsep``) the kit is built from them alone (``--find-links``, no
index); otherwise from pip's configured sources (this machine's local mirrors and wheel folder,
and the package index; pip's cache makes a second run local). The test skips, saying why, only
when a needed wheel can't be had (the script's exit 3); any other failure fails it.

Slow by nature (a 500 MB kit; about 2-3 minutes here): marked ``kit``, so
``python -m pytest -m "not kit"`` leaves it out of a quick run (CI runs it).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "offline-kit.sh"
EXAMPLE_PDF = ROOT / "examples" / "input" / "protocol_001.pdf"

pytestmark = pytest.mark.kit


def _no_pip_config_env() -> dict[str, str]:
    """The environment of a machine that has only the kit: no PIP_* settings, no pip.conf."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")}
    env["PIP_CONFIG_FILE"] = os.devnull  # pip then reads no configuration file at all
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return env


def _offline_prefix() -> list[str]:
    """``unshare -n``: a new network namespace with no interface up, where it is allowed."""
    unshare = shutil.which("unshare")
    if unshare and sys.platform.startswith("linux"):
        if subprocess.run([unshare, "-n", "true"], capture_output=True).returncode == 0:
            return [unshare, "-n"]
    return []


def _run(cmd, *, env=None, timeout=600, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([str(c) for c in cmd], env=env, cwd=cwd, capture_output=True, text=True, timeout=timeout)


def _tail(text: str, lines: int = 25) -> str:
    return "\n".join(text.strip().splitlines()[-lines:])


@pytest.fixture(scope="module")
def kit(tmp_path_factory) -> Path:
    if not shutil.which("bash"):
        pytest.skip("scripts/offline-kit.sh needs bash, and this machine has none")
    out = tmp_path_factory.mktemp("kit") / "kit"
    cmd = ["bash", SCRIPT, "--out", out]
    wheelhouse = os.environ.get("CLINPARSER_WHEELHOUSE")
    if wheelhouse:
        for folder in wheelhouse.split(os.pathsep):
            cmd += ["--find-links", folder]
    # The script runs pip with this interpreter, so the kit is for this Python and platform.
    result = _run(cmd, env={**os.environ, "PYTHON": sys.executable}, timeout=900)
    if result.returncode == 3:
        source = f"the wheelhouse {wheelhouse}" if wheelhouse else "pip's configured index, mirrors and find-links"
        pytest.skip(f"the kit's wheels can't be had from {source} (offline-kit.sh exit 3):\n{_tail(result.stderr, 8)}")
    assert result.returncode == 0, f"offline-kit.sh failed (exit {result.returncode}):\n{_tail(result.stderr)}"
    return out


def test_kit_lists_every_wheel_with_its_sha256(kit):
    wheels = sorted(p.name for p in kit.glob("*.whl"))
    assert any(name.startswith("clinparser-") for name in wheels), "ClinParser's own wheel is missing"
    torch = [name for name in wheels if name.startswith("torch-")]
    assert len(torch) == 1 and (sys.platform == "darwin" or "+cpu" in torch[0]), f"not the CPU build of torch: {torch}"
    assert not [name for name in wheels if name.startswith(("nvidia", "triton"))], "CUDA wheels in the kit"

    manifest = (kit / "MANIFEST").read_text().splitlines()
    assert [line.split("  ", 1)[1] for line in manifest] == wheels  # sorted, one line per wheel
    for line in manifest:
        digest, name = line.split("  ", 1)
        assert hashlib.sha256((kit / name).read_bytes()).hexdigest() == digest, name
    requirements = [line for line in (kit / "requirements.txt").read_text().splitlines() if not line.startswith("#")]
    assert len(requirements) == len(wheels)
    assert requirements == sorted(requirements, key=lambda line: line.split("==")[0])  # by name
    assert all("==" in line and "--hash=sha256:" in line for line in requirements)


def test_kit_installs_and_parses_with_no_network(kit, tmp_path):
    offline = _offline_prefix()
    env = _no_pip_config_env()
    venv = tmp_path / "venv"
    made = _run([sys.executable, "-m", "venv", venv])
    assert made.returncode == 0, f"python -m venv failed:\n{_tail(made.stderr)}"
    python = venv / "bin" / "python"
    # --no-compile: byte-compiling torch and transformers would double the install's time.
    installed = _run(
        [*offline, python, "-m", "pip", "install", "--no-index", "--find-links", kit, "--no-compile", "clinparser"],
        env=env,
    )
    assert installed.returncode == 0, (
        f"pip install --no-index --find-links KIT clinparser failed{' with no network' if offline else ''}:\n"
        f"{_tail(installed.stdout + installed.stderr)}"
    )
    versions = _run([python, "-c", "import torch, clinparser; print(torch.__version__)"], env=env)
    assert versions.returncode == 0, _tail(versions.stderr)
    assert sys.platform == "darwin" or "+cpu" in versions.stdout, (
        f"torch installed is not the CPU build: {versions.stdout}"
    )

    out = tmp_path / "out"
    parsed = _run(
        [*offline, venv / "bin" / "clinparser", EXAMPLE_PDF, "--output-dir", out, "--quiet"], env=env, cwd=tmp_path
    )
    assert parsed.returncode == 0, f"clinparser failed in the kit's venv:\n{_tail(parsed.stderr)}"
    documents = sorted(out.rglob("document.json"))
    assert documents, f"no document.json under {out}: {sorted(p.relative_to(out) for p in out.rglob('*'))[:20]}"
    tree = json.loads(documents[0].read_text())
    assert tree.get("toc"), f"document.json has no toc: keys {sorted(tree)}"
