"""Reading the history: what other parts of spit-tui ask of it.

`reaction_times(name)` is the per-player reaction-time distribution (seconds
from a card becoming playable to its play, one per card) that a computer
opponent built like that player reads.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from spit_tui.store import db
from spit_tui.store.stored import blob


def reaction_times(name: str, path: Path | None = None) -> list[float]:
    """Every stored reaction time of the player called `name`, oldest game
    first; [] if there is no history (or it cannot be read)."""
    try:
        conn = db.connect_read(path or db.default_path())
    except db.HistoryError:
        return []
    try:
        rows = conn.execute(
            "SELECT reactions FROM game_players WHERE name = ? ORDER BY game_id", (name,)
        ).fetchall()
    except sqlite3.Error:
        return []
    finally:
        conn.close()
    out: list[float] = []
    for (value,) in rows:
        reactions = blob(value)  # the file is untrusted: anything else is passed over
        if reactions is not None:
            out += db.unpack(reactions)
    return out
