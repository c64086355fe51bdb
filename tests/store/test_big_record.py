"""Records too big to be a game's (issue 22, item 13): capped on write and on
read. A 20 MB record in the history took 25 s and about 500 MB before the
first line of `--resume`, and every game start parsed up to 20 such rows."""

from __future__ import annotations

import sqlite3
import tracemalloc
from pathlib import Path

import pytest
from test_resume_store import stop_a_game
from testkit.store import rows, stored_match

from spit_tui import cli
from spit_tui.store import history as history_module
from spit_tui.store.history import HistoryWriter
from spit_tui.store.records import MAX_RECORD_BYTES
from spit_tui.store.resume import find_stopped

BIG = 20_000_000


def _bloat(path: Path, game_id: int) -> None:
    """The game's record, its actions repeated until it is 20 MB."""
    conn = sqlite3.connect(path)
    (text,) = conn.execute("SELECT record FROM games WHERE id = ?", (game_id,)).fetchone()
    lines = text.splitlines()
    head = "\n".join(line for line in lines if line.startswith("["))
    actions = "\n".join(line for line in lines if not line.startswith("[")) + "\n"
    big = head + "\n" + actions * (BIG // len(actions) + 1)
    conn.execute("UPDATE games SET record = ? WHERE id = ?", (big, game_id))
    conn.commit()
    conn.close()


@pytest.fixture
def bloated(tmp_path: Path) -> Path:
    path = tmp_path / "h.sqlite3"
    stored_match(path, 1, names=("ANN", "BO"))
    stop_a_game(path, seed=5, after=20.0, names=("ANN", "BO"))
    _bloat(path, 2)
    return path


def test_resume_passes_over_a_20_mb_record_without_reading_it(bloated: Path) -> None:
    tracemalloc.start()
    try:
        stopped = find_stopped(bloated)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert stopped is None  # the one stopped game is the bloated one: not offered
    assert peak < 5_000_000, f"{peak:,} bytes allocated in Python"


@pytest.mark.parametrize("argv", [["export", "2", "-"], ["replay", "2"]])
def test_export_and_replay_refuse_a_20_mb_record_in_one_line(
    bloated: Path, argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main([*argv, "--db", str(bloated)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "internal error" not in err
    assert f"more than the {MAX_RECORD_BYTES:,}" in err and "20,0" in err


def test_the_writer_says_once_that_a_game_outgrew_the_cap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from spit_tui.match import Match

    monkeypatch.setattr(history_module, "MAX_RECORD_BYTES", 2_000)
    told: list[str] = []
    match = Match("expert", "expert", seed=3)
    writer = HistoryWriter(tmp_path / "h.sqlite3", threaded=False, on_problem=told.append)
    writer.attach(match.table)
    match.run()
    writer.close()
    assert len(told) == 1 and "2,000 characters" in told[0] and "\n" not in told[0]
    assert writer.on  # other games are stored as before
    ((finished, size),) = rows(writer.path, "SELECT finished, length(record) FROM games")
    assert finished == 0 and size <= 2_000  # as it stood before it outgrew the cap
