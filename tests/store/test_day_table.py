"""The day's daily-deal table of all players (issue 23 item 3, for the SSH
lobby) and ratings of door guests in `stats`, on a real SQLite file: bot
players' daily games stored as the app stores them."""

from __future__ import annotations

import sqlite3
from datetime import date
from pathlib import Path

from testkit.store import stored_match

from spit_tui.engine import Player
from spit_tui.players.ladder import HUMANS
from spit_tui.store import daily
from spit_tui.store.stats import all_stats

R = Player.RIGHT
DAY = date(2026, 12, 2)


def play(path: Path, seed: int, name: str, who: str = "practised", key: str | None = None,
         day: date = DAY) -> None:
    stored_match(
        path, seed, (HUMANS[who], daily.LEVEL), names=(name, f"computer ({daily.LEVEL})"),
        rungs={R: 7}, daily=day.isoformat(), deal=daily.seed_for(day), identities=(key, None),
    )


def test_the_days_table_has_each_players_scored_attempt_best_first(tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite3"
    play(path, 1, "ann", key="SHA256:ann")
    play(path, 2, "ann", key="SHA256:ann")  # practice: the first attempt stands
    play(path, 3, "bo", "new")
    play(path, 5, "ann", day=date(2026, 12, 1))  # another day
    conn = sqlite3.connect(path)
    try:
        table = daily.day_table(conn, DAY.isoformat())
        firsts = {n: daily.attempts(conn, n, DAY.isoformat())[0] for n in ("ann", "bo")}
    finally:
        conn.close()
    assert sorted(n for n, _ in table) == ["ann", "bo"]  # the computer is nobody's row
    assert dict(table) == firsts
    order = [(not a.won, a.seconds) for _, a in table]
    assert order == sorted(order)  # winners first, then the fastest
    lines = daily.table_lines(table, DAY.isoformat())
    assert lines[0] == "The daily deal of 2026-12-02: 2 players"
    name, first = table[0]
    assert lines[1] == f"  1. {name:<16} {first.share().split(' · ', 1)[1]}"
    assert daily.table_lines([], "2026-12-03") == [
        "Nobody has played the daily deal of 2026-12-03 yet."
    ]


def test_a_door_guest_rated_by_key_shows_the_rating_in_stats(tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite3"
    play(path, 1, "ann", key="SHA256:ann")
    play(path, 2, "ann", key="SHA256:ann")
    conn = sqlite3.connect(path)
    try:
        (one,) = all_stats(conn, "ann")
        every = {s.name: s for s in all_stats(conn)}
    finally:
        conn.close()
    assert one.rating is not None and len(one.rating_last) == 2  # rated by the key, shown by name
    assert every["ann"].rating == one.rating


def test_the_lobby_pages_read_the_history(tmp_path: Path) -> None:
    from spit_tui.store.lobbylines import daily_lines, my_stats_lines

    path = tmp_path / "h.sqlite3"
    assert my_stats_lines(path, "ann") == ["No games are stored here yet."]
    assert daily_lines(path, DAY) == ["No games are stored here yet."]
    play(path, 1, "ann", key="SHA256:ann")
    mine = my_stats_lines(path, "ann")
    assert mine[0].startswith("ann: 1 game, ") and "cards a minute" in mine[0]
    assert mine[1].startswith("rating ") and "±" in mine[1]  # rated by the door's key
    assert "fastest win" in mine[2]
    assert my_stats_lines(path, "zed") == ["No finished games of zed are stored here yet."]
    assert "--name" in my_stats_lines(path, None)[0]
    (head, row) = daily_lines(path, DAY)
    assert head == "The daily deal of 2026-12-02: 1 player" and "ann" in row
    path.write_bytes(b"not a history" * 100)
    (line,) = my_stats_lines(path, "ann")
    assert "history" in line and "\n" not in line  # one line, no error to catch
