"""Scale (issue 14): one host process, many rooms of two bot clients on loopback.

    python benchmarks/scale.py [--steps 10,25,50,100,150,200] [--window 10]
                               [--loads 2] [--json] [--profile FILE]

The host runs in its own process (this file with --serve: `net.host.Host` on
127.0.0.1, with the new-room rate limit lifted), so its CPU and memory are its
own; the clients run in `--loads` load processes of their own (this file with
--load: each holds its share of the rooms), so no one load process's loop is
the limit, and this process only coordinates and measures (the load's CPU
is the sum of its processes'). Each room is made through the protocol
(`Client.new_room`), and two bot clients play it at expert speed (the
ladder's expert hands: players/ladder.py), deciding from their views; a room
whose game ends is replaced by a new one, so each step keeps N games going.

For each step N it reports the host's CPU per room (share of one core over the
measuring window) and per key press answered, the action round trip (a key
press to the first view showing a change of the presser's own side or message)
at p50/p95, the host's memory per room (resident set growth over the empty
host, divided by the rooms it holds), and the load processes' CPU (summed).
Beside each process's CPU it reports how long that process waited for a core
(run-queue wait, from /proc/PID/schedstat) and how late its event loop woke
(p95 and max of a 5 ms sleep, sampled all along): on a shared machine the
cliff shows there first, as stalls of whole scheduler turns, not as a host
using all of a core. The run stops after the first step whose p95 reaches the
target beyond 100 rooms. Bounded: each step is warm-up plus the window, and
the run has an overall limit.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import statistics
import subprocess
import sys
import threading
import time
from collections import deque
from typing import Any

from spit_tui.keys.intent import Row
from spit_tui.net.client import READ_SIZE, Client, play_as_bot
from spit_tui.net.protocol import decode_body, frame
from spit_tui.net.seatproto import Event, Shown
from spit_tui.players.ladder import LEVELS
from spit_tui.scene import Scene

with contextlib.suppress(ImportError):  # a host from an older tree (--host-src) reads no views
    from spit_tui.net.seatview import unchecked_scene

TARGET_P95_MS = 20.0
WARM_S = 3.0
RUN_S = 1200.0
TICK = os.sysconf("SC_CLK_TCK")


class TimedClient(Client):
    """A client that times each key press to the first view whose `heard` counts it
    (the host sends a view after every decision, so every key is answered)."""

    def __init__(self, *args: Any) -> None:
        self.samples: list[tuple[float, float]] = []  # (when answered, round trip in s)
        self._pressed: deque[float] = deque()
        self._sent = 0
        super().__init__(*args)

    def press(self, row: Row, slot: int) -> None:
        self._pressed.append(time.monotonic())
        super().press(row, slot)

    def _apply(self, events: list[Event]) -> None:
        super()._apply(events)
        if any(isinstance(ev, Shown) for ev in events):
            self._answered()

    def _answered(self) -> None:
        """A view came: the presses its `heard` counts are answered now."""
        now = time.monotonic()
        while self._pressed and self._sent < self.heard:
            self.samples.append((now, now - self._pressed.popleft()))
            self._sent += 1


VIEW_HEAD = b'{"type":"view",'
PING_HEAD = b'{"type":"ping","id":'
HEARD = b'"heard":'
TIMES = b',"times":{'
PING = b'"ping":['


class LeanClient(TimedClient):
    """A load tool's seat: it reads only what its bot needs (issue 24). The
    full client decodes and checks every view into a Scene and looks at the
    time ten times a second for a silent host; at 500 rooms that cost the load
    more CPU than the host spent (benchmarks/scale.py). This one answers pings
    from the frame's bytes, takes `heard` from the view's last field, keeps
    the newest view's bytes and makes a Scene of them only when its bot looks
    (`latest`), taking the fields' shapes on trust (`seatview.unchecked_scene`:
    it is our own host). What the host does and sends is the same."""

    def __init__(self, *args: Any) -> None:
        self._raw: bytes | None = None  # the newest view, not yet read
        self._body: bytes | None = None  # the newest view
        self._raw_at = 0.0
        self._scene: Scene | None = None
        super().__init__(*args)

    @property  # type: ignore[override]
    def latest(self) -> Scene | None:
        if self._raw is not None and self.seat is not None:
            self._scene = unchecked_scene(json.loads(self._raw), self.seat, self._raw_at)
            self._raw = None
        return self._scene

    @latest.setter
    def latest(self, scene: Scene | None) -> None:
        self._scene, self._raw = scene, None

    def gist(self) -> object:
        """`Client.gist` from the view's bytes, without making a Scene: the
        view less its ping field, its clocks and `heard`."""
        body = self._body
        if body is None:
            return None
        times = body.index(TIMES)
        ping = body.rindex(PING, 0, times)
        own = body.index(b"},", times) + 2
        return (body[:ping], body[body.index(b"]", ping) : times],
                body[own : body.rindex(HEARD)])

    async def _watch(self) -> None:
        """No clock of its own: the load's host is not expected to go silent."""

    async def _read(self) -> None:
        loop = asyncio.get_running_loop()
        buf = bytearray()
        try:
            while self.ended is None:
                data = await self.reader.read(READ_SIZE)
                if not data:
                    self._apply(self.proto.receive_eof())
                    break
                buf += data
                while len(buf) >= 4:
                    n = int.from_bytes(buf[:4], "big")
                    if len(buf) < 4 + n:
                        break
                    body = bytes(buf[4 : 4 + n])
                    del buf[: 4 + n]
                    if body.startswith(VIEW_HEAD):
                        self._raw = self._body = body
                        self._raw_at = loop.time()
                        self.heard = int(body[body.rindex(HEARD) + len(HEARD) : -1])
                        self.views += 1
                        self._answered()
                        self._changed.set()
                    elif body.startswith(PING_HEAD):
                        self.writer.write(frame(b'{"type":"pong","id":'
                                                + body[len(PING_HEAD) :]))
                    else:
                        self._apply(self.proto.receive_message(decode_body(body), loop.time()))
                        self._flush()
        except (ConnectionError, OSError):
            self._apply(self.proto.connection_lost())
        finally:
            self.writer.transport.abort()
            self._changed.set()


