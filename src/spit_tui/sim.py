"""`spit-tui sim`: headless bot-against-bot matches in simulated time.

    spit-tui sim --games 200 --left hard --right easy [--variant points] [--seed N] [--json]

Every game is a real table on a virtual clock (spit_tui.match), so the
results say how the levels fare against each other at the speeds they would
play in the app. Game i's seed is drawn from `--seed`, so a run is
reproducible; games that reach the round cap are reported, never scored.
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import random
import sys
import time
from collections.abc import Callable, Iterable
from typing import Any, NoReturn

from spit_tui.engine import Options, Player, Variant
from spit_tui.match import ROUND_CAP, MatchResult, play_match
from spit_tui.players.bot import LEVEL_NAMES

CHOICES = (*LEVEL_NAMES, "random")


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for a win rate: honest even near 0% and 100%."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def game_seeds(seed: int, games: int) -> list[int]:
    master = random.Random(seed)
    return [master.getrandbits(63) for _ in range(games)]


def run_games(
    left: str,
    right: str,
    *,
    games: int,
    seed: int,
    options: Options,
    round_cap: int = ROUND_CAP,
    progress: Callable[[MatchResult], None] | None = None,
) -> list[MatchResult]:
    out = []
    for s in game_seeds(seed, games):
        r = play_match(left, right, seed=s, options=options, round_cap=round_cap)
        out.append(r)
        if progress is not None:
            progress(r)
    return out


def summarize(
    results: Iterable[MatchResult], *, left: str, right: str, seed: int, variant: Variant
) -> dict[str, Any]:
    """The figures the table and --json show; identical for identical seeds."""
    rs = list(results)
    scored = [r for r in rs if not r.capped]
    n = len(scored)
    wins = [sum(1 for r in scored if r.winner == p) for p in (Player.LEFT, Player.RIGHT)]
    seconds = sum(r.seconds for r in scored)
    plays = sum(sum(r.plays) for r in scored)
    out: dict[str, Any] = {
        "games": len(rs),
        "scored": n,
        "capped": len(rs) - n,
        "seed": seed,
        "variant": str(variant),
    }
    for side, level, w in (("left", left, wins[0]), ("right", right, wins[1])):
        lo, hi = wilson(w, n)
        out[side] = {
            "level": level,
            "wins": w,
            "rate": round(w / n, 4) if n else None,
            "ci95": [round(lo, 4), round(hi, 4)],
        }
    out["mean_rounds"] = round(sum(r.rounds for r in scored) / n, 3) if n else None
    out["mean_seconds"] = round(seconds / n, 2) if n else None
    out["cards_per_minute"] = round(plays / (seconds / 60), 2) if seconds else None
    out["lost_races_per_game"] = round(sum(sum(r.lost_races) for r in scored) / n, 2) if n else None
    return out


class _UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise _UsageError(message)


def _fail(message: str) -> int:
    print(f"spit-tui sim: {message} (try spit-tui sim --help)", file=sys.stderr)
    return 2


def _parser() -> argparse.ArgumentParser:
    ap = _Parser(
        prog="spit-tui sim",
        description="Play headless bot matches in simulated time and report the results.",
    )
    ap.add_argument("--games", type=int, default=200, help="games to play (default 200)")
    ap.add_argument("--left", choices=CHOICES, default="hard", help="left bot's level")
    ap.add_argument("--right", choices=CHOICES, default="normal", help="right bot's level")
    ap.add_argument(
        "--variant", choices=[str(v) for v in Variant], default="standard", help="rules variant"
    )
    ap.add_argument("--seed", type=int, default=1, help="seed for the whole run (default 1)")
    ap.add_argument("--round-cap", type=int, default=ROUND_CAP, help=argparse.SUPPRESS)
    ap.add_argument("--json", action="store_true", help="print the results as JSON only")
    return ap


def _render(summary: dict[str, Any], wall: float) -> None:
    from rich.console import Console
    from rich.table import Table as RichTable

    def pct(x: float | None) -> str:
        return "-" if x is None else f"{100 * x:.1f}%"

    t = RichTable(title=f"{summary['games']} {summary['variant']} games, seed {summary['seed']}")
    t.add_column("side")
    t.add_column("level")
    t.add_column("wins", justify="right")
    t.add_column("win rate", justify="right")
    t.add_column("95% CI", justify="right")
    for side in ("left", "right"):
        s = summary[side]
        lo, hi = s["ci95"]
        t.add_row(side, s["level"], str(s["wins"]), pct(s["rate"]), f"{pct(lo)} - {pct(hi)}")
    c = Console()
    c.print(t)
    c.print(f"mean rounds per game      {summary['mean_rounds']}")
    c.print(f"mean game length          {summary['mean_seconds']} simulated s")
    c.print(f"cards played per minute   {summary['cards_per_minute']} (simulated)")
    c.print(f"lost races per game       {summary['lost_races_per_game']}")
    if summary["capped"]:
        c.print(f"[yellow]{summary['capped']} game(s) reached the round cap (not scored)[/]")
    c.print(f"[dim]{wall:.1f} s of real time[/]")


def main(argv: list[str] | None = None) -> int:
    ap = _parser()
    try:
        args = ap.parse_args(argv)
    except _UsageError as e:
        return _fail(str(e).replace("argument ", ""))
    except SystemExit as e:  # --help
        return int(e.code or 0)
    if args.games < 1:
        return _fail("--games must be at least 1")
    options = Options(variant=Variant(args.variant))
    started = time.perf_counter()
    play = functools.partial(
        run_games,
        args.left,
        args.right,
        games=args.games,
        seed=args.seed,
        options=options,
        round_cap=args.round_cap,
    )
    if args.json:
        results = play()
    else:
        from rich.console import Console
        from rich.progress import Progress

        with Progress(console=Console(stderr=True), transient=True) as bar:
            task = bar.add_task(f"{args.left} vs {args.right}", total=args.games)
            results = play(progress=lambda _r: bar.advance(task))
    summary = summarize(
        results, left=args.left, right=args.right, seed=args.seed, variant=options.variant
    )
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        _render(summary, time.perf_counter() - started)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
