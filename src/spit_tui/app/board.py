"""The board: the tug-of-war bar, both players' stockpiles with the spit piles
between them, the feed by the piles, the keys under them and each player's
messages, drawn as one widget from a Scene (line by line, from cached strips,
so a key press repaints a few lines only). Each player's colour marks their
name, their keys and the cards they put on a pile; the markers ◂ (LEFT) and ▸
(RIGHT) beside the piles say whose card is on top without colour (under
NO_COLOR, with --marks, and always on large cards). The look (spit_tui/look.py)
decides the palette, the suits' colours and the card size; the size is chosen
from the terminal's size."""

from __future__ import annotations

from functools import lru_cache

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from rich.style import Style
from rich.text import Text

from spit_tui.app.cards import BACK, card_box
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
from spit_tui.look import DEFAULT_LOOK, SMALL, CardSize, Look, card_size
from spit_tui.players.view import SideView
from spit_tui.scene import Outcome, Scene

# the small board's measures (80x24): five stockpile columns of six cells a side
SIDE_W = SMALL.side_w
CENTRE_W = SMALL.centre_w
BOARD_W = SMALL.board_w
MESSAGE_W = BOARD_W // 2


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
    c: Card | None,
    face_up: bool,
    highlight: bool,
    base: Style,
    edge: Style | None = None,
    four: bool = False,
    size: CardSize = SMALL,
) -> tuple[Line, ...]:
    """A card's lines as segments in the widget's colours, made once per look."""
    box = card_box(c, face_up=face_up, highlight=highlight, edge=edge, four=four, size=size)
    return styled(list(box), base)


def _blank(n: int) -> Line:
    return (Segment(" " * n),) if n > 0 else ()


@lru_cache(maxsize=16)
def _styles(base: Style) -> tuple[Style, Style, Style, Style]:
    """base, LEFT's and RIGHT's colours and dim, over the widget's colours."""
    return base, base + PLAYER_STYLES[0], base + PLAYER_STYLES[1], base + DIM


BOLD = Style(bold=True)


@lru_cache(maxsize=16)
def _pad(n: int, base: Style) -> Line:
    return (Segment(" " * n, base),) if n > 0 else ()


def side_lines(
    scene: Scene, p: Player, base: Style, four: bool = False, size: CardSize = SMALL
) -> tuple[Line, ...]:
    """One player's name and card counts, five stockpiles and their sizes (5
    lines on small cards, 7 on large); the stockpile a card just left is framed
    in the player's colour while the pile it went to is lit, so a fast play
    shows where it came from."""
    left = scene.left_slot
    slot = left[1] if left is not None and left[0] is p else None
    return _side_lines(scene.sides[p], p, base, player_name(p, scene), slot, four, size)


@lru_cache(maxsize=64)
def _side_lines(
    side: SideView,
    p: Player,
    base: Style,
    name: str,
    left_slot: int | None = None,
    four: bool = False,
    size: CardSize = SMALL,
) -> tuple[Line, ...]:
    # Built straight from segments (no Rich text): this runs on every play.
    right = p is Player.RIGHT
    styles = _styles(base)
    plain, dim, name_style = styles[0], styles[3], styles[1 + p]
    back = base + BACK
    spit = side.spit
    total = side.stock + spit
    head: list[Segment] = [Segment(f"  {total} card{'' if total == 1 else 's'} · ", plain)]
    if spit:
        head += [Segment("▒", back), Segment(f"{spit} spit", plain)]
    else:
        head.append(Segment("0 spit", dim))
    side_w, card_w, gap_w = size.side_w, size.card_w, size.col_w - size.card_w
    room = side_w - sum(seg.cell_length for seg in head)
    if cell_len(name) > room:  # a long name: cut, so the counts stay on the line
        name = set_cell_size(name, room - 1) + "…"
    head.insert(0, Segment(name, name_style))
    width = sum(seg.cell_length for seg in head)
    pad = _pad(side_w - width, base)
    lines: list[Line] = [pad + tuple(head) if right else tuple(head) + pad]
    mark = PLAYER_STYLES[p] + BOLD  # (a new Style costs ~5 us; this runs on every play)
    boxes = [  # face down: a back, no card
        box_lines(
            top, n == 0 or top is not None, False, base, mark if i == left_slot else None,
            four, size,
        )
        for i, (top, n) in enumerate(zip(side.tops, side.sizes, strict=True))
    ]
    gap = _pad(gap_w, base)
    for i in range(size.card_h):
        line = gap if right else ()
        for b in boxes:
            line += b[i] + gap
        lines.append(line[:-1] if right else line)  # side_w cells: the lead replaces a gap
    cells = "".join(
        (f"{n}".center(card_w) if n else " " * card_w) + " " * gap_w for n in side.sizes
    )
    counts = (" " * gap_w + cells[:-gap_w]) if right else cells
    lines.append((Segment(counts, dim),))
    return tuple(lines)


