"""The seat's side of the wire, with no socket in it (websockets' sans-I/O idea).

`SeatProtocol` turns what the host sends (bytes, or messages for the host's
own in-process seat) into seat events, and the seat's key presses into
messages, and keeps every judgement about the host in one place: the
handshake (only a checked `welcome` seats us; only a checked `refused` gives
a reason, and that reason is printable text by its check), every frame and
message checked (protocol.py, seatview.py), a frame that drips, a host that
goes silent (`IDLE_PINGS` of the host's ping intervals: the host pings every
seat all the time, so silence means a stopped or stalled host), and a host
that never reads what we send (`MAX_OUT` bytes left unsent). Each of these
ends the seat with one `Ended`, whose `kind` says what to do: "host" (the
host said why), "refused", "lost" (the line went down: try again), "silent",
"broke" (the host broke the protocol), "stuck" (the host does not read) or
"moved" (before a welcome: the room is on another host, in `moved`).

The shells are thin: `net.client.Client` feeds it a TCP stream and writes what
it has to send; `net.seat.LocalSeat` feeds it the host's messages in process.
There is one ping loop, the host's: a seat only answers.
"""

from __future__ import annotations

from typing import NamedTuple

from spit_tui.engine import Player
from spit_tui.keys.intent import Row
from spit_tui.scene import Scene

from .latency import PING_S
from .protocol import (
    FRAME_S,
    HEADER,
    HOST_MESSAGES,
    Message,
    ProtocolError,
    check_message,
    decode_body,
    encode,
    first,
    frame_length,
    hello,
    intent,
)
from .seatview import SEAT_NAMES, scene_from_wire

IDLE_PINGS = 3  # a host that sends nothing for this many of its ping intervals is gone
IDLE_S = IDLE_PINGS * PING_S
# Between two ticks (the shell's are client.WATCH_S apart) at most this much counts as the
# host's silence: the rest, the seat's own loop stood still (busy, stopped, or a host
# in the same process stalled with it), not listening. Never all of the gap: a seat
# ticking late all the time still notices a silent host, later.
STILL_S = PING_S / 2
MAX_OUT = 64 * 1024  # bytes the host may leave unread before the seat gives up on it


class Welcomed(NamedTuple):
    """The host seated us."""

    seat: Player
    token: str
    room: str
    stale_s: float


class Shown(NamedTuple):
    """A new scene from the host, and how many of our keys it has decided."""

    scene: Scene
    heard: int


class Ended(NamedTuple):
    """The seat is over: `reason` is one printable line; `kind` says why (module
    doc); `ends`, when the host ended it ("host"): what ended with it, as its
    `refused` said ("room": the room, the host goes on; "host": the host is
    stopping; None: this connection only)."""

    reason: str
    kind: str
    ends: str | None = None


class Recorded(NamedTuple):
    """The host's record of the game just finished (asked for at game over),
    whole, as it was sent: untrusted text, for the seat's own history to check."""

    text: str
    lost: tuple[int, int]  # races each seat lost
    play_s: float


class Offered(NamedTuple):
    """The other seat's player did not come back in time: the computer may
    finish their seat (at `level`, measured from `pace`, in words), or we stop."""

    name: str
    level: int
    pace: str


Event = Welcomed | Shown | Ended | Recorded | Offered


