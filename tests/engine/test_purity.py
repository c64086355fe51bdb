"""The engine is pure: no UI libraries, no clock, no global random state."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import spit_tui.engine

ENGINE = Path(spit_tui.engine.__file__).parent
SOURCES = sorted(ENGINE.glob("*.py"))


def test_engine_import_pulls_in_no_textual_or_rich() -> None:
    code = (
        "import json, sys\n"
        "import spit_tui.engine\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    out = subprocess.run(
        [sys.executable, "-I", "-c", code], capture_output=True, text=True, check=True,
        cwd=str(ENGINE.parents[2]),
    )
    mods = json.loads(out.stdout)
    assert "spit_tui.engine" in mods
    ui = [m for m in mods if m.split(".")[0] in ("textual", "rich")]
    assert ui == []


def test_the_sources_are_all_found() -> None:
    names = {p.name for p in SOURCES}
    assert {"rules.py", "game.py", "deal.py", "notation.py", "rounds.py"} <= names


def _problems(tree: ast.AST) -> list[str]:
    bad: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in ("time", "datetime"):
                    bad.append(f"import {alias.name}")
        elif isinstance(node, ast.ImportFrom):
            mod = (node.module or "").split(".")[0]
            if mod in ("time", "datetime"):
                bad.append(f"from {node.module} import ...")
            if mod == "random" and any(a.name != "Random" for a in node.names):
                bad.append(f"from random import {', '.join(a.name for a in node.names)}")
        elif (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "random"
            and node.attr != "Random"
        ):
            bad.append(f"random.{node.attr}")
    return bad


def test_no_engine_source_reads_the_clock_or_the_global_random() -> None:
    found = {p.name: _problems(ast.parse(p.read_text(), str(p))) for p in SOURCES}
    assert {k: v for k, v in found.items() if v} == {}


def test_the_source_check_catches_what_it_forbids() -> None:
    for text in (
        "import time",
        "import datetime as dt",
        "from time import monotonic",
        "import random\nrandom.shuffle(x)",
        "import random\nx = random.random()",
        "from random import choice",
    ):
        assert _problems(ast.parse(text)), text
    assert _problems(ast.parse("import random\nr = random.Random(3)\nr.shuffle(x)")) == []
