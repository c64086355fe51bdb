"""The board's widgets. Each one is a view of a `Table`: it keeps no game state,
only the last "state key" it drew, and repaints when that key changes, so a key
press repaints two or three small widgets and nothing else."""

from __future__ import annotations

import time
from functools import lru_cache

from rich.console import Console
from rich.style import Style
from rich.text import Text
from textual.geometry import Region, Size
from textual.strip import Strip
from textual.widget import Widget

from spit_tui.app.cards import BACK, CARD_W, card_box
from spit_tui.engine import SLOTS, Card, Phase, Player, Side, Variant
from spit_tui.players.keymap import Row, key_for, label
from spit_tui.table import Outcome, Table

SIDE_W = 30  # five stockpile columns of six cells
MESSAGE_W = 40
CENTRE_W = 20
COL_W = 6

KEY_STYLE = Style(color="cyan", bold=True)
DIM = Style(dim=True)
NAME_STYLE = Style(bold=True)


def player_name(p: Player) -> str:
    return p.label.upper()


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


class TableView(Widget):
    """A widget drawn from a Table; `sync()` repaints it only if its state changed."""

    DEFAULT_CSS = "TableView { height: auto; }"

    def __init__(self, table: Table, *, id: str | None = None, classes: str | None = None):
        super().__init__(id=id, classes=classes)
        self.table = table
        self._state: object = None

    def state(self) -> object:
        raise NotImplementedError

    def sync(self) -> None:
        s = self.state()
        if s != self._state:
            self._state = s
            self.changed()

    def changed(self) -> None:
        self.refresh()

    def set_table(self, table: Table) -> None:
        self.table = table
        self._state = None
        self.sync()


class LinesView(TableView):
    """A TableView drawn line by line from cached strips (Textual's line API).

    Turning Rich text into strips once per change, and handing the compositor
    ready strips, keeps a key press to well under a millisecond of drawing.
    """

    def __init__(self, table: Table, *, id: str | None = None, classes: str | None = None):
        super().__init__(table, id=id, classes=classes)
        self._strips: list[Strip] | None = None
        self._strips_width = -1

    def lines(self) -> list[Text | Strip]:
        raise NotImplementedError

    def changed(self) -> None:
        """Repaint only the lines that differ from what is on screen."""
        old = self._strips
        self._strips = None
        width = self.size.width
        if old is None or width <= 0 or not self.is_mounted:
            self.refresh()
            return
        new = self._get_strips(width)
        if len(new) != len(old):
            self.refresh(layout=True)
            return
        pairs = enumerate(zip(old, new, strict=True))
        dirty = [Region(0, y, width, 1) for y, (a, b) in pairs if a != b]
        if dirty:
            self.refresh(*dirty)

    def render(self) -> Text:  # the plain text, for tools and tests
        return Text("\n".join(s.text for s in self._get_strips(self.size.width or 80)))

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self.lines())

    def _get_strips(self, width: int) -> list[Strip]:
        if self._strips is None or self._strips_width != width:
            base = self.rich_style
            strips = []
            for line in self.lines():
                strip = line if isinstance(line, Strip) else to_strip(line)
                strips.append(strip.adjust_cell_length(width).apply_style(base))
            self._strips = strips
            self._strips_width = width
        return self._strips

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        strips = self._get_strips(width)
        if y < len(strips):
            return strips[y]
        return Strip.blank(width, self.rich_style)


@lru_cache(maxsize=1)
def _console() -> Console:
    """A console only for turning text into segments (styles, widths)."""
    return Console(width=200, color_system="truecolor", legacy_windows=False)


def to_strip(text: Text) -> Strip:
    text.end = ""
    return Strip(list(text.render(_console())), text.cell_len)


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
    wrapped = list(text.wrap(_console(), MESSAGE_W - 1))[:2]
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


def clock_text(seconds: float) -> str:
    s = int(seconds)
    return f"{s // 60}:{s % 60:02d}"


class HeaderBar(TableView):
    """Variant, round and round time on the left; the non-game keys on the right,
    or for a moment a hint about a key that does nothing (Space, Enter, ?)."""

    def __init__(self, table: Table, *, id: str | None = None):
        super().__init__(table, id=id)
        self.hint = ""
        self.hint_until = 0.0  # time.monotonic()

    def show_hint(self, text: str, seconds: float = 2.5) -> None:
        self.hint = text
        self.hint_until = time.monotonic() + seconds
        self.sync()

    def _hint(self) -> str:
        return self.hint if self.hint and time.monotonic() < self.hint_until else ""

    def state(self) -> object:
        t = self.table
        since = int(t.clock.now() - t.round_started_at)
        return (t.position.round, t.position.phase, t.game.options, since, self._hint())

    def render(self) -> Text:
        t = self.table
        o = t.game.options
        variant = "standard" if o.variant is Variant.STANDARD else f"points to {o.target}"
        pos = t.position
        if pos.phase is Phase.OVER:
            elapsed = ""
        else:
            elapsed = " · " + clock_text(t.clock.now() - t.round_started_at)
        left = Text()
        left.append(" spit-tui", Style(bold=True, color="yellow"))
        left.append(f" · {variant} · round {pos.round}{elapsed}")
        if o.manual_flip:
            left.append(" · manual flip")
        hint = self._hint()
        right = Text(hint + " ", "bold yellow") if hint else Text(
            "F1 help · Ctrl+Q quit ", DIM
        )
        width = self.size.width or 80
        gap = max(1, width - left.cell_len - right.cell_len)
        return left + Text(" " * gap) + right


class Scoreboard(TableView):
    """The points variant's running score, one column per round (latest rounds)."""

    def state(self) -> object:
        t = self.table
        return (len(t.rounds), t.position.scores, t.game.options.variant)

    def render(self) -> Text:
        t = self.table
        if t.game.options.variant is not Variant.POINTS:
            return Text("")
        rounds = t.rounds[-10:]
        first = len(t.rounds) - len(rounds) + 1
        head = Text("round   ", DIM)
        for i in range(len(rounds)):
            head.append(f"{first + i:>4}", DIM)
        head.append("   total", DIM)
        head.append(f"  (lowest wins at {t.game.options.target})", DIM)
        lines = [head]
        scores = t.position.scores
        for p in (Player.LEFT, Player.RIGHT):
            line = Text(f"{player_name(p):<8}", NAME_STYLE)
            for r in rounds:
                line.append(f"{r.round_points[p]:>4}")
            line.append(f"{scores[p]:>8}", NAME_STYLE)
            lines.append(line)
        return Text("\n").join(lines)
