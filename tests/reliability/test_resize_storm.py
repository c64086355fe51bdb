"""Resize storm (issue 6): rapid resizes between 20x8 and 200x60 during play,
delivered as the driver delivers SIGWINCH (a Resize through process_message),
with game keys mashed in between. The "too small" message comes and goes with
the size, the game does not change while it is up, and the board read back
from the screen matches the engine whenever it is shown."""

from __future__ import annotations

import asyncio
import random

from testkit.app import make_app
from testkit.board import DriverInput, board_problems, flush, invariants, read_board, screen_lines
from textual import events
from textual.drivers.headless_driver import HeadlessDriver
from textual.geometry import Size

from spit_tui.app.dialogs import TooSmallScreen
from spit_tui.app.screens import MIN_H, MIN_W, GameScreen
from spit_tui.engine import Phase

RESIZES = 250
RESIZE_DEBOUNCE_S = 0.02


def resize(app: object, w: int, h: int) -> None:
    driver = app._driver  # type: ignore[attr-defined]
    assert isinstance(driver, HeadlessDriver)
    driver._size = (w, h)  # what the terminal now reports
    driver.process_message(events.Resize(Size(w, h), Size(w, h)))


async def test_resize_storm_during_play() -> None:
    app = make_app(seed=11, spat=True)
    rng = random.Random(3)
    async with app.run_test(size=(100, 30)) as pilot:
        feed = DriverInput(app)
        table = app.table
        assert table.position.phase is Phase.PLAY
        done = 0
        shown_small = shown_board = 0
        while done < RESIZES:
            # a drag: several sizes in a row without the app catching up
            unchanged = (table.position, len(table.decisions))
            for _ in range(rng.randint(1, 8)):
                w, h = rng.randint(20, 200), rng.randint(8, 60)
                if rng.randrange(3) == 0:  # hover around the limit
                    w, h = MIN_W + rng.randint(-2, 1), MIN_H + rng.randint(-2, 1)
                resize(app, w, h)
                done += 1
            small = w < MIN_W or h < MIN_H
            await feed.send(pilot, "\x1b[I")  # a focus report: the drag is handled
            before = (table.position, len(table.decisions))
            assert before == unchanged, "a resize changed the game"
            keys = "".join(rng.choice("qwertasdfgyuiophjkl;zxcvbnm,./") for _ in range(6))
            await feed.send(pilot, keys)  # also waits for the app to take the resizes
            await asyncio.sleep(RESIZE_DEBOUNCE_S)  # Textual passes a resize on to
            await flush(pilot)  # the screens after 1/120 s: let that happen
            assert app.is_running and app._exception is None
            assert app.size == (w, h)
            invariants(table.game)
            text = " ".join("".join(r) for r in screen_lines(app)).split()
            text = " ".join(text)
            if small:
                shown_small += 1
                assert isinstance(app.screen, TooSmallScreen), (w, h)
                assert "too small" in text, (w, h, text)
                assert f"it is {w} x {h} now" in text, (w, h, text)
                assert (table.position, len(table.decisions)) == before, "played while hidden"
                assert sum(isinstance(s, TooSmallScreen) for s in app.screen_stack) == 1
                assert table.paused  # the game waits: no countdown or message runs out
            else:
                shown_board += 1
                assert isinstance(app.screen, GameScreen), (w, h, app.screen_stack)
                assert "too small" not in text
                assert not table.paused
                assert len(table.decisions) == before[1] + len(keys)
                bad = board_problems(read_board(app), table.position)
                assert not bad, (w, h, bad)
        await flush(pilot)
    assert shown_small > 20 and shown_board > 20
