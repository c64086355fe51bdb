"""Resume in the app (issue 13, item 5): every way out of a game in play stores
it unfinished; a resumed game shows the board it stopped at, its clocks go on
from there, and once finished it is one game in the history; the opening
banner offers the stopped game (F5) without holding up a new one."""

from __future__ import annotations

import signal
import sqlite3
from pathlib import Path

import pytest
from testkit.app import advance, key_for_action, make_app, press, screen_text

from spit_tui.app import SpitApp
from spit_tui.clock import VirtualClock
from spit_tui.engine import Game, Phase, Player, Ready, parse_record, replay_record
from spit_tui.store.history import HistoryWriter
from spit_tui.store.resume import Stopped, find_stopped
from spit_tui.table import Table

# Single pile, the left player holds 7h and 6c: L1a then L2a ends the game.
TWO_TO_GO = "play 4 one:R - :7h/:6c/-/-/- - 8s :Kd/2c:Qd/:4h/:5s/Ac:Jh 6d6h 0,0"


def games(path: Path) -> list[tuple[object, ...]]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(
            "SELECT id, left_name, right_name, finished, play_seconds, record, clock_seconds"
            " FROM games"
        ).fetchall()
    finally:
        conn.close()


def with_history(app: SpitApp, path: Path, names: tuple[str, str] = ("ANA", "BEN")) -> None:
    writer = HistoryWriter(path, threaded=False)
    writer.names = names
    app.attach_history(writer)


@pytest.mark.parametrize("road", ["ctrl+q", "ctrl+c", "SIGTERM", "SIGHUP"])
async def test_every_way_out_of_a_game_in_play_stores_it_unfinished(
    tmp_path: Path, road: str
) -> None:
    """Keys through the quit dialog; signals through the app's signal handler
    (the real signals, and closing a real window, are in the tmux tests)."""
    path = tmp_path / "h.sqlite3"
    app = make_app(seed=3)
    with_history(app, path)
    async with app.run_test(size=(100, 30)) as pilot:
        await advance(pilot, 0.5)
        await press(pilot, [key_for_action(Ready(p)) for p in Player])
        await advance(pilot, 1.0)
        if road.startswith("SIG"):
            app.ended_by_signal(getattr(signal, road))
        else:
            await pilot.press(road)
            assert "Quit the game?" in await screen_text(pilot)
            await pilot.press(road)  # the same key again quits
    ((_, left, right, finished, seconds, text, clock),) = games(path)
    assert (left, right, finished) == ("ANA", "BEN", 0)
    assert "L!@0.5k R!@0.5k" in str(text)
    assert float(str(seconds)) == pytest.approx(0.4)  # play: from the spit, 0.6 s after the keys
    assert float(str(clock)) == pytest.approx(1.5)  # the game clock: the wait for it too


async def quit_after_the_first_card(path: Path) -> str:
    """Play L1a after a second of play, then quit half a second later; the board."""
    app = make_app(TWO_TO_GO)
    with_history(app, path)
    async with app.run_test(size=(100, 30)) as pilot:
        await advance(pilot, 1.0)
        await press(pilot, "q")  # 7h on 8s
        await advance(pilot, 0.5)
        board = await screen_text(pilot)
        await pilot.press("ctrl+q", "enter")
    return board


def resumed_app(path: Path) -> tuple[SpitApp, Stopped]:
    stopped = find_stopped(path)
    assert stopped is not None
    clock = VirtualClock()
    clock.advance(100.0)  # another session: its clock has nothing to do with the first's
    app = SpitApp(table=Table(Game(seed=99), clock))
    writer = HistoryWriter(path, threaded=False)
    writer.names = stopped.names
    app.attach_history(writer)
    app.resume_game(stopped.record, stopped.clock_seconds)
    writer.resume(app.table, stopped)
    return app, stopped


def board_part(text: str) -> list[str]:
    """The screen below the header and the banner (the header's clock is checked
    on its own; the banner of a resumed game first says it waits for Enter)."""
    return text.splitlines()[7:]  # the header, then the banner's six lines


