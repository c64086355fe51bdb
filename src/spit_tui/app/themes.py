"""Themes: Textual's built-in ones (Ctrl+P, then "Theme"), plus `spit-light`,
a light theme on a white background, and each player's colour as the theme
needs it.

The board is drawn in the players' first colours (app/views.py: sky blue
and orange, the Okabe-Ito pair colour-blind players tell apart), made for a
dark background; on a light one they fall under 2.5:1. Rather than thread the
theme and the palette (spit_tui/look.py) through every drawing function, one line
filter swaps the pair as the screen is sent out: for the palette's dark pair
under a dark theme, its light pair under a light theme (over 4.5:1 on every
light built-in theme, tested) with a darker yellow and green for the
highlights; under the ANSI themes, the terminal's own colours (so a player's
own terminal scheme decides them) unless a palette was chosen. Under a dark
theme with the default palette it is off.
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

from spit_tui.app.cards import FOUR_BLUE, FOUR_GREEN
from spit_tui.app.views import PLAYER_COLOURS
from spit_tui.look import DEFAULT_PALETTE, Palette

LIGHT_PAIR = DEFAULT_PALETTE.light  # blue and orange, dark enough for a light background
# The highlight of the card just played, a lost race, the title: Textual's light
# mapping of ANSI yellow (#cb9000) is 2.8:1 on white; this is 6.3:1. Its green
# (#448c27, the banner's good news) is 4.2:1.
LIGHT_YELLOW = "#7a5c00"
LIGHT_GREEN = "#1f5f22"
LIGHT_FOUR_BLUE = "#0b5cd6"  # four-colour diamonds on a light background (4.5:1 on #e0e0e0)
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


def pair_for(theme: Theme, palette: Palette = DEFAULT_PALETTE) -> tuple[str, str]:
    """The players' two colours under `theme` with `palette`."""
    if theme.ansi and palette == DEFAULT_PALETTE:
        return ANSI_DARK_PAIR if theme.dark else ANSI_LIGHT_PAIR
    return palette.dark if theme.dark else palette.light


class PlayerColours(LineFilter):
    """Swaps the players' colours for the theme's pair (see the module's words)."""

    def __init__(self) -> None:
        super().__init__(enabled=False)
        self._swap: dict[tuple[object, ...], RichColor] = {}
        self.palette = DEFAULT_PALETTE

    def use(self, theme: Theme, palette: Palette | None = None) -> None:
        """Swap for `theme` with `palette` (None: the palette in use)."""
        if palette is not None:
            self.palette = palette
        swaps = dict(zip(PLAYER_COLOURS, pair_for(theme, self.palette), strict=True))
        if theme.ansi:  # four-colour suits in the terminal's own blue and green
            swaps[FOUR_BLUE], swaps[FOUR_GREEN] = "blue", "green"
        elif not theme.dark:
            swaps["yellow"] = LIGHT_YELLOW
            swaps["green"] = LIGHT_GREEN
            swaps[FOUR_BLUE], swaps[FOUR_GREEN] = LIGHT_FOUR_BLUE, LIGHT_GREEN
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
