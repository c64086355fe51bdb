"""One direction of imports in the app: nothing imports the app module itself
(spit_tui.app.app) but the package that exports it and the command line, so
screens, widgets and the computer players never reach back into the App
(they post messages up instead). Function-level and TYPE_CHECKING imports count."""

from __future__ import annotations

import ast
from pathlib import Path

import spit_tui

SRC = Path(spit_tui.__file__).parent
APP_MODULE = "spit_tui.app.app"
ALLOWED = {"app/__init__.py", "cli.py"}


def module_name(path: Path) -> str:
    rel = path.relative_to(SRC.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_modules(path: Path) -> set[str]:
    package = module_name(path)
    if path.name != "__init__.py":
        package = package.rpartition(".")[0]
    return imports_in(path.read_text(encoding="utf-8"), package)


def imports_in(code: str, package: str) -> set[str]:
    """Every module `code` (a module of `package`) imports anywhere in its body,
    relative imports resolved, and `from X import name` counted as X.name too
    (it may be a submodule)."""
    tree = ast.parse(code)
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def test_only_the_package_and_the_cli_import_the_app_module() -> None:
    importers = sorted(
        str(path.relative_to(SRC))
        for path in SRC.rglob("*.py")
        if APP_MODULE in imported_modules(path)
    )
    assert set(importers) <= ALLOWED, importers
    assert "app/__init__.py" in importers  # the check does see imports


def test_the_check_sees_function_level_type_checking_and_relative_imports() -> None:
    cases = [
        "def f():\n    from spit_tui.app.app import SpitApp\n",
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from spit_tui.app.app import X\n",
        "from .app import SpitApp\n",
        "from . import app\n",
        "from spit_tui.app import app\n",
        "import spit_tui.app.app\n",
    ]
    for code in cases:
        assert APP_MODULE in imports_in(code, "spit_tui.app"), code
    assert APP_MODULE in imports_in("from ..app.app import SpitApp\n", "spit_tui.players")
    fine = "from spit_tui.app import SpitApp\nfrom .screens import GameScreen\n"
    assert APP_MODULE not in imports_in(fine, "spit_tui.app")


def test_no_class_but_the_table_is_a_table_and_the_app_knows_no_network() -> None:
    """A remote seat is not a Table that pretends (it keeps the latest Scene),
    and the app draws whatever it is handed without knowing the network."""
    import re

    subclass = re.compile(r"^class \w+\((?:[\w.]*\.)?Table\)", re.M)
    pretenders = sorted(
        str(path.relative_to(SRC))
        for path in SRC.rglob("*.py")
        if path.name != "table.py" and subclass.search(path.read_text(encoding="utf-8"))
    )
    assert pretenders == []
    reaching = sorted(
        str(path.relative_to(SRC))
        for path in (SRC / "app").rglob("*.py")
        if any(m.startswith("spit_tui.net") for m in imported_modules(path))
    )
    assert reaching == []
    stand_in = [p for p in SRC.rglob("*.py") if re.search(r"\bHIDDEN\b", p.read_text("utf-8"))]
    assert stand_in == []


# The layers, bottom up: a module imports only from its own layer and the ones
# below. keys/ and players/ share a layer; keys/ never imports players/ (the
# players may read the keys' rules: the reaction margin).
# Modules not named here are at the top (store, app, net, web, the commands).
LAYERS: dict[str, int] = {
    "engine": 0,
    "paths": 0,  # utilities with no game code: where the user's files live,
    "userfiles": 0,  # how they are read safely,
    "command": 0,  # and how a command line quotes and reports (keys quote bad values so),
    "hangup": 0,  # and whether the terminal hung up (the key driver reads its end)
    "clock": 1,
    "keys": 2,
    "players": 2,
    "story": 2,  # whose card is where: built from engine events only
    "table": 3,
    "scene": 3,  # what a screen shows: the table builds it, every screen draws it
    "subscription": 3,  # the table's listeners
    "seats": 3,  # who sits at a table: the names, the computer's halves and levels
    "messages": 3,  # the word beside each player and its expiry, the refusal words
    "decision": 3,  # what became of one submission (the table's and a remote seat's)
    "showing": 3,  # what one game has on show beside its position: the table writes it
    "tablescene": 3,  # a table's Scene: its ordered state, seats and messages put together
}
TOP = 4
PEERS_APART = {("keys", "players")}

# Imports that go up a layer, each with its reason. Nothing else may.
EXCEPTIONS: dict[tuple[str, str], str] = {
    ("players/bot.py", "table"): (
        "Bot is a driver, not a policy: it schedules a policy's moves on a Table's "
        "clock and submits them there, as a key press does"
    ),
    ("command.py", "players"): (
        "--level's argument type names the computer's levels: imported inside the "
        "function, only by a command that takes a level"
    ),
    ("players/bot.py", "subscription"): "Bot follows the Table it drives (see above)",
    ("players/bot.py", "decision"): "Bot reads the Decisions of the Table it drives (see above)",
    ("players/auto.py", "store"): (
        "--level auto starts from the person's stored figures: read from the history "
        "on first use only (function-level imports)"
    ),
    ("players/auto.py", "subscription"): (
        "--level auto moves after each round: it listens to the Table the computer plays at"
    ),
}


def layer_of(module: str) -> tuple[str, int] | None:
    """The top-level part of a spit_tui module and its layer (None: not ours)."""
    parts = module.split(".")
    if parts[0] != "spit_tui" or len(parts) < 2:
        return None
    top = parts[1]
    return top, LAYERS.get(top, TOP)


def upward_imports() -> dict[tuple[str, str], list[str]]:
    found: dict[tuple[str, str], list[str]] = {}
    for path in SRC.rglob("*.py"):
        rel = str(path.relative_to(SRC))
        own = layer_of(module_name(path))
        if own is None or rel == "__init__.py":
            continue
        for imported in imported_modules(path):
            other = layer_of(imported)
            if other is None or other[0] == own[0]:
                continue
            if other[1] > own[1] or (own[0], other[0]) in PEERS_APART:
                found.setdefault((rel, other[0]), []).append(imported)
    return found


def test_imports_go_down_the_layers_only() -> None:
    """engine <- clock <- keys/players <- table <- store/app/net: every upward
    import is one of the named exceptions."""
    upward = upward_imports()
    unexplained = {k: v for k, v in upward.items() if k not in EXCEPTIONS}
    assert not unexplained, unexplained
    stale = set(EXCEPTIONS) - set(upward)
    assert not stale, f"exceptions no longer needed: {stale}"


def test_the_layer_check_sees_an_upward_import() -> None:
    assert layer_of("spit_tui.table") == ("table", 3)
    assert layer_of("spit_tui.keys.keymap") == ("keys", 2)
    assert layer_of("spit_tui.net.host") == ("net", TOP)
    assert layer_of("textual.app") is None
    code = "from spit_tui.table import Table\nfrom spit_tui.players.view import x\n"
    found = {layer_of(m) for m in imports_in(code, "spit_tui.keys")}
    assert ("table", 3) in found and ("players", 2) in found


def test_one_app_class_in_the_app() -> None:
    """Every door is a mode of the one app (app/modes.py): no second App class
    under app/ (tests may subclass it)."""
    apps = sorted(
        f"{path.relative_to(SRC)}:{node.name}"
        for path in (SRC / "app").rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ClassDef) and any(_names_app(base) for base in node.bases)
    )
    assert apps == ["app/app.py:SpitApp"]


