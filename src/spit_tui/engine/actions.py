"""The five things a player can do, as small immutable records (player first).

Piles are numbered 0 ("a", the left pile, or the only pile) and 1 ("b", the
right pile); slots 0-4 are shown to players as 1-5.

Frozen dataclasses, not NamedTuples: equality must include the kind of
action (a NamedTuple Play(L, 1, 0) would equal Fill(L, 1, 0)). Not ordered:
nothing sorts actions, and `order=True` costs every start four generated
methods a class (Python compiles each one as the module loads).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Never, NoReturn

from .position import Player


@dataclass(frozen=True, slots=True)
class Play:
    """R7: move the face-up top of `slot` onto spit pile `pile`."""

    player: Player
    slot: int
    pile: int


@dataclass(frozen=True, slots=True)
class Fill:
    """R9: move the face-up top of `src` into the empty slot `dst`."""

    player: Player
    src: int
    dst: int


@dataclass(frozen=True, slots=True)
class Flip:
    """D3 with manual_flip: turn up the face-down top of `slot`."""

    player: Player
    slot: int


@dataclass(frozen=True, slots=True)
class Ready:
    """D12: the player says "spit"."""

    player: Player


@dataclass(frozen=True, slots=True)
class Slap:
    """R15/D8: slap spit pile `pile` at the end of a two-pile round."""

    player: Player
    pile: int


Action = Play | Fill | Flip | Ready | Slap


def not_an_action(value: Never) -> NoReturn:
    """The `case _:` of every `match` over an Action.

    Typed like `typing.assert_never`, so mypy flags a match that forgets one
    kind of action; at run time a caller that passed something that is not an
    action at all (None, a string such as "L1a") gets a TypeError that says so.
    """
    raise TypeError(f"not an action: {value!r} (expected Play, Fill, Flip, Ready or Slap)")


# Every possible action, built once: move generation hands these out instead of
# allocating (the engine benchmark spends most of its time generating moves).
def _all_plays() -> tuple[tuple[tuple[Play, ...], ...], ...]:
    return tuple(
        tuple(tuple(Play(p, s, k) for k in range(2)) for s in range(5)) for p in Player
    )


PLAYS = _all_plays()
FILLS = tuple(tuple(tuple(Fill(p, s, d) for d in range(5)) for s in range(5)) for p in Player)
FLIPS = tuple(tuple(Flip(p, s) for s in range(5)) for p in Player)
READIES = tuple(Ready(p) for p in Player)
SLAPS = tuple(tuple(Slap(p, k) for k in range(2)) for p in Player)
