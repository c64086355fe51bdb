"""The small screens over the game: the quit question, the pause and
"terminal too small". Loaded when the first of them is needed, not at the
start (their classes cost the start about 0.7 ms); the app finds a
too-small screen by its id (screens.TOO_SMALL_ID), so asking needs no class."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from spit_tui.app.screens import LATER_CSS, MIN_H, MIN_W, PAUSE_KEY, PAUSE_LABEL, TOO_SMALL_ID


class QuitScreen(ModalScreen[bool]):
    """Ctrl+C / Ctrl+Q ask first: Enter or either key again quits, Esc goes back.
    `in_play`: a game is going on (and waits while this is up); after game over
    there is nothing to pause, and the dialog does not say there is."""

    CSS_PATH = LATER_CSS  # read when the first later screen opens

    # Priority, as the app's own keys (Ctrl+Q, F1): the app handles those at
    # once, while a screen's other keys wait for the screen's turn, so Esc then
    # Ctrl+Q in one read (or under load) was handled Ctrl+Q first: the quit
    # question came up over help, then help's Esc closed the top screen, the
    # question, and help stayed.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss(False)", "back", show=False, priority=True),
        Binding("enter", "dismiss(True)", "quit", show=False, priority=True),
    ]

    def __init__(self, kept: str = "", *, in_play: bool = True, waits: bool = True) -> None:
        """`kept`: how the game in play can be resumed after quitting ("" if it
        cannot); `in_play`: a game is going on (after game over nothing is paused);
        `waits`: it stops while this is up (a seat at a host's game goes on)."""
        super().__init__()
        self.kept = kept
        self.in_play = in_play
        self.waits = waits

    def compose(self) -> ComposeResult:
        back = ": back to the board"
        if self.in_play:
            back = ": back to the game " + ("(it is paused)" if self.waits else "(it goes on)")
        text = Text.assemble(
            ("Quit the game?\n\n", "bold"),
            ("Enter", "bold"), ", ", ("Ctrl+Q", "bold"), " or ", ("Ctrl+C", "bold"), ": quit\n",
            ("Esc", "bold"), back,
        )
        if self.kept:
            text.append(f"\n\n{self.kept}")
        yield Static(text, id="quit-box")


class PauseScreen(ModalScreen[None]):
    """Space pauses both halves: the game waits underneath (its clocks stop, as
    for help), and Space or Esc plays on."""

    CSS_PATH = LATER_CSS  # read when the first later screen opens

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(f"{PAUSE_KEY},escape", "dismiss(None)", "play on", show=False),
    ]

    def compose(self) -> ComposeResult:
        text = Text.assemble(
            ("Paused\n\n", "bold"),
            "Both halves wait; the clocks are stopped.\n\n",
            (PAUSE_LABEL, "bold"), " or ", ("Esc", "bold"), ": play on",
        )
        yield Static(text, id="pause-box")


class TooSmallScreen(Screen[None]):
    """Shown while the terminal is smaller than the board; the game waits
    underneath, unless its clock is another's (a seat at a host's game)."""

    CSS_PATH = LATER_CSS  # read when the first later screen opens

    def __init__(self, waits: bool = True) -> None:
        super().__init__(id=TOO_SMALL_ID)
        self.asked = False
        self.waits = waits  # the game stops meanwhile (a seat at a host's game goes on)

    def compose(self) -> ComposeResult:
        yield Static(id="too-small-text")

    def on_mount(self) -> None:
        self.show()

    def on_resize(self) -> None:
        self.show()

    def show(self) -> None:
        w, h = self.app.size
        text = Text(justify="center")
        text.append("The terminal is too small for the board.\n\n", "bold")
        text.append(f"It needs at least {MIN_W} x {MIN_H}; it is {w} x {h} now.\n")
        meanwhile = (
            "the game is paused and will come back as it was" if self.waits
            else "the game goes on meanwhile"
        )
        text.append(f"Make the window bigger: {meanwhile}.\n\n")
        if self.asked:
            text.append("Press Ctrl+Q again to quit.", "bold red")
        else:
            text.append("Ctrl+Q: quit", "dim")
        self.query_one("#too-small-text", Static).update(text)
