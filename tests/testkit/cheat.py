"""Races through a real host on 127.0.0.1 between an honest seat and one that
answers every ping LATE_S late (a modified client), for test_fair_cheat.py
and the numbers in docs/reliability.md."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random

from spit_tui.engine import Player
from spit_tui.net.host import Host
from spit_tui.net.protocol import HEADER, encode, hello, intent
from spit_tui.net.race import RACE_KEYS, race_game, race_winner
from spit_tui.net.seat import LocalSeat

LATE_S = 0.290
WARM_S = 2.6  # five pings a seat
SETTLE_S = 0.4  # both screens have the race (a view held 150 ms at most)
RACE_S = 1.0


class RawSeat:
    """A seat on a real socket that answers pings `late` seconds late."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 late: float) -> None:
        self.reader, self.writer, self.late = reader, writer, late
        self.task = asyncio.create_task(self._read())

    @classmethod
    async def sit(cls, h: Host, code: str, seat: str, late: float) -> RawSeat:
        r, w = await asyncio.open_connection("127.0.0.1", h.port)
        w.write(encode(hello(code, seat)))
        return cls(r, w, late)

    async def _read(self) -> None:
        loop = asyncio.get_running_loop()
        with contextlib.suppress(asyncio.IncompleteReadError, ConnectionError):
            while True:
                (n,) = HEADER.unpack(await self.reader.readexactly(HEADER.size))
                msg = json.loads(await self.reader.readexactly(n))
                if msg["type"] == "ping":
                    pong = encode({"type": "pong", "id": msg["id"]})
                    loop.call_later(self.late, self._write, pong)

    def _write(self, data: bytes) -> None:
        if not self.writer.is_closing():
            self.writer.write(data)

    def press(self, row: str, slot: int) -> None:
        self._write(encode(intent(row, slot)))

    def close(self) -> None:
        self.task.cancel()
        self.writer.close()


async def cheat_races(own_seat: bool, races: int = 20, seed: int = 1,
                      trust_pongs: bool = False) -> tuple[int, tuple[float, float]]:
    """RIGHT answers pings LATE_S late; LEFT is an honest socket (or, with
    `own_seat`, the host's own seat) and presses 20-120 ms sooner in every
    race. (RIGHT's wins, the holds the room settled on)."""
    h = Host(port=0, seed=seed, trust_pongs=trust_pongs)
    await h.start()
    loop = asyncio.get_running_loop()
    try:
        room = h.new_room()
        left: RawSeat | LocalSeat
        if own_seat:
            left = LocalSeat(room, Player.LEFT)
            room.take({"token": None, "seat": "left"})
            room.attach(Player.LEFT, left)
        else:
            left = await RawSeat.sit(h, room.code, "left", 0.0)
        right = await RawSeat.sit(h, room.code, "right", LATE_S)
        await asyncio.sleep(WARM_S)
        holds = room.holds()
        rng = random.Random(seed)
        wins = 0
        table = room.table
        for _ in range(races):
            seq = table.decisions[-1].seq if table.decisions else -1
            table.clock.update()
            table.new_game(race_game())
            room.poke()
            await asyncio.sleep(SETTLE_S)
            t0 = loop.time()
            loop.call_at(t0, left.press, *RACE_KEYS[Player.LEFT])
            loop.call_at(t0 + rng.uniform(0.020, 0.120), right.press, *RACE_KEYS[Player.RIGHT])
            end = t0 + RACE_S
            while loop.time() < end:
                if len({d.player for d in table.decisions if d.seq > seq}) == 2:
                    break
                await asyncio.sleep(0.005)
            wins += race_winner(table) is Player.RIGHT
        for seat in (left, right):
            if isinstance(seat, RawSeat):
                seat.close()
            else:
                seat.leave()
        return wins, holds
    finally:
        await h.close()
