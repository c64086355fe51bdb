"""Watchers: a room's public board for anyone with its code, no keys, at most
50, never slowing the room, never a card a player could not see."""

from __future__ import annotations

import random

import pytest
from testkit.lobby import FrameRecorder, Recorder, body, cards_in, join, lobby, visible_cards

from spit_tui.engine import Player
from spit_tui.net.protocol import first
from spit_tui.net.room import MAX_WATCHERS
from spit_tui.net.session import Session
from spit_tui.players.bot import Bot


def watch(lob: object, code: str, conn: Recorder | None = None) -> tuple[Session, Recorder]:
    conn = conn or Recorder(lob)  # type: ignore[arg-type]
    s = Session(lob, conn, 0.0)  # type: ignore[arg-type]
    s.receive(body(first("watch", code=code)), 0.0)
    return s, conn


@pytest.mark.parametrize("frames", [False, True], ids=["messages", "frames"])
def test_a_watcher_sees_a_whole_game_and_never_a_hidden_card(frames: bool) -> None:
    lob = lobby(6)
    room = lob.new_room()
    join(lob, room, "left", name="ana", frames=frames)
    join(lob, room, "right", name="ben", frames=frames)
    conn = FrameRecorder(lob) if frames else Recorder(lob)
    _, seen = watch(lob, room.code.upper(), conn)  # as typed: any case
    stale_s = room.table.gate.stale_s
    assert seen.sent[0][0] == {"type": "watching", "room": room.code, "stale_s": stale_s}
    table = room.table
    for p in Player:
        Bot(table, p, "expert", rng=random.Random(p)).attach()
    while not table.game.over:
        assert table.clock.step()  # type: ignore[attr-defined]
    views = seen.views()
    assert len(views) > 100
    shown_so_far: set[str] = set()
    for msg, pos in views:
        now = {str(c) for c in visible_cards(pos)}
        shown_so_far |= now
        assert cards_in(msg) <= shown_so_far  # the feed shows cards once face up
        assert cards_in({k: v for k, v in msg.items() if k != "story"}) <= now
        assert msg["message"] is None and msg["heard"] == 0
        assert msg["names"] == ["ana", "ben"]
    assert views[-1][0]["phase"] == "over"


def test_a_watcher_has_no_keys() -> None:
    lob = lobby()
    room = lob.new_room()
    s, conn = watch(lob, room.code)
    s.receive(body({"type": "intent", "row": "a", "slot": 0}), 0.1)
    assert conn.closed == "a watcher has no keys"
    assert room.watchers == []


def test_at_most_fifty_watchers_and_a_wrong_code() -> None:
    lob = lobby()
    room = lob.new_room()
    for _ in range(MAX_WATCHERS):
        _, conn = watch(lob, room.code)
        assert conn.closed is None
    _, late = watch(lob, room.code)
    assert late.closed == f"this room has {MAX_WATCHERS} watchers already"
    _, wrong = watch(lob, "zzzzz-zzzzz")
    assert wrong.closed == "no room with that code"
    assert len(room.watchers) == MAX_WATCHERS


class Busy(Recorder):
    """A watcher's connection whose send buffer is full while `full`."""

    full = False

    def busy(self) -> bool:
        return self.full


def test_a_watcher_behind_skips_to_the_latest_board_and_the_seats_do_not_wait() -> None:
    lob = lobby(2)
    room = lob.new_room()
    _, left = join(lob, room, "left")
    _, right = join(lob, room, "right")
    slow = Busy(lob)
    watch(lob, room.code, slow)
    got = len(slow.views())
    slow.full = True
    table = room.table
    for p in Player:
        Bot(table, p, "expert", rng=random.Random(p)).attach()
    steps = 0
    while steps < 400:
        table.clock.step()  # type: ignore[attr-defined]
        steps += 1
    assert len(slow.views()) == got  # nothing queued for it meanwhile
    assert len(left.views()) > got + 5 and len(right.views()) > got + 5
    slow.full = False
    while len(slow.views()) == got:
        table.clock.step()  # type: ignore[attr-defined]
    msg, _ = slow.views()[-1]
    assert msg["round"] == table.position.round  # the newest board, not the ones skipped


def test_a_watcher_leaving_is_forgotten_and_the_players_see_the_count() -> None:
    lob = lobby()
    room = lob.new_room()
    _, left = join(lob, room, "left")
    join(lob, room, "right")
    s, _ = watch(lob, room.code)
    assert left.views()[-1][0]["watchers"] == 1
    watch(lob, room.code)
    assert left.views()[-1][0]["watchers"] == 2
    s.ended()
    assert len(room.watchers) == 1 and left.views()[-1][0]["watchers"] == 1


def test_watch_command_lines(tmp_path: object) -> None:
    """Anything wrong before the board is up: one line and a non-zero exit."""
    import socket
    import subprocess
    import sys

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    for argv, says, status in (
        (["127.0.0.1", "nope"], "not a room code", 2),
        (["127.0.0.1:0x", "k3f9q-2x7mz"], "not a port number", 2),
        ([f"127.0.0.1:{port}", "k3f9q-2x7mz"], "spit-tui watch: nothing is listening at", 1),
    ):
        run = subprocess.run(
            [sys.executable, "-m", "spit_tui", "watch", *argv],
            capture_output=True, text=True, timeout=30,
        )  # fmt: skip
        assert run.returncode == status and says in run.stderr, run.stderr
        assert run.stderr.count("\n") == 1 and "Traceback" not in run.stderr


def test_a_watcher_is_pinged_so_a_quiet_board_is_not_a_host_gone() -> None:
    """The seat's protocol gives a host up after 1.5 s of silence: a board that
    does not change for that long must still send the watcher something."""
    lob = lobby()
    room = lob.new_room()
    s, conn = watch(lob, room.code)
    s.receive(body({"type": "pong", "id": 0}), 0.0)  # its pong is no key: it stays
    room.ping(0.5)
    assert conn.sent[-1][0] == {"type": "ping", "id": 0} and conn.closed is None
