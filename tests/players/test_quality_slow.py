"""The ladder's bar at full size (a few minutes on one core): --run-slow.

Each rung beats the one below in 60-80% of 200 games with sides alternated;
the human models land where the ladder says; --level auto keeps both models
at 40-60% over 50 games; the
models' stored card times are where auto places them from; the strategy beats a random
chooser with the same hands; the two fastest levels simulate 200 games in
under 20 s. benchmarks/bots.py prints the same figures with intervals."""

from __future__ import annotations

import itertools
import time

import pytest

from spit_tui.engine import Options, Player
from spit_tui.players.ladder import (
    HUMANS,
    LADDER,
    LEVELS,
    PLACEMENT,
    STORED_S,
    TOP,
    start_rung,
    with_random_policy,
)
from spit_tui.players.level import Level
from spit_tui.sim import run_auto, run_games


def win_rate(strong: Level, weak: Level, games: int, seed: int = 1) -> float:
    half = games // 2
    a = run_games(strong, weak, games=games - half, seed=seed, options=Options())
    b = run_games(weak, strong, games=half, seed=seed + 1, options=Options())
    wins = sum(r.winner is Player.LEFT for r in a) + sum(r.winner is Player.RIGHT for r in b)
    scored = sum(not r.capped for r in a + b)
    return wins / scored


@pytest.mark.slow
@pytest.mark.parametrize("rung", range(2, len(LADDER) + 1))
def test_each_rung_beats_the_one_below_in_60_to_80_percent(rung: int) -> None:
    rate = win_rate(LADDER[rung - 1], LADDER[rung - 2], 200, seed=1 + rung)
    assert 0.60 <= rate <= 0.80, f"rung {rung} beats rung {rung - 1} in {rate:.1%}"


@pytest.mark.slow
@pytest.mark.parametrize("model", list(HUMANS))
def test_human_models_land_where_the_ladder_says(model: str) -> None:
    rung = PLACEMENT[model]
    assert 0.35 <= win_rate(HUMANS[model], LADDER[rung - 1], 200, seed=100 * rung + 1) <= 0.65


@pytest.mark.slow
@pytest.mark.parametrize("figures", [False, True], ids=["no-figures", "own-figures"])
@pytest.mark.parametrize("model", list(HUMANS))
def test_auto_keeps_both_models_close(model: str, figures: bool) -> None:
    times = [STORED_S[model]] * 50 if figures else None
    results, rungs = run_auto(
        HUMANS[model], games=50, seed=9, options=Options(), start=start_rung(times)
    )
    rate = sum(r.winner is Player.LEFT for r in results) / len(results)
    assert 0.40 <= rate <= 0.60, f"{model} wins {rate:.0%} against auto"
    assert all(abs(b - a) <= TOP // 2 for a, b in itertools.pairwise(rungs))


@pytest.mark.slow
@pytest.mark.parametrize("model", list(HUMANS))
def test_the_models_stored_card_times_are_what_auto_places_them_by(model: str) -> None:
    from spit_tui.match import Match
    from spit_tui.store.figures import figures
    from spit_tui.store.records import record_of

    times: list[float] = []
    for seed in range(20):
        m = Match(HUMANS[model], LADDER[PLACEMENT[model] - 1], seed=seed)
        m.run()
        times += figures(record_of(m.table)).players[0].reactions
    median = sorted(times)[len(times) // 2]
    assert abs(median / STORED_S[model] - 1) < 0.08
    assert start_rung(times) == PLACEMENT[model]


@pytest.mark.slow
def test_strategy_beats_a_random_chooser_with_the_same_hands() -> None:
    hard = LEVELS["hard"]
    assert win_rate(hard, with_random_policy(hard), 400) >= 0.65


@pytest.mark.slow
def test_two_hundred_games_of_the_two_fastest_levels_simulate_quickly() -> None:
    started = time.perf_counter()
    results = run_games(LADDER[-1], LADDER[-2], games=200, seed=1, options=Options())
    assert time.perf_counter() - started < 20.0
    assert not any(r.capped for r in results)
