"""The board: the tug-of-war bar, both players' stockpiles with the spit piles
between them, the feed by the piles, the keys under them and each player's
messages, drawn as one widget from a Scene (line by line, from cached strips,
so a key press repaints a few lines only). Each player's colour marks their
name, their keys and the cards they put on a pile; under NO_COLOR the markers
◂ (LEFT) and ▸ (RIGHT) say whose card is on top instead."""

from __future__ import annotations

from functools import lru_cache

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from rich.style import Style
from rich.text import Text

from spit_tui.app.cards import BACK, CARD_W, card_box
from spit_tui.app.storylines import bar_line, feed_lines
from spit_tui.app.views import (
    DIM,
    MARKS,
    PLAYER_STYLES,
    Line,
    LinesView,
    player_name,
    styled,
    to_line,
)
from spit_tui.engine import SLOTS, Card, Phase, Player
from spit_tui.keys.intent import Row
from spit_tui.keys.keymap import US, KeyMap
from spit_tui.players.view import SideView
from spit_tui.scene import Outcome, Scene

SIDE_W = 30  # five stockpile columns of six cells
MESSAGE_W = 40
CENTRE_W = 20
COL_W = 6

BOARD_W = SIDE_W * 2 + CENTRE_W


def shown_rows(manual_flip: bool) -> list[Row]:
    """The key rows drawn under the stockpiles (flip only when manual flip is on)."""
    rows = [Row.PILE_A, Row.PILE_B, Row.FILL]
    if manual_flip:
        rows.insert(0, Row.FLIP)
    return rows


def row_legend(phase: Phase, single_pile: bool, row: Row, waiting: bool = False) -> str:
    """What a key row does now: the same row means the same pile in every phase;
    nothing while the game waits (for a seat, or for a resumed game's Enter)."""
    if waiting and phase is not Phase.OVER:
        return "(waiting)"
    if phase is Phase.SPIT:
        return "any key: spit!"
    if phase is Phase.OVER:
        return "game over"
    if phase is Phase.SLAP and row in (Row.FILL, Row.FLIP):
        return "(not now)"
    if row is Row.FLIP:
        return "flip a card up"
    if row is Row.FILL:
        return "fill a gap"
    if single_pile:
        return "on the pile"
    pile = "a" if row is Row.PILE_A else "b"
    if phase is Phase.SLAP:
        return f"slap pile {pile}"
    return f"on pile {pile}"


@lru_cache(maxsize=1024)
def box_lines(
    c: Card | None, face_up: bool, highlight: bool, base: Style, edge: Style | None = None
) -> tuple[Line, ...]:
    """A card's three lines as segments in the widget's colours, made once per look."""
    return styled(list(card_box(c, face_up=face_up, highlight=highlight, edge=edge)), base)


def _blank(n: int) -> Line:
    return (Segment(" " * n),) if n > 0 else ()


_GAP = _blank(COL_W - CARD_W)
_LEAD = _blank(1)
_BLANK_LINE = _blank(BOARD_W)


@lru_cache(maxsize=16)
def _styles(base: Style) -> tuple[Style, Style, Style, Style]:
    """base, LEFT's and RIGHT's colours and dim, over the widget's colours."""
    return base, base + PLAYER_STYLES[0], base + PLAYER_STYLES[1], base + DIM


@lru_cache(maxsize=16)
def _pad(n: int, base: Style) -> Line:
    return (Segment(" " * n, base),) if n > 0 else ()


def side_lines(scene: Scene, p: Player, base: Style) -> tuple[Line, ...]:
    """One player's name and card counts, five stockpiles and their sizes (5 lines);
    the stockpile a card just left is framed in the player's colour while the
    pile it went to is lit, so a fast play shows where it came from."""
    left = scene.left_slot
    slot = left[1] if left is not None and left[0] is p else None
    return _side_lines(scene.sides[p], p, base, player_name(p, scene), slot)


@lru_cache(maxsize=64)
def _side_lines(
    side: SideView, p: Player, base: Style, name: str, left_slot: int | None = None
) -> tuple[Line, ...]:
    # Built straight from segments (no Rich text): this runs on every play.
    right = p is Player.RIGHT
    plain, dim = _styles(base)[0], _styles(base)[3]
    name_style = _styles(base)[1 + p]
    back = base + BACK
    spit = side.spit
    total = side.stock + spit
    head: list[Segment] = [Segment(f"  {total} card{'' if total == 1 else 's'} · ", plain)]
    if spit:
        head += [Segment("▒", back), Segment(f"{spit} spit", plain)]
    else:
        head.append(Segment("0 spit", dim))
    room = SIDE_W - sum(seg.cell_length for seg in head)
    if cell_len(name) > room:  # a long name: cut, so the counts stay on the line
        name = set_cell_size(name, room - 1) + "…"
    head.insert(0, Segment(name, name_style))
    width = sum(seg.cell_length for seg in head)
    pad = _pad(SIDE_W - width, base)
    lines: list[Line] = [pad + tuple(head) if right else tuple(head) + pad]
    mark = PLAYER_STYLES[p] + Style(bold=True)
    boxes = [  # face down: a back, no card
        box_lines(top, n == 0 or top is not None, False, base, mark if i == left_slot else None)
        for i, (top, n) in enumerate(zip(side.tops, side.sizes, strict=True))
    ]
    gap = _pad(COL_W - CARD_W, base)
    for i in range(3):
        line = _pad(1, base) if right else ()
        for b in boxes:
            line += b[i] + gap
        lines.append(line[:-1] if right else line)  # 30 cells: the lead replaces a gap
    cells = "".join(
        (f"{n}".center(CARD_W) if n else " " * CARD_W) + " " for n in side.sizes
    )
    counts = (" " + cells[:-1]) if right else cells
    lines.append((Segment(counts, dim),))
    return tuple(lines)


