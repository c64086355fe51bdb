"""One connection to the host as the rooms see it, from its first byte to its
close: it rate-limits (its own bucket, and the strangers' budgets of
net.limits), checks every message (protocol.check_client_message), takes a
seat with the handshake, and closes itself, never anything else, on
anything wrong. No sockets: the host (net.host) hands it frames."""

from __future__ import annotations

from spit_tui.engine import Player
from spit_tui.keys.intent import Row
from spit_tui.players.ladder import TOP

from .limits import Bucket
from .protocol import (
    MAX_LISTED,
    VERSION,
    Message,
    ProtocolError,
    check_client_message,
    options_from_wire,
)
from .room import BURST, RATE, Conn, Lobby, Room, normal_code
from .seatview import SEAT_NAMES


class Session:
    """One connection to the host, from its first byte to its close."""

    def __init__(self, lobby: Lobby, conn: Conn, now: float, address: str = "") -> None:
        self.lobby = lobby
        self.conn = conn
        self.address = address  # the client's address, as the host's limits count it
        self.bucket = Bucket(RATE, BURST, now)
        lim = lobby.limits
        self.stranger = Bucket(lim.stranger_conn_rate, lim.stranger_conn_burst, now)
        self.room: Room | None = None
        self.seat: Player | None = None
        self.made_room = False
        self.watching: Room | None = None
        self.asking = False  # waiting for the directory's answer (net.directory)
        self.closed = False
        self.recorded: tuple[Room, int] | None = None  # the room game whose record was sent

    def receive(self, body: bytes, now: float) -> None:
        """One frame's body, as it arrived."""
        if self.closed:
            return
        if not self.bucket.take(now):
            self.close("too many messages: slow down")
            return
        try:
            msg = check_client_message(body)
        except ProtocolError as e:
            self.close(str(e))
            return
        self._dispatch(msg, now)

    def wait_s(self, now: float) -> float:
        """How long the host should wait before reading this connection's next
        message (net.limits): 0 for a player in a playing room, or for a
        stranger within its budgets (one message is then charged to each);
        else until they refill. A flood is paced by its own socket's buffers,
        costing the host nothing; closing it would only bring it straight
        back on a new connection."""
        room = self.room
        if room is not None and self.seat is not None and room.playing(now):
            return 0.0
        return self.lobby.strangers.charge(self.stranger, self.address, now)

    def _dispatch(self, msg: Message, now: float) -> None:
        kind = msg["type"]
        if kind == "ping":
            self.conn.send({"type": "pong", "id": msg["id"]})
        elif kind == "bye":
            if self.room is not None and self.seat is not None:
                self.room.leave(self.seat, self.conn)
            self.close("bye")
        elif self.asking:
            self.close("one question at a time: wait for the answer")
        elif kind == "hello":
            self._hello(msg, now)
        elif kind in ("new_room", "quick", "daily"):
            self._room(msg, now)
        elif kind == "rooms":
            if self.made_room or self.room is not None or self.watching is not None:
                self.close("one list of rooms per connection, before anything else")
                return
            self.made_room = True  # (one first message of this kind per connection)
            here = listed(self.lobby)
            far = self.lobby.far
            if far is None or len(here) >= MAX_LISTED:
                self.conn.send({"type": "rooms", "rooms": here})
            else:  # and the other hosts' (none if the directory does not answer)
                self.asking = True
                far.rooms(MAX_LISTED - len(here), lambda more: self._answer(
                    {"type": "rooms", "rooms": here + more}))
        elif kind == "watch":
            self._watch(msg, now)
        elif self.watching is not None:
            if kind != "pong":  # (its pongs say it is there: nothing to measure)
                self.close("a watcher has no keys")
        elif self.room is None or self.seat is None:
            self.close("say hello first")
        elif kind == "pong":
            self.room.pong(self.seat, msg["id"], now)
        elif kind == "rematch":
            self.room.want_rematch(self.seat)
        elif kind == "record":
            self._record(self.room)
        elif kind == "takeover":
            self.room.take_offer(self.seat)
        else:
            self.room.submit(self.seat, Row(msg["row"]), msg["slot"])

    def _record(self, room: Room) -> None:
        """The finished game's record, for the seat's own history: once a game
        per connection (it can be long), and never before game over (it holds
        the cards nobody has seen): asked before, it is not sent."""
        if not room.table.game.over or self.recorded == (room, room.games):
            return
        self.recorded = (room, room.games)
        for msg in room.record_parts():
            self.conn.send(msg)

    def _room(self, msg: Message, now: float) -> None:
        """A new room (`new_room`, with its own options if given), or a quick
        match's (`quick`: the room where the next player waits, or will): tell
        its code, which the connection may then say hello to. One per connection."""
        if self.made_room or self.room is not None:
            self.close("one new room per connection")
            return
        far = self.lobby.far
        if msg["type"] == "quick" and far is not None:  # paired across the hosts
            self.asking = True
            far.quick(now, self.address, self._answer)
            return
        if msg["type"] == "quick":
            room = self.lobby.quick_room(now, self.address)
        elif msg["type"] == "daily":
            room = self.lobby.daily_room(now, self.address)
        else:
            options, computer = (None, None)
            if msg["options"] is not None:
                options, computer = options_from_wire(msg["options"])
            if computer is not None and computer > TOP:
                self.close(f"no computer level {computer} on this host (1-{TOP})")
                return
            room = self.lobby.request_room(now, self.address, options, computer)
        if isinstance(room, str):
            self.close(room)
            return
        self.made_room = True
        self.conn.send({"type": "room", "code": room.code})

    def _watch(self, msg: Message, now: float) -> None:
        """Watch a room: its public board, no keys."""
        if self.room is not None or self.watching is not None:
            self.close("one room per connection")
            return
        room = self.lobby.rooms.get(normal_code(msg["code"]))
        if room is None:
            self._elsewhere(msg["code"])
            return
        self.conn.send({"type": "watching", "room": room.code, "stale_s": room.table.gate.stale_s})
        why = room.watch(self.conn)
        if why is not None:
            self.close(why)
            return
        self.watching = room

    def _hello(self, msg: Message, now: float) -> None:
        if self.room is not None or self.watching is not None:
            self.close("a second hello")
            return
        room = self.lobby.rooms.get(normal_code(msg["code"]))
        if room is None:
            self._elsewhere(msg["code"])
            return
        identity = None
        if msg.get("door") is not None:
            identity = self.lobby.vouched(msg["door"])
            if identity is None:
                self.close("a door pass this host did not give")
                return
        taken = room.take(msg, now)
        if isinstance(taken, str):
            self.close(taken)
            return
        p, token = taken
        self.room, self.seat = room, p
        if msg["name"] is not None:
            room.name_seat(p, msg["name"])
        if identity is not None:
            room.seats[p].identity = identity
        room.seats[p].alive_at = now
        self.conn.send(
            {
                "type": "welcome",
                "version": VERSION,
                "room": room.code,
                "seat": SEAT_NAMES[p],
                "token": token,
                "stale_s": room.table.gate.stale_s,
            }
        )
        room.attach(p, self.conn)

    def _elsewhere(self, code: str) -> None:
        """A code this host does not hold: the directory may know its host."""
        far = self.lobby.far
        if far is None:
            self.close("no room with that code")
            return
        self.asking = True
        far.find(normal_code(code), self._answer)

    def _answer(self, msg: Message) -> None:
        """The directory's answer: `moved` (then this connection ends: the
        client goes to the room's host), a quick match's `room`, or `refused`."""
        self.asking = False
        if self.closed:
            return
        if msg["type"] == "refused":
            self.close(msg["reason"])
            return
        self.conn.send(msg)
        if msg["type"] == "moved":
            self.close("moved")
        elif msg["type"] == "room":
            self.made_room = True

    def close(self, reason: str) -> None:
        """Tell the client why (one line) and end this connection only."""
        if self.closed:
            return
        self.closed = True
        self.conn.close(reason)
        self.ended()

    def ended(self) -> None:
        """The connection is gone (closed here, or by the other side): free its seat."""
        self.closed = True
        if self.watching is not None:
            self.watching.unwatch(self.conn)
            self.watching = None
        if self.room is not None and self.seat is not None:
            self.room.detach(self.seat, self.conn)


def listed(lobby: Lobby) -> list[Message]:
    """The rooms a stranger may watch (`rooms`): games with both seats taken,
    so a code from this list can only watch, never take a seat; the newest
    first, at most MAX_LISTED."""
    out: list[Message] = []
    for room in reversed(list(lobby.rooms.values())):
        if len(out) >= MAX_LISTED:
            break
        shown = show(room)
        if shown is not None:
            out.append(shown)
    return out


def show(room: Room) -> Message | None:
    """A room as the list of watchable rooms gives it, or None if it is not
    one to watch (a seat still free: someone's invitation, not a show). The
    directory (net.redisdir) lists it for the other hosts' lobbies too."""
    if any(s.token is None for s in room.seats.values()):
        return None
    o = room.table.game.options
    wins, watchers = room.standing()
    return {
        "code": room.code, "names": list(room.table.seats.names), "variant": str(o.variant),
        "target": o.target, "computer": bool(room.computers), "watchers": watchers,
        "match": None if wins is None else list(wins),
    }  # fmt: skip
