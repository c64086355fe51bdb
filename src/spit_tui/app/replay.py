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
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Static

from spit_tui.app import SpitApp
from spit_tui.app.banner import Banner
from spit_tui.app.board import BoardView
from spit_tui.app.cues import still
from spit_tui.app.modes import Mode
from spit_tui.app.views import SceneView
from spit_tui.clock import VirtualClock, clock_text
from spit_tui.command import Parser, UsageError, command
from spit_tui.engine import Game, Record, Source
from spit_tui.keys.keymap import US
from spit_tui.names import board_names
from spit_tui.seats import Seats
from spit_tui.store.resume import computer_seats
from spit_tui.table import Outcome, Table

OVER_KEYS = "Home: watch it again  ·  PgUp: the last round  ·  q: quit"  # the viewer's keys
SPEEDS = (0.5, 1.0, 2.0, 4.0, 8.0)
MAX_WAIT_S = 5.0  # a long think (or a player away) is shown shortened to this, at x1
MIN_WAIT_S = 0.001  # actions stamped at the same moment: one after the other


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


class ReplayMode(Mode):
    """The app playing a record back: its own screen and keys, the game's own
    table rebuilt as it steps (the app's `table` is the one in view)."""

    title = "spit-tui replay"
    over_keys = OVER_KEYS
    names_key = ""  # the game's own names
    viewer = True  # the replay's own keys only: the banner tells what the players did
    new_games = False
    asks_before_quit = False  # nothing is lost by quitting a replay

    def __init__(self, record: Record, heading: str = "", *, playing: bool = True) -> None:
        self.record = record
        self.heading = heading
        self.times: list[float] = []  # each action's time (Step.at)
        self.rounds = [0]  # the index of the first action of each round
        for step in record.walk():  # raises Refusal if it does not replay
            self.times.append(step.at)
            if step.event.position.round != step.before.round:
                self.rounds.append(step.n + 1)
        self.index = 0  # actions applied so far
        self.playing = playing
        self.speed = 1.0
        self._app: SpitApp | None = None
        self._table = self._table_at(0)
        self._timer: Timer | None = None
        self._view: ReplayScreen | None = None

    @property
    def table(self) -> Table:
        """The table in view (the app's too)."""
        return self._table

    @table.setter
    def table(self, table: Table) -> None:
        self._table = table
        if self._app is not None:
            self._app.table = table

    def bind(self, app: SpitApp) -> None:
        self._app = app

    def screen(self, app: SpitApp) -> Screen[None]:
        self.view.still = app.game_screen.still  # reduced motion (the settings, app/cues.py)
        return self.view

    @property
    def view(self) -> ReplayScreen:
        """The replay's own screen (made when the app first asks for it)."""
        if self._view is None:
            self._view = ReplayScreen(self)
        return self._view

    def started(self) -> None:
        """Its screen is up: show the start and play on, if playing."""
        self.view.show()
        self._schedule()

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
        keys = US if self._app is None else self._app.keymap  # the viewer's, as the game's
        table = Table(game, VirtualClock(0.0), keymap=keys)  # the game began at 0
        names = (self.record.tags.get("Left"), self.record.tags.get("Right"))
        computer = computer_seats(self.record.tags)
        if names[0] and names[1]:
            # as the game showed them: COMPUTER with its level and no keys, YOU
            table.seat(Seats.of(board_names((names[0], names[1]), computer), computer))
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

    # -- playing ---------------------------------------------------------------------

    def _schedule(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if not self.playing or self.index >= len(self.record.actions):
            return
        now = self.times[self.index - 1] if self.index else 0.0
        wait = min(MAX_WAIT_S, max(0.0, self.times[self.index] - now)) / self.speed
        # never 0: Textual's timer divides by its interval when it runs late
        wait = max(wait, MIN_WAIT_S)
        assert self._app is not None
        self._timer = self._app.set_timer(wait, self._next)

    def _next(self) -> None:
        self._timer = None
        self._forward()
        self.view.show()
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
        self.view.show()
        self._schedule()

    # -- keys ------------------------------------------------------------------------

    def pause_resume(self) -> None:
        self.playing = not self.playing
        self.view.show()
        self._schedule()

    def step(self, step: int) -> None:
        self.playing = False
        if step > 0:
            self._forward()
            self.view.show()
            self._schedule()
        else:
            self.goto(self.index - 1)

    def faster(self, step: int) -> None:
        i = SPEEDS.index(self.speed)
        self.speed = SPEEDS[max(0, min(len(SPEEDS) - 1, i + step))]
        self.view.show()
        self._schedule()

    def to_round(self, step: int) -> None:
        current = self.round_no
        target = current + step
        starts = self.rounds
        if step < 0 and self.index > starts[min(current, len(starts)) - 1]:
            target = current  # back to this round's start first
        target = max(1, min(target, len(starts)))
        self.goto(starts[target - 1])

    def jump(self, where: int) -> None:
        self.goto(len(self.record.actions) if where < 0 else where)




class ReplayScreen(Screen[None]):
    """The replay's screen: its header, the game's banner and board, its keys."""

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
        Binding("q,escape", "app.quit", "quit", show=False),
    ]

    def __init__(self, replay: ReplayMode) -> None:
        super().__init__()
        self.replay = replay
        self.still = False  # reduced motion: no highlight (app/cues.py)

    def compose(self) -> ComposeResult:
        yield Static(id="header")
        scene = self.replay.table.scene()
        banner = Banner(scene, id="banner")
        banner.over_keys = OVER_KEYS
        banner.viewer = True
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
        self.replay.started()

    def show(self) -> None:
        """Draw where the replay stands."""
        r = self.replay
        scene = r.table.scene()
        if self.still:
            scene = still(scene)
        for view in self.query(SceneView):
            view.show(scene)
        n = len(r.record.actions)
        state = "playing" if r.playing and r.index < n else "paused"
        if r.index >= n:
            state = "end"
        t = r.times[r.index - 1] if r.index else 0.0
        total = r.times[-1] if r.times else 0.0
        # the time as it passed at the table (waits included), as the history's
        # "play time" is not: each says which it is
        tail = (
            f"round {r.round_no} · action {r.index}/{n} · "
            f"{clock_text(t)}/{clock_text(total)} real time · x{r.speed:g} · {state}"
        )
        self.query_one("#header", Static).update(header_line(r.heading, tail, self.app.size.width))

    def action_pause_resume(self) -> None:
        self.replay.pause_resume()

    def action_step(self, step: int) -> None:
        self.replay.step(step)

    def action_speed(self, step: int) -> None:
        self.replay.faster(step)

    def action_round(self, step: int) -> None:
        self.replay.to_round(step)

    def action_jump(self, where: int) -> None:
        self.replay.jump(where)


