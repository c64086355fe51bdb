"""Key press to screen in a real browser: `spit-tui serve` in headless Chromium,
against the echo app (echo_app.py) served the same way, so the figures show
what the game adds to textual-serve's own path.

    python benchmarks/browser_latency.py [--runs N] [--quick] [--json] [--src DIR]

The path a key takes: the browser's keydown, xterm.js, textual-serve's
websocket, a pipe to the game process, the game's frame back through the pipe
and the websocket, and xterm.js painting it. Each key is timed in the page on
one clock (performance.now): from its keydown (a listener before xterm's) to
xterm's onRender that first shows a changed screen (tests/testkit/browser.py
says how the page is watched). spit-tui starts from latency.py's position, in
which every key plays a card (left and right halves alternating); its header
row is left out (the round clock changes it by itself). The echo app shows
every key.

Figures: median and p95 over all keys of all runs, per app, and the ratio of
the medians; also the median time to the first bytes back after a key (the
rest, up to the paint, is xterm.js parsing and drawing). No target is
asserted; the browser test (tests/web) records the same measure for its keys.

The times are wall-clock, and on a shared machine they follow its load (the
ratio of two medians of 5-10 ms moves by 0.3 and more between runs of the
same code). What does not: per app, the CPU a key costs the served process
(`cpu_ms_per_key`: all its threads, from the first key to the last key's
frame, the ticks between keys included) and the bytes it writes to the
server a key (`bytes_per_key`, and `writes_per_key`: a frame should be one
write), read from /proc. `--src DIR` serves another tree's spit-tui (a
checkout's `src`), for an A/B in turns with this one.
Needs Chromium (apt-get install chromium).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any, NamedTuple

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests"))

import latency  # noqa: E402
from testkit.browser import Browser, Served, Timing, chromium, open_game  # noqa: E402
from userdirs import temporary_user_dirs  # noqa: E402

SETTLE_S = 0.08  # idle time between keys: each key is measured on its own
GUARD_S = 0.4  # after the board shows: past the stale-key guard

ECHO_SERVER = (
    "import sys\n"
    "from spit_tui.web.serve import GameServer, listen\n"
    "GameServer(listen(0), sys.argv[1]).serve()\n"
)


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def summary(timings: list[Timing], costs: list[Cost]) -> dict[str, Any]:
    times = [t.screen_ms for t in timings]
    to_bytes = [t.bytes_ms for t in timings if t.bytes_ms is not None]
    keys = sum(c.keys for c in costs)
    return {
        "keys": len(times),
        "median_ms": round(statistics.median(times), 1),
        "p95_ms": round(_percentile(times, 0.95), 1),
        "max_ms": round(max(times), 1),
        "bytes_median_ms": round(statistics.median(to_bytes), 1) if to_bytes else None,
        "cpu_ms_per_key": round(sum(c.cpu_ns for c in costs) / 1e6 / keys, 3) if keys else None,
        "bytes_per_key": round(sum(c.wrote for c in costs) / keys, 1) if keys else None,
        "writes_per_key": round(sum(c.writes for c in costs) / keys, 2) if keys else None,
    }


class Cost(NamedTuple):
    """What a page's keys cost its game process (and any process under it)."""

    keys: int
    cpu_ns: int  # CPU time of all their threads (schedstat: ns)
    wrote: int  # bytes written (to the server's pipe: the frames)
    writes: int  # write calls


def _descendants(pid: int) -> list[int]:
    parents: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            parents.setdefault(ppid, []).append(int(entry))
    out, todo = [], list(parents.get(pid, []))
    while todo:
        p = todo.pop()
        out.append(p)
        todo += parents.get(p, [])
    return out


def _usage(pids: list[int]) -> dict[int, tuple[int, int, int]]:
    """Per process: (CPU ns of its threads, bytes written, write calls)."""
    got = {}
    for pid in pids:
        try:
            cpu = 0
            for task in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{task}/schedstat") as f:
                    cpu += int(f.read().split()[0])
            with open(f"/proc/{pid}/io") as f:
                io = dict(line.split(": ") for line in f.read().splitlines())
        except (OSError, ValueError):
            continue
        got[pid] = (cpu, int(io["wchar"]), int(io["syscw"]))
    return got