def runq_wait_s(pid: int | str) -> float:
    """Seconds the process has spent runnable but waiting for a core (/proc/PID/schedstat):
    on a shared machine, a host starved of CPU shows here, not in its own CPU time."""
    with open(f"/proc/{pid}/schedstat") as f:
        return int(f.read().split()[1]) / 1e9


def host_figures(pid: int) -> tuple[float, int]:
    """The host process's CPU seconds so far and its resident set (bytes)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / TICK
    with open(f"/proc/{pid}/status") as f:
        rss = next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmRSS:"))
    return cpu, rss


class Load:
    """N room slots, each playing game after game through the host."""

    def __init__(self, port: int, seed: int, lean: bool = True) -> None:
        self.port = port
        self.client: type[TimedClient] = LeanClient if lean else TimedClient
        self.rng = random.Random(seed)
        self.clients: list[TimedClient] = []
        self.tasks: list[asyncio.Task[None]] = []
        self.games = 0
        self.failures: list[str] = []
        self.stop = asyncio.Event()
        self.done_samples: list[tuple[float, float]] = []

    async def seats(self, i: int) -> list[TimedClient]:
        """Slot `i`'s next room and its two seats (benchmarks/directory.py
        spreads them over several hosts)."""
        code = await Client.new_room("127.0.0.1", self.port)
        return [await self.client.join("127.0.0.1", self.port, code) for _ in range(2)]

    async def slot(self, i: int) -> None:
        level = LEVELS["expert"]
        while not self.stop.is_set():
            try:
                seats = await self.seats(i)
            except Exception as e:  # the host refused or is gone: say so in the report
                self.failures.append(str(e)[:100])
                await asyncio.sleep(1.0)
                continue
            self.clients.extend(seats)
            bots = [asyncio.create_task(play_as_bot(c, random.Random(self.rng.random()),
                                                    level=level)) for c in seats]
            stopper = asyncio.create_task(self.stop.wait())
            await asyncio.wait([*bots, stopper], return_when=asyncio.FIRST_COMPLETED)
            if all(b.done() for b in bots) or not stopper.done():
                await asyncio.wait(bots, timeout=5.0)
            self.games += all(b.done() for b in bots)
            for b in [*bots, stopper]:
                b.cancel()
            for c in seats:
                await c.close()
                self.clients.remove(c)
                self.done_samples.extend(c.samples)

    def grow(self, n: int) -> None:
        while len(self.tasks) < n:
            self.tasks.append(asyncio.create_task(self.slot(len(self.tasks))))
            # rooms arrive over a moment, not all at one instant

    def samples_since(self, t0: float) -> list[float]:
        pool = self.done_samples + [s for c in self.clients for s in c.samples]
        return [rtt for when, rtt in pool if when >= t0]


LAG_TICK_S = 0.005


async def lag_probe(samples: list[tuple[float, float]]) -> None:
    """How late this process's event loop wakes a 5 ms sleep, sampled for ever:
    (when, lateness in s). A key waits about this long for the loop that reads it,
    in the host and again in the load."""
    while True:
        t = time.monotonic()
        await asyncio.sleep(LAG_TICK_S)
        now = time.monotonic()
        samples.append((now, now - t - LAG_TICK_S))


def lag_ms(samples: list[tuple[float, float]], t0: float, q: float) -> float | None:
    """Quantile `q` of the loop's lateness since `t0` (one sample per wake-up, so a
    long stall counts once however many keys waited in it: see the max too)."""
    got = pct([lag for when, lag in samples if when >= t0], q)
    return None if got is None else round(1000 * got, 2)


def read_host_lags(out: Any, samples: list[tuple[float, float]]) -> None:
    """The host's loop lags, a JSON list a line on its stdout (a thread of the load)."""
    for line in out:
        samples.extend((t, lag) for t, lag in json.loads(line))


