"""A real terminal (tmux) joined to a real host process that stops answering
(SIGSTOP: a stalled machine, a laptop lid): the seat says so in one line
within three of the host's ping intervals, exits 1, and the terminal is the
shell's again (issue 19's done-when; issue 22 item 19, the seat's half)."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from testkit.terminals import Terminals

from spit_tui.net.seatproto import IDLE_S

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")


@pytest.fixture
def terms(tmp_path: Path) -> Iterator[Terminals]:
    t = Terminals(tmp_path)
    yield t
    t.close()


def test_a_join_whose_host_stops_says_so_and_exits_1(terms: Terminals, tmp_path: Path) -> None:
    env = {**os.environ, "SPIT_NO_HISTORY": "1", "XDG_STATE_HOME": str(tmp_path / "state")}
    host = subprocess.Popen(
        [sys.executable, "-m", "spit_tui", "host", "--port", "0", "--no-history"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )
    try:
        assert host.stdout is not None
        host.stdout.readline()  # hosting on ...
        m = re.match(r"join with: spit-tui (join \S+ \S+)", host.stdout.readline())
        assert m
        terms.start("guest", m[1].split())
        terms.wait("guest", "Waiting for RIGHT to join")
        time.sleep(1.0)  # a few of the host's pings answered: the line is live
        os.kill(host.pid, signal.SIGSTOP)
        stopped = time.monotonic()
        screen = terms.wait("guest", "EXIT=", bound=IDLE_S + 20)
        took = time.monotonic() - stopped
        where = m[1].split()[1]
        line = f"spit-tui join: the host at {where} has sent nothing for {IDLE_S:g} s: "
        assert line in screen.replace("\n", ""), screen
        assert "EXIT=1" in screen and "Traceback" not in screen, screen
        # the shell's screen again: out of the alternate screen, the cursor shown
        assert terms.tmux("display", "-p", "-t", "guest", "#{alternate_on}").strip() == "0"
        assert terms.tmux("display", "-p", "-t", "guest", "#{cursor_flag}").strip() == "1"
        print(f"the seat ended {took:.2f} s after the host stopped")
        # within three ping intervals, plus the app's own way out and the polling:
        # on two busy cores a game's exit alone can take seconds, so the bound is
        # loose (a seat that never noticed the silence would not end at all)
        assert took < IDLE_S + 6.0, took
    finally:
        os.kill(host.pid, signal.SIGCONT)
        host.terminate()
        try:
            host.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            host.kill()
            host.communicate()
