"""Helpers for the join tests: the app seated at a real host on 127.0.0.1,
waiting on conditions with a bound, and the cards a host's table shows."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

from spit_tui.app import SpitApp
from spit_tui.app.join import seat_app
from spit_tui.clock import RealClock
from spit_tui.engine import Card, Phase, Player, Position
from spit_tui.keys.intent import Row
from spit_tui.net.client import Client
from spit_tui.net.host import Host, Timings
from spit_tui.net.joincmd import connect
from spit_tui.net.remote import RemoteSeat
from spit_tui.net.room import Room
from spit_tui.net.seat import NetSeat, Tokens
from spit_tui.scene import Scene

FAST = Timings(countdown_s=0.05, stale_s=0.05, stuck_delay_s=0.05)
BOUND_S = 15.0  # a bound on every wait, not a speed


async def until(cond: Callable[[], object], what: str, timeout: float = BOUND_S) -> None:
    async with asyncio.timeout(timeout):
        while not cond():
            await asyncio.sleep(0.01)
    assert cond(), what


def join_app(
    client: Client, host: Host, code: str, tokens: Tokens, retries: int = 5, retry_s: float = 0.1
) -> tuple[SpitApp, NetSeat, RemoteSeat]:
    net = NetSeat(client, "127.0.0.1", host.port, code, tokens, retries=retries, retry_s=retry_s)
    table = RemoteSeat(client.seat, net.press, RealClock(), client.stale_s)

    async def run(app: SpitApp) -> None:
        await net.run(table, lambda line: app.finish(f"spit-tui join: {line}", net.end_status))

    return seat_app(table, run), net, table


async def seated(
    host: Host, code: str, seat: str, tmp: Path
) -> tuple[SpitApp, NetSeat, RemoteSeat]:
    tokens = Tokens(tmp / "seats.json")
    client = await connect("127.0.0.1", host.port, code, seat, tokens)
    assert isinstance(client, Client), client
    return join_app(client, host, code, tokens)


def public_cards(pos: Position) -> set[Card]:
    out = {s.face_up for side in pos.sides for s in side.slots if s.face_up is not None}
    return out | {p[-1] for p in pos.piles if p}


def shown_cards(scene: Scene) -> set[Card]:
    """Every card a seat's scene holds: tops, pile tops, the feed, nothing else."""
    tops = {c for side in scene.sides for c in side.tops if c is not None}
    return tops | {c for c in scene.pile_tops if c is not None} | {
        c for e in scene.feed for c in e.cards
    }


SEATS = {Player.LEFT: "left", Player.RIGHT: "right"}


class HeadlessBoard:
    """The one start-up's Board as `join` and `watch` use it, with the app run
    headless (the lobby's loop, `watch_room`)."""

    def check_terminal(self) -> None:
        return None

    def asks_keyboard(self) -> bool:
        return False

    async def run(self, app: SpitApp) -> int:
        await app.run_async(headless=True, size=(100, 30))
        if app.end_line is not None:  # as Board.run: said once the board is gone
            print(app.end_line, file=sys.stderr)
        return app.return_code or 0


@asynccontextmanager
async def a_room_in_play() -> AsyncIterator[tuple[Host, Room, Client, Client]]:
    """A host whose room ana (LEFT) and ben (RIGHT) play, past the first spit."""
    host = Host(port=0, timings=FAST, seed=3, wait_s=120.0)
    await host.start()
    try:
        room = host.new_room()
        ana = await Client.join("127.0.0.1", host.port, room.code, "left", name="ana")
        ben = await Client.join("127.0.0.1", host.port, room.code, "right", name="ben")
        await asyncio.sleep(FAST.stale_s + 0.05)
        ana.press(Row.PILE_A, 0)
        ben.press(Row.PILE_A, 0)
        await until(lambda: room.table.position.phase is Phase.PLAY, "in play")
        try:
            yield host, room, ana, ben
        finally:
            await ana.close()
            await ben.close()
    finally:
        await host.close()
