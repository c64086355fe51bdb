"""Resume in a real terminal (issue 13, item 5): tmux on a server of its own.

Every way out of a game in play stores it unfinished: Ctrl+Q and Ctrl+C (each
then Enter), SIGTERM, SIGHUP, and the window closed under it (tmux
kill-window, kill-session). A game quit halfway comes back with
`spit-tui --resume` on the same board and goes on to its end as one game;
F5 on the opening banner does the same."""

from __future__ import annotations

import os
import re
import shlex
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from testkit.app import wait_for_text
from testkit.tmux import TmuxServer, gone, process_state

pytestmark = [pytest.mark.slow]

GAME = [sys.executable, "-m", "spit_tui"]
# Single pile; the left player holds 7h and 6c: Q (7h on 8s), then W (6c on 7h) ends it.
TWO_TO_GO = (
    "play 4 one:R - :7h/:6c/-/-/- - 8s :Kd/2c:Qd/:4h/:5s/Ac:Jh "
    "2s3s4s6s7s9sTsJsQsKsAs2h3h5h8h9hThQhKhAh2d3d4d5d7d8d9dTdJdAd3c4c5c7c8c9cTcJcQcKc6d6h 0,0"
)


class Tmux(TmuxServer):
    """A tmux server of its own; each game runs as a window's own command."""

    def __init__(self) -> None:
        super().__init__("spit-resume")
        self.tmux("new-session", "-d", "-s", "main", "-x", "100", "-y", "30", "sleep 600")

    def game(self, args: list[str], session: str = "main") -> tuple[str, int]:
        """Start the game in a new window (or session); its target and pid."""
        line = shlex.join([*GAME, *args])
        if session == "main":
            out = self.tmux("new-window", "-P", "-F", "#{window_id} #{pane_pid}", line)
        else:
            out = self.tmux(
                "new-session", "-d", "-P", "-F", "#{window_id} #{pane_pid}", "-s", session,
                "-x", "100", "-y", "30", line,
            )  # fmt: skip
        target, pid = out.split()
        self.wait_for(target, "F1 help")
        time.sleep(0.4)  # past the stale-key guard
        return target, int(pid)

    def keys(self, target: str, *keys: str) -> None:
        for k in keys:
            self.tmux("send-keys", "-t", target, k)
            time.sleep(0.1)

    def screen(self, target: str) -> str:
        return self.tmux("capture-pane", "-p", "-t", target)

    def wait_for(
        self, target: str, text: str | tuple[str, ...], timeout: float = 15.0
    ) -> str:
        return wait_for_text(lambda: self.screen(target), text, timeout)


@pytest.fixture
def tmux() -> Iterator[Tmux]:
    t = Tmux()
    yield t
    t.close()


def ended(pid: int) -> bool:
    """The game has ended (its parent, tmux, may not have reaped it yet)."""
    return gone(pid, 8.0, zombie_is_gone=True)


def games(db: Path) -> list[tuple[object, ...]]:
    conn = sqlite3.connect(db)
    try:
        return conn.execute(
            "SELECT id, left_name, right_name, finished, record FROM games ORDER BY id"
        ).fetchall()
    finally:
        conn.close()


ROADS = ["ctrl+q", "ctrl+c", "SIGTERM", "SIGHUP", "kill-window", "kill-session"]


@pytest.mark.parametrize("road", ROADS)
def test_every_way_out_of_a_game_in_play_stores_it(tmux: Tmux, tmp_path: Path, road: str) -> None:
    db = tmp_path / "h.sqlite3"
    session = "game" if road == "kill-session" else "main"
    target, pid = tmux.game(
        ["--seed", "3", "--db", str(db), "--left-name", "Ana", "--right-name", "Ben"], session
    )
    tmux.keys(target, "q", "p")  # both ready: the spit
    time.sleep(1.0)
    if road in ("ctrl+q", "ctrl+c"):
        key = "C-q" if road == "ctrl+q" else "C-c"
        tmux.keys(target, key)
        tmux.wait_for(target, "Quit the game?")
        tmux.keys(target, "Enter")
    elif road.startswith("SIG"):
        os.kill(pid, getattr(signal, road))
    elif road == "kill-window":
        tmux.tmux("kill-window", "-t", target)
    else:
        tmux.tmux("kill-session", "-t", "game")
    assert ended(pid), f"the game outlived {road}: {process_state(pid)}\n{tmux.screen(target)}"
    ((_, left, right, finished, record),) = games(db)
    assert (left, right, finished) == ("Ana", "Ben", 0)
    assert "L!@" in str(record) and "R!@" in str(record)


