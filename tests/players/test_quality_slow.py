"""The quality bar of issue 4, at full size (about a minute): --run-slow.

benchmarks/bots.py prints the same figures with confidence intervals."""

from __future__ import annotations

import time

import pytest

from spit_tui.engine import Options, Player
from spit_tui.sim import run_games


def win_rate(strong: str, weak: str, games: int, seed: int = 1) -> float:
    half = games // 2
    a = run_games(strong, weak, games=games - half, seed=seed, options=Options())
    b = run_games(weak, strong, games=half, seed=seed + 1, options=Options())
    wins = sum(r.winner is Player.LEFT for r in a) + sum(r.winner is Player.RIGHT for r in b)
    scored = sum(not r.capped for r in a + b)
    return wins / scored


@pytest.mark.slow
@pytest.mark.parametrize(
    ("strong", "weak", "games", "need"),
    [
        ("hard", "easy", 200, 0.80),
        ("expert", "hard", 200, 0.60),
        ("normal", "easy", 200, 0.60),
        ("hard", "normal", 200, 0.60),
        ("hard", "random", 400, 0.65),
    ],
)
def test_level_beats_the_one_below(strong: str, weak: str, games: int, need: float) -> None:
    assert win_rate(strong, weak, games) >= need


@pytest.mark.slow
def test_two_hundred_hard_games_simulate_quickly() -> None:
    started = time.perf_counter()
    results = run_games("hard", "hard", games=200, seed=1, options=Options())
    assert time.perf_counter() - started < 20.0
    assert not any(r.capped for r in results)
