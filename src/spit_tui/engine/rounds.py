"""Round flow: stuck (D6), round end (R14), the slap (R15, D8), collecting and
re-dealing (R16), the single-pile round (R17, R18, D9, D11), and who wins
(R19, R20, D10). Dealing needs chance, so these functions take the Random."""

from __future__ import annotations

import random

from .cards import Card
from .deal import deal_round, fresh_hands
from .events import EndReason, RoundEnd
from .options import Options, Variant
from .position import (
    LEFT,
    PHASE_OVER,
    PHASE_PLAY,
    PHASE_SLAP,
    PHASE_SPIT,
    PLAYERS,
    RIGHT,
    Player,
    Position,
    Side,
)
from .rules import any_can_act


def is_stuck(pos: Position, opts: Options) -> bool:
    """D6: the spit piles are going and nobody has a play, a flip or a fill."""
    if pos.phase not in (PHASE_PLAY, PHASE_SPIT) or not any(pos.piles):
        return False
    return not any_can_act(pos, opts)


def _stock(side: Side) -> list[Card]:
    return [c for s in side.slots for c in s.cards]


def settle(
    pos: Position, actor: Player, opts: Options, rng: random.Random
) -> tuple[Position, bool, RoundEnd | None]:
    """After a card moved: end the round (R14), wait for a spit (R13), or play on.

    Returns the new position, whether the players are now stuck, and the
    round that ended, if one did.
    """
    if pos.sides[actor].cleared:
        pos, end = end_round(pos, EndReason.CLEARED, actor, opts, rng)
        return pos, False, end
    if any_can_act(pos, opts):
        if pos.phase is not PHASE_PLAY:
            pos = pos._replace(phase=PHASE_PLAY)
        return pos, False, None
    if pos.sides[0].spit or pos.sides[1].spit:
        return pos._replace(phase=PHASE_SPIT), True, None
    reason = EndReason.DEADLOCK if pos.single_pile else EndReason.STUCK
    pos, end = end_round(pos, reason, None, opts, rng)
    return pos, True, end


def end_round(
    pos: Position,
    reason: EndReason,
    cleared_by: Player | None,
    opts: Options,
    rng: random.Random,
) -> tuple[Position, RoundEnd]:
    if opts.variant is Variant.POINTS:
        return _end_points_round(pos, reason, cleared_by, opts, rng)
    if not pos.single_pile:
        # R15/D8: wait for the slap; nothing is collected until then.
        end = _round_end(pos, reason, cleared_by, held=(pos.sides[0].total, pos.sides[1].total))
        return pos._replace(phase=PHASE_SLAP, sides=_unready(pos)), end
    return _end_single_round(pos, reason, cleared_by, rng)


def _round_end(
    pos: Position,
    reason: EndReason,
    cleared_by: Player | None,
    *,
    held: tuple[int, int],
    took: tuple[int | None, int | None] = (None, None),
    round_points: tuple[int, int] = (0, 0),
    scores: tuple[int, int] | None = None,
) -> RoundEnd:
    """The summary of the round `pos` ends; scores default to the running ones."""
    return RoundEnd(
        round=pos.round,
        reason=reason,
        single_pile=pos.single_pile,
        cleared_by=cleared_by,
        took=took,
        pile_sizes=tuple(len(p) for p in pos.piles),
        held=held,
        round_points=round_points,
        scores=pos.scores if scores is None else scores,
    )


def _unready(pos: Position) -> tuple[Side, Side]:
    return (pos.sides[0]._replace(ready=False), pos.sides[1]._replace(ready=False))


def _end_single_round(
    pos: Position, reason: EndReason, cleared_by: Player | None, rng: random.Random
) -> tuple[Position, RoundEnd]:
    """R18 (someone cleared) or D9 (deadlock): who takes the centre pile."""
    if cleared_by is not None:
        taker = cleared_by.other
    else:
        left, right = (s.stock_count for s in pos.sides)
        if left != right:
            taker = LEFT if left > right else RIGHT
        else:
            assert pos.spitter is not None
            taker = pos.spitter
    hands: list[list[Card]] = [_stock(s) + list(s.spit) for s in pos.sides]
    hands[taker] += list(pos.piles[0])
    took: tuple[int | None, int | None] = (0, None) if taker == 0 else (None, 0)
    return _next_round(pos, reason, cleared_by, took, hands, rng)


def _next_round(
    pos: Position,
    reason: EndReason,
    cleared_by: Player | None,
    took: tuple[int | None, int | None],
    hands: list[list[Card]],
    rng: random.Random,
) -> tuple[Position, RoundEnd]:
    """R16/R19: a player left with no cards wins; otherwise shuffle and re-deal."""
    held = (len(hands[0]), len(hands[1]))
    end = _round_end(pos, reason, cleared_by, held=held, took=took)
    for p in PLAYERS:
        if held[p] == 0:
            return pos._replace(phase=PHASE_OVER, winner=p, sides=_unready(pos)), end
    for h in hands:
        rng.shuffle(h)
    new = deal_round((hands[0], hands[1]), round_no=pos.round + 1, scores=pos.scores)
    return new, end


def resolve_slap(
    pos: Position, player: Player, pile: int, rng: random.Random
) -> tuple[Position, RoundEnd]:
    """D8: the first slap settles it: the slapper takes that pile, the other the other."""
    took: tuple[int | None, int | None] = (pile, 1 - pile) if player == 0 else (1 - pile, pile)
    hands: list[list[Card]] = []
    for p in PLAYERS:
        side = pos.sides[p]
        taken = took[p]
        assert taken is not None
        hands.append(list(pos.piles[taken]) + _stock(side) + list(side.spit))
    cleared = next((p for p in PLAYERS if pos.sides[p].cleared), None)
    reason = EndReason.CLEARED if cleared is not None else EndReason.STUCK
    return _next_round(pos, reason, cleared, took, hands, rng)


def _end_points_round(
    pos: Position,
    reason: EndReason,
    cleared_by: Player | None,
    opts: Options,
    rng: random.Random,
) -> tuple[Position, RoundEnd]:
    """R20/D10: score the cards each still holds; end at the target unless tied lowest."""
    pts = (pos.sides[0].total, pos.sides[1].total)
    scores = (pos.scores[0] + pts[0], pos.scores[1] + pts[1])
    end = _round_end(pos, reason, cleared_by, held=pts, round_points=pts, scores=scores)
    if max(scores) >= opts.target and scores[0] != scores[1]:
        winner = LEFT if scores[0] < scores[1] else RIGHT
        over = pos._replace(phase=PHASE_OVER, winner=winner, scores=scores, sides=_unready(pos))
        return over, end
    new = deal_round(fresh_hands(rng), round_no=pos.round + 1, scores=scores)
    return new, end
