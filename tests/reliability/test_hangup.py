"""A terminal that hangs up ends the game, even when its SIGHUP never reached
the game (it came while one app ended and the next began, or the game was
started with SIGHUP ignored): a hung-up terminal's reads return nothing at
once, and a game left on it spun a core for ever (seen as `join` processes
still running after their tmux server was gone)."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

from testkit.ptygame import BOARD, game_env

from spit_tui.app.signals import hung_up


def _ignore_hangups() -> None:
    signal.signal(signal.SIGHUP, signal.SIG_IGN)  # as `nohup` starts a command


def test_a_game_whose_terminal_hangs_up_ends_though_sighup_never_came(tmp_path: Path) -> None:
    env = game_env(XDG_DATA_HOME=str(tmp_path / "data"), XDG_CONFIG_HOME=str(tmp_path / "cfg"))
    master, sub = os.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "spit_tui", "--seed", "1", "--no-history"],
        stdin=sub, stdout=sub, stderr=sub, env=env, preexec_fn=_ignore_hangups,
    )  # fmt: skip
    os.close(sub)
    try:
        seen, end = b"", time.monotonic() + 20
        while BOARD not in seen and time.monotonic() < end:  # read here, on this thread:
            if select.select([master], [], [], 0.2)[0]:  # a read blocked elsewhere would
                seen += os.read(master, 65536)  # keep the terminal open past its close
        assert BOARD in seen, seen[-500:]
        os.close(master)  # the window closes: the terminal hangs up
        master = -1
        code = proc.wait(timeout=15)  # it spun on for ever before
        assert code == 128 + signal.SIGHUP
    finally:
        if master >= 0:
            os.close(master)
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)


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
