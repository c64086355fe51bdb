"""Immutable records of what an applied action did, for the UI, logs and tests."""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

from .actions import Action
from .cards import Card
from .position import Player, Position


class EndReason(StrEnum):
    CLEARED = "cleared"  # R14a: a player played every stock card
    STUCK = "stuck"  # R14b: nobody can act and nobody has a spit card (two-pile)
    DEADLOCK = "deadlock"  # D9: the same in a single-pile round


class RoundEnd(NamedTuple):
    """A round that finished, and what each player took away from it."""

    round: int
    reason: EndReason
    single_pile: bool
    cleared_by: Player | None
    took: tuple[int | None, int | None]  # pile index each player took (None: nothing)
    pile_sizes: tuple[int, ...]
    held: tuple[int, int]  # cards each player holds once the round is collected
    round_points: tuple[int, int]  # points variant: cards still held this round
    scores: tuple[int, int]  # points variant: running totals


class Event(NamedTuple):
    """What happened when `action` was applied; `position` is the state after it."""

    action: Action
    position: Position
    card: Card | None = None  # the card that moved or was flipped
    revealed: Card | None = None  # D3: the card turned up beneath it
    spat: tuple[tuple[int, Card], ...] = ()  # (pile, card) for each card spat
    stuck: bool = False  # D6: after this action nobody can act; waiting for a spit
    round_over: RoundEnd | None = None  # the round that ended here
    winner: Player | None = None  # the game is over

    @staticmethod
    def fast(
        action: Action,
        position: Position,
        card: Card | None,
        revealed: Card | None,
        stuck: bool,
        round_over: RoundEnd | None,
    ) -> Event:
        """The event of a play, fill or flip (nothing spat; the winner read from
        `position`), built without NamedTuple's Python-level __new__: the hot
        path of every action. The field order is checked by a test."""
        fields = (action, position, card, revealed, (), stuck, round_over, position.winner)
        return tuple.__new__(Event, fields)
