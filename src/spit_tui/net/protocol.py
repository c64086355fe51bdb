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
import struct
from collections.abc import Callable, Mapping
from typing import Any

VERSION = 1
MAX_FRAME = 16 * 1024  # bytes of JSON in one frame; a full view is about 900
HEADER = struct.Struct(">I")
FRAME_S = 5.0  # a frame that has begun must be complete this soon (slow drip)
MAX_TEXT = 200  # characters in any string field

Message = dict[str, Any]


class ProtocolError(Exception):
    """A frame or message that breaks the protocol; the text says how (one line)."""


def encode(msg: Mapping[str, Any]) -> bytes:
    """One frame. Our own messages are never too big; if one were, that is a bug."""
    body = json.dumps(msg, separators=(",", ":"), ensure_ascii=True, allow_nan=False).encode()
    if len(body) > MAX_FRAME:
        raise ValueError(f"message of {len(body)} bytes is over the {MAX_FRAME}-byte cap")
    return HEADER.pack(len(body)) + body


def _no_constant(name: str) -> object:
    raise ValueError(f"{name} is not JSON")


def decode_body(body: bytes) -> Message:
    """A frame's body as a JSON object, or ProtocolError."""
    try:
        obj = json.loads(body.decode("utf-8"), parse_constant=_no_constant)
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


async def read_frame(reader: asyncio.StreamReader, frame_s: float = FRAME_S) -> bytes | None:
    """The next frame's body; None at a clean end of stream (between frames).

    Waiting for a frame to begin has no limit here (the caller decides how long
    a quiet connection may stay); once its first byte is in, the rest must
    arrive within `frame_s`, so a client dripping a byte a second is closed."""
    try:
        first = await reader.readexactly(1)
    except asyncio.IncompleteReadError:
        return None
    try:
        async with asyncio.timeout(frame_s):
            header = first + await reader.readexactly(HEADER.size - 1)
            return await reader.readexactly(frame_length(header))
    except asyncio.IncompleteReadError:
        raise ProtocolError("a message cut short") from None
    except TimeoutError:
        raise ProtocolError(f"a message not complete within {frame_s:g} s") from None


# -- message shapes -----------------------------------------------------------------

Check = Callable[[Any], bool]


def _int(lo: int, hi: int) -> Check:
    return lambda v: type(v) is int and lo <= v <= hi


def _text(v: Any) -> bool:
    return isinstance(v, str) and 0 < len(v) <= MAX_TEXT and v.isprintable()


def _one_of(*choices: str) -> Check:
    return lambda v: isinstance(v, str) and v in choices


def _optional(check: Check) -> Check:
    return lambda v: v is None or check(v)


def _bool(v: Any) -> bool:
    return type(v) is bool


ROWS = ("a", "b", "fill", "flip")
SEATS = ("left", "right")
SLOT_MAX = 4
PING_MAX = 2**31 - 1

# type -> {field: check}; every field is required, and no other field is allowed.
CLIENT_MESSAGES: dict[str, dict[str, Check]] = {
    "hello": {
        "version": _int(0, 2**16),
        "code": _text,
        "seat": _optional(_one_of(*SEATS)),
        "token": _optional(_text),
    },
    "intent": {"row": _one_of(*ROWS), "slot": _int(0, SLOT_MAX)},
    "ping": {"id": _int(0, PING_MAX)},
    "pong": {"id": _int(0, PING_MAX)},
    "new_room": {},
    "bye": {},
}

HOST_MESSAGES: dict[str, dict[str, Check]] = {
    "welcome": {
        "version": _int(0, 2**16),
        "room": _text,
        "seat": _one_of(*SEATS),
        "token": _text,
        "stale_s": lambda v: type(v) in (int, float) and 0 <= v <= 10,
    },
    "view": {},  # its body is checked by seatview.read_view
    "refused": {"reason": _text},
    "pong": {"id": _int(0, PING_MAX)},
    "ping": {"id": _int(0, PING_MAX)},
    "room": {"code": _text},
    "bye": {"reason": _text},
}


def _check(msg: Message, shapes: dict[str, dict[str, Check]]) -> Message:
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
            raise ProtocolError(f"a {kind} message without {name}")
        if not check(msg[name]):
            raise ProtocolError(f"a {kind} message with a bad {name}")
    return msg


def check_client_message(body: bytes) -> Message:
    """A frame from a seat, decoded and checked, or ProtocolError."""
    return _check(decode_body(body), CLIENT_MESSAGES)


def check_host_message(body: bytes) -> Message:
    """A frame from the host, decoded and checked (a view's body: seatview), or ProtocolError."""
    return _check(decode_body(body), HOST_MESSAGES)


def hello(code: str, seat: str | None = None, token: str | None = None) -> Message:
    return {"type": "hello", "version": VERSION, "code": code, "seat": seat, "token": token}


def intent(row: str, slot: int) -> Message:
    return {"type": "intent", "row": row, "slot": slot}


def refused(reason: str) -> Message:
    return {"type": "refused", "reason": reason}