def centre_lines(
    scene: Scene, base: Style, marks: bool = False, four: bool = False, size: CardSize = SMALL
) -> tuple[Line, ...]:
    """The spit piles with their top cards and sizes (5 lines; 7 on large
    cards); each top card framed in the colour of the player who put it there
    (`marks`: with ◂ or ▸ beside it as well, for NO_COLOR or --marks)."""
    return _centre_lines(
        scene.pile_tops, scene.pile_sizes, scene.lit, scene.owners, marks, base, four, size
    )


@lru_cache(maxsize=256)
def _centre_lines(
    tops: tuple[Card | None, ...],
    sizes: tuple[int, ...],
    lit: tuple[int, ...],
    who: tuple[Player | None, ...],
    marks: bool,
    base: Style,
    four: bool = False,
    size: CardSize = SMALL,
) -> tuple[Line, ...]:
    styles = _styles(base)
    plain, dim = styles[0], styles[3]
    n = len(sizes)
    card_w = size.card_w
    half = size.centre_w // n
    names = ["spit pile"] if n == 1 else ["pile a", "pile b"]
    lines: list[Line] = [(Segment("".join(name.center(half) for name in names), dim),)]
    boxes = [
        box_lines(
            top, True, i in lit, base,
            PLAYER_STYLES[who[i]] if top is not None and who[i] is not None else None,  # type: ignore[index]
            four, size,
        )
        for i, top in enumerate(tops)
    ]
    lead = (half - card_w) // 2
    tail = half - card_w - lead
    mid = size.card_h // 2
    for r in range(size.card_h):
        line: Line = ()
        for i, b in enumerate(boxes):
            owner = who[i] if sizes[i] else None
            left, right = _pad(lead, base), _pad(tail, base)
            if marks and r == mid and owner is Player.LEFT:
                left = (*_pad(lead - 1, base), Segment(MARKS[0], plain))
            elif marks and r == mid and owner is Player.RIGHT:
                right = (Segment(MARKS[1], plain), *_pad(tail - 1, base))
            line += left + b[r] + right
        lines.append(line)
    counts = [f"{k} card{'s' if k != 1 else ''}" for k in sizes]
    lines.append((Segment("".join(s.center(half) for s in counts), plain),))
    return tuple(lines)


