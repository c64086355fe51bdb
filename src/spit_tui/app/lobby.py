"""The lobby: the first screen of `spit-tui join HOST` with no room code (and
so of the SSH door and of the browser door): Quick match, New room, Join by
code, Watch a game, Play the computer.

The menu is a table of `Entry` values (`ENTRIES`): each has its key, its
line, its F1 paragraph and, where the choice needs more (a code, the room's
options, a level, a room to watch), the screen that asks for it
(app/lobbyscreens.py); that screen's result is the `Choice`, or None to come
back to the menu. Another door or feature adds an entry by adding a value
here, nothing else. Keys only: each entry has its key (the arrows and Enter
work too), Esc goes back, Ctrl+Q leaves. The lobby only chooses: the command
that ran it does the rest (asks the host, takes the seat, runs the board), so
nothing here knows the wire; what it needs from the host (is this a code, the
watchable rooms) it is handed as functions.

It is a mode of the one app (`LobbyMode`, app/modes.py): its first screen is
the `LobbyScreen`, none of the game's own keys (help, pause, names, the
palette) apply, and the choice is the mode's to hand back (`choose_in_lobby`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from spit_tui.app import SpitApp
from spit_tui.app.modes import Mode
from spit_tui.engine import Options


@dataclass(frozen=True)
class Choice:
    """What the player chose: its entry's kind ("quick", "new", "join",
    "watch", "computer", ...), with what that entry asked: the room code
    (join, watch), the room's options (new), the computer's level (computer:
    a rung as text, "1" to the top)."""

    kind: str
    code: str | None = None
    options: Options | None = None
    level: str | None = None


@dataclass(frozen=True)
class Ended:
    """The lobby ended without a choice nor the player's leave: a signal
    ended it (its terminal hung up: SIGHUP, or the driver read the end).
    `status`: the command's exit status (128 + the signal's number)."""

    status: int


@dataclass(frozen=True)
class Watchable:
    """A game in play that may be watched, as the host listed it."""

    code: str
    line: str  # what the list shows: the names, the game, the match, the watchers


Rooms = Callable[[], Awaitable["list[Watchable] | str"]]  # the list, or why not (one line)


@dataclass
class YourName:
    """The player's name at this door, which the seat sends (the other board
    shows it). `keep`: remembers a name typed here, or says in one line why it
    could not; None: the door gave the name (the SSH user name, `--name`,
    a page's ?name=): the lobby neither asks nor shows it (the SSH door's
    heading names the guest already). With `keep`, the lobby shows it under
    the heading, asks for one when it opens with none (unless `ask` is off),
    and F4 changes it."""

    name: str | None
    keep: Callable[[str], str | None] | None = None
    ask: bool = True

    def line(self) -> str:
        return f"You: {self.name} · F4: change" if self.name else "You: no name · F4: your name"


@dataclass(frozen=True)
class Entry:
    """One line of the lobby's menu. `ask`: the screen that completes the
    choice (its result: the Choice, or None for the menu again); None: the
    entry is chosen at once, as `Choice(kind)`."""

    kind: str
    key: str
    label: str  # "Quick match: play the next player who comes"
    help: str  # its F1 paragraph
    ask: Callable[[LobbyMode], Screen[Choice | None]] | None = None


def _code(kind: str) -> Callable[[LobbyMode], Screen[Choice | None]]:
    def ask(mode: LobbyMode) -> Screen[Choice | None]:
        from .lobbyscreens import CodeScreen

        return CodeScreen(kind, mode.check)

    return ask


def _room(mode: LobbyMode) -> Screen[Choice | None]:
    from .lobbyscreens import RoomScreen

    return RoomScreen(mode.options)


def _watch(mode: LobbyMode) -> Screen[Choice | None]:
    from .lobbyscreens import WatchScreen

    return WatchScreen(mode.rooms, mode.check)


def _computer(mode: LobbyMode) -> Screen[Choice | None]:
    from .lobbyscreens import LevelScreen

    return LevelScreen()


ENTRIES: tuple[Entry, ...] = (
    Entry("quick", "q", "Quick match: play the next player who comes",
          "Quick match: you play the next player who asks for one here; until they come,"
          " the board shows the room's code, which you may send someone too."),
    Entry("new", "n", "New room: choose the game, get a code to send",
          "New room: a room of your own: standard or points (and to how many), manual"
          " flip or not; its board shows the code and the lines to send a friend.",
          _room),
    Entry("join", "j", "Join by code: the room a friend made",
          "Join by code: the code a friend sent (any case, dash or not).", _code("join")),
    Entry("watch", "w", "Watch a game: the games in play here",
          "Watch a game: choose one of the games in play on this host, or type a code"
          " (c). A watcher sees the board as both players do, and has no keys.", _watch),
    Entry("computer", "c", "Play the computer: choose its level",
          "Play the computer: a game against the computer at the level you choose,"
          " played and stored on this host like any other.", _computer),
)  # fmt: skip

AFTER = "At game over, Enter on both seats plays again in the same room."
NAME_HELP = "F4: your name, which the other player sees; it is kept for next time."


class LobbyMode(Mode):
    """The app as the lobby: a menu before any game; `chosen` once it ends
    (None: the player left)."""

    title = "spit-tui lobby"
    stylesheets = ("lobby.tcss",)
    names_key = ""
    new_games = False
    asks_before_quit = False  # nothing to lose: Ctrl+Q leaves at once

    def __init__(
        self,
        heading: str,
        check: Callable[[str], str],
        *,
        entries: tuple[Entry, ...] = ENTRIES,
        rooms: Rooms | None = None,
        options: Options | None = None,
        you: YourName | None = None,
        notice: str | None = None,
    ) -> None:
        """`check`: a code as typed -> the code, or UsageError saying why not;
        `rooms`: the host's watchable rooms (the command's: the app knows no
        network; None: no list, a code only); `options`: what New room starts
        from (the host's own game, where the door knows it); `you`: the
        player's name (None: the lobby neither shows nor asks one); `notice`:
        why the last game ended, if the host stopped it ("ben left the game:
        the game is stopped"), shown under the heading."""
        self.heading = heading
        self.notice = notice
        self.you = you
        self.check = check
        self.entries = entries
        self.rooms = rooms
        self.options = options
        self.chosen: Choice | None = None

    def screen(self, app: SpitApp) -> Screen[None]:
        return LobbyScreen(self)

    def allows(self, action: str) -> bool:
        """Only leaving: the game's keys (help, pause, the palette, ...) have no
        game here, so the lobby's own keys and its questions get them."""
        return action == "quit_ask"


class LobbyScreen(Screen[None]):
    """Choose how to play on a host; the choice goes to the mode, then the app ends."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "leave", "leave", priority=True),
    ]

    def __init__(self, mode: LobbyMode) -> None:
        super().__init__(id="lobby-screen")
        self.mode = mode
        self.entries = {e.kind: e for e in mode.entries}
        for e in mode.entries:  # the footer shows them in the menu's order
            self._bindings.bind(e.key, f"choose('{e.kind}')", e.label.split(":")[0])
        self._bindings.bind("f1", "help", "help")
        if mode.you is not None and mode.you.keep is not None:
            self._bindings.bind("f4", "your_name", "your name")
        self._bindings.bind("escape", "leave", "leave")

    def compose(self) -> ComposeResult:
        with Vertical(id="lobby"):
            yield Static(self.mode.heading, id="title")
            if self.mode.notice:
                yield Static(Text(self.mode.notice), id="notice")
            if self.mode.you is not None and self.mode.you.keep is not None:
                yield Static(Text(self.mode.you.line()), id="you")
            yield OptionList(
                *(Option(f"{e.key}  {e.label}", id=e.kind) for e in self.entries.values()),
                id="choices",
            )
        yield Footer()

    def help_text(self) -> str:
        """What F1 shows: each choice's paragraph, then the lobby's own keys."""
        named = self.mode.you is not None and self.mode.you.keep is not None
        name = (NAME_HELP,) if named else ()
        return "\n".join((*(e.help for e in self.entries.values()), AFTER, *name))

    def on_mount(self) -> None:
        self.query_one("#choices", OptionList).focus()
        you = self.mode.you
        if you is not None and you.keep is not None and you.name is None and you.ask:
            self.action_your_name()  # asked once: a name typed is kept for next time

    def action_your_name(self) -> None:
        """F4: the player's own name (kept for next time)."""
        from .namescreen import YourNameScreen

        you = self.mode.you
        if self.app.screen is self and you is not None and you.keep is not None:
            self.app.push_screen(YourNameScreen(you.name), self._named)

    def _named(self, name: str | None) -> None:
        you = self.mode.you
        assert you is not None and you.keep is not None
        line = Text(you.line())
        if name is not None:
            you.name = name
            problem = you.keep(name)
            line = Text(you.line()) if problem is None else Text(problem, "red")
        self.query_one("#you", Static).update(line)
        self.query_one("#choices", OptionList).focus()

    def _end(self, choice: Choice | None) -> None:
        self.mode.chosen = choice
        self.app.exit()

    @on(OptionList.OptionSelected, "#choices")
    def _picked(self, event: OptionList.OptionSelected) -> None:
        self.action_choose(str(event.option.id))

    def action_choose(self, kind: str) -> None:
        if self.app.screen is not self:
            return  # an entry's own screen is up: its keys are its own
        entry = self.entries[kind]
        if entry.ask is None:
            self._end(Choice(kind))
            return
        self.app.push_screen(entry.ask(self.mode), self._asked)

    def _asked(self, choice: Choice | None) -> None:
        if choice is not None:
            self._end(choice)
        else:
            self.query_one("#choices", OptionList).focus()

    def action_help(self) -> None:
        """F1: what each choice does, on its own page (Esc or F1 back)."""
        from .lobbyscreens import LobbyHelpScreen

        if self.app.screen is self:
            self.app.push_screen(LobbyHelpScreen(self.help_text()), self._asked)

    def action_leave(self) -> None:
        self._end(None)


def lobby_app(
    heading: str, check: Callable[[str], str], rooms: Rooms | None = None,
    entries: tuple[Entry, ...] = ENTRIES, options: Options | None = None,
    you: YourName | None = None, notice: str | None = None,
) -> SpitApp:
    """The app as the lobby (its mode's `chosen` says what was chosen)."""
    mode = LobbyMode(
        heading, check, rooms=rooms, entries=entries, options=options, you=you, notice=notice
    )
    return SpitApp(mode=mode)


async def choose_in_lobby(
    heading: str, check: Callable[[str], str], rooms: Rooms | None = None,
    entries: tuple[Entry, ...] = ENTRIES, options: Options | None = None,
    you: YourName | None = None, notice: str | None = None,
) -> Choice | Ended | None:
    """Run the lobby; what the player chose (None: they left; Ended: a signal
    ended it; `you.name`: the name they gave, if they gave one). `notice`: why
    the last room ended (the host stopped it), under the heading until this
    choice."""
    app = lobby_app(heading, check, rooms, entries, options, you, notice)
    await app.run_async()
    assert isinstance(app.mode, LobbyMode)
    if app.mode.chosen is None and app.return_code:
        return Ended(app.return_code)
    return app.mode.chosen
