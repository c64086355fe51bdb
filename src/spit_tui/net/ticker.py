"""A room's clock run from the host's event loop by one timer handle, not a
task per room.

Each room's Table has its own game clock; something must run what falls due
on it (countdowns, message expiries, held views and keys) and look again
whenever the room changes (`Room.poke`). A task per room did that with an
Event and a timeout per wake-up; one timer handle per room does the same
work for a fraction of the loop's bookkeeping (benchmarks/scale.py, issue
24): a poke runs the room once at the loop's next turn however many pokes
came in this one, and the room's next due time is one `call_later`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable


class Ticker:
    """Runs `run` at the loop's next turn after each `poke`, and again when the
    seconds it returns have passed (None: nothing is due, wait for a poke)."""

    __slots__ = ("_handle", "_loop", "_run", "_soon", "stopped")

    def __init__(self, loop: asyncio.AbstractEventLoop, run: Callable[[], float | None]) -> None:
        self._loop = loop
        self._run = run
        self._handle: asyncio.TimerHandle | None = None
        self._soon = False
        self.stopped = False

    def poke(self) -> None:
        """Something changed: run at the loop's next turn (once, however many pokes)."""
        if not self._soon and not self.stopped:
            self._soon = True
            self._loop.call_soon(self._fire)

    def _fire(self) -> None:
        self._soon = False
        if self.stopped:
            return
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
        wait = self._run()
        if wait is not None and not self.stopped:
            self._handle = self._loop.call_later(wait, self._fire)

    def stop(self) -> None:
        """Never run again."""
        self.stopped = True
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
