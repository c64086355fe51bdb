"""What differs between the doors to the one app: a `Mode`.

`SpitApp` is the only app. Whether it plays a game at one keyboard, against
the computer (or shows the computer's demo), takes one seat at a host's game,
or plays a stored game back is its mode's to answer, through these questions
and hooks, called by the app explicitly (no handler relies on Textual calling
each class's `on_mount` through a class hierarchy):

- the names on the board and in the history, the computer's levels;
- whether Enter starts a new game, F4 changes the names, Space pauses both;
- the keys the game-over banner offers, the key that changes the names;
- what F2 saves;
- which keys it takes before the game's own key path (the demo: any key),
  and which of the app's own keys apply (the lobby: only leaving);
- the first screen, if not the game's board (the replay has its own);
- `bind` (once the table exists) and `mounted` (once the app is up).

`LocalMode` is two people at one keyboard; the others live beside the code
they need (app/computer.py, app/join.py, app/replay.py, app/lobby.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spit_tui.app.banner import OVER_KEYS
from spit_tui.engine import Player
from spit_tui.names import seat_names
from spit_tui.seats import Seats

if TYPE_CHECKING:
    from textual import events
    from textual.screen import Screen

    from spit_tui.app import SpitApp

NAMES_KEY, NAMES_KEY_LABEL = "f4", "F4"  # on the opening banner: the players' names
SETTINGS_KEY, SETTINGS_KEY_LABEL = "f6", "F6"  # the settings screen


class Mode:
    """Two people at one keyboard: the answers every other mode starts from."""

    title = "spit-tui"
    over_keys = OVER_KEYS  # what the game-over banner offers
    names_key = NAMES_KEY_LABEL  # offered on the opening banner ("": the names are not ours)
    new_games = True  # Enter starts the next game after game over
    asks_before_quit = True  # Ctrl+Q asks first (the game in play waits)
    one_person = False  # one person at this keyboard (a seat, against the computer)
    # the app's own keys (Textual's names) that do nothing here: the help's key page
    # leaves them out of its list (keys.reserved.RESERVED)
    idle_keys: frozenset[str] = frozenset()
    # the mode's own stylesheets beside app.tcss (read at the start: parsing one
    # costs every start of every mode, and one added later re-parses them all)
    stylesheets: tuple[str, ...] = ()
    viewer = False  # no game keys at all (a watcher, a replay): the banner says what players do

    def bind(self, app: SpitApp) -> None:
        """Once the app's table exists, before the first frame."""

    def mounted(self, app: SpitApp) -> None:
        """Once the app is up (its timers started, the board drawn)."""

    def screen(self, app: SpitApp) -> Screen[None] | None:
        """The app's first screen, if not the game's board (the replay's own)."""
        return None

    def enter_after_game(self, app: SpitApp) -> bool:
        """Enter after game over, for a mode whose games are not its own to
        start (a seat asks the host for a rematch); True if it was taken."""
        return False

    def board_names(self, app: SpitApp) -> tuple[str, str]:
        """The names the board, banner and feed show."""
        return seat_names(app.given_names)

    def computer_levels(self) -> dict[Player, str]:
        """The level of each half the computer plays ("hard", "auto"): none here."""
        return {}

    def computer_rungs(self) -> dict[Player, int]:
        """The rung of each half the computer plays (the ratings' anchors): none here."""
        return {}

    def reseat(self, app: SpitApp) -> None:
        """Tell the table (and the history) the names as they are now."""
        app.table.seat(Seats(self.board_names(app)))
        if app.history is not None:
            app.history.names = app.stored_names()

    def names_refused(self) -> str | None:
        """Why F4 cannot change the names here (None: it can)."""
        return None

    def pause_refused(self) -> str | None:
        """Why Space cannot pause the game here (None: it can)."""
        return None

    @property
    def game_waits(self) -> bool:
        """Whether the game stops while a screen covers the board (help, the
        quit question, a too-small window), as the screen then says: not where
        the game's clock is another's (a seat at a host's game)."""
        return self.pause_refused() is None

    def allows(self, action: str) -> bool:
        """Whether the app's own key `action` (help, pause, the palette, ...)
        applies in this mode; if not, the key goes on to the screen."""
        return True

    def takes_key(self, app: SpitApp, event: events.Key) -> bool:
        """Whether this mode takes `event` before the game's key path does."""
        return False

    def save_record(self, app: SpitApp) -> str:
        """F2 on the help's key page: the game so far to a file; the line to show."""
        from spit_tui.store.records import record_of, save_record

        try:
            path = save_record(record_of(app.table))
        except OSError as e:
            return f"Could not save the game: {e.strerror or e}"
        return f"Saved the game so far as {path.name} (spit-tui replay FILE) in\n{path.parent}"


class LocalMode(Mode):
    """`spit-tui`: two people sharing one keyboard."""