def pct(xs: list[float], q: float) -> float | None:
    if not xs:
        return None
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


async def load_process(port: int, seed: int, load: Load | None = None,
                       lean: bool = True) -> None:
    """One load process (--load): grows to the rooms it is told on stdin
    ("grow N"), and answers "report T0" with its presses' round trips and its
    loop's lateness since T0 (time.monotonic is one clock for all processes);
    ends when stdin closes. `load`: the rooms' Load (one host's, if none)."""
    load = load or Load(port, seed, lean)
    lags: list[tuple[float, float]] = []
    probe = asyncio.create_task(lag_probe(lags))
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    async with asyncio.timeout(RUN_S + 60):
        while line := (await reader.readline()).decode().split():
            if line[0] == "grow":
                load.grow(int(line[1]))
            elif line[0] == "report":
                t0 = float(line[1])
                print(json.dumps({
                    "rtts": [round(r, 6) for r in load.samples_since(t0)],
                    "lags": [round(lag, 6) for when, lag in lags if when >= t0],
                    "games": load.games,
                    "failures": load.failures[-5:], "failed": len(load.failures),
                }), flush=True)
    probe.cancel()
    load.stop.set()
    await asyncio.wait(load.tasks, timeout=10.0)


class Loads:
    """The load processes, as the coordinator drives them."""

    def __init__(self, n: int, port: int, seed: int, profile: str | None = None,
                 clients: str = "lean") -> None:
        self.procs = [
            subprocess.Popen([sys.executable, __file__, "--load", "--port", str(port),
                              "--seed", str(seed + i), "--clients", clients,
                              *(["--profile", profile] if profile and i == 0 else [])],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
            for i in range(n)
        ]

    def tell(self, i: int, line: str) -> None:
        stdin = self.procs[i].stdin
        assert stdin is not None
        stdin.write(line + "\n")
        stdin.flush()

    def grow(self, rooms: int) -> None:
        """Share `rooms` out between the processes."""
        k = len(self.procs)
        for i in range(k):
            self.tell(i, f"grow {rooms // k + (i < rooms % k)}")

    def report(self, t0: float) -> list[dict[str, Any]]:
        got = []
        for i, proc in enumerate(self.procs):
            self.tell(i, f"report {t0}")
            assert proc.stdout is not None
            got.append(json.loads(proc.stdout.readline()))
        return got

    def figures(self) -> tuple[float, float]:
        """CPU seconds and run-queue wait so far, summed over the load processes."""
        return (sum(host_figures(p.pid)[0] for p in self.procs),
                sum(runq_wait_s(p.pid) for p in self.procs))

    def close(self) -> None:
        for proc in self.procs:
            if proc.stdin is not None:
                proc.stdin.close()
        for proc in self.procs:
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()


def measure(args: argparse.Namespace, host: subprocess.Popen[str], port: int
            ) -> list[dict[str, Any]]:
    host_lags: list[tuple[float, float]] = []
    assert host.stdout is not None
    threading.Thread(target=read_host_lags, args=(host.stdout, host_lags), daemon=True).start()
    _, rss0 = host_figures(host.pid)
    loads = Loads(args.loads, port, args.seed, args.profile_load, args.clients)
    rows: list[dict[str, Any]] = []
    deadline = time.monotonic() + RUN_S
    try:
        for n in args.steps:
            if time.monotonic() > deadline:
                break
            loads.grow(n)
            time.sleep(WARM_S + n * 0.01)
            t0 = time.monotonic()
            cpu0, _ = host_figures(host.pid)
            lcpu0, lwait0 = loads.figures()
            wait0 = runq_wait_s(host.pid)
            time.sleep(args.window)
            cpu1, rss = host_figures(host.pid)
            lcpu1, lwait1 = loads.figures()
            wait1 = runq_wait_s(host.pid)
            span = time.monotonic() - t0
            reports = loads.report(t0)
            rtts = [r * 1000 for rep in reports for r in rep["rtts"]]
            load_lags = [(t0, lag) for rep in reports for lag in rep["lags"]]
            p95 = pct(rtts, 0.95)
            row = {
                "rooms": n,
                "host_cpu_pct": round(100 * (cpu1 - cpu0) / span, 1),
                "host_cpu_pct_per_room": round(100 * (cpu1 - cpu0) / span / n, 3),
                "host_cpu_ms_per_press": None if not rtts
                else round(1000 * (cpu1 - cpu0) / len(rtts), 3),
                "clients_cpu_pct": round(100 * (lcpu1 - lcpu0) / span, 1),
                "clients_cpu_ms_per_press": None if not rtts
                else round(1000 * (lcpu1 - lcpu0) / len(rtts), 3),
                "load_processes": args.loads,
                "host_runq_wait_pct": round(100 * (wait1 - wait0) / span, 1),
                "clients_runq_wait_pct": round(100 * (lwait1 - lwait0) / span, 1),
                "presses_timed": len(rtts),
                "p50_ms": None if not rtts else round(statistics.median(rtts), 2),
                "p95_ms": None if p95 is None else round(p95, 2),
                "host_rss_mb": round(rss / 2**20, 1),
                "rss_kb_per_room": round((rss - rss0) / 1024 / n, 1),
                "host_loop_lag_p95_ms": lag_ms(host_lags, t0, 0.95),
                "host_loop_lag_max_ms": lag_ms(host_lags, t0, 1.0),
                "clients_loop_lag_p95_ms": lag_ms(load_lags, t0, 0.95),
                "clients_loop_lag_max_ms": lag_ms(load_lags, t0, 1.0),
                "games_finished": sum(rep["games"] for rep in reports),
            }
            rows.append(row)
            print(json.dumps(row), file=sys.stderr, flush=True)
            if p95 is not None and p95 >= TARGET_P95_MS and n >= 100:
                break
        failures = [f for rep in loads.report(0.0) for f in rep["failures"]]
        failed = sum(rep["failed"] for rep in loads.report(0.0))
    finally:
        loads.close()
    if failed:
        rows.append({"failures": sorted(set(failures))[:5], "count": failed})
    return rows


async def serve(equalise: bool) -> None:
    """The host process: Host on 127.0.0.1, new rooms unthrottled; ends when stdin closes."""
    from spit_tui.net.host import Host
    from spit_tui.net.limits import Limits

    # every room's two clients come from 127.0.0.1: no per-address limit here
    host = Host(port=0, seed=1, room_rate=10_000.0, equalise=(equalise, equalise),
                limits=Limits.open())
    host.lobby.max_rooms = 100_000
    await host.start()
    print(host.port, flush=True)
    loop = asyncio.get_running_loop()
    lags: list[tuple[float, float]] = []
    probe = asyncio.create_task(lag_probe(lags))

    async def report() -> None:
        while True:
            await asyncio.sleep(1.0)
            batch, lags[:] = list(lags), []
            print(json.dumps([[round(t, 4), round(lag, 5)] for t, lag in batch]), flush=True)

    reporter = asyncio.create_task(report())
    try:
        async with asyncio.timeout(RUN_S + 60):
            await loop.run_in_executor(None, sys.stdin.read)
    finally:
        probe.cancel()
        reporter.cancel()
        await host.close()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--steps", default="10,25,50,100,150,200")
    ap.add_argument("--window", type=float, default=10.0, help="seconds measured per step")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--no-equalise", action="store_true", help="the host holds no seat")
    ap.add_argument("--profile", metavar="FILE", help="profile the host into FILE (cProfile)")
    ap.add_argument("--loads", type=int, default=2, help="load processes (clients)")
    ap.add_argument("--clients", choices=("lean", "full"), default="lean",
                    help="the load's seats: lean (read only what a bot needs) or full "
                         "(every view checked and decoded, as `join` does)")
    ap.add_argument("--profile-load", metavar="FILE",
                    help="profile the first load process into FILE (cProfile)")
    ap.add_argument("--host-src", metavar="DIR",
                    help="run the host from another source tree's src (A/B against older "
                         "code, in turns; the load stays this tree's)")
    ap.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--load", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--port", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.load:
        lean = args.clients == "lean"
        if args.profile:  # the load process's own time (--profile-load)
            import cProfile

            prof = cProfile.Profile(time.process_time)
            prof.runcall(asyncio.run, load_process(args.port, args.seed, lean=lean))
            prof.dump_stats(args.profile)
        else:
            asyncio.run(load_process(args.port, args.seed, lean=lean))
        return 0
    if args.serve:
        if args.profile:  # where the host's time goes, for `python -m pstats`
            import cProfile

            # in CPU time: on a shared machine the wall clock's share is the neighbours'
            prof = cProfile.Profile(time.process_time)
            prof.runcall(asyncio.run, serve(not args.no_equalise))
            prof.dump_stats(args.profile)
        else:
            asyncio.run(serve(not args.no_equalise))
        return 0
    args.steps = [int(s) for s in args.steps.split(",")]
    if not all(1 <= s <= 2000 for s in args.steps):
        ap.error("--steps: room counts from 1 to 2000")
    if not 1 <= args.loads <= 16:
        ap.error("--loads: 1 to 16 load processes")
    serve_args = ["--serve", *(["--no-equalise"] if args.no_equalise else []),
                  *(["--profile", args.profile] if args.profile else [])]
    env = None if args.host_src is None else {**os.environ, "PYTHONPATH": args.host_src}
    host = subprocess.Popen([sys.executable, __file__, *serve_args], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, env=env)
    try:
        assert host.stdout is not None
        port = int(host.stdout.readline())
        rows = measure(args, host, port)
    finally:
        if host.stdin is not None:
            host.stdin.close()
        try:
            host.wait(timeout=15)
        except subprocess.TimeoutExpired:
            host.kill()
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    print("| rooms | host CPU | per room | host ms/press | host runq wait | p50 ms | p95 ms "
          f"| host RSS MB | KiB/room | clients CPU ({args.loads} processes) | presses |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for r in rows:
        if "rooms" in r:
            print(f"| {r['rooms']} | {r['host_cpu_pct']}% | {r['host_cpu_pct_per_room']}% "
                  f"| {r['host_cpu_ms_per_press']} | {r['host_runq_wait_pct']}% "
                  f"| {r['p50_ms']} | {r['p95_ms']} | {r['host_rss_mb']} "
                  f"| {r['rss_kb_per_room']} | {r['clients_cpu_pct']}% | {r['presses_timed']} |")
        else:
            print("failures:", r)
    good = [r["rooms"] for r in rows if "rooms" in r and r["p95_ms"] is not None
            and r["p95_ms"] < TARGET_P95_MS]
    print(f"largest step with p95 under {TARGET_P95_MS:g} ms: {max(good) if good else 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
