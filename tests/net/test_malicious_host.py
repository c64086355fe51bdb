"""A malicious host, written here and run on 127.0.0.1: the seat judges
everything it sends (net.seatproto) and ends with one printable line.

- escapes in a reason that is not a checked `refused` (issue 22 item 15);
- a view with no spit pile (item 17), a dripped frame and a bad view (item 20):
  the join ends at once, no retry;
- a host that goes silent without closing (item 19, the seat's half);
- a host that floods pings and never reads (item 9): the seat's unsent bytes
  stay bounded and it gives up with one line;
- a rejoin refused with "connected already" is tried again (item 18's half);
- `join` to an address where nothing listens, that cannot be reached, that
  does not answer in time, or a name that does not resolve (issue 21 item 11).
"""

from __future__ import annotations

import asyncio
import errno
import json
import socket
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from testkit.lobby import lobby

from spit_tui.clock import RealClock
from spit_tui.engine import Player
from spit_tui.net.client import Client, JoinRefused
from spit_tui.net.joincmd import NAME, unreachable
from spit_tui.net.protocol import encode
from spit_tui.net.remote import RemoteSeat
from spit_tui.net.seat import NetSeat, Tokens
from spit_tui.net.seatproto import IDLE_S, MAX_OUT
from spit_tui.net.seatview import seat_view

CODE = "k3f9q-2x7mz"
ESCAPES = "\x1b[2J\x1b]0;owned\x07\x1b]52;c;b3duZWQ=\x07"
BOUND_S = 20.0

Script = Callable[[asyncio.StreamReader, asyncio.StreamWriter, int], Awaitable[None]]


def welcome(seat: str = "left") -> bytes:
    return encode({"type": "welcome", "version": 1, "room": CODE, "seat": seat,
                   "token": "t0ken", "stale_s": 0.05})


def view(**change: object) -> bytes:
    """A real host's first view for LEFT, with `change` made to it."""
    room = lobby(4).new_room()
    msg = seat_view(room.table, Player.LEFT) | change
    body = json.dumps(msg).encode()
    return len(body).to_bytes(4, "big") + body


class FakeHost:
    """A server on 127.0.0.1 that runs `script` for each connection (the
    connection's number, from 1)."""

    def __init__(self, script: Script) -> None:
        self.script = script
        self.connections = 0
        self.server: asyncio.Server | None = None
        self.port = 0

    async def __aenter__(self) -> FakeHost:
        async def handle(r: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
            self.connections += 1
            try:
                await self.script(r, w, self.connections)
            except (ConnectionError, OSError):
                pass
            finally:
                w.transport.abort()

        self.server = await asyncio.start_server(handle, "127.0.0.1", 0)
        self.port = self.server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self.server is not None
        self.server.close()


async def forever() -> None:
    await asyncio.sleep(3600)


def seat_of(client: Client, port: int, tmp: Path) -> tuple[NetSeat, RemoteSeat, list[str]]:
    net = NetSeat(client, "127.0.0.1", port, CODE, Tokens(tmp / "seats.json"),
                  retries=3, retry_s=0.05)
    seat = RemoteSeat(client.seat, net.press, RealClock(), client.stale_s)
    return net, seat, []


async def run_seat(net: NetSeat, seat: RemoteSeat, bound: float = BOUND_S) -> str:
    """Run the seat to its end; the one line it ends with."""
    lines: list[str] = []
    async with asyncio.timeout(bound):
        await net.run(seat, lines.append)
    assert len(lines) == 1
    return lines[0]


def printable_line(line: str) -> None:
    assert line.isprintable() and "\x1b" not in line and "\n" not in line, repr(line)


# -- item 15: escapes ----------------------------------------------------------------


async def test_a_reason_is_taken_only_from_a_checked_refusal() -> None:
    async def script(r: asyncio.StreamReader, w: asyncio.StreamWriter, n: int) -> None:
        await r.read(1000)
        w.write(view(reason=ESCAPES))  # a view, not a refusal, carrying a "reason"
        await w.drain()
        await forever()

    async with FakeHost(script) as host:
        with pytest.raises(JoinRefused) as caught:
            await Client.join("127.0.0.1", host.port, CODE)
    printable_line(str(caught.value))
    assert "owned" not in str(caught.value) and caught.value.kind == "broke"


async def test_a_refusal_with_escapes_is_refused_itself() -> None:
    async def script(r: asyncio.StreamReader, w: asyncio.StreamWriter, n: int) -> None:
        await r.read(1000)
        w.write(encode({"type": "refused", "reason": ESCAPES}))
        await w.drain()
        await forever()

    async with FakeHost(script) as host:
        with pytest.raises(JoinRefused) as caught:
            await Client.join("127.0.0.1", host.port, CODE)
        with pytest.raises(JoinRefused) as made:
            await Client.new_room("127.0.0.1", host.port)
    for e in (caught.value, made.value):
        printable_line(str(e))
        assert "owned" not in str(e)


async def test_join_prints_no_escape_from_a_malicious_host(tmp_path: Path) -> None:
    async def script(r: asyncio.StreamReader, w: asyncio.StreamWriter, n: int) -> None:
        await r.read(1000)
        w.write(view(reason=ESCAPES))
        await w.drain()
        await forever()

    async with FakeHost(script) as host:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "spit_tui", "join", f"127.0.0.1:{host.port}", CODE,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
            env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "SPIT_LAYOUT": "us",
                 "XDG_STATE_HOME": str(tmp_path / "state")},
        )
        out, err = await asyncio.wait_for(proc.communicate(), BOUND_S)
    assert proc.returncode == 1
    text = err.decode()
    assert text.count("\n") == 1 and "\x1b" not in text and "\x07" not in text, text
    assert text.startswith(f"{NAME}: the host sent ") and b"\x1b" not in out


