"""benchmarks/scale.py runs end to end (a host process, rooms made with
new_room, bot clients) and reports every figure; the figures are the
benchmark's to judge, not this test's."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

SCALE = Path(__file__).resolve().parents[2] / "benchmarks" / "scale.py"


@pytest.mark.slow
def test_the_scale_benchmark_reports_each_figure() -> None:
    done = subprocess.run(
        [sys.executable, str(SCALE), "--steps", "2", "--window", "2", "--json"],
        capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr[-500:]
    (row,) = json.loads(done.stdout)
    assert row["rooms"] == 2 and row["presses_timed"] > 0 and row["load_processes"] == 2
    for key in ("host_cpu_pct_per_room", "p50_ms", "p95_ms", "rss_kb_per_room",
                "host_runq_wait_pct", "clients_runq_wait_pct", "host_loop_lag_max_ms",
                "clients_loop_lag_max_ms", "host_cpu_ms_per_press", "clients_cpu_pct"):
        assert row[key] is not None
