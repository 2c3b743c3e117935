"""The package's imports form no circle: not between modules, not between stage packages.

Every import is counted, also the ones inside functions (a lazy import still ties two modules
together), except those under ``if TYPE_CHECKING:``, which never run. A stage package
(``convert``, ``structure``, ``content``, ...) counts as one node at the package level; each
top-level module is a node of its own.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "clinparser"
# What the stages may never import: the command line, the batch runner and the API sit on top.
TOP = ("clinparser.cli", "clinparser.api", "clinparser.batch", "clinparser.pipeline")


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _type_checking_only(node: ast.If) -> bool:
    test = node.test
    return (
        isinstance(test, ast.Name)
        and test.id == "TYPE_CHECKING"
        or isinstance(test, ast.Attribute)
        and test.attr == "TYPE_CHECKING"
    )


def imported(path: Path, root: Path, modules: set[str]) -> set[str]:
    """The package's modules that the file at ``path`` imports (resolved to module names)."""
    name = module_name(path, root)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found: set[str] = set()

    def add(target: str) -> None:
        while target and target not in modules:  # "a.b.func" -> "a.b"
            target = target.rpartition(".")[0]
        if target and target != name:
            found.add(target)

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _type_checking_only(child):
                for other in child.orelse:
                    visit(other)
                continue
            if isinstance(child, ast.Import):
                for alias in child.names:
                    add(alias.name)
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base = package.split(".")
                    base = base[: len(base) - child.level + 1]
                    stem = ".".join(base + ([child.module] if child.module else []))
                else:
                    stem = child.module or ""
                for alias in child.names:  # "from . import x" may import the module x
                    add(f"{stem}.{alias.name}" if f"{stem}.{alias.name}" in modules else stem)
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return found


def import_graph(root: Path = PACKAGE) -> dict[str, set[str]]:
    files = sorted(root.rglob("*.py"))
    modules = {module_name(f, root) for f in files}
    return {module_name(f, root): imported(f, root, modules) for f in files}


def unit_of(module: str) -> str:
    """``clinparser.structure.sections`` -> ``clinparser.structure``; top-level modules stay."""
    parts = module.split(".")
    return ".".join(parts[:2])


def package_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for module, targets in graph.items():
        unit = unit_of(module)
        out.setdefault(unit, set()).update(unit_of(t) for t in targets if unit_of(t) != unit)
    return out


