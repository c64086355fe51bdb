"""`spit-tui host --seat` in a real terminal (tmux), a `join` in another:
SIGTERM to the host mid-game quits its board through the app's own exit
(status 143, the terminal restored) and the game in play is in the history
(issue 22, item 11: the host's signals with a board)."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from testkit.terminals import Terminals, join_command


def _pid_of(db: Path) -> int:
    """The host's Python process (not tmux's nor the pane's shell, whose command
    lines hold the same words)."""
    out = subprocess.run(["pgrep", "-f", "--", f"--db {db}"], capture_output=True, text=True)
    for pid in map(int, out.stdout.split()):
        try:
            argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if argv[0] == sys.executable.encode() and argv[1:3] == [b"-m", b"spit_tui"]:
            return pid
    raise AssertionError("no host process")


def test_sigterm_to_a_host_with_a_seat_quits_its_board_and_keeps_the_game(
    terms: Terminals,
    tmp_path: Path,
) -> None:
    db = tmp_path / "h.sqlite3"
    assert terms.env is not None
    terms.env = {k: v for k, v in terms.env.items() if k != "SPIT_NO_HISTORY"}
    terms.start("host", ["host", "--port", "0", "--seat", "left", "--seed", "7", "--db", str(db)])
    join, _ = join_command(terms, "host")
    terms.start("guest", join)
    terms.wait("host", "both press any key")
    terms.wait("guest", "both press any key")
    time.sleep(0.5)
    terms.send("host", "q")
    terms.send("guest", "p")
    terms.wait("host", "play!")
    time.sleep(0.5)
    pid = _pid_of(db)
    os.kill(pid, signal.SIGTERM)
    ended = terms.wait("host", "EXIT=")
    assert "EXIT=143" in ended and "Traceback" not in ended, ended
    assert "\x1b" not in ended
    conn = sqlite3.connect(db)
    try:
        stored = conn.execute("SELECT finished, length(record) FROM games").fetchall()
    finally:
        conn.close()
    assert len(stored) == 1 and stored[0][0] == 0 and stored[0][1] > 0, stored
