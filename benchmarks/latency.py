"""Key press to visible change, and start-up to first frame, measured end to end
in a real terminal: tmux on a private socket, `send-keys`, then `capture-pane`
polled until the screen changes. spit-tui and a minimal echo app (echo_app.py)
are measured in the same run, alternately, so the machine's load hits both.

    python benchmarks/latency.py [--json] [--runs N] [--quick] [--startup-only]

--startup-only starts each app --runs times (15 by default), in turns, and
nothing else: the start-up figures run.py reports (`startups`).

Floors (issue 3): median latency within 1.25x of the echo app, p95 under 25 ms,
start-up within 1.5x of the echo app.

spit-tui starts from a position (``--position``) in which every key of the run
plays a card: the left player climbs pile a, the right player pile b, one card
per key, alternating. The header's round clock is left out of the comparison
(it changes by itself once a second); capture-pane without -e sees text only,
so colour-only changes (a highlight fading) never count as a key's effect.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SIZE = (100, 30)
SETTLE_S = 0.06  # idle time between keys: each key is measured on its own
TIMEOUT_S = 2.0

# Left: pile a from 8♠ up to 7 and beyond; right: pile b from 8♥. Five stockpiles
# each, every revealed card the next rank (slot 5 first, then 4, 3, 2, 1).
BENCH_POSITION = (
    "play 1 two - :Ts/9s:8c/7c6c:5c/4c3c2c:Ac/KcQcJcTc:9c - 8s/8h "
    ":Th/9h:8d/7d6d:5d/4d3d2d:Ad/KdQdJdTd:9d - 0,0"
)
LEFT_KEYS = "t" * 5 + "r" * 4 + "e" * 3 + "w" * 2 + "q"
RIGHT_KEYS = ";" * 5 + "l" * 4 + "k" * 3 + "j" * 2 + "h"


def bench_position() -> str:
    from spit_tui.engine import complete_position, format_position, parse_position

    return format_position(complete_position(parse_position(BENCH_POSITION, check=False)))


def spit_keys() -> list[str]:
    """Alternating left/right plays; the left's last card would end the round,
    so the run stops one short of it."""
    keys = [k for pair in zip(LEFT_KEYS, RIGHT_KEYS, strict=True) for k in pair]
    return keys[:-2]


class Tmux:
    """One tmux server on a private socket, one session running `argv`.

    method "process" (the default, as specified): every `send-keys` and every
    `capture-pane` poll is its own tmux command, so each costs a process start
    (a few ms) and the figures include that fixed cost for both apps alike.
    method "control": one control-mode client carries the commands over a pipe,
    so a poll costs a round trip; this shows the apps' own latency more sharply.
    """

    def __init__(
        self, argv: list[str], size: tuple[int, int] = SIZE, method: str = "process"
    ) -> None:
        self.sock = f"spit-bench-{uuid.uuid4().hex[:8]}"
        self.argv = argv
        self.size = size
        self.method = method
        self.ctl: subprocess.Popen[str] | None = None

    def _tmux(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["tmux", "-L", self.sock, "-f", os.devnull, *args],
            capture_output=True,
            text=True,
            check=False,
        )

    def start(self) -> float:
        w, h = self.size
        cmd = " ".join(_quote(a) for a in self.argv)
        self._tmux("new-session", "-d", "-s", "bench", "-x", str(w), "-y", str(h), "sleep 30")
        self._tmux("set-option", "-g", "window-size", "manual")
        if self.method == "process":
            t0 = time.perf_counter()
            self._tmux("respawn-pane", "-k", "-t", "bench", cmd)
            return t0
        self.ctl = subprocess.Popen(
            ["tmux", "-L", self.sock, "-C", "attach-session", "-t", "bench", "-f", "no-output"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self._reply()  # the attach's own %begin/%end: else every reply is one behind
        self._command("refresh-client -f no-output")
        t0 = time.perf_counter()
        self._command(f"respawn-pane -k -t bench {_quote(cmd)}")
        return t0

    def _command(self, line: str) -> list[str]:
        """Run one tmux command through the control client; its output lines."""
        ctl = self.ctl
        assert ctl is not None and ctl.stdin is not None and ctl.stdout is not None
        ctl.stdin.write(line + "\n")
        ctl.stdin.flush()
        return self._reply()

    def _reply(self) -> list[str]:
        """The output lines of the next %begin ... %end (or %error) block."""
        ctl = self.ctl
        assert ctl is not None and ctl.stdout is not None
        out: list[str] = []
        inside = False
        while True:
            got = ctl.stdout.readline()
            if not got:
                raise RuntimeError("tmux control client went away")
            got = got.rstrip("\n")
            if got.startswith("%begin"):
                inside = True
                out = []
            elif got.startswith(("%end", "%error")) and inside:
                return out
            elif inside:
                out.append(got)

    def capture(self) -> str:
        if self.ctl is None:
            return self._tmux("capture-pane", "-p", "-t", "bench").stdout
        return "\n".join(self._command("capture-pane -p -t bench"))

    def send_text(self, text: str) -> None:
        """Send `text` as typed, all of it in ONE send-keys (one write to the pane)."""
        if text.endswith(";"):  # a trailing ";" would end the tmux command: escape it
            text = text[:-1] + "\\;"
        if self.ctl is None:
            self._tmux("send-keys", "-t", "bench", "-l", text)
        else:
            self._command(f"send-keys -t bench -l {_quote(text)}")

    def pane_pid(self) -> int | None:
        """The process running in the pane (the app: tmux execs a simple command)."""
        if self.ctl is None:
            out = self._tmux("display-message", "-p", "-t", "bench", "#{pane_pid}").stdout
        else:
            out = "\n".join(self._command("display-message -p -t bench '#{pane_pid}'"))
        return int(out.strip()) if out.strip().isdigit() else None

    def send(self, key: str) -> None:
        if self.ctl is None:
            # a lone ";" separates tmux commands: escape it
            self._tmux("send-keys", "-t", "bench", "-l", "\\;" if key == ";" else key)
        else:
            self._command(f"send-keys -t bench -l {_quote(key)}")

    def kill(self) -> None:
        if self.ctl is not None:
            self.ctl.kill()
            self.ctl.wait()
        self._tmux("kill-server")


def _quote(a: str) -> str:
    return "'" + a.replace("'", "'\\''") + "'"


def _body(screen: str, skip_first_line: bool) -> str:
    lines = screen.splitlines()
    return "\n".join(lines[1:] if skip_first_line else lines)


def _started(tm: Tmux, argv: list[str], marker: str) -> float:
    """Start `argv` in `tm`: the seconds until `marker` is on the screen."""
    t0 = tm.start()
    deadline = t0 + 10.0
    while marker not in tm.capture():
        if time.perf_counter() > deadline:
            raise RuntimeError(f"{argv[-1]!r} never showed {marker!r}")
    return time.perf_counter() - t0


def measure_start(argv: list[str], marker: str, method: str = "process") -> float:
    """Start `argv` in tmux: the seconds until `marker` is on the screen (no keys)."""
    tm = Tmux(argv, method=method)
    try:
        return _started(tm, argv, marker)
    finally:
        tm.kill()


def measure(
    argv: list[str], keys: list[str], marker: str, *, skip_header: bool, method: str = "process"
) -> tuple[float, list[float]]:
    """Start `argv` in tmux; return (start-up seconds, per-key latencies in seconds)."""
    tm = Tmux(argv, method=method)
    try:
        startup = _started(tm, argv, marker)
        time.sleep(0.3)  # let start-up work (and the D13 guard) pass
        lat: list[float] = []
        for k in keys:
            before = _body(tm.capture(), skip_header)
            t = time.perf_counter()
            tm.send(k)
            while _body(tm.capture(), skip_header) == before:
                if time.perf_counter() - t > TIMEOUT_S:
                    raise RuntimeError(f"no visible change after key {k!r}")
            lat.append(time.perf_counter() - t)
            time.sleep(SETTLE_S)
        return startup, lat
    finally:
        tm.kill()


def rss_mb(pid: int) -> float | None:
    """Resident memory of process `pid` (VmRSS), or of its one python descendant
    if `pid` is a shell that started it; None if it cannot be read."""
    for cand in _self_and_descendants(pid):
        try:
            status = Path(f"/proc/{cand}/status").read_text()
            comm = Path(f"/proc/{cand}/comm").read_text().strip()
        except OSError:
            continue
        if not comm.startswith("python") and cand == pid and _children(pid):
            continue  # a shell or env: look at what it started
        for line in status.splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return None


def _children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(x) for x in text.split()]


def _self_and_descendants(pid: int) -> list[int]:
    out, todo = [], [pid]
    while todo:
        p = todo.pop(0)
        out.append(p)
        todo += _children(p)
    return out


def percentile(xs: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..1) of a non-empty list."""
    s = sorted(xs)
    return s[min(len(s) - 1, round(q * (len(s) - 1)))]