def find_cycle(graph: dict[str, set[str]]) -> list[str]:
    """One circle as ``[a, b, ..., a]``, or [] when there is none (depth-first, sorted: stable)."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        path.append(node)
        for target in sorted(graph.get(node, ())):
            if state.get(target) == 1:
                return path[path.index(target) :] + [target]
            if target not in state:
                cycle = visit(target)
                if cycle:
                    return cycle
        path.pop()
        state[node] = 2
        return []

    for node in sorted(graph):
        if node not in state:
            cycle = visit(node)
            if cycle:
                return cycle
    return []


def test_no_module_imports_one_that_imports_it_back():
    cycle = find_cycle(import_graph())
    assert not cycle, "import circle: " + " -> ".join(cycle)


def test_no_stage_package_imports_one_that_imports_it_back():
    cycle = find_cycle(package_graph(import_graph()))
    assert not cycle, "import circle between packages: " + " -> ".join(cycle)


def test_stages_never_import_the_command_line_batch_or_api():
    graph = import_graph()
    stages = [m for m in graph if m.count(".") >= 2 and not m.startswith("clinparser.batch.")]
    wrong = sorted(f"{m} -> {t}" for m in stages for t in graph[m] if t.startswith(TOP))
    assert not wrong, "a stage imports what sits on top of it: " + ", ".join(wrong)


def test_scoring_code_is_not_in_the_package():
    names = {p.stem for p in PACKAGE.rglob("*.py")}
    assert not names & {"evaluate", "schedule_eval"}, "benchmark scoring belongs in benchmarks/scoring"


def write_package(root: Path, files: dict[str, str]) -> Path:
    package = root / "pkg"
    for name, text in files.items():
        path = package / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return package


@pytest.mark.parametrize(
    "files, expected",
    [
        # a direct circle, through a lazy import inside a function
        (
            {"__init__.py": "", "a.py": "from . import b\n", "b.py": "def f():\n    from .a import x\n"},
            ["pkg.a", "pkg.b", "pkg.a"],
        ),
        # a circle through a third module, across subpackages, absolute imports
        (
            {
                "__init__.py": "",
                "s/__init__.py": "",
                "s/one.py": "import pkg.t.two\n",
                "t/__init__.py": "",
                "t/two.py": "from pkg.u import three\n",
                "u/__init__.py": "",
                "u/three.py": "from ..s.one import y\n",
            },
            ["pkg.s.one", "pkg.t.two", "pkg.u.three", "pkg.s.one"],
        ),
    ],
)
def test_a_circle_made_on_purpose_is_found(tmp_path, files, expected):
    assert find_cycle(import_graph(write_package(tmp_path, files))) == expected


def test_type_checking_imports_and_a_straight_line_are_no_circle(tmp_path):
    files = {
        "__init__.py": "",
        "a.py": "from . import b\n",
        "b.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import x\n",
    }
    assert find_cycle(import_graph(write_package(tmp_path, files))) == []


def test_packages_tied_both_ways_are_a_package_circle(tmp_path):
    files = {
        "__init__.py": "",
        "s/__init__.py": "",
        "s/one.py": "from ..t import two\n",
        "s/three.py": "",
        "t/__init__.py": "",
        "t/two.py": "from ..s import three\n",
    }
    graph = import_graph(write_package(tmp_path, files))
    assert find_cycle(graph) == []
    assert find_cycle(package_graph(graph)) == ["pkg.s", "pkg.t", "pkg.s"]


# The data's journey, first to last: a stage imports only stages before it (and the shared
# modules at the top: model, errors, markup, version, options, offline, diagnostics).
STAGES = ("convert", "clean", "structure", "content", "schedule", "study", "review", "export", "batch")


def order_violations(graph: dict[str, set[str]], package: str = "clinparser") -> list[str]:
    rank = {f"{package}.{name}": i for i, name in enumerate(STAGES)}
    packages = package_graph(graph)
    return sorted(f"{a} -> {b}" for a in packages if a in rank for b in packages[a] if b in rank and rank[b] >= rank[a])


def test_each_stage_imports_only_the_stages_before_it():
    wrong = order_violations(import_graph())
    assert not wrong, "a stage imports a later one: " + ", ".join(wrong)


def test_a_stage_importing_a_later_one_is_found(tmp_path):
    files = {
        "__init__.py": "",
        "convert/__init__.py": "",
        "convert/a.py": "from ..content import b\n",
        "content/__init__.py": "",
        "content/b.py": "",
    }
    assert order_violations(import_graph(write_package(tmp_path, files)), "pkg") == ["pkg.convert -> pkg.content"]


# Under every stage: the helpers all stages share (``shared``: the converters' Markdown, pipe
# tables; ``workers``: the process pool the converter and the batch both run) and the top-level
# data modules. They import no stage and nothing on top.
UNDER = ("shared", "workers")
BASE = ("clinparser.model", "clinparser.errors", "clinparser.version", "clinparser.offline")


def under_violations(graph: dict[str, set[str]], package: str = "clinparser") -> list[str]:
    inner = tuple(f"{package}.{name}" for name in UNDER)
    allowed = inner + tuple(b.replace("clinparser", package, 1) for b in BASE)
    return sorted(
        f"{a} -> {b}"
        for a in graph
        if a.startswith(inner)
        for b in graph[a]
        if not (b.startswith(allowed) or b == package)
    )


def test_the_shared_packages_import_no_stage():
    wrong = under_violations(import_graph())
    assert not wrong, "a shared package imports a stage: " + ", ".join(wrong)


def test_a_shared_package_importing_a_stage_is_found(tmp_path):
    files = {
        "__init__.py": "",
        "shared/__init__.py": "",
        "shared/a.py": "from ..convert import b\nfrom ..model import c\n",
        "convert/__init__.py": "",
        "convert/b.py": "",
        "model.py": "",
    }
    assert under_violations(import_graph(write_package(tmp_path, files)), "pkg") == ["pkg.shared.a -> pkg.convert.b"]


def test_no_package_folder_holds_more_than_twelve_modules():
    crowded = {
        str(folder.relative_to(PACKAGE.parent)): n
        for folder in [PACKAGE, *(p for p in PACKAGE.rglob("*") if p.is_dir() and p.name != "__pycache__")]
        if (n := len(list(folder.glob("*.py")))) > 12
    }
    assert not crowded, f"folders with more than 12 modules (give them sub-packages): {crowded}"


def test_every_package_is_listed_for_the_wheel():
    """setuptools builds the wheel from pyproject.toml's list: a package missing there is missing
    from every non-editable install (CI's included), though the editable one still finds it."""
    import tomllib

    listed = set(tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {module_name(init, PACKAGE) for init in PACKAGE.rglob("__init__.py")}
    assert found - listed == set(), "add these to [tool.setuptools] packages in pyproject.toml"
