"""The SSH door in front of a host that shares a directory: a guest given a
code that another host holds sits at that host's room (a real asyncssh
client; the guest's game is a real `spit-tui join` process; a real
redis-server)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from testkit.host import running_host
from testkit.redis import redis_server
from testkit.ssh import BOUND_S, connect, served

from spit_tui.engine import Player
from spit_tui.net.redisdir import RedisDirectory

LOCAL = "127.0.0.1"


async def test_a_guest_sits_at_a_room_another_host_holds(tmp_path: Path) -> None:
    with redis_server(tmp_path) as server:
        async with served(tmp_path) as s, running_host(seed=3) as a:
            dirs = [
                RedisDirectory(server.url, h.lobby, LOCAL, h.port, ttl_s=1.5)
                for h in (s.host, a)
            ]
            for d in dirs:
                await d.start()
            try:
                room = a.new_room()
                g = await connect(s, "ana")
                screen = await g.open(room.code)
                await screen.wait_for(b"Waiting for RIGHT to join")
                async with asyncio.timeout(BOUND_S):
                    while room.seats[Player.LEFT].conn is None:
                        await asyncio.sleep(0.05)
                assert room.table.seats.names[Player.LEFT] == "ana"
                assert room.code not in s.host.lobby.rooms  # the door's host sent it on
                g.close()
            finally:
                for d in dirs:
                    await d.close()
