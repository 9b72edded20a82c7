"""No import circle in any of our packages, deferred (an import inside a function) or not.

The graph is read from the source with `ast`, so imports inside function bodies and
`TYPE_CHECKING` blocks count as edges too: a circle hidden behind a function-level import
is still a circle between two modules that each need the other.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = sorted(
    p for group in ("libs", "services") for p in (ROOT / group).glob("*/src/*") if (p / "__init__.py").exists()
)


def _module_name(package: Path, path: Path) -> str:
    parts = [package.name, *path.relative_to(package).with_suffix("").parts]
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(package: Path, path: Path, modules: set[str]) -> set[str]:
    """The package's own modules that `path` imports anywhere in its body."""
    here = _module_name(package, path)
    is_init = path.name == "__init__.py"
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here.split(".") if is_init else here.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                root = ".".join([*base, node.module] if node.module else base)
            else:
                root = node.module or ""
            names = [root] + [f"{root}.{a.name}" for a in node.names]
        for name in names:
            # the deepest of our modules the name refers to
            while name and name not in modules:
                name = name.rpartition(".")[0]
            if name and name != here:
                out.add(name)
    return out


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def _graph(package: Path) -> dict[str, set[str]]:
    files = sorted(package.rglob("*.py"))
    modules = {_module_name(package, f) for f in files}
    graph = {_module_name(package, f): _imports(package, f, modules) for f in files}
    # a package's __init__ re-exporting its modules is not a dependency of those modules on it
    for name, deps in graph.items():
        graph[name] = {d for d in deps if not (name.startswith(d + ".") and d in modules)}
    return graph


@pytest.mark.parametrize("package", PACKAGES, ids=lambda p: p.name)
def test_no_import_circle(package: Path) -> None:
    assert _cycles(_graph(package)) == []


def test_the_checker_finds_a_circle_behind_a_function_level_import() -> None:
    graph = {"g.a": {"g.b"}, "g.b": {"g.c"}, "g.c": {"g.a"}, "g.d": {"g.a"}}
    assert _cycles(graph) == [["g.a", "g.b", "g.c"]]


def test_the_checker_reads_imports_inside_functions(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from pkg import b\n")
    (pkg / "b.py").write_text("def later():\n    from pkg.a import thing\n    return thing\n")
    assert _cycles(_graph(pkg)) == [["pkg.a", "pkg.b"]]
