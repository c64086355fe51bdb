"""Helpers for the network tests: a recording connection, in-process rooms on a
virtual clock, and the cards a position shows or hides."""

from __future__ import annotations

import json
import re

from spit_tui.clock import VirtualClock
from spit_tui.engine import Card, Game, Options, Position
from spit_tui.net.protocol import HEADER, Message, check_host_message, hello
from spit_tui.net.room import Lobby, Room
from spit_tui.net.session import Session
from spit_tui.table import Table

CARD = re.compile(r'"((?:[2-9TJQKA])[shdc])"')


class Recorder:
    """A Conn that keeps what the host sent, with the position at that moment."""

    def __init__(self, lob: Lobby) -> None:
        self.lobby = lob
        self.sent: list[tuple[Message, Position | None]] = []
        self.closed: str | None = None
        self.ends: str | None = None  # what the close said ended with it (protocol.ENDS)

    def send(self, msg: Message) -> None:
        json.dumps(msg, allow_nan=False)  # everything sent must be plain JSON
        room = next(iter(self.lobby.rooms.values()), None)
        self.sent.append((msg, None if room is None else room.table.position))

    def close(self, reason: str, ends: str | None = None) -> None:
        self.closed, self.ends = reason, ends

    def views(self) -> list[tuple[Message, Position]]:
        return [(m, p) for m, p in self.sent if m["type"] == "view" and p is not None]


class FrameRecorder(Recorder):
    """A Recorder that takes frames as a socket does (the host's views come
    encoded once for a whole room, seatview.WireView) and keeps what a client
    would read from each: its length checked, then the message."""

    def send_frame(self, data: bytes) -> None:
        (n,) = HEADER.unpack(data[: HEADER.size])
        assert n == len(data) - HEADER.size
        self.send(check_host_message(data[HEADER.size :]))


def lobby(seed: int = 1, options: Options | None = None, **timings: float) -> Lobby:
    def make() -> Table:
        return Table(Game(options=options or Options(), seed=seed), VirtualClock(), **timings)

    return Lobby(make)


def body(msg: Message) -> bytes:
    return json.dumps(msg).encode()


def join(lob: Lobby, room: Room, seat: str | None = None, token: str | None = None,
         code: str | None = None, name: str | None = None,
         frames: bool = False) -> tuple[Session, Recorder]:
    """A seat at `room`: its connection takes messages, or `frames` as a socket's does."""
    conn = FrameRecorder(lob) if frames else Recorder(lob)
    s = Session(lob, conn, room.table.clock.now())
    s.receive(body(hello(code or room.code, seat, token, name)), room.table.clock.now())
    return s, conn


def visible_cards(pos: Position) -> set[Card]:
    """The cards anyone at the table can see: face-up stockpile tops and pile tops."""
    out = {s.face_up for side in pos.sides for s in side.slots if s.face_up is not None}
    return out | {p[-1] for p in pos.piles if p}


def cards_in(msg: Message) -> set[str]:
    return set(CARD.findall(json.dumps(msg)))
