"""The computer's mode: `--vs-computer` and `--demo`.

The app's mode (app/modes.py) seats bots at the app's Table once it exists
(`bind`) and starts them once the app is up (`mounted`): they schedule on
its clock, so they pause with the game (help, quit dialog, window too small)
and race the human's keys through the same arrival-ordered path (D5). The
Table is told who sits where (`Table.seat`), so a key of the computer's half
is refused there, on the one key path, with a word for the human. The only
key the mode takes is the demo's: any key but the app's own ends the show
and starts a normal game for two people.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from textual import events
from textual.binding import Binding

from spit_tui.app import SpitApp
from spit_tui.app.modes import Mode
from spit_tui.clock import Handle
from spit_tui.engine import PLAYERS, Game, Phase, Player
from spit_tui.names import COMPUTER, YOU
from spit_tui.players.auto import AUTO, AutoLevel, auto_label
from spit_tui.players.bot import Bot
from spit_tui.players.ladder import LADDER, level_named, start_rung
from spit_tui.players.level import Level
from spit_tui.seats import Seats
from spit_tui.seed import fresh_seed
from spit_tui.subscription import Subscription

DEMO_RESTART_S = 6.0  # a finished demo game stays on show this long before the next
# The app's own keys (quit, help, suspend: its priority bindings) keep their
# meaning in the demo; every other key ends it. Read off the bindings, so a key
# the app adds there is never taken for "play yourselves" (Ctrl+Z once was).
PASS_KEYS = frozenset(
    key.strip()
    for b in SpitApp.BINDINGS
    if isinstance(b, Binding) and b.priority
    for key in b.key.split(",")
)


class ComputerMode(Mode):
    """The computer in one seat (or, for the demo, both)."""

    def __init__(
        self,
        computer: Mapping[Player, Level | str],
        *,
        demo: bool = False,
        bot_seed: int | None = None,
        reaction_times: Sequence[float] | None = None,
    ) -> None:
        self.one_person = not demo  # (the demo's keys start a game for two)
        # --level auto: the rung to start on comes from the person's card times.
        self.auto_start = start_rung(reaction_times)
        self.autos: list[AutoLevel] = []
        self.computer: dict[Player, Level] = {p: self._level(x) for p, x in computer.items()}
        self.auto_seats = {p for p, x in computer.items() if x == AUTO}
        self.demo = demo
        self.bots: list[Bot] = []
        self._bot_rng = random.Random(bot_seed)
        self._restart: Handle | None = None

    @property
    def new_games(self) -> bool:  # type: ignore[override]
        """The demo deals its next game itself; against the computer, Enter does."""
        return not self.demo

    def _level(self, spec: Level | str) -> Level:
        if spec == AUTO:
            return LADDER[self.auto_start - 1]
        return level_named(spec) if isinstance(spec, str) else spec

    def _level_words(self, p: Player) -> str:
        """The computer's level as its side of the board shows it: "hard", "auto · level 5"."""
        level = self.computer[p]
        return auto_label(level.rung) if p in self.auto_seats else level.name

    def board_names(self, app: SpitApp) -> tuple[str, str]:
        """COMPUTER for its half (its level shows beside), and the person's
        name, or YOU: then the words speak to them ("You win")."""
        if not self.computer or self.demo:
            return super().board_names(app)
        names = [COMPUTER if p in self.computer else (app.given_names[p] or YOU) for p in PLAYERS]
        return names[0], names[1]

    def computer_levels(self) -> dict[Player, str]:
        """Its level for each half it plays: against the computer, its level is
        its name in the history ("computer (hard)"; "auto" for --level auto)."""
        return {p: AUTO if p in self.auto_seats else lv.name for p, lv in self.computer.items()}

    def computer_rungs(self) -> dict[Player, int]:
        """Its rung for each half it plays (auto: the rung of the round in play)."""
        return {p: lv.rung for p, lv in self.computer.items() if lv.rung}

    def reseat(self, app: SpitApp) -> None:
        if self.demo:  # the demo's halves stay LEFT and RIGHT
            return
        levels = {p: self._level_words(p) for p in self.computer}
        app.table.seat(Seats.of(self.board_names(app), levels))
        if app.history is not None:
            app.history.names = app.stored_names()
            app.history.rungs = self.computer_rungs()

    def bind(self, app: SpitApp) -> None:
        """Seat the bots at the app's table (they schedule on its clock)."""
        table = app.table
        if self.computer and not self.demo:
            self.reseat(app)
        for p in sorted(self.computer):
            rng = random.Random(self._bot_rng.getrandbits(64))
            bot = Bot(table, p, self.computer[p], rng=rng)
            self.bots.append(bot)
            if p in self.auto_seats:
                auto = AutoLevel(bot, self.auto_start)
                auto.listeners.append(lambda rung, step: self._auto_moved(app, rung, step))
                self.autos.append(auto)
        if self.demo:
            table.subscribe(Subscription(on_change=lambda: self._demo_watch(app)))

    def mounted(self, app: SpitApp) -> None:
        """The bots start, and a word says who plays which half."""
        for bot in self.bots:
            bot.attach()
        for auto in self.autos:
            auto.attach()
        if self.demo:
            names = " and ".join(sorted({b.level.name for b in self.bots}))
            app.notify(
                f"Demo: two computer players ({names}). Press any key to play yourselves.",
                title="spit-tui demo",
                timeout=24 * 3600,
            )
        elif self.computer:
            side, level = next(iter(self.computer.items()))
            what = auto_label(level.rung) if self.autos else level.name
            app.notify(
                f"You play the {side.other.label} half of the keyboard; "
                f"the computer ({what}) plays {side.label}.",
                timeout=8,
            )

    def _auto_moved(self, app: SpitApp, rung: int, step: int) -> None:
        for p in self.auto_seats:
            self.computer[p] = LADDER[rung - 1]
        self.reseat(app)
        way = "up" if step > 0 else "down"
        app.notify(f"The computer moves {way} to level {rung} for the next round.", timeout=5)

    # -- keys -------------------------------------------------------------------------

    def takes_key(self, app: SpitApp, event: events.Key) -> bool:
        """In the demo, any key but the app's own ends the show."""
        if (
            self.demo
            and event.key not in PASS_KEYS
            and app.screen_stack
            and app.screen is app.game_screen
        ):
            self.end_demo(app)
            return True
        return False

    # -- the demo ---------------------------------------------------------------------

    def _demo_watch(self, app: SpitApp) -> None:
        table = app.table
        if self.demo and self._restart is None and table.position.phase is Phase.OVER:
            self._restart = table.clock.call_later(
                DEMO_RESTART_S, lambda: self._next_demo_game(app)
            )

    def _next_demo_game(self, app: SpitApp) -> None:
        self._restart = None
        if self.demo:
            app.table.new_game(Game(options=app.options, seed=self._bot_rng.getrandbits(32)))

    def end_demo(self, app: SpitApp) -> None:
        """Any key: the computer leaves the table and two people play a fresh game."""
        self.demo = False
        if self._restart is not None:
            self._restart.cancel()
            self._restart = None
        for auto in self.autos:
            auto.detach()
        self.autos.clear()
        for bot in self.bots:
            bot.detach()
        self.bots.clear()
        self.computer = {}
        self.reseat(app)  # the people's names, where the demo showed LEFT and RIGHT
        app.clear_notifications()
        seed = fresh_seed() if app.seed is None else app.seed
        app.table.new_game(Game(options=app.options, seed=seed))


def computer_app(
    computer: Mapping[Player, Level | str],
    *,
    demo: bool = False,
    bot_seed: int | None = None,
    reaction_times: Sequence[float] | None = None,
    **kwargs: Any,
) -> SpitApp:
    """The app in ComputerMode (`kwargs`: SpitApp's own)."""
    mode = ComputerMode(computer, demo=demo, bot_seed=bot_seed, reaction_times=reaction_times)
    return SpitApp(mode=mode, **kwargs)
