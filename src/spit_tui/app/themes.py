"""Themes: Textual's built-in ones (Ctrl+P, then "Theme"), plus `spit-light`,
a light theme on a white background, and each player's colour as the theme
needs it.

The players' colours (app/views.py: sky blue and orange, the Okabe-Ito pair
colour-blind players tell apart) are made for a dark background; on a light
one they fall under 2.5:1. Rather than thread the theme through every drawing
function, one line filter swaps the pair as the screen is sent out: darker
blue and orange (over 4.5:1 on every light built-in theme, tested) under a
light theme, and the terminal's own ANSI colours under the ANSI themes (so a
player's own terminal scheme decides them). Under a dark theme it is off.
`NO_COLOR` is untouched: its filter comes after this one and drops colour
whatever the theme.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from rich.color import Color as RichColor
from rich.segment import Segment
from rich.style import Style
from textual.app import App
from textual.color import Color
from textual.filter import LineFilter
from textual.theme import Theme

from spit_tui.app.views import PLAYER_COLOURS

LIGHT_PAIR = ("#005a8c", "#9a4a00")  # blue and orange, dark enough for a light background
ANSI_DARK_PAIR = ("cyan", "yellow")  # the terminal's own, on its dark background
ANSI_LIGHT_PAIR = ("blue", "magenta")  # (its yellow rarely reads on white)

SPIT_LIGHT = Theme(
    name="spit-light",
    primary="#005a8c",
    secondary="#4a6a80",
    accent="#9a4a00",
    warning="#8a6d00",
    error="#b00020",
    success="#2e7d32",
    foreground="#1a1a1a",
    background="#ffffff",
    surface="#f4f4f4",
    panel="#e8e8e8",
    dark=False,
)


def pair_for(theme: Theme) -> tuple[str, str]:
    """The players' two colours under `theme`."""
    if theme.ansi:
        return ANSI_DARK_PAIR if theme.dark else ANSI_LIGHT_PAIR
    return PLAYER_COLOURS if theme.dark else LIGHT_PAIR


class PlayerColours(LineFilter):
    """Swaps the players' colours for the theme's pair (see the module's words)."""

    def __init__(self) -> None:
        super().__init__(enabled=False)
        self._swap: dict[RichColor, RichColor] = {}

    def use(self, theme: Theme) -> None:
        pair = pair_for(theme)
        self._swap = {
            RichColor.parse(ours): RichColor.parse(theirs)
            for ours, theirs in zip(PLAYER_COLOURS, pair, strict=True)
            if ours != theirs
        }
        self.enabled = bool(self._swap)
        _swapped.cache_clear()

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        swap = self._swap
        out: list[Segment] = []
        for text, style, control in segments:
            if style is not None and style.color in swap:
                style = _swapped(style, swap[style.color])
            out.append(Segment(text, style, control))
        return out


@lru_cache(maxsize=256)
def _swapped(style: Style, colour: RichColor) -> Style:
    return style + Style(color=colour)


def install(app: App[Any]) -> PlayerColours:
    """Offer `spit-light` and put the players' colour filter first in `app`'s
    filters (ahead of Textual's ANSI mapping and NO_COLOR's); the app calls
    its `use` again whenever the theme changes."""
    app.register_theme(SPIT_LIGHT)
    colours = PlayerColours()
    colours.use(app.current_theme)
    app._filters.insert(0, colours)
    return colours
