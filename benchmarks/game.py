"""One whole game in a real terminal: the time to draw each board update, and
the memory the app holds afterwards, against the echo app's.

    python benchmarks/game.py [--runs N] [--json]

Each run starts fast_demo.py (the `--demo` app, two hard computer players,
on a virtual clock stepped at full speed, screen updates uncapped with
TEXTUAL_FPS=1000) in tmux on a private socket, waits for the game to end, and
reads back the frame times it wrote and its resident memory (VmRSS in
/proc/PID/status). The baseline is the echo app (echo_app.py) started the
same way, after it has shown 40 keys. Run i plays seed i.

Frame time: see fast_demo.py (the table listeners' sync plus the screen
update that draws it: compositor render, encoding, hand-off to the driver),
wall-clock; frame_cpu_ms is the same span in CPU time of the app's thread.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from latency import Tmux, percentile, rss_mb  # noqa: E402

GAME_TIMEOUT_S = 120.0
ECHO_KEYS = "abcdefghij" * 4


def demo_game(seed: int) -> dict[str, Any]:
    """Play one fast demo game in tmux: its frame times (ms) and RSS (MB) at the end."""
    with tempfile.TemporaryDirectory(prefix="spit-game-") as tmp:
        stats = Path(tmp) / "stats.json"
        argv = ["env", "TEXTUAL_FPS=1000", sys.executable, str(HERE / "fast_demo.py")]
        argv += ["--seed", str(seed), "--level", "hard", "--stats", str(stats)]
        if not os.environ.get("SPIT_NO_HISTORY"):  # stored at every round end, as a game is
            argv += ["--history", str(Path(tmp) / "history.sqlite3")]
        tm = Tmux(argv)
        try:
            t0 = tm.start()
            while not stats.exists():
                if time.perf_counter() - t0 > GAME_TIMEOUT_S:
                    raise RuntimeError(f"the demo game (seed {seed}) did not end in time")
                time.sleep(0.05)
            data = json.loads(stats.read_text())
            time.sleep(0.2)  # the last frames, the "over" notice
            rss = rss_mb(int(data["pid"]))
        finally:
            tm.kill()
    frames = data["frames_ms"]
    return {
        "seed": seed,
        "frames": len(frames),
        "frame_ms_p50": round(percentile(frames, 0.5), 3),
        "frame_ms_p95": round(percentile(frames, 0.95), 3),
        "frame_ms_max": round(max(frames), 3),
        "frame_cpu_ms_p95": round(percentile(data["cpu_ms"], 0.95), 3),
        "sync_ms_p95": round(percentile(data["sync_ms"], 0.95), 3),
        "update_ms_p95": round(percentile(data["update_ms"], 0.95), 3),
        "game_over": data["over"],
        "rounds": data["rounds"],
        "steps": data["steps"],
        "wall_s": data["wall_s"],
        "rss_mb": None if rss is None else round(rss, 1),
    }


def echo_rss() -> float | None:
    """The echo app's RSS after it has shown len(ECHO_KEYS) keys."""
    tm = Tmux([sys.executable, str(HERE / "echo_app.py")])
    try:
        t0 = tm.start()
        while "echo ready" not in tm.capture():
            if time.perf_counter() - t0 > 10:
                raise RuntimeError("the echo app never started")
            time.sleep(0.01)
        tm.send_text(ECHO_KEYS)
        want = f"echo #{len(ECHO_KEYS)}:"
        while want not in tm.capture():
            if time.perf_counter() - t0 > 20:
                raise RuntimeError("the echo app did not show every key")
            time.sleep(0.01)
        time.sleep(0.2)
        pid = tm.pane_pid()
        return None if pid is None else rss_mb(pid)
    finally:
        tm.kill()


def run(runs: int = 3) -> dict[str, Any]:
    if shutil.which("tmux") is None:
        raise RuntimeError("tmux is not installed")
    games: list[dict[str, Any]] = []
    echo: list[float] = []
    for i in range(runs):
        games.append(demo_game(seed=1 + i))
        e = echo_rss()
        if e is not None:
            echo.append(round(e, 1))

    def med(key: str) -> float | None:
        xs = [g[key] for g in games if g[key] is not None]
        return round(statistics.median(xs), 3) if xs else None

    rss = med("rss_mb")
    base = round(statistics.median(echo), 1) if echo else None
    return {
        "runs": runs,
        "frame_ms_p50": med("frame_ms_p50"),
        "frame_ms_p95": med("frame_ms_p95"),
        "frame_cpu_ms_p95": med("frame_cpu_ms_p95"),
        "sync_ms_p95": med("sync_ms_p95"),
        "update_ms_p95": med("update_ms_p95"),
        "rss_mb": rss,
        "baseline_rss_mb": base,
        "rss_ratio": round(rss / base, 3) if rss and base else None,
        "per_run": games,
        "baseline_rss_runs": echo,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    res = run(args.runs)
    if args.json:
        print(json.dumps(res, indent=2))
        return 0
    for g in res["per_run"]:
        print(
            f"seed {g['seed']}: {g['frames']} frames, p50 {g['frame_ms_p50']} ms, "
            f"p95 {g['frame_ms_p95']} ms, max {g['frame_ms_max']} ms; RSS {g['rss_mb']} MB"
        )
    print(
        f"median of runs: frame p95 {res['frame_ms_p95']} ms (sync {res['sync_ms_p95']}, "
        f"update {res['update_ms_p95']}; CPU {res['frame_cpu_ms_p95']}); "
        f"RSS {res['rss_mb']} MB vs echo {res['baseline_rss_mb']} MB (x{res['rss_ratio']})"
    )
    return 0


if __name__ == "__main__":
    from userdirs import temporary_user_dirs

    with temporary_user_dirs():  # never the user's own history or config
        sys.exit(main())
