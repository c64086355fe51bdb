"""How a play session uses the history: which file, which names, or none at all.

    spit-tui                      history in the user data directory
    spit-tui --db FILE            another file
    spit-tui --no-history         nothing kept (also: SPIT_NO_HISTORY=1)
    --left-name / --right-name    the names the games are stored under

Against the computer, its level is its name. Nothing here ever stops a game
from starting: a history that cannot be used turns itself off and says so.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from spit_tui.engine import Player
from spit_tui.store import db
from spit_tui.store.history import HistoryWriter

MAX_NAME = 16
DEFAULT_NAMES = ("LEFT", "RIGHT")


def name_problem(name: str) -> str | None:
    """Why `name` cannot be a player's name, or None."""
    if not name.strip():
        return "a name needs at least one letter"
    if len(name) > MAX_NAME:
        return f"a name has at most {MAX_NAME} characters"
    if any(not ch.isprintable() or ch in '"\\' for ch in name):
        return "a name has no quotes, backslashes or control characters"
    return None


def seat_names(
    given: tuple[str | None, str | None], computer: Mapping[Player, str] | None = None
) -> tuple[str, str]:
    """Each seat's name: the computer's level, the name given, or LEFT/RIGHT."""
    computer = computer or {}
    out = []
    for p in Player:
        if p in computer:
            out.append(computer[p])
        else:
            out.append((given[p] or DEFAULT_NAMES[p]).strip())
    return out[0], out[1]


NO_HISTORY_ENV = "SPIT_NO_HISTORY"  # set (non-empty): as --no-history, for scripts


def open_history(db_path: str | None, enabled: bool) -> HistoryWriter | None:
    """The session's writer (it opens the file on its own thread), or None."""
    if not enabled or os.environ.get(NO_HISTORY_ENV):
        return None
    return HistoryWriter(Path(db_path) if db_path else db.default_path())
