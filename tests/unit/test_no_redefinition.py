"""No module binds one top-level name twice: the second silently replaces the first for every
caller above it (a quotation pattern once lost its single quotes that way)."""

from __future__ import annotations

import ast
from pathlib import Path

import desktop_app

PACKAGE = Path(desktop_app.__file__).parent


def top_level_bindings(tree: ast.Module) -> list[tuple[str, int]]:
    names: list[tuple[str, int]] = []
    for node in tree.body:
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets = [node.target]
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.append((node.name, node.lineno))
        names += [(t.id, node.lineno) for t in targets if isinstance(t, ast.Name)]
    return names


def redefined(source: str) -> list[str]:
    seen: dict[str, int] = {}
    twice = []
    for name, line in top_level_bindings(ast.parse(source)):
        if name in seen and name != "__all__":
            twice.append(f"{name} (lines {seen[name]} and {line})")
        seen.setdefault(name, line)
    return twice


def test_no_module_binds_a_top_level_name_twice():
    found = {str(path.relative_to(PACKAGE)): twice for path in sorted(PACKAGE.rglob("*.py"))
             if (twice := redefined(path.read_text(encoding="utf-8")))}
    assert found == {}


def test_the_check_sees_a_second_binding():
    assert redefined("A = 1\ndef f(): return A\nA = 2\n") == ["A (lines 1 and 3)"]
