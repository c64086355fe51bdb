"""How a card looks on screen. Every card drawn anywhere goes through here, so a
plain-ASCII look (``10H``, ``QS``) for dumb terminals is a change in one place.

Suits are told apart by symbol and by colour, so the board still reads with
NO_COLOR set.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text

from spit_tui.engine import Card
from spit_tui.engine.cards import SUIT_SYMBOLS

CARD_W = 5  # a card box is five cells wide and three high

RED = Style(color="red", bold=True)
BLACK = Style(bold=True)
EDGE = Style(color="bright_black")
BACK = Style(color="blue")
HIGHLIGHT = Style(color="yellow", bold=True)


def card_face(c: Card) -> Text:
    """Rank and suit, e.g. "10♥", in the suit's colour (two or three cells)."""
    return Text(c.rank_label + SUIT_SYMBOLS[c.suit], style=RED if c.is_red else BLACK)


def card_box(c: Card | None, *, face_up: bool = True, highlight: bool = False) -> list[Text]:
    """Three lines of a card: face up, face down (``face_up=False``), or an empty place."""
    edge = HIGHLIGHT if highlight else EDGE
    if c is None:
        return [Text("┌ ─ ┐", EDGE), Text("     "), Text("└ ─ ┘", EDGE)]
    top = Text("╭───╮", edge)
    bottom = Text("╰───╯", edge)
    mid = Text()
    mid.append("│", edge)
    if face_up:
        face = card_face(c)
        if highlight:
            face.stylize("reverse")
        if len(face) < 3:
            mid.append(" ")
        mid.append_text(face)
    else:
        mid.append("▒▒▒", BACK)
    mid.append("│", edge)
    return [top, mid, bottom]
