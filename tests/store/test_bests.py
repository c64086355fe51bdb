"""Personal bests (issue 23, item 2) on a real SQLite file: per player, against
anyone and against each computer rung; the game that sets one says so."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from testkit.store import stored_match

from spit_tui.engine import Player
from spit_tui.store.bests import ANYONE, GameRow, bests_of, by_opponent, fallen, game_rows
from spit_tui.store.commands import stats_main

R = Player.RIGHT


def row(
    game_id: int,
    won: bool,
    seconds: float,
    cards: int = 30,
    median: int | None = 700,
    against: int = 7,
) -> GameRow:
    return GameRow(game_id, won, seconds, cards, median, 20, against)


def test_bests_are_the_fastest_win_most_cards_quickest_median_and_longest_run() -> None:
    rows = [
        row(1, True, 200, cards=40, median=800),
        row(2, True, 150, cards=20, median=650),
        row(3, False, 100, cards=45, median=600),
        row(4, True, 300, cards=30, median=None),
        row(5, True, 400),
        row(6, True, 500),
    ]
    b = bests_of(rows)
    assert b.fastest_win is not None and (b.fastest_win.value, b.fastest_win.game_id) == (150, 2)
    assert b.cards_per_minute is not None and b.cards_per_minute.game_id == 3  # a loss counts
    assert b.median_reaction is not None and b.median_reaction.value == 0.6
    assert b.win_streak is not None and (b.win_streak.value, b.win_streak.game_id) == (3, 6)
    few = [GameRow(1, True, 100, 30, 100, 2, 7)]  # a median of two cards is no best
    assert bests_of(few).median_reaction is None


def test_bests_by_rung_and_the_game_that_sets_one(tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite3"
    for seed in range(4):
        level, rung = ("normal", 7) if seed % 2 else ("easy", 4)
        stored_match(
            path, seed, ("hard", level), names=("ANN", f"computer ({level})"), rungs={R: rung}
        )
    conn = sqlite3.connect(path)
    rows = game_rows(conn, "ANN")
    groups = by_opponent(rows)
    assert list(groups) == [ANYONE, 4, 7]
    cpm = {g: b.cards_per_minute for g, b in groups.items()}
    assert all(v is not None for v in cpm.values())
    # the second game against each rung sets or misses that rung's bests; say exactly those
    for r in rows:
        said = fallen(conn, "ANN", r.game_id)
        earlier = [x for x in rows if x.against == r.against and x.game_id < r.game_id]
        if not earlier:
            assert said == []
            continue
        before = bests_of(earlier).cards_per_minute
        now = r.cards * 60 / r.seconds
        assert before is not None
        assert any("cards/min" in s for s in said) == (now > before.value)
        assert all(s.startswith(f"new best against level {r.against}: ") for s in said)
    conn.close()


def test_stats_player_lists_the_bests(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "h.sqlite3"
    for seed in range(3):
        stored_match(
            path, seed, ("hard", "normal"), names=("ANN", "computer (normal)"), rungs={R: 7}
        )
    assert stats_main(["--db", str(path), "--player", "ANN"]) == 0
    out = capsys.readouterr().out
    assert "ANN's personal bests" in out and "level 7" in out and "anyone" in out
    assert stats_main(["--db", str(path), "--player", "ANN", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data["bests"]) == {"anyone", "level 7"}
    assert data["bests"]["level 7"]["cards_per_minute"]["value"] > 0


def test_the_figures_line_names_auto_as_the_board_does(tmp_path: Path) -> None:
    """--level auto's games are kept under one name, "computer (auto)"; the
    game-over line names it with the level it ended on, as the board does."""
    match, _, writer = stored_match(
        tmp_path / "h.sqlite3", 4, names=("YOU", "computer (auto)"), rungs={Player.RIGHT: 6}
    )
    line = writer.figures_for(match.table)
    assert "computer (auto \N{MIDDLE DOT} level 6) " in line and "YOU " in line, line
    match, _, writer = stored_match(
        tmp_path / "h.sqlite3", 5, names=("YOU", "computer (hard)"), rungs={Player.RIGHT: 12}
    )
    assert "computer (hard) " in writer.figures_for(match.table)
