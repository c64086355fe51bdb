"""What one change of a room costs the host: its scene is built once however
many look at it (two seats and a watcher), and encoded once for all of them,
since at a few hundred rooms the views are most of the host's time
(benchmarks/scale.py). Counted, not timed."""

from __future__ import annotations

import json
from typing import Any

import pytest
from testkit.lobby import FrameRecorder, Recorder, body, join, lobby

from spit_tui.engine import Player
from spit_tui.keys.intent import Row
from spit_tui.net import seatview
from spit_tui.net.protocol import encode, first, to_json
from spit_tui.net.seatview import scene_to_wire
from spit_tui.net.session import Session
from spit_tui.scene import Scene
from spit_tui.table import Table


class Counted:
    """A seatview function that counts its calls while it is patched in (`on`)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
        self.monkeypatch, self.name = monkeypatch, name
        self.real = getattr(seatview, name)
        self.calls = 0
        self.on()

    def __call__(self, scene: Scene) -> seatview.Message:
        self.calls += 1
        return self.real(scene)  # type: ignore[no-any-return]

    def on(self) -> None:
        self.monkeypatch.setattr(seatview, self.name, self)

    def off(self) -> None:
        self.monkeypatch.setattr(seatview, self.name, self.real)


def test_a_room_builds_one_scene_per_change_for_both_seats_and_a_watcher(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    lob = lobby(3)
    room = lob.new_room()
    _, left = join(lob, room, "left", name="ana")
    _, right = join(lob, room, "right", name="ben")
    watcher = Recorder(lob)
    Session(lob, watcher, 0.0).receive(body(first("watch", code=room.code)), 0.0)
    built = 0
    scene = Table.scene

    def counted(table: Table, **room: Any) -> Scene:
        nonlocal built
        built += 1
        return scene(table, **room)

    monkeypatch.setattr(Table, "scene", counted)
    before = [len(c.views()) for c in (left, right, watcher)]
    room.name_seat(Player.LEFT, "cleo")  # one change, seen by all three
    assert [len(c.views()) for c in (left, right, watcher)] == [n + 1 for n in before]
    assert built == 1


def test_a_room_encodes_one_shared_view_per_change_and_each_seat_reads_its_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    lob = lobby(3)
    room = lob.new_room()
    _, left = join(lob, room, "left", name="ana", frames=True)
    _, right = join(lob, room, "right", name="ben", frames=True)
    watcher = FrameRecorder(lob)
    Session(lob, watcher, 0.0).receive(body(first("watch", code=room.code)), 0.0)
    board = Counted(monkeypatch, "_board")
    room.submit(Player.LEFT, Row.PILE_B, 0)  # too soon to say spit: a message for LEFT only
    assert board.calls == 1
    board.off()
    scene = room._scene()
    for conn, p, heard in ((left, Player.LEFT, 1), (right, Player.RIGHT, 0)):
        assert conn.sent[-1][0] == scene_to_wire(scene, p, heard)  # what it always was
    assert "too soon" in left.sent[-1][0]["message"]["text"]
    assert right.sent[-1][0]["message"] is None
    watched = watcher.sent[-1][0]
    assert watched == scene_to_wire(scene, Player.LEFT, 0) | {"message": None}


def test_a_seats_own_fields_written_by_hand_are_what_the_encoder_writes() -> None:
    lob = lobby(3)
    room = lob.new_room()
    room.table.messages.say(Player.LEFT, 'a "quoted" \\ back-slashed é line')
    wire = seatview.WireView(room._scene())
    for p in Player:
        for said in (True, False):
            for heard in (0, 12345):
                own = seatview._own(room._scene(), p, heard, said)
                assert wire.own(p, heard, said) == to_json(own)


class _Transport:
    def __init__(self) -> None:
        self.closing = False

    def is_closing(self) -> bool:
        return self.closing

    def get_write_buffer_size(self) -> int:
        return 0


class _Writer:
    def __init__(self) -> None:
        self.transport = _Transport()
        self.written: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.written.append(data)


def test_nothing_is_written_to_a_line_that_is_gone() -> None:
    """A peer that closed its end: the host's reading side says so a moment
    later; meanwhile views and pings are not written into the dead line (asyncio
    would drop each with a 'socket.send() raised exception' warning)."""
    from spit_tui.net.stream import StreamConn

    writer = _Writer()
    conn = StreamConn(writer)  # type: ignore[arg-type]
    conn.send({"type": "ping", "id": 1})
    writer.transport.closing = True
    conn.send({"type": "ping", "id": 2})
    conn.send_frame(b"\x00\x00\x00\x02{}")
    assert len(writer.written) == 1


def test_a_ping_goes_to_a_socket_as_the_frame_the_encoder_would_write() -> None:
    """Pings are written by hand for a socket (four a room a second): the
    same bytes as the message encoded, for seats and watchers alike."""
    lob = lobby(3)
    room = lob.new_room()
    _, left = join(lob, room, "left", frames=True)
    watcher = FrameRecorder(lob)
    Session(lob, watcher, 0.0).receive(body(first("watch", code=room.code)), 0.0)
    frames: list[bytes] = []
    left.send_frame = frames.append  # type: ignore[method-assign]
    watcher.send_frame = frames.append  # type: ignore[method-assign]
    for k in range(3):  # (within SILENT_S of the hello: nobody answers them here)
        room.ping(0.2 + 0.5 * k)
    msgs = [json.loads(f[4:]) for f in frames]
    assert [m["type"] for m in msgs] == ["ping"] * 6
    assert frames == [encode(m) for m in msgs]
    ids = [m["id"] for m in msgs]
    assert ids[1::2] == [0, 0, 0] and ids[0] < ids[2] < ids[4]  # the watcher's, the seat's


def test_the_rooms_kept_part_of_a_view_follows_every_change_of_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The room's seldom-changing part of a view is kept encoded between
    changes (seatview.RoomJson): written again only when it changed, and
    every frame is still the whole view as `scene_to_wire` writes it."""
    lob = lobby(3)
    room = lob.new_room()
    _, left = join(lob, room, "left", name="ana", frames=True)
    _, right = join(lob, room, "right", name="ben", frames=True)
    written = Counted(monkeypatch, "_room")

    def seen_whole() -> None:
        written.off()  # the reference encoding, uncounted
        scene = room._scene()
        for conn, p in ((left, Player.LEFT), (right, Player.RIGHT)):
            assert conn.sent[-1][0] == scene_to_wire(scene, p, room.seats[p].heard)
        written.on()

    room.submit(Player.LEFT, Row.PILE_A, 0)  # a message for LEFT: the room part as it was
    room.submit(Player.RIGHT, Row.PILE_A, 1)
    assert written.calls == 0
    seen_whole()
    room.name_seat(Player.LEFT, "cleo")
    assert written.calls == 1 and left.sent[-1][0]["names"][0] == "cleo"
    seen_whole()
    room.seats[Player.RIGHT].shown_ms = 40  # a seat's shown ping moved
    room.flush()
    assert written.calls == 2 and right.sent[-1][0]["ping"][1] == 40
    seen_whole()
