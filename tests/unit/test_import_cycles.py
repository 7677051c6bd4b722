"""No two modules import each other, directly or round a loop — counting the imports inside
functions, which hide a cycle from Python (and from import-linter's layer contracts) until a
refactor moves one of them to the top."""

from __future__ import annotations

import ast
from pathlib import Path

import desktop_app

PACKAGE = Path(desktop_app.__file__).parent
ROOT = "desktop_app"


def module_name(path: Path, package: Path, root: str) -> str:
    parts = list(path.relative_to(package).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join([root, *parts])


def imported(tree: ast.AST, name: str, is_package: bool, known: set[str]) -> set[str]:
    """The package's modules one module imports, anywhere in it (a ``from x import y`` names
    the module ``x.y`` when there is one, else ``x``); ``TYPE_CHECKING`` imports count too,
    since they are where a cycle is usually parked."""
    here = name if is_package else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = here.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            for alias in node.names:
                out.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base)
    return {m for m in out if m in known and m != name}


def graph(package: Path = PACKAGE, root: str = ROOT) -> dict[str, set[str]]:
    paths = {module_name(p, package, root): p for p in package.rglob("*.py")}
    known = set(paths)
    return {name: imported(ast.parse(path.read_text(encoding="utf-8")), name, path.name == "__init__.py", known)
            for name, path in paths.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan), each sorted. A package's
    ``__init__`` re-exporting its own modules is not a cycle with them."""
    def parent_of(a: str, b: str) -> bool:
        return b.startswith(a + ".")

    pruned = {a: {b for b in bs if not parent_of(a, b) and not parent_of(b, a)} for a, bs in edges.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(pruned.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(pruned):
        if node not in index:
            visit(node)
    return found


def test_no_import_cycle_between_the_packages_modules():
    assert cycles(graph()) == []


def test_a_cycle_hidden_in_a_function_is_found(tmp_path):
    pkg = tmp_path / "planted"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from planted.b import thing\n")
    (pkg / "b.py").write_text("def thing():\n    from planted import a\n    return a\n")
    (pkg / "c.py").write_text("import planted.a\n")
    assert cycles(graph(pkg, "planted")) == [["planted.a", "planted.b"]]
