"""The real `spit-tui join` in a real terminal (tmux, private socket) keeps the
room's game in its own history: the host (in this process) deals a game one
card from its end, the joined terminal plays that card, and after game over
the joiner's own file holds the game, finished, and marked as begun from a set
position: `spit-tui stats` there leaves it out, as the host's own history does
(tests/net/test_joined_history.py counts a joined game that the writers take
for a dealt one)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from test_room_history import NEAR_END, rows
from testkit.terminals import Terminals, ThreadHost

from spit_tui.engine import Game, Options, Play, Player, parse_position

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")


def test_a_joined_terminal_keeps_the_game_in_its_own_history(tmp_path: Path) -> None:
    from spit_tui.keys.intent import intent_for
    from spit_tui.keys.keymap import US
    from spit_tui.net.client import Client
    from spit_tui.net.host import Timings

    mine = tmp_path / "ana.db"
    th = ThreadHost(timings=Timings(countdown_s=0.05, stale_s=0.05, stuck_delay_s=0.05))
    terms = Terminals(tmp_path)
    try:
        room = th.read(th.host.new_room)
        th.read(lambda: room.table.new_game(
            Game(options=Options(), position=parse_position(NEAR_END), seed=7)))
        ben = th.call(Client.join("127.0.0.1", th.host.port, room.code, "right", name="ben"))
        address = f"127.0.0.1:{th.host.port}"
        terms.start("ana", ["join", address, room.code, "--seat", "left", "--name", "ana",
                            "--db", str(mine)], env="SPIT_NO_HISTORY=")
        terms.wait("ana", "spit pile")
        play = next(a for a in th.read(lambda: room.table.game.legal_actions(Player.LEFT))
                    if isinstance(a, Play))
        terms.send("ana", US.key_for(Player.LEFT, *intent_for(play)[1:]))
        terms.wait("ana", "GAME OVER")
        for _ in range(100):  # the record comes after game over: a moment
            if mine.exists() and rows(mine, "SELECT count(*) FROM games") == [(1,)]:
                break
            terms.wait("ana", "GAME OVER", 0.1)
        terms.key("ana", "C-q")
        terms.wait("ana", "Quit the game?")
        terms.key("ana", "Enter")
        terms.wait("ana", "EXIT=0")
        th.call(ben.close())
    finally:
        terms.close()
        th.close()
    assert rows(mine, "SELECT left_name, right_name, finished, result, set_start FROM games") == [
        ("ana", "ben", 1, "L", 1)
    ]
    run = subprocess.run([sys.executable, "-m", "spit_tui", "stats", "--json", "--db", str(mine)],
                         capture_output=True, text=True, timeout=30)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["players"] == []  # a set position counts for nobody
