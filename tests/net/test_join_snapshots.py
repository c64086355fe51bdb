"""Snapshots of the join screen: a seat at a host's room (in play, with a
card just played and both pings), and the same seat while the other one is
away. The room runs on a virtual clock, in process; the seat is drawn from
the public view only, as over the wire."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from netkit import Recorder, join, lobby
from textual.pilot import Pilot

from spit_tui.app import SpitApp
from spit_tui.app.join import seat_app as _seat_app
from spit_tui.clock import VirtualClock
from spit_tui.engine import Play, Player, Ready
from spit_tui.net.remote import RemoteSeat
from spit_tui.net.seat import LocalSeat

Snap = Callable[..., bool]


def seat_app(drop_right: bool) -> SpitApp:
    lob = lobby(1)
    room = lob.new_room()
    local = LocalSeat(room, Player.LEFT)
    table = RemoteSeat(Player.LEFT, local.press, VirtualClock(), room.table.stale_s)
    _session, rec = join(lob, room, "right")
    room.seats[Player.RIGHT].shown_ms = 42  # as the host's pings would have measured it

    async def start(app: SpitApp) -> None:
        local.attach(table, lambda line: app.finish(line))
        t = room.table
        clock = t.clock
        assert isinstance(clock, VirtualClock)
        for p in Player:
            clock.advance(t.stale_s + 0.01)
            t.submit(Ready(p))
        clock.advance(t.countdown_s + 0.01)
        plays = [a for a in t.game.legal_actions(Player.LEFT) if isinstance(a, Play)]
        if plays:
            t.submit(plays[0])
        if drop_right:
            _session.ended()

    assert isinstance(rec, Recorder)
    return _seat_app(table, start)


async def _settle(pilot: Pilot[Any]) -> None:
    await pilot.pause()
    await pilot.pause()


@pytest.mark.parametrize("drop", [False, True], ids=["play", "waiting"])
def test_join_screen(snap_compare: Snap, drop: bool) -> None:
    assert snap_compare(seat_app(drop), terminal_size=(100, 30), run_before=_settle)
