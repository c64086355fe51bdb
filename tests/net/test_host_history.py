"""`spit-tui host` keeps its history while it runs (issue 22, item 11): a real
host process, two bot clients playing over 127.0.0.1. A finished game is in
the history before the host stops; SIGTERM and SIGHUP store the game in play
and exit like Ctrl+C (143, 129)."""

from __future__ import annotations

import asyncio
import random
import re
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from testkit.procs import stop

from spit_tui.engine import Phase
from spit_tui.net.client import Client, play_as_bot

HOST = [sys.executable, "-m", "spit_tui", "host", "--port", "0"]
GAME_S = 90.0  # a bound: seed 1's game of one round plays out in about 2 s
# A whole game in one round (the first round's scores reach the target): the
# standard game of seed 1 took 13 s idle and 30 s at load 12, at the real timings.
ONE_ROUND = ("--variant", "points", "--target", "1")
QUICK = (0.0, 0.001)


def _start(db: Path, seed: int, *game: str) -> tuple[subprocess.Popen[str], int, str]:
    proc = subprocess.Popen(
        [*HOST, "--db", str(db), "--seed", str(seed), *game],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    assert proc.stdout is not None
    first = proc.stdout.readline()
    m = re.fullmatch(r"hosting on 127\.0\.0\.1:(\d+); room code (\S+)\n", first)
    assert m, first
    proc.stdout.readline()
    return proc, int(m[1]), m[2]


def _games(db: Path) -> list[tuple[int, int]]:
    """(finished, number of actions recorded) for each stored game."""
    if not db.exists():
        return []
    conn = sqlite3.connect(db)
    try:
        rows = conn.execute("SELECT finished, record FROM games ORDER BY id").fetchall()
    finally:
        conn.close()
    return [(f, len(re.findall(r"\b[LR]\d?[a-z]", rec.split("\n\n", 1)[-1]))) for f, rec in rows]


async def _play(port: int, code: str, seconds: float | None) -> None:
    left = await Client.join("127.0.0.1", port, code, "left")
    right = await Client.join("127.0.0.1", port, code)
    bots = asyncio.gather(
        play_as_bot(left, random.Random(1), think_s=QUICK),
        play_as_bot(right, random.Random(2), think_s=QUICK),
    )
    try:
        if seconds is None:
            async with asyncio.timeout(GAME_S):
                ends = await bots
            assert all(e is not None and e.phase is Phase.OVER for e in ends)
        else:
            await asyncio.sleep(seconds)
    finally:
        bots.cancel()
        await asyncio.gather(bots, return_exceptions=True)
        await left.close()
        await right.close()


def _stop(proc: subprocess.Popen[str], sig: int) -> tuple[int, str]:
    _, err = stop(proc, sig)
    return proc.returncode, err


def test_a_finished_game_is_stored_while_the_host_runs_and_sigterm_keeps_it(
    tmp_path: Path,
) -> None:
    db = tmp_path / "h.sqlite3"
    proc, port, code = _start(db, 1, *ONE_ROUND)
    try:
        asyncio.run(_play(port, code, None))
        deadline = time.monotonic() + 10
        while not any(f for f, _ in _games(db)) and time.monotonic() < deadline:
            time.sleep(0.1)
        stored = _games(db)  # read while the host still runs
    finally:
        status, err = _stop(proc, signal.SIGTERM)
    assert [f for f, _ in stored] == [1], stored
    assert stored[0][1] > 15  # the round's plays (23-27 seen)
    assert status == 143 and err.strip() == "spit-tui host: stopped", (status, err)
    assert [f for f, _ in _games(db)] == [1]


def test_sighup_mid_game_stores_the_game_in_play(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite3"
    proc, port, code = _start(db, seed=1)
    try:
        asyncio.run(_play(port, code, 2.0))
    finally:
        status, err = _stop(proc, signal.SIGHUP)
    assert status == 129 and err.strip() == "spit-tui host: stopped", (status, err)
    games = _games(db)
    assert len(games) == 1 and games[0][0] == 0 and games[0][1] > 5, games
