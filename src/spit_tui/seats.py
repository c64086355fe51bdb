"""Who sits at a table: the names on the board, and the halves the computer
plays, each with its level in words.

A `Seats` is a value. The party that knows who sits where (the app's mode,
a host's room, the replay) makes one and hands it to the table
(`Table.seat`), which keeps the latest beside its game: the scene shows it,
the rooms and the host read the names from it, and the table's key gate
takes keys only for the halves a person plays. What a name may be, and
which names a game is stored under, is spit_tui.names'.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import NamedTuple

from spit_tui.engine import PLAYERS, Player

__all__ = ["Seats"]


class Seats(NamedTuple):
    """The names on the board (LEFT/RIGHT, or YOU/COMPUTER against the
    computer) and, per seat, the level of the computer that plays it ("hard";
    "" if not given), None where a person plays."""

    names: tuple[str, str] = ("LEFT", "RIGHT")
    levels: tuple[str | None, str | None] = (None, None)

    @classmethod
    def of(
        cls, names: tuple[str, str], computer: Mapping[Player, str] | Iterable[Player] = ()
    ) -> Seats:
        """`computer`: the halves the computer plays, each with its level in
        words if given (a mapping), or just the halves."""
        levels = dict(computer) if isinstance(computer, Mapping) else dict.fromkeys(computer, "")
        return cls(names, (levels.get(Player.LEFT), levels.get(Player.RIGHT)))

    def level(self, p: Player) -> str | None:
        """The level of the computer playing `p`'s half, in words ("" if not
        given); None when a person plays it."""
        return self.levels[p]

    @property
    def people(self) -> frozenset[Player]:
        """The halves a person plays: the ones whose keys the table takes."""
        return frozenset(p for p in PLAYERS if self.levels[p] is None)

    @property
    def computer(self) -> dict[Player, str]:
        """The halves the computer plays, with their levels."""
        return {p: lv for p in PLAYERS if (lv := self.levels[p]) is not None}