def centre_lines(scene: Scene, base: Style, marks: bool = False) -> tuple[Line, ...]:
    """The spit piles with their top cards and sizes (5 lines); each top card
    framed in the colour of the player who put it there (`marks`: with ◂ or ▸
    beside it as well, for NO_COLOR)."""
    return _centre_lines(
        scene.pile_tops, scene.pile_sizes, scene.lit, scene.owners, marks, base
    )


@lru_cache(maxsize=256)
def _centre_lines(
    tops: tuple[Card | None, ...],
    sizes: tuple[int, ...],
    lit: tuple[int, ...],
    who: tuple[Player | None, ...],
    marks: bool,
    base: Style,
) -> tuple[Line, ...]:
    plain, dim = _styles(base)[0], _styles(base)[3]
    n = len(sizes)
    half = CENTRE_W // n
    names = ["spit pile"] if n == 1 else ["pile a", "pile b"]
    lines: list[Line] = [(Segment("".join(name.center(half) for name in names), dim),)]
    boxes = [
        box_lines(
            top, True, i in lit, base,
            PLAYER_STYLES[who[i]] if top is not None and who[i] is not None else None,  # type: ignore[index]
        )
        for i, top in enumerate(tops)
    ]
    lead = (half - CARD_W) // 2
    tail = half - CARD_W - lead
    for r in range(3):
        line: Line = ()
        for i, b in enumerate(boxes):
            owner = who[i] if sizes[i] else None
            left, right = _pad(lead, base), _pad(tail, base)
            if marks and r == 1 and owner is Player.LEFT:
                left = (*_pad(lead - 1, base), Segment(MARKS[0], plain))
            elif marks and r == 1 and owner is Player.RIGHT:
                right = (Segment(MARKS[1], plain), *_pad(tail - 1, base))
            line += left + b[r] + right
        lines.append(line)
    counts = [f"{k} card{'s' if k != 1 else ''}" for k in sizes]
    lines.append((Segment("".join(s.center(half) for s in counts), plain),))
    return tuple(lines)


def computer_seats(scene: Scene) -> tuple[str | None, str | None]:
    """What each half shows where its keys would be: for the computer's half its
    name and level ("COMPUTER · hard"), None for a person's half (the keys)."""
    out: list[str | None] = []
    for p in (Player.LEFT, Player.RIGHT):
        level = scene.computer[p]
        name = player_name(p, scene)
        out.append(None if level is None else f"{name} · {level}" if level else name)
    return out[0], out[1]


@lru_cache(maxsize=32)
def keys_lines(
    keys: KeyMap,
    phase: Phase,
    single: bool,
    manual_flip: bool,
    base: Style,
    seats: tuple[str | None, str | None] = (None, None),
    waiting: bool = False,
) -> tuple[Line, ...]:
    """The keys under each player's stockpiles, from the players' key map, and
    between them what each key row does now. A half the computer plays has no
    keys to press: it shows `seats` (its name and level) on the first row instead."""
    rows = shown_rows(manual_flip)
    out = []
    for i, row in enumerate(rows):
        legend = Text(f"◂ {row_legend(phase, single, row, waiting)} ▸".center(CENTRE_W), DIM)
        halves = [
            key_line(keys, phase, row, p) if seat is None else seat_line(seat if i == 0 else "", p)
            for p, seat in zip((Player.LEFT, Player.RIGHT), seats, strict=True)
        ]
        out.append(halves[0] + to_line(legend, CENTRE_W) + halves[1])
    return styled(out, base)


def seat_line(text: str | None, p: Player) -> Line:
    """The computer's half of a key row: its name and level in its colour, no keys."""
    right = p is Player.RIGHT
    words = text or ""
    line = Text(f"{words} " if right else f" {words}", PLAYER_STYLES[p])
    line.truncate(SIDE_W)
    return to_line(line, SIDE_W, right)


def key_line(keys: KeyMap, phase: Phase, row: Row, p: Player) -> Line:
    dim_fill = phase in (Phase.SLAP, Phase.OVER)
    line = Text(" " if p is Player.RIGHT else "")
    style = DIM if dim_fill and row in (Row.FILL, Row.FLIP) else PLAYER_STYLES[p]
    for slot in range(SLOTS):
        line.append(f" [{keys.label_for(p, row, slot)}] "[:CARD_W], style)
        line.append(" " * (COL_W - CARD_W))
    line.truncate(SIDE_W)
    return to_line(line, SIDE_W)


