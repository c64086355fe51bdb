"""Key press to screen through the SSH door, against `join` over TCP and local
play, by the same method as benchmarks/latency.py: tmux `send-keys` into the
pane of the player whose key it is, then `capture-pane` of that pane polled
until its text changes. The three are measured alternately in one run, so
the machine's load hits each alike; and memory per SSH guest.

    python benchmarks/ssh_latency.py [--json] [--runs N] [--quick]
        [--src DIR] [--ab OLD_SRC] [--in-process] [--method process|control]

- local: `spit-tui --position P` in one pane, both halves' keys typed there;
- join:  a host (on 127.0.0.1) whose rooms start from P, and `spit-tui join`
  in two panes, one per seat;
- ssh:   the same host behind the SSH door, and a real
  `ssh -t NAME@127.0.0.1 CODE` in each of two panes.

The host and the door run in a process of their own, as `ssh-serve` runs
apart from its guests' terminals: in this process they would share the
interpreter's lock with the thread that polls tmux (a process started per
poll), and every hop of theirs would wait for it (the door has three hops a
key to join's one: --in-process measures that way, as this benchmark did
before). `--src DIR` runs everything (the apps, host, door and guests) from
the tree DIR (its `src` folder, or DIR itself if it holds spit_tui);
`--ab OLD_SRC` alternates this tree and OLD_SRC run by run and reports both.

Every key plays a card (benchmarks/latency.py's position), so every key
changes its own screen. The target (issue 20): ssh within 1.2x of join.
Memory: the resident size of each guest's game process, and what the door's
own process grows by per guest (its sessions and SSH channels).
"""

from __future__ import annotations

import argparse
import asyncio
import compileall
import contextlib
import json
import os
import shlex
import shutil
import signal
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
    SIZE,
    TIMEOUT_S,
    Tmux,
    _body,
    _stats,
    bench_position,
    rss_mb,
)

MARK = "pile a"
PATHS = ("local", "join", "ssh")


def _rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


