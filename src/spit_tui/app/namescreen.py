"""F4 on the opening banner: the players' names, typed in a small box over the
board. The game waits underneath (the board is covered), and nothing waits
for this box: the round starts as soon as both say spit, named or not.

The box only edits: it returns the names, and the app gives them to its
table and history and remembers them (spit_tui.names). Names show as typed: the views
draw them as plain text, never as markup.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static

from spit_tui.app.screens import LATER_CSS
from spit_tui.app.views import PLAYER_STYLES
from spit_tui.engine import PLAYERS, Player
from spit_tui.names import (
    DEFAULT_NAMES,
    MAX_CELLS,
    Given,
    as_name,
    name_problem,
    same_names_problem,
)


class NamesScreen(ModalScreen[Given | None]):
    """Each person's name (a seat the computer plays has no box). Enter keeps
    them, Esc goes back with the names as they were; an empty box is the
    seat's default name (LEFT, RIGHT)."""

    CSS_PATH = LATER_CSS  # read when the first later screen opens
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss(None)", "back", show=False),
    ]

    def __init__(self, given: Given, seats: tuple[Player, ...] = PLAYERS) -> None:
        super().__init__(id="names")
        self.given = given
        self.seats = seats

    def compose(self) -> ComposeResult:
        with Vertical(id="names-box"):
            yield Static(Text("Players' names", "bold"), id="names-title")
            for p in self.seats:
                yield Label(Text(f"{p.label} half", PLAYER_STYLES[p]))
                yield Input(
                    value=self.given[p] or "",
                    placeholder=DEFAULT_NAMES[p],
                    max_length=MAX_CELLS,
                    id=f"name-{p.letter}",
                )
            yield Static(id="names-problem")
            tab = (("Tab", "bold"), ": next  ·  ") if len(self.seats) > 1 else ()
            keys = Text.assemble(
                ("Enter", "bold"), ": keep  ·  ", *tab, ("Esc", "bold"), ": back", style="dim"
            )
            yield Static(keys, id="names-keys")

    def chosen(self) -> Given | str:
        """The names in the boxes, or why they cannot be kept."""
        out: list[str | None] = list(self.given)
        for p in self.seats:
            text = as_name(self.query_one(f"#name-{p.letter}", Input).value.strip())
            if text:
                problem = name_problem(text)
                if problem is not None:
                    return f"{p.label}: {problem}"
            out[p] = text or None
        shown = tuple(n or DEFAULT_NAMES[i] for i, n in enumerate(out))
        problem = same_names_problem((shown[0], shown[1]))
        return problem if problem is not None else (out[0], out[1])

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        result = self.chosen()
        if isinstance(result, str):
            self.query_one("#names-problem", Static).update(Text(result, "bold red"))
        else:
            self.dismiss(result)


class YourNameScreen(ModalScreen[str | None]):
    """A lobby's question (asked once, then F4 there): the player's own name,
    which the other player sees on their board. Enter keeps it, Esc goes on
    without one (the seat's default name: LEFT or RIGHT)."""

    CSS_PATH = LATER_CSS  # read when the first later screen opens
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss(None)", "back", show=False),
    ]

    def __init__(self, name: str | None) -> None:
        super().__init__(id="your-name")
        self.given = name

    def compose(self) -> ComposeResult:
        with Vertical(id="names-box"):
            yield Static(Text("Your name", "bold"), id="names-title")
            yield Static("The other player sees it on their board; it is kept for next time.")
            yield Input(value=self.given or "", placeholder="your name", max_length=MAX_CELLS,
                        id="your-name-input")
            yield Static(id="names-problem")
            keys = Text.assemble(("Enter", "bold"), ": keep  ·  ", ("Esc", "bold"),
                                 ": no name", style="dim")
            yield Static(keys, id="names-keys")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = as_name(event.value.strip())
        problem = name_problem(text)
        if problem is not None:
            self.query_one("#names-problem", Static).update(Text(problem, "bold red"))
        else:
            self.dismiss(text)
