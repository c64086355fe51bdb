"""How a card looks on screen. Every card drawn anywhere goes through here, so a
plain-ASCII look (``10H``, ``QS``) for dumb terminals is a change in one place.

Suits are told apart by symbol and by colour, so the board still reads with
NO_COLOR set. Two colours (red hearts and diamonds, plain spades and clubs),
or four with `four` (--suits four): diamonds blue and clubs green as well.
Cards come in two sizes (spit_tui/look.py: `CardSize`): five by three cells,
and seven by five on large terminals (a corner each side and the suit in the
middle).
"""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from rich.text import Text

from spit_tui.engine import Card
from spit_tui.look import SMALL, CardSize

CARD_W = SMALL.card_w  # a small card box is five cells wide and three high

RED = Style(color="red", bold=True)
BLACK = Style(bold=True)
# four-colour suits: diamonds blue, clubs green, over 4.5:1 on every dark theme
# (app/themes.py gives light themes darker ones and the ANSI themes the terminal's)
FOUR_BLUE, FOUR_GREEN = "#63a1ff", "#38bd4c"
BLUE = Style(color=FOUR_BLUE, bold=True)
GREEN = Style(color=FOUR_GREEN, bold=True)
EDGE = Style(color="bright_black")
BACK = Style(color="blue")
HIGHLIGHT = Style(color="yellow", bold=True)
REVERSE = Style(reverse=True)


def suit_style(c: Card, four: bool = False) -> Style:
    """The suit's colour: red or plain, or (`four`) diamonds blue, clubs green."""
    if four and c.suit == "d":
        return BLUE
    if four and c.suit == "c":
        return GREEN
    return RED if c.is_red else BLACK


def face_text(c: Card, four: bool = False) -> tuple[str, Style]:
    """The one place a card's face is spelled: rank and suit ("10♥") and its style."""
    return c.face, suit_style(c, four)


def card_face(c: Card, four: bool = False) -> Text:
    """Rank and suit, e.g. "10♥", in the suit's colour (two or three cells)."""
    text, style = face_text(c, four)
    return Text(text, style=style)


CardLine = tuple[Segment, ...]


def card_box(
    c: Card | None,
    *,
    face_up: bool = True,
    highlight: bool = False,
    edge: Style | None = None,
    four: bool = False,
    size: CardSize = SMALL,
) -> tuple[CardLine, ...]:
    """The lines of a card (`size.card_h` of them, `size.card_w` cells each), as
    segments: face up, face down (``face_up=False``: a back, whatever `c` is, so
    a card nobody may see needs no stand-in), or an empty place (``c`` is None,
    face up). `edge` colours the frame (the colour of the player who put the
    card there, or who just took a card from this place: an empty place takes
    it too). `four`: four-colour suits."""
    if size is not SMALL:
        return _large_box(c, face_up, highlight, edge, four, size)
    place = EDGE if edge is None else edge
    if edge is None:
        edge = HIGHLIGHT if highlight else EDGE
    elif highlight:
        edge = edge + Style(bold=True)
    if c is None and face_up:
        return (Segment("┌ ─ ┐", place),), (Segment(" " * CARD_W),), (Segment("└ ─ ┘", place),)
    side = Segment("│", edge)
    if c is not None and face_up:
        text, style = face_text(c, four)
        if highlight:
            style = style + REVERSE
        face = (Segment(" " * (3 - len(text))), Segment(text, style)) if len(text) < 3 else (
            Segment(text, style),
        )
    else:
        face = (Segment("▒▒▒", BACK),)
    return (Segment("╭───╮", edge),), (side, *face, side), (Segment("╰───╯", edge),)


def _large_box(
    c: Card | None,
    face_up: bool,
    highlight: bool,
    edge: Style | None,
    four: bool,
    size: CardSize,
) -> tuple[CardLine, ...]:
    """A large card: the face in the top-left and bottom-right corners and the
    suit in the middle ("10♥ / ♥ / 10♥"), a back of ▒, or a dashed place."""
    w, inner = size.card_w, size.card_w - 2
    place = EDGE if edge is None else edge
    frame = (HIGHLIGHT if highlight else EDGE) if edge is None else (
        edge + Style(bold=True) if highlight else edge
    )
    middle = size.card_h - 2
    if c is None and face_up:
        dashes = " ".join("─" * (inner // 2))
        top = (Segment(f"┌{dashes.center(inner)}┐", place),)
        bottom = (Segment(f"└{dashes.center(inner)}┘", place),)
        return (top, *[(Segment(" " * w),)] * middle, bottom)
    side = Segment("│", frame)
    if c is not None and face_up:
        text, style = face_text(c, four)
        if highlight:
            style = style + REVERSE
        suit = text[-1]
        rows = [
            (Segment(text, style), Segment(" " * (inner - len(text)))),
            (Segment(" " * ((inner - 1) // 2)), Segment(suit, style),
             Segment(" " * (inner - 1 - (inner - 1) // 2))),
            (Segment(" " * (inner - len(text))), Segment(text, style)),
        ]
        blank = (Segment(" " * inner),)
        body = [rows[0], *[blank] * (middle - 3), rows[1], rows[2]] if middle > 3 else rows
    else:
        body = [(Segment("▒" * inner, BACK),)] * middle
    top = (Segment("╭" + "─" * inner + "╮", frame),)
    bottom = (Segment("╰" + "─" * inner + "╯", frame),)
    return (top, *[(side, *row, side) for row in body], bottom)