async def test_a_resumed_game_shows_its_board_runs_its_clocks_on_and_is_stored_once(
    tmp_path: Path,
) -> None:
    path = tmp_path / "h.sqlite3"
    before = await quit_after_the_first_card(path)
    app, stopped = resumed_app(path)
    assert stopped.play_seconds == pytest.approx(1.5)
    async with app.run_test(size=(100, 30)) as pilot:
        text = await screen_text(pilot)
        def cards(board: list[str]) -> list[str]:  # the key rows say "(waiting)" until Enter
            return [line for line in board if "◂" not in line]

        assert cards(board_part(text)) == cards(board_part(before))  # the board it stopped at
        assert "◂ (waiting) ▸" in text
        assert "Back where you stopped" in text and "Enter: play on" in text
        assert "round 4 · 0:01" in text.splitlines()[0]
        await advance(pilot, 5.0)  # nobody has pressed Enter: the clocks wait
        await press(pilot, "w")  # and so does the game
        text = await screen_text(pilot)
        assert "round 4 · 0:01" in text.splitlines()[0] and len(app.table.game.log) == 1
        await pilot.press("enter")
        await advance(pilot, 1.0)
        text = await screen_text(pilot)
        assert "round 4 · 0:02" in text.splitlines()[0] and "Back where" not in text
        await press(pilot, "w")  # 6c on 7h: the last card
        text = await screen_text(pilot)
        assert "GAME OVER" in text and "0:02 of play" in text  # 2.5 s of play in all
    ((game_id, left, right, finished, seconds, record_text, _),) = games(path)
    assert (game_id, left, right, finished) == (stopped.game_id, "ANA", "BEN", 1)
    assert float(str(seconds)) == pytest.approx(2.5)
    record = parse_record(str(record_text))
    assert [f"{s.ms}" for s in record.stamps if s is not None] == ["1000", "2500"]
    assert replay_record(record).position.phase is Phase.OVER
    assert find_stopped(path) is None


async def test_a_resumed_game_can_be_quit_and_resumed_again(tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite3"
    await quit_after_the_first_card(path)
    app, _ = resumed_app(path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("enter")
        await advance(pilot, 2.0)
        await pilot.press("ctrl+q", "enter")
    ((_, _, _, finished, seconds, _, _),) = games(path)
    assert finished == 0 and float(str(seconds)) == pytest.approx(3.5)
    app, stopped = resumed_app(path)
    assert stopped.play_seconds == pytest.approx(3.5) == stopped.clock_seconds
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("enter")
        await press(pilot, "w")
    ((_, _, _, finished, seconds, text, _),) = games(path)
    assert finished == 1 and float(str(seconds)) == pytest.approx(3.5)
    assert "L1a@1k L2a@3.5k" in str(text)


async def test_the_opening_banner_offers_the_stopped_game_and_f5_takes_it(
    tmp_path: Path,
) -> None:
    path = tmp_path / "h.sqlite3"
    await quit_after_the_first_card(path)
    app = make_app(seed=4)
    with_history(app, path)
    async with app.run_test(size=(100, 30)) as pilot:
        app.tick()  # the app's tick shows what the history found
        text = await screen_text(pilot)
        assert "F5: resume the game of" in text and "round 4 (ANA v BEN)" in text
        await pilot.press("f5")
        await pilot.pause()
    assert app.resume_asked  # the command line starts the stopped game (tmux test)


async def test_the_offer_never_holds_up_a_new_game(tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite3"
    await quit_after_the_first_card(path)
    app = make_app(seed=4)
    with_history(app, path)
    async with app.run_test(size=(100, 30)) as pilot:
        app.tick()
        assert "F5: resume" in await screen_text(pilot)
        await advance(pilot, 0.5)
        await press(pilot, [key_for_action(Ready(p)) for p in Player])
        await advance(pilot, 1.0)
        text = await screen_text(pilot)
        assert "F5: resume" not in text and "Round 1: play!" in text
        await pilot.press("f5")  # too late: the new game is on
        await pilot.pause()
        assert not app.resume_asked and app.is_running


async def test_nothing_is_offered_without_a_stopped_game(tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite3"
    app = make_app(seed=4)
    with_history(app, path)
    async with app.run_test(size=(100, 30)) as pilot:
        app.tick()
        assert "F5" not in await screen_text(pilot)
        await pilot.press("f5")
        await pilot.pause()
        assert not app.resume_asked
