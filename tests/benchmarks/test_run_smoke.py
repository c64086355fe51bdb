"""benchmarks/run.py: the one command runs and gives every figure's key.
No timing is asserted: the figures depend on the machine and its load."""

from __future__ import annotations

import json
import subprocess
import sys
from itertools import pairwise
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RUN = ROOT / "benchmarks" / "run.py"

KEYS = [
    "engine_actions_per_s",
    "engine_games_per_s",
    "engine_points_actions_per_s",
    "engine_points_games_per_s",
    "sim_games_per_s",
    "key_latency_ms_p50",
    "key_latency_ms_p95",
    "baseline_key_latency_ms_p50",
    "baseline_key_latency_ms_p95",
    "key_latency_ratio_p50",
    "key_cpu_ms_p50",
    "key_bytes_p50",
    "startup_ms",
    "baseline_startup_ms",
    "startup_ratio",
    "frame_ms_p95",
    "rss_mb",
    "baseline_rss_mb",
    "rss_ratio",
    "burst_keys_lost",
    "burst_order_errors",
]
TERMINAL = KEYS[5:]


def _run(*args: str) -> dict[str, object]:
    out = subprocess.run(
        [sys.executable, str(RUN), "--quick", "--json", *args],
        capture_output=True,
        text=True,
        check=True,
        timeout=280,  # a bound under the suite's 300 s: 15 s at load 10, over 120 at load 24
    )
    data = json.loads(out.stdout)
    assert isinstance(data, dict)
    return data


@pytest.mark.long(10)
def test_engine_and_sim_figures_and_the_json_shape() -> None:
    data = _run("--no-terminal")
    for k in KEYS:
        assert k in data, k
    assert isinstance(data["engine_actions_per_s"], float) and data["engine_actions_per_s"] > 0
    assert isinstance(data["sim_games_per_s"], float) and data["sim_games_per_s"] > 0
    for k in TERMINAL:
        assert data[k] is None, k
    status = data["status"]
    assert isinstance(status, dict)
    assert status["frame_ms_p95"] == "n/a"
    assert set(status.values()) <= {"ok", "MISSED", "n/a"}
    assert isinstance(data["meta"], dict) and data["meta"]["quick"] is True
    assert str(data["meta"]["history"]).startswith("on")  # it says whether history was on
    assert isinstance(data["stats_all_s"], float) and data["stats_all_s"] > 0
    # the scale run is minutes of load: full runs only, and a quick run says so
    assert data["scale_rooms_p95_under_20ms"] is None and data["scale_p95_ms_at_100"] is None
    meta = data["meta"]
    assert isinstance(meta, dict)
    assert any(n.startswith("scale skipped") for n in meta["notes"])


def test_without_tmux_the_terminal_rows_are_skipped_with_a_note(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """run.py's own choice, in process: the steps that need no terminal are left
    out (the test above runs them all; here they only cost time again)."""
    import run  # benchmarks/run.py

    monkeypatch.setattr(run.shutil, "which", lambda *_a, **_k: None)  # no tmux to be found
    monkeypatch.setattr(run, "STEPS", [step for step in run.STEPS if step[2]])
    data = run.run_all(quick=True)
    for k in TERMINAL:
        assert data[k] is None, k
    meta = data["meta"]
    assert isinstance(meta, dict)
    assert any("tmux is not installed" in n for n in meta["notes"])


def test_burst_counting() -> None:
    import burst  # benchmarks/burst.py (pyproject's pytest pythonpath)
    assert burst.compare("qp;qa", "qp;qa") == {"lost": 0, "extra": 0, "order_errors": 0}
    assert burst.compare("qp;qa", "pq;qa")["order_errors"] == 1
    assert burst.compare("qp;qa", "qp;q")["lost"] == 1
    assert burst.compare("qp", "qpp")["extra"] == 1
    bursts = burst.burst_keys(200, seed=1)
    keys = "".join(bursts)
    assert len(keys) == 200
    assert set(keys) & set("qwert") and set(keys) & set("yuiop")
    # no key twice in a burst, nor in two bursts in a row: none within 60 ms of itself
    assert all(len(set(b)) == len(b) for b in bursts)
    assert all(not set(a) & set(b) for a, b in pairwise(bursts))
    sent = [i * burst.GAP_S for i in range(len(bursts))]
    assert burst.expected_repeats(bursts, sent) == 0
    assert burst.expected_repeats(["qp", "qa"], [0.0, 0.01]) == 1  # q again after 10 ms
    assert burst.kind({"outcome": "ignored", "message": "repeat"}) == "repeat"
    assert burst.kind({"outcome": "ignored", "message": "too soon: press again"}) == "too soon"
    assert burst.kind({"outcome": "applied"}) == "acted"




def test_keycost_takes_each_keys_first_frame() -> None:
    import keycost  # benchmarks/keycost.py

    # CPU stamps (s): keys at 1.0 and 2.0, then a quit key at 3.0; frames after each
    log = {
        "keys": [1.0, 2.0, 3.0],
        "frames": [[0.5, 9000], [1.002, 300], [1.5, 40], [2.0015, 200], [3.1, 999]],
        "waits": [1.0021, 2.0016],
    }
    rows = keycost.per_key(log, sent=2)
    assert [r["bytes"] for r in rows] == [300, 200]
    assert [r["bytes_all"] for r in rows] == [340, 200]  # the fade's frame counts to its key
    assert [round(r["cpu_ms"], 3) for r in rows] == [2.0, 1.5]
    assert [round(r["idle_ms"], 3) for r in rows] == [2.1, 1.6]


def test_startups_take_turns_and_report_the_medians(monkeypatch: pytest.MonkeyPatch) -> None:
    """latency.startups (run.py's start-up figures): the apps start in turns,
    each first every other time, and the ratio is of the two medians."""
    import latency

    order: list[str] = []
    times = {"echo ready": iter([0.20, 0.22, 0.18]), "pile a": iter([0.25, 0.30, 0.24])}

    def start(argv: list[str], marker: str, method: str = "process") -> float:
        order.append(marker)
        return next(times[marker])

    monkeypatch.setattr(latency, "measure_start", start)
    monkeypatch.setattr(latency, "compile_like_an_install", lambda: None)
    monkeypatch.setattr(latency.shutil, "which", lambda name: "/usr/bin/tmux")
    got = latency.startups(runs=3)
    assert order == ["echo ready", "pile a", "pile a", "echo ready", "echo ready", "pile a"]
    assert (got["startup_ms"], got["baseline_startup_ms"]) == (250.0, 200.0)
    assert got["startup_ratio"] == 1.25
    assert got["startup_ms_runs"]["spit-tui"] == [250.0, 300.0, 240.0]