def computer_seats(scene: Scene) -> tuple[str | None, str | None]:
    """What each half shows where its keys would be: for the computer's half its
    name and level ("COMPUTER · hard"); for a half played at another keyboard
    (the other seat's, at a seat; both, to a watcher) its player's name, as
    their keys are their own ("ben · their keys"); None for a half whose keys
    this screen labels."""
    out: list[str | None] = []
    for p in (Player.LEFT, Player.RIGHT):
        level = scene.computer[p]
        name = player_name(p, scene)
        if level is None:
            short = name if len(name) <= 16 else name[:15] + "…"  # the words fit a half
            out.append(None if scene.keyed[p] else f"{short} · their keys")
        else:
            out.append(f"{name} · {level}" if level else name)
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
    size: CardSize = SMALL,
) -> tuple[Line, ...]:
    """The keys under each player's stockpiles, from the players' key map, and
    between them what each key row does now. A half the computer plays has no
    keys to press: it shows `seats` (its name and level) on the first row instead."""
    rows = shown_rows(manual_flip)
    out = []
    for i, row in enumerate(rows):
        centre_w = size.centre_w
        legend = Text(f"◂ {row_legend(phase, single, row, waiting)} ▸".center(centre_w), DIM)
        halves = [
            key_line(keys, phase, row, p, size) if seat is None
            else seat_line(seat if i == 0 else "", p, size.side_w)
            for p, seat in zip((Player.LEFT, Player.RIGHT), seats, strict=True)
        ]
        out.append(halves[0] + to_line(legend, centre_w) + halves[1])
    return styled(out, base)


def seat_line(text: str | None, p: Player, side_w: int = SIDE_W) -> Line:
    """The computer's half of a key row: its name and level in its colour, no keys."""
    right = p is Player.RIGHT
    words = text or ""
    line = Text(f"{words} " if right else f" {words}", PLAYER_STYLES[p])
    line.truncate(side_w)
    return to_line(line, side_w, right)


