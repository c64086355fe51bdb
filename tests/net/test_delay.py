"""The delay proxy (net/delay.py) on 127.0.0.1: each message waits its delay
plus uniform jitter, in order, in each direction, and the host's ping sees it."""

from __future__ import annotations

import asyncio

from spit_tui.clock import RealClock
from spit_tui.engine import Player
from spit_tui.net.client import Client
from spit_tui.net.delay import DelayProxy
from spit_tui.net.host import Host, Timings
from spit_tui.net.protocol import check_host_message, encode, hello, read_frame
from spit_tui.net.remote import RemoteSeat
from spit_tui.net.seat import LocalSeat

FAST = Timings(countdown_s=0.05, stale_s=0.02, stuck_delay_s=0.02)


async def test_messages_wait_their_delay_with_jitter_and_keep_their_order() -> None:
    host = Host(port=0, timings=FAST, seed=2)
    await host.start()
    proxy = DelayProxy(("127.0.0.1", host.port), 0.030, 0.010, seed=1)
    await proxy.start()
    try:
        room = host.new_room()
        r, w = await asyncio.open_connection("127.0.0.1", proxy.port)
        loop = asyncio.get_running_loop()
        sent = loop.time()
        w.write(encode(hello(room.code, "left")))
        async with asyncio.timeout(5.0):
            body = await read_frame(r)
        assert body is not None and check_host_message(body)["type"] == "welcome"
        assert loop.time() - sent >= 0.040  # two ways, each at least 30 - 10 ms
        w.write(b"".join(encode({"type": "ping", "id": i}) for i in range(1, 41)))
        ids = []
        async with asyncio.timeout(5.0):
            while len(ids) < 40:
                body = await read_frame(r)
                assert body is not None
                msg = check_host_message(body)
                if msg["type"] == "pong":
                    ids.append(msg["id"])
        assert ids == list(range(1, 41))  # jittered, and still in order
        for way in (proxy.up, proxy.down):
            assert len(way.applied) >= 41
            assert all(0.020 <= d <= 0.040 for d in way.applied)
            assert max(way.applied) - min(way.applied) > 0.010  # the jitter is there
        w.close()
    finally:
        await proxy.close()
        await host.close()


async def test_the_host_measures_a_seat_behind_the_proxy_and_holds_its_own() -> None:
    """RIGHT joins through a 40 ms proxy; LEFT is the host's own seat, in process,
    which answers pings at once, so the room holds LEFT for RIGHT's distance.
    (The proxy is a relay TCP does not see: the host is told to trust the
    pings, or it would prove RIGHT 0 ms away: test_fair_cheat.py.)"""
    host = Host(port=0, timings=FAST, seed=2, trust_pongs=True)
    await host.start()
    proxy = DelayProxy(("127.0.0.1", host.port), 0.040)
    await proxy.start()
    try:
        room = host.new_room()
        local = LocalSeat(room, Player.LEFT)
        local.attach(RemoteSeat(Player.LEFT, local.press, RealClock(), FAST.stale_s),
                     lambda line: None)
        client = await Client.join("127.0.0.1", proxy.port, room.code)
        rtt = room.seats[client.seat].rtt
        async with asyncio.timeout(10.0):
            while rtt.samples < 4:
                await asyncio.sleep(0.1)
        assert rtt.srtt is not None and 0.079 <= rtt.srtt < 0.4  # 80 ms and the load
        own = room.seats[Player.LEFT].rtt.srtt
        assert own is not None and own < 0.02  # the in-process seat answers at once
        held = room.holds()
        assert 0.035 <= held[Player.LEFT] < 0.2 and held[Player.RIGHT] == 0.0  # (the load)
        await client.close()
    finally:
        await proxy.close()
        await host.close()
