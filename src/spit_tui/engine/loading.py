"""Positions that come from outside the engine (notation, records, tests, the
help's pages): refuse the ones no game can be in, and settle the rest into the
state the rules put them in.

A position the engine reaches itself always satisfies these checks; one typed
by hand may not. Accepting an impossible one costs a crash later (a slap in a
single-pile round has no second pile) or a table where every key is refused
for ever (a play phase nobody can play in). So a position is checked when it
is read (`position_problem` without options: what holds in every game) and
again when a game starts from it (with the game's options), and then settled:
a stuck play phase becomes the spit it is waiting for, a spit everyone is
ready for happens, a cleared or blocked round ends.
"""

from __future__ import annotations

import random

from .cards import missing_cards
from .errors import PositionError
from .events import EndReason
from .options import Options, Variant
from .position import (
    LEFT,
    PHASE_OVER,
    PHASE_PLAY,
    PHASE_SLAP,
    PHASE_SPIT,
    PLAYERS,
    Position,
)
from .rounds import end_round, settle
from .rules import any_can_act, move_spit, spitters

_SIDE = ("left", "right")


def _cards_problem(pos: Position) -> str | None:
    cards = pos.all_cards()
    if len(cards) == 52 and len(set(cards)) == 52:
        return None
    missing = [str(c) for c in missing_cards(cards)]
    shown = ", ".join(missing[:4]) + (", ..." if len(missing) > 4 else "")
    return f"cards: a game holds all 52 cards, this position {len(cards)} (missing {shown})"


def _piles_problem(pos: Position) -> str | None:
    started = [bool(p) for p in pos.piles]
    if any(started) and not all(started):
        empty = "ab"[started.index(False)]
        return (
            f"spit piles: pile {empty} is empty but the other is not "
            "(the first spit of a round lays a card on each)"
        )
    if pos.phase is PHASE_SLAP and pos.single_pile:
        return (
            f"phase: a slap only ends a two-pile round, and kind {_kind(pos)} "
            "is a single-pile round"
        )
    if pos.phase in (PHASE_PLAY, PHASE_SLAP) and not any(started):
        return (
            f"phase: {pos.phase} needs cards on the spit piles "
            "(a round starts with the spit phase)"
        )
    return None


def _kind(pos: Position) -> str:
    return "two" if pos.spitter is None else "one:" + pos.spitter.letter


def _ready_problem(pos: Position) -> str | None:
    ready = [p for p in PLAYERS if pos.sides[p].ready]
    if not ready:
        return None
    if pos.phase is not PHASE_SPIT:
        return f"ready: only the spit phase waits for ready players, this is {pos.phase}"
    if any(pos.piles):
        for p in ready:
            if not pos.sides[p].spit:
                return f"ready: the {_SIDE[p]} player has no spit card to spit"
    return None


def _spit_cards_problem(pos: Position) -> str | None:
    if pos.phase is PHASE_OVER:
        return None
    if pos.spitter is not None:
        other = pos.spitter.other
        if pos.sides[other].spit:
            return (
                f"{_SIDE[other]} spit cards: in a single-pile round (kind {_kind(pos)}) "
                f"only the {_SIDE[pos.spitter]} player has spit cards"
            )
    if pos.phase is PHASE_SPIT and not any(pos.piles):  # a new round, before its first spit
        for p in PLAYERS if pos.spitter is None else (pos.spitter,):
            if not pos.sides[p].spit:
                return f"{_SIDE[p]} spit cards: a new round needs them for its first spit"
        for p in PLAYERS:
            if not pos.sides[p].stock_count:
                return f"{_SIDE[p]} stockpiles: a new round deals every player stock cards"
            for i, slot in enumerate(pos.sides[p].slots):
                if slot.cards and not slot.up:
                    return (
                        f"{_SIDE[p]} stockpiles slot {i + 1}: a new round deals "
                        "every top card face up"
                    )
    if pos.phase in (PHASE_PLAY, PHASE_SPIT) and all(side.cleared for side in pos.sides):
        return "stockpiles: both players' are empty, but the round ends when the first is"
    return None


def _options_problem(pos: Position, opts: Options) -> str | None:
    if not opts.manual_flip and pos.phase is not PHASE_OVER:
        for p in PLAYERS:
            for i, slot in enumerate(pos.sides[p].slots):
                if slot.cards and not slot.up:
                    return (
                        f"{_SIDE[p]} stockpiles slot {i + 1}: a face-down top card, "
                        "but without manual flip cards turn up by themselves"
                    )
    points = opts.variant is Variant.POINTS
    if pos.phase is PHASE_SLAP:
        if points:
            return "phase: no slap in the points variant (a round is scored when it ends)"
        cleared = any(side.cleared for side in pos.sides)
        if not cleared and (any(s.spit for s in pos.sides) or any_can_act(pos, opts)):
            return "phase: slap, but the round is not over (there is still a play or a spit)"
    if pos.phase is PHASE_OVER and pos.winner is not None:
        w = pos.winner
        if points:
            mine, theirs = pos.scores[w], pos.scores[w.other]
            if mine >= theirs:
                return f"phase: over:{w.letter}, but the winner's score is not the lower"
            if theirs < opts.target:
                return f"scores: nobody has reached the target of {opts.target} yet"
        elif pos.sides[w].total:
            return (
                f"phase: over:{w.letter}, but the {_SIDE[w]} player "
                f"still holds {pos.sides[w].total} cards"
            )
    return None


def position_problem(pos: Position, options: Options | None = None) -> str | None:
    """Why no game can be in `pos` (with `options`, if given), or None.

    The message names the field at fault, in the notation's words."""
    for check in (_cards_problem, _piles_problem, _ready_problem, _spit_cards_problem):
        problem = check(pos)
        if problem is not None:
            return problem
    return None if options is None else _options_problem(pos, options)


def check_position(pos: Position, options: Options | None = None) -> None:
    """Raise `PositionError` if no game can be in `pos`."""
    problem = position_problem(pos, options)
    if problem is not None:
        raise PositionError(problem)


def settle_loaded(pos: Position, opts: Options, rng: random.Random) -> Position:
    """The state the rules say a checked position is in.

    A round whose stockpiles are cleared, or in which nobody can act and
    nobody has a spit card, is over; a play phase in which nobody can act
    waits for a spit; a spit phase in which someone can act is a play phase;
    a spit everyone it waits for is ready for happens. Dealing a new round
    draws on `rng`, so a game started twice from one position and seed
    settles the same way both times."""
    if pos.phase in (PHASE_PLAY, PHASE_SPIT) and any(pos.piles):
        cleared = next((p for p in PLAYERS if pos.sides[p].cleared), None)
        if cleared is not None:
            return end_round(pos, EndReason.CLEARED, cleared, opts, rng)[0]
        pos = settle(pos, LEFT, opts, rng)[0]
        if pos.phase is PHASE_PLAY:
            left, right = (s._replace(ready=False) for s in pos.sides)
            pos = pos._replace(sides=(left, right))
    if pos.phase is PHASE_SPIT and all(pos.sides[p].ready for p in spitters(pos)):
        pos = move_spit(pos)[0]
        pos = settle(pos, LEFT, opts, rng)[0]
    return pos