class Served:
    """A host whose rooms start from the bench position, and the SSH door in
    front of it, on one event loop in a thread of the process that makes it."""

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
            def _make_table(self, options: Any = None) -> Table:
                t = self.timings
                return Table(
                    Game(position=pos, seed=1),
                    RealClock(),
                    countdown_s=t.countdown_s,
                    stale_s=t.stale_s,
                    stuck_delay_s=t.stuck_delay_s,
                )

        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.host = BenchHost(port=0, limits=Limits.relayed())  # as ssh-serve's own host
        self.call(self.host.start())
        self.door = Door(
            ("127.0.0.1", self.host.port),
            Admission(per_address=100, total=100),
            guest_home=home / "guests",
        )
        key = asyncssh.generate_private_key("ssh-ed25519")
        self.acceptor = self.call(listen(self.door, key, "127.0.0.1", 0))
        self.host_port = self.host.port
        self.door_port = self.door.port
        self.pid = os.getpid()

    def call(self, coro: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(20)

    def new_room(self) -> str:
        async def make() -> str:
            return str(self.host.new_room().code)

        return str(self.call(make()))

    def game_pids(self) -> list[int]:
        return [s.game.pid for s in list(self.door.sessions) if s.game and s.game.pid]

    def close(self) -> None:
        async def stop() -> None:
            await self.door.stop()
            self.acceptor.close()
            await self.host.close()

        self.call(stop())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(20)


def serve_child() -> int:
    """`--serve`: a Served in this process, asked over stdin one line at a time
    (room, pids, quit), each answered with one line on stdout."""
    from children import die_with_parent

    die_with_parent()
    with tempfile.TemporaryDirectory(prefix="spit-ssh-served-") as tmp:
        served = Served(Path(tmp))
        try:
            print(json.dumps([served.host_port, served.door_port]), flush=True)
            for line in sys.stdin:
                if line.strip() == "room":
                    print(served.new_room(), flush=True)
                elif line.strip() == "pids":
                    print(json.dumps(served.game_pids()), flush=True)
                else:
                    break
        finally:
            served.close()
    return 0


class ServedApart:
    """A Served in a child process (`--serve`), run from `src` (None: ours)."""

    def __init__(self, env: dict[str, str]) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--serve"], env=env,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        )  # fmt: skip
        self.host_port, self.door_port = json.loads(self._ask(None))
        self.pid = self.proc.pid

    def _ask(self, line: str | None) -> str:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        if line is not None:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        got = self.proc.stdout.readline()
        if not got:
            raise RuntimeError("the served process ended")
        return got.strip()

    def new_room(self) -> str:
        return self._ask("room")

    def game_pids(self) -> list[int]:
        return list(json.loads(self._ask("pids")))

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


class PtyPane:
    """`--method pty`: this process is the terminal. `argv` runs on a
    pseudo-terminal of SIZE whose output a terminal emulator (pyte) keeps; a key
    is written to it as tmux's send-keys writes it, and the screen is read as
    the bytes arrive: no process a poll, no polling interval. The same for the
    three paths; tmux's own parsing and the cost of its commands are left out."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        self.argv = argv
        self.env = {**env, "TERM": "xterm-256color"}
        self.master = -1
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        import fcntl
        import pty
        import struct
        import termios

        import pyte

        cols, rows = SIZE
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        self.proc = subprocess.Popen(
            self.argv, stdin=slave, stdout=slave, stderr=slave, env=self.env, start_new_session=True
        )
        os.close(slave)
        self.master = master

    def _drain(self, wait: float) -> None:
        import select

        while select.select([self.master], [], [], wait)[0]:
            try:
                data = os.read(self.master, 65536)
            except OSError:
                return
            if not data:
                return
            self.stream.feed(data)
            wait = 0.0

    def capture(self) -> str:
        self._drain(0.002)
        return "\n".join(self.screen.display)

    def send(self, key: str) -> None:
        self._drain(0.0)
        os.write(self.master, key.encode())

    def pane_pid(self) -> int | None:
        return None if self.proc is None else self.proc.pid

    def kill(self) -> None:
        if self.proc is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGHUP)
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        if self.master >= 0:
            os.close(self.master)
            self.master = -1


def ssh_argv(home: Path, port: int, name: str, code: str) -> list[str]:
    return [
        "ssh", "-i", str(home / "id"), "-o", "IdentitiesOnly=yes", "-o", "BatchMode=yes",
        "-o", "StrictHostKeyChecking=accept-new", "-o", f"UserKnownHostsFile={home / 'kh'}",
        "-o", "SetEnv=SPIT_LAYOUT=us", "-p", str(port), "-t", f"{name}@127.0.0.1", code,
    ]  # fmt: skip


def wait_for(tm: Any, marker: str, bound: float = 20.0) -> None:
    end = time.perf_counter() + bound
    while marker not in tm.capture():
        if time.perf_counter() > end:
            raise RuntimeError(f"never showed {marker!r}:\n{tm.capture()}")
        time.sleep(0.05)


def press(tm: Any, key: str) -> float:
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


def run_panes(argvs: list[list[str]], method: str = "process") -> tuple[list[float], list[int]]:
    """Start each argv in a pane of its own; type the keys; the latencies and
    the pane processes' pids."""
    panes: list[Any] = [
        PtyPane(a, dict(os.environ)) if method == "pty" else Tmux(a, method=method) for a in argvs
    ]
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


def tree_src(tree: str) -> Path:
    """The folder holding `spit_tui` in `tree` (a checkout, or its src)."""
    p = Path(tree).resolve()
    for cand in (p / "src", p):
        if (cand / "spit_tui" / "__init__.py").is_file():
            return cand
    raise SystemExit(f"ssh_latency: no spit_tui package in {tree}")


class Variant:
    """One tree under test: its apps' command prefix and its served process."""

    def __init__(self, label: str, src: Path | None, home: Path, in_process: bool) -> None:
        self.label = label
        self.env = dict(os.environ)
        self.prefix: list[str] = []
        if src is not None:
            compileall.compile_dir(src / "spit_tui", quiet=1)  # as an install would
            self.env["PYTHONPATH"] = os.pathsep.join(
                [str(src), *filter(None, [os.environ.get("PYTHONPATH")])]
            )
            self.prefix = ["env", f"PYTHONPATH={self.env['PYTHONPATH']}"]
        if in_process:
            if src is not None:
                raise SystemExit("ssh_latency: --in-process runs this tree only")
            self.served: Served | ServedApart = Served(home)
        else:
            self.served = ServedApart(self.env)
        self.lat: dict[str, list[float]] = {k: [] for k in PATHS}

    def one_run(self, home: Path, method: str) -> None:
        py = sys.executable
        served = self.served
        xs, _ = run_panes(
            [[*self.prefix, py, "-m", "spit_tui", "--position", bench_position()]], method
        )
        self.lat["local"] += xs
        address = f"127.0.0.1:{served.host_port}"
        code = served.new_room()
        xs, _ = run_panes(
            [
                [*self.prefix, py, "-m", "spit_tui", "join", address, code, "--seat", s]
                for s in ("left", "right")
            ],
            method,
        )
        self.lat["join"] += xs
        code = served.new_room()
        xs, _ = run_panes(
            [ssh_argv(home, served.door_port, n, code) for n in ("ana", "ben")], method
        )
        self.lat["ssh"] += xs

    def figures(self) -> dict[str, Any]:
        out: dict[str, Any] = {k: _stats(v) for k, v in self.lat.items()}
        out["ssh_over_join_p50"] = round(out["ssh"]["median_ms"] / out["join"]["median_ms"], 3)
        out["join_over_local_p50"] = round(out["join"]["median_ms"] / out["local"]["median_ms"], 3)
        out["samples_ms"] = {k: [round(x * 1000, 2) for x in v] for k, v in self.lat.items()}
        return out


def run(
    runs: int,
    src: str | None = None,
    ab: str | None = None,
    in_process: bool = False,
    method: str = "process",
) -> dict[str, Any]:
    if shutil.which("tmux") is None or shutil.which("ssh") is None:
        raise RuntimeError("needs tmux and ssh")
    load_before = os.getloadavg()[0]
    trees: list[tuple[str, Path | None]] = [("this", tree_src(src) if src else None)]
    if ab is not None:
        trees = [("new", trees[0][1]), ("old", tree_src(ab))]
    with tempfile.TemporaryDirectory(prefix="spit-ssh-bench-") as tmp:
        home = Path(tmp)
        subprocess.run(
            ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(home / "id")], check=True
        )
        variants: list[Variant] = []
        try:
            for label, tree in trees:
                variants.append(Variant(label, tree, home, in_process))
            for _ in range(runs):
                for v in variants:
                    v.one_run(home, method)
            mem = guest_memory(variants[0].served, home)
        finally:
            for v in variants:
                v.served.close()
    first = variants[0].figures()
    out: dict[str, Any] = {
        "runs": runs,
        "method": method,
        "served": "in this process" if in_process else "a process apart",
        **first,
    }
    if ab is not None:
        out["ab"] = {
            v.label: {k: v.figures()[k] for k in (*PATHS, "ssh_over_join_p50")} for v in variants
        }
    out["memory"] = mem
    # the machine's load when it began and ended: above ~1 on two cores, the
    # figures move from run to run by more than the target's margin
    out["loadavg"] = [round(load_before, 2), round(os.getloadavg()[0], 2)]
    out["ok"] = out["ssh_over_join_p50"] <= 1.2
    return out


