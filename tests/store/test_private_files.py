"""seats.json shared by joins writing at once, and private modes for every file
holding games or seat tokens (issue 22, item 14)."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from testkit.store import stored_match

from spit_tui import crash, paths
from spit_tui.engine import Options, Record
from spit_tui.net.seat import Tokens
from spit_tui.store import db
from spit_tui.store.records import save_record

WRITERS = 4
KEYS_EACH = 12  # 48 rooms: under the 64 kept, so every one must be there at the end

_WRITER = """
import sys, time
from pathlib import Path
from spit_tui.net.seat import Tokens
path, who, n = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
t = Tokens(path)
while not Path(sys.argv[4]).exists():  # start together
    time.sleep(0.001)
for i in range(n):
    t.put(f"h:1 {who}{i}", "left", f"token-{who}-{i}")
"""


@pytest.fixture
def loose_umask() -> Iterator[None]:
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_joins_writing_seats_json_at_once_lose_nothing_and_never_tear(tmp_path: Path) -> None:
    path = tmp_path / "state" / "seats.json"
    go = tmp_path / "go"
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", _WRITER, str(path), f"w{w}-", str(KEYS_EACH), str(go)]
        )
        for w in range(WRITERS)
    ]
    go.touch()
    torn = reads = 0
    deadline = time.monotonic() + 60
    while any(p.poll() is None for p in procs) and time.monotonic() < deadline:
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            continue
        reads += 1
        try:
            json.loads(text)
        except ValueError:
            torn += 1
    assert all(p.wait(timeout=30) == 0 for p in procs)
    kept = Tokens(path)._read()
    assert torn == 0, f"{torn} torn reads of {reads}"
    assert len(kept) == WRITERS * KEYS_EACH, f"{len(kept)} of {WRITERS * KEYS_EACH} rooms kept"
    assert sorted(os.listdir(path.parent)) == ["seats.json", "seats.lock"]  # no temporaries left


def test_seat_tokens_are_private(user_dirs: Path, loose_umask: None) -> None:
    tokens = Tokens()
    tokens.put("h:1 ABCD", "left", "secret")
    assert _mode(tokens.path) == 0o600
    assert _mode(tokens.path.parent) == 0o700
    assert _mode(tokens.path.with_name("seats.lock")) == 0o600


def test_history_files_are_private_and_loose_ones_tightened(
    user_dirs: Path, loose_umask: None
) -> None:
    path = db.default_path()
    stored_match(path, seed=1)
    assert _mode(path.parent) == 0o700
    for p in path.parent.iterdir():  # the database, its WAL and shared memory if kept
        assert _mode(p) == 0o600, p
    os.chmod(path.parent, 0o755)
    os.chmod(path, 0o644)
    db.connect(path).close()
    assert _mode(path.parent) == 0o700 and _mode(path) == 0o600


def test_history_elsewhere_is_private_and_its_folder_kept(
    tmp_path: Path, loose_umask: None
) -> None:
    folder = tmp_path / "shared"
    folder.mkdir(mode=0o755)
    path = folder / "h.sqlite3"
    stored_match(path, seed=2)
    assert _mode(path) == 0o600 and _mode(folder) == 0o755


def test_crash_reports_and_saved_records_are_private(user_dirs: Path, loose_umask: None) -> None:
    report = crash.write_report(RuntimeError("boom"), ["--seed", "1"])
    assert _mode(report) == 0o600 and _mode(report.parent) == 0o700
    assert _mode(paths.cache_dir()) == 0o700
    saved = save_record(Record(options=Options(), seed=1, actions=[]))
    assert _mode(saved) == 0o600 and _mode(saved.parent) == 0o700
