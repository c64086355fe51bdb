"""benchmarks/fast_demo.py (the game benchmark's app): it starts with the
app's own stylesheets, plays on its virtual clock and writes its figures. A
full run's game figures once failed unseen: its stylesheet path was a string
where the app had come to take a list, and every start failed."""

from __future__ import annotations

import json
from pathlib import Path

import fast_demo
import pytest
from fast_demo import FastDemo


async def test_the_fast_demo_starts_with_the_apps_look_plays_and_reports(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(fast_demo, "STEP_CAP", 30)  # 30 steps of the game, not all of it
    stats = tmp_path / "stats.json"
    app = FastDemo(seed=1, level="hard", stats=str(stats))
    async with app.run_test(size=(100, 30)) as pilot:
        for _ in range(200):  # bounded: ten seconds at most
            if app.done.is_set():
                break
            await pilot.pause(0.05)
        assert app.done.is_set()
        assert app.screen is app.screen_t  # the timed game screen, styled (no CSS error)
    out = json.loads(stats.read_text())
    assert out["steps"] == 30 and out["over"] is False
    assert len(app.table.game.log) > 0  # the bots played
