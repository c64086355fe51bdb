"""A headless bot match: a Game, a VirtualClock, a Table and two bots.

This is the real table the app uses, run in simulated time: the bots make the
same decisions they would make against the wall clock, only without waiting.
Everything random is derived from the one match seed (the deal, each bot's
hands and eyes, and the coin that orders moves made at the same simulated
instant), so a match is reproducible from its seed.
"""

from __future__ import annotations

import random
from typing import NamedTuple

from spit_tui.clock import VirtualClock
from spit_tui.decision import Decision
from spit_tui.engine import Event, Game, Options, Play, Player, Position, Slap
from spit_tui.players.bot import Bot
from spit_tui.players.ladder import level_named
from spit_tui.players.level import Level
from spit_tui.subscription import Subscription
from spit_tui.table import Outcome, Table

ROUND_CAP = 1000  # harnesses stop a game here and report it, never score it


class MatchResult(NamedTuple):
    seed: int
    winner: Player | None  # None: the round cap was reached
    rounds: int
    seconds: float  # simulated game length
    plays: tuple[int, int]  # cards each side played onto the spit piles
    lost_races: tuple[int, int]
    capped: bool
    slaps: tuple[int, int] = (0, 0)  # slaps each side won (the first slap of a round)


class Match:
    """Two bots at one table on a virtual clock; `run()` plays it to the end."""

    def __init__(
        self,
        left: Level | str,
        right: Level | str,
        *,
        seed: int,
        options: Options | None = None,
        round_cap: int = ROUND_CAP,
        keep_decisions: bool = False,
        deal: int | None = None,
        position: Position | None = None,
    ) -> None:
        """`deal`: the game's own seed (a daily deal's), else one drawn from `seed`;
        `position`: a start set by hand (as `--position` gives) instead of the deal."""
        self.seed = seed
        self.round_cap = round_cap
        master = random.Random(seed)
        game_seed = master.getrandbits(64)
        if deal is not None:
            game_seed = deal
        self.clock = VirtualClock(tiebreak=random.Random(master.getrandbits(64)))
        self.game = Game(options=options or Options(), seed=game_seed, position=position)
        self.table = Table(self.game, self.clock)
        levels = [level_named(x) if isinstance(x, str) else x for x in (left, right)]
        self.bots = tuple(
            Bot(self.table, p, levels[p], rng=random.Random(master.getrandbits(64)))
            for p in (Player.LEFT, Player.RIGHT)
        )
        self.plays = [0, 0]
        self.slaps = [0, 0]
        self.lost = [0, 0]
        self.decisions: list[Decision] | None = [] if keep_decisions else None
        self.table.subscribe(Subscription(on_decision=self._count, on_event=self._count_play))

    def _count_play(self, event: Event) -> None:
        if isinstance(event.action, Play):
            self.plays[event.action.player] += 1
        elif isinstance(event.action, Slap):
            self.slaps[event.action.player] += 1

    def _count(self, d: Decision) -> None:
        if d.outcome is Outcome.LOST_RACE:
            self.lost[d.player] += 1
        if self.decisions is not None:
            self.decisions.append(d)

    def run(self) -> MatchResult:
        for bot in self.bots:
            bot.attach()
        game = self.game
        clock = self.clock
        cap = self.round_cap
        capped = False
        while not game.over:
            if game.position.round > cap:
                capped = True
                break
            if not clock.step():
                raise RuntimeError(
                    f"match {self.seed} stalled: nothing scheduled at t={clock.now():.3f} "
                    f"in round {game.position.round} ({game.position.phase})"
                )
        for bot in self.bots:
            bot.detach()
        end = self.table.shown.ended_at if self.table.shown.ended_at is not None else clock.now()
        return MatchResult(
            seed=self.seed,
            winner=None if capped else game.position.winner,
            rounds=game.position.round,
            seconds=end - self.table.shown.started_at,
            plays=(self.plays[0], self.plays[1]),
            lost_races=(self.lost[0], self.lost[1]),
            capped=capped,
            slaps=(self.slaps[0], self.slaps[1]),
        )


def play_match(
    left: Level | str,
    right: Level | str,
    *,
    seed: int,
    options: Options | None = None,
    round_cap: int = ROUND_CAP,
) -> MatchResult:
    return Match(left, right, seed=seed, options=options, round_cap=round_cap).run()
