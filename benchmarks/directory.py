"""Many hosts behind one Redis (issue 24): three host processes on loopback
sharing one redis-server, rooms on all three, and the figures of docs/deploy.md.

    python benchmarks/directory.py [--steps 15,30,60] [--window 8] [--ttl 5]
                                   [--hosts 3] [--json]

It starts a redis-server (Debian's package) on a free loopback port and
`--hosts` host processes (this file with --serve: `net.host.Host` with the
new-room limits lifted, as benchmarks/scale.py does, and `net.redisdir` on
the shared Redis). One load process (this file with --load) keeps each step's
rooms playing: every room is made on one host and its first seat joins it
*through the next host* (the directory's `moved`), the second directly; two
bots play it at expert pace (players/ladder.py). For each step (total rooms
over all hosts) it reports:

- the key round trip (a press to the view that counts it) p50/p95 over all rooms;
- a join by code across hosts (asked of another host: lookup, `moved`,
  the hello at the room's host) and a direct join, p50/p95, while the load runs;
- a quick match across hosts: one player asks host 0 and sits down, the next
  asks host 1; the time from that `quick` to being seated, p50/p95;
- directory traffic per room per minute: Redis commands (a script's own
  steps included) and bytes in and out, from INFO stats over a window in
  which the rooms only play (new rooms replace finished games; no join asked),
  divided by rooms and minutes; the joins and quick matches come after it;
- each process's CPU (share of one core) and run-queue wait (/proc).

Then the faults: host 2 killed (SIGKILL): how long its rooms stay listed (the
`--ttl` the hosts were given); Redis stopped (SIGTERM) for 2 s and started
again: how long until a cross-host join works. Everything runs on one
machine, so the load and the hosts share its cores: the figures say what that
machine holds, not what one host could.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from typing import Any

from scale import Load, TimedClient, host_figures, load_process, pct, runq_wait_s

from spit_tui.net.client import Client
from spit_tui.net.directory import KEY

LOCAL = "127.0.0.1"
WARM_S = 3.0
RUN_S = 900.0  # the whole run's bound (the load process has scale.py's)


def free_port() -> int:
    with socket.socket() as s:
        s.bind((LOCAL, 0))
        return int(s.getsockname()[1])


class Redis:
    """A redis-server of our own, and a plain client to read its figures."""

    def __init__(self, folder: str) -> None:
        self.folder = folder
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        exe = shutil.which("redis-server")
        if exe is None:
            raise SystemExit("directory.py: needs redis-server (apt-get install redis-server)")
        self.proc = subprocess.Popen(
            [exe, "--bind", LOCAL, "--port", str(self.port), "--dir", self.folder,
             "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        end = time.monotonic() + 10
        while time.monotonic() < end:
            try:
                if self.client().ping():
                    return
            except Exception:
                time.sleep(0.02)
        raise SystemExit("directory.py: redis-server did not start")

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.send_signal(signal.SIGTERM)
            self.proc.wait(10)
            self.proc = None

    def client(self) -> Any:
        import redis

        return redis.Redis(host=LOCAL, port=self.port, socket_timeout=2.0)

    @property
    def url(self) -> str:
        return f"redis://{LOCAL}:{self.port}/0"

    def stats(self) -> tuple[int, int, int]:
        """Commands processed, bytes in, bytes out, so far."""
        info = self.client().info("stats")
        return (int(info["total_commands_processed"]), int(info["total_net_input_bytes"]),
                int(info["total_net_output_bytes"]))

    def listed(self, made: bool = False) -> dict[str, int]:
        """Every listed code -> its host's port (`made`: rooms only, not codes claimed ahead)."""
        r = self.client()
        out = {}
        for key in r.scan_iter(match=KEY + "*", count=1000):
            raw = r.get(key)
            if raw is not None and (json.loads(raw)["made"] or not made):
                out[key.decode()[len(KEY):]] = json.loads(raw)["port"]
        return out


# -- the host processes (--serve) -------------------------------------------------------


