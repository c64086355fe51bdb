"""What one change of a room costs the host: its scene is built once however
many look at it (two seats and a watcher), since at a few hundred rooms the
views are most of the host's time (benchmarks/scale.py). Counted, not timed."""

from __future__ import annotations

import pytest
from netkit import Recorder, body, join, lobby

from spit_tui.engine import Player
from spit_tui.net.session import Session
from spit_tui.scene import Scene
from spit_tui.table import Table


def test_a_room_builds_one_scene_per_change_for_both_seats_and_a_watcher(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    lob = lobby(3)
    room = lob.new_room()
    _, left = join(lob, room, "left", name="ana")
    _, right = join(lob, room, "right", name="ben")
    watcher = Recorder(lob)
    Session(lob, watcher, 0.0).receive(body({"type": "watch", "code": room.code}), 0.0)
    built = 0
    scene = Table.scene

    def counted(table: Table) -> Scene:
        nonlocal built
        built += 1
        return scene(table)

    monkeypatch.setattr(Table, "scene", counted)
    before = [len(c.views()) for c in (left, right, watcher)]
    room.name_seat(Player.LEFT, "cleo")  # one change, seen by all three
    assert [len(c.views()) for c in (left, right, watcher)] == [n + 1 for n in before]
    assert built == 1