# -- items 17 and 20: a host that breaks the protocol ends the join, once -------------


@pytest.mark.parametrize(
    "bad",
    [view(piles=[]), view(piles=[{"top": None, "size": 0}] * 3), b"\x00\x00\x00\x05{]]]]"],
    ids=["no-pile", "three-piles", "not-json"],
)
async def test_a_bad_view_ends_the_join_with_one_line_and_no_retry(
    tmp_path: Path, bad: bytes
) -> None:
    async def script(r: asyncio.StreamReader, w: asyncio.StreamWriter, n: int) -> None:
        await r.read(1000)
        w.write(welcome() + view() + bad)
        await w.drain()
        await forever()

    async with FakeHost(script) as host:
        client = await Client.join("127.0.0.1", host.port, CODE)
        net, seat, _ = seat_of(client, host.port, tmp_path)
        line = await run_seat(net, seat)
        assert host.connections == 1  # no second try at a host that broke the protocol
    printable_line(line)
    assert line.startswith("the host sent a ")


async def test_a_dripped_frame_ends_the_join(tmp_path: Path) -> None:
    async def script(r: asyncio.StreamReader, w: asyncio.StreamWriter, n: int) -> None:
        await r.read(1000)
        w.write(welcome() + view())
        frame = view()
        for b in frame:  # a byte every half second: never complete in time
            w.write(bytes([b]))
            await w.drain()
            await asyncio.sleep(0.5)

    async with FakeHost(script) as host:
        client = await Client.join("127.0.0.1", host.port, CODE)
        client.proto.frame_s = 1.0  # the rule, sooner (the real one is 5 s)
        client.proto.idle_s = 60.0  # it does send: a byte at a time
        net, seat, _ = seat_of(client, host.port, tmp_path)
        line = await run_seat(net, seat)
        assert host.connections == 1
    assert line == "the host sent a message not complete within 1 s"


# -- item 19: a silent host ------------------------------------------------------------


async def test_a_silent_host_is_noticed_within_three_ping_intervals(tmp_path: Path) -> None:
    async def script(r: asyncio.StreamReader, w: asyncio.StreamWriter, n: int) -> None:
        await r.read(1000)
        w.write(welcome() + view())
        await w.drain()
        await forever()  # the line stays up; nothing more comes

    loop = asyncio.get_running_loop()
    async with FakeHost(script) as host:
        client = await Client.join("127.0.0.1", host.port, CODE)
        net, seat, _ = seat_of(client, host.port, tmp_path)
        t0 = client.proto.heard_at  # the last the host sent (the loop's clock)
        line = await run_seat(net, seat)
        took = loop.time() - t0
    assert line == (
        f"the host at 127.0.0.1:{host.port} has sent nothing for {IDLE_S:g} s: "
        "is it still running?"
    )
    assert IDLE_S <= took < IDLE_S + 1.0


# -- item 9: a host that floods and never reads ----------------------------------------


