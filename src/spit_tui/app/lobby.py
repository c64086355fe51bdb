"""The lobby: the first screen of `spit-tui join HOST` with no room code (and
so of the SSH door): Quick match, New room, Join by code, Watch by code.

Keys only: each choice has its key (q, n, j, w; the arrows and Enter work
too), j and w ask for the code in a box (Esc goes back), Ctrl+Q or Esc
leaves. The lobby only chooses: the command that ran it does the rest (asks
the host, takes the seat, runs the board), so nothing here knows the wire.

It is a mode of the one app (`LobbyMode`, app/modes.py): its first screen is
the `LobbyScreen`, none of the game's own keys (help, pause, names, the
palette) apply, and the choice is the mode's to hand back (`choose_in_lobby`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer, Input, OptionList, Static
from textual.widgets.option_list import Option

from spit_tui.app import SpitApp
from spit_tui.app.modes import Mode

CHOICES = (
    ("quick", "q", "Quick match: play the next player who comes"),
    ("new", "n", "New room: a code to send a friend"),
    ("join", "j", "Join by code: the room a friend made"),
    ("watch", "w", "Watch by code: a game in play"),
)


HELP = "\n".join((
    "Quick match: you play the next player who asks for one here; until they come,"
    " the board shows the room's code, which you may send someone too.",
    "New room: a room of your own; its board shows the line to send a friend.",
    "Join by code, Watch by code: the code a friend sent (any case, dash or not)."
    " A watcher sees the board as both players do, and has no keys.",
    "At game over, Enter on both seats plays again in the same room.",
))  # one line a paragraph: the box wraps them


@dataclass(frozen=True)
class Choice:
    """What the player chose: "quick", "new", "join" or "watch", and the code for
    the last two."""

    kind: str
    code: str | None = None


class LobbyMode(Mode):
    """The app as the lobby: a menu before any game; `chosen` once it ends
    (None: the player left)."""

    title = "spit-tui lobby"
    names_key = ""
    new_games = False
    asks_before_quit = False  # nothing to lose: Ctrl+Q leaves at once

    def __init__(self, heading: str, check: Callable[[str], str]) -> None:
        """`check`: a code as typed -> the code, or UsageError saying why not
        (the command's: the app knows no network)."""
        self.heading = heading
        self.check = check
        self.chosen: Choice | None = None

    def screen(self, app: SpitApp) -> Screen[None]:
        return LobbyScreen(self)

    def allows(self, action: str) -> bool:
        """Only leaving: the game's keys (help, pause, the palette, ...) have no
        game here, so the lobby's own keys and the code box get them."""
        return action == "quit_ask"


class LobbyScreen(Screen[None]):
    """Choose how to play on a host; the choice goes to the mode, then the app ends."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "leave", "leave", priority=True),
        *(Binding(key, f"choose('{kind}')", label.split(":")[0]) for kind, key, label in CHOICES),
        Binding("f1", "help", "help"),
        Binding("escape", "go_back", "back / leave"),
    ]

    def __init__(self, mode: LobbyMode) -> None:
        super().__init__(id="lobby-screen")
        self.mode = mode
        self.asking: str | None = None  # "join" or "watch" while the code box is up

    def compose(self) -> ComposeResult:
        with Vertical(id="lobby"):
            yield Static(self.mode.heading, id="title")
            yield OptionList(*(Option(f"{key}  {label}", id=kind) for kind, key, label in CHOICES),
                             id="choices")
            yield Input(placeholder="room code, like k3f9q-2x7mz", id="code", max_length=20)
            yield Static("", id="why")
            yield Static(HELP, id="help")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#choices", OptionList).focus()

    def _end(self, choice: Choice | None) -> None:
        self.mode.chosen = choice
        self.app.exit()

    @on(OptionList.OptionSelected)
    def _picked(self, event: OptionList.OptionSelected) -> None:
        self.action_choose(str(event.option.id))

    def action_choose(self, kind: str) -> None:
        if self.asking is not None:
            return  # typing a code: the letters are the code's
        if kind in ("join", "watch"):
            self.asking = kind
            box = self.query_one("#code", Input)
            box.add_class("asking")
            box.value = ""
            box.focus()
            return
        self._end(Choice(kind))

    @on(Input.Submitted)
    def _code(self, event: Input.Submitted) -> None:
        from spit_tui.command import UsageError

        try:
            code = self.mode.check(event.value)
        except UsageError as e:
            self.query_one("#why", Static).update(str(e))
            return
        assert self.asking is not None
        self._end(Choice(self.asking, code))

    def action_help(self) -> None:
        """F1: what each choice does, under them (F1 again hides it)."""
        self.query_one("#help", Static).toggle_class("shown")

    def action_go_back(self) -> None:
        if self.asking is None:
            self._end(None)
            return
        self.asking = None
        self.query_one("#code", Input).remove_class("asking")
        self.query_one("#why", Static).update("")
        self.query_one("#choices", OptionList).focus()

    def action_leave(self) -> None:
        self._end(None)


def lobby_app(heading: str, check: Callable[[str], str]) -> SpitApp:
    """The app as the lobby (its mode's `chosen` says what was chosen)."""
    return SpitApp(mode=LobbyMode(heading, check))


async def choose_in_lobby(heading: str, check: Callable[[str], str]) -> Choice | None:
    """Run the lobby; what the player chose (None: they left)."""
    app = lobby_app(heading, check)
    await app.run_async()
    assert isinstance(app.mode, LobbyMode)
    return app.mode.chosen
