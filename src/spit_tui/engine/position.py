"""The whole state of a game at one instant, as plain immutable tuples.

Every action builds a new `Position` by replacing only the parts it touched,
so keeping the previous position (D5 needs it) costs nothing and a position
can be shared with the UI without copying.
"""

from __future__ import annotations

from enum import IntEnum, StrEnum
from typing import NamedTuple

from .cards import Card

SLOTS = 5


class Player(IntEnum):
    LEFT = 0
    RIGHT = 1

    @property
    def letter(self) -> str:
        return "LR"[self]

    @property
    def other(self) -> Player:
        return PLAYERS[1 - self]

    @property
    def label(self) -> str:
        return ("left", "right")[self]


PLAYERS = (Player.LEFT, Player.RIGHT)
# Module-level aliases: looking up an Enum member on its class costs ~150 ns
# in Python 3.11, ten times a plain global, and the hot paths do it per action.
LEFT, RIGHT = PLAYERS


class Phase(StrEnum):
    SPIT = "spit"  # waiting for ready signals (round start, or stuck with spit cards left)
    PLAY = "play"
    SLAP = "slap"  # a two-pile round ended; waiting for the first slap (D8)
    OVER = "over"


# Prefixed so they never read as the action classes (`Play`, `Slap`) or tables.
PHASE_SPIT, PHASE_PLAY, PHASE_SLAP, PHASE_OVER = Phase.SPIT, Phase.PLAY, Phase.SLAP, Phase.OVER

# A NamedTuple's generated __new__ is a Python-level call; the hot paths build
# records with tuple.__new__ instead, in the `fast` constructors of this module
# and of events.py only, so the field order they rely on is written in one
# place per record (tests/engine/test_one_home.py checks it).
_new = tuple.__new__


class Slot(NamedTuple):
    """One stockpile: `cards` bottom to top; `up` tells whether the top card is face up."""

    cards: tuple[Card, ...] = ()
    up: bool = False

    @property
    def face_up(self) -> Card | None:
        """The card a player can see and move, if any."""
        return self.cards[-1] if self.up else None

    @property
    def face_down(self) -> int:
        return len(self.cards) - (1 if self.up else 0)

    def __len__(self) -> int:
        return len(self.cards)

    @staticmethod
    def fast(cards: tuple[Card, ...], up: bool) -> Slot:
        """`Slot(cards, up)` without the keyword handling (hot path)."""
        return _new(Slot, (cards, up))


EMPTY_SLOT = Slot()


class Side(NamedTuple):
    """One player's cards: five stockpile slots and his face-down spit cards (top = last)."""

    slots: tuple[Slot, ...]
    spit: tuple[Card, ...] = ()
    ready: bool = False

    @property
    def stock_count(self) -> int:
        return sum(len(s.cards) for s in self.slots)

    @property
    def total(self) -> int:
        """Cards this player holds: stock plus spit cards (what R19 and R20 count)."""
        return self.stock_count + len(self.spit)

    @property
    def cleared(self) -> bool:
        """R14a: every stockpile played empty (checked after every play, so unrolled)."""
        s = self.slots
        return not (s[0].cards or s[1].cards or s[2].cards or s[3].cards or s[4].cards)

    @property
    def has_gap(self) -> bool:
        """R9: some stockpile slot is empty (unrolled like `cleared`)."""
        s = self.slots
        return not (s[0].cards and s[1].cards and s[2].cards and s[3].cards and s[4].cards)

    def with_slot(self, i: int, slot: Slot) -> Side:
        """A copy with slot `i` replaced (hot path: every play and fill)."""
        slots = list(self.slots)
        slots[i] = slot
        return _new(Side, (tuple(slots), self.spit, self.ready))


class Position(NamedTuple):
    """Everything the rules need; build with keywords and `_replace`.

    `piles` has two entries (left pile "a", right pile "b") in a two-pile round
    and one ("a") in a single-pile round; `spitter` is the player who spits in a
    single-pile round and None in a two-pile round.
    """

    phase: Phase
    round: int
    sides: tuple[Side, Side]
    piles: tuple[tuple[Card, ...], ...]
    spitter: Player | None = None
    scores: tuple[int, int] = (0, 0)
    winner: Player | None = None

    @property
    def single_pile(self) -> bool:
        return len(self.piles) == 1

    def side(self, player: Player) -> Side:
        return self.sides[player]

    def pile_top(self, pile: int) -> Card | None:
        p = self.piles[pile]
        return p[-1] if p else None

    def all_cards(self) -> list[Card]:
        """Every card in the position, wherever it lies (the 52-card invariant)."""
        out: list[Card] = []
        for side in self.sides:
            for slot in side.slots:
                out.extend(slot.cards)
            out.extend(side.spit)
        for pile in self.piles:
            out.extend(pile)
        return out

    def with_slot(
        self,
        player: Player,
        i: int,
        cards: tuple[Card, ...],
        up: bool,
        piles: tuple[tuple[Card, ...], ...] | None = None,
    ) -> Position:
        """A copy with slot `i` of `player`'s side set to `Slot(cards, up)` (and
        optionally the piles replaced): every play and flip, in one call that
        builds all three records (fields in declared order)."""
        sides = self.sides
        side = sides[player]
        slots = list(side.slots)
        slots[i] = _new(Slot, (cards, up))
        new = _new(Side, (tuple(slots), side.spit, side.ready))
        return _new(
            Position,
            (
                self.phase,
                self.round,
                (new, sides[1]) if player == 0 else (sides[0], new),
                self.piles if piles is None else piles,
                self.spitter,
                self.scores,
                self.winner,
            ),
        )

    def with_side(
        self, player: Player, side: Side, piles: tuple[tuple[Card, ...], ...] | None = None
    ) -> Position:
        """A copy with one side (and optionally the piles) replaced; the hot path of
        every action, so it avoids NamedTuple._replace (fields in declared order)."""
        sides = (side, self.sides[1]) if player == 0 else (self.sides[0], side)
        fields = (
            self.phase,
            self.round,
            sides,
            self.piles if piles is None else piles,
            self.spitter,
            self.scores,
            self.winner,
        )
        return _new(Position, fields)
