"""The keys the app keeps for itself: never a game key in any layout or config.

One list, read by the layout checks, the key setup screen, the help's key page
and (through a test) the README's keys section.
"""

from __future__ import annotations

from typing import NamedTuple


class Reserved(NamedTuple):
    names: tuple[str, ...]  # Textual's key names
    label: str  # as the help and README write it
    does: str


RESERVED: tuple[Reserved, ...] = (
    Reserved(("f1", "backspace"), "F1 or Backspace", "help"),
    Reserved(("escape",), "Esc", "close / back"),
    Reserved(("enter",), "Enter", "new game (a resumed game: play on)"),
    Reserved(("tab",), "Tab", "(kept free)"),
    Reserved(("ctrl+q", "ctrl+c"), "Ctrl+Q / Ctrl+C", "quit"),
    Reserved(("ctrl+z",), "Ctrl+Z", "suspend"),
    Reserved(("ctrl+p",), "Ctrl+P", "commands and themes"),
    Reserved(("left", "right", "up", "down"), "arrows", "help pages"),
    Reserved(("pageup", "pagedown"), "PgUp / PgDn", "help pages"),
    Reserved(("f2",), "F2", "on the key page: save the game record"),
    Reserved(("f3",), "F3", "in help: set up your own keys"),
    Reserved(("f4",), "F4", "on a game's first banner: the players' names"),
    Reserved(("f5",), "F5", "on the opening banner: resume the last game quit in play"),
    Reserved(("f6",), "F6", "settings: theme, colours, bell, motion, a game's defaults"),
    Reserved(("space",), "Space", "pause: both halves wait"),
)

RESERVED_KEYS: frozenset[str] = frozenset(n for r in RESERVED for n in r.names)
