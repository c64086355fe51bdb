"""The app as one seat at a remote table (`spit-tui join`, or the host's own seat).

JoinApp is SpitApp drawing a `RemoteTable` (net.remote): the same screens and
widgets, the same one path for game keys (on_event -> key layer ->
`RemoteTable.submit_intent`, which sends them on), the same help. What differs
is only what a remote seat cannot do: start a new game (the host does), set
the names (the host's) or save the record (the host keeps the game). `start` is the seat's own task
(reading the host's views); it ends the app through `finish` with one line,
which the command prints once the terminal is restored.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from spit_tui.app import SpitApp
from spit_tui.app.status import HeaderBar
from spit_tui.net.remote import RemoteTable

Start = Callable[["JoinApp"], Coroutine[Any, Any, None]]


class JoinApp(SpitApp):
    """SpitApp over a RemoteTable."""

    def __init__(self, table: RemoteTable, start: Start) -> None:
        super().__init__(table=table)
        self.game_screen.names_key = ""  # the names are the host's: no F4 on the banner
        self.remote = table
        self._start = start

    def on_mount(self) -> None:  # SpitApp.on_mount runs too (Textual calls each class's)
        self.run_worker(self._start(self), name="seat", exit_on_error=False)

    def action_names(self) -> None:
        """The names on the board are the host's: F4 only says so."""
        header = self.game_screen.query_one("#header", HeaderBar)
        header.show_hint("the names are the host's to set")

    def action_new_game(self) -> None:
        """The host starts games; Enter does nothing here."""

    def action_pause(self) -> None:
        """The host's clock runs the game: a seat cannot stop it for both."""
        header = self.game_screen.query_one("#header", HeaderBar)
        header.show_hint("a game over the network cannot be paused")

    def save_record(self) -> str:
        return "The game is kept on the host: its history has it."