async def serve(url: str, ttl: float) -> None:
    """A host on 127.0.0.1 with the directory, new rooms unthrottled; ends when stdin closes."""
    from spit_tui.net.host import Host
    from spit_tui.net.limits import Limits
    from spit_tui.net.redisdir import RedisDirectory

    host = Host(port=0, seed=1, room_rate=10_000.0, limits=Limits.open())
    host.lobby.max_rooms = 100_000
    await host.start()
    d = RedisDirectory(url, host.lobby, LOCAL, host.port, ttl_s=ttl,
                       notice=lambda line: print(f"host: {line}", file=sys.stderr, flush=True))
    await d.start()
    print(host.port, flush=True)
    loop = asyncio.get_running_loop()
    try:
        async with asyncio.timeout(RUN_S + 60):
            await loop.run_in_executor(None, sys.stdin.read)
    finally:
        await d.close()
        await host.close()


# -- the load process (--load) ----------------------------------------------------------


class CrossLoad(Load):
    """Room slots spread over the hosts; each room's first seat joins through
    the next host (a cross-host join), the second directly."""

    def __init__(self, ports: list[int], seed: int) -> None:
        super().__init__(ports[0], seed)
        self.ports = ports

    async def seats(self, i: int) -> list[TimedClient]:
        home, via = self.ports[i % len(self.ports)], self.ports[(i + 1) % len(self.ports)]
        code = await Client.new_room(LOCAL, home)
        return [await TimedClient.join(LOCAL, via, code), await TimedClient.join(LOCAL, home, code)]


# -- the coordinator ----------------------------------------------------------------


def ms(xs: list[float], q: float) -> float | None:
    got = pct(xs, q)
    return None if got is None else round(got * 1000, 2)


async def joins(ports: list[int], codes: list[tuple[int, str]], n: int) -> dict[str, Any]:
    """Join by code across hosts and directly, alternately, `n` times each: p50/p95 ms.
    Each is a watcher (a room's seats are the load's), which the host answers alike."""
    across: list[float] = []
    direct: list[float] = []
    for k in range(n):
        home, code = codes[k % len(codes)]
        via = ports[(ports.index(home) + 1) % len(ports)]
        for port, out in ((via, across), (home, direct)):
            t0 = time.monotonic()
            c = await Client.watch(LOCAL, port, code)
            out.append(time.monotonic() - t0)
            await c.close()
        await asyncio.sleep(0.05)
    return {"join_across_p50_ms": ms(across, 0.5), "join_across_p95_ms": ms(across, 0.95),
            "join_direct_p50_ms": ms(direct, 0.5), "join_direct_p95_ms": ms(direct, 0.95)}


async def quick_matches(ports: list[int], n: int) -> dict[str, Any]:
    """A player asks host 0 for a quick match and sits; the next asks host 1:
    the time from its `quick` to its seat (in the first player's room)."""
    took: list[float] = []
    paired = 0
    for _ in range(n):
        code = await Client.new_room(LOCAL, ports[0], kind="quick")
        first = await Client.join(LOCAL, ports[0], code)
        t0 = time.monotonic()
        code2 = await Client.new_room(LOCAL, ports[1], kind="quick")
        second = await Client.join(LOCAL, ports[1], code2)
        took.append(time.monotonic() - t0)
        paired += code2 == code and second.port == ports[0]
        await first.close()
        await second.close()
        await asyncio.sleep(0.05)
    return {"quick_across_p50_ms": ms(took, 0.5), "quick_across_p95_ms": ms(took, 0.95),
            "quick_paired": f"{paired}/{n}"}


def cpu(pids: list[int]) -> tuple[float, float]:
    return (sum(host_figures(p)[0] for p in pids), sum(runq_wait_s(p) for p in pids))