def _no_legend(lines: list[str]) -> list[str]:
    """Screen lines with the key rows' middle legend ("◂ on the pile ▸") taken out."""
    return [re.sub(r"\s*◂[^▸]*▸\s*", " ◂▸ ", line) for line in lines]


def test_a_game_quit_halfway_resumes_on_the_same_board_and_ends_as_one_game(
    tmux: Tmux, tmp_path: Path
) -> None:
    db = tmp_path / "h.sqlite3"
    names = ["--left-name", "Ana", "--right-name", "Ben"]
    target, pid = tmux.game(["--position", TWO_TO_GO, "--db", str(db), *names])
    tmux.keys(target, "q")  # 7h on 8s
    time.sleep(0.5)
    board = tmux.screen(target).splitlines()[1:]  # below the header (its clock runs)
    tmux.keys(target, "C-q")
    tmux.wait_for(target, "Quit the game?")
    tmux.keys(target, "Enter")
    assert ended(pid)
    ((game_id, *_),) = games(db)

    target, pid = tmux.game(["--resume", "--db", str(db)])
    tmux.wait_for(target, "Enter: play on")
    screen = tmux.screen(target).splitlines()
    # below the banner: the board it stopped at (the key rows' legend says
    # "(waiting)" while the resumed game waits for Enter)
    assert _no_legend(screen[7:]) == _no_legend(board[6:])
    tmux.keys(target, "Enter")
    time.sleep(0.3)
    assert tmux.screen(target).splitlines()[1:] == board  # and now the banner too
    tmux.keys(target, "w")  # 6c on 7h: the last card
    tmux.wait_for(target, "GAME OVER")
    tmux.keys(target, "C-q")
    tmux.wait_for(target, "Quit the game?")
    tmux.keys(target, "Enter")
    assert ended(pid)
    ((again, left, right, finished, record),) = games(db)  # one game, not two
    assert (again, left, right, finished) == (game_id, "Ana", "Ben", 1)
    assert "L1a@" in str(record) and "L2a@" in str(record)
    out = subprocess.run(
        [*GAME, "history", "--db", str(db)], capture_output=True, text=True, check=True
    ).stdout
    assert "Ana" in out and "Ben" in out
    nothing = subprocess.run(
        [*GAME, "--resume", "--db", str(db)], capture_output=True, text=True, check=False
    )
    assert nothing.returncode == 1 and "no game to resume" in nothing.stderr


def test_f5_on_the_opening_banner_resumes_the_stopped_game(tmux: Tmux, tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite3"
    names = ["--left-name", "Ana", "--right-name", "Ben"]
    target, pid = tmux.game(["--position", TWO_TO_GO, "--db", str(db), *names])
    tmux.keys(target, "q")
    time.sleep(0.3)
    os.kill(pid, signal.SIGTERM)
    assert ended(pid)
    target, pid = tmux.game(["--seed", "1", "--db", str(db)])
    tmux.wait_for(target, ("F5: resume the game of", "round 4 (Ana v Ben)"))  # one capture
    tmux.keys(target, "F5")
    tmux.wait_for(target, "Ana 7♥")  # the resumed game's feed: its last card
    tmux.keys(target, "Enter")  # play on
    time.sleep(0.4)
    tmux.keys(target, "w")
    tmux.wait_for(target, "GAME OVER")
    os.kill(pid, signal.SIGTERM)
    assert ended(pid)
    ((_, left, right, finished, _),) = games(db)
    assert (left, right, finished) == ("Ana", "Ben", 1)
