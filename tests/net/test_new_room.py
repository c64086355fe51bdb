"""`new_room` over the wire: a running host makes another room and tells its
code (the way `join --new-room` and the scale benchmark make rooms), within a
host-wide rate limit and a cap on rooms; 127.0.0.1 only."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from testkit.host import running_host

from spit_tui.engine import Player
from spit_tui.keys.intent import Row
from spit_tui.net.client import Client, JoinRefused
from spit_tui.net.host import Host, Timings
from spit_tui.net.protocol import encode, first, read_frame

FAST = Timings(countdown_s=0.05, stale_s=0.02, stuck_delay_s=0.02)


@pytest.fixture
async def host() -> AsyncIterator[Host]:
    async with running_host(timings=FAST, seed=7, room_rate=0.5) as h:  # bursts of 5, then 1/2 s
        yield h


async def test_a_new_room_has_a_code_both_seats_can_take(host: Host) -> None:
    code = await Client.new_room("127.0.0.1", host.port)
    room = host.lobby.rooms[code]
    assert room.expires and len(host.lobby.rooms) == 1
    left = await Client.join("127.0.0.1", host.port, code)
    right = await Client.join("127.0.0.1", host.port, code)
    assert (left.seat, right.seat) == (Player.LEFT, Player.RIGHT)
    async with asyncio.timeout(5.0):  # the host pings both seats; the views show it
        while left.latest is None or None in left.latest.pings:
            await left.changed(1.0)
    assert all(0 <= ms < 1000 for ms in left.latest.pings if ms is not None)
    await left.close()
    await right.close()


async def test_new_rooms_are_rate_limited_and_one_per_connection(host: Host) -> None:
    codes = [await Client.new_room("127.0.0.1", host.port) for _ in range(5)]
    assert len(set(codes)) == 5
    with pytest.raises(JoinRefused, match="too many new rooms"):
        await Client.new_room("127.0.0.1", host.port)
    assert len(host.lobby.rooms) == 5
    host.lobby.room_bucket.level = 5.0
    host.lobby.asks.buckets.clear()  # and this address's own bucket
    r, w = await asyncio.open_connection("127.0.0.1", host.port)
    ask = encode(first("new_room", options=None))
    w.write(ask + ask)
    async with asyncio.timeout(3.0):
        one, second = await read_frame(r), await read_frame(r)
    assert one is not None and b'"room"' in one
    assert second is not None and b"one new room per connection" in second
    w.close()


async def test_a_full_host_makes_no_room_and_an_unused_room_expires(host: Host) -> None:
    host.lobby.max_rooms = 1
    code = await Client.new_room("127.0.0.1", host.port)
    with pytest.raises(JoinRefused, match="no room for another game"):
        await Client.new_room("127.0.0.1", host.port)
    room = host.lobby.rooms[code]
    now = asyncio.get_running_loop().time()
    host._sweep(now + host.limits.no_play_s - 1)
    assert code in host.lobby.rooms  # not yet
    host._sweep(now + host.limits.no_play_s)  # no card played in it: it goes
    assert code not in host.lobby.rooms and room.table is not None
    with pytest.raises(JoinRefused, match="no room with that code"):
        await Client.join("127.0.0.1", host.port, code)
    taken = host.new_room()  # the host's own room (not made over the wire) stays
    await Client.join("127.0.0.1", host.port, taken.code)
    host._sweep(now + 10 * host.limits.no_play_s)
    assert taken.code in host.lobby.rooms


async def test_every_key_is_answered_by_a_view_that_counts_it(host: Host) -> None:
    code = await Client.new_room("127.0.0.1", host.port)
    left = await Client.join("127.0.0.1", host.port, code)
    right = await Client.join("127.0.0.1", host.port, code)
    for _ in range(3):  # in the spit phase a play key means nothing: refused, table unchanged
        left.press(Row.FILL, 4)
        await asyncio.sleep(0.1)  # apart, so no key is a repeat
    async with asyncio.timeout(5.0):
        while left.latest is None or left.heard < 3:
            await left.changed(1.0)
    assert left.heard == 3
    assert right.latest is not None and right.heard == 0
    await left.close()
    await right.close()