class SeatProtocol:
    """One seat's protocol state: bytes or messages in, events out; presses in, bytes out."""

    def __init__(
        self, now: float, *, idle_s: float = IDLE_S, frame_s: float = FRAME_S,
        max_out: int = MAX_OUT,
    ) -> None:
        self.idle_s = idle_s
        self.frame_s = frame_s
        self.max_out = max_out
        self.seat: Player | None = None  # once welcomed
        self.ended: Ended | None = None
        self.heard_at = now  # when the host last sent anything
        self._ticked_at = now  # the shell's last tick
        self._in = bytearray()
        self._frame_since: float | None = None  # a frame has begun and is not complete
        self._out: list[Message] = []
        self.most_unsent = 0  # the most bytes the shell has reported unsent (a figure)
        self._record: list[str] = []  # the lines of a record coming in parts
        self._parts = 0  # the parts of it read so far
        self._asked = False  # a record was asked for and has not all come yet
        self.moved: tuple[str, int, str] | None = None  # (host, port, code): the room is there

    def seated(self, seat: Player) -> None:
        """Seated without a handshake: the host's own seat, in its process."""
        self.seat = seat

    # -- what the seat sends ----------------------------------------------------------

    def hello(
        self, code: str, seat: str | None = None, token: str | None = None,
        name: str | None = None, door: str | None = None,
    ) -> None:
        self._send(hello(code, seat, token, name, door))

    def watch(self, code: str) -> None:
        """Watch room `code` instead of taking a seat: its views come as LEFT's."""
        self._send(first("watch", code=code))

    def press(self, row: Row, slot: int) -> None:
        """A key of this seat's half."""
        self._send(intent(row.value, slot))

    def bye(self) -> None:
        self._send({"type": "bye"})

    def rematch(self) -> None:
        """Ask for another game in this room (after game over; both must ask)."""
        self._send({"type": "rematch"})

    def ask_record(self) -> None:
        """Ask for the finished game's record (after game over), for our own history."""
        self._asked = True
        self._send({"type": "record"})
    def takeover(self) -> None:
        """Let the computer finish the seat of the player who did not come back."""
        self._send({"type": "takeover"})

    def _send(self, msg: Message) -> None:
        if self.ended is None:
            self._out.append(msg)

    def messages_to_send(self) -> list[Message]:
        """What the seat has to send, as messages (an in-process seat), emptied."""
        out, self._out = self._out, []
        return out

    def data_to_send(self) -> bytes:
        """What the seat has to send, as frames (a socket), emptied."""
        return b"".join(encode(m) for m in self.messages_to_send())

    def unsent(self, n: int) -> list[Event]:
        """The shell's transport still holds `n` bytes we wrote: past MAX_OUT,
        the host is not reading (while it may well keep writing)."""
        self.most_unsent = max(self.most_unsent, n)
        if n > self.max_out and self.ended is None:
            return self._end("the host stopped reading what this seat sends", "stuck")
        return []

    # -- what the host sends ----------------------------------------------------------

    def receive_data(self, data: bytes, now: float) -> list[Event]:
        """Bytes from the host's stream: every complete frame, checked, as events."""
        if self.ended is not None or not data:
            return []
        self.heard_at = now
        self._in += data
        events: list[Event] = []
        while self.ended is None and self._in:
            if self._frame_since is None:
                self._frame_since = now
            if len(self._in) < HEADER.size:
                break
            try:
                n = frame_length(bytes(self._in[: HEADER.size]))
            except ProtocolError as e:
                return events + self._broke(e)
            if len(self._in) < HEADER.size + n:
                break
            body = bytes(self._in[HEADER.size : HEADER.size + n])
            del self._in[: HEADER.size + n]
            self._frame_since = None
            try:
                msg = decode_body(body)
            except ProtocolError as e:
                return events + self._broke(e)
            events += self.receive_message(msg, now)
        return events

    def receive_eof(self) -> list[Event]:
        """The host's stream ended."""
        if self.ended is not None:
            return []
        if self._in:
            return self._broke(ProtocolError("a message cut short"))
        if self.seat is None:
            return self._end("the host closed the connection", "refused")
        return self._end("the host closed the connection", "lost")

    def connection_lost(self, why: str = "the connection to the host was lost") -> list[Event]:
        return [] if self.ended is not None else self._end(why, "lost")

    def receive_message(self, msg: Message, now: float) -> list[Event]:
        """One message from the host (a socket's frame, or the in-process host's)."""
        if self.ended is not None:
            return []
        self.heard_at = now
        try:
            return self._take(check_message(msg, HOST_MESSAGES), now)
        except ProtocolError as e:
            return self._broke(e)

    def _take(self, msg: Message, now: float) -> list[Event]:
        kind = msg["type"]
        if kind == "refused":
            if self.seat is None:
                return self._end(msg["reason"], "refused")
            return self._end(msg["reason"], "host", msg.get("ends"))
        if kind == "bye":
            return self._end(msg["reason"], "host")
        if kind == "ping":  # the host measures our distance (latency equalisation)
            self._send({"type": "pong", "id": msg["id"]})
            return []
        if kind == "pong":
            return []  # a seat sends no pings: nothing to match
        if self.seat is None:
            if kind == "moved":  # the room is on another host of the directory: go there
                self.moved = (msg["host"], msg["port"], msg["code"])
                return self._end(f"the room is on {msg['host']}:{msg['port']}", "moved")
            if kind == "watching":  # a watcher: the views are drawn as LEFT's side
                self.seat = Player.LEFT
                return [Welcomed(Player.LEFT, "", msg["room"], float(msg["stale_s"]))]
            if kind != "welcome":
                raise ProtocolError(f"a {kind} message before the welcome")
            self.seat = seat = Player(SEAT_NAMES.index(msg["seat"]))
            return [Welcomed(seat, msg["token"], msg["room"], float(msg["stale_s"]))]
        if kind == "view":
            return [Shown(scene_from_wire(msg, self.seat, now), msg["heard"])]
        if kind == "record":
            return self._record_part(msg)
        if kind == "dropped":
            return [Offered(msg["name"], msg["level"], msg["pace"])]
        raise ProtocolError(f"a {kind} message after the welcome")

    def _record_part(self, msg: Message) -> list[Event]:
        """One part of a record: the parts come in order, 1 to `parts`, and
        only when asked for (a host sending records unasked would make us read
        and replay them for nothing)."""
        if not self._asked:
            raise ProtocolError("a record message not asked for")
        if msg["part"] != self._parts + 1 or msg["part"] > msg["parts"]:
            raise ProtocolError("a record message out of order")
        self._parts += 1
        self._record += msg["lines"]
        if self._parts < msg["parts"]:
            return []
        text = "\n".join(self._record) + "\n"
        self._record, self._parts, self._asked = [], 0, False
        lost = msg["lost"]
        return [Recorded(text, (lost[0], lost[1]), float(msg["play_s"]))]

    def tick(self, now: float) -> list[Event]:
        """Time passed: a frame that drips, or a host silent too long, ends the seat.

        Silence is counted while the seat listens: of a gap between ticks longer
        than STILL_S, only STILL_S counts (the seat's own loop stood still)."""
        if self.ended is not None:
            return []
        gap, self._ticked_at = now - self._ticked_at, now
        if gap > STILL_S:
            self.heard_at = min(now, self.heard_at + gap - STILL_S)
        if self._frame_since is not None and now - self._frame_since > self.frame_s:
            return self._broke(ProtocolError(f"a message not complete within {self.frame_s:g} s"))
        if now - self.heard_at > self.idle_s:
            return self._end(f"the host has sent nothing for {self.idle_s:g} s", "silent")
        return []

    def _broke(self, e: ProtocolError) -> list[Event]:
        return self._end(f"the host sent {e}", "broke")

    def _end(self, reason: str, kind: str, ends: str | None = None) -> list[Event]:
        self.ended = Ended(reason, kind, ends)
        self._out = []
        return [self.ended]
