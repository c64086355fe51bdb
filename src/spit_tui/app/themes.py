"""Themes: Textual's built-in ones (Ctrl+P, then "Theme"), plus `spit-light`,
a light theme on a white background, and each player's colour as the theme
needs it.

The players' colours (app/views.py: sky blue and orange, the Okabe-Ito pair
colour-blind players tell apart) are made for a dark background; on a light
one they fall under 2.5:1. Rather than thread the theme through every drawing
function, one line filter swaps the pair as the screen is sent out: under a
light theme, a darker blue and orange (over 4.5:1 on every light built-in
theme, tested) and a darker yellow and green for the highlights; under the ANSI themes,
the terminal's own colours (so a player's own terminal scheme decides them).
Under a dark theme it is off.
`NO_COLOR` is untouched: its filter comes after this one and drops colour
whatever the theme.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache, partial
from typing import Any

from rich.color import Color as RichColor
from rich.segment import Segment
from rich.style import Style
from textual.app import App
from textual.color import Color
from textual.filter import LineFilter
from textual.theme import Theme, ThemeProvider

from spit_tui.app.views import PLAYER_COLOURS

LIGHT_PAIR = ("#005a8c", "#9a4a00")  # blue and orange, dark enough for a light background
# The highlight of the card just played, a lost race, the title: Textual's light
# mapping of ANSI yellow (#cb9000) is 2.8:1 on white; this is 6.3:1. Its green
# (#448c27, the banner's good news) is 4.2:1.
LIGHT_YELLOW = "#7a5c00"
LIGHT_GREEN = "#1f5f22"
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
        self._swap: dict[tuple[object, ...], RichColor] = {}

    def use(self, theme: Theme) -> None:
        swaps = dict(zip(PLAYER_COLOURS, pair_for(theme), strict=True))
        if not theme.dark and not theme.ansi:
            swaps["yellow"] = LIGHT_YELLOW
            swaps["green"] = LIGHT_GREEN
        self._swap = {
            _key(RichColor.parse(ours)): RichColor.parse(theirs)
            for ours, theirs in swaps.items()
            if ours != theirs
        }
        self.enabled = bool(self._swap)
        _swapped.cache_clear()

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        swap = self._swap
        out: list[Segment] = []
        for text, style, control in segments:
            colour = None if style is None or style.color is None else swap.get(_key(style.color))
            if colour is not None and style is not None:
                style = _swapped(style, colour)
            out.append(Segment(text, style, control))
        return out


def _key(colour: RichColor) -> tuple[object, ...]:
    """A colour without its name: ANSI yellow arrives as "yellow" or "color(3)"."""
    return (colour.type, colour.number, colour.triplet)


@lru_cache(maxsize=256)
def _swapped(style: Style, colour: RichColor) -> Style:
    return style + Style(color=colour)


def theme_names() -> frozenset[str]:
    """Every theme the game offers (what TEXTUAL_THEME may name)."""
    from textual.theme import BUILTIN_THEMES

    return frozenset((*BUILTIN_THEMES, SPIT_LIGHT.name))


class KeptThemes(ThemeProvider):
    """Textual's theme picker (Ctrl+P, "Theme"), whose choice is kept for next
    time: the app's `keep_theme` uses it and saves it to config.toml."""

    @property
    def commands(self) -> list[tuple[str, Callable[[], None]]]:
        keep: Callable[[str], None] = getattr(self.app, "keep_theme")  # noqa: B009 (SpitApp's)
        return [(name, partial(keep, name)) for name, _ in super().commands]


def install(app: App[Any]) -> PlayerColours:
    """Offer `spit-light` (TEXTUAL_THEME may name it too) and put the players'
    colour filter first in `app`'s filters (ahead of Textual's ANSI mapping and
    NO_COLOR's); the app calls its `use` again whenever the theme changes."""
    app.register_theme(SPIT_LIGHT)
    wanted = app.theme  # TEXTUAL_THEME, read by Textual before spit-light was registered
    if wanted == SPIT_LIGHT.name:
        # Textual drew its stylesheet with its fallback theme: say that, and
        # change to the one asked for once the app runs (a real change of theme)
        app.set_reactive(App.theme, "textual-dark")
        app.call_later(setattr, app, "theme", wanted)
    colours = PlayerColours()
    colours.use(app.current_theme)
    app._filters.insert(0, colours)
    return colours