async def test_a_host_that_never_reads_is_given_up_with_the_output_bounded(
    tmp_path: Path,
) -> None:
    pings = b"".join(encode({"type": "ping", "id": i}) for i in range(2000))

    async def script(r: asyncio.StreamReader, w: asyncio.StreamWriter, n: int) -> None:
        await r.read(1000)
        sock = w.get_extra_info("socket")
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # and then never reads
        w.write(welcome() + view())
        for _ in range(400):  # 800,000 pings at most, each answered with a pong
            w.write(pings)
            await w.drain()

    async with FakeHost(script) as host:
        client = await Client.join("127.0.0.1", host.port, CODE)
        net, seat, _ = seat_of(client, host.port, tmp_path)
        t0 = asyncio.get_running_loop().time()
        line = await run_seat(net, seat, bound=60.0)
        took = asyncio.get_running_loop().time() - t0
    peak = client.proto.most_unsent
    print(f"given up after {took:.2f} s; unsent at most {peak:,} bytes")
    assert line == "the host stopped reading what this seat sends"
    assert MAX_OUT < peak <= MAX_OUT + 64 * 1024  # one read's pongs past the bound at most


# -- item 18: "connected already" is tried again ------------------------------------------


async def test_a_rejoin_refused_as_connected_already_is_tried_again(tmp_path: Path) -> None:
    async def script(r: asyncio.StreamReader, w: asyncio.StreamWriter, n: int) -> None:
        await r.read(1000)
        if n == 1:  # seated, then the line dies
            w.write(welcome() + view())
            await w.drain()
            await asyncio.sleep(0.2)
            return
        if n == 2:  # the host still holds the old line
            w.write(encode({"type": "refused",
                            "reason": "that seat is connected already: a token is good for "
                                      "one connection"}))
            await w.drain()
            return
        w.write(welcome() + view(names=["BACK", "RIGHT"]))  # the old line timed out: back
        await w.drain()
        while True:
            w.write(encode({"type": "ping", "id": 1}))
            await w.drain()
            await asyncio.sleep(0.2)

    async with FakeHost(script) as host:
        client = await Client.join("127.0.0.1", host.port, CODE)
        net, seat, _ = seat_of(client, host.port, tmp_path)
        lines: list[str] = []
        task = asyncio.create_task(net.run(seat, lines.append))
        async with asyncio.timeout(BOUND_S):
            while seat.scene().names[0] != "BACK":
                await asyncio.sleep(0.02)
        assert lines == [] and host.connections == 3 and seat.lost is None
        task.cancel()
        await net.close()


# -- issue 21 item 11: why no host answered -----------------------------------------------


async def test_nothing_listening_says_so() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(OSError) as caught:
        await Client.join("127.0.0.1", port, CODE)
    assert unreachable("127.0.0.1", port, caught.value) == (
        f"{NAME}: nothing is listening at 127.0.0.1:{port}: is the host running?"
    )


async def test_a_name_that_does_not_resolve_says_so() -> None:
    with pytest.raises(OSError) as caught:
        await Client.join("no-such-host.invalid", 4242, CODE)
    assert unreachable("no-such-host.invalid", 4242, caught.value) == (
        f"{NAME}: no machine called no-such-host.invalid was found: is the name right?"
    )


def test_an_unreachable_address_says_so() -> None:
    with socket.socket(socket.AF_INET6) as s:
        try:
            s.connect(("2001:db8::1", 4242))  # documentation prefix: no route to it
            pytest.skip("this machine has a route to 2001:db8::/32")
        except OSError as e:
            got = e
    if got.errno not in (errno.ENETUNREACH, errno.EHOSTUNREACH):
        pytest.skip(f"no route gives {got!r} here")
    assert unreachable("2001:db8::1", 4242, got) == (
        f"{NAME}: [2001:db8::1]:4242 cannot be reached from this machine: is the address right?"
    )


async def test_a_host_that_does_not_answer_in_time_says_so() -> None:
    async def script(r: asyncio.StreamReader, w: asyncio.StreamWriter, n: int) -> None:
        await forever()  # accepts, never answers

    async with FakeHost(script) as host:
        with pytest.raises(JoinRefused) as refused:
            await Client.join("127.0.0.1", host.port, CODE, timeout=0.3)
    assert refused.value.kind == "silent"
    assert unreachable("127.0.0.1", host.port, TimeoutError()) == (
        f"{NAME}: 127.0.0.1:{host.port} did not answer in time: is the host running, "
        "and is nothing (a firewall) in the way?"
    )
