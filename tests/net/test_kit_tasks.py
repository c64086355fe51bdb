"""The test kit's check that no task refuses to end (testkit.host.no_task_stuck)."""

from __future__ import annotations

import asyncio
import contextlib

import pytest
from testkit.host import no_task_stuck


async def test_a_task_that_will_not_end_is_named_and_one_that_ends_is_not() -> None:
    async def stubborn() -> None:
        while True:
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.sleep(10)

    polite = asyncio.create_task(asyncio.sleep(10))
    await no_task_stuck(bound_s=0.2)
    assert polite.cancelled()
    task = asyncio.create_task(stubborn(), name="stubborn")
    await asyncio.sleep(0)
    with pytest.raises(AssertionError, match="stubborn"):
        await no_task_stuck(bound_s=0.2)
    task.get_coro().close()  # it ends only this way
