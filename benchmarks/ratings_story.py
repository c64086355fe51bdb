"""Ratings, bests and the daily deal, played out by the bots into a fresh history.

    python benchmarks/ratings_story.py week [--start 2026-12-01] [--player new|practised]
    python benchmarks/ratings_story.py climb

`week`: a human model plays seven daily deals (seeded dates, the deal and the
rung the daily command would give), one day missed and one day played twice,
then `spit-tui daily --history` is printed as on the last day.

`climb`: a player (bots of rising strength playing under one name) meets the
computer a level at a time, as a person who improves would; after each stage
the rating and tier are printed, then `spit-tui stats --player NAME`.

Everything runs on the virtual clock through the real history writer into a
real SQLite file in a temporary folder; nothing reads the wall clock.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
import tempfile
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from spit_tui.engine import Player
from spit_tui.match import Match
from spit_tui.players.ladder import HUMANS, LADDER
from spit_tui.players.level import Level
from spit_tui.store import daily, rated
from spit_tui.store.history import HistoryWriter

NAME = "ANN"


def play(path: Path, me: Level, rung: int, seed: int, day: str | None = None) -> str:
    """One game of NAME (`me`, left) against the computer at `rung`; its game-over lines."""
    deal = None if day is None else daily.seed_for(date.fromisoformat(day))
    level = LADDER[rung - 1]
    match = Match(me, level, seed=seed, deal=deal)
    writer = HistoryWriter(path, threaded=False)
    writer.names = (NAME, f"computer ({level.name})")
    writer.rungs = {Player.RIGHT: rung}
    writer.daily = day
    writer.attach(match.table)
    match.run()
    writer.close()
    return writer.figures_for(match.table).replace("\n", " | ")


def week(start: date, model: str) -> None:
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "history.sqlite3"
        rung = LADDER[[lv.name for lv in LADDER].index(daily.LEVEL)].rung
        days = [start + timedelta(days=i) for i in range(7)]
        for i, day in enumerate(days):
            if i == 3:
                print(f"{day}: not played")
                continue
            for attempt in range(2 if i == 5 else 1):
                lines = play(path, HUMANS[model], rung, 100 + 10 * i + attempt, day.isoformat())
                print(f"{day} attempt {attempt + 1}: {lines}")
        from spit_tui import dailycmd

        last = datetime.combine(days[-1], datetime.min.time(), UTC) + timedelta(hours=20)
        print(f"\n$ spit-tui daily --history   (on {last:%Y-%m-%d %H:%M} UTC)")
        sys.stdout.flush()
        dailycmd.main(["--history", "--player", NAME, "--db", str(path)], now=lambda: last)


# (the player's own strength as a ladder rung, the computer's rung, games)
STAGES = ((2, 3, 10), (4, 4, 10), (6, 6, 10), (8, 8, 10), (10, 10, 10), (11, 11, 10))


def climb() -> None:
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "history.sqlite3"
        seed = 0
        for mine, rung, games in STAGES:
            me = LADDER[mine - 1].replace(name=NAME, rung=0)
            for _ in range(games):
                seed += 1
                play(path, me, rung, seed)
            conn = sqlite3.connect(path)
            (ratings,) = rated.history_by_key(conn, NAME).values()
            conn.close()
            r = ratings[-1]
            print(
                f"after {games} games as strong as level {mine} against level {rung}: "
                f"rating {r.text()} ({r.tier})"
            )
        conn = sqlite3.connect(path)
        assert rated.mismatches(conn) == []  # the figures come back from the games alone
        conn.close()
        from spit_tui import cli

        os.environ.setdefault("COLUMNS", "160")
        print("\n$ spit-tui stats --player ANN")
        sys.stdout.flush()
        cli.main(["stats", "--player", NAME, "--db", str(path)])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("what", choices=["week", "climb"])
    ap.add_argument("--start", type=date.fromisoformat, default=date(2026, 12, 1))
    ap.add_argument("--player", choices=sorted(HUMANS), default="practised")
    args = ap.parse_args(argv)
    if args.what == "week":
        week(args.start, args.player)
    else:
        climb()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
