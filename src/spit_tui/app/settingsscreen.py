"""The settings screen (F6 on the board, "Settings" in the Ctrl+P palette,
`spit-tui settings`): one line a setting, changed with the arrow keys, kept at
once in config.toml (settings/configfile.py) and used at once where it can be
(the theme, the bell, reduced motion); a game's defaults (variant, target,
computer level) apply from the next start. Two lines lead on: the players'
names box and the key setup.

The screen only chooses: each change goes up as a `Chosen` message, and the
app keeps it (SpitApp.keep_settings); the two links go up as `Open`. Only
arrows, Tab, Enter, Space and Esc do anything here, none of them a game key.
A setting that a flag or a variable decides for this run says so on its line.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Static

from spit_tui.app.modes import Mode
from spit_tui.app.screens import LATER_CSS
from spit_tui.engine import PLAYERS
from spit_tui.look import CARDS, PALETTES, SUITS
from spit_tui.settings import Settings
from spit_tui.settings.fields import VARIANTS

if TYPE_CHECKING:
    from textual.screen import Screen

    from spit_tui.app import SpitApp

LABEL_W = 28
TARGETS = (40, 60, 100, 150, 200, 300, 500)
LEVELS = ("easy", "normal", "hard", "expert", "auto")
ON_OFF = ((False, "off"), (True, "on"))


class Line(NamedTuple):
    """One line of the screen: a setting (`key`, with `bell` for one bell
    event) and its choices in order, as (value, words)."""

    key: str
    label: str
    choices: tuple[tuple[Any, str], ...]
    help: str
    bell: str = ""


def lines_for(settings: Settings) -> list[Line]:
    from spit_tui.app.themes import theme_names

    def with_current(values: Sequence[Any], current: Any) -> tuple[tuple[Any, str], ...]:
        out = list(values) if current in values else [*values, current]
        return tuple((v, str(v)) for v in out)

    return [
        Line("theme", "Theme", with_current(sorted(theme_names()), settings.theme),
             "Colours: spit-light reads on white; ansi-* use the terminal's own 16 colours"),
        Line("palette", "Player colours", tuple((p.name, p.name) for p in PALETTES),
             "Each pair stays apart in colour blindness; high-contrast: over 7:1"),
        Line("suits", "Suits", tuple((s, f"{s} colours") for s in SUITS),
             "Four colours: ♠ black, ♥ red, ♦ blue, ♣ green"),
        Line("cards", "Card size", tuple((c, c) for c in CARDS),
             "auto: larger cards on a terminal of 120x36 or more"),
        Line("marks", "Markers ◂ ▸ by the piles", ON_OFF,
             "Whose card is on top, as a marker beside it, with colour too"),
        Line("bell", "Bell: a race you lost", ON_OFF,
             "The terminal's bell when your card came too late", "lost-race"),
        Line("bell", "Bell: the call to spit", ON_OFF,
             "The terminal's bell when the game calls for the spit", "spit"),
        Line("bell", "Bell: the slap", ON_OFF, "The terminal's bell when the round ends in a slap",
             "slap"),
        Line("reduced_motion", "Reduced motion", ON_OFF,
             "No highlight of the card just played; a still countdown"),
        Line("variant", "Game (next start)", tuple((v, v) for v in VARIANTS),
             "standard: first to play every card; points: lowest score at the target wins"),
        Line("target", "Points target (next start)", with_current(TARGETS, settings.target),
             "The points game ends when someone reaches this"),
        Line("level", "Computer (next start)", with_current(LEVELS, settings.level),
             "The computer's level with --vs-computer (auto follows how you play)"),
    ]  # fmt: skip


def value_of(settings: Settings, line: Line) -> Any:
    value = getattr(settings, line.key)
    return line.bell in value if line.bell else value


class ChoiceLine(Widget, can_focus=True):
    """A setting's line: its name and its value; Left and Right (or Enter,
    Space) move through the values."""

    DEFAULT_CSS = """
    ChoiceLine { height: 1; width: 100%; }
    ChoiceLine:focus { background: $accent 40%; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "step(-1)", show=False),
        Binding("right,enter,space", "step(1)", show=False),
    ]

    class Changed(Message):
        def __init__(self, line: ChoiceLine) -> None:
            super().__init__()
            self.line = line

    def __init__(self, line: Line, value: Any, note: str = "") -> None:
        super().__init__(id=f"set-{line.bell or line.key}".replace("_", "-"))
        self.line = line
        self.value = value
        self.note = note  # a flag or a variable decides it this run

    def render(self) -> Text:
        words = dict(self.line.choices).get(self.value, str(self.value))
        text = Text(f" {self.line.label:<{LABEL_W}}")
        text.append("< ", "dim")
        text.append(words, "bold")
        text.append(" >", "dim")
        if self.note:
            text.append(f"  {self.note}", "dim italic")
        return text

    def action_step(self, by: int) -> None:
        values = [v for v, _ in self.line.choices]
        i = values.index(self.value) if self.value in values else 0
        self.value = values[(i + by) % len(values)]
        self.note = ""
        self.refresh()
        self.post_message(self.Changed(self))


