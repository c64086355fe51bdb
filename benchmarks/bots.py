"""The computer opponent's quality bar (issue 4): win rates between levels,
strategy against a random chooser with the same hands, and simulation speed.

    python benchmarks/bots.py [--quick] [--json] [--seed N]

Each pairing is played with the stronger side on the left in half the games
and on the right in the other half, so a side advantage cannot hide in the
numbers. Games that reach the round cap are reported, never scored.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from spit_tui.engine import Options, Player
from spit_tui.players.bot import LEVELS, with_random_policy
from spit_tui.sim import run_games, wilson

# (name, stronger, weaker, games, required win rate of the stronger)
BARS: list[tuple[str, str, str, int, float]] = [
    ("hard beats easy", "hard", "easy", 200, 0.80),
    ("expert beats hard", "expert", "hard", 200, 0.60),
    ("normal beats easy", "normal", "easy", 200, 0.60),
    ("hard beats normal", "hard", "normal", 200, 0.60),
    ("hard policy beats random policy, same hands", "hard", "random", 400, 0.65),
]


def head_to_head(strong: str, weak: str, games: int, seed: int) -> dict[str, Any]:
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


def speed(games: int, seed: int) -> dict[str, Any]:
    started = time.perf_counter()
    results = run_games("hard", "hard", games=games, seed=seed, options=Options())
    wall = time.perf_counter() - started
    return {
        "games": games,
        "wall_seconds": round(wall, 2),
        "ms_per_game": round(1000 * wall / games, 1),
        "simulated_seconds": round(sum(r.seconds for r in results), 1),
        "capped": sum(r.capped for r in results),
    }


def run(quick: bool = False, seed: int = 1) -> dict[str, Any]:
    scale = 0.2 if quick else 1.0
    out: dict[str, Any] = {"seed": seed, "quick": quick, "bars": {}}
    for name, strong, weak, games, need in BARS:
        n = max(10, int(games * scale))
        got = head_to_head(strong, weak, n, seed)
        got["required"] = need
        got["pass"] = got["rate"] is not None and got["rate"] >= need
        got["pairing"] = f"{strong} vs {weak}"
        out["bars"][name] = got
    n = max(10, int(200 * scale))
    out["speed"] = speed(n, seed)
    out["speed"]["required_wall_seconds_for_200"] = 20.0
    out["speed"]["pass"] = out["speed"]["wall_seconds"] * 200 / n < 20.0
    out["levels"] = {
        name: {
            "play_s": list(lv.play),
            "react_s": list(lv.react),
            "overlook": lv.overlook,
            "chain": lv.chain,
            "policy": lv.policy,
        }
        for name, lv in LEVELS.items()
    }
    out["random_baseline"] = with_random_policy(LEVELS["hard"]).name
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="a fifth of the games")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    res = run(args.quick, args.seed)
    if args.json:
        print(json.dumps(res, indent=2))
        return 0
    for name, r in res["bars"].items():
        lo, hi = r["ci95"]
        mark = "ok  " if r["pass"] else "FAIL"
        print(
            f"{mark} {name:45s} {r['wins']:4d}/{r['scored']:<4d} {100 * r['rate']:5.1f}% "
            f"(95% CI {100 * lo:.1f}-{100 * hi:.1f}%, need {100 * r['required']:.0f}%)  "
            f"rounds {r['mean_rounds']}, {r['mean_seconds']} sim s"
        )
    s = res["speed"]
    mark = "ok  " if s["pass"] else "FAIL"
    print(
        f"{mark} {s['games']} hard-vs-hard games in {s['wall_seconds']} s "
        f"({s['ms_per_game']} ms/game, {s['simulated_seconds']} simulated s; need < 20 s for 200)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
