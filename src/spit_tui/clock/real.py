"""The game clock on real time: `time.monotonic()` minus the time spent paused.

The app ticks it (`update()`) from a Textual timer and before each key, and
sleeps `wait_s()` until the next timed event. Everything timed in the app runs
on it (the table's countdown and messages, the bots, the header's hints), so
all of it waits while the game is paused, and tests swap in a VirtualClock
that steps instead.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from .scheduler import GameClock


class RealClock(GameClock):
    """Game time = real seconds since the clock was made, less every pause."""

    def __init__(
        self,
        source: Callable[[], float] = time.monotonic,
        *,
        tiebreak: random.Random | None = None,
    ) -> None:
        super().__init__(0.0, tiebreak=tiebreak)
        self._source = source
        self._t0 = source()
        self._paused_total = 0.0
        self._paused_since: float | None = None
        self._seen = self._t0  # real time of the last update: where a stop began, at the latest

    def game_time(self) -> float:
        """Where the game's time stands by the real clock (frozen while paused)."""
        if self._paused_since is not None:
            return self._now
        return self._source() - self._t0 - self._paused_total

    def update(self) -> int:
        """Run everything due by now."""
        if self._paused_since is not None:
            return 0
        self._seen = self._source()
        return self.tick(self.game_time())

    def wait_s(self) -> float | None:
        due = self.next_time()
        if due is None or self._paused_since is not None:
            return None
        return max(0.0, due - self.game_time())

    def pause(self, reason: str, on: bool) -> None:
        was = self.paused
        if on and not was:
            self.update()  # what was due before the pause runs first
        super().pause(reason, on)
        if self.paused and not was:
            self._paused_since = self._source()
        elif was and not self.paused and self._paused_since is not None:
            self._seen = self._source()
            self._paused_total += self._seen - self._paused_since
            self._paused_since = None

    def stopped(self) -> float:
        """The process was stopped (SIGSTOP, then SIGCONT) without being told first:
        count the time since the clock last ran as paused, so the game resumes
        where it stood then. Returns the seconds taken out (0 while paused: a
        pause already holds the time)."""
        if self._paused_since is not None:
            return 0.0
        now = self._source()
        gap = max(0.0, now - self._seen)
        self._paused_total += gap
        self._seen = now
        return gap
