"""A terminal that hangs up ends the game, even when its SIGHUP never reached
the game (it came while one app ended and the next began, or the game was
started with SIGHUP ignored): a hung-up terminal's reads return nothing at
once, and a game left on it spun a core for ever (seen as `join` processes
still running after their tmux server was gone). The key driver reads the
terminal's end (keys/terminal.py), so every mode ends as on SIGHUP: a game
in play (stored unfinished, as SIGHUP stores it) or stopped (Ctrl+Z) when
its terminal closed, the lobby of `join HOST` (its end said "left", status
0) and a paused replay (no clock of real time at all: it spun for ever).
Each runs on a real pseudo-terminal, with SIGHUP ignored, until its
terminal closes: exit status 129. A board started on a terminal gone
already (between the lobby and its room) ends so too."""

from __future__ import annotations

import fcntl
import os
import random
import select
import signal
import sqlite3
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from testkit.ptygame import BOARD, game_env
from testkit.terminals import ThreadHost

from spit_tui.clock import VirtualClock
from spit_tui.engine import Game, Player, format_record
from spit_tui.hangup import hung_up
from spit_tui.store.records import record_of
from spit_tui.table import Table

BOUND_S = 20.0  # to show its screen, to end once its terminal is gone: generous under load


def _ignore_hangups() -> None:
    signal.signal(signal.SIGHUP, signal.SIG_IGN)  # as `nohup` starts a command


def _stopped(pid: int) -> bool:
    with open(f"/proc/{pid}/stat", encoding="ascii") as f:
        return f.read().rpartition(")")[2].split()[0] == "T"


def _hang_up(
    args: list[str], shown: bytes, tmp_path: Path, keys: bytes = b"", stop: bool = False
) -> int:
    """Run `spit-tui ARGS` on a pseudo-terminal with SIGHUP ignored until it
    shows `shown` (then type `keys`, if any), close the terminal (the window
    closes: it hangs up) and give its exit status. `stop`: the game is
    stopped (Ctrl+Z: SIGTSTP) when its terminal closes, and continued after."""
    env = game_env(
        XDG_DATA_HOME=str(tmp_path / "data"), XDG_CONFIG_HOME=str(tmp_path / "cfg"),
        XDG_STATE_HOME=str(tmp_path / "state"), XDG_CACHE_HOME=str(tmp_path / "cache"),
        SPIT_ASK_NAME="no", SPIT_LAYOUT="us",
    )  # fmt: skip
    master, sub = os.openpty()
    fcntl.ioctl(sub, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))  # rows, columns
    proc = subprocess.Popen(
        [sys.executable, "-m", "spit_tui", *args],
        stdin=sub, stdout=sub, stderr=sub, env=env, preexec_fn=_ignore_hangups,
    )  # fmt: skip
    os.close(sub)
    try:
        seen, end = b"", time.monotonic() + BOUND_S
        while shown not in seen and time.monotonic() < end and proc.poll() is None:
            if select.select([master], [], [], 0.2)[0]:  # read here, on this thread: a
                seen += os.read(master, 65536)  # read blocked elsewhere would keep the
        assert shown in seen, seen[-800:]  # terminal open past its close
        if keys:
            time.sleep(0.5)  # past the stale-key guard
            os.write(master, keys)
            time.sleep(1.0)  # the game in play a while
        if stop:
            proc.send_signal(signal.SIGTSTP)  # the game leaves the terminal, then stops
            end = time.monotonic() + BOUND_S
            while not _stopped(proc.pid) and time.monotonic() < end:
                if select.select([master], [], [], 0.1)[0]:
                    os.read(master, 65536)
            assert _stopped(proc.pid)
        os.close(master)  # the window closes: the terminal hangs up
        master = -1
        if stop:
            proc.send_signal(signal.SIGCONT)  # it takes the terminal again: gone
        return proc.wait(timeout=BOUND_S)  # it spun on for ever before
    finally:
        if master >= 0:
            os.close(master)
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)


