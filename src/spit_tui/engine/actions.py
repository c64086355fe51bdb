"""The five things a player can do, as small immutable records (player first).

Piles are numbered 0 ("a", the left pile, or the only pile) and 1 ("b", the
right pile); slots 0-4 are shown to players as 1-5.
"""

from __future__ import annotations

from typing import NamedTuple

from .position import Player


class Play(NamedTuple):
    """R7: move the face-up top of `slot` onto spit pile `pile`."""

    player: Player
    slot: int
    pile: int


class Fill(NamedTuple):
    """R9: move the face-up top of `src` into the empty slot `dst`."""

    player: Player
    src: int
    dst: int


class Flip(NamedTuple):
    """D3 with manual_flip: turn up the face-down top of `slot`."""

    player: Player
    slot: int


class Ready(NamedTuple):
    """D12: the player says "spit"."""

    player: Player


class Slap(NamedTuple):
    """R15/D8: slap spit pile `pile` at the end of a two-pile round."""

    player: Player
    pile: int


Action = Play | Fill | Flip | Ready | Slap