def _cost(before: dict[int, tuple[int, int, int]], pids: list[int], keys: int) -> Cost:
    after = _usage(pids)
    d = [tuple(b - a for a, b in zip(before[p], after[p], strict=True))
         for p in after if p in before]  # fmt: skip
    return Cost(keys, sum(x[0] for x in d), sum(x[1] for x in d), sum(x[2] for x in d))


async def _run_once(
    browser: Browser, served: Served, keys: list[str], echo: bool
) -> tuple[list[Timing], Cost]:
    async with browser.page() as page:
        await open_game(page, served.url, ready=echo_app_ready() if echo else "pile a")
        await asyncio.sleep(GUARD_S)
        games = _descendants(served.proc.pid)  # this page's game (each page starts its own)
        before = _usage(games)
        times = []
        for key in keys:
            times.append(await page.timed_press(key, skip_rows=0 if echo else 1))
            await asyncio.sleep(SETTLE_S)
        return times, _cost(before, games, len(keys))


def echo_app_ready() -> str:
    import echo_app

    return echo_app.READY


def _echo_served() -> Served:
    command = f"{sys.executable} {HERE / 'echo_app.py'}"
    return Served([], command=[sys.executable, "-c", ECHO_SERVER, command])


async def measure(runs: int, src: str | None = None) -> dict[str, Any]:
    """`runs` pages of each app, in turns; `src`: another tree's spit-tui."""
    exe = chromium()
    if exe is None:
        return {"skipped": "needs Debian's chromium (apt-get install chromium)"}
    keys = latency.spit_keys()
    results: dict[str, list[Timing]] = {"spit-tui": [], "echo": []}
    costs: dict[str, list[Cost]] = {"spit-tui": [], "echo": []}
    env = None if src is None else {**os.environ, "PYTHONPATH": src}
    with tempfile.TemporaryDirectory(prefix="browser-latency-") as tmp:
        browser = Browser(exe, Path(tmp) / "profile")
        served = {
            "spit-tui": Served(["--position", latency.bench_position(), "--no-history"], env=env),
            "echo": _echo_served(),
        }
        try:
            for _ in range(runs):  # alternately, so the machine's load hits both
                for name in ("spit-tui", "echo"):
                    times, cost = await _run_once(browser, served[name], keys, name == "echo")
                    results[name] += times
                    costs[name].append(cost)
        finally:
            browser.close()
            for s in served.values():
                s.close()
    out: dict[str, Any] = {name: summary(t, costs[name]) for name, t in results.items()}
    b50 = out["echo"]["median_ms"]
    out["ratio_median"] = round(out["spit-tui"]["median_ms"] / b50, 2) if b50 else None
    out["runs"] = runs
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--runs", type=int, default=3, help="pages per app (3)")
    p.add_argument("--quick", action="store_true", help="one page per app")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--src", metavar="DIR", help="serve the spit-tui of another tree's src")
    args = p.parse_args()
    with temporary_user_dirs():  # never the user's own history or config
        res = asyncio.run(measure(1 if args.quick else args.runs, args.src))
    if args.json:
        print(json.dumps(res))
    elif "skipped" in res:
        print(f"browser latency: skipped: {res['skipped']}")
    else:
        for name in ("spit-tui", "echo"):
            r = res[name]
            print(
                f"{name:9} keys {r['keys']:4}  median {r['median_ms']:6.1f} ms  "
                f"p95 {r['p95_ms']:6.1f} ms  max {r['max_ms']:6.1f} ms  "
                f"(first bytes back: median {r['bytes_median_ms']} ms)  "
                f"CPU {r['cpu_ms_per_key']} ms, {r['bytes_per_key']} bytes a key"
            )
        print(f"ratio of medians (spit-tui / echo): {res['ratio_median']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
