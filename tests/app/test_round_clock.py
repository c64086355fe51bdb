"""The round clock on the header counts play only (issue 11, item 8), pressed
through the app: the wait for the spit, a help page over the board and a
stopped process leave it where it was. The app runs on a RealClock whose
time source the test moves, so those seconds really pass for the app."""

from __future__ import annotations

from testkit.app import settle
from textual.pilot import Pilot

from spit_tui.app import SpitApp
from spit_tui.app.help import HelpScreen
from spit_tui.app.status import HeaderBar
from spit_tui.clock import RealClock
from spit_tui.engine import Game, Phase
from spit_tui.table import COUNTDOWN_S, Table


class FakeTime:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


async def later(pilot: Pilot[None], src: FakeTime, seconds: float) -> str:
    """Let `seconds` of real time pass; the header as it then reads."""
    app = pilot.app
    assert isinstance(app, SpitApp)
    src.t += seconds
    app.tick()
    await settle(pilot)
    return app.game_screen.query_one("#header", HeaderBar).render().plain


async def test_the_round_clock_counts_play_only() -> None:
    src = FakeTime()
    app = SpitApp(table=Table(Game(seed=4), RealClock(source=src)))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert "round 1 · 0:00" in await later(pilot, src, 40.0)  # nobody has said spit
        await pilot.press("q", "p")  # both players: spit
        assert "round 1 · 0:00" in await later(pilot, src, COUNTDOWN_S + 0.01)
        assert app.table.position.phase is Phase.PLAY
        assert "round 1 · 1:05" in await later(pilot, src, 65.0)
        await pilot.press("f1")  # help over the board: the game waits
        assert isinstance(app.screen, HelpScreen)
        await later(pilot, src, 200.0)
        await pilot.press("escape")
        assert "round 1 · 1:05" in await later(pilot, src, 0.0)
        src.t += 90.0  # SIGSTOP, then SIGCONT: the app is told only at SIGCONT
        app.continued(own_stop=False)
        assert "round 1 · 1:07" in await later(pilot, src, 2.0)