def step(args: argparse.Namespace, redis: Redis, hosts: list[subprocess.Popen[str]],
         ports: list[int], load: subprocess.Popen[str], rooms: int) -> dict[str, Any]:
    assert load.stdin is not None and load.stdout is not None
    load.stdin.write(f"grow {rooms}\n")
    load.stdin.flush()
    time.sleep(WARM_S + rooms / 20)
    listed = redis.listed(made=True)
    codes = [(port, code) for code, port in listed.items()][:30]
    t0 = time.monotonic()
    s0, h0, l0 = redis.stats(), cpu([h.pid for h in hosts]), cpu([load.pid])
    time.sleep(args.window)  # the rooms play: the directory's own traffic only
    span = time.monotonic() - t0
    s1, h1, l1 = redis.stats(), cpu([h.pid for h in hosts]), cpu([load.pid])
    extra = asyncio.run(joins(ports, codes, 10)) if codes else {}
    extra |= asyncio.run(quick_matches(ports, 10))
    load.stdin.write(f"report {t0}\n")
    load.stdin.flush()
    got = json.loads(load.stdout.readline())
    rtts = got["rtts"]
    per = rooms * span / 60
    row = {
        "rooms": rooms, "hosts": len(hosts), "window_s": round(span, 1), "presses": len(rtts),
        "p50_ms": ms(rtts, 0.5), "p95_ms": ms(rtts, 0.95), **extra,
        "redis_commands_per_room_min": round((s1[0] - s0[0]) / per, 1),
        "redis_bytes_in_per_room_min": round((s1[1] - s0[1]) / per),
        "redis_bytes_out_per_room_min": round((s1[2] - s0[2]) / per),
        "hosts_cpu_pct": round(100 * (h1[0] - h0[0]) / span, 1),
        "hosts_runq_wait_pct": round(100 * (h1[1] - h0[1]) / span, 1),
        "load_cpu_pct": round(100 * (l1[0] - l0[0]) / span, 1),
        "load_runq_wait_pct": round(100 * (l1[1] - l0[1]) / span, 1),
        "listed": len(listed), "failed": got["failed"],
    }
    print(json.dumps(row), file=sys.stderr, flush=True)
    return row


async def after_redis_returns(redis: Redis, ports: list[int], code: str, home: int) -> float:
    """Seconds from Redis's start until a cross-host join works again."""
    t0 = time.monotonic()
    via = next(p for p in ports if p != home)
    while time.monotonic() - t0 < 30:
        try:
            c = await Client.watch(LOCAL, via, code)
            await c.close()
            return time.monotonic() - t0
        except Exception:
            await asyncio.sleep(0.02)
    return float("nan")


def faults(redis: Redis, hosts: list[subprocess.Popen[str]], ports: list[int],
           ttl: float) -> dict[str, Any]:
    victim = ports[-1]
    code = asyncio.run(Client.new_room(LOCAL, ports[0]))  # a room to join across, later
    hosts[-1].kill()
    hosts[-1].wait()
    t0 = time.monotonic()
    while victim in redis.listed().values() and time.monotonic() - t0 < ttl + 30:
        time.sleep(0.05)
    listed_s = time.monotonic() - t0
    redis.stop()
    time.sleep(2.0)
    redis.start()
    back_s = asyncio.run(after_redis_returns(redis, ports[:-1], code, ports[0]))
    return {"dead_host_listed_s": round(listed_s, 2), "ttl_s": ttl,
            "joins_work_after_redis_back_s": round(back_s, 3)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--steps", default="15,30,60", help="total rooms over all hosts, per step")
    ap.add_argument("--window", type=float, default=8.0, help="seconds measured per step")
    ap.add_argument("--hosts", type=int, default=3)
    ap.add_argument("--ttl", type=float, default=5.0, help="the hosts' --directory-ttl")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--load", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--url", help=argparse.SUPPRESS)
    ap.add_argument("--ports", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.serve:
        asyncio.run(serve(args.url, args.ttl))
        return 0
    if args.load:
        ports = [int(p) for p in args.ports.split(",")]
        asyncio.run(load_process(ports[0], args.seed, CrossLoad(ports, args.seed)))
        return 0
    with tempfile.TemporaryDirectory() as folder:
        redis = Redis(folder)
        redis.start()
        hosts = [subprocess.Popen([sys.executable, __file__, "--serve", "--url", redis.url,
                                   "--ttl", str(args.ttl)],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
                 for _ in range(args.hosts)]
        load = None
        try:
            ports = [int(h.stdout.readline()) for h in hosts if h.stdout is not None]
            load = subprocess.Popen([sys.executable, __file__, "--load", "--ports",
                                     ",".join(map(str, ports)), "--seed", str(args.seed)],
                                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
            rows = [step(args, redis, hosts, ports, load, int(n))
                    for n in args.steps.split(",")]
            load.stdin.close()  # type: ignore[union-attr]
            load.wait(20)
            fault = faults(redis, hosts, ports, args.ttl)
        finally:
            for p in [*hosts, *([load] if load else [])]:
                if p.poll() is None:
                    p.kill()
                    p.wait()
            redis.stop()
    out = {"steps": rows, "faults": fault, "cpus": os.cpu_count(),
           "load_avg": os.getloadavg()}
    if args.json:
        print(json.dumps(out))
    else:
        for row in rows:
            print(" ".join(f"{k}={v}" for k, v in row.items()))
        print(" ".join(f"{k}={v}" for k, v in fault.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
