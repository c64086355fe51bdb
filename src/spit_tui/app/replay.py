"""`spit-tui replay GAME_ID|FILE`: a stored game played back at its own pace,
on the game's own banner and board widgets.

    Space pause/resume   → ← one action forward/back   + - speed (x0.5 to x8)
    PgDn PgUp next/previous round   Home End start/end   q Esc quit

The viewer keeps a Table on a VirtualClock that it sets to each action's
stamp (the game-clock time it was made) and submits the action through the
Table, as it was submitted when the game was played; the banner, highlights
and countdown therefore look as they did. Stepping back (or a jump) rebuilds
the table from the record up to that action: replaying is cheap.
"""

from __future__ import annotations

from itertools import islice
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.timer import Timer
from textual.widgets import Static

from spit_tui.app.banner import Banner
from spit_tui.app.board import BoardView
from spit_tui.app.views import SceneView
from spit_tui.clock import VirtualClock, clock_text
from spit_tui.command import Parser, UsageError, command
from spit_tui.engine import Game, Record, Source
from spit_tui.names import board_names
from spit_tui.store.resume import computer_seats
from spit_tui.table import Outcome, Table

OVER_KEYS = "Home: watch it again  ·  PgUp: the last round  ·  q: quit"  # the viewer's keys
SPEEDS = (0.5, 1.0, 2.0, 4.0, 8.0)
MAX_WAIT_S = 5.0  # a long think (or a player away) is shown shortened to this, at x1


def header_line(heading: str, tail: str, width: int) -> Text:
    """The replay's one header line: the game's title, cut to leave room for
    where the replay stands (`tail`), which is never cut."""
    head = Text(" ", "bold")
    if heading:
        room = max(0, (width or 80) - len(tail) - 5)
        title = Text(heading)
        if title.cell_len > room:
            title.truncate(max(1, room - 1))
            title.append("…")
        head.append_text(title)
        head.append(" · ")
    head.append(tail)
    return head


