"""Strangers against a host (issue 22 items 3 and 7): what a flood costs the
players who are really there.

    python benchmarks/flood.py [--strangers 0,40,120] [--json]

- squat: one client address asks for 12 new rooms a second for 6 s while 19
  other addresses ask once each: the rooms the squatter got, and the real
  asks served;
- flood: a seated pair plays in one room while N strangers (from 24
  addresses, 127.0.0.10-33) each make a room, sit in it and press 30 keys a
  second, coming straight back with their token whenever they are closed;
  the seated player's key-to-view time (press to the view that counts it),
  p50 and p95, over 200 presses, starting a second into the flood.

The host runs in a process of its own, the strangers in another, the
seated pair in this one (127.0.0.N stand for different machines). The squat
runs in this process. Wall-clock figures: a benchmark, never a test.
Bounded: each step has a timeout; the whole run ends within three minutes.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
from typing import Any

from spit_tui.net.host import Host
from spit_tui.net.protocol import HEADER, encode, first, hello, intent

RUN_S = 180.0
PRESSES = 200


class Port:
    """The host's port, as the flood functions need it (a Host or a process)."""

    def __init__(self, port: int) -> None:
        self.port = port


async def answer(reader: asyncio.StreamReader) -> dict[str, Any] | None:
    try:
        async with asyncio.timeout(5):
            (n,) = HEADER.unpack(await reader.readexactly(HEADER.size))
            msg: dict[str, Any] = json.loads(await reader.readexactly(n))
            return msg
    except (TimeoutError, asyncio.IncompleteReadError, ConnectionError):
        return None


async def connect(h: Host | Port, source: str) -> tuple[asyncio.StreamReader,
                                                       asyncio.StreamWriter]:
    return await asyncio.open_connection("127.0.0.1", h.port, local_addr=(source, 0))


async def new_room(h: Host, source: str) -> bool:
    r, w = await connect(h, source)
    w.write(encode(first("new_room", options=None)))
    msg = await answer(r)
    w.close()
    return msg is not None and msg["type"] == "room"


async def squat() -> dict[str, int]:
    h = Host(port=0, seed=1)
    await h.start()
    loop = asyncio.get_running_loop()
    t0 = loop.time()
    got = asked = real = 0

    async def squatter() -> None:
        nonlocal got, asked
        while loop.time() - t0 < 6:
            asked += 1
            got += await new_room(h, "127.0.0.1")
            await asyncio.sleep(1 / 12)

    async def others() -> None:
        nonlocal real
        await asyncio.sleep(2)
        for i in range(19):
            real += await new_room(h, f"127.0.0.{i + 2}")
            await asyncio.sleep(0.2)

    try:
        await asyncio.gather(squatter(), others())
    finally:
        await h.close()
    return {"squatter_asked": asked, "squatter_got": got, "real_served_of_19": real}


async def strangers_flood(port: int, n: int, seconds: float) -> None:
    """`n` strangers against the host at `port` for `seconds` (their own process)."""
    h = Port(port)
    stop = asyncio.Event()
    asyncio.get_running_loop().call_later(seconds, stop.set)

    async def stranger(source: str) -> None:
        """Makes a room, sits in it and presses 30 keys a second; when the
        host closes it, it comes back with its seat's token and goes on."""
        code, token = None, None
        while not stop.is_set():
            try:
                r, w = await connect(h, source)
            except OSError:
                await asyncio.sleep(0.05)
                continue
            if code is None:
                w.write(encode(first("new_room", options=None)))
                msg = await answer(r)
                if msg is None or msg["type"] != "room":
                    w.close()
                    await asyncio.sleep(0.2)
                    continue
                code = msg["code"]
            w.write(encode(hello(code, None if token else "left", token)))

            async def drain(r: asyncio.StreamReader = r) -> None:
                nonlocal token
                while (msg := await answer(r)) is not None:
                    if msg["type"] == "welcome":
                        token = msg["token"]

            reader = asyncio.create_task(drain())
            k = 0
            while not stop.is_set() and not reader.done():
                k += 1
                w.write(encode(intent("ab"[k % 2], k % 5)))
                await asyncio.sleep(1 / 30)
            w.close()
            reader.cancel()
            await asyncio.sleep(0.05)

    await asyncio.gather(*(stranger(f"127.0.0.{10 + i % 24}") for i in range(n)))


