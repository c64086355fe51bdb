"""`spit-tui sim`: headless bot-against-bot matches in simulated time.

    spit-tui sim --games 200 --left hard --right easy [--variant points] [--seed N] [--json]
    spit-tui sim --left-like NAME --right auto

Levels are the ladder's names or rungs (players/ladder.py). `--right auto` is
`--level auto`, moving along the ladder between rounds (and keeping its place
from game to game, as at one table); `--left-like NAME` is a bot with a
stored player's own card times (the history).

Every game is a real table on a virtual clock (spit_tui.match), so the
results say how the levels fare against each other at the speeds they would
play in the app. Game i's seed is drawn from `--seed`, so a run is
reproducible; games that reach the round cap are reported, never scored.

Games are streamed: each seed is drawn when its game starts and each result
is folded into a `Tally` and dropped, so `--games 1000000000` runs in constant
memory. Ctrl+C (or SIGTERM) stops the run between two moves; the games
finished so far are reported (table or JSON), marked partial, and the exit
status is 130 (143 for SIGTERM). Results that cannot be written (`--json >
/dev/full`) give one line and exit status 1.
"""

from __future__ import annotations

import argparse
import io
import itertools
import json
import math
import random
import signal
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from spit_tui.command import (
    OutputError,
    Parser,
    command,
    fail,
    level_argument,
    shown,
    write_out,
)
from spit_tui.engine import Options, Variant
from spit_tui.match import ROUND_CAP, Match, MatchResult, play_match
from spit_tui.players.auto import AUTO, AutoLevel, stored_reaction_times
from spit_tui.players.ladder import LADDER, level_choices, like, start_rung
from spit_tui.players.level import Level


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for a win rate: honest even near 0% and 100%."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def game_seeds(seed: int, games: int | None = None) -> Iterator[int]:
    """Game i's seed, drawn one at a time from the run's seed (None: no end)."""
    master = random.Random(seed)
    count = itertools.count() if games is None else range(games)
    for _ in count:
        yield master.getrandbits(63)


def stream_games(
    left: Level | str,
    right: Level | str,
    *,
    games: int | None,
    seed: int,
    options: Options,
    round_cap: int = ROUND_CAP,
) -> Iterator[MatchResult]:
    """Play the games one after another, yielding each result as it finishes:
    nothing is kept, so a run of any length holds constant memory."""
    if right == AUTO:
        start = start_rung(None)
        yield from stream_auto(left, games=games, seed=seed, options=options, start=start)
        return
    for s in game_seeds(seed, games):
        yield play_match(left, right, seed=s, options=options, round_cap=round_cap)


def stream_auto(
    left: Level | str,
    *,
    games: int | None,
    seed: int,
    options: Options,
    start: int,
    rungs: list[int] | None = None,
) -> Iterator[MatchResult]:
    """`left` against `--level auto` on the right, which keeps its aim from game
    to game as it does at one table in the app. Every rung it took (the start,
    then one per round) goes into `rungs` when one is given."""
    auto: AutoLevel | None = None
    for s in game_seeds(seed, games):
        m = Match(left, LADDER[start - 1], seed=s, options=options)
        if auto is None:
            auto = AutoLevel(m.bots[1], start)
        else:
            auto.move_to(m.bots[1])
        auto.attach()
        r = m.run()
        auto.detach()
        if rungs is not None:
            rungs.extend(auto.rungs if not rungs else auto.rungs[1:])
        del auto.rungs[:-1]  # constant memory: only where it stands
        yield r


def run_auto(
    left: Level | str, *, games: int, seed: int, options: Options, start: int
) -> tuple[list[MatchResult], list[int]]:
    """Every result of a run against --level auto, and every rung it took."""
    rungs: list[int] = []
    results = list(
        stream_auto(left, games=games, seed=seed, options=options, start=start, rungs=rungs)
    )
    return results, rungs


def run_games(
    left: Level | str,
    right: Level | str,
    *,
    games: int,
    seed: int,
    options: Options,
    round_cap: int = ROUND_CAP,
    progress: Callable[[MatchResult], None] | None = None,
) -> list[MatchResult]:
    """Every result of a run, in a list (for callers that want them all)."""
    out = []
    for r in stream_games(
        left, right, games=games, seed=seed, options=options, round_cap=round_cap
    ):
        out.append(r)
        if progress is not None:
            progress(r)
    return out