def _stats(xs: list[float]) -> dict[str, float]:
    s = sorted(xs)
    p95 = s[min(len(s) - 1, round(0.95 * (len(s) - 1)))]
    return {
        "n": len(s),
        "median_ms": round(statistics.median(s) * 1000, 2),
        "p95_ms": round(p95 * 1000, 2),
        "min_ms": round(s[0] * 1000, 2),
        "max_ms": round(s[-1] * 1000, 2),
    }


def compile_like_an_install() -> None:
    """Compile spit-tui's modules to bytecode, as `pip install` does for a wheel.

    The echo app's imports (Textual, Rich) come compiled from site-packages; an
    editable checkout run with PYTHONDONTWRITEBYTECODE=1 (as CI and many dev
    shells set) would instead compile every one of our ~100 modules on each
    start, and the start-up figure would time Python's compiler (about 75 ms of
    CPU here) rather than the game. Existing, current bytecode is left as is."""
    import compileall

    import spit_tui

    compileall.compile_dir(Path(spit_tui.__file__).parent, quiet=1)


def app_argvs() -> tuple[list[str], list[str]]:
    """(spit-tui's command, the echo app's), as both are measured."""
    py = sys.executable
    return [py, "-m", "spit_tui", "--position", bench_position()], [py, str(HERE / "echo_app.py")]


