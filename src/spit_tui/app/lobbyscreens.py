"""The lobby's own questions (app/lobby.py): a room code, a new room's
options, the computer's level, a game to watch. Each is a screen over the
menu whose result is the lobby's `Choice`, or None for the menu again (Esc).
Keys only, each shown in the footer."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Input, OptionList, Static
from textual.widgets.option_list import Option

from spit_tui.engine import Options, Variant
from spit_tui.players.ladder import LADDER, PLACEMENT, describe_short

from .lobby import Choice, Rooms

TARGETS = (25, 50, 100, 150, 200, 300, 500)  # the points game's targets, in the order `t` steps


class Question(ModalScreen[Choice | None]):
    """A lobby question: a box over the menu (app/lobby.tcss, .lobby-question)."""

    def __init__(self) -> None:
        super().__init__(classes="lobby-question")


class LobbyHelpScreen(Question):
    """F1: what each choice does, as a page over the menu that scrolls with the
    keys (the whole text is taller than an 80x24 terminal); Esc or F1 back."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,f1", "dismiss(None)", "back to the menu"),
    ]

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="lobby-help"):
            yield Static("What each choice does   (↑ ↓ PgUp PgDn: more)", classes="title")
            yield Static(self.text, id="help", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#lobby-help", VerticalScroll).focus()  # arrows and PgUp/PgDn scroll it


def _usage_error() -> type[Exception]:
    from spit_tui.command import UsageError

    return UsageError


class CodeScreen(Question):
    """A room code, typed and checked (`check`: the command's); Esc goes back."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "dismiss(None)", "back")]
    WHAT: ClassVar[dict[str, str]] = {"join": "Join by code", "watch": "Watch by code"}

    def __init__(self, kind: str, check: Callable[[str], str]) -> None:
        super().__init__()
        self.kind = kind
        self.check = check

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.WHAT.get(self.kind, "A room code"), classes="title")
            yield Input(placeholder="room code, like k3f9q-2x7mz", id="code", max_length=20)
            yield Static("", id="why", classes="why")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#code", Input).focus()

    @on(Input.Submitted)
    def _code(self, event: Input.Submitted) -> None:
        try:
            code = self.check(event.value)
        except _usage_error() as e:
            self.query_one("#why", Static).update(str(e))
            return
        self.dismiss(Choice(self.kind, code))


class RoomScreen(Question):
    """A new room's options: the game (standard or points), the points game's
    target, manual flip; Enter makes the room with them, for every game in it.
    It opens on the host's own game: the options given (where the door knows
    them), else "the host's" (None: Enter sends none, and the host plays its
    own); the first of v, t, m starts from the standard game."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("v", "variant", "standard / points"),
        Binding("t", "target", "target"),
        Binding("m", "flip", "manual flip"),
        Binding("enter", "make", "make the room"),
        Binding("escape", "dismiss(None)", "back"),
    ]

    def __init__(self, options: Options | None = None) -> None:
        super().__init__()
        self.options = options

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("New room", classes="title")
            yield Static(self._text(), id="options")
        yield Footer()

    def _text(self) -> str:
        o = self.options
        if o is None:
            return "\n".join((
                "v  game          the host's own",
                "t  target        the host's own",
                "m  manual flip   the host's own",
                "",
                "Enter makes the room with this host's own game;",
                "v, t or m chooses another. Every game in it plays that.",
            ))  # fmt: skip
        points = o.variant is Variant.POINTS
        game = "points: rounds are scored" if points else "standard: first to play every card"
        target = f"{o.target} points" if points else "(points game only)"
        flip = "on: each player turns up their own stockpile cards" if o.manual_flip else "off"
        return "\n".join((
            f"v  game          {game}",
            f"t  target        {target}",
            f"m  manual flip   {flip}",
            "",
            "Enter makes the room; every game in it plays these.",
        ))  # fmt: skip

    def _set(self, options: Options) -> None:
        self.options = options
        self.query_one("#options", Static).update(self._text())

    @property
    def chosen(self) -> Options:
        """The options as shown, or the standard game where the host's are shown."""
        return self.options or Options()

    def action_variant(self) -> None:
        points = self.chosen.variant is Variant.POINTS
        self._set(self.chosen._replace(variant=Variant.STANDARD if points else Variant.POINTS))

    def action_target(self) -> None:
        if self.chosen.variant is not Variant.POINTS:
            self._set(self.chosen._replace(variant=Variant.POINTS))  # a target: the points game
            return
        later = [t for t in TARGETS if t > self.chosen.target]
        self._set(self.chosen._replace(target=later[0] if later else TARGETS[0]))

    def action_flip(self) -> None:
        self._set(self.chosen._replace(manual_flip=not self.chosen.manual_flip))

    def action_make(self) -> None:
        self.dismiss(Choice("new", options=self.options))


class LevelScreen(Question):
    """The computer's level: a rung of the ladder, each with its pace in words
    (the arrows and Enter; it opens on where a new player lands)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "dismiss(None)", "back")]

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Play the computer: its level", classes="title")
            yield OptionList(
                *(Option(f"level {i:>2}  {describe_short(level)}", id=str(i))
                  for i, level in enumerate(LADDER, start=1)),
                id="levels",
            )  # fmt: skip
            yield Static(f"A new player beats level {PLACEMENT['new']} about half the time.")
        yield Footer()

    def on_mount(self) -> None:
        levels = self.query_one("#levels", OptionList)
        levels.highlighted = PLACEMENT["new"] - 1
        levels.focus()

    @on(OptionList.OptionSelected, "#levels")
    def _picked(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(Choice("computer", level=str(event.option.id)))


class WatchScreen(Question):
    """The games in play on this host (the host's list; r reads it again),
    or a code typed (c): Enter watches the one chosen."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "refresh", "list again"),
        Binding("c", "by_code", "by code"),
        Binding("escape", "dismiss(None)", "back"),
    ]

    def __init__(self, rooms: Rooms | None, check: Callable[[str], str]) -> None:
        super().__init__()
        self.rooms = rooms
        self.check = check

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Watch a game", classes="title")
            yield OptionList(id="games")
            yield Static("", id="why", classes="why")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#games", OptionList).focus()
        self.action_refresh()

    @work(exclusive=True)
    async def action_refresh(self) -> None:
        games = self.query_one("#games", OptionList)
        why = self.query_one("#why", Static)
        if self.rooms is None:
            why.update("This door lists no games: c to type a code.")
            return
        why.update("Asking the host…")
        listed = await self.rooms()
        games.clear_options()
        if isinstance(listed, str):
            why.update(listed)
            return
        games.add_options(Option(room.line, id=room.code) for room in listed)
        if listed:
            games.highlighted = 0
        why.update(
            "No game is being played here now: r to look again, c to type a code."
            if not listed else ""
        )  # fmt: skip

    @on(OptionList.OptionSelected, "#games")
    def _picked(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(Choice("watch", str(event.option.id)))

    def action_by_code(self) -> None:
        self.app.push_screen(CodeScreen("watch", self.check), self._coded)

    def _coded(self, choice: Choice | None) -> None:
        if choice is not None:
            self.dismiss(choice)
