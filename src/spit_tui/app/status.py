"""The lines around the board: the header (variant, round, clock, keys) and the
points variant's scoreboard."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text

from spit_tui.app.modes import SETTINGS_KEY_LABEL
from spit_tui.app.views import DIM, NAME_STYLE, SceneView, player_name
from spit_tui.clock import GameClock, clock_text
from spit_tui.engine import Phase, Player, Variant
from spit_tui.scene import Scene


class HeaderBar(SceneView):
    """Variant, round and the round clock (play only: the Scene's `round_s`)
    on the left; the non-game keys on the right,
    or for a moment a hint about a key that does nothing (Space, Enter, ?). The
    hint is timed on the game clock, like everything else: it waits while the
    game is paused, and tests step it."""

    def __init__(self, scene: Scene, clock: GameClock, *, id: str | None = None):
        super().__init__(scene, id=id)
        self.clock = clock  # the game's: a hint's time waits while the game is paused
        self.hint = ""
        self.hint_until = 0.0  # game clock time
        self.pauses = True  # Space pauses here (a seat at a host's game cannot)

    def show_hint(self, text: str, seconds: float = 2.5) -> None:
        clock = self.clock
        self.hint = text
        self.hint_until = clock.now() + seconds
        clock.call_later(seconds, self.redraw)
        self.redraw()

    def _hint(self) -> str:
        return self.hint if self.hint and self.clock.now() < self.hint_until else ""

    def state(self) -> object:
        t = self.scene
        return (t.round, t.phase, t.options, int(t.round_s), self._hint(), t.opening())

    def render(self) -> Text:
        t = self.scene
        o = t.options
        variant = "standard" if o.variant is Variant.STANDARD else f"points to {o.target}"
        over = t.phase is Phase.OVER
        elapsed = "" if over else " · " + clock_text(t.round_s)
        hint = self._hint()
        width = self.size.width or 80
        flip = " · manual flip" if o.manual_flip else ""
        parts = [f" · {variant} · round {t.round}{elapsed}{flip}",
                 f" · {variant} · round {t.round}{elapsed}",
                 f" · round {t.round}{elapsed}"]
        # the keys, fewer of them where the whole left part would not fit beside them;
        # before a game's first card and after its last, the settings key in place of pause
        between = over or t.opening()
        keys = "F1 help · Space pause · Ctrl+Q quit " if self.pauses else "F1 help · Ctrl+Q quit "
        if between:
            keys = f"F1 help · {SETTINGS_KEY_LABEL} settings · Ctrl+Q quit "
        if 9 + len(parts[0]) + len(keys) + 1 > width:
            keys = "F1 help · Ctrl+Q quit "
        right = Text(hint + " ", "bold yellow") if hint else Text(keys, DIM)
        # The longest left part that leaves room for the right one: a hint is
        # never cut, so the variant and the flip go first (both stay in help).
        tail = next((x for x in parts if 9 + len(x) + right.cell_len + 1 <= width), parts[-1])
        left = Text()
        left.append(" spit-tui", Style(bold=True, color="yellow"))
        left.append(tail)
        if not hint and left.cell_len + right.cell_len + 1 > width:
            right = Text("F1 help · Ctrl+Q quit ", DIM)
        if not hint and left.cell_len + right.cell_len + 1 > width:
            right = Text("F1 help ", DIM)  # keep the one key to learn
        gap = max(1, width - left.cell_len - right.cell_len)
        line = left + Text(" " * gap) + right
        line.truncate(width)  # never a second line: the header is one row
        return line


class Scoreboard(SceneView):
    """The points variant's running score, one column per round (latest rounds)."""

    def state(self) -> object:
        t = self.scene
        return (t.scoreboard, t.scores, t.options.variant, t.names)

    def render(self) -> Text:
        t = self.scene
        if t.options.variant is not Variant.POINTS:
            return Text("")
        rounds = t.scoreboard
        head = Text("round    ", DIM)
        for r in rounds:
            head.append(f"{r.round:>4}", DIM)
        head.append("   total", DIM)
        head.append(f"  (lowest wins at {t.options.target})", DIM)
        lines = [head]
        scores = t.scores
        for p in (Player.LEFT, Player.RIGHT):
            line = Text(f"{player_name(p, t):<9}", NAME_STYLE)
            for r in rounds:
                line.append(f"{r.points[p]:>4}")
            line.append(f"{scores[p]:>8}", NAME_STYLE)
            lines.append(line)
        return Text("\n").join(lines)
