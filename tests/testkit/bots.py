"""Small helpers for the bot tests: tables on a virtual clock, positions from notation."""

from __future__ import annotations

import random

from spit_tui.clock import VirtualClock
from spit_tui.decision import Decision
from spit_tui.engine import Game, Options, Player, Position, complete_position, parse_position
from spit_tui.players.bot import Bot
from spit_tui.players.ladder import LEVELS
from spit_tui.players.level import Level
from spit_tui.table import Table

L, R = Player.LEFT, Player.RIGHT


def table_at(text: str | Position, options: Options | None = None) -> Table:
    pos = complete_position(parse_position(text, check=False)) if isinstance(text, str) else text
    return Table(Game(position=pos, options=options or Options(), seed=0), VirtualClock())


def sharp(name: str) -> Level:
    """A level that never overlooks and keeps an even pace: for tests that need
    to know its first move and when it comes."""
    return LEVELS[name].replace(overlook=0.0, form=0.0)


def vclock(table: Table) -> VirtualClock:
    clock = table.clock
    assert isinstance(clock, VirtualClock)
    return clock


def seat(table: Table, player: Player, level: Level | str, seed: int = 1) -> Bot:
    bot = Bot(table, player, level, rng=random.Random(seed))
    bot.attach()
    return bot


def run_until_decision(table: Table, *, source: str = "bot", limit: float = 30.0) -> Decision:
    """Step the clock until the next decision from `source`; fail after `limit` seconds."""
    clock = vclock(table)
    seen = len(table.decisions)
    while clock.now() < limit:
        if not clock.step():
            break
        new = [d for d in list(table.decisions)[seen:] if d.source == source]
        if new:
            return new[0]
    raise AssertionError(f"no {source} decision within {limit} s")
