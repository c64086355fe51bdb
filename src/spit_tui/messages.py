"""The word beside each player, and the words of a refusal.

A key that does nothing says why beside the player who pressed it ("too
soon: press again"); the host, a room and the app say things there too ("a
rematch: waiting for BO"). A word stays MESSAGE_S of game time, so it waits
while the game is paused, and its running out is a change worth a repaint:
`Messages` keeps one timer per player for that, which a newer word replaces
(refused keys on a paused table once piled up a timer each, forever).

The table and a remote seat each keep a `Messages` (`.messages`); the scene
shows what `said(now)` gives. The refusal words that need more than the
reason the engine gave (whose card won a race, what a key does in this
phase) are made here too, so the table's path only picks which one applies.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from spit_tui.clock import GameClock, Handle
from spit_tui.engine import Event, Phase, Play, Player, Slap
from spit_tui.scene import Outcome, Said

__all__ = ["MESSAGE_S", "Message", "Messages"]

MESSAGE_S = 1.6  # how long a word stays beside the player
FOREVER = float("inf")  # a word that stays until the next one (the host's, on a seat)


class Message(NamedTuple):
    text: str
    kind: Outcome
    until: float  # on the game clock


class Messages:
    """Each player's word, when it runs out, and the repaint then."""

    def __init__(self, clock: GameClock, changed: Callable[[], None]) -> None:
        """`changed`: called when a word runs out, and after `say`."""
        self.clock = clock
        self._changed = changed
        self._said: list[Said | None] = [None, None]
        self._until: list[float] = [0.0, 0.0]
        self._timers: dict[Player, Handle] = {}

    def say(self, player: Player, text: str, kind: Outcome = Outcome.IGNORED) -> None:
        """Show `text` beside `player` for MESSAGE_S of game time (it waits while paused)."""
        self.put(player, text, kind)
        self._changed()

    def put(
        self, player: Player, text: str, kind: Outcome, last_s: float = MESSAGE_S
    ) -> None:
        """Put a word beside `player` without a repaint now (the table repaints
        once it has decided); `last_s` of game time, FOREVER: until the next."""
        due = self.clock.now() + last_s
        self._said[player] = Said(text, kind)
        self._until[player] = due
        old = self._timers.get(player)
        if old is not None:
            if old.when == due and not old.cancelled:
                return  # the clock has not moved: the timer already set is the one
            old.cancel()
        if due != FOREVER:
            self._timers[player] = self.clock.call_at(due, self._changed)

    def clear(self, player: Player) -> None:
        """No word beside `player` (their key was played)."""
        self._said[player] = None

    def forget(self) -> None:
        """No word beside anyone (a new game)."""
        self._said = [None, None]

    def message(self, player: Player) -> Message | None:
        """The word beside `player` now, with when it runs out."""
        said, until = self._said[player], self._until[player]
        if said is None or until <= self.clock.now():
            return None
        return Message(said.text, said.kind, until)

    def said(self, now: float) -> tuple[Said | None, Said | None]:
        """Both players' words as the scene shows them at `now`."""
        (left, right), (u_left, u_right) = self._said, self._until
        return (left if u_left > now else None, right if u_right > now else None)


LOST_CELLS = 35  # a lost race's words beside its player at 80 columns (tests/app/test_words.py)


def too_late(last: Event | None, p: Player, names: tuple[str, str], reason: str) -> str:
    """A lost race, in words that say whose card won: "too late: RIGHT played
    9♦ first" ("RIGHT slapped first" for a slap); `reason` (the engine's) if
    the last event was `p`'s own. With a name too long for the player's
    message line, "the other" (there are two players)."""
    if last is None or last.action.player is p:
        return reason
    name = names[last.action.player]
    if isinstance(last.action, Slap):
        return slapped_first(name)
    if isinstance(last.action, Play) and last.card is not None:
        said = f"too late: {name} played {last.card.face} first"
        return said if len(said) <= LOST_CELLS else f"too late: {last.card.face} was played first"
    return _fits(f"too late: {name} was first", "too late: the other was first")


def slapped_first(name: str) -> str:
    return _fits(f"too late: {name} slapped first", "too late: the other slapped first")


def _fits(said: str, short: str) -> str:
    return said if len(said) <= LOST_CELLS else short


def idle(phase: Phase) -> str:
    """Why a key that means nothing in `phase` did nothing."""
    if phase is Phase.SLAP:
        return "slap a pile: top or middle row"
    if phase is Phase.OVER:
        return "the game is over"
    return "that key does nothing now"


def computers_half(p: Player) -> str:
    """Why a key on the computer's half did nothing."""
    return f"computer's half: use the {p.other.label.lower()} half"
