"""Real OpenSSH clients (`ssh`, Debian's openssh-client) in real terminals
(tmux on a private socket) against the SSH door on 127.0.0.1.

- Two guests: one makes a room (`n` at the question), the other comes in
  with the code the first one's board shows (`ssh -t NAME@HOST CODE`); keys
  from both terminals start the round and play; a third watches (`ssh -t
  NAME@HOST w CODE`) and quits; each player quits; every terminal is left as
  it was (normal screen, cursor shown, the same stty settings).
- Two guests paired by Quick match, one of whose ssh is killed mid-game: the
  other is told, and after the room's wait chooses on screen, both ways: the
  computer finishes the dropped seat (Enter), or the game stops (Ctrl+Q);
  every terminal is restored.
- (slow) A whole points game to 10, each key chosen from the host's table and
  typed into the terminal of its seat; then both press Enter: a rematch in
  the room.

Set SPIT_SSH_TRANSCRIPT to a folder to keep the screens captured on the way.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from testkit.terminals import Terminals, ThreadHost, choose, phase_mark

from spit_tui.engine import Options, Variant

pytestmark = pytest.mark.skipif(
    shutil.which("tmux") is None or shutil.which("ssh") is None, reason="needs tmux and ssh"
)

POINTS_TO_10 = Options(variant=Variant.POINTS, target=10)  # a whole points game, soon over
CODE = re.compile(r"-t NAME@127\.0\.0\.1 ([0-9a-z]{5}-[0-9a-z]{5})")


class Guests(Terminals):
    """tmux sessions each running a real `ssh` to the door, with a key and a
    known_hosts file of the test's own."""

    def __init__(self, tmp: Path, port: int) -> None:
        super().__init__(tmp)
        self.env = {**(self.env or {}), "LC_ALL": "C.UTF-8", "TERM": "xterm-256color"}
        self.keep = Path(k) if (k := os.environ.get("SPIT_SSH_TRANSCRIPT")) else None
        self.port = port
        self.id_file = tmp / "id_ed25519"
        subprocess.run(
            ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(self.id_file)], check=True
        )

    def ssh(self, name: str, user: str, *command: str) -> None:
        argv = [
            "ssh", "-i", str(self.id_file), "-o", "IdentitiesOnly=yes", "-o", "BatchMode=yes",
            "-o", "StrictHostKeyChecking=accept-new", "-o", "SetEnv=SPIT_LAYOUT=us",
            "-o", f"UserKnownHostsFile={self.tmp / 'known_hosts'}",
            "-p", str(self.port), *(["-t"] if command else []), f"{user}@127.0.0.1", *command,
        ]  # fmt: skip
        # the terminal's line settings before and after (stty -g): "STTY=same" if restored
        shell = (f"s=$(stty -g); {shlex.join(argv)}; echo EXIT=$?; "
                 f'[ "$(stty -g)" = "$s" ] && echo STTY=same || echo STTY=changed; sleep 60')
        self.tmux("new-session", "-d", "-s", name, "-x", "100", "-y", "30", shell)

    def quit(self, name: str) -> str:
        """Ctrl+Q, and Enter if the game asks, and Ctrl+Q again in the lobby a
        game begun there comes back to; the pane's last screen."""
        self.key(name, "C-q")
        screen = self.wait(name, lambda s: any(w in s for w in ("Quit the game?", "EXIT=",
                                                                 "Quick match")))
        if "Quit the game?" in screen:
            self.key(name, "Enter")
            screen = self.wait(name, lambda s: "EXIT=" in s or "Quick match" in s)
        if "EXIT=" not in screen:  # back in the lobby: leave it too
            self.key(name, "C-q")
        return self.wait(name, "EXIT=")

    def restored(self, name: str) -> bool:
        """The terminal is as before the game: normal screen, cursor shown, and
        its line settings (stty) as they were."""
        flags = self.tmux("display", "-p", "-t", name, "#{alternate_on} #{cursor_flag}")
        stty = self.wait(name, "STTY=")
        return flags.strip() == "0 1" and "STTY=same" in stty


class ThreadDoor(ThreadHost):
    """The door and its game host on one loop in a thread (ThreadHost's)."""

    def __init__(self, tmp: Path, **host_args: Any) -> None:
        super().__init__(**host_args)
        import asyncssh

        from spit_tui.ssh.admission import Admission
        from spit_tui.ssh.server import Door, listen

        self.door = Door(("127.0.0.1", self.host.port), Admission(), guest_home=tmp / "guests")
        key = asyncssh.generate_private_key("ssh-ed25519")
        self.acceptor = self.call(listen(self.door, key, "127.0.0.1", 0))

    def close(self) -> None:
        async def stop() -> None:
            await self.door.stop()
            self.acceptor.close()

        self.call(stop())
        super().close()


