"""The wire between a host and its seats: length-prefixed JSON frames over
asyncio streams, a versioned handshake, and strict checks of every message.

Why not websockets: a frame here is a 4-byte big-endian length and a UTF-8
JSON object, so the size cap is checked before a byte of the body is read,
a truncated or slow-dripped frame is a plain `readexactly` under a timeout,
and the whole parser is a few lines a hypothesis fuzz can cover, with no new
dependency. A browser seat (issue 14 item 6) reaches the game through
textual-serve, not through this wire, so nothing here needs a browser's
transport. docs/protocol.md is the reference; this module is its one home.

Every incoming frame goes through `read_frame` (framing: size, truncation,
drip) and then `check_client_message` or `check_host_message` (shape: exact
keys, types and ranges). Anything wrong raises `ProtocolError`, whose text is
the one line the other side is told before its connection is closed.
"""

from __future__ import annotations

import asyncio
import json
import math
import struct
from collections.abc import Callable, Mapping
from typing import Any

from spit_tui.engine import Options, Variant

# 2: names in hello, quick, rematch, watch; 3: moved; 4: room options, the rooms
# list, a dropped seat's computer, a version in every first message; 5: what a
# closing `refused` ends (`ends`: the room, or the host) (docs/protocol.md)
VERSION = 5
MAX_FRAME = 16 * 1024  # bytes of JSON in one frame; a full view is about 900
HEADER = struct.Struct(">I")
FRAME_S = 5.0  # a frame that has begun must be complete this soon (slow drip)
MAX_TEXT = 200  # characters in any string field

Message = dict[str, Any]


class ProtocolError(Exception):
    """A frame or message that breaks the protocol; the text says how (one line)."""


# One encoder for every message (json.dumps with options builds a new one per call).
_JSON = json.JSONEncoder(separators=(",", ":"), ensure_ascii=True, allow_nan=False)


def to_json(msg: Mapping[str, Any]) -> bytes:
    """A message's JSON, as every frame carries it (ASCII, no NaN, no spaces)."""
    return _JSON.encode(msg).encode()


def frame(body: bytes) -> bytes:
    """A body (JSON bytes) as one frame. Our own messages are never too big;
    if one were, that is a bug."""
    if len(body) > MAX_FRAME:
        raise ValueError(f"message of {len(body)} bytes is over the {MAX_FRAME}-byte cap")
    return HEADER.pack(len(body)) + body


def encode(msg: Mapping[str, Any]) -> bytes:
    """One message as one frame."""
    return frame(to_json(msg))


def _no_constant(name: str) -> object:
    raise ValueError(f"{name} is not JSON")


# One decoder for every frame (json.loads with an option builds a new one per call).
_DECODER = json.JSONDecoder(parse_constant=_no_constant)


