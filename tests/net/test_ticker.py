"""A room's clock is run by one timer handle on the host's loop, not a task per
room (issue 24): pokes in one turn of the loop run it once, its next timed
event runs on time, and a host's rooms add no task each."""

from __future__ import annotations

import asyncio

from test_host import FAST

from spit_tui.net.host import Host
from spit_tui.net.ticker import Ticker


async def test_pokes_in_one_turn_run_once_and_the_next_due_time_runs_again() -> None:
    loop = asyncio.get_running_loop()
    runs: list[float] = []
    waits = [0.05, None]

    def run() -> float | None:
        runs.append(loop.time())
        return waits.pop(0) if waits else None

    ticker = Ticker(loop, run)
    for _ in range(5):
        ticker.poke()
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    assert len(runs) == 1  # five pokes, one run
    await asyncio.sleep(0.2)
    assert len(runs) == 2 and runs[1] - runs[0] >= 0.049  # its next due time came
    ticker.poke()
    ticker.stop()
    await asyncio.sleep(0.05)
    assert len(runs) == 2  # stopped: never again


async def test_a_poke_brings_the_next_run_forward_and_stop_cancels_the_timer() -> None:
    loop = asyncio.get_running_loop()
    runs: list[float] = []

    def run() -> float | None:
        runs.append(loop.time())
        return 10.0  # far away

    ticker = Ticker(loop, run)
    ticker.poke()
    await asyncio.sleep(0.01)
    ticker.poke()  # a change: run now, not in 10 s
    await asyncio.sleep(0.01)
    assert len(runs) == 2
    ticker.stop()
    assert ticker._handle is None


async def test_a_hosts_rooms_add_no_task_each() -> None:
    h = Host(port=0, timings=FAST, seed=5)
    await h.start()
    try:
        before = len(asyncio.all_tasks())
        rooms = [h.new_room() for _ in range(50)]
        await asyncio.sleep(0.05)
        assert len(asyncio.all_tasks()) == before
        assert len(h._tickers) == 50
        h._stop(rooms[0], "stopped")
        assert len(h._tickers) == 49 and rooms[0].code not in h.lobby.rooms
    finally:
        await h.close()
    assert h._tickers == {}
