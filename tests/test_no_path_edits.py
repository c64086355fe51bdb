"""The test kit is one importable package (testkit/__init__.py): test folders
and the benchmark scripts are on pytest's `pythonpath` (pyproject), so no
test edits sys.path itself (issue 19 item 10)."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def path_edits(code: str) -> list[int]:
    """The lines where `code` calls a method of `sys.path` (insert, append, ...)."""
    return [
        node.lineno
        for node in ast.walk(ast.parse(code))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and isinstance(node.func.value, ast.Attribute)
        and node.func.value.attr == "path"
        and isinstance(node.func.value.value, ast.Name)
        and node.func.value.value.id == "sys"
    ]


def test_no_test_edits_sys_path() -> None:
    found = {
        f"{path.relative_to(TESTS)}:{line}"
        for path in TESTS.rglob("*.py")
        for line in path_edits(path.read_text(encoding="utf-8"))
    }
    assert found == set()


def test_the_check_sees_an_edit() -> None:
    assert path_edits("import sys\nsys.path.insert(0, 'x')\nsys.path.append('y')\n") == [2, 3]
    assert path_edits("import os\nos.path.join('a', 'b')\n") == []


def test_no_two_test_modules_share_a_name() -> None:
    """Test folders are not packages: pytest imports each test module by its
    file name, and a second module of the same name fails the run's collection
    ("import file mismatch": this file was once test_testkit.py, beside
    table/test_testkit.py)."""
    seen: dict[str, list[str]] = {}
    for path in TESTS.rglob("test_*.py"):
        if "__pycache__" not in path.parts:
            seen.setdefault(path.name, []).append(str(path.relative_to(TESTS)))
    assert not {name: where for name, where in seen.items() if len(where) > 1}
