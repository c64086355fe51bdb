"""Key press to screen through the SSH door, against `join` over TCP and local
play, by the same method as benchmarks/latency.py: tmux `send-keys` into the
pane of the player whose key it is, then `capture-pane` of that pane polled
until its text changes. The three are measured alternately in one run, so
the machine's load hits each alike; and memory per SSH guest.

    python benchmarks/ssh_latency.py [--json] [--runs N] [--quick]

- local: `spit-tui --position P` in one pane, both halves' keys typed there;
- join:  a host (in this process, on 127.0.0.1) whose rooms start from P, and
  `spit-tui join` in two panes, one per seat;
- ssh:   the same host behind the SSH door (this process too), and a real
  `ssh -t NAME@127.0.0.1 CODE` in each of two panes.

Every key plays a card (benchmarks/latency.py's position), so every key
changes its own screen. The target (issue 20): ssh within 1.2x of join.
Memory: the resident size of each guest's game process, and what the door's
own process grows by per guest (its sessions and SSH channels).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from latency import (  # noqa: E402
    LEFT_KEYS,
    RIGHT_KEYS,
    SETTLE_S,
    TIMEOUT_S,
    Tmux,
    _body,
    _stats,
    bench_position,
    rss_mb,
)

MARK = "pile a"


def _rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


class Served:
    """A host whose rooms start from the bench position, and the SSH door in
    front of it, on one event loop in a thread of this process."""

    def __init__(self, home: Path) -> None:
        import asyncssh

        from spit_tui.clock import RealClock
        from spit_tui.engine import Game, parse_position
        from spit_tui.net.host import Host
        from spit_tui.net.limits import Limits
        from spit_tui.ssh.admission import Admission
        from spit_tui.ssh.server import Door, listen
        from spit_tui.table import Table

        pos = parse_position(bench_position())

        class BenchHost(Host):
            def _make_table(self) -> Table:
                t = self.timings
                return Table(Game(position=pos, seed=1), RealClock(), countdown_s=t.countdown_s,
                             stale_s=t.stale_s, stuck_delay_s=t.stuck_delay_s)

        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.host = BenchHost(port=0, limits=Limits.relayed())  # as ssh-serve's own host
        self.call(self.host.start())
        self.door = Door(("127.0.0.1", self.host.port), Admission(per_address=100, total=100),
                         guest_home=home / "guests")
        key = asyncssh.generate_private_key("ssh-ed25519")
        self.acceptor = self.call(listen(self.door, key, "127.0.0.1", 0))

    def call(self, coro: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(20)

    def new_room(self) -> str:
        async def make() -> str:
            return str(self.host.new_room().code)

        return str(self.call(make()))

    def close(self) -> None:
        async def stop() -> None:
            await self.door.stop()
            self.acceptor.close()
            await self.host.close()

        self.call(stop())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(20)


def ssh_argv(home: Path, port: int, name: str, code: str) -> list[str]:
    return [
        "ssh", "-i", str(home / "id"), "-o", "IdentitiesOnly=yes", "-o", "BatchMode=yes",
        "-o", "StrictHostKeyChecking=accept-new", "-o", f"UserKnownHostsFile={home / 'kh'}",
        "-o", "SetEnv=SPIT_LAYOUT=us", "-p", str(port), "-t", f"{name}@127.0.0.1", code,
    ]  # fmt: skip


def wait_for(tm: Tmux, marker: str, bound: float = 20.0) -> None:
    end = time.perf_counter() + bound
    while marker not in tm.capture():
        if time.perf_counter() > end:
            raise RuntimeError(f"never showed {marker!r}:\n{tm.capture()}")
        time.sleep(0.05)


def press(tm: Tmux, key: str) -> float:
    before = _body(tm.capture(), True)
    t = time.perf_counter()
    tm.send(key)
    while _body(tm.capture(), True) == before:
        if time.perf_counter() - t > TIMEOUT_S:
            raise RuntimeError(f"no visible change after key {key!r}")
    return time.perf_counter() - t


def keys() -> list[tuple[int, str]]:
    """(pane, key): alternately left (pane 0) and right (pane 1), one short of
    the left's last card (it would end the round)."""
    pairs = [p for lr in zip(LEFT_KEYS, RIGHT_KEYS, strict=True) for p in ((0, lr[0]), (1, lr[1]))]
    return pairs[:-2]


