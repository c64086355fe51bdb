"""benchmarks/scale.py's lean load seat reads a real host's views the way the
full client does: the same scene when its bot looks, the same `heard`, and a
gist (the view less pings and clocks) that changes exactly when the full
client's does. A real Host on loopback, two lean seats played by bots."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

from scale import LeanClient  # benchmarks/scale.py (pyproject's pytest pythonpath)

from spit_tui.net.client import Client, _gist, play_as_bot
from spit_tui.net.host import Host
from spit_tui.net.seatview import scene_from_wire
from spit_tui.players.ladder import LEVELS


class Kept(LeanClient):
    """A lean seat that also keeps every view's bytes and its gist."""

    def __init__(self, *args: Any) -> None:
        self.kept: list[tuple[bytes, object]] = []
        super().__init__(*args)

    def _answered(self) -> None:
        super()._answered()
        if self._body is not None:
            self.kept.append((self._body, self.gist()))


async def test_lean_seats_read_what_the_full_client_reads() -> None:
    host = Host(port=0, seed=3)
    await host.start()
    try:
        code = await Client.new_room("127.0.0.1", host.port)
        seats = [await Kept.join("127.0.0.1", host.port, code) for _ in range(2)]
        bots = [asyncio.create_task(play_as_bot(c, random.Random(i), level=LEVELS["expert"]))
                for i, c in enumerate(seats)]
        await asyncio.sleep(2.5)
        for b in bots:
            b.cancel()
        for seat in seats:
            assert isinstance(seat, Kept) and seat.seat is not None
            assert len(seat.samples) > 0  # its presses were answered (timed by `heard`)
            assert seat.heard == json.loads(seat.kept[-1][0])["heard"]
            last = scene_from_wire(json.loads(seat.kept[-1][0]), seat.seat, seat._raw_at)
            assert seat.latest == last  # unchecked, yet the checked reading's scene
            full = [_gist(scene_from_wire(json.loads(b), seat.seat)) for b, _ in seat.kept]
            lean = [g for _, g in seat.kept]
            changes = 0
            for i in range(1, len(full)):
                assert (full[i] == full[i - 1]) == (lean[i] == lean[i - 1])
                changes += full[i] != full[i - 1]
            assert changes > 0
            await seat.close()
    finally:
        await host.close()
