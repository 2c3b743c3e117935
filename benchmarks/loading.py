"""The project's scripts (``examples/``, ``benchmarks/``: folders, not packages) loaded as modules,
for the benchmarks and the tests that use them."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def load_module(name: str, path: Path):
    """The module at ``path`` under ``name``: the one already loaded from there when there is one
    (a script's name may be taken by another module: ``benchmarks/schedule.py`` beside
    ``clinparser.schedule``, a generator and its benchmark of one name)."""
    module = sys.modules.get(name)
    if module is not None and Path(getattr(module, "__file__", "") or "").resolve() == Path(path).resolve():
        return module
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
