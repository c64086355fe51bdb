"""Shuffling and dealing (R3, R4, D1, R5, R16, R17), always with an injected Random."""

from __future__ import annotations

import random
from collections.abc import Sequence

from .cards import Card, full_deck
from .position import EMPTY_SLOT, SLOTS, Phase, Player, Position, Side, Slot

SHORT_HAND = 15  # R17/D11: at or below this a player has no spit cards


def deal_side(cards: Sequence[Card]) -> Side:
    """D1: deal rows onto slots 1-5, 2-5, 3-5, 4-5, 5; the rest become spit cards."""
    piles: list[list[Card]] = [[] for _ in range(SLOTS)]
    i = 0
    n = len(cards)
    for row in range(SLOTS):
        for s in range(row, SLOTS):
            if i == n:
                break
            piles[s].append(cards[i])
            i += 1
    slots = tuple(Slot(tuple(p), True) if p else EMPTY_SLOT for p in piles)
    return Side(slots=slots, spit=tuple(cards[i:]))


def fresh_hands(rng: random.Random) -> tuple[list[Card], list[Card]]:
    """R3: shuffle the deck and split it 26/26 (left gets the first half)."""
    deck = full_deck()
    rng.shuffle(deck)
    return deck[:26], deck[26:]


def deal_round(
    hands: tuple[list[Card], list[Card]],
    *,
    round_no: int,
    scores: tuple[int, int] = (0, 0),
) -> Position:
    """Lay out a new round from each player's (already shuffled) hand.

    A hand of 15 or fewer has no spit cards (R17, D11), which makes the round a
    single-pile round in which the other player spits.
    """
    left, right = hands
    if not left or not right:
        raise ValueError("no round may start with a player holding no cards (R19)")
    spitter: Player | None = None
    if len(left) <= SHORT_HAND:
        spitter = Player.RIGHT
    elif len(right) <= SHORT_HAND:
        spitter = Player.LEFT
    if len(left) <= SHORT_HAND and len(right) <= SHORT_HAND:
        raise ValueError("both hands are short: the 52 cards are not all in play")
    piles: tuple[tuple[Card, ...], ...] = ((),) if spitter is not None else ((), ())
    return Position(
        phase=Phase.SPIT,
        round=round_no,
        sides=(deal_side(left), deal_side(right)),
        piles=piles,
        spitter=spitter,
        scores=scores,
    )

