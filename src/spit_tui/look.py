"""How the table looks to the people at it: the players' colour pair (a
palette), two- or four-colour suits, the ◂ ▸ markers, and the card size. One
frozen value, made from the settings in force (`look_of`) and handed to the
app (`SpitApp.use_look`); the drawing code reads the value, never a flag or a
variable.

Where a choice comes from is the settings' business (spit_tui/settings: flag
> environment > config.toml > default): `--palette NAME`, `--suits two|four`,
`--cards auto|small|large`, `--marks`; `SPIT_PALETTE`, `SPIT_SUITS`,
`SPIT_CARDS`, `SPIT_MARKS`; config.toml's `palette`, `suits`, `cards`,
`marks`. This module says which values there are (PALETTE_NAMES, SUITS,
CARDS) and what they look like.

Every palette's pairs stay apart for people with deuteranopia, protanopia and
tritanopia and read on their background: tests/app/test_look_vision.py
simulates each, and docs/palettes.md has the figures it checks. Colour
is never the only cue: the board's ◂ ▸ markers say whose card is on top
(under NO_COLOR, on large cards, and with `--marks` under any palette), the
feed names who played, and suits keep their symbols.

The card size is a pure function of the terminal's size (`card_size`), so the
browser's page can pick the same size for its window.
"""

from __future__ import annotations

from typing import NamedTuple

SUITS = ("two", "four")
CARDS = ("auto", "small", "large")


class Palette(NamedTuple):
    """The players' two colours (LEFT, RIGHT) on a dark and on a light background."""

    name: str
    dark: tuple[str, str]
    light: tuple[str, str]
    words: str  # what the colours are, for `--help`


PALETTES: tuple[Palette, ...] = (
    # Okabe-Ito sky blue and orange: the default since the first board
    Palette("sky-orange", ("#56b4e9", "#e69f00"), ("#005a8c", "#9a4a00"), "sky blue and orange"),
    # IBM's colour-blind-safe gold with a lighter blue (it reads on every dark theme)
    Palette("blue-gold", ("#7da3ff", "#ffb000"), ("#1a47b0", "#7f4d00"), "blue and gold"),
    Palette("violet-lime", ("#c18cff", "#b5d334"), ("#7b2fbf", "#466200"), "violet and lime"),
    # over 7:1 against the background for every kind of colour vision
    Palette(
        "high-contrast", ("#8fdcff", "#ffe14d"), ("#002a5c", "#6a2800"),
        "light blue and yellow, over 7:1",
    ),
)
PALETTE_NAMES = tuple(p.name for p in PALETTES)
DEFAULT_PALETTE = PALETTES[0]


class Look(NamedTuple):
    """The table's look for this run (see the module's words)."""

    palette: Palette = DEFAULT_PALETTE
    suits: str = "two"  # "four": diamonds blue and clubs green
    cards: str = "auto"  # "small", "large", or "auto": by the terminal's size
    marks: bool = False  # ◂ ▸ beside the piles' cards with colour too (always on large cards)

    @property
    def four_colours(self) -> bool:
        return self.suits == "four"


DEFAULT_LOOK = Look()


class LookError(ValueError):
    """A look value no choice has: the one line to show."""


def _check(value: str, what: str, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise LookError(f"{value!r} is not {what}: {', '.join(choices)}")
    return value


def palette_named(name: str) -> Palette:
    """The palette called `name`, or LookError naming the choices."""
    return PALETTES[PALETTE_NAMES.index(_check(name, "a palette", PALETTE_NAMES))]


def look_of(
    palette: str = DEFAULT_PALETTE.name, suits: str = "two", cards: str = "auto",
    marks: bool = False,
) -> Look:
    """The look for the settings' values; LookError for a value no choice has."""
    return Look(
        palette=palette_named(palette),
        suits=_check(suits, "a choice of suits", SUITS),
        cards=_check(cards, "a card size", CARDS),
        marks=marks,
    )


# -- card size: a pure function of the terminal's size --------------------------------


class CardSize(NamedTuple):  # two of them, SMALL and LARGE
    """The board's measures at one card size. `small` is the 80x24 board; `large`
    the one for 120x36 and up."""

    name: str
    card_w: int  # a card box's width and height
    card_h: int
    col_w: int  # one stockpile column: a card and the gap after it
    centre_w: int  # the spit piles (and the feed) between the two halves
    spaced: bool  # blank lines between the board's parts

    @property
    def side_w(self) -> int:
        """One player's half: five stockpile columns."""
        return self.col_w * 5

    @property
    def board_w(self) -> int:
        return self.side_w * 2 + self.centre_w


SMALL = CardSize("small", card_w=5, card_h=3, col_w=6, centre_w=20, spaced=False)
LARGE = CardSize("large", card_w=7, card_h=5, col_w=9, centre_w=30, spaced=True)
LARGE_FROM = (120, 36)  # the smallest terminal (columns, rows) that gets large cards by itself
LARGE_FITS = (LARGE.board_w, 30)  # the smallest that can hold them (--cards large)


def card_size(cards: str, width: int, height: int) -> CardSize:
    """The card size for a terminal of `width` x `height` cells: `auto` (the
    default) large from LARGE_FROM up, else small; `small` always small;
    `large` large wherever they fit (LARGE_FITS), else small, so a small
    window still shows the whole board."""
    if cards == "small":
        return SMALL
    least = LARGE_FITS if cards == "large" else LARGE_FROM
    return LARGE if width >= least[0] and height >= least[1] else SMALL
