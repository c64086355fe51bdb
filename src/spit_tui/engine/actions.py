"""The five things a player can do, as small immutable records (player first).

Piles are numbered 0 ("a", the left pile, or the only pile) and 1 ("b", the
right pile); slots 0-4 are shown to players as 1-5.

Frozen records (engine.frozen.Record), not NamedTuples: equality must include
the kind of action (a NamedTuple Play(L, 1, 0) would equal Fill(L, 1, 0)).
They behave as `@dataclass(frozen=True, slots=True)` would make them (the same
__init__, ==, hash, repr and match arguments; assigning a field raises
FrozenInstanceError), whose methods a start would generate and compile. Not
ordered: nothing sorts actions.
"""

from __future__ import annotations

from typing import Never, NoReturn

from .frozen import Record
from .frozen import set_field as _set
from .position import Player


class Play(Record):
    """R7: move the face-up top of `slot` onto spit pile `pile`."""

    __slots__ = ("pile", "player", "slot")
    __match_args__ = ("player", "slot", "pile")
    player: Player
    slot: int
    pile: int

    def __init__(self, player: Player, slot: int, pile: int) -> None:
        _set(self, "player", player)
        _set(self, "slot", slot)
        _set(self, "pile", pile)


class Fill(Record):
    """R9: move the face-up top of `src` into the empty slot `dst`."""

    __slots__ = ("dst", "player", "src")
    __match_args__ = ("player", "src", "dst")
    player: Player
    src: int
    dst: int

    def __init__(self, player: Player, src: int, dst: int) -> None:
        _set(self, "player", player)
        _set(self, "src", src)
        _set(self, "dst", dst)


class Flip(Record):
    """D3 with manual_flip: turn up the face-down top of `slot`."""

    __slots__ = ("player", "slot")
    __match_args__ = ("player", "slot")
    player: Player
    slot: int

    def __init__(self, player: Player, slot: int) -> None:
        _set(self, "player", player)
        _set(self, "slot", slot)


class Ready(Record):
    """D12: the player says "spit"."""

    __slots__ = ("player",)
    __match_args__ = ("player",)
    player: Player

    def __init__(self, player: Player) -> None:
        _set(self, "player", player)


class Slap(Record):
    """R15/D8: slap spit pile `pile` at the end of a two-pile round."""

    __slots__ = ("pile", "player")
    __match_args__ = ("player", "pile")
    player: Player
    pile: int

    def __init__(self, player: Player, pile: int) -> None:
        _set(self, "player", player)
        _set(self, "pile", pile)


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
    return tuple(tuple(tuple(Play(p, s, k) for k in range(2)) for s in range(5)) for p in Player)


PLAYS = _all_plays()
FILLS = tuple(tuple(tuple(Fill(p, s, d) for d in range(5)) for s in range(5)) for p in Player)
FLIPS = tuple(tuple(Flip(p, s) for s in range(5)) for p in Player)
READIES = tuple(Ready(p) for p in Player)
SLAPS = tuple(tuple(Slap(p, k) for k in range(2)) for p in Player)