def run_panes(argvs: list[list[str]]) -> tuple[list[float], list[int]]:
    """Start each argv in a pane of its own; type the keys; the latencies and
    the pane processes' pids."""
    panes = [Tmux(a) for a in argvs]
    try:
        for tm in panes:  # one after the other: the first comer takes the left seat
            tm.start()
            wait_for(tm, MARK)
        time.sleep(0.6)  # start-up work and the stale-key window pass
        lat = []
        for pane, k in keys():
            lat.append(press(panes[pane % len(panes)], k))
            time.sleep(SETTLE_S)
        return lat, [p for tm in panes if (p := tm.pane_pid()) is not None]
    finally:
        for tm in panes:
            tm.kill()


def run(runs: int) -> dict[str, Any]:
    if shutil.which("tmux") is None or shutil.which("ssh") is None:
        raise RuntimeError("needs tmux and ssh")
    py = sys.executable
    lat: dict[str, list[float]] = {"local": [], "join": [], "ssh": []}
    with tempfile.TemporaryDirectory(prefix="spit-ssh-bench-") as tmp:
        home = Path(tmp)
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(home / "id")],
                       check=True)
        served = Served(home)
        try:
            address = f"127.0.0.1:{served.host.port}"
            for _ in range(runs):
                xs, _pids = run_panes([[py, "-m", "spit_tui", "--position", bench_position()]])
                lat["local"] += xs
                code = served.new_room()
                xs, _pids = run_panes([[py, "-m", "spit_tui", "join", address, code, "--seat", s]
                                       for s in ("left", "right")])
                lat["join"] += xs
                code = served.new_room()
                argvs = [ssh_argv(home, served.door.port, n, code) for n in ("ana", "ben")]
                xs, _pids = run_panes(argvs)
                lat["ssh"] += xs
            mem = guest_memory(served, home)
        finally:
            served.close()
    out: dict[str, Any] = {"runs": runs, **{k: _stats(v) for k, v in lat.items()}}
    out["ssh_over_join_p50"] = round(out["ssh"]["median_ms"] / out["join"]["median_ms"], 3)
    out["join_over_local_p50"] = round(out["join"]["median_ms"] / out["local"]["median_ms"], 3)
    out["memory"] = mem
    out["ok"] = out["ssh_over_join_p50"] <= 1.2
    return out


def guest_memory(served: Served, home: Path, guests: int = 6) -> dict[str, Any]:
    """Seat `guests` ssh guests (in pairs, each pair a room) and read the
    resident memory of each guest's game process and of this process."""
    before = _rss_kb(os.getpid())
    panes = []
    try:
        for i in range(0, guests, 2):
            code = served.new_room()
            for n in (f"p{i}", f"p{i + 1}"):
                tm = Tmux(ssh_argv(home, served.door.port, n, code))
                tm.start()
                panes.append(tm)
        for tm in panes:
            wait_for(tm, MARK, 60.0)
        time.sleep(1.0)
        pids = [s.game.pid for s in list(served.door.sessions) if s.game and s.game.pid]
        games = [m for p in pids if (m := rss_mb(p)) is not None]
        after = _rss_kb(os.getpid())
    finally:
        for tm in panes:
            tm.kill()
    return {
        "guests": len(games),
        "game_rss_mb_median": round(statistics.median(games), 1) if games else None,
        "game_rss_mb_max": round(max(games), 1) if games else None,
        "door_growth_mb_per_guest": round((after - before) / 1024 / max(1, len(games)), 2),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="one run")
    args = ap.parse_args(argv)
    os.environ["SPIT_LAYOUT"] = "us"  # no first-run keyboard check in any pane
    res = run(1 if args.quick else args.runs)
    if args.json:
        print(json.dumps(res, indent=2))
    else:
        for name in ("local", "join", "ssh"):
            r = res[name]
            print(f"{name:6} key->screen median {r['median_ms']:6.2f} ms  p95 {r['p95_ms']:6.2f} ms"
                  f"  (n={r['n']})")
        print(f"ssh/join {res['ssh_over_join_p50']}  join/local {res['join_over_local_p50']}")
        print("memory: " + shlex.join(f"{k}={v}" for k, v in res["memory"].items()))
    return 0 if res["ok"] else 1


if __name__ == "__main__":
    from userdirs import temporary_user_dirs

    with temporary_user_dirs():  # never the user's own history or config
        sys.exit(main())
