"""Settings in a real terminal (tmux): the bell reaches the terminal ("\\a", seen
by tmux's bell flag) only when chosen; `spit-tui settings` saves a change and
Esc ends it with status 0. Each test takes 2-4 s: a real process start."""

from __future__ import annotations

import os
import shlex
import shutil
import sys
import time
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest
from testkit.table import position_of
from testkit.tmux import TmuxServer

from spit_tui.engine import format_position

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")

RACE = "play 1 two - :7h/4c:Kc/-/-/- TcTd 8s/3c :9d/5s:Kd/-/-/- 2h2d 0,0"


@pytest.fixture
def server() -> Iterator[TmuxServer]:
    made = TmuxServer("spit-settings", env=dict(os.environ))
    yield made
    made.close()


def start(server: TmuxServer, args: str, env: str = "") -> None:
    cmd = f"{env} {shlex.quote(sys.executable)} -m spit_tui {args}; echo exit=$?; sleep 30"
    server.tmux("new-session", "-d", "-x", "100", "-y", "30", cmd)


@pytest.mark.parametrize(("bell", "rung"), [("lost-race", "1"), ("spit,slap", "0")])
def test_the_bell_reaches_the_terminal_only_when_chosen(
    server: TmuxServer, bell: str, rung: str
) -> None:
    position = shlex.quote(format_position(position_of(RACE)))
    start(server, f"--position {position}", env=f"SPIT_BELL={bell}")
    server.wait_for(lambda s: "pile a" in s)
    assert server.tmux("display", "-p", "#{window_bell_flag}").strip() == "0"
    server.tmux("send-keys", "y", "q")  # right plays first: left's card is too late
    server.wait_for(lambda s: "too late: RIGHT played" in s)
    # a bell may reach the terminal a moment after the line: waited for where
    # chosen; where not, a moment in which none may come
    deadline = time.monotonic() + (10.0 if rung == "1" else 0.3)
    flag = server.tmux("display", "-p", "#{window_bell_flag}").strip()
    while flag != "1" and time.monotonic() < deadline:
        time.sleep(0.05)
        flag = server.tmux("display", "-p", "#{window_bell_flag}").strip()
    assert flag == rung


def test_spit_tui_settings_saves_and_esc_ends_it(server: TmuxServer) -> None:
    start(server, "settings")
    server.wait_for(lambda s: "Reduced motion" in s and "textual-dark" in s)
    server.tmux("send-keys", "Right")
    server.wait_for(lambda s: "textual-light" in s)
    server.tmux("send-keys", "Escape")
    server.wait_for(lambda s: "exit=0" in s)
    path = Path(os.environ["XDG_CONFIG_HOME"]) / "spit-tui" / "config.toml"
    assert tomllib.loads(path.read_text("utf-8"))["theme"] == "textual-light"


def test_spit_tui_settings_names_box_starts_from_the_remembered_names(
    server: TmuxServer,
) -> None:
    """Changing one name there keeps the other one remembered."""
    from spit_tui.names import load, save

    save(("ANN", "BO"))
    start(server, "settings")
    server.wait_for(lambda s: "Players' names" in s)
    server.tmux("send-keys", *["Down"] * 12, "Enter")
    server.wait_for(lambda s: "ANN" in s and "BO" in s)
    server.tmux("send-keys", "C", "y", "Enter")  # the box's text is selected: typing replaces it
    server.wait_for(lambda s: "Reduced motion" in s and "Cy" not in s)
    server.tmux("send-keys", "Escape")
    server.wait_for(lambda s: "exit=0" in s)
    assert load().names == ("Cy", "BO")
