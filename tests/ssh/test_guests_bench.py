"""The SSH guests benchmarks run end to end and report every figure (the
figures are the benchmarks' to judge, not these tests'): ssh_guests.py (a
real `ssh-serve` process, two asyncssh guests that pair up by a code read off
the first one's screen and play from what their screens show) and
guest_memory.py (guests started as the door does, and forked from a template)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "ssh_guests.py"


@pytest.mark.slow
def test_the_ssh_guests_benchmark_reports_each_figure() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH), "--steps", "2", "--window", "4", "--pace", "0.3",
         "--limit", "150", "--json"],
        capture_output=True, text=True, timeout=180,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-800:]
    out = json.loads(done.stdout)
    (row,) = out["steps"]
    assert row["guests"] == 2 and row["guest_processes"] == 2
    assert row["plays"] > 0 and row["keys_per_s"] > 0 and out["loads"] == 2
    for key in ("p50_ms", "p95_ms", "server_cpu", "guests_cpu", "load_cpu", "server_rss_mb",
                "guest_rss_mb", "guest_pss_mb", "guest_uss_mb", "memory_per_guest_mb", "loadavg",
                "load_loop_lag_p95_ms", "server_cpu_ms_per_key", "guests_cpu_ms_per_key"):
        assert row[key] is not None, key
    assert out["ssh_memory_per_guest_mb"] == row["memory_per_guest_mb"]


MEMORY = BENCH.with_name("guest_memory.py")


@pytest.mark.slow
def test_the_guest_memory_benchmark_reports_each_way() -> None:
    done = subprocess.run([sys.executable, str(MEMORY), "--guests", "2", "--json"],
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-800:]
    out = json.loads(done.stdout)
    for way in ("exec", "fork"):  # every guest reached a board, each way
        assert out[way]["guests"] == out[way]["on_a_board"] == 2
        assert 0 < out[way]["uss_mb"] <= out[way]["pss_mb"] <= out[way]["rss_mb"]
    assert out["imports"]["uss_mb"] > 0 and out["in_process_estimate_mb"] is not None
