"""`spit-tui --resume ID` (issue 21, item 6): any game quit in play can be
resumed, not only the newest; `history` lists each unfinished game with the
command that resumes it; a game that cannot be resumed is one line."""

from __future__ import annotations

import os
import shlex
import shutil
import sqlite3
import sys
import time
from pathlib import Path

import pytest
from test_resume_store import stop_a_game
from testkit.store import stored_match
from testkit.tmux import TmuxServer

from spit_tui import cli
from spit_tui.store import db
from spit_tui.store.resume import find_stopped


@pytest.fixture
def three(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Game 1 quit in play, game 2 quit in play, game 3 finished."""
    monkeypatch.chdir(tmp_path)
    path = Path("h.sqlite3")
    stop_a_game(path, seed=5, after=10.0, names=("ANN", "BO"))
    stop_a_game(path, seed=6, after=10.0, names=("CY", "DI"))
    stored_match(path, 1, names=("ANN", "BO"))
    return path


def test_resume_by_id_finds_an_older_game(three: Path) -> None:
    newest = find_stopped(three)
    older = find_stopped(three, 1)
    assert newest is not None and older is not None
    assert (newest.game_id, newest.names) == (2, ("CY", "DI"))
    assert (older.game_id, older.names) == (1, ("ANN", "BO"))
    args = cli.build_parser().parse_args(["--resume", "1", "--db", str(three)])
    stopped = cli._stopped_game(args)
    assert stopped is not None and stopped.game_id == 1
    assert (args.left_name, args.right_name) == ("ANN", "BO")


@pytest.mark.parametrize(
    ("game", "words"), [(3, "played to its end"), (99, "no game 99 in the history")]
)
def test_a_game_that_cannot_be_resumed_is_one_line(
    three: Path, game: int, words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(db.HistoryError, match=words):
        find_stopped(three, game)
    assert cli.main(["--resume", str(game), "--db", str(three)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err and "internal error" not in err


def test_a_bad_id_is_a_usage_error(three: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--resume", "²", "--db", str(three)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not a game id" in err


def test_history_shows_each_unfinished_game_with_its_resume_command(
    three: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["history", "--db", str(three)]) == 0
    out = capsys.readouterr().out
    assert "game 1 is unfinished: spit-tui --resume 1 --db h.sqlite3\n" in out
    assert "game 2 is unfinished: spit-tui --resume 2 --db h.sqlite3\n" in out
    assert out.count("unfinished") == 4  # the result column, and the line under the table


@pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")
@pytest.mark.parametrize("width", [80, 100])
def test_history_in_a_real_terminal_cuts_nothing(three: Path, width: int) -> None:
    """At 80 and 100 columns every id, name, result and resume command is whole."""
    sqlite3.connect(three).executescript(  # the longest names a game can have
        "UPDATE games SET left_name = 'ABCDEFGHIJKLMNOP', right_name = 'computer (level 10)';"
        " UPDATE game_players SET name = 'ABCDEFGHIJKLMNOP' WHERE seat = 'L'"
    )
    server = TmuxServer("spit-history", env={**os.environ, "COLUMNS": str(width)})
    try:
        cmd = f"{shlex.quote(sys.executable)} -m spit_tui history --db {three}; sleep 30"
        server.tmux("new-session", "-d", "-x", str(width), "-y", "40", "-c", str(Path.cwd()), cmd)
        deadline = time.monotonic() + 20
        screen = ""
        whole = ("game 1 is unfinished: spit-tui --resume 1 --db h.sqlite3",
                 "game 2 is unfinished: spit-tui --resume 2 --db h.sqlite3")
        while not all(t in screen for t in whole) and time.monotonic() < deadline:
            time.sleep(0.1)
            screen = server.tmux("capture-pane", "-p", "-J")
    finally:
        server.close()
    assert "game 1 is unfinished: spit-tui --resume 1 --db h.sqlite3" in screen, screen
    assert "game 2 is unfinished: spit-tui --resume 2 --db h.sqlite3" in screen, screen
    assert "…" not in screen, screen
    ids = [line.split("│")[1].strip() for line in screen.splitlines() if line.startswith("│")]
    assert [i for i in ids if i] == ["3", "2", "1"], screen
    table = [line for line in screen.splitlines() if line and line[0] in "┏┃┡│└"]
    assert table and all(line.rstrip()[-1] in "┓┃┩│┘" for line in table), screen  # whole rows
    players = "".join(line.split("│")[3].strip() for line in table if line.startswith("│"))
    assert players.count("ABCDEFGHIJKLMNOP") == 3 and players.count("(level 10)") == 3, screen


async def test_a_game_played_in_a_hosts_room_is_never_offered_to_resume(
    three: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A room's game quit in play (a seat's player left) is kept unfinished in
    the host's history, as any game; but its players sat at other terminals,
    so `history` gives it no resume command, `--resume ID` says why in one
    line, and `--resume` (and F5's offer) goes to the newest game played here."""
    import asyncio

    from testkit.join import FAST, until

    from spit_tui.engine import Phase, Play, Player
    from spit_tui.keys.intent import Row, intent_for
    from spit_tui.net.client import Client
    from spit_tui.net.host import Host
    from spit_tui.store.history import HistoryWriter

    host = Host(port=0, timings=FAST, seed=3, wait_s=120.0, history=HistoryWriter(three))
    await host.start()
    try:
        room = host.new_room()
        left = await Client.join("127.0.0.1", host.port, room.code, "left")
        right = await Client.join("127.0.0.1", host.port, room.code, "right")
        await asyncio.sleep(FAST.stale_s + 0.05)
        left.press(Row.PILE_A, 0)
        right.press(Row.PILE_A, 0)
        await until(lambda: room.table.position.phase is Phase.PLAY, "in play")
        plays = [a for a in room.table.game.legal_actions(Player.LEFT) if isinstance(a, Play)]
        left.press(*intent_for(plays[0])[1:])
        await until(lambda: len(room.table.game.log) >= 3, "a card is played")
        await right.close(leave=True)  # RIGHT's player quits: the room stops
        await until(lambda: left.ended is not None, "LEFT is told", timeout=5)
    finally:
        await host.close()
    conn = sqlite3.connect(three)
    assert conn.execute("SELECT id, finished FROM games WHERE id = 4").fetchall() == [(4, 0)]
    conn.close()
    assert cli.main(["history", "--db", str(three)]) == 0
    out = capsys.readouterr().out
    assert "game 2 is unfinished: spit-tui --resume 2 --db h.sqlite3\n" in out
    assert "game 1 is unfinished: spit-tui --resume 1 --db h.sqlite3\n" in out
    assert "--resume 4" not in out and out.count("unfinished") == 5  # 3 results, 2 lines
    assert cli.main(["--resume", "4", "--db", str(three)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "game 4 was played in a room of a host" in err, err
    newest = find_stopped(three)
    assert newest is not None and newest.game_id == 2
