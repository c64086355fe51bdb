"""The host on a real socket (127.0.0.1 only): who gets in, and that nothing a
stranger or a broken client sends disturbs the game or the host."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator

import pytest

from spit_tui.net.host import Host, Timings
from spit_tui.net.protocol import HEADER, Message, encode, hello, intent

FAST = Timings(countdown_s=0.05, stale_s=0.02, stuck_delay_s=0.02)
WAIT_S = 3.0  # no single answer may take longer than this


@pytest.fixture
async def host() -> AsyncIterator[Host]:
    h = Host(port=0, timings=FAST, seed=7, handshake_s=1.0, frame_s=0.2)
    await h.start()
    try:
        yield h
    finally:
        await h.close()


class Peer:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    @classmethod
    async def open(cls, h: Host) -> Peer:
        r, w = await asyncio.open_connection("127.0.0.1", h.port)
        return cls(r, w)

    def send(self, msg: Message) -> None:
        self.writer.write(encode(msg))

    async def recv(self) -> Message | None:
        """The next message, or None once the host has closed the connection."""
        async with asyncio.timeout(WAIT_S):
            try:
                header = await self.reader.readexactly(4)
            except asyncio.IncompleteReadError:
                return None
            (n,) = HEADER.unpack(header)
            data: Message = json.loads(await self.reader.readexactly(n))
            return data

    async def until(self, kind: str) -> Message:
        while True:
            msg = await self.recv()
            assert msg is not None, f"closed before a {kind}"
            if msg["type"] == kind:
                return msg

    async def closed_with(self) -> str:
        """The reason the host gave, and that it then closed the connection."""
        msg = await self.until("refused")
        assert await self.recv() is None
        return str(msg["reason"])

    def close(self) -> None:
        self.writer.close()


async def seated(h: Host, code: str, seat: str) -> tuple[Peer, Message]:
    p = await Peer.open(h)
    p.send(hello(code, seat))
    welcome = await p.until("welcome")
    return p, welcome


async def test_two_seats_get_in_and_strangers_do_not_disturb_the_game(host: Host) -> None:
    room = host.new_room()
    assert len(room.code.replace("-", "")) == 10
    left, lw = await seated(host, room.code, "left")
    right, rw = await seated(host, room.code, "right")
    assert (lw["seat"], rw["seat"]) == ("left", "right") and lw["token"] != rw["token"]
    view = await left.until("view")
    assert view["waiting"] is None or view["waiting"] == "RIGHT"
    table = room.table
    before = (table.position, len(table.decisions))

    async def refused(*msgs: Message | bytes) -> str:
        p = await Peer.open(host)
        for m in msgs:
            p.writer.write(m if isinstance(m, bytes) else encode(m))
        return await p.closed_with()

    assert "no room" in await refused(hello("zzzzz-zzzzz"))
    assert "full" in await refused(hello(room.code))
    assert "taken" in await refused(hello(room.code, "left"))
    assert "one connection" in await refused(hello(room.code, None, lw["token"]))
    assert "not for this room" in await refused(hello(room.code, None, "x" * 22))
    assert "version" in await refused({**hello(room.code), "version": 99})
    assert "hello first" in await refused(intent("a", 0))
    assert "limit" in await refused(HEADER.pack(10**9))
    assert "not JSON" in await refused(HEADER.pack(3) + b"{{{")
    assert "not complete" in await refused(encode(intent("a", 0))[:6])  # then drips no more
    assert "no hello" in await refused()  # says nothing at all
    cut = await Peer.open(host)
    cut.writer.write(encode(hello(room.code))[:9])
    cut.close()  # truncated, then gone

    assert (table.position, len(table.decisions)) == before
    assert all(s.conn is not None for s in room.seats.values())
    left.send({"type": "ping", "id": 42})
    assert (await left.until("pong"))["id"] == 42
    left.send(intent("a", 0))  # a real key still plays: the host is fine
    async with asyncio.timeout(WAIT_S):
        while len(table.decisions) == before[1]:
            await asyncio.sleep(0.01)
    assert table.decisions[-1].player == 0 and table.decisions[-1].action == "L!"
    left.close()
    right.close()


async def test_a_dropped_seat_pauses_the_room_and_its_token_takes_it_back(host: Host) -> None:
    room = host.new_room()
    left, lw = await seated(host, room.code, "left")
    right, _ = await seated(host, room.code, "right")
    left.close()
    while (await right.until("view"))["waiting"] != "LEFT":
        pass
    assert room.table.paused
    back = await Peer.open(host)
    back.send(hello(room.code, None, lw["token"]))
    assert (await back.until("welcome"))["seat"] == "left"
    while (await right.until("view"))["waiting"] is not None:
        pass
    assert not room.table.paused
    back.close()
    right.close()