def startups(runs: int = 15, method: str = "process") -> dict[str, Any]:
    """Start-up alone: echo and spit-tui started `runs` times each, in turns
    (echo, spit, spit, echo, ...: neither always goes first after a pause), to
    the first screen that shows each (spit-tui's board, "echo ready"). One start
    swings by tens of ms on a loaded machine, so the ratio is of the medians
    of many starts; each pair's own ratio is kept too (`pair_ratios`)."""
    if shutil.which("tmux") is None:
        raise RuntimeError("tmux is not installed")
    compile_like_an_install()
    spit_argv, echo_argv = app_argvs()
    starts: dict[str, list[float]] = {"spit-tui": [], "echo": []}
    for i in range(runs):
        order = [("echo", echo_argv, "echo ready"), ("spit-tui", spit_argv, "pile a")]
        for name, argv, marker in order if i % 2 == 0 else order[::-1]:
            starts[name].append(measure_start(argv, marker, method))
    spit, echo = (statistics.median(starts[n]) for n in ("spit-tui", "echo"))
    pairs = [s / e for s, e in zip(starts["spit-tui"], starts["echo"], strict=True)]
    return {
        "method": method,
        "runs": runs,
        "startup_ms": round(spit * 1000, 1),
        "baseline_startup_ms": round(echo * 1000, 1),
        "startup_ratio": round(spit / echo, 3),
        "pair_ratios": [round(r, 3) for r in pairs],
        "pair_ratio_median": round(statistics.median(pairs), 3),
        "startup_ms_runs": {n: [round(x * 1000, 1) for x in v] for n, v in starts.items()},
    }


