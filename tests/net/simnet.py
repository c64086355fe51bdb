"""A simulated network on the room's virtual clock: each seat is a Session
behind two links (host to seat, seat to host) with a delay and uniform
jitter per message, in order, so latency equalisation can be tested to the
microsecond without a socket or a real second passing."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

from spit_tui.clock import VirtualClock
from spit_tui.engine import Game, Player
from spit_tui.net.latency import PING_S
from spit_tui.net.protocol import Message, hello, intent
from spit_tui.net.race import race_game, race_winner
from spit_tui.net.room import Lobby, Room
from spit_tui.net.session import Session
from spit_tui.table import Table


class Link:
    """One direction: each message waits delay +/- jitter (uniform, at least 0), in order."""

    def __init__(self, clock: VirtualClock, rng: random.Random, delay: float, jitter: float,
                 deliver: Callable[[Any], None]) -> None:
        self.clock, self.rng, self.delay, self.jitter = clock, rng, delay, jitter
        self.deliver = deliver
        self.last = 0.0
        self.lowest = float("inf")  # the quickest this link carried anything

    def put(self, item: Any) -> None:
        d = max(0.0, self.delay + self.rng.uniform(-self.jitter, self.jitter))
        self.lowest = min(self.lowest, d)
        self.last = max(self.clock.now() + d, self.last + 1e-9)
        self.clock.call_at(self.last, lambda: self.deliver(item))


class SimSeat:
    """A seat's far end: answers the host's pings (`pong_delay` late, for a
    modified client) and keeps the views it is sent. Its `proven_rtt` stands
    for the host's TCP stack: the quickest the two links carried anything,
    which no answer held back by the seat's program can raise."""

    def __init__(self, lobby: Lobby, room: Room, seat: str, delay: float, jitter: float,
                 rng: random.Random, pong_delay: float = 0.0) -> None:
        self.pong_delay = pong_delay
        clock = room.table.clock
        assert isinstance(clock, VirtualClock)
        self.clock = clock
        self.session = Session(lobby, self, clock.now())
        self.down = Link(clock, rng, delay, jitter, self._arrive)
        self.up = Link(clock, rng, delay, jitter,
                       lambda b: self.session.receive(b, clock.now()))
        self.latest: Message | None = None
        self.on_view: Callable[[Message], None] = lambda msg: None
        self.closed: str | None = None
        # the hello goes straight in: the room's clock stands still until both are seated
        self.session.receive(json.dumps(hello(room.code, seat)).encode(), clock.now())

    def send(self, msg: Message) -> None:  # the host sends: it travels down the link
        self.down.put(msg)

    def close(self, reason: str, ends: str | None = None) -> None:
        self.closed = reason

    def proven_rtt(self) -> float | None:
        low = self.down.lowest + self.up.lowest
        return None if low == float("inf") else low

    def _arrive(self, msg: Message) -> None:
        if msg["type"] == "ping":
            pong = {"type": "pong", "id": msg["id"]}
            if self.pong_delay:
                self.clock.call_later(self.pong_delay, lambda: self.say(pong))
            else:
                self.say(pong)
        elif msg["type"] == "view":
            self.latest = msg
            self.on_view(msg)

    def say(self, msg: Message) -> None:
        self.up.put(json.dumps(msg).encode())

    def press(self, row: str, slot: int) -> None:
        self.say(intent(str(row), slot))


class SimRoom:
    """A room whose seats are `delays` (seconds, one way) away, with `jitter`."""

    def __init__(self, delays: tuple[float, float], jitter: float, *, seed: int = 1,
                 equalise: tuple[bool, bool] = (True, True),
                 pong_delays: tuple[float, float] = (0.0, 0.0)) -> None:
        def make() -> Table:
            return Table(Game(seed=seed), VirtualClock())

        self.lobby = Lobby(make)
        self.lobby.equalise = equalise
        self.room = self.lobby.new_room()
        self.clock = self.room.table.clock
        assert isinstance(self.clock, VirtualClock)
        rng = random.Random(seed)
        self.seats = {
            p: SimSeat(self.lobby, self.room, name, delays[p], jitter, rng, pong_delays[p])
            for p, name in zip(Player, ("left", "right"), strict=True)
        }
        self._ping()

    def _ping(self) -> None:
        self.room.ping(self.clock.now())
        self.clock.call_later(PING_S, self._ping)

    def race_position(self) -> None:
        self.room.table.new_game(race_game())

    def race_winner(self) -> Player | None:
        return race_winner(self.room.table)