def key_line(keys: KeyMap, phase: Phase, row: Row, p: Player, size: CardSize = SMALL) -> Line:
    """One row of a player's keys, each under its stockpile's card."""
    dim_fill = phase in (Phase.SLAP, Phase.OVER)
    w, gap = size.card_w, size.col_w - size.card_w
    line = Text(" " * gap if p is Player.RIGHT else "")
    style = DIM if dim_fill and row in (Row.FILL, Row.FLIP) else PLAYER_STYLES[p]
    lead = " " * ((w - 3) // 2)
    for slot in range(SLOTS):
        line.append(f"{lead}[{keys.label_for(p, row, slot)}]".ljust(w)[:w], style)
        line.append(" " * gap)
    line.truncate(size.side_w)
    return to_line(line, size.side_w)


_MESSAGE_STYLE = {
    Outcome.ILLEGAL: Style(color="red", bold=True),
    Outcome.LOST_RACE: Style(color="yellow", bold=True),
    Outcome.IGNORED: Style(color="bright_black"),
}
_MESSAGE_MARK = {Outcome.ILLEGAL: "✗ ", Outcome.LOST_RACE: "⚡ ", Outcome.IGNORED: "· "}
def message_lines(
    scene: Scene, p: Player, base: Style, width: int = MESSAGE_W
) -> tuple[Line, ...]:
    """Why the player's last key was refused, on one line of their half, `width`
    cells (every message is written to fit the small board: tests/app/test_words.py)."""
    m = scene.messages[p]
    if m is None:
        return _message_lines("", Outcome.APPLIED, p, base, width)
    return _message_lines(m.text, m.kind, p, base, width)


@lru_cache(maxsize=128)
def _message_lines(
    text: str, kind: Outcome, p: Player, base: Style, width: int = MESSAGE_W
) -> tuple[Line, ...]:
    if not text:
        return styled([_blank(width)], base)
    t = Text(_MESSAGE_MARK.get(kind, "") + text, _MESSAGE_STYLE.get(kind, ""))
    t.truncate(width - 1, overflow="ellipsis")
    return styled([to_line(t, width, p is Player.RIGHT)], base)


class BoardView(LinesView):
    """The whole table in one widget: the tug-of-war bar, both players'
    stockpiles with the spit piles between them, the feed by the piles, the
    keys under them (with what each row does now), and each player's message.
    A key press repaints only the lines it changed. `bar=False` leaves the bar
    out and keeps the cards small (the help's small boards, 80 columns wide)."""

    def __init__(
        self, scene: Scene, *, id: str | None = None, classes: str | None = None, bar: bool = True
    ) -> None:
        super().__init__(scene, id=id, classes=classes)
        self.bar = bar

    def drawn_look(self) -> tuple[Look, CardSize, bool]:
        """The look the app was given (the default outside an app), the card size
        for the terminal's size as it is now (spit_tui.look; always small on a
        help page's board, in the help's 80 columns), and whether the markers
        go beside the cards as well as colours: under NO_COLOR, with --marks,
        and on large cards (they have the room). One look at the app: this runs
        on every key."""
        try:
            app = self.app
        except Exception:  # no app yet (drawn outside one)
            return DEFAULT_LOOK, SMALL, False
        look = getattr(app, "look", DEFAULT_LOOK)
        if not isinstance(look, Look):
            look = DEFAULT_LOOK
        size = card_size(look.cards, *app.size) if self.bar else SMALL
        marks = look.marks or size is not SMALL or bool(getattr(app, "no_color", False))
        return look, size, marks

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
            s.owners, s.trend, s.scores, s.names, s.computer, s.keyed, s.pings, s.held, s.away,
            s.waiting,
            s.room_wins, s.watchers,
            self.keys, self.drawn_look(),
        )

    def lines(self) -> list[Line]:
        s = self.scene
        base = self.base
        look, size, marks = self.drawn_look()
        four = look.four_colours
        board_w, half = size.board_w, size.board_w // 2
        left = side_lines(s, Player.LEFT, base, four, size)
        right = side_lines(s, Player.RIGHT, base, four, size)
        centre = centre_lines(s, base, marks, four, size)
        ml = message_lines(s, Player.LEFT, base, half)
        mr = message_lines(s, Player.RIGHT, base, half)
        space = [_blank_line(base, board_w)] if size.spaced else []
        rows = [bar_line(s, base, board_w, marks), *space] if self.bar else []
        rows += [left[i] + centre[i] + right[i] for i in range(len(centre))]
        rows += space
        rows += feed_lines(s, base, size.side_w, size.centre_w, four)
        rows += space
        rows += keys_lines(
            self.keys, s.phase, s.single_pile, s.options.manual_flip, base, computer_seats(s),
            s.held or s.away is not None, size,
        )
        pings = ping_words(s)
        rows.append(_blank_line(base, board_w) if pings is None else _ping_line(pings, base, half))
        rows.append(ml[0] + mr[0])
        return rows


def ping_words(scene: Scene) -> tuple[str, str] | None:
    """Each seat's round trip to a host, in words (None at one keyboard); a
    seat the game waits for is away, not a number of ms old; a seat the host's
    computer plays has no line to measure: its name only."""
    if scene.pings is None:
        return None
    left, right = (
        f"{scene.names[p]} away" if scene.waiting == scene.names[p]
        else scene.names[p] if scene.computer[p] is not None  # the host's computer: no line
        else f"{scene.names[p]} ping {'…' if ms is None else f'{ms} ms'}"
        for p, ms in zip(Player, scene.pings, strict=True)
    )
    if scene.room_wins is not None:  # a room that lasts: its games so far
        left += f" · match {scene.room_wins[0]} : {scene.room_wins[1]}"
    if scene.watchers:
        right = f"{scene.watchers} watching · {right}"
    return left, right


@lru_cache(maxsize=8)
def _blank_line(base: Style, width: int = BOARD_W) -> Line:
    return styled([_blank(width)], base)[0]


@lru_cache(maxsize=64)
def _ping_line(pings: tuple[str, str], base: Style, half: int = MESSAGE_W) -> Line:
    """Each seat's round trip to the host, under its half (a remote game)."""
    left = Text(pings[0], DIM)
    right = Text(pings[1], DIM)
    return styled([to_line(left, half) + to_line(right, half, True)], base)[0]
