"""Real processes on one history file: two instances writing at once both keep
their games, and a process killed (SIGKILL) at random points in its games
leaves a consistent file with every round it said it stored."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from testkit.store import rows

from spit_tui.engine import format_position, parse_record, replay_record

KIT = Path(__file__).resolve().parents[1] / "testkit" / "store.py"


def _spawn(path: Path, first_seed: int, games: int) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, str(KIT), str(path), str(first_seed), str(games)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _consistent(path: Path) -> None:
    assert rows(path, "PRAGMA integrity_check") == [("ok",)]
    for game_id, n_rounds, text, final in rows(
        path, "SELECT id, rounds, record, final_position FROM games"
    ):
        assert isinstance(text, str)
        assert format_position(replay_record(parse_record(text)).position) == final
        stored = rows(path, "SELECT count(*) FROM rounds WHERE game_id = ?", (game_id,))[0][0]
        assert stored == n_rounds


def test_two_instances_writing_at_once_both_store_their_games(tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite3"
    a, b = _spawn(path, 100, 3), _spawn(path, 200, 3)
    for proc in (a, b):
        _, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
    names = {r[0] for r in rows(path, "SELECT left_name FROM games WHERE finished = 1")}
    assert names == {f"L{s}" for s in (100, 101, 102, 200, 201, 202)}
    _consistent(path)


def test_a_process_killed_mid_game_loses_at_most_the_round_in_play(tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite3"
    rng = random.Random(13)
    for attempt in range(4):
        proc = _spawn(path, 1000 * attempt, 50)
        assert proc.stdout is not None
        first = proc.stdout.readline()  # its first store: past the imports, however slow
        time.sleep(rng.uniform(0.0, 1.4))  # then in the middle of some game
        os.kill(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate(timeout=30)
        told: dict[int, int] = {}
        for line in [first, *out.splitlines()]:
            if line.startswith("stored "):
                _, game_id, n = line.split()
                told[int(game_id)] = int(n)
        assert told, "the process stored nothing before it was killed"
        _consistent(path)
        for game_id, n in told.items():
            stored = rows(path, "SELECT rounds FROM games WHERE id = ?", (game_id,))
            assert stored and int(stored[0][0]) >= n  # every round it said it stored
