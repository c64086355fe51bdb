"""Hostile clients against a real host on 127.0.0.1, round three (issue 22):
what a client can make the host keep, and for how long."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import socket
import time
import weakref
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from test_host import FAST

from spit_tui.engine import Player
from spit_tui.net import stream as stream_module
from spit_tui.net.host import Host
from spit_tui.net.limits import Limits
from spit_tui.net.protocol import encode, hello, intent
from spit_tui.store.history import HistoryWriter

LIVE_S = 1.6  # net.room: a seat silent this long may be taken over by its token

CUT_OFF_S = 4.0  # a client that reads nothing is gone this soon after the host gives up
@contextlib.asynccontextmanager
async def running(**kw: Any) -> AsyncIterator[Host]:
    """A host on 127.0.0.1 (the tests' fast timings), closed after."""
    h = Host(port=0, timings=FAST, seed=7, handshake_s=1.0, **kw)
    await h.start()
    try:
        yield h
    finally:
        await h.close()


@pytest.fixture
async def host() -> AsyncIterator[Host]:
    async with running(frame_s=0.2) as h:
        yield h


def raw_socket(h: Host, rcvbuf: int = 0) -> socket.socket:
    """A blocking client socket (a tiny receive window if `rcvbuf`)."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if rcvbuf:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    s.connect(("127.0.0.1", h.port))
    return s


async def test_a_seat_that_never_reads_is_cut_off_after_a_short_grace(
    host: Host, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(stream_module, "WRITE_LIMIT", 16 * 1024)
    room = host.new_room()
    sock = raw_socket(host, rcvbuf=2048)
    try:
        sock.sendall(encode(hello(room.code, "left")))
        async with asyncio.timeout(5):
            while room.seats[Player.LEFT].conn is None:
                await asyncio.sleep(0.01)
        conn = room.seats[Player.LEFT].conn
        assert isinstance(conn, stream_module.StreamConn)
        # every message changes the seat's view: a view goes out each time, unread
        for i in range(20_000):
            room.table.messages.say(Player.LEFT, f"message {i}")
            if conn.closed:
                break
            if i % 50 == 0:
                await asyncio.sleep(0)
        assert conn.closed, "never too far behind"
        behind = time.monotonic()
        async with asyncio.timeout(CUT_OFF_S + 3.0):
            while host._serving or not conn.writer.transport.is_closing():
                await asyncio.sleep(0.05)
            while conn.writer.transport.get_extra_info("socket") is not None and not (
                conn.writer.transport._conn_lost  # type: ignore[attr-defined]
            ):
                await asyncio.sleep(0.05)
        held = time.monotonic() - behind
        assert held <= CUT_OFF_S
    finally:
        sock.close()


def _chatty_seat(port: int, code: str, seconds: float, said: list[str]) -> None:
    """A seat in its own thread that pings the host every 0.2 s and reads what comes."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(encode(hello(code, "left")))
        s.settimeout(0.05)
        end = time.monotonic() + seconds
        n, next_ping = 0, 0.0
        while time.monotonic() < end:
            if time.monotonic() >= next_ping:
                n += 1
                next_ping = time.monotonic() + 0.2
                s.sendall(encode({"type": "ping", "id": n}))
            try:
                data = s.recv(65536)
            except TimeoutError:
                continue
            except OSError as e:
                said.append(f"gone: {e}")
                return
            if not data:
                said.append("closed")
                return
            if b"silent too long" in data:
                said.append("silent too long")


async def test_a_host_that_stood_still_reads_before_judging_a_seat_idle() -> None:
    async with running(idle_s=1.0) as h:
        room = h.new_room()
        said: list[str] = []
        seat = asyncio.get_running_loop().run_in_executor(
            None, _chatty_seat, h.port, room.code, 4.5, said
        )
        async with asyncio.timeout(5):
            while room.seats[Player.LEFT].conn is None:
                await asyncio.sleep(0.01)
        await asyncio.sleep(0.5)
        time.sleep(2.5)  # the host's loop stands still for 2.5 idle limits (Ctrl+Z)
        await asyncio.sleep(1.0)
        assert room.seats[Player.LEFT].conn is not None, said
        await seat
        assert said == []


async def test_a_token_on_a_new_line_takes_the_seat_from_a_half_open_one(host: Host) -> None:
    """Only the client's side died: the host still holds the old connection.
    The token on a new connection takes the seat at once; the room pauses for
    the other player meanwhile (from the moment the old line answers no
    ping) and plays on after."""
    room = host.new_room()
    old_r, old_w = await asyncio.open_connection("127.0.0.1", host.port)
    old_w.write(encode(hello(room.code, "left")))
    welcome = await _until(old_r, "welcome")
    right_r, right_w = await asyncio.open_connection("127.0.0.1", host.port)
    right_w.write(encode(hello(room.code, "right")))
    await _until(right_r, "welcome")
    assert not room.table.paused
    waits: list[object] = []  # what the other player's views say the room waits for
    right = asyncio.create_task(_answering(right_r, right_w, waits))
    # the old line is left open and silent: it answers no ping, and after
    # LIVE_S the token takes the seat over
    await asyncio.sleep(LIVE_S + 0.3)
    new_r, new_w = await asyncio.open_connection("127.0.0.1", host.port)
    new_w.write(encode(hello(room.code, None, welcome["token"])))
    assert (await _until(new_r, "welcome"))["seat"] == "left"
    new = asyncio.create_task(_answering(new_r, new_w, []))
    refused = await _until(old_r, "refused")
    assert "taken over" in refused["reason"]
    # the other player was shown the wait while the seat changed hands, then play
    async with asyncio.timeout(5):
        while not ("LEFT" in waits and waits[-1] is None):
            await asyncio.sleep(0.01)
    assert set(waits) == {None, "LEFT"}, waits
    assert not room.table.paused
    assert room.seats[Player.LEFT].conn is not None
    for task in (right, new):
        task.cancel()
    for w in (old_w, right_w, new_w):
        w.close()


async def _answering(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, waits: list[object]
) -> None:
    """A live seat: every ping answered, what each view waits for kept."""
    import json

    from spit_tui.net.protocol import HEADER

    while True:
        (n,) = HEADER.unpack(await reader.readexactly(4))
        msg: dict[str, Any] = json.loads(await reader.readexactly(n))
        if msg["type"] == "ping":
            writer.write(encode({"type": "pong", "id": msg["id"]}))
        elif msg["type"] == "view":
            waits.append(msg["waiting"])


async def _until(reader: asyncio.StreamReader, kind: str) -> dict[str, object]:
    import json

    from spit_tui.net.protocol import HEADER

    async with asyncio.timeout(5):
        while True:
            (n,) = HEADER.unpack(await reader.readexactly(4))
            msg: dict[str, object] = json.loads(await reader.readexactly(n))
            if msg["type"] == kind:
                return msg


async def test_refused_keys_on_a_paused_room_leave_no_pile_of_timers(host: Host) -> None:
    """Each refused key set a 1.6 s message expiry on the room's clock, which
    stands still while a seat is away: 18 keys, 18 timers, never freed."""
    room = host.new_room()
    r, w = await asyncio.open_connection("127.0.0.1", host.port)
    w.write(encode(hello(room.code, "left")))
    await _until(r, "welcome")
    assert room.table.paused  # RIGHT never came
    before = room.table.clock.pending
    for i in range(18):  # most of a stranger's burst (net.limits)
        w.write(encode(intent(("a", "b")[i % 2], i % 5)))
    async with asyncio.timeout(5):
        while room.seats[Player.LEFT].heard < 18:
            await asyncio.sleep(0.01)
    clock = room.table.clock
    assert clock.pending <= before + 2  # one message timer a player at most
    assert len(clock._heap) <= before + 4  # nor cancelled ones kept in the heap
    w.close()


async def test_rooms_that_end_leave_no_table_behind_in_the_history(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With history on (the default), HistoryWriter held every room's table
    for good: 5,000 expired rooms kept 5,000 tables (+70 MB)."""
    quick = Limits(no_play_s=0.2)
    async with running(history=HistoryWriter(tmp_path / "h.db"), limits=quick) as h:
        tables = []
        for _ in range(30):
            room = h.lobby.request_room(asyncio.get_running_loop().time(), f"10.0.0.{_}")
            assert not isinstance(room, str)
            tables.append(weakref.ref(room.table))
            del room
        await asyncio.sleep(1.0)
        assert not h.lobby.rooms
        gc.collect()
        alive = sum(t() is not None for t in tables)
        assert alive == 0, f"{alive} of 30 tables still alive after their rooms expired"
