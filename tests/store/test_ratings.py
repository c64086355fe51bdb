"""Ratings (issue 23, item 1) on real SQLite files: a finished game rates its
people once, an unfinished one never, the computer's rungs stay put, a new
player moves fastest, and every stored figure comes back from the games alone."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from test_resume_store import resume_and_finish, stop_a_game
from testkit.store import rows, stored_match

from spit_tui.engine import Player
from spit_tui.store import db, rated
from spit_tui.store.commands import stats_main
from spit_tui.store.ratings import ANCHORS, NEW, START, Rating, Seat, anchor, rate, step

R = Player.RIGHT


def ratings(path: Path) -> list[tuple[object, ...]]:
    return rows(
        path, "SELECT game_id, seat, name, mu, sigma FROM game_players ORDER BY game_id, seat"
    )


def test_a_finished_game_against_the_computer_rates_the_person_only(tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite3"
    _, result, _ = stored_match(
        path, 1, ("normal", "normal"), names=("ANN", "computer (normal)"), rungs={R: 7}
    )
    (ann, comp) = rows(
        path, "SELECT name, rung, mu_before, mu, sigma FROM game_players ORDER BY seat"
    )
    assert comp[1] == 7 and comp[3] is None  # the rung is an anchor: never rated
    assert ann[1] is None and ann[2] == NEW.mu
    after = Rating(float(str(ann[3])), float(str(ann[4])))
    won = result.winner is Player.LEFT
    assert (after.display > START) == won and after.sigma < NEW.sigma
    assert rows(path, "SELECT ended FROM games") == [(1,)]


def test_an_unfinished_game_is_not_rated_and_counts_once_when_resumed_and_finished(
    tmp_path: Path,
) -> None:
    from spit_tui.store.resume import find_stopped

    path = tmp_path / "h.sqlite3"
    stop_a_game(path, 5, after=40.0, names=("ANA", "BEN"))
    assert rows(path, "SELECT count(*) FROM game_players WHERE mu IS NOT NULL") == [(0,)]
    assert rows(path, "SELECT ended FROM games") == [(None,)]
    stored_match(path, 2, names=("ANA", "BEN"))  # another game finishes meanwhile
    stopped = find_stopped(path)
    assert stopped is not None
    resume_and_finish(path, stopped, 5)
    # the resumed game is rated once, after the game that finished before it
    assert rows(path, "SELECT id, ended FROM games ORDER BY id") == [(1, 2), (2, 1)]
    assert rows(path, "SELECT count(*) FROM game_players WHERE mu IS NOT NULL") == [(4,)]
    conn = sqlite3.connect(path)
    assert rated.rate_game(conn, 1) == {}  # already rated: nothing moves
    assert rated.mismatches(conn) == []
    conn.close()


def test_storing_a_finished_game_again_keeps_its_one_rating(tmp_path: Path) -> None:
    from spit_tui.match import Match
    from spit_tui.store.history import HistoryWriter

    path = tmp_path / "h.sqlite3"
    match = Match("expert", "expert", seed=3)
    writer = HistoryWriter(path, threaded=False)
    writer.names = ("ANN", "BO")
    writer.attach(match.table)
    match.run()
    before, writes = ratings(path), writer.writes
    assert all(r[3] is not None for r in before)
    writer.save(match.table)  # the same finished game, stored again (as at quitting)
    writer.close()
    assert writer.writes == writes + 1 and ratings(path) == before
    assert rows(path, "SELECT ended FROM games") == [(1,)]


def test_a_new_player_moves_fastest() -> None:
    settled = Rating(NEW.mu, 2.0)
    new_after, _ = rate(NEW, anchor(4), True)
    settled_after, _ = rate(settled, anchor(4), True)
    assert new_after.mu - NEW.mu > 3 * (settled_after.mu - settled.mu) > 0
    # and the anchor does not move, whatever the game says
    changes = step((Seat("ANN", None, True), Seat("computer", 4, False)), {})
    assert [c[0] for c in changes] == [0]


def test_beating_a_rung_half_the_time_settles_at_its_rating() -> None:
    r = NEW
    for i in range(400):
        r, _ = rate(r, anchor(9), i % 2 == 0)
    assert r.display == pytest.approx(ANCHORS[9], abs=60)


def test_recomputing_every_rating_from_the_stored_games_gives_the_same_figures(
    tmp_path: Path,
) -> None:
    path = tmp_path / "h.sqlite3"
    for seed in range(6):
        names = [("ANN", "BO"), ("BO", "CY"), ("ANN", "computer (hard)")][seed % 3]
        stored_match(
            path, seed, ("hard", "expert"), names=names, rungs={R: 12} if seed % 3 == 2 else None
        )
    conn = sqlite3.connect(path)
    again = rated.recompute(conn)
    assert len(again) == 10 and again == rated.stored(conn)
    assert rated.mismatches(conn) == []
    conn.execute("UPDATE game_players SET mu = mu + 1 WHERE game_id = 4 AND seat = 'L'")
    assert rated.mismatches(conn) == [(4, "L")]
    conn.close()


def test_a_version_3_history_is_rated_by_the_migration(tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite3"
    for seed in range(3):
        stored_match(path, seed, names=("ANN", "computer (hard)"), rungs={R: 12})
    want = ratings(path)
    # back to schema 3: the columns of version 4 go, and the version with them
    conn = sqlite3.connect(path, isolation_level=None)
    for col in ("mu_before", "sigma_before", "mu", "sigma", "median_ms", "rung", "identity"):
        conn.execute(f"ALTER TABLE game_players DROP COLUMN {col}")
    conn.execute("DROP INDEX games_ended")
    conn.execute("DROP INDEX games_daily")
    for col in ("ended", "daily", "match_id", "match_first_to", "set_start"):
        conn.execute(f"ALTER TABLE games DROP COLUMN {col}")
    conn.execute("DELETE FROM schema_version WHERE version >= 4")
    conn.close()
    db.connect(path).close()
    assert rows(path, "SELECT max(version) FROM schema_version") == [(db.SCHEMA_VERSION,)]
    assert ratings(path) == want  # the computer's rung read off its stored name
    assert rows(path, "SELECT rung FROM game_players WHERE seat = 'R'") == [(12,)] * 3


def test_stats_json_carries_the_rating(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "h.sqlite3"
    for seed in range(3):
        stored_match(path, seed, ("hard", "hard"), names=("ANN", "computer (normal)"), rungs={R: 7})
    assert stats_main(["--db", str(path), "--json"]) == 0
    players = {p["name"]: p for p in json.loads(capsys.readouterr().out)["players"]}
    ann = players["ANN"]
    assert ann["rating"] is not None and ann["rating_spread"] > 0 and ann["tier"]
    assert len(ann["rating_last"]) == 3 and ann["rating_last"][-1] == ann["rating"]
    assert players["computer (normal)"]["rating"] is None
    assert stats_main(["--db", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"{ann['rating']:.0f} ±" in out


def test_an_identity_is_rated_apart_from_a_name(tmp_path: Path) -> None:
    """A door that knows the player's key (SSH) rates the key, whatever name it plays under."""
    path = tmp_path / "h.sqlite3"
    stored_match(path, 1, names=("ANN", "BO"))
    stored_match(path, 2, names=("ANN", "BO"), identities=("SHA256:abc", None))
    stored_match(path, 3, names=("ANNA", "BO"), identities=("SHA256:abc", None))
    conn = sqlite3.connect(path)
    keys = rated.history_by_key(conn)
    assert set(keys) == {"ANN", "BO", "SHA256:abc"}
    assert len(keys["SHA256:abc"]) == 2 and len(keys["ANN"]) == 1 and len(keys["BO"]) == 3
    assert rated.mismatches(conn) == []
    conn.close()
