"""The play clock: game seconds while play is on, for the round clock on the
header, the game-over line and the history's play time.

It reads the pausable game clock (`now` is the clock's time), so whatever
pauses the game (a help page, a covered screen, a suspended or stopped
process) is already left out; the Table runs it only while cards can be
played or slapped, so the wait for the spit and the countdown are left out
too. A value, not an object with a clock inside: the Table's `Showing`
holds it and a new game replaces it whole.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(slots=True, eq=False, repr=False)  # only __init__: compiled at every start
class Stopwatch:
    """Seconds counted so far (`total`), plus the run since `since` if running."""

    total: float = 0.0
    since: float | None = None

    @property
    def running(self) -> bool:
        return self.since is not None

    def run(self, now: float, on: bool) -> None:
        """Start (`on`) or stop at game time `now`; starting a running one changes nothing."""
        if on and self.since is None:
            self.since = now
        elif not on and self.since is not None:
            self.total += max(0.0, now - self.since)
            self.since = None

    def seconds(self, now: float) -> float:
        """Seconds counted by game time `now`."""
        run = max(0.0, now - self.since) if self.since is not None else 0.0
        return self.total + run


def clock_text(seconds: float) -> str:
    """Seconds as the players read them, m:ss, whole seconds down: the round
    clock, the game-over line, the replay, and the history's lengths."""
    s = int(seconds)
    return f"{s // 60}:{s % 60:02d}"
