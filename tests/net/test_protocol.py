"""The wire: frames (size cap, truncation, slow drip) and the strict message checks."""

from __future__ import annotations

import asyncio
import contextlib
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spit_tui.net.protocol import (
    HEADER,
    MAX_FRAME,
    ProtocolError,
    check_client_message,
    check_host_message,
    encode,
    hello,
    intent,
    read_frame,
)


def body(obj: object) -> bytes:
    return json.dumps(obj).encode()


def reader_with(data: bytes, eof: bool = True) -> asyncio.StreamReader:
    r = asyncio.StreamReader()
    r.feed_data(data)
    if eof:
        r.feed_eof()
    return r


def test_client_messages_round_trip() -> None:
    for msg in (
        hello("abcde-fghjk"),
        hello("abcde-fghjk", "right", "tok"),
        intent("fill", 4),
        {"type": "ping", "id": 7},
        {"type": "bye"},
    ):
        frame = encode(msg)
        (n,) = HEADER.unpack(frame[:4])
        assert n == len(frame) - 4
        assert check_client_message(frame[4:]) == msg


@pytest.mark.parametrize(
    ("obj", "why"),
    [
        ([1, 2], "not a JSON object"),
        ({"type": "shout"}, "no known type"),
        ({"row": "a", "slot": 1}, "no known type"),
        ({"type": "intent", "row": "a"}, "without slot"),
        ({"type": "intent", "row": "a", "slot": 5}, "bad slot"),
        ({"type": "intent", "row": "a", "slot": True}, "bad slot"),
        ({"type": "intent", "row": "a", "slot": 1.0}, "bad slot"),
        ({"type": "intent", "row": "c", "slot": 1}, "bad row"),
        ({"type": "intent", "row": "a", "slot": 1, "x": 0}, "unknown field"),
        ({**hello(""), "name": None}, "code"),
        (hello("x" * 500), "code"),
        (hello("a\nb"), "code"),
        ({**hello("ab"), "seat": "top"}, "seat"),
        ({**hello("ab"), "name": "a\tb"}, "bad name"),
        ({k: v for k, v in hello("ab").items() if k != "name"}, "without name"),
        ({"type": "ping", "id": -1}, "bad id"),
    ],
)
def test_malformed_messages_are_refused_with_a_reason(obj: object, why: str) -> None:
    with pytest.raises(ProtocolError, match=why):
        check_client_message(body(obj))


@pytest.mark.parametrize(
    "raw",
    [b"\xff\xfe", b"{", b'{"type": NaN}', b"Infinity", b"[" * 100_000 + b"]" * 100_000, b"null"],
)
def test_bytes_that_are_not_a_json_object_are_refused(raw: bytes) -> None:
    with pytest.raises(ProtocolError):
        check_client_message(raw)


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=200))
def test_any_bytes_give_a_message_or_a_protocol_error(raw: bytes) -> None:
    for check in (check_client_message, check_host_message):
        try:
            msg = check(raw)
        except ProtocolError as e:
            assert str(e) and "\n" not in str(e)
        else:
            assert isinstance(msg, dict) and isinstance(msg["type"], str)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda kids: st.lists(kids, max_size=3)
    | st.dictionaries(st.text(max_size=6), kids, max_size=3),
    max_leaves=10,
)


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(["hello", "intent", "ping", "bye", "welcome", "x"]),
    st.dictionaries(
        st.sampled_from(["version", "code", "seat", "token", "row", "slot", "id"]), json_values
    ),
)
def test_near_miss_messages_never_escape_the_checks(kind: str, fields: dict[str, object]) -> None:
    with contextlib.suppress(ProtocolError):
        check_client_message(body({"type": kind, **fields}))


async def test_a_frame_is_read_whole_and_a_clean_end_is_none() -> None:
    r = reader_with(encode(intent("a", 0)) + encode({"type": "bye"}))
    assert check_client_message(await read_frame(r) or b"")["type"] == "intent"
    assert check_client_message(await read_frame(r) or b"")["type"] == "bye"
    assert await read_frame(r) is None


async def test_an_oversized_frame_is_refused_from_its_header() -> None:
    r = reader_with(HEADER.pack(MAX_FRAME + 1), eof=False)  # no body sent at all
    with pytest.raises(ProtocolError, match="limit"):
        await read_frame(r, frame_s=1.0)
    with pytest.raises(ProtocolError, match="empty"):
        await read_frame(reader_with(HEADER.pack(0)))


async def test_a_truncated_frame_is_refused() -> None:
    for cut in (2, 4, 10):
        with pytest.raises(ProtocolError, match="cut short"):
            await read_frame(reader_with(encode(intent("a", 0))[:cut]))


async def test_a_slow_drip_is_refused_after_the_frame_time() -> None:
    r = reader_with(encode(intent("a", 0))[:6], eof=False)
    with pytest.raises(ProtocolError, match="not complete"):
        await read_frame(r, frame_s=0.05)


async def test_one_timer_tells_a_quiet_line_from_a_slow_drip() -> None:
    """With `until` (the host's idle or hello limit) one timer serves both
    limits: no frame begun by then is a TimeoutError (the caller's silence);
    a frame begun and not finished within frame_s is a drip; and a frame begun
    just before `until` is still held to `until`, as two timers held it."""
    loop = asyncio.get_running_loop()
    quiet = reader_with(b"", eof=False)
    t0 = loop.time()
    with pytest.raises(TimeoutError):
        await read_frame(quiet, frame_s=1.0, until=t0 + 0.05)
    assert loop.time() - t0 < 0.9  # `until`, not frame_s (1 s); a busy machine is late
    drip = reader_with(encode(intent("a", 0))[:6], eof=False)
    with pytest.raises(ProtocolError, match=r"not complete within 0\.05 s"):
        await read_frame(drip, frame_s=0.05, until=loop.time() + 10.0)
    late = reader_with(encode(intent("a", 0))[:6], eof=False)
    with pytest.raises(TimeoutError):
        await read_frame(late, frame_s=10.0, until=loop.time() + 0.05)
    whole = reader_with(encode(intent("a", 0)))
    assert check_client_message(await read_frame(whole, 0.05, loop.time() + 0.05) or b"")


def test_our_own_messages_respect_the_cap() -> None:
    with pytest.raises(ValueError, match="cap"):
        encode({"type": "bye", "reason": "x" * MAX_FRAME})
