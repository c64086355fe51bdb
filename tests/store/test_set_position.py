"""A game begun from a position set by hand (`--position`, a help position, a
saved one) is kept in the history, replayable and listed as such, but it is
not a fair deal: it moves no rating and counts for no best, streak, daily
table or `stats` figure. A real SQLite file through the real writer."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from testkit.store import rows, stored_match

from spit_tui import cli
from spit_tui.engine import Game, Options, parse_record, replay_record
from spit_tui.store import bests, daily, db, rated
from spit_tui.store.stats import all_stats

ELSEWHERE = Game(options=Options(), seed=999).start  # a start no game's own seed deals here


def test_a_game_from_a_set_position_is_kept_but_not_rated_nor_counted(tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite3"
    day = "2026-12-02"
    stored_match(path, 1, names=("ANA", "BEN"), position=ELSEWHERE, daily=day, deal=7)
    assert rows(path, "SELECT finished, set_start, ended, result IS NOT NULL FROM games") == [
        (1, 1, None, 1)
    ]
    assert rows(path, "SELECT count(*) FROM game_players WHERE mu IS NOT NULL") == [(0,)]
    (text,) = rows(path, "SELECT record FROM games")[0]
    rec = parse_record(str(text))
    assert rec.start == ELSEWHERE and not rec.from_deal()
    assert replay_record(rec).over  # kept whole: it replays to its end
    conn = sqlite3.connect(path)
    try:
        assert bests.game_rows(conn, "ANA") == bests.game_rows(conn, "BEN") == []
        assert daily.day_table(conn, day) == [] and daily.attempts(conn, "ANA") == []
        assert all_stats(conn) == []
        assert rated.mismatches(conn) == []
    finally:
        conn.close()
    # a dealt game afterwards is rated as if the set one never was
    fresh = tmp_path / "fresh.sqlite3"
    stored_match(path, 2, names=("ANA", "BEN"))
    stored_match(fresh, 2, names=("ANA", "BEN"))
    ratings = "SELECT seat, mu_before, mu, sigma FROM game_players WHERE mu IS NOT NULL"
    assert rows(path, ratings) == rows(fresh, ratings) != []


def test_a_dealt_game_counts(tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite3"
    stored_match(path, 1, names=("ANA", "BEN"))
    assert rows(path, "SELECT set_start, ended FROM games") == [(0, 1)]
    (text,) = rows(path, "SELECT record FROM games")[0]
    assert parse_record(str(text)).from_deal()


def test_history_lists_it_as_a_set_position(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "h.sqlite3"
    stored_match(path, 1, names=("ANA", "BEN"), position=ELSEWHERE)
    stored_match(path, 2, names=("ANA", "BEN"))
    assert cli.main(["history", "--db", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    set_line = next(line for line in lines if line.lstrip("│ ").startswith("1 "))
    dealt_line = next(line for line in lines if line.lstrip("│ ").startswith("2 "))
    assert "set position" in set_line and "set position" not in dealt_line


def test_a_set_position_game_stored_before_loses_its_rating_on_migration(
    tmp_path: Path,
) -> None:
    """Files of schema 5 rated such games: the migration marks them, takes their
    ratings back and rates the others again from the games alone."""
    path, want = tmp_path / "old.sqlite3", tmp_path / "want.sqlite3"
    for p in (path, want):
        stored_match(p, 1, names=("ANA", "BEN"))
        stored_match(p, 2, names=("ANA", "BEN"), position=ELSEWHERE)
        stored_match(p, 3, names=("ANA", "BEN"))
    conn = sqlite3.connect(path, isolation_level=None)  # back to schema 5, as stored then
    conn.execute("DELETE FROM schema_version WHERE version >= 6")
    conn.execute("UPDATE games SET ended = 4 WHERE id = 2")  # rated then, like any game
    conn.execute("ALTER TABLE games DROP COLUMN set_start")
    rated.rerate(conn)
    conn.close()
    assert rows(path, "SELECT count(*) FROM game_players WHERE game_id = 2 AND mu IS NOT NULL") == [
        (2,)
    ]
    db.connect(path).close()
    assert rows(path, "SELECT max(version) FROM schema_version") == [(db.SCHEMA_VERSION,)]
    assert rows(path, "SELECT id, set_start, ended IS NULL FROM games ORDER BY id") == [
        (1, 0, 0), (2, 1, 1), (3, 0, 0)
    ]
    players = "SELECT game_id, seat, mu_before, mu, sigma FROM game_players ORDER BY game_id, seat"
    assert rows(path, players) == rows(want, players)
    conn = sqlite3.connect(path)
    try:
        assert rated.mismatches(conn) == []
        assert {s.name: s.games for s in all_stats(conn)} == {"ANA": 2, "BEN": 2}
    finally:
        conn.close()


def test_a_set_position_game_is_no_best_for_the_game_over_line(tmp_path: Path) -> None:
    """The game-over line compares this game's cards a minute with each
    player's best: a finish from a set position is not one (it was, so a
    3-second "win" set a best every dealt game after it fell short of)."""
    from spit_tui.store.figures import figures
    from spit_tui.store.overlines import figures_line

    path = tmp_path / "h.sqlite3"
    stored_match(path, 1, names=("ANA", "BEN"), position=ELSEWHERE)
    stored_match(path, 2, names=("ANA", "BEN"))
    (text, seconds), *_ = rows(path, "SELECT record, play_seconds FROM games WHERE id = 2")
    conn = sqlite3.connect(path)
    try:
        line = figures_line(conn, 2, figures(parse_record(str(text))), ("ANA", "BEN"),
                            float(seconds))  # type: ignore[arg-type]
    finally:
        conn.close()
    assert "best" not in line and line.startswith("ANA "), line  # nothing to compare with