@dataclass
class Tally:
    """Running totals of a run: what the summary needs, and nothing per game."""

    games: int = 0
    capped: int = 0
    wins: list[int] = field(default_factory=lambda: [0, 0])
    rounds: int = 0
    seconds: float = 0.0
    plays: int = 0
    lost_races: int = 0

    def add(self, r: MatchResult) -> None:
        self.games += 1
        if r.capped:
            self.capped += 1
            return
        if r.winner is not None:
            self.wins[r.winner] += 1
        self.rounds += r.rounds
        self.seconds += r.seconds
        self.plays += sum(r.plays)
        self.lost_races += sum(r.lost_races)

    def summary(
        self, *, left: str, right: str, seed: int, variant: Variant
    ) -> dict[str, Any]:
        """The figures the table and --json show; identical for identical seeds."""
        n = self.games - self.capped
        out: dict[str, Any] = {
            "games": self.games,
            "scored": n,
            "capped": self.capped,
            "seed": seed,
            "variant": str(variant),
        }
        for side, level, w in (("left", left, self.wins[0]), ("right", right, self.wins[1])):
            lo, hi = wilson(w, n)
            out[side] = {
                "level": level,
                "wins": w,
                "rate": round(w / n, 4) if n else None,
                "ci95": [round(lo, 4), round(hi, 4)],
            }
        out["mean_rounds"] = round(self.rounds / n, 3) if n else None
        out["mean_seconds"] = round(self.seconds / n, 2) if n else None
        secs = self.seconds
        out["cards_per_minute"] = round(self.plays / (secs / 60), 2) if secs else None
        out["lost_races_per_game"] = round(self.lost_races / n, 2) if n else None
        return out


def summarize(
    results: Iterable[MatchResult], *, left: str, right: str, seed: int, variant: Variant
) -> dict[str, Any]:
    """The summary of a list of results (see Tally.summary)."""
    tally = Tally()
    for r in results:
        tally.add(r)
    return tally.summary(left=left, right=right, seed=seed, variant=variant)


PROG = "spit-tui sim"
STOP_SIGNALS: dict[int, int] = {signal.SIGINT: 130, signal.SIGTERM: 143}  # 128 + signal


