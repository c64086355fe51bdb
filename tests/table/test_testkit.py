"""The test kit itself: a table at a position on its virtual clock, the named
sizes, and a running host as a fixture (127.0.0.1, a free port, closed after)."""

from __future__ import annotations

from testkit.sizes import SIZES, SMALLEST, STANDARD
from testkit.table import clock_of, table_at

from spit_tui.app.screens import MIN_H, MIN_W
from spit_tui.engine import Game, Phase, Player, Ready
from spit_tui.net.client import Client
from spit_tui.net.host import Host
from spit_tui.table import Outcome


def test_a_table_at_a_position_runs_on_its_own_virtual_clock() -> None:
    t = table_at("spit 1 two - :5d/-/-/-/- 4s -/- :6d/-/-/-/- 8c 0,0", stale_s=0.0)
    assert t.position.phase is Phase.SPIT
    clock = clock_of(t)
    assert t.submit(Ready(Player.LEFT)).outcome is Outcome.APPLIED
    clock.advance(1.0)
    assert t.clock.now() == 1.0
    assert table_at(seed=5).game.start == Game(seed=5).start  # None: the seed's deal


def test_the_named_sizes_are_the_games_own() -> None:
    assert SMALLEST == (MIN_W, MIN_H) and STANDARD == (100, 30)
    assert SIZES["too small"][0] < MIN_W


async def test_a_running_host_takes_seats_on_loopback(running_host: Host) -> None:
    room = running_host.new_room()
    left = await Client.join("127.0.0.1", running_host.port, room.code)
    assert left.seat is Player.LEFT
    await left.close()
