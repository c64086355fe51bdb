"""A heap of timed callbacks shared by the real and the virtual clock, and the
pause that stops them: one place that says whether the game's time runs."""

from __future__ import annotations

import heapq
import itertools
import random
from collections.abc import Callable

Callback = Callable[[], object]


class Handle:
    """A scheduled callback; `cancel()` makes it never run."""

    __slots__ = ("callback", "cancelled", "when")

    def __init__(self, when: float, callback: Callback) -> None:
        self.when = when
        self.callback = callback
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class GameClock:
    """Time as the game sees it. `tick(now)` runs everything due by `now`, in
    time order, so timed effects never depend on how often the driver ticks.

    Callbacks due at the same instant run in scheduling order, unless the
    clock was given `tiebreak`: then a seeded coin orders them, so that when
    two bots act at the same simulated instant neither side is favoured by
    having been scheduled first (issue 4). Without it nothing changes.

    Pausing (`pause(reason, True)`, for as many reasons as cover the game: a
    help page, the quit dialog, a window too small, a suspended process) stops
    time: while any reason holds, `tick` runs nothing and `now()` stands still,
    so a countdown, a message or a bot's next move waits for the game to resume.
    """

    def __init__(self, start: float = 0.0, *, tiebreak: random.Random | None = None) -> None:
        self._now = start
        self._heap: list[tuple[float, float, int, Handle]] = []
        self._seq = itertools.count()
        self._tiebreak = tiebreak
        self._pauses: set[str] = set()

    def now(self) -> float:
        return self._now

    def call_at(self, when: float, callback: Callback) -> Handle:
        h = Handle(max(when, self._now), callback)
        coin = self._tiebreak.random() if self._tiebreak is not None else 0.0
        heapq.heappush(self._heap, (h.when, coin, next(self._seq), h))
        return h

    def call_later(self, delay: float, callback: Callback) -> Handle:
        return self.call_at(self._now + max(0.0, delay), callback)

    def next_time(self) -> float | None:
        """When the next live callback is due, or None if nothing is scheduled."""
        heap = self._heap
        while heap and heap[0][3].cancelled:
            heapq.heappop(heap)
        return heap[0][0] if heap else None

    # -- pausing ----------------------------------------------------------------------

    @property
    def paused(self) -> bool:
        return bool(self._pauses)

    def pause(self, reason: str, on: bool) -> None:
        """Pause for `reason` (or lift that reason); time runs when no reason is left."""
        if on:
            self._pauses.add(reason)
        else:
            self._pauses.discard(reason)

    def update(self) -> int:
        """Catch up with the time source, if the clock has one (the real clock);
        a clock without one moves only when told (`tick`, or a virtual clock's steps)."""
        return 0

    def stopped(self) -> float:
        """The process was stopped without notice; a clock without a time source
        saw no time pass (the real clock takes the stop out: see RealClock)."""
        return 0.0

    def wait_s(self) -> float | None:
        """Real seconds until the next callback is due, for a driver that sleeps
        until then; None if nothing is due or this clock does not follow real time."""
        return None

    # -- running ------------------------------------------------------------------------

    def tick(self, now: float) -> int:
        """Advance to `now` (never backwards), running due callbacks; returns how many ran.
        A paused clock does neither."""
        if self._pauses:
            return 0
        ran = 0
        heap = self._heap
        while heap and heap[0][0] <= now:
            when, _, _, h = heapq.heappop(heap)
            if h.cancelled:
                continue
            self._now = max(self._now, when)
            h.callback()
            ran += 1
        self._now = max(self._now, now)
        return ran

    @property
    def pending(self) -> int:
        return sum(1 for *_, h in self._heap if not h.cancelled)


class VirtualClock(GameClock):
    """Simulated time: `step()` jumps to the next event instead of waiting."""

    def step(self) -> bool:
        """Run the callbacks due at the next scheduled instant; False if none (or paused)."""
        t = self.next_time()
        if t is None or self.paused:
            return False
        self.tick(t)
        return True

    def run(self, until: float | None = None, max_steps: int = 10_000_000) -> None:
        """Step until nothing is scheduled (or simulated time passes `until`);
        nothing while paused: paused time is time the game does not see."""
        for _ in range(max_steps):
            t = self.next_time()
            if t is None or self.paused or (until is not None and t > until):
                break
            self.tick(t)
        if until is not None:
            self.tick(until)

    def advance(self, seconds: float) -> None:
        self.run(until=self._now + seconds)