@pytest.mark.parametrize("stop", [False, True], ids=["in-play", "stopped"])
def test_a_game_whose_terminal_hangs_up_ends_though_sighup_never_came(
    tmp_path: Path, stop: bool
) -> None:
    """Stored unfinished, as SIGHUP stores a game in play, and no crash (a
    line printed after the board failed on the gone terminal: status 1).
    Stopped: its writes on taking the terminal again fail first (Textual's
    writer thread died of it, and the game's end then waited for ever)."""
    db = tmp_path / "h.sqlite3"
    args = ["--seed", "3", "--db", str(db), "--left-name", "Ana", "--right-name", "Ben"]
    assert _hang_up(args, BOARD, tmp_path, keys=b"qp", stop=stop) == 128 + signal.SIGHUP
    assert not list(tmp_path.rglob("crash-*")), "a crash report"
    conn = sqlite3.connect(db)
    try:
        rows = conn.execute("SELECT left_name, right_name, finished, record FROM games").fetchall()
    finally:
        conn.close()
    ((left, right, finished, record),) = rows
    assert (left, right, finished) == ("Ana", "Ben", 0)
    assert "L!@" in str(record) and "R!@" in str(record)  # both were ready: in play


@pytest.fixture
def host() -> Iterator[ThreadHost]:
    h = ThreadHost()
    try:
        yield h
    finally:
        h.close()


def test_the_lobby_whose_terminal_hangs_up_ends_though_sighup_never_came(
    tmp_path: Path, host: ThreadHost
) -> None:
    """The lobby has no game clock, and its end was "the player left" (0)."""
    args = ["join", f"127.0.0.1:{host.host.port}", "--no-history"]
    assert _hang_up(args, b"Quick match", tmp_path) == 128 + signal.SIGHUP


def test_a_paused_replay_whose_terminal_hangs_up_ends_though_sighup_never_came(
    tmp_path: Path,
) -> None:
    """A replay's clock is virtual: nothing of it runs on real time."""
    game = Game(seed=4)
    clock = VirtualClock()
    table = Table(game, clock)
    pick = random.Random(4)
    for _ in range(30):  # some of a game, a try every 0.3 s
        clock.advance(0.3)
        p = pick.choice(list(Player))
        acts = game.legal_actions(p) or game.legal_actions(p.other)
        table.submit(pick.choice(acts), "key")
    path = tmp_path / "game.spit"
    path.write_text(format_record(record_of(table)), encoding="utf-8")
    assert _hang_up(["replay", str(path), "--paused"], b"paused", tmp_path) == 128 + signal.SIGHUP


def test_hung_up_tells_a_hung_up_terminal_from_a_live_one_and_a_pipe() -> None:
    master, sub = os.openpty()
    read, write = os.pipe()
    try:
        assert not hung_up(sub)
        assert not hung_up(read)  # not a terminal at all: never "hung up"
        os.close(master)
        master = -1
        assert hung_up(sub)
    finally:
        for fd in (master, sub, read, write):
            if fd >= 0:
                os.close(fd)


def test_a_board_started_on_a_terminal_gone_already_ends_as_on_sighup(tmp_path: Path) -> None:
    """As the lobby's room (or a watched game) starts after the terminal hung
    up between the two: 129 and nothing written, not "needs a terminal"
    (isatty() is false on a hung-up terminal) and status 1."""
    master, sub = os.openpty()
    os.close(master)  # hung up before the game starts
    env = game_env(XDG_DATA_HOME=str(tmp_path / "data"), XDG_CONFIG_HOME=str(tmp_path / "cfg"))
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "spit_tui", "--seed", "1", "--no-history"],
            stdin=sub, stdout=sub, stderr=sub, env=env, timeout=BOUND_S,
            preexec_fn=_ignore_hangups,
        )  # fmt: skip
    finally:
        os.close(sub)
    assert proc.returncode == 128 + signal.SIGHUP
