"""How a card looks on screen. Every card drawn anywhere goes through here, so a
plain-ASCII look (``10H``, ``QS``) for dumb terminals is a change in one place.

Suits are told apart by symbol and by colour, so the board still reads with
NO_COLOR set.
"""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from rich.text import Text

from spit_tui.engine import Card

CARD_W = 5  # a card box is five cells wide and three high

RED = Style(color="red", bold=True)
BLACK = Style(bold=True)
EDGE = Style(color="bright_black")
BACK = Style(color="blue")
HIGHLIGHT = Style(color="yellow", bold=True)
REVERSE = Style(reverse=True)


def face_text(c: Card) -> tuple[str, Style]:
    """The one place a card's face is spelled: rank and suit ("10♥") and its style."""
    return c.face, RED if c.is_red else BLACK


def card_face(c: Card) -> Text:
    """Rank and suit, e.g. "10♥", in the suit's colour (two or three cells)."""
    text, style = face_text(c)
    return Text(text, style=style)


CardLine = tuple[Segment, ...]


def card_box(
    c: Card | None, *, face_up: bool = True, highlight: bool = False, edge: Style | None = None
) -> tuple[CardLine, CardLine, CardLine]:
    """Three lines of a card, as segments: face up, face down (``face_up=False``:
    a back, whatever `c` is, so a card nobody may see needs no stand-in), or an
    empty place (``c`` is None, face up). Each line is CARD_W cells. `edge`
    colours the frame (the colour of the player who put the card there, or
    who just took a card from this place: an empty place takes it too)."""
    place = EDGE if edge is None else edge
    if edge is None:
        edge = HIGHLIGHT if highlight else EDGE
    elif highlight:
        edge = edge + Style(bold=True)
    if c is None and face_up:
        return (Segment("┌ ─ ┐", place),), (Segment(" " * CARD_W),), (Segment("└ ─ ┘", place),)
    side = Segment("│", edge)
    if c is not None and face_up:
        text, style = face_text(c)
        if highlight:
            style = style + REVERSE
        face = (Segment(" " * (3 - len(text))), Segment(text, style)) if len(text) < 3 else (
            Segment(text, style),
        )
    else:
        face = (Segment("▒▒▒", BACK),)
    return (Segment("╭───╮", edge),), (side, *face, side), (Segment("╰───╯", edge),)