def decode_body(body: bytes) -> Message:
    """A frame's body as a JSON object, or ProtocolError."""
    try:
        obj = _DECODER.decode(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise ProtocolError("a message that is not JSON") from None
    if not isinstance(obj, dict):
        raise ProtocolError("a message that is not a JSON object")
    return obj


def frame_length(header: bytes) -> int:
    """The body length a header announces, checked against the cap."""
    (n,) = HEADER.unpack(header)
    if n == 0:
        raise ProtocolError("an empty message")
    if n > MAX_FRAME:
        raise ProtocolError(f"a message of {n} bytes (the limit is {MAX_FRAME})")
    return int(n)


async def read_frame(
    reader: asyncio.StreamReader, frame_s: float = FRAME_S, until: float | None = None
) -> bytes | None:
    """The next frame's body; None at a clean end of stream (between frames).

    Waiting for a frame to begin has no limit here unless `until` (a loop time)
    is given: TimeoutError if no frame has begun by then (the caller decides
    how long a quiet connection may stay). Once its first byte is in, the rest
    must arrive within `frame_s`, so a client dripping a byte a second is
    closed. One timer serves both (the host reads every message this way: one
    timer a message, not two)."""
    loop = asyncio.get_running_loop()
    dripping = False  # the frame's own limit is the one running
    try:
        async with asyncio.timeout_at(until) as timer:
            try:
                first = await reader.readexactly(1)
            except asyncio.IncompleteReadError:
                return None
            due = loop.time() + frame_s
            if until is None or due <= until:
                dripping = True
                timer.reschedule(due)
            try:
                header = first + await reader.readexactly(HEADER.size - 1)
                return await reader.readexactly(frame_length(header))
            except asyncio.IncompleteReadError:
                raise ProtocolError("a message cut short") from None
    except TimeoutError:
        if dripping:
            raise ProtocolError(f"a message not complete within {frame_s:g} s") from None
        raise


# -- message shapes -----------------------------------------------------------------

Check = Callable[[Any], bool]


# The combinators every check of a message uses (the view's too: seatview).


def int_in(lo: int, hi: int) -> Check:
    return lambda v: type(v) is int and lo <= v <= hi


def text(v: Any) -> bool:
    """A short printable string: no control character ever reaches a terminal."""
    return isinstance(v, str) and 0 < len(v) <= MAX_TEXT and v.isprintable()


def one_of(*choices: str) -> Check:
    return lambda v: isinstance(v, str) and v in choices


def optional(check: Check) -> Check:
    return lambda v: v is None or check(v)


def boolean(v: Any) -> bool:
    return type(v) is bool


def seconds(lo: float, hi: float) -> Check:
    """A finite JSON number from `lo` to `hi` (booleans are not numbers here)."""
    return lambda v: type(v) in (int, float) and math.isfinite(v) and lo <= v <= hi


def list_of(check: Check, lo: int, hi: int) -> Check:
    """A list of `lo` to `hi` items, each passing `check`."""
    return lambda v: isinstance(v, list) and lo <= len(v) <= hi and all(map(check, v))


def shaped(fields: Mapping[str, Check]) -> Check:
    """An object with exactly these fields, each passing its check."""
    return lambda v: (
        isinstance(v, dict) and v.keys() == fields.keys()
        and all(check(v[k]) for k, check in fields.items())
    )


def host_text(v: Any) -> bool:
    """A host name or address as a resolver could take it (ASCII letters,
    digits and . - _ :, at most 253): what `join` accepts, and nothing a
    terminal could misread."""
    return (
        isinstance(v, str) and 0 < len(v) <= 253
        and all(c.isascii() and (c.isalnum() or c in ".-_:") for c in v)
    )  # fmt: skip


def player_name(v: Any) -> bool:
    """A player's name as names.name_problem allows it."""
    from spit_tui.names import name_problem

    return isinstance(v, str) and name_problem(v) is None and v == v.strip()


def record_line(v: Any) -> bool:
    """One line of a game's record: printable ASCII, at most RECORD_LINE characters."""
    return isinstance(v, str) and len(v) <= RECORD_LINE and v.isascii() and v.isprintable()


RECORD_LINE = 400  # characters in one line of a record sent at game over
RECORD_PARTS = 100  # messages one record is sent in, at most (records.MAX_RECORD_BYTES)
ROWS = ("a", "b", "fill", "flip")
SEATS = ("left", "right")
SLOT_MAX = 4
PING_MAX = 2**31 - 1
VARIANTS = ("standard", "points")
LEVEL_MAX = 99  # a computer level on the wire (the ladder's rungs are fewer: the host checks)
MAX_LISTED = 20  # watchable rooms in one `rooms` answer
# what a `refused` to a seat or watcher ends besides the connection: "room" (its
# game stopped or its players gone: the host goes on), "host" (the host is stopping)
ENDS = ("room", "host")
version_field = int_in(0, 2**16)
# a room's options on the wire (new_room); `computer`: the level that plays RIGHT, or null
room_options = shaped({
    "variant": one_of(*VARIANTS),
    "target": int_in(1, 10_000),
    "manual_flip": boolean,
    "computer": optional(int_in(1, LEVEL_MAX)),
})  # fmt: skip
listed_room = shaped({
    "code": text,
    "names": list_of(text, 2, 2),
    "variant": one_of(*VARIANTS),
    "target": int_in(1, 10_000),
    "computer": boolean,
    "watchers": int_in(0, 10_000),
    "match": optional(list_of(int_in(0, 10_000), 2, 2)),
})  # fmt: skip
# the messages a client may open a connection with: each carries its version
FIRST = ("hello", "new_room", "quick", "daily", "watch", "rooms")

# type -> {field: check}; every field is required but those of MAY_LACK, and no
# other field is allowed.
CLIENT_MESSAGES: dict[str, dict[str, Check]] = {
    "hello": {
        "version": version_field,
        "code": text,
        "seat": optional(one_of(*SEATS)),
        "token": optional(text),
        "name": optional(player_name),
        "door": optional(text),  # may be left out: a pass from the SSH door (its guest's key)
    },
    "intent": {"row": one_of(*ROWS), "slot": int_in(0, SLOT_MAX)},
    "ping": {"id": int_in(0, PING_MAX)},
    "pong": {"id": int_in(0, PING_MAX)},
    "new_room": {"version": version_field, "options": optional(room_options)},
    "quick": {"version": version_field},
    "daily": {"version": version_field},  # a room of today's daily deal against the computer
    "rematch": {},
    "record": {},  # after game over: the finished game's record, for the seat's own history
    "watch": {"version": version_field, "code": text},
    "rooms": {"version": version_field},
    "takeover": {},
    "bye": {},
}

MAY_LACK: dict[str, frozenset[str]] = {
    "hello": frozenset({"door"}),  # added within version 2
    # left out of every refusal before a welcome, so a client of any version
    # reads the version refusal (a version 4 client knows no `ends`)
    "refused": frozenset({"ends"}),
}

HOST_MESSAGES: dict[str, dict[str, Check]] = {
    "welcome": {
        "version": int_in(0, 2**16),
        "room": text,
        "seat": one_of(*SEATS),
        "token": text,
        "stale_s": seconds(0, 10),
    },
    "view": {},  # its body is checked by seatview.scene_from_wire
    # `ends` (left out: this connection only): what else ends with it (ENDS)
    "refused": {"reason": text, "ends": one_of(*ENDS)},
    "pong": {"id": int_in(0, PING_MAX)},
    "ping": {"id": int_in(0, PING_MAX)},
    "room": {"code": text},
    "rooms": {"rooms": list_of(listed_room, 0, MAX_LISTED)},
    "watching": {"room": text, "stale_s": seconds(0, 10)},
    "dropped": {"name": text, "level": int_in(1, LEVEL_MAX), "pace": text},
    "bye": {"reason": text},
    "record": {  # the answer to `record`, in parts of whole lines
        "part": int_in(1, RECORD_PARTS),
        "parts": int_in(1, RECORD_PARTS),
        "lines": list_of(record_line, 0, 10_000),
        "lost": list_of(int_in(0, 10**6), 2, 2),  # races each seat lost (D13), for stats
        "play_s": seconds(0, 10**7),
    },
    "moved": {"host": host_text, "port": int_in(1, 65535), "code": text},
}


def check_message(msg: Message, shapes: dict[str, dict[str, Check]]) -> Message:
    """`msg` if its type is one of `shapes` and its fields are exactly that
    type's, each passing its check; else ProtocolError (a view's body is
    left to seatview.scene_from_wire)."""
    kind = msg.get("type")
    if not isinstance(kind, str) or kind not in shapes:
        raise ProtocolError("a message of no known type")
    fields = shapes[kind]
    if not fields and kind == "view":
        return msg
    extra = set(msg) - set(fields) - {"type"}
    if extra:
        raise ProtocolError(f"a {kind} message with an unknown field")
    for name, check in fields.items():
        if name not in msg:
            if name in MAY_LACK.get(kind, ()):
                continue
            raise ProtocolError(f"a {kind} message without {name}")
        if not check(msg[name]):
            raise ProtocolError(f"a {kind} message with a bad {name}")
    return msg


def check_client_message(body: bytes) -> Message:
    """A frame from a seat, decoded and checked, or ProtocolError. A first
    message (hello, new_room, quick, watch, rooms) of another version is
    refused as that, before its fields are checked (a version 1 hello has no
    name, and "without name" would not tell its player what to do); one with
    no version at all is an older client's new_room, quick or watch (before 4)."""
    msg = decode_body(body)
    version = msg.get("version")
    if msg.get("type") in FIRST:
        if version is None and msg.get("type") != "hello":
            raise ProtocolError(version_refusal(None))
        if type(version) is int and version != VERSION:
            raise ProtocolError(version_refusal(version))
    return check_message(msg, CLIENT_MESSAGES)


def version_refusal(version: int | None) -> str:
    """The one line a client of another protocol version is told (None: an
    older one that did not say which)."""
    newer = version is not None and version > VERSION
    update = "this host" if newer else "your spit-tui"
    speaks = "an older one" if version is None else f"{version}"
    return (
        f"this host speaks protocol version {VERSION}, your spit-tui speaks {speaks}: "
        f"update {update} (pip install -U spit-tui)"
    )


def older_host(reason: str) -> bool:
    """A refusal that says the host does not know a message this version sends
    first (a version 2 host: "a message of no known type", "a new_room message
    with an unknown field"): the host is older than this client."""
    return reason == "a message of no known type" or reason.endswith("with an unknown field")


def check_host_message(body: bytes) -> Message:
    """A frame from the host, decoded and checked (a view's body: seatview), or ProtocolError."""
    return check_message(decode_body(body), HOST_MESSAGES)


def hello(
    code: str, seat: str | None = None, token: str | None = None, name: str | None = None,
    door: str | None = None,
) -> Message:
    msg: Message = {
        "type": "hello", "version": VERSION, "code": code, "seat": seat, "token": token,
        "name": name,
    }  # fmt: skip
    if door is not None:  # left out otherwise: a host from before it knows no such field
        msg["door"] = door
    return msg


def first(kind: str, **fields: Any) -> Message:
    """A message a connection opens with (new_room, quick, watch, rooms): with our version."""
    return {"type": kind, "version": VERSION, **fields}


def options_to_wire(options: Options, computer: int | None = None) -> Message:
    return {
        "variant": str(options.variant), "target": options.target,
        "manual_flip": options.manual_flip, "computer": computer,
    }  # fmt: skip


def options_from_wire(wire: Message) -> tuple[Options, int | None]:
    """A checked `room_options` value: the options, and the computer's level (or None)."""
    options = Options(Variant(wire["variant"]), wire["target"], wire["manual_flip"])
    return options, wire["computer"]


def intent(row: str, slot: int) -> Message:
    return {"type": "intent", "row": row, "slot": slot}


def refused(reason: str, ends: str | None = None) -> Message:
    """A host's closing line; `ends` (ENDS) only to a seat or watcher that
    was welcomed (so of this version): what ends besides the connection."""
    if ends is None:
        return {"type": "refused", "reason": reason}
    return {"type": "refused", "reason": reason, "ends": ends}