class ReplayApp(App[None]):
    CSS_PATH = "app.tcss"
    TITLE = "spit-tui replay"
    ENABLE_COMMAND_PALETTE = False
    first_run = False  # a replay never asks which keyboard this is
    end_line: str | None = None
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "pause_resume", "pause/resume", show=False),
        Binding("right", "step(1)", "forward", show=False),
        Binding("left", "step(-1)", "back", show=False),
        Binding("plus,equals_sign,up", "speed(1)", "faster", show=False),
        Binding("minus,down", "speed(-1)", "slower", show=False),
        Binding("pagedown", "round(1)", "next round", show=False),
        Binding("pageup", "round(-1)", "previous round", show=False),
        Binding("home", "jump(0)", "start", show=False),
        Binding("end", "jump(-1)", "end", show=False),
        Binding("q,escape,ctrl+q,ctrl+c", "quit", "quit", show=False),
    ]

    def __init__(self, record: Record, title: str = "", *, playing: bool = True) -> None:
        super().__init__()
        self.record = record
        self.heading = title
        self.times: list[float] = []  # each action's time (Step.at)
        self.rounds = [0]  # the index of the first action of each round
        for step in record.walk():  # raises Refusal if it does not replay
            self.times.append(step.at)
            if step.event.position.round != step.before.round:
                self.rounds.append(step.n + 1)
        self.index = 0  # actions applied so far
        self.playing = playing
        self.speed = 1.0
        self.table = self._table_at(0)
        self._timer: Timer | None = None

    # -- the record ------------------------------------------------------------------

    def _table_at(self, n: int) -> Table:
        """A table showing the game after its first `n` actions, each submitted
        at its own time as in play, so the table's play clock, story and feed
        read as they did then."""
        table = self._seated(self.record.game())
        for i in range(n):
            if not self._submit(table, i):
                return self._applied_table(n)
        return table

    def _applied_table(self, n: int) -> Table:
        """The last resort for a record the table times otherwise (the engine
        takes an action the table would not at its stamp): the game's actions
        applied straight to it, its play time read as the record's."""
        game = self.record.game()
        for _ in islice(self.record.walk(game), n):
            pass
        table = self._seated(game)
        assert isinstance(table.clock, VirtualClock)
        table.clock.advance(self.times[n - 1] if n else 0.0)
        return table

    def _seated(self, game: Game) -> Table:
        table = Table(game, VirtualClock(0.0))  # the game began at 0
        names = (self.record.tags.get("Left"), self.record.tags.get("Right"))
        computer = computer_seats(self.record.tags)
        if names[0] and names[1]:
            # as the game showed them: COMPUTER with its level and no keys, YOU
            table.seat(board_names((names[0], names[1]), computer), computer=computer)
        return table

    def _submit(self, table: Table, i: int) -> bool:
        """Submit action `i` through `table` at its stamp; whether it was applied."""
        clock = table.clock
        assert isinstance(clock, VirtualClock)
        clock.advance(max(0.0, self.times[i] - clock.now()))
        stamp = self.record.stamps[i]
        source = "bot" if stamp is not None and stamp.source is Source.COMPUTER else "key"
        action = self.record.actions[i]
        outcome = table.submit(action, source).outcome
        if outcome is not Outcome.APPLIED and table.counting_down:
            # stamped sooner after the spit than the countdown allows (a record
            # made or edited by hand): the play comes as the cards fly
            clock.advance(table.countdown_left())
            outcome = table.submit(action, source).outcome
        if outcome is not Outcome.APPLIED:
            return False
        if table.counting_down and i + 1 < len(self.times):  # the spit comes at its time
            clock.advance(max(0.0, self.times[i + 1] - clock.now() - 1e-3))
        return True

    @property
    def round_no(self) -> int:
        return self.table.position.round

    # -- the view --------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="header")
        scene = self.table.scene()
        banner = Banner(scene, id="banner")
        banner.over_keys = OVER_KEYS
        yield banner
        yield BoardView(scene, id="board", classes="board")
        yield Static(id="replay-keys", classes="frame")

    def on_mount(self) -> None:
        self.query_one("#replay-keys", Static).update(
            Text.assemble(
                ("Space", "bold"),
                " pause  ",
                ("→ ←", "bold"),
                " step  ",
                ("+ -", "bold"),
                " speed  ",
                ("PgDn PgUp", "bold"),
                " round  ",
                ("q", "bold"),
                " quit",
                style="dim",
            )
        )
        self._show()
        self._schedule()

    def _show(self) -> None:
        scene = self.table.scene()
        for view in self.query(SceneView):
            view.show(scene)
        n = len(self.record.actions)
        state = "playing" if self.playing and self.index < n else "paused"
        if self.index >= n:
            state = "end"
        t = self.times[self.index - 1] if self.index else 0.0
        total = self.times[-1] if self.times else 0.0
        # the time as it passed at the table (waits included), as the history's
        # "play time" is not: each says which it is
        tail = (
            f"round {self.round_no} · action {self.index}/{n} · "
            f"{clock_text(t)}/{clock_text(total)} real time · x{self.speed:g} · {state}"
        )
        self.query_one("#header", Static).update(header_line(self.heading, tail, self.size.width))

    # -- playing ---------------------------------------------------------------------

    def _schedule(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if not self.playing or self.index >= len(self.record.actions):
            return
        now = self.times[self.index - 1] if self.index else 0.0
        wait = min(MAX_WAIT_S, max(0.0, self.times[self.index] - now)) / self.speed
        self._timer = self.set_timer(wait, self._next)

    def _next(self) -> None:
        self._timer = None
        self._forward()
        self._show()
        self._schedule()

    def _forward(self) -> None:
        """Apply the next action through the table at its own time."""
        i = self.index
        if i >= len(self.record.actions):
            return
        self.index = i + 1
        if not self._submit(self.table, i):  # a time the table reads otherwise: rebuild
            self.table = self._table_at(self.index)

    def goto(self, n: int) -> None:
        n = max(0, min(n, len(self.record.actions)))
        self.index = n
        self.table = self._table_at(n)
        self._show()
        self._schedule()

    # -- keys ------------------------------------------------------------------------

    def action_pause_resume(self) -> None:
        self.playing = not self.playing
        self._show()
        self._schedule()

    def action_step(self, step: int) -> None:
        self.playing = False
        if step > 0:
            self._forward()
            self._show()
            self._schedule()
        else:
            self.goto(self.index - 1)

    def action_speed(self, step: int) -> None:
        i = SPEEDS.index(self.speed)
        self.speed = SPEEDS[max(0, min(len(SPEEDS) - 1, i + step))]
        self._show()
        self._schedule()

    def action_round(self, step: int) -> None:
        current = self.round_no
        target = current + step
        starts = self.rounds
        if step < 0 and self.index > starts[min(current, len(starts)) - 1]:
            target = current  # back to this round's start first
        target = max(1, min(target, len(starts)))
        self.goto(starts[target - 1])

    def action_jump(self, where: int) -> None:
        self.goto(len(self.record.actions) if where < 0 else where)


@command("spit-tui replay")
def main(argv: list[str]) -> int:
    """`spit-tui replay GAME_ID|FILE [--db FILE] [--paused] [--layout NAME] [--keys FILE]`."""
    from spit_tui.command import shown
    from spit_tui.engine import NotationError, Refusal, parse_record
    from spit_tui.startup import Board, add_board_options
    from spit_tui.store import db
    from spit_tui.store.commands import game_id
    from spit_tui.store.records import read_record
    from spit_tui.store.stored import escaped, record_text

    p = Parser(prog="spit-tui replay", description="Play back a stored game or a record file.")
    p.add_argument("game", metavar="GAME_ID|FILE", help="a game from 'spit-tui history', or a file")
    p.add_argument("--db", metavar="FILE", help="the history file (default: user data directory)")
    p.add_argument("--paused", action="store_true", help="start paused")
    add_board_options(p, log=False)  # the keys on the board are the viewer's
    args = p.parse_args(argv)
    try:
        number = game_id(args.game)
        if args.game.isascii() and args.game.isdigit() and not Path(args.game).exists():
            if number is None:  # 0, or more than any game id can be
                raise UsageError(f"no game {shown(args.game)} in the history")
            conn = db.connect_read(Path(args.db) if args.db else db.default_path())
            try:
                row = conn.execute(
                    "SELECT record, left_name, right_name FROM games WHERE id = ?",
                    (number,),
                ).fetchone()
            finally:
                conn.close()
            if row is None:
                raise UsageError(
                    f"no game {args.game} in the history ('spit-tui history' lists them)"
                )
            record = parse_record(record_text(row[0], number))
            title = f"game {args.game}: {escaped(row[1], 16)} v {escaped(row[2], 16)}"
        else:
            record = read_record(Path(args.game))
            names = (record.tags.get("Left"), record.tags.get("Right"))
            title = Path(args.game).name + (f": {names[0]} v {names[1]}" if all(names) else "")
        app = ReplayApp(record, title, playing=not args.paused)  # raises if it does not replay
    except db.HistoryError as e:
        raise UsageError(str(e)) from None
    except NotationError as e:
        raise UsageError(f"{args.game}: {e}") from None
    except OSError as e:
        raise UsageError(f"cannot read {args.game}: {e.strerror or e}") from None
    except Refusal as e:
        raise UsageError(f"{args.game}: the record does not replay: {e}") from None
    board = Board.from_args(args, argv)
    refused = board.prepare()
    if refused is not None:
        return refused
    return board.run_sync(app)
