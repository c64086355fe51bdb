"""Card sizes in a real terminal (tmux): a 200x60 window gets large cards,
shrinking it to 80x24 brings back the small board (exactly the board a new
80x24 window shows), and growing it again brings the large cards back.
About 3-5 s: a real process start (--cards small on a large window is
test_look_app.py's, headless)."""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from collections.abc import Iterator

import pytest
from testkit.tmux import TmuxServer

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")

LARGE_EDGE = "╭─────╮"
SMALL_EDGE = "╭───╮ ╭───╮"


@pytest.fixture
def server() -> Iterator[TmuxServer]:
    made = TmuxServer("spit-look", env=dict(os.environ))
    yield made
    made.close()


def test_the_card_size_follows_the_window(server: TmuxServer) -> None:
    cmd = f"{shlex.quote(sys.executable)} -m spit_tui --seed 1 --no-history; sleep 30"
    server.tmux("new-session", "-d", "-x", "200", "-y", "60", cmd)
    server.tmux("set-option", "-g", "window-size", "manual")
    # the call is painted apart from the cards: wait for all of it at once
    server.wait_for(lambda s: "pile a" in s and LARGE_EDGE in s and "◂ any key: spit! ▸" in s)
    server.tmux("resize-window", "-x", "80", "-y", "24")
    small = server.wait_for(lambda s: SMALL_EDGE in s and LARGE_EDGE not in s)
    assert max(len(line) for line in small.splitlines()) <= 80
    server.tmux("resize-window", "-x", "120", "-y", "36")
    server.wait_for(lambda s: LARGE_EDGE in s)