class LinkLine(Widget, can_focus=True):
    """A line that opens another screen (Enter)."""

    DEFAULT_CSS = """
    LinkLine { height: 1; width: 100%; }
    LinkLine:focus { background: $accent 40%; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter,right,space", "open", show=False)]

    def __init__(self, what: str, label: str, help: str) -> None:
        super().__init__(id=f"open-{what}")
        self.what = what
        self.label = label
        self.help = help

    def render(self) -> Text:
        return Text.assemble(f" {self.label:<{LABEL_W}}", ("Enter >", "dim"))

    def action_open(self) -> None:
        self.post_message(SettingsScreen.Open(self.what))


class SettingsScreen(ModalScreen[None]):
    """Every setting, a line each (see the module's words)."""

    CSS_PATH = LATER_CSS  # read when the first later screen opens
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,f6", "back", "back", show=False),
        Binding("up", "app.focus_previous", show=False),
        Binding("down", "app.focus_next", show=False),
    ]

    class Chosen(Message):
        """A setting changed on the screen: the app keeps it."""

        def __init__(self, changes: dict[str, Any]) -> None:
            super().__init__()
            self.changes = changes

    class Open(Message):
        """A link chosen: "names" or "keys"."""

        def __init__(self, what: str) -> None:
            super().__init__()
            self.what = what

    def __init__(self, settings: Settings) -> None:
        super().__init__(id="settings")
        self.settings = settings
        self._focused: Widget | None = None

    def compose(self) -> ComposeResult:
        s = self.settings
        with Vertical(id="settings-box"):
            yield Static(Text("Settings", "bold"), id="settings-title")
            for line in lines_for(s):
                yield ChoiceLine(line, value_of(s, line), _decided_by(s, line.key))
            yield LinkLine("names", "Players' names", "The names box (on a game's first banner)")
            yield LinkLine("keys", "Key setup", "Set up your own keys, one key press each")
            yield Static(id="settings-help")
            keys = Text.assemble(
                ("↑ ↓", "bold"), ": choose  ·  ", ("← →", "bold"), ": change  ·  ",
                ("Enter", "bold"), ": open  ·  ", ("Esc", "bold"), ": back", style="dim",
            )  # fmt: skip
            yield Static(keys, id="settings-keys")

    def on_mount(self) -> None:
        self.query_one(ChoiceLine).focus()

    def action_back(self) -> None:
        """Esc: back to the board (`spit-tui settings`: the end)."""
        if len(self.app.screen_stack) <= 1:
            self.app.exit()
        else:
            self.dismiss(None)

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        widget = event.widget
        if widget is self._focused:
            return  # the same line again (a new theme refocuses it): keep what was said
        self._focused = widget
        words = ""
        if isinstance(widget, ChoiceLine):
            words = widget.line.help
        elif isinstance(widget, LinkLine):
            words = widget.help
        self.say(words)

    def say(self, words: str, problem: bool = False) -> None:
        style = "bold red" if problem else "dim"
        self.query_one("#settings-help", Static).update(Text(words, style))

    def on_choice_line_changed(self, event: ChoiceLine.Changed) -> None:
        event.stop()
        line = event.line.line
        value = event.line.value
        if line.bell:
            bell = set(self.settings.bell)
            (bell.add if value else bell.discard)(line.bell)
            self.settings = _with(self.settings, bell=frozenset(bell))
            self.post_message(self.Chosen({"bell": self.settings.bell}))
        else:
            self.settings = _with(self.settings, **{line.key: value})
            self.post_message(self.Chosen({line.key: value}))


def _with(settings: Settings, **changes: Any) -> Settings:
    return settings._replace(**changes)


def _decided_by(settings: Settings, key: str) -> str:
    """A note for a setting a flag or a variable decides this run."""
    source = settings.source(key)
    if source in ("default", "config.toml"):
        return ""
    return f"({source}, this run)"


def keep_settings(app: SpitApp, changes: Mapping[str, Any]) -> str | None:
    """Use `changes` now and keep them in config.toml; the one line if the file
    could not be written (shown on the settings screen, or as a notice)."""
    from spit_tui.settings import save

    settings = app.settings or Settings()
    sources = {**settings.sources, **dict.fromkeys(changes, "config.toml")}
    app.use_settings(settings._replace(**changes, sources=sources))
    problem = save(changes)
    if problem is not None:
        top = app.screen
        if isinstance(top, SettingsScreen):
            top.say(problem, problem=True)
        else:
            app.notify(problem, severity="warning", timeout=10)
    return problem


def open_link(app: SpitApp, what: str) -> None:
    """The settings screen's links: the names box ("names"), the key setup ("keys")."""
    from spit_tui.app.keysetup import KeySetupScreen
    from spit_tui.app.namescreen import NamesScreen

    if what == "keys":
        app.push_screen(KeySetupScreen(app.keymap))
        return
    refused = app.mode.names_refused()
    at_board = app.screen_stack[0] is app.game_screen
    if refused is None and at_board and not app.table.scene().opening():
        refused = "names change on a game's first banner"
    if refused is not None:
        top = app.screen
        if isinstance(top, SettingsScreen):
            top.say(refused, problem=True)
        return
    seats = tuple(p for p in PLAYERS if app.table.seats.level(p) is None)
    app.push_screen(NamesScreen(app.given_names, seats), app.change_names)


class SettingsMode(Mode):
    """`spit-tui settings`: the settings screen alone; Esc ends it."""

    title = "spit-tui settings"
    new_games = False
    asks_before_quit = False

    def screen(self, app: SpitApp) -> Screen[None] | None:
        return SettingsScreen(app.settings or Settings())
