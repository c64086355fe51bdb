"""table.py keeps only the ordered path (issue 19 item 7): the ideas that sat
beside it each have a module of their own, and table.py neither defines nor
re-creates them. A grep over the source, so a later change that brings one
back fails here with the name it brought."""

from __future__ import annotations

import ast
from pathlib import Path

import spit_tui
from spit_tui.table import Table

SRC = Path(spit_tui.__file__).parent
TABLE = SRC / "table.py"

# what moved out, and where it lives now
MOVED: dict[str, str] = {
    "Message": "messages.py",  # the word beside a player, with its end
    "MESSAGE_S": "messages.py",
    "Seats": "seats.py",  # the names and the computer's levels
    "Decision": "decision.py",  # what became of a submission (a remote seat makes them too)
    "LOG_LIMIT": "decision.py",
    "Showing": "showing.py",  # what one game has on show
    "HIGHLIGHT_S": "showing.py",
    "SceneBuilder": "tablescene.py",  # the Scene of a table
    "SCOREBOARD_ROUNDS": "scene.py",
}
# the table's old ways of doing what those modules do now
GONE = {
    "say", "message", "names", "computer_level", "_put_message", "_message_timers",
    "_who_won", "_idle_reason", "_names", "_computer", "_views", "lit_piles", "left_slot",
    "story", "rounds", "last_round", "last_event", "game_started_at", "game_ended_at",
    "stale_s", "repeat_s", "_stamp",  # the gate's and the Showing's own, read there
}


def _defined(tree: ast.Module) -> set[str]:
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            out.add(node.name)
        elif isinstance(node, ast.Assign):
            out.update(t.id for t in node.targets if isinstance(t, ast.Name))
            out.update(t.attr for t in node.targets if isinstance(t, ast.Attribute))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name | ast.Attribute):
            t = node.target
            out.add(t.id if isinstance(t, ast.Name) else t.attr)
    return out


def test_the_moved_ideas_live_in_their_own_modules_and_not_in_the_table() -> None:
    tree = ast.parse(TABLE.read_text(encoding="utf-8"))
    defined = _defined(tree)
    assert not defined & set(MOVED), defined & set(MOVED)
    assert not defined & GONE, defined & GONE
    for name, module in MOVED.items():
        assert name in _defined(ast.parse((SRC / module).read_text(encoding="utf-8"))), name
    assert not any(hasattr(Table, name) for name in GONE)


def test_the_table_builds_no_scene_and_says_no_words_itself() -> None:
    """No Scene(...) and no Said(...) made in table.py: the builder and the
    messages make them."""
    tree = ast.parse(TABLE.read_text(encoding="utf-8"))
    made = {
        node.func.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    }
    assert not made & {"Scene", "Said", "Scored", "Message", "ViewCache"}, made


def test_the_table_and_the_modules_beside_it_are_small() -> None:
    """The project's modules hold one idea each, about 400 lines at most."""
    for name in ("table", "seats", "messages", "decision", "showing", "tablescene", "subscription"):
        lines = len((SRC / f"{name}.py").read_text(encoding="utf-8").splitlines())
        assert lines < 400, (name, lines)
