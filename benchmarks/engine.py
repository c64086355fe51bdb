"""Engine speed: random self-play, applied actions/s and complete games/s.

    python benchmarks/engine.py [--quick] [--json] [--seconds S]

Each game is played by a seeded random agent that, for a random player, picks
uniformly among `legal_actions` (falling back to the other player). Games that
reach the 1,000-round cap are counted and reported, never scored.

Rates are per CPU-second of this process (time.process_time): the engine is
single-threaded, and CPU time keeps the figure steady on a shared 2-core
machine where wall-clock rates swing with whatever else is running.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

from spit_tui.engine import PLAYERS, Game, Options, Variant

ROUND_CAP = 1000


def play_random_game(seed: int, options: Options) -> tuple[int, bool]:
    """Play one game to the end; returns (applied actions, hit the round cap)."""
    game = Game(options=options, seed=seed)
    pick = random.Random(seed ^ 0x5EED)
    rnd = pick.random
    legal = game.legal_actions
    apply = game.apply
    n = 0
    while True:
        p = PLAYERS[rnd() < 0.5]
        acts = legal(p) or legal(p.other)
        event = apply(acts[int(rnd() * len(acts))])
        n += 1
        if event.round_over is not None:  # only a round's end can end the game
            if event.winner is not None:
                return n, False
            if event.position.round > ROUND_CAP:
                return n, True


def measure(variant: Variant, seconds: float, seed: int = 1) -> dict[str, float]:
    options = Options(variant=variant)
    actions = games = capped = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        n, cap = play_random_game(seed + games, options)
        actions += n
        games += 1
        capped += cap
    elapsed = time.process_time() - start
    return {
        "actions_per_s": actions / elapsed,
        "games_per_s": games / elapsed,
        "games": games,
        "capped_games": capped,
    }


def run(quick: bool = False, seconds: float | None = None) -> dict[str, Any]:
    secs = seconds if seconds is not None else (0.5 if quick else 3.0)
    repeats = 1 if quick else 3
    out: dict[str, Any] = {}
    for variant in Variant:
        runs = [measure(variant, secs, seed=1 + 10_000 * i) for i in range(repeats)]
        prefix = "engine" if variant is Variant.STANDARD else "engine_points"
        out[f"{prefix}_actions_per_s"] = statistics.median(r["actions_per_s"] for r in runs)
        out[f"{prefix}_games_per_s"] = statistics.median(r["games_per_s"] for r in runs)
        out[f"{prefix}_capped_games"] = sum(int(r["capped_games"]) for r in runs)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="one short run per variant (CI smoke)")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--seconds", type=float, help="seconds per run")
    args = ap.parse_args()
    res = run(args.quick, args.seconds)
    if args.json:
        print(json.dumps(res))
    else:
        for k, v in res.items():
            print(f"{k:32} {v:12,.1f}")


if __name__ == "__main__":
    main()
