"""A running host on 127.0.0.1 (any free port) for a test's duration."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from spit_tui.net.host import Host, Timings

FAST = Timings(countdown_s=0.05, stale_s=0.05, stuck_delay_s=0.05)  # a test's game pace


@asynccontextmanager
async def running_host(**kwargs: Any) -> AsyncIterator[Host]:
    """A started Host (Host's own keyword arguments; port 0 and FAST timings
    unless given), closed when the block ends, whatever happened in it."""
    kwargs.setdefault("port", 0)
    kwargs.setdefault("timings", FAST)
    host = Host(**kwargs)
    await host.start()
    try:
        yield host
    finally:
        await host.close()
