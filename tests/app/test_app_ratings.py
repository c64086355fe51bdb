"""The game-over screen with a history: the rating's change and the personal
best the game set, against the computer (issue 23, items 1 and 2)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from testkit.app import advance, make_app, press, screen_text
from testkit.store import count_set_starts
from textual.pilot import Pilot

from spit_tui.app import SpitApp
from spit_tui.app.computer import computer_app
from spit_tui.engine import Player
from spit_tui.match import Match
from spit_tui.store.history import HistoryWriter
from spit_tui.store.overlines import SET_POSITION

OVER = "play 4 one:R - :7h/-/-/-/- - 8s :Kd/2c:Qd/:4h/:5s/Ac:Jh 6d6h 0,0"  # L1a ends it
R = Player.RIGHT


def seed_history(path: Path, games: int = 3) -> None:
    """ANN's earlier games against level 7 (bots playing them, stored as the app would)."""
    for seed in range(games):
        match = Match("normal", "normal", seed=seed)
        writer = HistoryWriter(path, threaded=False)
        writer.names = ("ANN", "computer (normal)")
        writer.rungs = {R: 7}
        writer.attach(match.table)
        match.run()
        writer.close()


def over_app(path: Path) -> SpitApp:
    table = make_app(OVER).table
    app = computer_app(computer={R: "normal"}, table=table, bot_seed=1, names=("ANN", None))
    writer = HistoryWriter(path, threaded=False)
    writer.names = app.stored_names()
    writer.rungs = app.computer_rungs()
    app.attach_history(writer)
    return app


async def _finish(pilot: Pilot[Any]) -> None:
    await advance(pilot, 58.0)
    await press(pilot, "q")  # the last card: game over at 0:58
    await advance(pilot, 0.1)  # the app's tick shows what the history worked out
    pilot.app.clear_notifications()  # the opening note would cover the keys
    await pilot.pause()


async def _game_over_text(path: Path) -> str:
    """The game-over screen after three earlier games against level 7."""
    seed_history(path)
    async with over_app(path).run_test(size=(100, 30)) as pilot:
        await _finish(pilot)
        return await screen_text(pilot)


async def test_the_game_over_screen_says_the_rating_change_and_the_new_best(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    count_set_starts(monkeypatch)  # near the end, counted as if dealt
    path = tmp_path / "h.sqlite3"
    text = await _game_over_text(path)
    assert "GAME OVER" in text
    assert "new best against level 7: 0:58" in text
    conn = sqlite3.connect(path)
    mb, sb, mu, sigma = conn.execute(
        "SELECT mu_before, sigma_before, mu, sigma FROM game_players WHERE game_id = 4"
        " AND seat = 'L'"
    ).fetchone()
    conn.close()
    from spit_tui.store.ratings import Rating

    after, before = Rating(mu, sigma), Rating(mb, sb)
    change = round(after.display) - round(before.display)
    assert change > 0
    assert f"rating {after.display:.0f} ({change:+d})" in text


async def test_a_game_from_a_set_position_moves_no_rating_and_sets_no_best(
    tmp_path: Path,
) -> None:
    """The same last card as above, but counted as what it is: a game begun from
    a set position (a 1-second "win"), kept in the history and rated not at all;
    the game-over banner says so, in place of its figures."""
    path = tmp_path / "h.sqlite3"
    text = await _game_over_text(path)
    assert "GAME OVER" in text and "new best" not in text and "cards a minute" not in text
    assert SET_POSITION in text  # (it was the cards-a-minute line, and nothing on counting)
    assert "rating" not in text.replace(SET_POSITION, "")
    conn = sqlite3.connect(path)
    try:
        assert conn.execute(
            "SELECT finished, set_start, ended FROM games WHERE id = 4"
        ).fetchone() == (1, 1, None)
        assert conn.execute(
            "SELECT count(*) FROM game_players WHERE game_id = 4 AND mu IS NOT NULL"
        ).fetchone() == (0,)
    finally:
        conn.close()


Snap = Callable[..., bool]


def test_snapshot_game_over_with_a_rating_change_and_a_new_best(
    snap_compare: Snap, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    count_set_starts(monkeypatch)  # near the end, counted as if dealt
    path = tmp_path / "h.sqlite3"
    seed_history(path)
    assert snap_compare(over_app(path), terminal_size=(80, 24), run_before=_finish)


def test_snapshot_game_over_from_a_set_position(snap_compare: Snap, tmp_path: Path) -> None:
    """The same game over, counted as what it is: the banner says it counts for nothing."""
    path = tmp_path / "h.sqlite3"
    seed_history(path)
    assert snap_compare(over_app(path), terminal_size=(80, 24), run_before=_finish)


async def _finish_in_a_match(pilot: Pilot[Any]) -> None:
    app = pilot.app
    assert isinstance(app, SpitApp)
    app.start_match(3)
    await _finish(pilot)


async def test_a_match_keeps_its_score_from_game_to_game_and_in_the_history(
    tmp_path: Path,
) -> None:
    path = tmp_path / "h.sqlite3"
    app = make_app(OVER, names=("ANN", "BO"))
    writer = HistoryWriter(path, threaded=False)
    writer.names = ("ANN", "BO")
    app.attach_history(writer)
    app.start_match(1)
    async with app.run_test(size=(100, 30)) as pilot:
        await advance(pilot, 1.0)
        assert "match ANN 0 : 0 BO, first to 1" in await screen_text(pilot)
        await press(pilot, "q")  # ANN's last card: the game and the match
        await advance(pilot, 2.0)
        text = await screen_text(pilot)
        assert "ANN wins the match 1 : 0" in text and "GAME OVER" in text
        await pilot.press("enter")  # the next match
        await pilot.pause()
        assert app.match is not None and app.match.number == 2
        assert "match ANN 0 : 0 BO, first to 1" in await screen_text(pilot)
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT match_id, match_first_to FROM games").fetchall() == [(1, 1)]
    conn.close()


def test_snapshot_game_over_in_a_match(
    snap_compare: Snap, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    count_set_starts(monkeypatch)  # near the end, counted as if dealt
    path = tmp_path / "h.sqlite3"
    seed_history(path, 2)
    assert snap_compare(over_app(path), terminal_size=(80, 24), run_before=_finish_in_a_match)


async def test_a_finished_game_counts_into_the_match_once_and_the_next_game_again() -> None:
    """The app counts a game when it ends, once however often the board is
    repainted after; the table's news of a new game (not a change of Game
    object) makes the next game countable."""
    app = make_app(OVER, names=("ANN", "BO"))
    app.start_match(3)
    async with app.run_test(size=(100, 30)) as pilot:
        await advance(pilot, 1.0)
        await press(pilot, "q")  # ANN's last card
        await advance(pilot, 2.0)
        for _ in range(3):
            app.table.messages.say(Player.LEFT, "a repaint")
        assert app.match is not None and (app.match.wins, app.match.games) == ([1, 0], 1)
        app.table.new_game(make_app(OVER).table.game)  # the same deal again
        await advance(pilot, 1.0)
        assert app.match.games == 1  # not over yet: nothing counted
        await press(pilot, "q")
        await advance(pilot, 2.0)
        assert (app.match.wins, app.match.games) == ([2, 0], 2)
