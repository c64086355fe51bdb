"""The board's widgets. Each one is a view of a `Table`: it keeps no game state,
only the last "state key" it drew, and repaints when that key changes, so a key
press repaints two or three small widgets and nothing else."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.widget import Widget

from spit_tui.app.cards import CARD_W, card_box
from spit_tui.engine import SLOTS, Phase, Player, Variant
from spit_tui.players.keymap import Row, key_for, label
from spit_tui.table import Outcome, Table

SIDE_W = 30  # five stockpile columns of six cells
CENTRE_W = 20
COL_W = 6

KEY_STYLE = Style(color="cyan", bold=True)
DIM = Style(dim=True)
NAME_STYLE = Style(bold=True)


def player_name(p: Player) -> str:
    return p.label.upper()


def shown_rows(table: Table) -> list[Row]:
    """The key rows drawn under the stockpiles (flip only when manual flip is on)."""
    rows = [Row.PILE_A, Row.PILE_B, Row.FILL]
    if table.game.options.manual_flip:
        rows.insert(0, Row.FLIP)
    return rows


def row_legend(table: Table, row: Row) -> str:
    """What a key row does now: the same row means the same pile in every phase."""
    pos = table.position
    if pos.phase is Phase.SPIT:
        return "any key: spit!"
    if pos.phase is Phase.OVER:
        return "game over"
    if row is Row.FLIP:
        return "flip a card up"
    if row is Row.FILL:
        return "fill a gap"
    if pos.single_pile:
        return "on the pile"
    pile = "a" if row is Row.PILE_A else "b"
    if pos.phase is Phase.SLAP:
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
            self.refresh()

    def set_table(self, table: Table) -> None:
        self.table = table
        self._state = None
        self.sync()


def _pad(text: Text, width: int, right: bool) -> Text:
    text.truncate(width)
    pad = width - text.cell_len
    if pad > 0:
        if right:
            text = Text(" " * pad) + text
        else:
            text.append(" " * pad)
    return text


class SideView(TableView):
    """One player's five stockpiles, their sizes and the keys beneath them."""

    def __init__(self, table: Table, player: Player, *, id: str | None = None):
        super().__init__(table, id=id, classes=f"side {player.label}")
        self.player = player

    def state(self) -> object:
        pos = self.table.position
        return (pos.sides[self.player], pos.phase, pos.single_pile, self.table.game.options)

    def render(self) -> Text:
        t = self.table
        pos = t.position
        p = self.player
        side = pos.sides[p]
        right = p is Player.RIGHT
        lines: list[Text] = []
        head = Text()
        head.append(player_name(p), NAME_STYLE)
        head.append(f"  {side.total} cards")
        head.append(f" · {len(side.spit)} spit", DIM if not side.spit else "")
        lines.append(_pad(head, SIDE_W, right))
        boxes = [
            card_box(s.cards[-1] if s.cards else None, face_up=s.up) for s in side.slots
        ]
        lead = " " if right else ""
        for i in range(3):
            line = Text(lead)
            for b in boxes:
                line.append_text(b[i])
                line.append(" " * (COL_W - CARD_W))
            lines.append(_pad(line, SIDE_W, False))
        counts = Text(lead)
        for s in side.slots:
            n = len(s.cards)
            cell = f"{n}".center(CARD_W) if n else " " * CARD_W
            counts.append(cell, DIM)
            counts.append(" " * (COL_W - CARD_W))
        lines.append(_pad(counts, SIDE_W, False))
        lines.append(Text(""))
        dim_fill = pos.phase is Phase.SLAP or pos.phase is Phase.OVER
        for row in shown_rows(t):
            keys = Text(lead)
            style = DIM if dim_fill and row in (Row.FILL, Row.FLIP) else KEY_STYLE
            for slot in range(SLOTS):
                cap = label(key_for(p, row, slot))
                keys.append(f" [{cap}] "[: CARD_W], style)
                keys.append(" " * (COL_W - CARD_W))
            lines.append(_pad(keys, SIDE_W, False))
        return Text("\n").join(lines)


class CentreView(TableView):
    """The spit piles with their sizes, and what each key row does now."""

    def state(self) -> object:
        t = self.table
        return (t.position.piles, t.position.phase, self._lit(), t.game.options.manual_flip)

    def _lit(self) -> tuple[int, ...]:
        """Piles whose top card just landed (highlighted for a moment)."""
        t = self.table
        ev = t.last_event
        if ev is None or t.highlight_until <= t.clock.now():
            return ()
        pos = t.position
        if ev.spat:
            return tuple(i for i, _ in ev.spat)
        if ev.card is not None and hasattr(ev.action, "pile"):
            pile = getattr(ev.action, "pile", 0)
            if pile < len(pos.piles) and pos.pile_top(pile) == ev.card:
                return (pile,)
        return ()

    def render(self) -> Text:
        t = self.table
        pos = t.position
        lit = self._lit()
        n = len(pos.piles)
        half = CENTRE_W // n
        names = ["spit pile"] if n == 1 else ["pile a", "pile b"]
        lines = [Text("".join(name.center(half) for name in names), style=DIM)]
        boxes = [
            card_box(pile[-1] if pile else None, highlight=i in lit)
            for i, pile in enumerate(pos.piles)
        ]
        for r in range(3):
            line = Text()
            for b in boxes:
                left = (half - CARD_W) // 2
                line.append(" " * left)
                line.append_text(b[r])
                line.append(" " * (half - CARD_W - left))
            lines.append(line)
        sizes = [f"{len(p)} card{'s' if len(p) != 1 else ''}" for p in pos.piles]
        lines.append(Text("".join(s.center(half) for s in sizes)))
        lines.append(Text(""))
        for row in shown_rows(t):
            legend = f"◂ {row_legend(t, row)} ▸"
            lines.append(Text(legend.center(CENTRE_W), DIM))
        return Text("\n").join(lines)


_MESSAGE_STYLE = {
    Outcome.ILLEGAL: Style(color="red", bold=True),
    Outcome.LOST_RACE: Style(color="yellow", bold=True),
    Outcome.IGNORED: Style(color="bright_black"),
}
_MESSAGE_MARK = {Outcome.ILLEGAL: "✗ ", Outcome.LOST_RACE: "⚡ ", Outcome.IGNORED: "· "}


class MessageView(TableView):
    """Why the last key of one player was refused, beside that player, for a moment."""

    def __init__(self, table: Table, player: Player, *, id: str | None = None):
        super().__init__(table, id=id, classes=f"message {player.label}")
        self.player = player

    def state(self) -> object:
        return self.table.message(self.player)

    def render(self) -> Text:
        m = self.table.message(self.player)
        if m is None:
            return Text("")
        text = Text(_MESSAGE_MARK.get(m.kind, "") + m.text, _MESSAGE_STYLE.get(m.kind, ""))
        if self.player is Player.RIGHT:
            text.justify = "right"
        return text


def clock_text(seconds: float) -> str:
    s = int(seconds)
    return f"{s // 60}:{s % 60:02d}"


class HeaderBar(TableView):
    """Variant, round and round time on the left; the non-game keys on the right."""

    def state(self) -> object:
        t = self.table
        return (t.position.round, t.game.options, int(t.clock.now() - t.round_started_at))

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
        left.append(" SPIT", Style(bold=True, color="yellow"))
        left.append(f" · {variant} · round {pos.round}{elapsed}")
        if o.manual_flip:
            left.append(" · manual flip")
        right = Text("F1/Backspace help · Ctrl+Q quit ", DIM)
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
