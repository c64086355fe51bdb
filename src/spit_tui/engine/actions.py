"""The five things a player can do, as small immutable records (player first).

Piles are numbered 0 ("a", the left pile, or the only pile) and 1 ("b", the
right pile); slots 0-4 are shown to players as 1-5.

Frozen records, not NamedTuples: equality must include the kind of action (a
NamedTuple Play(L, 1, 0) would equal Fill(L, 1, 0)). Written out as
`@dataclass(frozen=True, slots=True)` would make them (the same __init__, ==,
hash, repr and match arguments; assigning a field raises FrozenInstanceError):
a dataclass's methods are generated and compiled at every start, about 0.3 ms
a class. Not ordered: nothing sorts actions.
"""

from __future__ import annotations

from dataclasses import FrozenInstanceError
from typing import Never, NoReturn

from .position import Player

_set = object.__setattr__


class _Frozen:
    __slots__ = ()

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")


class Play(_Frozen):
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

    def __eq__(self, other: object) -> bool:
        if type(other) is Play:
            return (self.player, self.slot, self.pile) == (other.player, other.slot, other.pile)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.player, self.slot, self.pile))

    def __repr__(self) -> str:
        return f"Play(player={self.player!r}, slot={self.slot!r}, pile={self.pile!r})"


class Fill(_Frozen):
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

    def __eq__(self, other: object) -> bool:
        if type(other) is Fill:
            return (self.player, self.src, self.dst) == (other.player, other.src, other.dst)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.player, self.src, self.dst))

    def __repr__(self) -> str:
        return f"Fill(player={self.player!r}, src={self.src!r}, dst={self.dst!r})"


class Flip(_Frozen):
    """D3 with manual_flip: turn up the face-down top of `slot`."""

    __slots__ = ("player", "slot")
    __match_args__ = ("player", "slot")
    player: Player
    slot: int

    def __init__(self, player: Player, slot: int) -> None:
        _set(self, "player", player)
        _set(self, "slot", slot)

    def __eq__(self, other: object) -> bool:
        if type(other) is Flip:
            return (self.player, self.slot) == (other.player, other.slot)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.player, self.slot))

    def __repr__(self) -> str:
        return f"Flip(player={self.player!r}, slot={self.slot!r})"


class Ready(_Frozen):
    """D12: the player says "spit"."""

    __slots__ = ("player",)
    __match_args__ = ("player",)
    player: Player

    def __init__(self, player: Player) -> None:
        _set(self, "player", player)

    def __eq__(self, other: object) -> bool:
        if type(other) is Ready:
            return (self.player,) == (other.player,)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.player,))

    def __repr__(self) -> str:
        return f"Ready(player={self.player!r})"


class Slap(_Frozen):
    """R15/D8: slap spit pile `pile` at the end of a two-pile round."""

    __slots__ = ("pile", "player")
    __match_args__ = ("player", "pile")
    player: Player
    pile: int

    def __init__(self, player: Player, pile: int) -> None:
        _set(self, "player", player)
        _set(self, "pile", pile)

    def __eq__(self, other: object) -> bool:
        if type(other) is Slap:
            return (self.player, self.pile) == (other.player, other.pile)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.player, self.pile))

    def __repr__(self) -> str:
        return f"Slap(player={self.player!r}, pile={self.pile!r})"


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