class Stopped(Exception):
    """The run was stopped from outside (Ctrl+C, SIGTERM)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def _whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {shown(text)!r}") from None


def _parser() -> argparse.ArgumentParser:
    ap = Parser(
        prog=PROG,
        description=(
            "Play headless bot matches in simulated time and report the results. "
            "Games are played one at a time (any number, in constant memory); "
            "Ctrl+C stops the run and reports the games finished, marked partial."
        ),
    )
    ap.add_argument("--games", type=_whole, default=200, help="games to play (default 200)")
    levels = f"{level_choices()} or random"
    ap.add_argument(
        "--left", type=level_argument, default="hard", help=f"left bot's level ({levels})"
    )
    ap.add_argument(
        "--left-like",
        metavar="NAME",
        help="the left bot plays with NAME's stored card times (the history) instead",
    )
    ap.add_argument(
        "--right",
        type=level_argument,
        default="normal",
        help=f"right bot's level ({levels}, or auto: it moves along the ladder to keep it close)",
    )
    ap.add_argument("--db", metavar="FILE", help="read --left-like's history from FILE")
    ap.add_argument(
        "--variant", choices=[str(v) for v in Variant], default="standard", help="rules variant"
    )
    ap.add_argument("--seed", type=_whole, default=1, help="seed for the whole run (default 1)")
    ap.add_argument("--round-cap", type=int, default=ROUND_CAP, help=argparse.SUPPRESS)
    ap.add_argument("--json", action="store_true", help="print the results as JSON only")
    return ap


def _render(summary: dict[str, Any], wall: float) -> str:
    from rich.console import Console
    from rich.table import Table as RichTable

    def pct(x: float | None) -> str:
        return "-" if x is None else f"{100 * x:.1f}%"

    title = f"{summary['games']:,} {summary['variant']} games, seed {summary['seed']}"
    if summary["partial"]:
        title = f"PARTIAL: {title} of {summary['requested']:,} ({summary['stopped']})"
    t = RichTable(title=title)
    t.add_column("side")
    t.add_column("level")
    t.add_column("wins", justify="right")
    t.add_column("win rate", justify="right")
    t.add_column("95% CI", justify="right")
    for side in ("left", "right"):
        s = summary[side]
        lo, hi = s["ci95"]
        t.add_row(side, s["level"], str(s["wins"]), pct(s["rate"]), f"{pct(lo)} - {pct(hi)}")
    # Rendered into a string, then written with write_out (which reports a failed
    # write); styled as stdout would be.
    tty = Console()
    c = Console(
        file=io.StringIO(),
        force_terminal=tty.is_terminal,
        color_system=tty.color_system,  # type: ignore[arg-type]
        no_color=tty.no_color,
        width=tty.width,
    )
    with c.capture() as out:
        c.print(t)
        c.print(f"mean rounds per game      {summary['mean_rounds']}")
        c.print(f"mean game length          {summary['mean_seconds']} simulated s")
        c.print(f"cards played per minute   {summary['cards_per_minute']} (simulated)")
        c.print(f"lost races per game       {summary['lost_races_per_game']}")
        if summary["capped"]:
            c.print(f"[yellow]{summary['capped']} game(s) reached the round cap (not scored)[/]")
        if summary["partial"]:
            c.print(f"[yellow]stopped by {summary['stopped']}: only finished games are counted[/]")
        c.print(f"[dim]{wall:.1f} s of real time[/]")
    return out.get()


class _StopRequest:
    """SIGINT/SIGTERM: the first asks the run to stop after the game in play (so
    the tally only ever holds whole games); a second stops it at once."""

    def __init__(self) -> None:
        self.signum: int | None = None

    def __call__(self, signum: int, _frame: object) -> None:
        if self.signum is not None:
            raise Stopped(self.signum)
        self.signum = signum

    def check(self) -> None:
        if self.signum is not None:
            raise Stopped(self.signum)


@contextmanager
def _stop_on_signals() -> Iterator[_StopRequest]:
    request = _StopRequest()
    old = {sig: signal.signal(sig, request) for sig in STOP_SIGNALS}
    try:
        yield request
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)


def play_run(
    args: argparse.Namespace,
    tally: Tally,
    on_game: Callable[[MatchResult], None],
    stop: _StopRequest,
) -> None:
    """Play the run's games into `tally`, one at a time, until done or stopped."""
    for r in stream_games(
        args.left_level,
        args.right,
        games=args.games,
        seed=args.seed,
        options=Options(variant=Variant(args.variant)),
        round_cap=args.round_cap,
    ):
        tally.add(r)
        on_game(r)
        stop.check()


@command(PROG)
def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.games < 1:
        return fail("--games must be at least 1", PROG)
    if args.left == AUTO:
        return fail("auto plays against someone: use it on the right", PROG)
    args.left_level = args.left
    if args.left_like is not None:
        times = stored_reaction_times(args.left_like, args.db)
        if not times:
            return fail(f"--left-like: no stored card times for {shown(args.left_like)!r}", PROG)
        args.left_level = like(times, name=f"like {args.left_like}")
        args.left = args.left_level.name
    started = time.perf_counter()
    tally = Tally()
    stopped: Stopped | None = None
    try:
        with _stop_on_signals() as stop:
            if args.json:
                play_run(args, tally, lambda _r: None, stop)
            else:
                from rich.console import Console
                from rich.progress import Progress

                err = Console(stderr=True)
                with Progress(console=err, transient=True, disable=not err.is_terminal) as bar:
                    task = bar.add_task(f"{args.left} vs {args.right}", total=args.games)
                    play_run(args, tally, lambda _r: bar.advance(task), stop)
    except Stopped as e:
        stopped = e
    summary = tally.summary(
        left=args.left, right=args.right, seed=args.seed, variant=Variant(args.variant)
    )
    summary["requested"] = args.games
    summary["partial"] = stopped is not None
    summary["stopped"] = None if stopped is None else str(stopped)
    try:
        if args.json:
            write_out(json.dumps(summary, indent=2) + "\n")
        else:
            write_out(_render(summary, time.perf_counter() - started))
    except OutputError as e:
        print(f"{PROG}: cannot write the results: {e}", file=sys.stderr)
        return 1
    return 0 if stopped is None else STOP_SIGNALS[stopped.signum]


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
