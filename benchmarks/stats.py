"""`spit-tui stats` over a big history: 10,000 stored games, generated.

    python benchmarks/stats.py [--games N] [--json]

A few real bot matches are stored through the real writer (records, rounds,
per-player figures and reaction times), then copied inside SQLite under
rotating names and results until the history holds N games: the file has
the size and shape of a real one, every finished game rated (schema 4's
backfill, the writer's own rating step). Then it times the stats of every player,
one player's, a head-to-head and the whole `spit-tui stats` command
(process start included), each the best of three.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from spit_tui.engine import Player
from spit_tui.match import Match
from spit_tui.store import db, rated
from spit_tui.store.history import HistoryWriter
from spit_tui.store.stats import all_stats

NAMES = ["ANN", "BO", "CY", "DEE", "computer (hard)", "computer (expert)"]
SEED_GAMES = 8


def generate(path: Path, games: int) -> None:
    for seed in range(SEED_GAMES):
        match = Match("expert", "hard", seed=seed)
        writer = HistoryWriter(path, threaded=False)
        writer.names = (NAMES[seed % 4], NAMES[4 + seed % 2])
        writer.rungs = {Player.RIGHT: 12 + 2 * (seed % 2)}
        writer.attach(match.table)
        match.run()
        writer.close()
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("BEGIN")
    cur = conn.execute("SELECT * FROM games ORDER BY id")
    ended = [d[0] for d in cur.description].index("ended")
    base = cur.fetchall()
    players = {
        (r[0], r[1]): r for r in conn.execute("SELECT * FROM game_players").fetchall()
    }
    rounds = conn.execute("SELECT * FROM rounds").fetchall()
    for n in range(games - len(base)):
        g = list(base[n % len(base)])
        left, right = NAMES[n % 6], NAMES[(n + 1 + n // 6) % 6]
        if left == right:
            right = NAMES[(NAMES.index(left) + 1) % 6]
        src = g[0]
        g[0] = g[ended] = None  # numbered and rated below, in the order stored
        g[2], g[3] = left, right
        cur = conn.execute(f"INSERT INTO games VALUES ({', '.join('?' * len(g))})", g)
        new = cur.lastrowid
        for seat, name in (("L", left), ("R", right)):
            p = list(players[(src, seat)])
            p[0], p[2] = new, name
            conn.execute(f"INSERT INTO game_players VALUES ({', '.join('?' * len(p))})", p)
        for r in rounds:
            if r[0] == src:
                conn.execute("INSERT INTO rounds VALUES (?, ?, ?, ?, ?, ?, ?)", (new, *r[1:]))
    conn.execute("UPDATE games SET ended = NULL")
    rated.backfill(conn)  # every finished game rated, as the writer would have
    conn.execute("COMMIT")
    conn.close()


def _best(fn: Any, runs: int = 3) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def run(games: int = 10_000) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "history.sqlite3"
        t = time.perf_counter()
        generate(path, games)
        made = time.perf_counter() - t
        conn = db.connect_read(path)
        n = conn.execute("SELECT count(*) FROM games").fetchone()[0]
        every = _best(lambda: all_stats(conn))
        one = _best(lambda: all_stats(conn, "ANN"))
        h2h = _best(lambda: all_stats(conn, "ANN", "BO"))
        conn.close()
        argv = [sys.executable, "-m", "spit_tui", "stats", "--db", str(path)]
        env = {**os.environ, "COLUMNS": "160"}
        command = _best(
            lambda: subprocess.run(argv, capture_output=True, check=True, env=env), runs=3
        )
        size_mb = path.stat().st_size / 1e6
    return {
        "stats_games": n,
        "stats_all_s": round(every, 3),
        "stats_player_s": round(one, 3),
        "stats_head_to_head_s": round(h2h, 3),
        "stats_command_s": round(command, 3),
        "_details": {"generate_s": round(made, 1), "db_mb": round(size_mb, 1)},
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    res = run(args.games)
    if args.json:
        print(json.dumps(res, indent=2))
    else:
        for k, v in res.items():
            print(f"{k:24} {v}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
