"""benchmarks/directory.py runs end to end (a redis-server, three host
processes sharing it, a load process, the two faults) and reports every
figure; the figures are the benchmark's to judge, not this test's."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "directory.py"


@pytest.mark.slow
def test_the_directory_benchmark_reports_each_figure() -> None:
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed (Debian: apt-get install redis-server)")
    done = subprocess.run(
        [sys.executable, str(BENCH), "--steps", "3", "--window", "2", "--ttl", "1.5", "--json"],
        capture_output=True, text=True, timeout=180,
    )
    assert done.returncode == 0, done.stderr[-500:]
    out = json.loads(done.stdout)
    (row,) = out["steps"]
    assert row["rooms"] == 3 and row["hosts"] == 3 and row["presses"] > 0
    assert row["quick_paired"] == "10/10" and row["failed"] == 0
    for key in ("p50_ms", "p95_ms", "join_across_p50_ms", "join_direct_p50_ms",
                "quick_across_p95_ms", "redis_commands_per_room_min",
                "redis_bytes_in_per_room_min", "hosts_cpu_pct", "load_cpu_pct"):
        assert row[key] is not None, key
    assert 0 < out["faults"]["dead_host_listed_s"] <= 1.5 + 1.0
    assert 0 <= out["faults"]["joins_work_after_redis_back_s"] < 5
