"""The human limits on game keys, in one place: D13's stale-key guard, the
repeat rule and whose half a key is. Every key path passes one gate: the local
table (one keyboard), a remote seat (its own keyboard, before a key is sent)
and the host, which applies the same limits again to a remote seat's keys
whatever its client claims (a modified client gains nothing by skipping them).

- D13, stale keys: a ready or slap this soon (`stale_s`) after its phase was
  shown does not count; the player has not seen the phase yet. "Shown" is the
  moment the screen first had it: for the table the event that made it (or the
  stuck banner), for a seat the view that brought it, for the host the moment
  the view left plus the seat's distance there and back (`lag_s`).
- The repeat rule: the same key again within `repeat_s` of its last arrival is a
  held key's auto-repeat, not a press; every arrival counts, dropped or not.
- Halves: the halves this keyboard may play (`halves`): both at one keyboard
  but the computer's, one for a remote seat.

Bots react no sooner than `earliest_reaction`: one margin for every driver.
Nothing here reads a clock: times are handed in.
"""

from __future__ import annotations

from collections.abc import Hashable

from spit_tui.engine import PLAYERS, Action, Player, Ready, Slap

STALE_S = 0.2  # D13: slap/ready keys this soon after their phase appears do not count
REPEAT_S = 0.06  # the same key again this soon is a held key's auto-repeat
REACTION_MARGIN_S = 0.01  # a bot's ready or slap comes this long after the stale window


def guarded(action: Action) -> bool:
    """Whether D13's stale-key guard applies to `action`: a ready or a slap,
    the reactions to a phase just shown."""
    return isinstance(action, Ready | Slap)


def earliest_reaction(shown_at: float, stale_s: float = STALE_S) -> float:
    """The earliest a bot reacts to a phase shown at `shown_at`: past the stale
    window by one margin, the same for every bot driver."""
    return shown_at + stale_s + REACTION_MARGIN_S


class KeyGate:
    """The human limits for the keys of one keyboard (or one remote seat).

    `at_arrival`: the repeat rule is applied where keys arrive (`arrive`),
    before anything holds them; the table then leaves it alone (the host's gate
    for a remote seat: a hold would squeeze or stretch the gaps). A plain class,
    not a dataclass, whose generated __init__ was compiled at every start."""

    __slots__ = ("_arrived", "at_arrival", "halves", "repeat_s", "stale_s")

    def __init__(
        self,
        stale_s: float = STALE_S,
        repeat_s: float = REPEAT_S,
        halves: frozenset[Player] = frozenset(PLAYERS),
        at_arrival: bool = False,
    ) -> None:
        self.stale_s = stale_s
        self.repeat_s = repeat_s
        self.halves = halves
        self.at_arrival = at_arrival
        self._arrived: dict[Hashable, float] = {}

    def repeat(self, key: Hashable, now: float) -> bool:
        """Whether `key` came less than `repeat_s` after its last arrival (an
        auto-repeat). Every arrival counts, dropped or not, so a held key stays
        dropped after the first repeat the terminal's delay lets in."""
        last = self._arrived.get(key)
        self._arrived[key] = now
        return last is not None and now - last < self.repeat_s

    def too_soon(self, shown_at: float, now: float, lag_s: float = 0.0) -> bool:
        """D13: whether a ready or slap at `now` came inside the stale window of a
        phase shown at `shown_at`. `lag_s`: how much later than `shown_at` the
        player saw it and how much later the key reached `now`'s clock (the
        host's gate for a remote seat: the way there and back, and the holds)."""
        return now < shown_at + self.stale_s + lag_s

    def takes(self, player: Player) -> bool:
        """Whether this keyboard plays `player`'s half."""
        return player in self.halves
