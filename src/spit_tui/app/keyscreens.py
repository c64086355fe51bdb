"""The screens that set up the keys: the first-run check (which keyboard is
this?), shown once when nothing chose a layout. It asks for one to three
physical keys (keys/detect.py), each of the player whose half it is in,
shows the keys it found as the board will label them, and saves the choice
(keys.toml) once the players confirm. Esc keeps US QWERTY (saved too, so it
never asks again)."""

from __future__ import annotations

from typing import ClassVar, Protocol, runtime_checkable

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import ModalScreen
from textual.widgets import Static

from spit_tui.app.screens import LATER_CSS
from spit_tui.keys import config
from spit_tui.keys.detect import Detector, ask_hint, describe_key, where_else, whose_half
from spit_tui.keys.keymap import KeyMap
from spit_tui.keys.layout import Layout, preset


@runtime_checkable
class KeysHolder(Protocol):
    """An app that holds the players' key map (the game's app)."""

    keymap: KeyMap

    def use_keys(self, keymap: KeyMap) -> None: ...


def use_layout(app: App[object], layout: Layout) -> None:
    """Make `layout` the app's keys now: it relabels every board on show."""
    if isinstance(app, KeysHolder):
        app.use_keys(KeyMap.of(layout))


def key_grid(layout: Layout) -> Text:
    """The 40 keys as the board labels them, each player's half apart."""
    out = Text()
    out.append(f"{'':10}{'LEFT player':<32}RIGHT player\n", "bold")
    names = ("flip", "pile a", "pile b", "fill")
    for name, row in zip(names, layout.keys, strict=True):
        out.append(f"{name:<10}", "dim")
        for half in (row[:5], row[5:]):
            for plain, shifted in half:
                cap = shifted if shifted == plain.upper() and shifted != plain else plain
                out.append(f"[{cap}] ", "bold cyan")
            out.append(" " * 12)
        out.append("\n")
    return out


class FirstRunScreen(ModalScreen[None]):
    """Which keyboard is this? Asked once; the game waits underneath."""

    CSS_PATH = LATER_CSS  # read when the first later screen opens
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "keep_us", "keep US QWERTY", show=False),
        Binding("enter", "confirm", "keep these keys", show=False),
        Binding("tab", "again", "ask again", show=False),
    ]

    def __init__(self, one_person: bool = False) -> None:
        """`one_person`: one person answers every key (a seat at a host, a game
        against the computer), so the question names no player's half."""
        super().__init__(id="first-run")
        self.one_person = one_person
        self.detector = Detector()
        self.note = ""
        self.found: Layout | None = None

    def compose(self) -> ComposeResult:
        yield Static(id="keys-box")

    def on_mount(self) -> None:
        self.show()

    def show(self) -> None:
        text = Text()
        if self.found is None:
            pos = self.detector.next_ask()
            text.append("Which keyboard is this?\n\n", "bold")
            text.append("Press " if self.one_person else f"{whose_half(pos)} player: press ")
            text.append(describe_key(pos), "bold")
            text.append(
                ".\n" if pos[0] == 0 else ",\ncounting from the left, whatever is printed on it.\n"
            )
            hint = ask_hint(pos)
            text.append(f"({hint})\n\n" if hint else "\n")
            if self.note:
                text.append(self.note + "\n\n", "yellow")
            text.append("Esc", "bold")
            text.append(": skip, and keep US QWERTY keys")
        else:
            text.append(f"Your keyboard: {self.found.name}, {self.found.description}\n\n", "bold")
            text.append_text(key_grid(self.found))
            text.append("\nThe board now shows these keys. ")
            if self.note:
                text.append("\n" + self.note, "yellow")
            text.append("\n\n")
            text.append("Enter", "bold")
            text.append(": keep these keys (saved)   ")
            text.append("Tab", "bold")
            text.append(": ask again   ")
            text.append("Esc", "bold")
            text.append(": US QWERTY")
        self.query_one("#keys-box", Static).update(text)

    def on_key(self, event: events.Key) -> None:
        if self.found is not None or event.key in ("escape", "enter", "tab"):
            return
        ch = event.character
        if not ch or len(ch) != 1 or not ch.isprintable() or ch.isspace():
            return
        event.stop()
        pos = self.detector.next_ask()
        if not self.detector.answer(pos, ch):
            elsewhere = where_else(ch, pos, self.detector.candidates)
            self.note = (
                f"{ch!r} is another key: {elsewhere}. Press {describe_key(pos)}."
                if elsewhere
                else f"{ch!r} is on no keyboard layout known here: try again."
            )
        else:
            self.note = ""
            if self.detector.done:
                self.found = self.detector.result()
                use_layout(self.app, self.found)
        self.show()

    def _save(self, layout: Layout) -> None:
        try:
            config.save(layout)
        except OSError as e:
            self.app.notify(f"keys not saved: {e.strerror or e}", severity="warning")

    def action_confirm(self) -> None:
        if self.found is not None:
            self._save(self.found)
            self.dismiss()

    def action_keep_us(self) -> None:
        layout = preset("us")
        use_layout(self.app, layout)
        self._save(layout)
        self.dismiss()

    def action_again(self) -> None:
        self.detector = Detector()
        self.found = None
        self.note = ""
        use_layout(self.app, preset("us"))
        self.show()