def run(runs: int = 4, method: str = "process") -> dict[str, Any]:
    """Measure both apps `runs` times each, interleaved; return the figures and floors."""
    if shutil.which("tmux") is None:
        raise RuntimeError("tmux is not installed")
    compile_like_an_install()
    spit_argv, echo_argv = app_argvs()
    keys = spit_keys()
    lat: dict[str, list[float]] = {"spit-tui": [], "echo": []}
    start: dict[str, list[float]] = {"spit-tui": [], "echo": []}
    per_run: dict[str, list[dict[str, float]]] = {"spit-tui": [], "echo": []}
    apps = [
        ("echo", echo_argv, "echo ready", False),
        ("spit-tui", spit_argv, "pile a", True),
    ]
    for i in range(runs):
        # in turns, and each app first in every other round: the one measured
        # right after the other's start would otherwise always share its tail
        for name, argv, marker, skip in apps if i % 2 == 0 else apps[::-1]:
            s, xs = measure(argv, keys, marker, skip_header=skip, method=method)
            start[name].append(s)
            lat[name] += xs
            per_run[name].append(_stats(xs))
    out: dict[str, Any] = {"method": method, "runs": runs}
    for name in lat:
        out[name] = {
            "latency": _stats(lat[name]),  # all keys of all runs together
            "startup_ms": round(statistics.median(start[name]) * 1000, 1),
            # each run's own figures, and their medians (what benchmarks/run.py reports)
            "per_run": per_run[name],
            "startup_ms_runs": [round(x * 1000, 1) for x in start[name]],
            "median_of_runs": {
                k: round(statistics.median(r[k] for r in per_run[name]), 2)
                for k in ("median_ms", "p95_ms")
            },
        }
    ratio = out["spit-tui"]["latency"]["median_ms"] / out["echo"]["latency"]["median_ms"]
    start_ratio = out["spit-tui"]["startup_ms"] / out["echo"]["startup_ms"]
    out["latency_ratio"] = round(ratio, 3)
    out["startup_ratio"] = round(start_ratio, 3)
    out["floors"] = {
        "median_within_1.25x": ratio <= 1.25,
        "p95_under_25ms": out["spit-tui"]["latency"]["p95_ms"] < 25,
        "startup_within_1.5x": start_ratio <= 1.5,
    }
    out["ok"] = all(out["floors"].values())
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument(
        "--runs", type=int, default=0, help="app starts per app (default 4; --startup-only 15)"
    )
    ap.add_argument("--quick", action="store_true", help="one run each")
    ap.add_argument(
        "--startup-only",
        action="store_true",
        help="only start each app, in turns (--runs each, default 15): the start-up figures",
    )
    ap.add_argument(
        "--method",
        choices=["process", "control"],
        default="process",
        help="process: a tmux command per poll (default); control: one control-mode client",
    )
    args = ap.parse_args(argv)
    if args.startup_only:
        got = startups(1 if args.quick else args.runs or 15, args.method)
        if args.json:
            print(json.dumps(got, indent=2))
        else:
            print(
                f"start-up: spit-tui {got['startup_ms']} ms, echo {got['baseline_startup_ms']} ms"
                f" (medians of {got['runs']}): ratio {got['startup_ratio']}"
                f" (median of the pairs' {got['pair_ratio_median']})"
            )
        return 0
    res = run(1 if args.quick else args.runs or 4, args.method)
    if args.json:
        print(json.dumps(res, indent=2))
    else:
        for name in ("spit-tui", "echo"):
            r = res[name]
            lt = r["latency"]
            print(
                f"{name:9} key->screen median {lt['median_ms']:6.2f} ms  p95 {lt['p95_ms']:6.2f} ms"
                f"  (n={lt['n']})   start-up {r['startup_ms']:7.1f} ms"
            )
        print(f"latency ratio {res['latency_ratio']}  start-up ratio {res['startup_ratio']}")
        for k, v in res["floors"].items():
            print(f"  {k}: {'ok' if v else 'MISSED'}")
    return 0 if res["ok"] else 1


if __name__ == "__main__":
    from userdirs import temporary_user_dirs

    with temporary_user_dirs():  # never the user's own history or config
        sys.exit(main())
