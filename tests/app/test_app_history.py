"""The app with a history: a file that cannot be used is said on screen and the
game plays on; quitting stores the game in play; --no-history keeps nothing."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from testkit.app import advance, key_for_action, make_app, press, screen_text
from testkit.store import count_set_starts

from spit_tui.engine import Player, Ready
from spit_tui.store.history import HistoryWriter

OVER = "play 4 one:R - :7h/-/-/-/- - 8s :Kd/2c:Qd/:4h/:5s/Ac:Jh 6d6h 0,0"  # L1a ends it


async def test_a_damaged_history_is_said_on_screen_and_the_game_plays_on(tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite3"
    path.write_bytes(b"not a database at all" * 100)
    app = make_app(seed=3)
    app.attach_history(HistoryWriter(path, threaded=False))
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        app.tick()  # the app's tick says it (a test's app is not ticked by real time)
        await pilot.pause()
        text = await screen_text(pilot)
        assert "History is off for this session" in text
        await advance(pilot, 0.5)
        await press(pilot, [key_for_action(Ready(p)) for p in Player])
        await advance(pilot, 1.0)
        assert len(app.table.game.log) == 2  # the game went on
    assert path.read_bytes() == b"not a database at all" * 100


async def test_quitting_stores_the_game_in_play_unfinished(tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite3"
    app = make_app(seed=3)
    writer = HistoryWriter(path, threaded=False)
    writer.names = ("ANN", "BO")
    app.attach_history(writer)
    async with app.run_test(size=(100, 30)) as pilot:
        await advance(pilot, 0.5)
        await press(pilot, [key_for_action(Ready(p)) for p in Player])
        await advance(pilot, 1.0)
        await pilot.press("ctrl+q", "enter")
    conn = sqlite3.connect(path)
    stored = conn.execute("SELECT left_name, right_name, finished, record FROM games").fetchall()
    conn.close()
    assert len(stored) == 1 and stored[0][:3] == ("ANN", "BO", 0)
    assert "L!@0.5k R!@0.5k" in stored[0][3]


async def test_the_game_over_screen_shows_the_games_figures_beside_the_records(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    count_set_starts(monkeypatch)  # near the end, counted as if dealt
    path = tmp_path / "h.sqlite3"
    for n in range(2):
        app = make_app(OVER)
        writer = HistoryWriter(path, threaded=False)
        writer.names = ("ANN", "BO")
        app.attach_history(writer)
        async with app.run_test(size=(100, 30)) as pilot:
            await advance(pilot, 5.0 if n == 0 else 2.0)
            await press(pilot, "q")  # the last card: game over
            app.tick()
            text = await screen_text(pilot)
            assert "GAME OVER" in text
            if n == 0:
                assert "ANN 12 cards a minute" in text  # one card in 5 s, no record yet
            else:
                assert "ANN new best: 30 cards a minute" in text
                assert "BO 0 cards a minute (best 0)" in text


async def test_the_history_opens_after_the_first_frame_and_keeps_what_came_before(
    tmp_path: Path,
) -> None:
    """Opening the file (a check of all of it, a write) never shares the first
    frame's time: the session's writer waits for the app to be up."""
    import time

    from spit_tui.store.session import open_history

    path = tmp_path / "h.sqlite3"
    writer = open_history(str(path), enabled=True)
    assert writer is not None
    app = make_app(seed=3)
    app.attach_history(writer)
    assert not path.exists()  # nothing opened yet
    async with app.run_test(size=(100, 30)) as pilot:
        deadline = time.monotonic() + 10
        while not path.exists() and time.monotonic() < deadline:
            await pilot.pause(0.05)
        assert path.exists()  # opened once the board was up
        await advance(pilot, 0.5)
        await press(pilot, [key_for_action(Ready(p)) for p in Player])
        await advance(pilot, 1.0)
        await pilot.press("ctrl+q", "enter")
    conn = sqlite3.connect(path)
    stored = conn.execute("SELECT finished FROM games").fetchall()
    conn.close()
    assert stored == [(0,)]  # the game quit in play, stored by the worker


def test_a_writer_never_started_still_stores_what_was_queued(tmp_path: Path) -> None:
    """An app that ends before its first frame: close() starts the worker to
    write the queue."""
    from spit_tui.match import Match

    match = Match("expert", "expert", seed=3)
    writer = HistoryWriter(tmp_path / "h.sqlite3", start=False)
    writer.attach(match.table)
    match.run()
    writer.close()
    conn = sqlite3.connect(tmp_path / "h.sqlite3")
    assert conn.execute("SELECT finished FROM games").fetchall() == [(1,)]
    conn.close()
