"""A history that cannot be used: one clear line, history off for the session,
the game unharmed, and the file never damaged or replaced. Each fault is real
SQLite meeting a real file (random bytes, a truncated file, a lock held by
another connection, an immutable or read-only file, a page limit for a full
disk, a newer schema)."""

from __future__ import annotations

import contextlib
import os
import random
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from testkit.store import rows, stored_match

from spit_tui.store import db
from spit_tui.store.history import HistoryWriter


def _bytes(path: Path) -> bytes:
    return path.read_bytes()


def _off(path: Path, **kw: float) -> str:
    """Open a writer on `path` as the app does; it must turn itself off."""
    said: list[str] = []
    writer = HistoryWriter(path, threaded=False, on_problem=said.append, **kw)
    assert not writer.on and said and writer.problem == said[0]
    writer.close()
    assert "\n" not in said[0]
    return said[0]


def _good_history(path: Path) -> None:
    stored_match(path, 4)
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()


def test_random_bytes_are_refused_and_left_as_they_were(tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite3"
    data = random.Random(1).randbytes(50_000)
    path.write_bytes(data)
    assert "damaged or not a spit-tui history" in _off(path)
    assert _bytes(path) == data


def test_a_truncated_history_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite3"
    _good_history(path)
    data = _bytes(path)
    path.write_bytes(data[: len(data) // 2])
    assert "damaged" in _off(path)
    assert _bytes(path) == data[: len(data) // 2]


def test_a_file_of_other_data_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE notes (x)")
    conn.commit()
    conn.close()
    data = _bytes(path)
    assert "other data" in _off(path)
    assert _bytes(path) == data


def test_a_newer_schema_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite3"
    _good_history(path)
    conn = sqlite3.connect(path)
    conn.execute("INSERT INTO schema_version VALUES (99)")
    conn.commit()
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    data = _bytes(path)
    assert "newer spit-tui" in _off(path)
    assert _bytes(path) == data
    with pytest.raises(db.HistoryError, match="newer"):
        db.connect_read(path)


def test_a_history_locked_by_another_program_is_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite3"
    _good_history(path)
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        assert "in use by another program" in _off(path, busy_s=0.2)
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert rows(path, "PRAGMA integrity_check") == [("ok",)]
    assert rows(path, "SELECT count(*) FROM games") == [(1,)]


def test_a_lock_held_mid_session_turns_history_off_and_keeps_the_file(tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite3"
    said: list[str] = []
    from spit_tui.match import Match

    match = Match("expert", "expert", seed=6)
    writer = HistoryWriter(path, threaded=False, on_problem=said.append, busy_s=0.1)
    writer.attach(match.table)
    other = sqlite3.connect(path, isolation_level=None)
    first_round = match.game.position.round
    for bot in match.bots:
        bot.attach()
    while match.game.position.round == first_round:
        assert match.clock.step()
    assert writer.on and writer.writes >= 1
    other.execute("BEGIN IMMEDIATE")  # another program holds the write lock now
    while not match.game.over:
        assert match.clock.step()
    other.execute("ROLLBACK")
    other.close()
    writer.close()
    assert match.game.over  # the game played on to its end
    assert len(said) == 1 and "in use" in said[0]
    assert rows(path, "PRAGMA integrity_check") == [("ok",)]
    assert rows(path, "SELECT finished FROM games") == [(0,)]  # the rounds before the lock


@contextlib.contextmanager
def _read_only(path: Path) -> Iterator[None]:
    """The file cannot be written: immutable for root (who ignores modes), else 0444."""
    if os.geteuid() == 0:
        done = subprocess.run(["chattr", "+i", str(path)], capture_output=True, check=False)
        if done.returncode != 0:
            pytest.skip("cannot make a file immutable here")
        try:
            yield
        finally:
            subprocess.run(["chattr", "-i", str(path)], check=True)
    else:
        path.chmod(0o444)
        path.parent.chmod(0o555)
        try:
            yield
        finally:
            path.parent.chmod(0o755)
            path.chmod(0o644)


def test_a_read_only_history_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite3"
    _good_history(path)
    data = _bytes(path)
    with _read_only(path):
        reason = _off(path)
    assert "read-only" in reason or "cannot be" in reason
    assert _bytes(path) == data


def test_a_full_disk_turns_history_off_and_keeps_every_round_stored_so_far(
    tmp_path: Path,
) -> None:
    path = tmp_path / "h.sqlite3"
    said: list[str] = []
    from spit_tui.match import Match

    # a long game (13 rounds): its record outgrows the first pages
    match = Match("easy", "easy", seed=2)
    writer = HistoryWriter(path, threaded=False, on_problem=said.append)
    writer.attach(match.table)
    for bot in match.bots:
        bot.attach()
    while writer.writes < 2:
        assert match.clock.step()
    conn = writer._conn
    assert conn is not None
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.execute(f"PRAGMA max_page_count = {pages}")  # the disk is full now
    while not match.game.over:
        assert match.clock.step()
    writer.close()
    assert match.game.over
    assert len(said) == 1 and "disk is full" in said[0]
    assert rows(path, "PRAGMA integrity_check") == [("ok",)]
    stored = rows(path, "SELECT rounds, finished FROM games")
    assert stored and stored[0][1] == 0  # what fitted is there, consistent


def test_a_folder_that_cannot_be_made_is_one_line(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert "cannot make the folder" in _off(blocker / "sub" / "h.sqlite3")


def test_instances_opening_a_new_file_at_once_all_get_it(tmp_path: Path) -> None:
    """Several opening one new file at the same moment all switch it to WAL:
    SQLite answers one of two racing switches "locked" without waiting (the
    two-instances test met it under load), and the open tries again."""
    import threading

    for attempt in range(100):  # the race is met about once in 20 attempts untried
        path = tmp_path / f"h{attempt}.sqlite3"
        start = threading.Barrier(4)
        problems: list[str] = []

        def open_it(
            path: Path = path, start: threading.Barrier = start, problems: list[str] = problems
        ) -> None:
            start.wait(timeout=10)
            try:
                db.connect(path, busy_s=2.0).close()
            except db.HistoryError as e:
                problems.append(str(e))

        threads = [threading.Thread(target=open_it) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=30)
        assert not problems, f"attempt {attempt}: {problems[0]}"
        assert rows(path, "PRAGMA journal_mode") == [("wal",)]
