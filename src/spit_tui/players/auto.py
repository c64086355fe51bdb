"""`--level auto`: a computer that keeps the game close.

It starts on the rung that suits the person (players/ladder.start_rung: from
their stored card times, placed as the human models are placed; with none, a
first game starts where the new-player model lands). While it is still
finding the person, it places them after every round by the same model: their
card times in the game so far (from the game's own record, as the history
would store them) set against the human models' (`start_rung`), and moves
half the distance to that rung. Who won a round says little (a round swings
with the cards and the form of the day), the pace of some twenty plays says
a lot. Once that rung is at most one away the search is over: from then on
it moves one rung at most after every round, like a staircase: up a rung when the person came out
of the round ahead (gained cards on the computer from where the round
started, so cards carried in from a lopsided round do not count twice; or
scored fewer points in the points game; or won the game), down a rung when
the person came out behind, and stays on an even round. A staircase like
this settles where the person wins about half the rounds. It stays with the
table from game to game, so the next game starts where the last one left off.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

from spit_tui.engine import Event, Phase, RoundEnd, Variant
from spit_tui.subscription import Subscription

from .bot import Bot
from .ladder import AUTO as AUTO  # the --level value (named beside the other levels)
from .ladder import LADDER, TOP, start_rung


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


MIN_PLAYS = 5  # card times of this game before they place the person


def pace_rung(bot: Bot) -> int:
    """The rung the card times of the person across from `bot`, in the game so
    far, place them on (as stored figures are placed: players/ladder.start_rung); 0 with fewer
    than MIN_PLAYS, or for a game whose record cannot be read back.

    How well this can place anyone is bounded by the person's form: a round's
    pace swings by the form factor (players/ladder.FORM, about a third), which
    is two rungs or more, so the pace of a game's first three rounds places a
    player held on their own rung within one rung of it only about 55-60% of
    the time (benchmarks/bots.py prints this beside how fast auto finds them)."""
    from spit_tui.engine import Refusal
    from spit_tui.store.figures import figures
    from spit_tui.store.records import record_of

    try:
        times = figures(record_of(bot.table)).players[bot.player.other].reactions
    except (Refusal, ValueError):
        return 0
    return start_rung(times) if len(times) >= MIN_PLAYS else 0


def _clamp(rung: int) -> int:
    return max(1, min(TOP, rung))


def auto_label(rung: int) -> str:
    """How the board names the computer at --level auto, the same on every rung."""
    return f"{AUTO} \N{MIDDLE DOT} level {rung}"


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
    person's level is put right without costing them games, and while it is
    still searching (see the module docstring) it moves half the distance to
    where the person's pace in this game places them.
    """

    SWAY = 1

    def __init__(self, bot: Bot, rung: int) -> None:
        self.bot = bot
        self.rung = self.base = _clamp(rung)
        self.offset = 0
        self.searching = True  # until the person's pace puts them a rung away or less
        self.games = 0  # games finished at this table
        self.rungs: list[int] = [self.rung]  # the start, then the rung after every round
        self.margin_seen = 0
        self._gap = 0  # the computer's cards minus the person's at the round's start
        self.attached = False
        self._ears = Subscription(on_event=self._on_event)
        self.listeners: list[Callable[[int, int], None]] = []  # (new rung, step) on a move
        bot.set_level(LADDER[self.rung - 1])

    def attach(self) -> None:
        if not self.attached:
            self.attached = True
            self.bot.table.subscribe(self._ears)

    def detach(self) -> None:
        if self.attached:
            self.attached = False
            self.bot.table.unsubscribe(self._ears)

    def move_to(self, bot: Bot) -> None:
        """Follow the person to another table (a harness's next game), keeping the aim."""
        was = self.attached
        self.detach()
        self.bot = bot
        bot.set_level(LADDER[self.rung - 1])
        if was:
            self.attach()

    def margin(self, end: RoundEnd) -> int:
        """By how many cards the person gained on the computer in a settled round
        (negative: lost), counted from where the round started, so the cards a
        person carried in from an earlier round do not count again; in the
        points game, the round's points."""
        me = self.bot.player
        if self.bot.table.game.options.variant is Variant.POINTS:
            return end.round_points[me] - end.round_points[me.other]
        gap = end.held[me] - end.held[me.other]
        gained, self._gap = gap - self._gap, gap
        return gained

    def paced(self) -> int:
        """The rung the person's own card times in this game place them on
        (`pace_rung`)."""
        return pace_rung(self.bot)

    def _on_event(self, event: Event) -> None:
        """A settled round (not one whose piles are still to be slapped): how it
        went for the person, +1 ahead, -1 behind, 0 even, and the move. While
        searching, the move waits for the table to have filed this round's last
        action (its time is part of the person's card times)."""
        end = event.round_over
        if end is None or event.position.phase is Phase.SLAP:
            return
        self.margin_seen = self.margin(end)
        won = event.winner is not None
        if won:
            ahead = 1 if event.winner is self.bot.player.other else -1
            self._gap = 0  # the next game starts 26 cards each
        else:
            ahead = (self.margin_seen > 0) - (self.margin_seen < 0)
        if self.searching and not won:
            self.bot.table.clock.call_later(0.0, lambda: self._move(ahead, won))
        else:
            self._move(ahead, won)

    def _leap(self, aim: int) -> int:
        """While searching: half the distance to `aim`, where the person's card
        times in this game place them (0 once that is a rung away or less)."""
        gap = aim - self.rung if aim else 0
        if abs(gap) < 2:
            return 0
        half = (abs(gap) + 1) // 2
        return half if gap > 0 else -half

    def _move(self, ahead: int, won: bool) -> None:
        aim = self.paced() if self.searching and not won else 0
        leap = self._leap(aim)
        if aim and not leap:
            self.searching = False  # the person's pace puts them a rung away or less
        if leap:
            self.base = self.rung + leap
        if won:
            if not leap:
                self.base = _clamp(self.base + ahead)
            self.offset = 0
            self.games += 1
        elif not self.games:
            if not leap:
                self.base = _clamp(self.base + ahead)  # the first game: finding the level
        else:
            self.offset = max(-self.SWAY, min(self.SWAY, self.offset + ahead))
        target = _clamp(self.base + self.offset)
        step = leap or (target > self.rung) - (target < self.rung)
        self.rung += step
        self.rungs.append(self.rung)
        if step:
            self.bot.set_level(LADDER[self.rung - 1])
            for listener in self.listeners:
                listener(self.rung, step)
