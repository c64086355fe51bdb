"""The computer ladder (issue 15): every rung against the one below, where the
two scripted human models land, `--level auto` against both, the strategy
against a random chooser with the same hands, and simulation speed.

    python benchmarks/bots.py [--games 200] [--quick] [--json] [--seed N]

Each pairing is played with the stronger side on the left in half the games
and on the right in the other half, so a side advantage cannot hide in the
numbers. Games that reach the round cap are reported, never scored. The full
run (200 games a pairing) takes a minute or two on one core; --quick plays
a fifth of the games.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import time
from typing import Any

from spit_tui.engine import Options, Player
from spit_tui.players.ladder import (
    HUMANS,
    LADDER,
    LEVELS,
    PLACEMENT,
    describe,
    start_rung,
    with_random_policy,
)
from spit_tui.players.level import Level
from spit_tui.sim import run_auto, run_games, wilson

BAND = (0.60, 0.80)  # each rung against the one below
AUTO_BAND = (0.40, 0.60)  # a human model against --level auto
AUTO_GAMES = 50


def head_to_head(strong: Level, weak: Level, games: int, seed: int) -> dict[str, Any]:
    """Play `games` games, swapping sides every other game; the stronger's record."""
    options = Options()
    half = games // 2
    as_left = run_games(strong, weak, games=games - half, seed=seed, options=options)
    as_right = run_games(weak, strong, games=half, seed=seed + 1, options=options)
    wins = sum(1 for r in as_left if r.winner is Player.LEFT)
    wins += sum(1 for r in as_right if r.winner is Player.RIGHT)
    results = as_left + as_right
    scored = sum(1 for r in results if not r.capped)
    lo, hi = wilson(wins, scored)
    return {
        "games": games,
        "scored": scored,
        "wins": wins,
        "rate": round(wins / scored, 4) if scored else None,
        "ci95": [round(lo, 4), round(hi, 4)],
        "mean_rounds": round(sum(r.rounds for r in results) / len(results), 2),
        "mean_seconds": round(sum(r.seconds for r in results) / len(results), 1),
    }


def ladder(games: int, seed: int) -> list[dict[str, Any]]:
    out = []
    for lower, upper in itertools.pairwise(LADDER):
        got = head_to_head(upper, lower, games, seed + upper.rung)
        got["rung"] = upper.rung
        got["name"] = upper.name
        got["like"] = describe(upper)
        got["policy"] = upper.policy
        got["pass"] = got["rate"] is not None and BAND[0] <= got["rate"] <= BAND[1]
        out.append(got)
    return out


def crossing(rates: dict[int, float]) -> float | None:
    """Where a record against successive rungs crosses 50%, interpolated between
    the last rung it beats and the first that beats it (None: it never crosses)."""
    rungs = sorted(rates)
    for a, b in itertools.pairwise(rungs):
        if rates[a] >= 0.5 > rates[b]:
            return a + (rates[a] - 0.5) / (rates[a] - rates[b]) * (b - a)
    return None


def placement(model: str, games: int, seed: int) -> dict[str, Any]:
    """The model against the rungs around its stated placement. It lands where
    its record crosses 50%; the stated rung holds when the model's record
    against it is about even (35-65%)."""
    human = HUMANS[model]
    stated = PLACEMENT[model]
    rows = {}
    for rung in range(max(1, stated - 2), min(len(LADDER), stated + 2) + 1):
        rows[rung] = head_to_head(human, LADDER[rung - 1], games, seed + 100 * rung)
    at = crossing({r: rows[r]["rate"] or 0.0 for r in rows})
    even = rows[stated]["rate"]
    return {
        "model": human.name,
        "like": describe(human),
        "stated": stated,
        "lands": None if at is None else round(at, 2),
        "record_vs_stated": even,
        "pass": even is not None and 0.35 <= even <= 0.65,
        "human_vs_rung": {str(r): rows[r] for r in rows},
    }


def auto(model: str, games: int, seed: int, start: int) -> dict[str, Any]:
    """The model (left) against --level auto (right) for `games` games in a row."""
    human = HUMANS[model]
    options = Options()
    results, rungs = run_auto(human, games=games, seed=seed, options=options, start=start)
    wins = sum(1 for r in results if r.winner is Player.LEFT)
    scored = sum(1 for r in results if not r.capped)
    lo, hi = wilson(wins, scored)
    rate = wins / scored if scored else None
    steps = [abs(b - a) for a, b in itertools.pairwise(rungs)]
    return {
        "model": human.name,
        "games": games,
        "start": start,
        "human_wins": wins,
        "human_rate": round(rate, 4) if rate is not None else None,
        "ci95": [round(lo, 4), round(hi, 4)],
        "rungs_min_max": [min(rungs), max(rungs)],
        "final_rung": rungs[-1],
        "largest_step": max(steps, default=0),
        "pass": rate is not None and AUTO_BAND[0] <= rate <= AUTO_BAND[1] and max(steps) <= 1,
    }


