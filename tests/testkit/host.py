"""A running host on 127.0.0.1 (any free port) for a test's duration, and a
check that nothing a test left running refuses to end (`no_task_stuck`)."""

from __future__ import annotations

import asyncio
import io
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


async def no_task_stuck(bound_s: float = 10.0) -> None:
    """Cancel every task of this loop but the caller's, and fail, with each one's
    stack, if one has not ended `bound_s` after: pytest-asyncio's loop teardown
    waits for such a task without a bound (a worker once hung there for minutes,
    after a directory test, and the task was never named)."""
    me = asyncio.current_task()
    left = [t for t in asyncio.all_tasks() if t is not me and not t.done()]
    for task in left:
        task.cancel()
    if not left:
        return
    _, stuck = await asyncio.wait(left, timeout=bound_s)
    stacks = []
    for task in stuck:
        out = io.StringIO()
        task.print_stack(file=out)
        stacks.append(out.getvalue())
    assert not stuck, "tasks that did not end when cancelled:\n" + "\n".join(stacks)
