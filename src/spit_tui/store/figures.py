"""A game's figures, read off its stamped record by replaying it: per player the
cards played, slaps won and reaction times (per card: from the moment it could
be played to the moment it was), and per round a short summary.

Pure (no I/O, no clock): the history writer runs it off the UI thread, the
schema migration runs it over stored records, and tests run it on any record.
"""

from __future__ import annotations

from typing import NamedTuple

from spit_tui.engine import (
    Card,
    Phase,
    Play,
    Player,
    Position,
    Record,
    RoundEnd,
    Slap,
    adjacent,
)
from spit_tui.table import COUNTDOWN_S

MAX_REACTION_S = 60.0  # longer is someone who stopped looking, not a reaction


class PlayerFigures(NamedTuple):
    cards: int  # cards played onto the spit piles
    slaps_won: int
    # seconds, one per card played by a stamped action (of the player's own:
    # never the computer's plays of a seat it took over from them)
    reactions: tuple[float, ...]


class GameFigures(NamedTuple):
    players: tuple[PlayerFigures, PlayerFigures]
    rounds: tuple[RoundEnd, ...]
    round_seconds: tuple[float, ...]  # play time of each finished round
    seconds: float  # play time up to the last action
    final: Position
    winner: Player | None


def _playable(pos: Position) -> tuple[set[Card], set[Card]]:
    """The face-up stockpile cards each player could play on a pile now."""
    out: tuple[set[Card], set[Card]] = (set(), set())
    if pos.phase is not Phase.PLAY:
        return out
    tops = [pile[-1] for pile in pos.piles if pile]
    for p, side in enumerate(pos.sides):
        for slot in side.slots:
            if slot.up and slot.cards and any(adjacent(slot.cards[-1], t) for t in tops):
                out[p].add(slot.cards[-1])
    return out


def figures(rec: Record, countdown_s: float = COUNTDOWN_S) -> GameFigures:
    """Walk `rec` (raises `Refusal` if it does not fit its start) and count.
    New plays become possible when each action lands (`Step.lands`: the spit's
    cards a countdown after the ready that brought them)."""
    from spit_tui.store.resume import takeover_seats

    game = rec.game()
    taken = takeover_seats(rec.tags)
    cards = [0, 0]
    slaps = [0, 0]
    reactions: tuple[list[float], list[float]] = ([], [])
    since: dict[Card, float] = {}
    round_start = 0.0
    rounds: list[RoundEnd] = []
    round_seconds: list[float] = []
    t = 0.0
    playable = _playable(game.position)
    for c in playable[0] | playable[1]:
        since[c] = 0.0
    for step in rec.walk(game):
        action, t, event = step.action, step.at, step.event
        if type(action) is Play:
            slot = step.before.sides[action.player].slots[action.slot]
            if slot.cards:
                c = slot.cards[-1]
                began = since.get(c)
                took = None if began is None or step.stamp is None else t - began
                computer_from = taken.get(action.player)
                if computer_from is not None and t > computer_from:
                    took = None  # the computer's, in a seat it took over: not the player's
                if took is not None and 0 <= took <= MAX_REACTION_S:
                    reactions[action.player].append(round(took, 3))
            cards[action.player] += 1
        elif type(action) is Slap:
            slaps[action.player] += 1
        at = step.lands(countdown_s)
        end = event.round_over
        if end is not None:
            # A two-pile round ends twice: when the stockpiles run out (then
            # the slap) and at the slap, which settles who took what.
            if rounds and rounds[-1].round == end.round:
                rounds.pop()
                round_seconds.pop()
            rounds.append(end)
            round_seconds.append(round(t - round_start, 3))
            if event.position.phase is not Phase.SLAP:
                round_start = at
        now = _playable(event.position)
        both = now[0] | now[1]
        for c in list(since):
            if c not in both:
                del since[c]
        for c in both:
            since.setdefault(c, at)
    p0, p1 = (PlayerFigures(cards[p], slaps[p], tuple(reactions[p])) for p in (0, 1))
    return GameFigures(
        players=(p0, p1),
        rounds=tuple(rounds),
        round_seconds=tuple(round_seconds),
        seconds=t,
        final=game.position,
        winner=game.position.winner,
    )