def stored_like(model: str, seed: int, n: int = 300) -> list[float]:
    """Card times as the history would have stored them for the model: its draws."""
    rng = random.Random(seed)
    return [HUMANS[model].play.draw(rng) for _ in range(n)]


def speed(games: int, seed: int) -> dict[str, Any]:
    fast, faster = LADDER[-2], LADDER[-1]
    started = time.perf_counter()
    results = run_games(faster, fast, games=games, seed=seed, options=Options())
    wall = time.perf_counter() - started
    return {
        "pairing": f"{faster.name} vs {fast.name}",
        "games": games,
        "wall_seconds": round(wall, 2),
        "ms_per_game": round(1000 * wall / games, 1),
        "simulated_seconds": round(sum(r.seconds for r in results), 1),
        "capped": sum(r.capped for r in results),
    }


def run(games: int = 200, seed: int = 1) -> dict[str, Any]:
    started = time.perf_counter()
    out: dict[str, Any] = {"seed": seed, "games_per_pairing": games}
    out["ladder"] = ladder(games, seed)
    out["humans"] = {m: placement(m, games, seed) for m in HUMANS}
    auto_games = max(10, games // 4) if games < 200 else AUTO_GAMES
    out["auto"] = {}
    for m in HUMANS:
        out["auto"][f"{m}, no stored figures"] = auto(m, auto_games, seed, start_rung(None))
        figures = stored_like(m, seed)
        out["auto"][f"{m}, its own figures"] = auto(m, auto_games, seed + 7, start_rung(figures))
    hard = LEVELS["hard"]
    strat = head_to_head(hard, with_random_policy(hard), 2 * games, seed)
    strat["pass"] = strat["rate"] is not None and strat["rate"] >= 0.65
    out["strategy"] = strat
    out["speed"] = speed(games, seed)
    out["speed"]["pass"] = out["speed"]["wall_seconds"] * 200 / games < 20.0
    out["wall_seconds"] = round(time.perf_counter() - started, 1)
    return out


def _pct(x: float | None) -> str:
    return "  -  " if x is None else f"{100 * x:5.1f}%"


def render(res: dict[str, Any]) -> None:
    n = res["games_per_pairing"]
    print(f"The ladder: each rung against the one below, {n} games, sides alternated")
    print(f"{'rung':>4}  {'name':9} {'beats below':>11}  {'95% CI':13} {'':4}  like")
    first = LADDER[0]
    print(f"{1:>4}  {first.name:9} {'':>11}  {'':13} {'':4}  {describe(first)}, {first.policy}")
    for r in res["ladder"]:
        lo, hi = r["ci95"]
        mark = "ok" if r["pass"] else "OUT"
        print(
            f"{r['rung']:>4}  {r['name']:9} {_pct(r['rate']):>11}  "
            f"{100 * lo:4.1f}-{100 * hi:4.1f}%{'':3} {mark:4}  {r['like']}, {r['policy']}"
        )
    print("\nWhere the scripted human models land (the human's record against each rung)")
    for h in res["humans"].values():
        cells = "  ".join(
            f"{k}: {_pct(v['rate']).strip()} ({100 * v['ci95'][0]:.0f}-{100 * v['ci95'][1]:.0f})"
            for k, v in h["human_vs_rung"].items()
        )
        mark = "ok" if h["pass"] else "MOVED"
        print(
            f"  {h['model']:17} lands at rung {h['lands']} ({mark}: "
            f"{_pct(h['record_vs_stated']).strip()} against the stated rung {h['stated']})"
        )
        print(f"    {h['like']}; {cells}")
    print("\n--level auto against the human models (the human's record)")
    for name, a in res["auto"].items():
        lo, hi = a["ci95"]
        mark = "ok" if a["pass"] else "OUT"
        print(
            f"  {mark:3} {name:30} {a['human_wins']:3d}/{a['games']:<3d} {_pct(a['human_rate'])} "
            f"(95% CI {100 * lo:.0f}-{100 * hi:.0f}%), start {a['start']}, rungs "
            f"{a['rungs_min_max'][0]}-{a['rungs_min_max'][1]}, largest step {a['largest_step']}"
        )
    s = res["strategy"]
    lo, hi = s["ci95"]
    print(
        f"\nhard's strategy against a random chooser with the same hands: {_pct(s['rate'])} "
        f"(95% CI {100 * lo:.1f}-{100 * hi:.1f}%, need 65%) {'ok' if s['pass'] else 'FAIL'}"
    )
    sp = res["speed"]
    print(
        f"{sp['games']} games of {sp['pairing']} in {sp['wall_seconds']} s "
        f"({sp['ms_per_game']} ms a game; need < 20 s for 200) {'ok' if sp['pass'] else 'FAIL'}"
    )
    print(f"whole benchmark: {res['wall_seconds']} s")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--games", type=int, default=200, help="games a pairing (default 200)")
    ap.add_argument("--quick", action="store_true", help="a fifth of the games")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    games = max(10, args.games // 5) if args.quick else args.games
    res = run(games, args.seed)
    if args.json:
        print(json.dumps(res, indent=2))
    else:
        render(res)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
