"""The lines around the board: the header (variant, round, clock, keys) and the
points variant's scoreboard."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text

from spit_tui.app.views import DIM, NAME_STYLE, TableView, player_name
from spit_tui.clock import clock_text
from spit_tui.engine import Phase, Player, Variant
from spit_tui.table import Table


class HeaderBar(TableView):
    """Variant, round and the round clock (play only: `Table.round_play_seconds`)
    on the left; the non-game keys on the right,
    or for a moment a hint about a key that does nothing (Space, Enter, ?). The
    hint is timed on the game clock, like everything else: it waits while the
    game is paused, and tests step it."""

    def __init__(self, table: Table, *, id: str | None = None):
        super().__init__(table, id=id)
        self.hint = ""
        self.hint_until = 0.0  # game clock time

    def show_hint(self, text: str, seconds: float = 2.5) -> None:
        clock = self.table.clock
        self.hint = text
        self.hint_until = clock.now() + seconds
        clock.call_later(seconds, self.sync)
        self.sync()

    def _hint(self) -> str:
        return self.hint if self.hint and self.table.clock.now() < self.hint_until else ""

    def state(self) -> object:
        t = self.table
        since = int(t.round_play_seconds())
        return (t.position.round, t.position.phase, t.game.options, since, self._hint())

    def render(self) -> Text:
        t = self.table
        o = t.game.options
        variant = "standard" if o.variant is Variant.STANDARD else f"points to {o.target}"
        pos = t.position
        over = pos.phase is Phase.OVER
        elapsed = "" if over else " · " + clock_text(t.round_play_seconds())
        hint = self._hint()
        right = Text(hint + " ", "bold yellow") if hint else Text(
            "F1 help · Ctrl+Q quit ", DIM
        )
        width = self.size.width or 80
        flip = " · manual flip" if o.manual_flip else ""
        parts = [f" · {variant} · round {pos.round}{elapsed}{flip}",
                 f" · {variant} · round {pos.round}{elapsed}",
                 f" · round {pos.round}{elapsed}"]
        # The longest left part that leaves room for the right one: a hint is
        # never cut, so the variant and the flip go first (both stay in help).
        tail = next((x for x in parts if 9 + len(x) + right.cell_len + 1 <= width), parts[-1])
        left = Text()
        left.append(" spit-tui", Style(bold=True, color="yellow"))
        left.append(tail)
        if not hint and left.cell_len + right.cell_len + 1 > width:
            right = Text("F1 help ", DIM)  # keep the one key to learn
        gap = max(1, width - left.cell_len - right.cell_len)
        line = left + Text(" " * gap) + right
        line.truncate(width)  # never a second line: the header is one row
        return line


class Scoreboard(TableView):
    """The points variant's running score, one column per round (latest rounds)."""

    def state(self) -> object:
        t = self.table
        return (len(t.rounds), t.position.scores, t.game.options.variant, t.names)

    def render(self) -> Text:
        t = self.table
        if t.game.options.variant is not Variant.POINTS:
            return Text("")
        rounds = t.rounds[-10:]
        first = len(t.rounds) - len(rounds) + 1
        head = Text("round    ", DIM)
        for i in range(len(rounds)):
            head.append(f"{first + i:>4}", DIM)
        head.append("   total", DIM)
        head.append(f"  (lowest wins at {t.game.options.target})", DIM)
        lines = [head]
        scores = t.position.scores
        for p in (Player.LEFT, Player.RIGHT):
            line = Text(f"{player_name(p, t):<9}", NAME_STYLE)
            for r in rounds:
                line.append(f"{r.round_points[p]:>4}")
            line.append(f"{scores[p]:>8}", NAME_STYLE)
            lines.append(line)
        return Text("\n").join(lines)