_MESSAGE_STYLE = {
    Outcome.ILLEGAL: Style(color="red", bold=True),
    Outcome.LOST_RACE: Style(color="yellow", bold=True),
    Outcome.IGNORED: Style(color="bright_black"),
}
_MESSAGE_MARK = {Outcome.ILLEGAL: "✗ ", Outcome.LOST_RACE: "⚡ ", Outcome.IGNORED: "· "}
_NO_MESSAGE = (_blank(MESSAGE_W),)


def message_lines(scene: Scene, p: Player, base: Style) -> tuple[Line, ...]:
    """Why the player's last key was refused, on one line of their half (every
    message is written to fit: tests/app/test_words.py)."""
    m = scene.messages[p]
    if m is None:
        return _message_lines("", Outcome.APPLIED, p, base)
    return _message_lines(m.text, m.kind, p, base)


@lru_cache(maxsize=128)
def _message_lines(text: str, kind: Outcome, p: Player, base: Style) -> tuple[Line, ...]:
    if not text:
        return styled(list(_NO_MESSAGE), base)
    t = Text(_MESSAGE_MARK.get(kind, "") + text, _MESSAGE_STYLE.get(kind, ""))
    t.truncate(MESSAGE_W - 1, overflow="ellipsis")
    return styled([to_line(t, MESSAGE_W, p is Player.RIGHT)], base)


class BoardView(LinesView):
    """The whole table in one widget: the tug-of-war bar, both players'
    stockpiles with the spit piles between them, the feed by the piles, the
    keys under them (with what each row does now), and each player's message.
    A key press repaints only the lines it changed. `bar=False` leaves the bar
    out (the help's small boards)."""

    def __init__(
        self, scene: Scene, *, id: str | None = None, classes: str | None = None, bar: bool = True
    ) -> None:
        super().__init__(scene, id=id, classes=classes)
        self.bar = bar

    @property
    def marks(self) -> bool:
        """Markers beside the cards instead of colours (NO_COLOR)."""
        try:
            return bool(getattr(self.app, "no_color", False))
        except Exception:  # no app yet (drawn outside one)
            return False

    @property
    def keys(self) -> KeyMap:
        """The players' keys, as the app holds them (US QWERTY outside an app):
        the app's `use_keys` redraws every board when they change."""
        try:
            keys = getattr(self.app, "keymap", US)
        except Exception:  # no app yet (drawn outside one)
            return US
        return keys if isinstance(keys, KeyMap) else US

    def state(self) -> object:
        s = self.scene
        return (
            s.sides, s.pile_tops, s.pile_sizes, s.lit, s.left_slot, s.phase, s.options,
            s.messages, s.feed,
            s.owners, s.trend, s.scores, s.names, s.computer, s.pings, s.away, s.waiting,
            s.room_wins, s.watchers,
            self.keys,
        )

    def lines(self) -> list[Line]:
        s = self.scene
        base = self.base
        marks = self.marks
        left = side_lines(s, Player.LEFT, base)
        right = side_lines(s, Player.RIGHT, base)
        centre = centre_lines(s, base, marks)
        ml, mr = message_lines(s, Player.LEFT, base), message_lines(s, Player.RIGHT, base)
        rows = [bar_line(s, base, BOARD_W, marks)] if self.bar else []
        rows += [left[i] + centre[i] + right[i] for i in range(5)]
        rows += feed_lines(s, base, SIDE_W, CENTRE_W)
        rows += keys_lines(
            self.keys, s.phase, s.single_pile, s.options.manual_flip, base, computer_seats(s),
            s.away is not None,
        )
        pings = ping_words(s)
        rows.append(_blank_line(base) if pings is None else _ping_line(pings, base))
        rows.append(ml[0] + mr[0])
        return rows


def ping_words(scene: Scene) -> tuple[str, str] | None:
    """Each seat's round trip to a host, in words (None at one keyboard); a
    seat the game waits for is away, not a number of ms old."""
    if scene.pings is None:
        return None
    left, right = (
        f"{scene.names[p]} away" if scene.waiting == scene.names[p]
        else f"{scene.names[p]} ping {'…' if ms is None else f'{ms} ms'}"
        for p, ms in zip(Player, scene.pings, strict=True)
    )
    if scene.room_wins is not None:  # a room that lasts: its games so far
        left += f" · match {scene.room_wins[0]} : {scene.room_wins[1]}"
    if scene.watchers:
        right = f"{scene.watchers} watching · {right}"
    return left, right


@lru_cache(maxsize=4)
def _blank_line(base: Style) -> Line:
    return styled([_BLANK_LINE], base)[0]


@lru_cache(maxsize=64)
def _ping_line(pings: tuple[str, str], base: Style) -> Line:
    """Each seat's round trip to the host, under its half (a remote game)."""
    left = Text(pings[0], DIM)
    right = Text(pings[1], DIM)
    return styled([to_line(left, MESSAGE_W) + to_line(right, MESSAGE_W, True)], base)[0]
