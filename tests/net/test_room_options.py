"""The game a host's rooms play: `host` (and `ssh-serve`'s own host) take
--variant, --target and --manual-flip, and every room, rematches too, plays
it; the seats' boards say so."""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys

import pytest
from testkit.procs import stop

from spit_tui.engine import Options, Variant
from spit_tui.net.client import Client


async def test_a_hosts_rooms_play_its_options() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "spit_tui", "host", "--port", "0", "--no-history",
         "--variant", "points", "--target", "30", "--manual-flip"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        first = await asyncio.to_thread(proc.stdout.readline)
        m = re.search(r"hosting on 127\.0\.0\.1:(\d+); room code (\S+)", first)
        assert m, first
        client = await Client.join("127.0.0.1", int(m[1]), m[2], name="ana")
        async with asyncio.timeout(10):
            while client.latest is None:
                await client.changed(1.0)
        assert client.latest.options == Options(Variant.POINTS, 30, True)
        await client.close()
    finally:
        stop(proc)


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["host", "--target", "0"], "--target: a number from 1 to 10000"),
        (["host", "--variant", "golf"], "invalid choice"),
        (["ssh-serve", "--host", "127.0.0.1:7878", "--variant", "points"], "for our own host"),
        (["host", "--match", "0"], "--match: a number from 1 to 99"),
        (["ssh-serve", "--match", "x2"], "--match: a number from 1 to 99"),
        (["ssh-serve", "--host", "127.0.0.1:7878", "--db", "f.db"], "for our own host"),
    ],
)
def test_bad_room_options_are_one_line(argv: list[str], says: str) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "spit_tui", *argv], capture_output=True, text=True, timeout=30
    )
    assert run.returncode == 2 and says in run.stderr and run.stderr.count("\n") == 1


async def test_a_room_asked_for_with_no_options_plays_the_hosts() -> None:
    """The lobby's New room left at "the host's own" sends no options: a host
    started for points to 30 makes a points-to-30 room."""
    from spit_tui.net.host import Host
    from spit_tui.net.joincmd import ask_room

    host = Host(port=0, options=Options(Variant.POINTS, 30))
    await host.start()
    try:
        code = await ask_room("127.0.0.1", host.port, options=None)
        assert code is not None
        assert host.lobby.rooms[code].table.game.options == Options(Variant.POINTS, 30)
        chosen = await ask_room("127.0.0.1", host.port, options=Options())  # chosen: standard
        assert chosen is not None
        assert host.lobby.rooms[chosen].table.game.options == Options()
    finally:
        await host.close()