def guest_memory(served: Served | ServedApart, home: Path, guests: int = 6) -> dict[str, Any]:
    """Seat `guests` ssh guests (in pairs, each pair a room) and read the
    resident memory of each guest's game process and of the door's process."""
    before = _rss_kb(served.pid)
    panes = []
    try:
        for i in range(0, guests, 2):
            code = served.new_room()
            for n in (f"p{i}", f"p{i + 1}"):
                tm = Tmux(ssh_argv(home, served.door_port, n, code))
                tm.start()
                panes.append(tm)
        for tm in panes:
            wait_for(tm, MARK, 60.0)
        time.sleep(1.0)
        games = [m for p in served.game_pids() if (m := rss_mb(p)) is not None]
        after = _rss_kb(served.pid)
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
    ap.add_argument("--src", help="run the tree DIR (its src) instead of this one")
    ap.add_argument("--ab", metavar="OLD_SRC", help="alternate this tree and OLD_SRC, run by run")
    ap.add_argument(
        "--in-process",
        action="store_true",
        help="host and door in this process (the method before)",
    )
    ap.add_argument(
        "--method",
        choices=["process", "control", "pty"],
        default="process",
        help="tmux commands a process each (the default), or one tmux control"
        " client, or no tmux: this process is the terminal (PtyPane)",
    )
    ap.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.serve:
        return serve_child()
    os.environ["SPIT_LAYOUT"] = "us"  # no first-run keyboard check in any pane
    res = run(1 if args.quick else args.runs, args.src, args.ab, args.in_process, args.method)
    if args.json:
        print(json.dumps(res, indent=2))
        return 0 if res["ok"] else 1
    for label, fig in (res.get("ab") or {"this": res}).items():
        for name in PATHS:
            r = fig[name]
            print(
                f"{label:5} {name:6} key->screen median {r['median_ms']:6.2f} ms"
                f"  p95 {r['p95_ms']:6.2f} ms  (n={r['n']})"
            )
        print(f"{label:5} ssh/join {fig['ssh_over_join_p50']}")
    print(f"join/local {res['join_over_local_p50']}  (served: {res['served']})")
    print("memory: " + shlex.join(f"{k}={v}" for k, v in res["memory"].items()))
    return 0 if res["ok"] else 1


if __name__ == "__main__":
    from userdirs import temporary_user_dirs

    with temporary_user_dirs():  # never the user's own history or config
        sys.exit(main())
