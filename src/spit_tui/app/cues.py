"""What the game screen does beyond drawing, as the settings ask: the terminal
bell, and reduced motion.

Both work on the Scenes the game screen draws (GameScreen.sync), the one path
every change takes whatever its cause (a key, the computer, a host's view, a
timer), for every door alike: a local table, a seat at a host's game. So the
bell hears exactly what the board shows, with no second copy of the key path.

- The bell (off by default) rings, for each event chosen (settings.BELL_EVENTS),
  when the board starts showing it: a race lost (a "too late" beside a
  player), the call to spit (a round's first banner, or "no plays left:
  spit!"), the slap. One ring per change of the board however many events.
- Reduced motion draws each Scene still: no highlight of the card just played
  nor frame round the stockpile it left, and the countdown to the spit as one
  unchanging line rather than a shrinking bar.
"""

from __future__ import annotations

from collections.abc import Callable

from spit_tui.engine import PLAYERS, Phase
from spit_tui.scene import Outcome, Scene


def spit_called(s: Scene) -> bool:
    """The banner calls on the players to spit."""
    return s.phase is Phase.SPIT and not s.counting_down and (s.stuck or not any(s.pile_sizes))


def heard(last: Scene, now: Scene) -> set[str]:
    """The bell's events the board starts showing between two Scenes."""
    out = set()
    if now.phase is Phase.SLAP and last.phase is not Phase.SLAP:
        out.add("slap")
    if spit_called(now) and not spit_called(last):
        out.add("spit")
    for p in PLAYERS:
        said = now.messages[p]
        if said is not None and said.kind is Outcome.LOST_RACE and said != last.messages[p]:
            out.add("lost-race")
    return out


class Bell:
    """Rings `ring` (the app's terminal bell) for the chosen events."""

    def __init__(self, ring: Callable[[], None], events: frozenset[str]) -> None:
        self.ring = ring
        self.events = events
        self.rung = 0  # how many times it rang (for tests and tools)
        self._last: Scene | None = None

    def saw(self, scene: Scene) -> None:
        last, self._last = self._last, scene
        if last is None or last is scene:
            return
        if heard(last, scene) & self.events:
            self.rung += 1
            self.ring()


def still(scene: Scene) -> Scene:
    """`scene` with nothing that moves by itself (reduced motion)."""
    if not scene.lit and scene.left_slot is None and scene.countdown_end is None:
        return scene
    end = scene.countdown_end
    return scene._replace(
        lit=(),
        left_slot=None,
        countdown_end=None if end is None else scene.at + scene.countdown_s,
    )