def _names_app(base: ast.expr) -> bool:
    """`App`, `App[X]`, `textual.app.App[X]`: a base naming Textual's App."""
    if isinstance(base, ast.Subscript):
        base = base.value
    name = base.attr if isinstance(base, ast.Attribute) else getattr(base, "id", "")
    return name == "App"


MUTATORS = {
    "update", "setdefault", "pop", "popitem", "clear", "append", "extend", "insert",
    "add", "discard", "remove", "sort", "reverse", "__setitem__", "__delitem__",
}


def module_tables(code: str) -> set[str]:
    """Names a module binds at its top level to a dict, list or set."""
    displays = (ast.Dict, ast.List, ast.Set, ast.DictComp, ast.ListComp, ast.SetComp)
    found: set[str] = set()
    for node in ast.parse(code).body:
        value = node.value if isinstance(node, ast.Assign | ast.AnnAssign) else None
        targets = node.targets if isinstance(node, ast.Assign) else (
            [node.target] if isinstance(node, ast.AnnAssign) else []
        )
        made = isinstance(value, displays) or (
            isinstance(value, ast.Call) and getattr(value.func, "id", "") in ("dict", "list", "set")
        )
        if made:
            found.update(t.id for t in targets if isinstance(t, ast.Name))
    return found


def written_names(code: str) -> set[str]:
    """Names (bare, or the last part of a dotted name) that `code` changes in place:
    item assignment or deletion, `+=` and the like, a mutating method, or a
    `global` rebinding."""

    def name(node: ast.expr) -> str | None:
        if isinstance(node, ast.Name):
            return node.id
        return node.attr if isinstance(node, ast.Attribute) else None

    out: set[str] = set()
    for node in ast.walk(ast.parse(code)):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign | ast.Delete):
            targets = list(node.targets)
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        for t in targets:
            if isinstance(t, ast.Subscript) and (n := name(t.value)):
                out.add(n)
        if isinstance(node, ast.AugAssign) and (n := name(node.target)):
            out.add(n)  # a list's += changes it in place
        call = node.func if isinstance(node, ast.Call) else None
        if isinstance(call, ast.Attribute) and call.attr in MUTATORS and (n := name(call.value)):
            out.add(n)
        if isinstance(node, ast.Global):
            out.update(node.names)
    return out


def test_no_key_table_is_module_state() -> None:
    """The key tables are values (issue 19 item 4: a frozen KeyMap, not module
    dicts updated in place): no dict, list or set that keys/ or players/ binds at
    its top level is written anywhere after import."""
    tables = {
        name
        for folder in ("keys", "players")
        for path in (SRC / folder).rglob("*.py")
        for name in module_tables(path.read_text(encoding="utf-8"))
    }
    assert "PRESETS" in tables  # the check does see the tables
    written = {
        (str(path.relative_to(SRC)), name)
        for path in SRC.rglob("*.py")
        for name in written_names(path.read_text(encoding="utf-8")) & tables
    }
    assert written == set()


def test_the_table_check_sees_a_write() -> None:
    assert module_tables("KEYS = {}\nROWS: list[int] = []\nN = 3\n") == {"KEYS", "ROWS"}
    for code in [
        "KEYS['a'] = 1\n", "del keymap.KEYS['a']\n", "KEYS.update(x)\n",
        "def f():\n    global KEYS\n    KEYS = {}\n", "ROWS += [1]\n",
    ]:
        assert written_names(code) & {"KEYS", "ROWS"}, code
    assert not written_names("x = KEYS['a']\nKEYS.get('a')\n") & {"KEYS"}
