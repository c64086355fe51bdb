"""A delay proxy for measuring fairness: a TCP relay on loopback that holds
every message for a set delay plus uniform jitter, in each direction.

The fairness benchmark (benchmarks/fairness.py) and its test put one proxy in
front of the host per seat, so one seat is 5 ms away and the other 80 ms,
each message jittered by up to +/-10 ms. The relay reads the protocol's
frames (a 4-byte length, then the body), so the jitter is per message, as a
network's is per packet; a stream keeps its order, so a message never
overtakes the one before it (it waits for it, as TCP would). Bounded: a delay
is clamped to [0, MAX_DELAY_S], and a connection with more than
MAX_IN_FLIGHT bytes waiting is closed. It listens on 127.0.0.1 only.
"""

from __future__ import annotations

import asyncio
import contextlib
import random

from .protocol import HEADER, MAX_FRAME

MAX_DELAY_S = 2.0
MAX_IN_FLIGHT = 1 << 20  # bytes held in one direction of one connection
TICK_S = 1e-6  # two messages never share a delivery instant, so their order holds


class Direction:
    """One way through the proxy: its delay and jitter (seconds), and what it applied."""

    def __init__(self, delay_s: float, jitter_s: float, rng: random.Random) -> None:
        self.delay_s = delay_s
        self.jitter_s = jitter_s
        self.rng = rng
        self.applied: list[float] = []  # each message's delay, for the report (bounded)

    def draw(self) -> float:
        d = self.delay_s + self.rng.uniform(-self.jitter_s, self.jitter_s)
        d = min(MAX_DELAY_S, max(0.0, d))
        if len(self.applied) < 100_000:
            self.applied.append(d)
        return d


class DelayProxy:
    """Relay connections on 127.0.0.1:`port` to `target`, delaying each message."""

    def __init__(
        self,
        target: tuple[str, int],
        delay_s: float,
        jitter_s: float = 0.0,
        *,
        seed: int = 0,
        back_delay_s: float | None = None,
    ) -> None:
        rng = random.Random(seed)
        self.target = target
        self.up = Direction(delay_s, jitter_s, rng)  # client to host
        self.down = Direction(delay_s if back_delay_s is None else back_delay_s, jitter_s, rng)
        self.port = 0
        self.server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = self.server.sockets[0].getsockname()[1]

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            t_reader, t_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.close()
            return
        pumps = [
            asyncio.create_task(self._pump(reader, t_writer, self.up)),
            asyncio.create_task(self._pump(t_reader, writer, self.down)),
        ]
        for t in pumps:
            self._tasks.add(t)
            t.add_done_callback(self._tasks.discard)
        await asyncio.gather(*pumps, return_exceptions=True)

    async def _pump(
        self, src: asyncio.StreamReader, dst: asyncio.StreamWriter, way: Direction
    ) -> None:
        loop = asyncio.get_running_loop()
        last = 0.0
        in_flight = [0]

        def deliver(data: bytes) -> None:
            in_flight[0] -= len(data)
            if not dst.is_closing():
                dst.write(data)

        try:
            while True:
                try:
                    header = await src.readexactly(HEADER.size)
                    (n,) = HEADER.unpack(header)
                    data = header + await src.readexactly(min(n, MAX_FRAME + 1))
                except asyncio.IncompleteReadError as e:
                    data = e.partial  # the rest of a cut-short frame, then the end
                    if data:
                        last = max(loop.time() + way.draw(), last + TICK_S)
                        in_flight[0] += len(data)
                        loop.call_at(last, deliver, data)
                    break
                if in_flight[0] + len(data) > MAX_IN_FLIGHT:
                    break
                last = max(loop.time() + way.draw(), last + TICK_S)
                in_flight[0] += len(data)
                loop.call_at(last, deliver, data)
        except (ConnectionError, OSError):
            pass
        finally:
            loop.call_at(max(last, loop.time()) + TICK_S, self._end, dst)

    @staticmethod
    def _end(dst: asyncio.StreamWriter) -> None:
        with contextlib.suppress(OSError, RuntimeError):
            if dst.can_write_eof() and not dst.is_closing():
                dst.write_eof()
            dst.close()

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()
        for t in list(self._tasks):
            t.cancel()
        if self.server is not None:
            await self.server.wait_closed()