@pytest.fixture
def door(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[ThreadDoor]:
    """The door; its rooms' game is the host's default, or (indirect
    parametrisation) the Options given."""
    from spit_tui.net.host import Timings

    d = ThreadDoor(tmp_path, seed=11, wait_s=2.0, options=getattr(request, "param", None),
                   timings=Timings(countdown_s=0.3, stale_s=0.2, stuck_delay_s=0.2))
    yield d
    d.close()


@pytest.fixture
def guests(tmp_path: Path, door: ThreadDoor) -> Iterator[Guests]:
    g = Guests(tmp_path, door.door.port)
    yield g
    g.close()


def seat_both(guests: Guests, door: ThreadDoor, quick: bool = False) -> Any:
    """ana makes a room, ben comes in with its code (`quick`: both choose
    Quick match in the lobby and are paired); the room."""
    guests.ssh("ana", "ana")
    guests.wait("ana", "Quick match")
    if quick:
        guests.send("ana", "q")
    else:
        guests.send("ana", "n")  # a new room: its options, then the line to send
        guests.wait("ana", "make the room")
        guests.key("ana", "Enter")
    # the code's line is painted apart from the waiting line: wait for both
    board = guests.wait("ana", lambda s: "Waiting for RIGHT to join" in s
                        and CODE.search(s.replace("\n", " ")) is not None)
    guests.shot("ana waits in a room", "ana")
    m = CODE.search(board.replace("\n", " "))
    assert m, board
    if quick:
        guests.ssh("ben", "ben")
        guests.wait("ben", "Quick match")
        guests.send("ben", "q")  # the next player who asks: paired with ana
    else:
        guests.ssh("ben", "ben", m[1])
    guests.wait("ben", "both press any key")
    guests.wait("ana", "both press any key")
    guests.shot("both seated", "ana", "ben")
    return door.read(lambda: door.host.lobby.rooms[m[1]])


def test_two_openssh_clients_play_and_leave_their_terminals_as_they_were(
    guests: Guests, door: ThreadDoor
) -> None:
    room = seat_both(guests, door)
    time.sleep(0.5)  # the stale-key window of the spit call, on each screen
    guests.send("ana", "q")
    guests.send("ben", "p")
    guests.wait("ana", "play!")
    guests.wait("ben", "play!")
    guests.shot("in play", "ana", "ben")
    keys = door.read(lambda: [d for d in room.table.decisions if d.source == "key"])
    assert {d.player for d in keys} == set(room.seats)
    guests.ssh("carl", "carl", "w", room.code)  # a watcher in a third terminal
    # a screen is read whole, never half painted: wait for all it must show
    guests.wait("carl", ("play!", "ana", "ben"))
    guests.shot("carl watches", "ana", "ben", "carl")
    assert door.read(lambda: len(room.watchers)) == 1
    guests.key("carl", "C-q")  # a watcher quits at once: nothing of theirs is lost
    ended = guests.wait("carl", "EXIT=")
    assert "EXIT=0" in ended and guests.restored("carl")
    ended = guests.quit("ben")
    assert "EXIT=0" in ended and "Traceback" not in ended
    assert guests.restored("ben")
    # ben quit on purpose: a leave, not a drop: ana is told at once (no wait
    # for him): her game gives way to the lobby she came from, which says why
    back = guests.wait("ana", ("ben left the game: the game is stopped", "Quick match"))
    assert "Waiting for ben" not in back
    guests.shot("ben left", "ana", "ben")
    ended = guests.quit("ana")  # Ctrl+Q in the lobby: her terminal is hers again
    assert "EXIT=0" in ended and guests.restored("ana")
    guests.shot("both left", "ana", "ben")


@pytest.mark.parametrize(
    "choice", ["computer", pytest.param("stop", marks=pytest.mark.slow)]
)  # (stopping is also driven over sockets in tests/net/test_host_rooms.py, in the default run)
@pytest.mark.long(8)
def test_a_guest_whose_ssh_is_killed_mid_game(
    guests: Guests, door: ThreadDoor, choice: str
) -> None:
    """ben's ssh dies; ana waits --wait (2 s here), then chooses on screen: the
    computer finishes ben's seat (Enter), or she stops the game (Ctrl+Q)."""
    from spit_tui.engine import Player

    room = seat_both(guests, door, quick=True)  # paired by Quick match, with real ssh
    time.sleep(0.5)  # the stale-key window of the spit call
    guests.send("ana", "q")
    guests.send("ben", "p")
    guests.wait("ana", "play!")
    pid = int(guests.tmux("display", "-p", "-t", "ben", "#{pane_pid}").strip())
    ssh_pid = int(subprocess.run(["pgrep", "-P", str(pid), "-x", "ssh"], capture_output=True,
                                 text=True).stdout.split()[0])
    os.kill(ssh_pid, 9)  # the guest's connection dies with no goodbye
    guests.wait("ana", "Waiting for ben")
    guests.shot("ben's ssh killed", "ana", "ben")
    guests.wait("ana", ("ben did not come back",
                        "Enter: the computer plays ben's seat (level 5)",
                        "at a new player's pace: nothing stored", "Ctrl+Q: stop the game"))
    guests.shot("the choice", "ana")
    if choice == "computer":
        guests.key("ana", "Enter")
        guests.wait("ana", "ben · level 5")  # the computer's half, where ben's keys were
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not door.read(lambda: any(
            d.player is Player.RIGHT and d.source == "bot" and d.outcome.name == "APPLIED"
            for d in room.table.decisions
        )):  # fmt: skip
            time.sleep(0.1)
        assert door.read(lambda: Player.RIGHT in room.computers)
        guests.shot("the computer plays ben's seat", "ana")
        assert "ben did not come back" not in guests.screen("ana")
    ended = guests.quit("ana")  # stop: Ctrl+Q on the choice; or leave the game later
    assert "EXIT=0" in ended and guests.restored("ana")
    # (ben's ssh was killed: its terminal is his own to reset; nothing could reach it)
    deadline = time.monotonic() + 10
    while door.read(lambda: len(door.door.sessions)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert door.read(lambda: len(door.door.sessions)) == 0
    if choice == "stop":  # nobody left to ask: the room stops, its game stored unfinished
        deadline = time.monotonic() + 10
        while door.read(lambda: room.code in door.host.lobby.rooms) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert door.read(lambda: room.code not in door.host.lobby.rooms)
    assert not door.read(lambda: room.table.game.over)


@pytest.mark.slow
@pytest.mark.parametrize("door", [POINTS_TO_10], indirect=True, ids=["points to 10"])
def test_two_openssh_clients_play_a_whole_game(guests: Guests, door: ThreadDoor) -> None:
    from spit_tui.engine import Player
    from spit_tui.keys.intent import intent_for
    from spit_tui.keys.keymap import US

    room = seat_both(guests, door)
    names = {Player.LEFT: "ana", Player.RIGHT: "ben"}
    deadline = time.monotonic() + 600
    mark: tuple[Any, ...] = ()
    since = 0.0
    steps = 0
    while not door.read(lambda: room.table.game.over):
        assert time.monotonic() < deadline, "the game did not end in time"
        pressed = False
        for p in Player:
            now_mark = door.read(lambda: phase_mark(room))
            if now_mark[:3] != mark:
                mark, since = now_mark[:3], now_mark[3]
            action = door.read(lambda p=p, since=since: choose(room, p, since))
            if action is None:
                continue
            row, slot = intent_for(action)[1:]
            # the last decision, not their count: the table keeps only the latest ones
            before = door.read(lambda: room.table.decisions[-1] if room.table.decisions else None)
            guests.send(names[p], US.key_for(p, row, slot))
            end = time.monotonic() + 5
            while door.read(lambda: room.table.decisions[-1]
                    if room.table.decisions else None) is before:
                assert time.monotonic() < end, action
                time.sleep(0.01)
            time.sleep(0.07)  # past the repeat rule for the same key
            pressed = True
            steps += 1
            if steps in (2, 40, 120):
                time.sleep(0.3)
                guests.shot(f"step {steps}", "ana", "ben")
        if not pressed:
            time.sleep(0.05)
    winner = door.read(lambda: room.table.position.winner)
    who = ("ana", "ben")[winner]
    assert door.read(lambda: room.table.game.options) == POINTS_TO_10  # the door's, from New room
    for name in names.values():
        guests.wait(name, lambda s: f"GAME OVER · {who} wins" in s
                    and ("(lowest wins at 10)" in s or "final score" in s))
    guests.shot("game over", "ana", "ben")
    score = "match 1 : 0" if winner == 0 else "match 0 : 1"
    for name in names.values():
        guests.wait(name, score)
    first = door.read(lambda: room.table.game)
    guests.key("ana", "Enter")  # ana asks for a rematch; ben is told
    guests.wait("ben", "ana wants a rematch")
    guests.shot("ana asks for a rematch", "ana", "ben")
    guests.key("ben", "Enter")
    for name in names.values():  # a new game in the same room, the same names
        guests.wait(name, "both press any key")
    guests.shot("rematch", "ana", "ben")
    assert door.read(lambda: room.table.game) is not first and room.games == 2
    for name in names.values():
        guests.quit(name)
        assert guests.restored(name)
    guests.shot("both left", "ana", "ben")


def test_a_sessions_last_line_stays_above_openssh_s_own(guests: Guests, door: ThreadDoor) -> None:
    """A watcher's game ends with one line (the room stopped); OpenSSH then
    says "Connection to ... closed." on the line under it. The door's
    terminal repair once put the cursor back up where the game had begun, and
    OpenSSH's line was written over the game's ("Connection to 127.0.0.1
    closed.me: the game is stopped")."""
    guests.ssh("ana", "ana", "new")
    board = guests.wait("ana", lambda s: "Waiting for RIGHT to join" in s
                        and CODE.search(s.replace("\n", " ")) is not None)
    m = CODE.search(board.replace("\n", " "))
    assert m, board
    guests.ssh("carl", "carl", "w", m[1])
    guests.wait("carl", ("Waiting for RIGHT to join", "ana"))
    guests.quit("ana")
    ended = guests.wait("carl", ("EXIT=", "STTY="))
    lines = [line.rstrip() for line in ended.splitlines() if line.strip()]
    said = "spit-tui watch: ana left the game: the game is stopped"
    assert said in lines, ended
    after = lines[lines.index(said) + 1 :]
    assert after[:2] == ["Connection to 127.0.0.1 closed.", "EXIT=0"], ended
    assert guests.restored("carl")
