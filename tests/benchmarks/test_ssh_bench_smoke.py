"""The SSH benchmarks run end to end and report each figure; the figures are
theirs to judge, not these tests' (wall-clock rates are never asserted here).

- benchmarks/ssh_hop.py: a real `ssh` client through the door to a tiny echo
  program, against the echo program on a pty of its own;
- benchmarks/ssh_latency.py: local, join and ssh panes in tmux, with the host
  and door in a process of their own, two trees alternated (--ab; here this
  tree against a copy of its own src, as `git archive` would give)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "benchmarks"

pytestmark = pytest.mark.skipif(shutil.which("ssh") is None, reason="needs an ssh client")


@pytest.mark.slow  # ~3-7 s: a process importing asyncssh and the game, an ssh login
def test_the_hop_benchmark_goes_through_the_door_and_reports() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH / "ssh_hop.py"), "--rounds", "25", "--json"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-800:]
    row = json.loads(done.stdout)
    assert row["rounds"] == 25 and row["frame_bytes"] > 400
    assert row["cipher"]  # the session was encrypted: it went through ssh
    for key in ("hop_ms_p50", "door_cpu_us_per_round", "ssh_client_cpu_us_per_round"):
        assert isinstance(row[key], int | float)
    assert row["door_cpu_us_per_round"] > 0  # the door's thread did the relaying
    assert row["ssh"]["median_ms"] > 0 and row["direct"]["median_ms"] > 0


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")
def test_the_latency_benchmark_alternates_two_trees_with_its_servers_apart(
    tmp_path: Path,
) -> None:
    old = tmp_path / "old" / "src"
    shutil.copytree(ROOT / "src" / "spit_tui", old / "spit_tui",
                    ignore=shutil.ignore_patterns("__pycache__"))  # fmt: skip
    done = subprocess.run(
        [sys.executable, str(BENCH / "ssh_latency.py"), "--quick", "--json", "--ab", str(old)],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode in (0, 1), done.stderr[-800:]  # 1: over the target (a busy machine)
    res = json.loads(done.stdout)
    assert res["served"] == "a process apart"
    keys = 28  # latency.py's plays, one short of the round's end
    for label in ("new", "old"):
        fig = res["ab"][label]
        assert [fig[p]["n"] for p in ("local", "join", "ssh")] == [keys, keys, keys]
        assert fig["ssh_over_join_p50"] > 0
    assert len(res["samples_ms"]["ssh"]) == keys
    assert res["memory"]["guests"] == 6  # the served process's own guests
    assert len(res["loadavg"]) == 2  # the load it ran under, begun and ended
