"""The board: both players' stockpiles with the spit piles between them, the
keys under them and each player's messages, drawn as one widget from the Table
(line by line, from cached strips, so a key press repaints a few lines only)."""

from __future__ import annotations

from functools import lru_cache

from rich.style import Style
from rich.text import Text
from textual.strip import Strip

from spit_tui.app.cards import BACK, CARD_W, card_box
from spit_tui.app.views import DIM, NAME_STYLE, LinesView, player_name, text_console, to_strip
from spit_tui.engine import SLOTS, Card, Phase, Player, Side
from spit_tui.players.keymap import Row, key_for, label
from spit_tui.table import Outcome, Table

SIDE_W = 30  # five stockpile columns of six cells
MESSAGE_W = 40
CENTRE_W = 20
COL_W = 6

KEY_STYLE = Style(color="cyan", bold=True)


def shown_rows(manual_flip: bool) -> list[Row]:
    """The key rows drawn under the stockpiles (flip only when manual flip is on)."""
    rows = [Row.PILE_A, Row.PILE_B, Row.FILL]
    if manual_flip:
        rows.insert(0, Row.FLIP)
    return rows


def row_legend(phase: Phase, single_pile: bool, row: Row) -> str:
    """What a key row does now: the same row means the same pile in every phase."""
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
def box_strips(c: Card | None, face_up: bool, highlight: bool) -> tuple[Strip, ...]:
    """A card's three lines as strips, made once per card and look."""
    return tuple(to_strip(t) for t in card_box(c, face_up=face_up, highlight=highlight))


_GAP = Strip.blank(COL_W - CARD_W)
_BLANK_LINE = Strip.blank(SIDE_W * 2 + CENTRE_W)
_LEAD = Strip.blank(1)


def _pad(text: Text, width: int, right: bool) -> Text:
    text.truncate(width)
    pad = width - text.cell_len
    if pad > 0:
        if right:
            text = Text(" " * pad) + text
        else:
            text.append(" " * pad)
    return text


def _fit(line: Text | Strip, width: int, right: bool = False) -> Strip:
    strip = line if isinstance(line, Strip) else to_strip(line)
    if right and strip.cell_length < width:
        strip = Strip.join([Strip.blank(width - strip.cell_length), strip])
    return strip.adjust_cell_length(width)


def side_lines(table: Table, p: Player) -> tuple[Strip, ...]:
    """One player's name and card counts, five stockpiles and their sizes (5 lines)."""
    return _side_lines(table.position.sides[p], p)


@lru_cache(maxsize=64)
def _side_lines(side: Side, p: Player) -> tuple[Strip, ...]:
    right = p is Player.RIGHT
    head = Text()
    head.append(player_name(p), NAME_STYLE)
    head.append(f"  {side.total} card{'' if side.total == 1 else 's'}")
    head.append(" · ")
    if side.spit:
        head.append("▒", BACK)
    head.append(f"{len(side.spit)} spit", DIM if not side.spit else "")
    lines = [_fit(head, SIDE_W, right)]
    boxes = [box_strips(s.cards[-1] if s.cards else None, s.up, False) for s in side.slots]
    for i in range(3):
        parts = [_LEAD] if right else []
        for b in boxes:
            parts += (b[i], _GAP)
        lines.append(_fit(Strip.join(parts), SIDE_W))
    counts = Text(" " if right else "")
    for s in side.slots:
        n = len(s.cards)
        counts.append(f"{n}".center(CARD_W) if n else " " * CARD_W, DIM)
        counts.append(" " * (COL_W - CARD_W))
    lines.append(_fit(counts, SIDE_W))
    return tuple(lines)


def lit_piles(table: Table) -> tuple[int, ...]:
    """Piles whose top card just landed (highlighted for a moment)."""
    ev = table.last_event
    if ev is None or table.highlight_until <= table.clock.now():
        return ()
    pos = table.position
    if ev.spat:
        return tuple(i for i, _ in ev.spat)
    if ev.card is not None and hasattr(ev.action, "pile"):
        pile = getattr(ev.action, "pile", 0)
        if pile < len(pos.piles) and pos.pile_top(pile) == ev.card:
            return (pile,)
    return ()


def centre_lines(table: Table) -> tuple[Strip, ...]:
    """The spit piles with their top cards and sizes (5 lines)."""
    return _centre_lines(table.position.piles, lit_piles(table))


