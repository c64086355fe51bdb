"""The key setup screen (F3 on help): rebind all 40 game keys by pressing them.

It asks for each key in turn, the left player's then the right player's, row
by row; it refuses a key already given, a key the app keeps for itself and
anything that types no character, and once all 40 are in (and the whole map
checks out) it writes the key config file and makes it the players' keys.
Esc leaves everything as it was."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import ModalScreen
from textual.widgets import Static

from spit_tui.app.keyscreens import key_grid, use_layout
from spit_tui.app.screens import LATER_CSS
from spit_tui.engine import Player
from spit_tui.keys import config
from spit_tui.keys.keymap import KeyMap
from spit_tui.keys.layout import ROW_NAMES, Layout, Position, describe_position, not_a_key, preset
from spit_tui.keys.reserved import RESERVED_KEYS

ORDER: tuple[Position, ...] = tuple(
    (r, c) for half in (range(5), range(5, 10)) for r in (1, 2, 3, 0) for c in half
)


class KeySetupScreen(ModalScreen[None]):
    CSS_PATH = LATER_CSS  # read when the first later screen opens
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "leave the keys as they were", show=False),
    ]

    def __init__(self, keys: KeyMap) -> None:
        super().__init__(id="key-setup")
        self.base = preset(keys.name)  # the preset the players' keys start from
        self.chosen: dict[Position, str] = {}
        self.note = ""
        self.saved: Layout | None = None

    def compose(self) -> ComposeResult:
        yield Static(id="setup-box")

    def on_mount(self) -> None:
        self.show()

    @property
    def asking(self) -> Position | None:
        return ORDER[len(self.chosen)] if len(self.chosen) < len(ORDER) else None

    def show(self) -> None:
        text = Text("Key setup\n\n", "bold")
        pos = self.asking
        if pos is not None:
            row, col = pos
            who = "LEFT" if col < 5 else "RIGHT"
            text.append(f"{who} player: press your key for ")
            text.append(f"{ROW_NAMES[row]} row, key {col % 5 + 1}", "bold")
            text.append(f"   ({len(self.chosen) + 1} of {len(ORDER)})\n")
            text.append(f"(now: {self.base.key(pos)[0]})\n\n", "dim")
        elif self.saved is not None:
            text.append_text(key_grid(self.saved))
            text.append(f"\nSaved to {config.default_path()}. These are your keys now.\n")
        if self.note:
            text.append(self.note + "\n", "yellow")
        text.append("\nEsc", "bold")
        text.append(": back (keys as they were)" if self.saved is None else ": back")
        self.query_one("#setup-box", Static).update(text)

    def on_key(self, event: events.Key) -> None:
        if event.key == "escape":
            return
        event.stop()
        event.prevent_default()
        pos = self.asking
        if pos is None:
            return
        ch = event.character or ""
        why = None
        if event.key in RESERVED_KEYS or (len(ch) == 1 and ch in "\t\r\x1b\x7f"):
            why = f"{event.key} is kept for the app: choose another key"
        elif not ch:
            why = f"{event.key} types no character: choose another key"
        else:
            why = not_a_key(ch)
            taken = next((p for p, c in self.chosen.items() if c in (ch, ch.lower())), None)
            if why is None and taken is not None:
                why = f"{ch!r} is already {describe_position(taken)}"
        if why is not None:
            self.note = why
        else:
            self.note = ""
            self.chosen[pos] = ch
            if self.asking is None:
                self._finish()
        self.show()

    def _finish(self) -> None:
        layout = self.base
        for half, start in ((Player.LEFT, 0), (Player.RIGHT, 5)):
            for r in range(len(ROW_NAMES)):
                layout = layout.with_row(
                    half, r, [self.chosen[(r, c)] for c in range(start, start + 5)]
                )
        problems = layout.problems()
        if problems:
            self.note = problems[0].text + ": start again"
            self.chosen = {}
            return
        try:
            config.save(layout)
        except OSError as e:
            self.note = f"could not save: {e.strerror or e} (keys not changed)"
            self.chosen = {}
            return
        use_layout(self.app, layout)
        self.saved = layout

    def action_cancel(self) -> None:
        self.dismiss()