def replay_app(record: Record, heading: str = "", *, playing: bool = True) -> SpitApp:
    """The app in ReplayMode (raises `Refusal` if the record does not replay)."""
    mode = ReplayMode(record, heading, playing=playing)
    return SpitApp(table=mode.table, mode=mode)


NAME = "spit-tui replay"


@command(NAME)
def main(argv: list[str]) -> int:
    """`spit-tui replay GAME_ID|FILE [--db FILE] [--paused] [--layout NAME] [--keys FILE]`."""
    from spit_tui.command import shown
    from spit_tui.engine import NotationError, Refusal, parse_record
    from spit_tui.startup import Board, add_board_options
    from spit_tui.store import db
    from spit_tui.store.commands import game_id
    from spit_tui.store.records import read_record
    from spit_tui.store.stored import escaped, record_text

    p = Parser(prog=NAME, description="Play back a stored game or a record file.")
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
        app = replay_app(record, title, playing=not args.paused)  # raises if it does not replay
    except db.HistoryError as e:
        raise UsageError(str(e)) from None
    except NotationError as e:
        raise UsageError(f"{args.game}: {e}") from None
    except OSError as e:
        raise UsageError(f"cannot read {args.game}: {e.strerror or e}") from None
    except Refusal as e:
        raise UsageError(f"{args.game}: the record does not replay: {e}") from None
    board = Board.from_args(args, argv, NAME)
    refused = board.prepare()
    if refused is not None:
        return refused
    return board.run_sync(app)
