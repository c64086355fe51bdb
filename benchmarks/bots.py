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
import time
from typing import Any

from spit_tui.engine import Options, Player
from spit_tui.players.ladder import (
    HUMANS,
    LADDER,
    LEVELS,
    PLACEMENT,
    STORED_S,
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
    slaps = sum(r.slaps[0] for r in as_left) + sum(r.slaps[1] for r in as_right)
    all_slaps = sum(sum(r.slaps) for r in results)
    return {
        "games": games,
        "scored": scored,
        "wins": wins,
        "rate": round(wins / scored, 4) if scored else None,
        "ci95": [round(lo, 4), round(hi, 4)],
        "mean_rounds": round(sum(r.rounds for r in results) / len(results), 2),
        "mean_seconds": round(sum(r.seconds for r in results) / len(results), 1),
        "slaps": all_slaps,
        "slap_share": round(slaps / all_slaps, 4) if all_slaps else None,
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


SLAP_BAND = (0.35, 0.65)  # the new player's share of slaps at the rung it is placed at


def slap_shares(games: int, seed: int) -> dict[str, Any]:
    """The share of slaps (the first slap of each two-pile round) a modelled
    new player wins against the rungs from the bottom to one past its placement:
    the computer slaps as fast as the rung it stands on."""
    human = HUMANS["new"]
    stated = PLACEMENT["new"]
    rows = {}
    for rung in range(1, min(len(LADDER), stated + 1) + 1):
        got = head_to_head(human, LADDER[rung - 1], games, seed + 300 * rung)
        react = LADDER[rung - 1].react
        rows[str(rung)] = {
            "slaps": got["slaps"],
            "share": got["slap_share"],
            "games_won": got["rate"],
            "react_mean": round(react.mean, 3),
        }
    share = rows[str(stated)]["share"]
    return {
        "model": human.name,
        "react_mean": round(human.react.mean, 3),
        "stated": stated,
        "share_at_stated": share,
        "pass": share is not None and SLAP_BAND[0] <= share <= SLAP_BAND[1],
        "by_rung": rows,
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
        "pass": rate is not None and AUTO_BAND[0] <= rate <= AUTO_BAND[1],
    }


REACH_ROUNDS = 3


def reach(model: str, band: set[int], games: int, seed: int, start: int) -> dict[str, Any]:
    """How fast --level auto finds the model: over `games` runs from `start`
    (a game that ends sooner goes on into the next), the share whose rung after
    REACH_ROUNDS rounds is one where the model wins 40-60% of games (`band`),
    within one rung of it, and the share that moved onto such a rung in those
    rounds. (Moves of one rung change
    the rung's parity every round, so "in the band after exactly three
    rounds" undercounts a staircase that hovers on either side of it.)"""
    at = near = seen = 0
    for i in range(games):
        _, rungs = run_auto(HUMANS[model], games=3, seed=seed + i, options=Options(), start=start)
        first = rungs[: REACH_ROUNDS + 1]
        last = first[-1]
        at += last in band
        near += min(abs(last - b) for b in band) <= 1
        seen += any(r in band for r in first[1:])
    return {
        "model": HUMANS[model].name,
        "start": start,
        "games": games,
        "band": sorted(band),
        "in_band_after": round(at / games, 3),
        "within_one_after": round(near / games, 3),
        "stood_in_band": round(seen / games, 3),
    }


def pace_noise(model: str, rung: int, games: int, seed: int) -> dict[str, Any]:
    """How well any placer can know the model from its pace: the model plays
    the computer held on `rung` (where it wins 40-60%), and after each of the
    first REACH_ROUNDS settled rounds the pace of its game so far is placed as
    --level auto places it (players/auto.pace_rung). The share placed within
    one rung after three rounds bounds what "within one rung after three
    rounds" can reach, whatever the search does: a round's form moves the
    model's pace by more than two rungs."""
    from spit_tui.match import Match
    from spit_tui.players.auto import pace_rung
    from spit_tui.subscription import Subscription

    errors: list[list[int]] = [[] for _ in range(REACH_ROUNDS)]
    for i in range(games):
        m = Match(HUMANS[model], LADDER[rung - 1], seed=seed + i, options=Options())
        settled: list[int] = []

        def placed(m: Match = m, settled: list[int] = settled) -> None:
            if len(settled) < REACH_ROUNDS:
                settled.append(pace_rung(m.bots[1]))

        def on_event(event: Any, m: Match = m) -> None:
            if event.round_over is not None and event.position.phase.name != "SLAP":
                m.table.clock.call_later(0.0, placed)  # once the round's last play is filed

        m.table.subscribe(Subscription(on_event=on_event))
        m.run()
        for k, aim in enumerate(settled):
            if aim:
                errors[k].append(aim - rung)
    out: dict[str, Any] = {"model": HUMANS[model].name, "rung": rung, "games": games}
    for k, errs in enumerate(errors, start=1):
        n = len(errs) or 1
        out[f"after_{k}"] = {
            "placed": len(errs),
            "on_it": round(sum(e == 0 for e in errs) / n, 3),
            "within_one": round(sum(abs(e) <= 1 for e in errs) / n, 3),
        }
    return out


def stored_like(model: str, seed: int, games: int = 40) -> list[float]:
    """The card times the history would store for the model (store/figures,
    from real records of its games at its rung)."""
    from spit_tui.match import Match
    from spit_tui.store.figures import figures
    from spit_tui.store.records import record_of

    out: list[float] = []
    for i in range(games):
        m = Match(HUMANS[model], LADDER[PLACEMENT[model] - 1], seed=seed + i)
        m.run()
        out += figures(record_of(m.table)).players[0].reactions
    return out


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
    out["slaps"] = slap_shares(games, seed)
    auto_games = max(10, games // 4) if games < 200 else AUTO_GAMES
    out["auto"] = {}
    out["stored"] = {}
    out["reach"] = []
    out["pace_noise"] = []
    for m in HUMANS:
        figures = stored_like(m, seed)
        median = sorted(figures)[len(figures) // 2]
        out["stored"][m] = {"median": round(median, 3), "stated": STORED_S[m],
                            "start": start_rung(figures), "placed": PLACEMENT[m]}
        out["auto"][f"{m}, no stored figures"] = auto(m, auto_games, seed, start_rung(None))
        out["auto"][f"{m}, its own figures"] = auto(m, auto_games, seed + 7, start_rung(figures))
        rates = {int(k): v["rate"] for k, v in out["humans"][m]["human_vs_rung"].items()}
        band = {r for r, x in rates.items() if x is not None and 0.4 <= x <= 0.6}
        band = band or {PLACEMENT[m]}
        for start in sorted({1, start_rung(None), start_rung(figures), len(LADDER)}):
            out["reach"].append(reach(m, band, auto_games, seed + 11 * start, start))
        out["pace_noise"].append(pace_noise(m, min(band), auto_games, seed + 13))
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
    sl = res["slaps"]
    print(
        f"\nSlaps a {sl['model']} (reacts in {sl['react_mean']:.2f} s on average) wins "
        "against each rung (its share of the first slaps)"
    )
    for rung, row in sl["by_rung"].items():
        mark = ("ok" if sl["pass"] else "OUT") if int(rung) == sl["stated"] else ""
        print(
            f"  rung {rung:>2} (reacts in {row['react_mean']:.2f} s): "
            f"{_pct(row['share'])} of {row['slaps']} slaps, "
            f"games won {_pct(row['games_won'])} {mark}"
        )
    print("\n--level auto against the human models (the human's record)")
    for name, a in res["auto"].items():
        lo, hi = a["ci95"]
        mark = "ok" if a["pass"] else "OUT"
        print(
            f"  {mark:3} {name:30} {a['human_wins']:3d}/{a['games']:<3d} {_pct(a['human_rate'])} "
            f"(95% CI {100 * lo:.0f}-{100 * hi:.0f}%), start {a['start']}, rungs "
            f"{a['rungs_min_max'][0]}-{a['rungs_min_max'][1]}, largest step {a['largest_step']}"
        )
    print("\nStored card times (the history's figures) of each model, and where auto starts")
    for m, st in res["stored"].items():
        print(
            f"  {m:9} median {st['median']:.2f} s (stated {st['stated']:.2f}); "
            f"auto starts on {st['start']} (placed at {st['placed']})"
        )
    print(f"\nHow fast --level auto finds each model: rung after {REACH_ROUNDS} rounds")
    for r in res["reach"]:
        print(
            f"  {r['model']:17} from {r['start']:>2}: in the 40-60% band {r['band']} "
            f"{_pct(r['in_band_after'])}, within one rung {_pct(r['within_one_after'])}, "
            f"moved onto it by then {_pct(r['stood_in_band'])} ({r['games']} games)"
        )
    print(
        "What the pace of a game can tell: the model held on its own rung, placed by its"
        " pace so far\n  (the most any search can reach after as many rounds)"
    )
    for p in res["pace_noise"]:
        cells = ", ".join(
            f"after {k}: on it {_pct(p[f'after_{k}']['on_it'])}, "
            f"within one {_pct(p[f'after_{k}']['within_one'])}"
            for k in range(1, REACH_ROUNDS + 1)
        )
        print(f"  {p['model']:17} on {p['rung']:>2}: {cells} ({p['games']} games)")
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
