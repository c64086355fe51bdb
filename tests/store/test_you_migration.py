"""Schema 5 (issue 21's names): games an unnamed person played against the
computer before the board called them YOU were stored under LEFT (or RIGHT),
so `stats` showed one person as two. The migration gives those seats the
name YOU and rates the games again; a real SQLite file at schema 4."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from testkit.store import rows, stored_match

from spit_tui.engine import Player
from spit_tui.store import db, rated
from spit_tui.store.stats import all_stats

L, R = Player.LEFT, Player.RIGHT


def _history(path: Path, old: bool) -> None:
    """Two games against the computer (the person unnamed: LEFT and RIGHT
    before, YOU now), a YOU game, and a two-person game of LEFT and RIGHT."""
    stored_match(path, 1, ("normal", "hard"), names=("LEFT" if old else "YOU", "computer (hard)"),
                 rungs={R: 12})
    stored_match(path, 2, ("hard", "normal"), names=("computer (hard)", "RIGHT" if old else "YOU"),
                 rungs={L: 12})
    stored_match(path, 3, ("normal", "hard"), names=("YOU", "computer (hard)"), rungs={R: 12})
    stored_match(path, 4, ("normal", "hard"), names=("LEFT", "RIGHT"))


def test_old_unnamed_games_against_the_computer_become_you(tmp_path: Path) -> None:
    want_path, path = tmp_path / "now.sqlite3", tmp_path / "old.sqlite3"
    _history(want_path, old=False)
    _history(path, old=True)
    conn = sqlite3.connect(path, isolation_level=None)  # back to schema 4, as stored then
    conn.execute("DELETE FROM schema_version WHERE version >= 5")
    conn.execute("ALTER TABLE games DROP COLUMN set_start")
    conn.close()
    assert rows(path, "SELECT name FROM game_players ORDER BY game_id, seat")[:4] == [
        ("LEFT",), ("computer (hard)",), ("computer (hard)",), ("RIGHT",)
    ]
    db.connect(path).close()
    assert rows(path, "SELECT max(version) FROM schema_version") == [(db.SCHEMA_VERSION,)]
    sql = "SELECT left_name, right_name FROM games ORDER BY id"
    assert rows(path, sql) == rows(want_path, sql) == [
        ("YOU", "computer (hard)"), ("computer (hard)", "YOU"), ("YOU", "computer (hard)"),
        ("LEFT", "RIGHT"),  # two people: their seats' names stay
    ]
    players = "SELECT game_id, seat, name, mu, sigma FROM game_players ORDER BY game_id, seat"
    assert rows(path, players) == rows(want_path, players)  # rated as if stored as YOU
    conn = sqlite3.connect(path)
    try:
        assert rated.mismatches(conn) == []
        you = next(s for s in all_stats(conn) if s.name == "YOU")
        assert you.games == 3 and len(you.rating_last) == 3  # one person, one row
    finally:
        conn.close()
