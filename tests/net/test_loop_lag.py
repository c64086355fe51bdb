"""A host that is behind does not blame its players (issue 24).

On a busy machine the host's own loop runs late, reads every pong late,
and measured every seat's pings as late as itself: both players were told
"LEFT answers pings 200 ms late" for the host's own delay. The host now
measures its loop's lateness (net.latency.LoopLag, from the ping loop's own
wake-ups) and takes it off each sample before a seat is called unusual:
here on the room's virtual clock, with a fake loop that wakes late, and
once on a real host whose loop is blocked."""

from __future__ import annotations

import asyncio
import json
import time

from simnet import SimRoom
from test_host import FAST

from spit_tui.clock import VirtualClock
from spit_tui.engine import Player
from spit_tui.net.host import Host
from spit_tui.net.latency import LoopLag, Rtt

NEAR = 0.005  # both seats are truly this far from the host, one way
STEP = 0.05  # the fake host loop means to wake this often


def test_the_loops_lateness_is_its_worst_wake_up_of_the_last_window() -> None:
    lag = LoopLag(window_s=1.0)  # times in binary fractions: exact sums
    assert lag.late_s(0.0) == 0.0
    lag.expect(0.0625)
    assert lag.woke(0.3125) == 0.25
    assert lag.late_s(0.375) == 0.25
    lag.expect(0.375)
    assert lag.woke(0.376953125) == 0.001953125
    assert lag.late_s(1.25) == 0.25  # the 250 ms wake-up is still in the window
    assert lag.late_s(1.34375) == 0.001953125  # and forgotten after it
    lag.expect(1.5)
    assert lag.late_s(2.0) == 0.5  # a wake-up overdue now counts as it stands


def test_the_hosts_share_of_a_round_trip_is_excused() -> None:
    r = Rtt()
    for _ in range(20):
        r.sample(0.21, host_late=0.2)
    assert r.srtt is not None and abs(r.srtt - 0.21) < 1e-9
    assert r.seats_own is not None and abs(r.seats_own - 0.01) < 1e-9
    r.sample(0.05, host_late=0.5)  # never more than the whole sample
    assert r.excused <= r.srtt


def _lagging_host(sim: SimRoom, late: float, since: float = 0.0) -> None:
    """From `since` on, the host's loop (a fake one on the room's virtual
    clock, as the host's ping loop measures itself) wakes `late` after each
    STEP it meant to sleep, and so reads every pong `late` late."""
    clock = sim.clock
    assert isinstance(clock, VirtualClock)
    lag = LoopLag()

    def wake() -> None:
        lag.woke(clock.now())
        due = clock.now() + STEP
        lag.expect(due)
        clock.call_at(due + (late if clock.now() >= since else 0.0), wake)

    def behind() -> None:
        for seat in sim.seats.values():
            seat.pong_delay += late

    wake()
    clock.call_at(since, behind)
    sim.room.loop_late = lag.late_s


def _told(sim: SimRoom) -> list[str]:
    told: list[str] = []
    for seat in sim.seats.values():
        seat.on_view = lambda msg: told.append(json.dumps(msg["message"]))
    return told


def test_a_host_reading_pongs_late_blames_no_seat() -> None:
    # After 2 s the host's loop runs 200 ms late: every pong then waits that
    # long to be read (it reaches the room 200 ms after it arrived).
    sim = SimRoom((NEAR, NEAR), 0.002, seed=12)
    _lagging_host(sim, 0.2, since=2.0)
    told = _told(sim)
    sim.clock.advance(7.0)
    assert sim.room.seats[Player.LEFT].rtt.srtt is not None
    assert sim.room.seats[Player.LEFT].rtt.srtt > 0.1  # measured late, as before
    assert not any("ms late" in t for t in told), told  # but nobody is blamed


def test_a_seat_that_is_late_itself_is_still_told_on_a_slow_host() -> None:
    sim = SimRoom((NEAR, NEAR), 0.002, seed=12, pong_delays=(0.0, 0.29))
    _lagging_host(sim, 0.02)
    told = _told(sim)
    sim.clock.advance(5.0)
    lines = [t for t in told if "ms late" in t]
    assert lines and all("RIGHT: pings" in t for t in lines), told
    late = int(json.loads(lines[0])["text"].split()[2])
    assert 200 <= late <= 300, lines  # its own lateness, not the host's 20 ms with it


async def test_a_real_host_measures_how_late_its_own_loop_runs() -> None:
    h = Host(port=0, timings=FAST, seed=7)
    await h.start()
    try:
        room = h.new_room()
        await asyncio.sleep(0.1)
        time.sleep(0.3)  # the host's loop is kept from running (a busy machine)
        await asyncio.sleep(0.1)
        now = asyncio.get_running_loop().time()
        assert h.loop_lag.late_s(now) >= 0.2
        assert room.loop_late(now) == h.loop_lag.late_s(now)  # what its rooms excuse
    finally:
        await h.close()
