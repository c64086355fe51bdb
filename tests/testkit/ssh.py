"""An SSH door in the test's own event loop (a game host of its own on
127.0.0.1, a host key made in memory) and asyncssh guests that read what the
door sends into one buffer, as a terminal would."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncssh

from spit_tui.net.host import Host
from spit_tui.ssh.admission import Admission
from spit_tui.ssh.server import Door, listen

BOUND_S = 20.0  # a bound on every wait, not a speed
CODE = re.compile(rb"[0-9a-z]{5}-[0-9a-z]{5}")


@dataclass
class Served:
    door: Door
    host: Host
    port: int
    key: asyncssh.SSHKey
    sessions: list[Any] = field(default_factory=list)


@asynccontextmanager
async def served(tmp: Path, history: Any = None, **door_args: Any) -> AsyncIterator[Served]:
    """`history`: the host's HistoryWriter; the door vouches for its guests'
    keys to its host, as ssh-serve's own host."""
    host = Host(port=0, history=history)
    await host.start()
    key = asyncssh.generate_private_key("ssh-ed25519")
    admission = door_args.pop("admission", None) or Admission()
    door = Door(("127.0.0.1", host.port), admission, guest_home=tmp / "guests", **door_args)
    door.vouch, door.revoke = host.lobby.vouch, host.lobby.revoke
    if history is not None:  # each guest's lobby reads it (My stats, the day's table)
        door.history = history.path.absolute()
    out = Served(door, host, 0, key)
    door.on_session = out.sessions.append
    acceptor = await listen(door, key, "127.0.0.1", 0)
    out.port = door.port
    try:
        yield out
    finally:
        await door.stop()
        acceptor.close()
        await acceptor.wait_closed()
        await host.close()


class Screen(asyncssh.SSHClientSession[bytes]):
    """What the guest's terminal received, as bytes, and how the session ended."""

    def __init__(self) -> None:
        self.out = bytearray()
        self.changed = asyncio.Event()
        self.closed = asyncio.Event()
        self.status: int | None = None
        self.on_data: Callable[[bytes], None] = lambda data: None

    def data_received(self, data: bytes, datatype: Any) -> None:
        self.out += data
        self.on_data(data)
        self.changed.set()

    def exit_status_received(self, status: int) -> None:
        self.status = status

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed.set()
        self.changed.set()

    async def quiet(self, seconds: float, bound: float = BOUND_S) -> None:
        """Until nothing has arrived for `seconds` (a busy machine draws late)."""
        async with asyncio.timeout(bound):
            while True:
                n = len(self.out)
                await asyncio.sleep(seconds)
                if len(self.out) == n:
                    return

    async def wait_for(
        self, text: bytes | re.Pattern[bytes], bound: float = BOUND_S, start: int = 0
    ) -> bytes:
        async with asyncio.timeout(bound):
            while True:
                seen = self.out[start:]
                found = (text in seen) if isinstance(text, bytes) else text.search(seen)
                if found:
                    return bytes(self.out)
                if self.closed.is_set():
                    raise AssertionError(f"closed before {text!r}: {bytes(self.out[-400:])!r}")
                self.changed.clear()
                await self.changed.wait()

    async def wait_closed(self, bound: float = BOUND_S) -> None:
        async with asyncio.timeout(bound):
            await self.closed.wait()


class Guest:
    """One asyncssh client connection and its session."""

    def __init__(self, conn: asyncssh.SSHClientConnection) -> None:
        self.conn = conn
        self.chan: asyncssh.SSHClientChannel[bytes] | None = None
        self.screen = Screen()

    async def open(
        self,
        command: str | None = None,
        *,
        term: str | None = "xterm-256color",
        size: tuple[int, int] = (100, 30),
        **kwargs: Any,
    ) -> Screen:
        self.chan, _ = await self.conn.create_session(
            lambda: self.screen,
            command,
            term_type=term,
            term_size=size if term else None,
            encoding=None,
            env=kwargs.pop("env", {"SPIT_LAYOUT": "us"}),  # no first-run keyboard check
            **kwargs,
        )
        return self.screen

    def send(self, data: bytes) -> None:
        assert self.chan is not None
        self.chan.write(data)

    def close(self) -> None:
        self.conn.close()


async def connect(
    served: Served, name: str = "ana", key: asyncssh.SSHKey | None = None, **kwargs: Any
) -> Guest:
    key = key or asyncssh.generate_private_key("ssh-ed25519")
    conn = await asyncssh.connect(
        "127.0.0.1",
        served.port,
        username=name,
        client_keys=[key],
        known_hosts=([served.key.convert_to_public()], [], []),
        agent_path=None,
        **kwargs,
    )
    return Guest(conn)


async def game_pid(served: Served, index: int = -1) -> int:
    """The pid of a session's game process, once it has one."""
    async with asyncio.timeout(BOUND_S):
        while True:
            if served.sessions and served.sessions[index].game is not None:
                pid = served.sessions[index].game.pid
                if pid is not None:
                    return int(pid)
            await asyncio.sleep(0.05)