async def flood(port: int, strangers: int) -> dict[str, float]:
    """A seated pair at the host on `port`, `strangers` flooding from another process."""
    h = Port(port)
    loop = asyncio.get_running_loop()
    code = None
    r0, w0 = await connect(h, "127.0.0.9")
    w0.write(encode(first("new_room", options=None)))
    msg = await answer(r0)
    assert msg is not None and msg["type"] == "room", msg
    code = msg["code"]
    seats = []
    for name in ("left", "right"):
        r, w = await connect(h, "127.0.0.9")
        w.write(encode(hello(code, name)))
        seats.append((r, w))
    w0.close()
    seconds = 1.0 + PRESSES * 0.06 + 2.0
    proc = await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--strangers-only", f"{port},{strangers},{seconds}")
    await asyncio.sleep(1.0)
    r, w = seats[0]
    times, heard = [], 0
    for k in range(PRESSES):
        t = loop.time()
        w.write(encode(intent("ab"[k % 2], k % 5)))
        while (msg := await answer(r)) is not None:
            if msg["type"] == "view" and msg["heard"] > heard:
                heard = msg["heard"]
                break
        times.append((loop.time() - t) * 1000)
        await asyncio.sleep(0.05)
    await proc.wait()
    for _, w in seats:
        w.close()
    times.sort()
    return {"strangers": strangers, "p50_ms": round(statistics.median(times), 1),
            "p95_ms": round(times[int(len(times) * 0.95)], 1)}


async def host_process() -> tuple[asyncio.subprocess.Process, int]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--host-only", stdout=asyncio.subprocess.PIPE,
        stdin=asyncio.subprocess.PIPE)
    assert proc.stdout is not None
    port = int((await proc.stdout.readline()).decode())
    return proc, port


async def serve_host() -> None:
    """The host in its own process; ends when stdin closes."""
    h = Host(port=0, seed=1)
    await h.start()
    print(h.port, flush=True)
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, sys.stdin.read)
    await h.close()


async def run(counts: list[int]) -> dict[str, object]:
    async with asyncio.timeout(RUN_S):
        out: dict[str, object] = {"squat": await squat()}
        rows = []
        for n in counts:
            proc, port = await host_process()
            try:
                rows.append(await flood(port, n))
            finally:
                assert proc.stdin is not None
                proc.stdin.close()
                await proc.wait()
        out["flood"] = rows
        return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--strangers", default="0,40,120", help="flood sizes, comma-separated")
    p.add_argument("--json", action="store_true")
    p.add_argument("--host-only", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--strangers-only", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.host_only:
        asyncio.run(serve_host())
        return
    if args.strangers_only:
        port, n, seconds = args.strangers_only.split(",")
        asyncio.run(strangers_flood(int(port), int(n), float(seconds)))
        return
    out = asyncio.run(run([int(n) for n in args.strangers.split(",")]))
    if args.json:
        print(json.dumps(out))
        return
    sq = out["squat"]
    assert isinstance(sq, dict)
    print(f"squat: one address asked {sq['squatter_asked']} rooms in 6 s and got "
          f"{sq['squatter_got']}; real asks from 19 other addresses served: "
          f"{sq['real_served_of_19']}")
    print("| strangers | seated key to view p50 ms | p95 ms |")
    print("| --- | --- | --- |")
    for row in out["flood"]:  # type: ignore[attr-defined]
        print(f"| {row['strangers']} | {row['p50_ms']} | {row['p95_ms']} |")


if __name__ == "__main__":
    main()
