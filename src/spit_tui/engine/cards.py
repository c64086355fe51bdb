"""Cards, ranks and the one rule every play depends on: adjacency (R1, R2).

Cards are interned: there are exactly 52 `Card` objects, so identity checks,
hashing and the "every card exactly once" invariant stay cheap.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "shdc"
SUIT_SYMBOLS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
RANK_NAMES = {"T": "10"}


class Card(NamedTuple):
    """A playing card; `rank` is 0 (two) to 12 (ace), `suit` one of "shdc"."""

    rank: int
    suit: str

    def __str__(self) -> str:
        return RANK_CHARS[self.rank] + self.suit

    @property
    def rank_label(self) -> str:
        """The rank as a player reads it: "10", "J", "A"."""
        ch = RANK_CHARS[self.rank]
        return RANK_NAMES.get(ch, ch)

    @property
    def face(self) -> str:
        """Rank and suit as a player reads them: "10♥" (the one spelling)."""
        return self.rank_label + SUIT_SYMBOLS[self.suit]

    @property
    def is_red(self) -> bool:
        return self.suit in "hd"


_CARDS: dict[str, Card] = {
    r + s: Card(i, s) for i, r in enumerate(RANK_CHARS) for s in SUIT_CHARS
}


def full_deck() -> list[Card]:
    """All 52 cards in a fixed order (the order a seeded shuffle starts from)."""
    return [_CARDS[r + s] for s in SUIT_CHARS for r in RANK_CHARS]


def missing_cards(present: Iterable[Card]) -> list[Card]:
    """The cards of the deck that are not in `present`, in `full_deck` order."""
    have = set(present)
    return [c for c in full_deck() if c not in have]


def card(text: str) -> Card:
    """Parse one card such as "Th", "10h", "qs"; raises ValueError if it is not one."""
    found = _CARDS.get(text)  # the usual spelling, as the wire and records write it
    if found is not None:
        return found
    t = text.strip()
    if t[:2] == "10":
        t = "T" + t[2:]
    if len(t) == 2:
        found = _CARDS.get(t[0].upper() + t[1].lower())
        if found is not None:
            return found
    raise ValueError(f"{text!r} is not a card (expected rank 2-9/T/J/Q/K/A and suit s/h/d/c)")


def ranks_adjacent(a: int, b: int) -> bool:
    """R2, the one definition: ranks one apart, wrapping A-2 and K-A; equal
    ranks never play. Every lookup table below is derived from it."""
    return (a - b) % 13 in (1, 12)


def adjacent(a: Card, b: Card) -> bool:
    """R2 for two cards: may `a` go on `b` (or `b` on `a`; the rule is symmetric)?"""
    return ADJACENT[a.rank][b.rank]


RANKS = range(len(RANK_CHARS))

# ADJACENT[a][b]: may rank a go on rank b (R2)? A table lookup is the hot path.
ADJACENT: tuple[tuple[bool, ...], ...] = tuple(
    tuple(ranks_adjacent(a, b) for b in RANKS) for a in RANKS
)

# NEAR[t]: bit mask of the ranks that go on rank t (R2), so "can anything play
# here" is one AND per slot instead of a loop over the piles.
NEAR: tuple[int, ...] = tuple(
    sum(1 << r for r in RANKS if ranks_adjacent(r, t)) for t in RANKS
)
