"""The seat's mode: the app as one seat at a game on a host (`spit-tui join`,
or the host's own seat).

The app draws a seat (`Playing`: net.remote.RemoteSeat, handed in by the
command; nothing here knows the network): the same screens and widgets, the
same one path for game keys (on_event -> the seat's key layer, which sends
them on), the same help.
What differs is only what a remote seat cannot do: start a new game (the host
does), set the names (the host's), pause (the host's clock runs the game) or
save the record (the host keeps the game). `start` is the seat's own task
(reading the host's views), run as a worker once the app is up; it ends the
app through `SpitApp.finish` with one line, which the command prints once the
terminal is restored.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from spit_tui.app import SpitApp
from spit_tui.app.modes import Mode
from spit_tui.app.screens import Playing
from spit_tui.engine import Phase

Start = Callable[[SpitApp], Coroutine[Any, Any, None]]


class SeatMode(Mode):
    """One seat at a host's game."""

    over_keys = "Enter: a rematch (both press it)  ·  Ctrl+Q: quit"
    names_key = ""  # the names are the host's: no F4 on the banner
    one_person = True
    new_games = False  # the host starts games; Enter does nothing here
    # not here: Space (the host's clock), F4 (the host's names), F5 (the game is the
    # host's to keep), and Enter's new game (the game-over banner offers its rematch)
    idle_keys = frozenset({"space", "f4", "f5", "enter"})

    def __init__(
        self, start: Start, rematch: Callable[[], None] | None = None, watching: bool = False,
        takeover: Callable[[], None] | None = None,
    ) -> None:
        self._start = start
        self._rematch = rematch
        self._takeover = takeover
        if rematch is None:  # a watcher, or a seat that cannot ask
            self.over_keys = "Ctrl+Q: quit"
        if watching:  # nothing of a watcher's is lost by quitting: no question
            self.asks_before_quit = False
            self.viewer = True

    def enter_after_game(self, app: SpitApp) -> bool:
        """Enter after game over asks the host for a rematch; the host starts
        it once both seats have asked (and says so beside the one who asked).
        Enter while the other seat's player has not come back in time lets
        the computer finish their seat (the banner offers it; the seat
        ignores it otherwise)."""
        scene = app.board.scene()
        if scene.phase is not Phase.OVER:
            if self._takeover is None or scene.away is None:
                return False
            self._takeover()
            return True
        if self._rematch is None:
            return False
        self._rematch()
        return True

    def board_names(self, app: SpitApp) -> tuple[str, str]:
        return app.board.scene().names  # the host's

    def reseat(self, app: SpitApp) -> None:
        """The names are the host's: nothing to tell the table."""

    def mounted(self, app: SpitApp) -> None:
        # an error in the seat's own task ends the app as any error does: one line
        # and a crash report, exit 1 (never a frozen board)
        app.run_worker(self._start(app), name="seat")

    def names_refused(self) -> str:
        return "the names are the host's to set"

    def pause_refused(self) -> str:
        return "a game over the network cannot be paused"

    def save_record(self, app: SpitApp) -> str:
        return "The game is kept on the host: its history has it."


def seat_app(
    seat: Playing,
    start: Start,
    rematch: Callable[[], None] | None = None,
    watching: bool = False,
    takeover: Callable[[], None] | None = None,
) -> SpitApp:
    """The app as `seat` shows it (a RemoteSeat), with `start` its task,
    `rematch` what asks the host for another game (`watching`: a watcher's)
    and `takeover` what lets the computer finish a dropped seat."""
    return SpitApp(seat=seat, mode=SeatMode(start, rematch, watching, takeover))