@lru_cache(maxsize=64)
def _centre_lines(piles: tuple[tuple[Card, ...], ...], lit: tuple[int, ...]) -> tuple[Strip, ...]:
    n = len(piles)
    half = CENTRE_W // n
    names = ["spit pile"] if n == 1 else ["pile a", "pile b"]
    lines = [_fit(Text("".join(name.center(half) for name in names), style=DIM), CENTRE_W)]
    boxes = [
        box_strips(pile[-1] if pile else None, True, i in lit) for i, pile in enumerate(piles)
    ]
    left = Strip.blank((half - CARD_W) // 2)
    right = Strip.blank(half - CARD_W - (half - CARD_W) // 2)
    for r in range(3):
        parts: list[Strip] = []
        for b in boxes:
            parts += (left, b[r], right)
        lines.append(_fit(Strip.join(parts), CENTRE_W))
    sizes = [f"{len(p)} card{'s' if len(p) != 1 else ''}" for p in piles]
    lines.append(_fit(Text("".join(s.center(half) for s in sizes)), CENTRE_W))
    return tuple(lines)


def keys_lines(table: Table) -> list[Strip]:
    """The keys under each player's stockpiles, from the one key table, and
    between them what each key row does now."""
    pos = table.position
    return list(_keys_lines(pos.phase, pos.single_pile, table.game.options.manual_flip))


@lru_cache(maxsize=32)
def _keys_lines(phase: Phase, single: bool, manual_flip: bool) -> tuple[Strip, ...]:
    rows = shown_rows(manual_flip)
    legend = [
        _fit(Text(f"◂ {row_legend(phase, single, row)} ▸".center(CENTRE_W), DIM), CENTRE_W)
        for row in rows
    ]
    cols = zip(
        key_lines(phase, rows, Player.LEFT), legend, key_lines(phase, rows, Player.RIGHT),
        strict=True,
    )
    return tuple(Strip.join(parts) for parts in cols)


def key_lines(phase: Phase, rows: list[Row], p: Player) -> list[Strip]:
    lead = " " if p is Player.RIGHT else ""
    dim_fill = phase in (Phase.SLAP, Phase.OVER)
    lines = []
    for row in rows:
        keys = Text(lead)
        style = DIM if dim_fill and row in (Row.FILL, Row.FLIP) else KEY_STYLE
        for slot in range(SLOTS):
            keys.append(f" [{label(key_for(p, row, slot))}] "[:CARD_W], style)
            keys.append(" " * (COL_W - CARD_W))
        lines.append(_fit(keys, SIDE_W))
    return lines


_MESSAGE_STYLE = {
    Outcome.ILLEGAL: Style(color="red", bold=True),
    Outcome.LOST_RACE: Style(color="yellow", bold=True),
    Outcome.IGNORED: Style(color="bright_black"),
}
_MESSAGE_MARK = {Outcome.ILLEGAL: "✗ ", Outcome.LOST_RACE: "⚡ ", Outcome.IGNORED: "· "}


def message_lines(table: Table, p: Player) -> list[Strip]:
    """Why the player's last key was refused, wrapped to two lines of his half."""
    m = table.message(p)
    right = p is Player.RIGHT
    if m is None:
        return [Strip.blank(MESSAGE_W)] * 2
    text = Text(_MESSAGE_MARK.get(m.kind, "") + m.text, _MESSAGE_STYLE.get(m.kind, ""))
    wrapped = list(text.wrap(text_console(), MESSAGE_W - 1))[:2]
    lines = [_fit(line, MESSAGE_W, right) for line in wrapped]
    return lines + [Strip.blank(MESSAGE_W)] * (2 - len(lines))


class BoardView(LinesView):
    """The whole table in one widget: both players' stockpiles with the spit
    piles between them, the keys under them (with what each row does now), and
    each player's messages. A key press repaints only the lines it changed."""

    def state(self) -> object:
        t = self.table
        pos = t.position
        return (
            pos.sides, pos.piles, lit_piles(t), pos.phase, t.game.options.manual_flip,
            t.message(Player.LEFT), t.message(Player.RIGHT),
        )

    def lines(self) -> list[Text | Strip]:
        t = self.table
        out: list[Text | Strip] = []
        board = zip(
            side_lines(t, Player.LEFT), centre_lines(t), side_lines(t, Player.RIGHT), strict=True
        )
        out += [Strip.join(parts) for parts in board]
        out.append(_BLANK_LINE)
        out += keys_lines(t)
        out.append(_BLANK_LINE)
        msgs = zip(message_lines(t, Player.LEFT), message_lines(t, Player.RIGHT), strict=True)
        out += [Strip.join(parts) for parts in msgs]
        return out
