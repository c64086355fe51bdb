"""`--level auto`: a computer that keeps the game close.

It starts on the rung that suits the person (players/ladder.start_rung: from
their stored card times, or where the practised model lands when there are
none) and moves one rung at most after every round, like a staircase: up a
rung when the person came out of the round ahead (holds fewer cards, or
scored fewer points in the points game, or won the game), down a rung when
the person came out behind, and stays on an even round. A staircase like this
settles where the person wins about half the rounds. It stays with the table
from game to game, so the next game starts where the last one left off.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

from spit_tui.engine import Event, Phase, Variant

from .bot import Bot
from .ladder import LADDER, TOP

AUTO = "auto"  # the --level value


def stored_reaction_times(name: str | None, db: str | None = None) -> list[float]:
    """A person's stored seconds per card (the history, spit_tui.store), or []
    when there is no name, no history or nothing stored: then auto starts where
    the practised model lands. A history that cannot be read never stops a game."""
    if not name:
        return []
    from spit_tui.store.queries import reaction_times

    try:
        return [float(t) for t in reaction_times(name, Path(db) if db else None)]
    except (OSError, sqlite3.Error, ValueError):
        return []


def _clamp(rung: int) -> int:
    return max(1, min(TOP, rung))


class AutoLevel:
    """Moves `bot` along the ladder between rounds. `attach()` starts it.

    Two things set where it aims: a `base` that moves one rung after every
    game (up when the person won it, down when the computer did), and an
    `offset` of up to `SWAY` rungs that follows the rounds of the game in play
    (up a rung when the person came out of a round ahead, down when behind)
    and is forgotten when the game ends. The bot then moves one rung at most
    a round towards base + offset. The game-to-game part is an up-down
    staircase, so over many games the person's wins minus losses equal how far
    the base moved: the record stays near even wherever the person's level is.
    The round-to-round part keeps each game close while it is played. In the
    first game the rounds move the base itself, so a start far from the
    person's level is put right without costing them games.
    """

    SWAY = 1

    def __init__(self, bot: Bot, rung: int) -> None:
        self.bot = bot
        self.rung = self.base = _clamp(rung)
        self.offset = 0
        self.games = 0  # games finished at this table
        self.rungs: list[int] = [self.rung]  # the start, then the rung after every round
        self.attached = False
        self.listeners: list[Callable[[int, int], None]] = []  # (new rung, step) on a move
        bot.set_level(LADDER[self.rung - 1])

    def attach(self) -> None:
        if not self.attached:
            self.attached = True
            self.bot.table.event_listeners.append(self._on_event)

    def detach(self) -> None:
        if self.attached:
            self.attached = False
            self.bot.table.event_listeners.remove(self._on_event)

    def move_to(self, bot: Bot) -> None:
        """Follow the person to another table (a harness's next game), keeping the aim."""
        was = self.attached
        self.detach()
        self.bot = bot
        bot.set_level(LADDER[self.rung - 1])
        if was:
            self.attach()

    def verdict(self, event: Event) -> int | None:
        """How a settled round end went for the person: +1 ahead, -1 behind, 0 even;
        None when `event` does not settle a round (or the piles are still to be slapped)."""
        end = event.round_over
        if end is None or event.position.phase is Phase.SLAP:
            return None
        me = self.bot.player
        person = me.other
        if event.winner is not None:
            return 1 if event.winner is person else -1
        points = self.bot.table.game.options.variant is Variant.POINTS
        held = end.round_points if points else end.held
        mine, theirs = held[me], held[person]
        return (mine > theirs) - (mine < theirs)

    def _on_event(self, event: Event) -> None:
        ahead = self.verdict(event)
        if ahead is None:
            return
        if event.winner is not None:
            self.base = _clamp(self.base + ahead)
            self.offset = 0
            self.games += 1
        elif not self.games:
            self.base = _clamp(self.base + ahead)  # the first game: finding the level
        else:
            self.offset = max(-self.SWAY, min(self.SWAY, self.offset + ahead))
        target = _clamp(self.base + self.offset)
        step = (target > self.rung) - (target < self.rung)
        self.rung += step
        self.rungs.append(self.rung)
        if step:
            self.bot.set_level(LADDER[self.rung - 1])
            for listener in self.listeners:
                listener(self.rung, step)
