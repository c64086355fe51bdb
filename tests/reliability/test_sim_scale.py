"""Hostile input, round two (issue 10, item 10): `spit-tui sim` at scale, as a
real process.

- `--games 1000000000` plays from the first second in constant memory (it
  used to build the whole seed list first: ~230 MB/s and no game played);
- Ctrl+C (SIGINT) or SIGTERM stops it cleanly: the table or the JSON of the
  games finished, marked partial, exit status 130 (143), no traceback;
- `--json > /dev/full`: one line, exit status 1.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest
from testkit import procs

from spit_tui.engine import Options
from spit_tui.sim import Tally, run_games, stream_games, summarize

BILLION = ["sim", "--games", "1000000000", "--left", "expert", "--right", "expert"]
RSS_GROWTH_MB = 15.0


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def start(args: list[str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "spit_tui", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def caught(pid: int, sig: int, bound: float = 30.0) -> None:
    """Wait until the process has its own handler for `sig` (the caught-signal
    mask in /proc), so a busy machine's slow start-up cannot take the signal
    before the run listens for it; a bound, not a speed."""
    deadline = time.monotonic() + bound
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{pid}/status") as f:
                mask = next(int(line.split()[1], 16) for line in f if line.startswith("SigCgt:"))
        except (OSError, StopIteration):
            mask = 0
        if mask >> (sig - 1) & 1:
            return
        time.sleep(0.05)
    raise AssertionError(f"no handler for signal {sig} after {bound} s")


def stop(p: subprocess.Popen[str], sig: int) -> tuple[str, str]:
    if os.path.exists(f"/proc/{p.pid}/status"):
        caught(p.pid, signal.SIGTERM)  # the run's own handlers are in place
    return procs.stop(p, sig, bound_s=30)


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="needs /proc for RSS")
def test_sim_a_billion_games_streams_in_constant_memory_and_ctrl_c_reports_partial() -> None:
    p = start([*BILLION, "--json"])
    try:
        time.sleep(1.5)  # imports done, games under way
        first = rss_mb(p.pid)
        time.sleep(2.0)
        grown = rss_mb(p.pid) - first
    finally:
        out, err = stop(p, signal.SIGINT)
    assert grown < RSS_GROWTH_MB, f"RSS grew {grown:.1f} MB in 2 s"
    assert p.returncode == 130, (p.returncode, err)
    assert "Traceback" not in err and err == "", err
    summary = json.loads(out)
    assert summary["partial"] is True and summary["stopped"] == "SIGINT"
    assert summary["requested"] == 1_000_000_000
    assert summary["games"] >= 1
    assert summary["left"]["wins"] + summary["right"]["wins"] + summary["capped"] == (
        summary["games"]
    )


def test_sim_ctrl_c_prints_the_table_of_finished_games_marked_partial() -> None:
    p = start(BILLION)
    time.sleep(1.5)
    out, err = stop(p, signal.SIGINT)
    assert p.returncode == 130, (p.returncode, err)
    assert "Traceback" not in err
    assert "PARTIAL" in out and "of 1,000,000,000" in out and "win rate" in out
    assert "stopped by SIGINT" in out


def test_sim_sigterm_also_reports_partial() -> None:
    p = start([*BILLION, "--json"])
    time.sleep(1.5)
    out, err = stop(p, signal.SIGTERM)
    assert p.returncode == 143, (p.returncode, err)
    assert json.loads(out)["stopped"] == "SIGTERM"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="this machine has no /dev/full")
@pytest.mark.parametrize("json_flag", [["--json"], []])
def test_sim_json_to_a_full_disk_is_one_line_and_exit_1(json_flag: list[str]) -> None:
    with open("/dev/full", "w") as full:
        r = subprocess.run(
            [sys.executable, "-m", "spit_tui", "sim", "--games", "2", *json_flag],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
        )
    assert r.returncode == 1, (r.returncode, r.stderr)
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr, r.stderr
    assert r.stderr.startswith("spit-tui sim: cannot write the results: No space left")


def test_streamed_games_match_the_listed_ones_and_the_tally_matches_summarize() -> None:
    opts = Options()
    listed = run_games("hard", "easy", games=5, seed=9, options=opts)
    streamed = stream_games("hard", "easy", games=None, seed=9, options=opts)
    assert [next(streamed) for _ in range(5)] == listed  # an endless stream, same games
    tally = Tally()
    for r in listed:
        tally.add(r)
    kw = {"left": "hard", "right": "easy", "seed": 9, "variant": opts.variant}
    assert tally.summary(**kw) == summarize(listed, **kw)  # type: ignore[arg-type]
