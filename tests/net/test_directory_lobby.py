"""The lobby in a real terminal finds rooms on another host: `spit-tui join
HOST` (the lobby every door shows) asked of host B joins by code a room that
host A holds, and watches it from a second terminal, through the directory
in a real redis-server (hosts on their own loops in threads)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from testkit.redis import redis_server
from testkit.terminals import Terminals, ThreadHost

from spit_tui.engine import Player
from spit_tui.net.redisdir import RedisDirectory

LOCAL = "127.0.0.1"


@contextmanager
def directory_hosts(url: str, n: int) -> Iterator[list[ThreadHost]]:
    hosts: list[ThreadHost] = []
    dirs: list[tuple[ThreadHost, RedisDirectory]] = []
    try:
        for _ in range(n):
            th = ThreadHost(seed=3)
            hosts.append(th)
            d = RedisDirectory(url, th.host.lobby, LOCAL, th.host.port, ttl_s=1.5)
            th.call(d.start())
            dirs.append((th, d))
        yield hosts
    finally:
        for th, d in dirs:
            th.call(d.close())
        for th in hosts:
            th.close()


def test_the_lobby_joins_and_watches_a_room_another_host_holds(
    terms: Terminals, tmp_path: Path
) -> None:
    with redis_server(tmp_path) as server, directory_hosts(server.url, 2) as (a, b):
        room = a.read(a.host.new_room)
        asked = f"{LOCAL}:{b.host.port}"
        terms.start("guest", ["join", asked])
        terms.start("watcher", ["join", asked])
        for name, key in (("guest", "j"), ("watcher", "w")):
            terms.wait(name, "Quick match")
            terms.send(name, key)
            if key == "w":  # Watch a game lists this host's games: a code typed instead
                terms.wait(name, "by code")
                terms.send(name, "c")
            terms.wait(name, "room code, like")
            terms.send(name, room.code)
            terms.wait(name, room.code)
            terms.key(name, "Enter")
        terms.wait("guest", "Waiting for RIGHT to join")
        terms.wait("watcher", "1 watching")
        assert a.read(lambda: room.seats[Player.LEFT].conn is not None)
        assert a.read(lambda: len(room.watchers)) == 1
        assert not b.read(lambda: b.host.lobby.rooms.get(room.code))
