"""The seat's protocol without a socket: whatever bytes a host sends, in
whatever pieces, the seat gets events and never an exception, and a stream
cut anywhere reads as the same stream."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st
from testkit.lobby import lobby

from spit_tui.engine import Player
from spit_tui.keys.intent import Row
from spit_tui.net.protocol import encode
from spit_tui.net.seatproto import IDLE_S, STILL_S, Ended, SeatProtocol, Shown, Welcomed
from spit_tui.net.seatview import seat_view

WELCOME = encode({"type": "welcome", "version": 3, "room": "k3f9q-2x7mz", "seat": "left",
                  "token": "t", "stale_s": 0.2})


def _view() -> bytes:
    return encode(json.loads(json.dumps(seat_view(lobby(2).new_room().table, Player.LEFT))))


STREAM = WELCOME + encode({"type": "ping", "id": 7}) + _view() + _view()


def feed(pieces: list[bytes]) -> tuple[list[object], SeatProtocol]:
    proto = SeatProtocol(0.0)
    proto.hello("k3f9q-2x7mz")
    proto.data_to_send()
    events: list[object] = []
    for piece in pieces:
        events += proto.receive_data(piece, 0.1)
    return events, proto


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, len(STREAM)), max_size=12))
def test_a_stream_cut_anywhere_reads_the_same(cuts: list[int]) -> None:
    points = sorted(set(cuts))
    pieces = [STREAM[a:b] for a, b in zip([0, *points], [*points, len(STREAM)], strict=True)]
    events, proto = feed(pieces)
    whole, _ = feed([STREAM])
    assert events == whole
    assert [type(e) for e in events] == [Welcomed, Shown, Shown]
    assert proto.messages_to_send() == [{"type": "pong", "id": 7}]


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300), st.booleans())
def test_any_bytes_end_in_events_never_an_exception(junk: bytes, welcomed: bool) -> None:
    events, proto = feed([WELCOME if welcomed else b"", junk])
    events += proto.receive_eof()
    assert all(isinstance(e, Welcomed | Shown | Ended) for e in events)
    ended = [e for e in events if isinstance(e, Ended)]
    assert len(ended) <= 1
    for e in ended:
        assert e.reason.isprintable() and "\n" not in e.reason
        assert e.kind in ("refused", "lost", "broke", "host")


def ticks(proto: SeatProtocol, start: float, end: float, step: float = 0.1) -> list[object]:
    """The shell's ticks from `start` to `end` (its own loop running all the while)."""
    events: list[object] = []
    n = round((end - start) / step)
    for i in range(n + 1):
        events += proto.tick(start + (end - start) * i / n)
    return events


def test_silence_and_a_dripped_frame_end_the_seat_on_time() -> None:
    _, proto = feed([WELCOME])
    assert ticks(proto, 0.0, 0.1 + IDLE_S - 0.01) == []
    assert proto.tick(0.1 + IDLE_S + 0.01) == [Ended(
        f"the host has sent nothing for {IDLE_S:g} s", "silent")]
    _, proto = feed([WELCOME, _view()[:7]])
    proto.idle_s = 60.0
    assert proto.tick(5.0) == []
    assert proto.tick(5.2)[0].kind == "broke"


def test_time_the_seat_itself_stood_still_is_not_the_hosts_silence() -> None:
    """A seat whose own loop stood still (here 2 s, longer than IDLE_S; a host in
    the same process stands still with it) counts only STILL_S of that gap."""
    _, proto = feed([WELCOME])
    assert ticks(proto, 0.0, 1.0) == []  # 0.9 s of silence heard
    assert proto.tick(3.0) == []  # nothing ticked for 2 s: STILL_S of it counts
    end = 3.0 + IDLE_S - 0.9 - STILL_S
    assert ticks(proto, 3.0, end - 0.05) == []
    assert proto.tick(end + 0.05) == [Ended(
        f"the host has sent nothing for {IDLE_S:g} s", "silent")]


def test_a_seat_that_ticks_late_all_the_time_still_hears_the_silence() -> None:
    _, proto = feed([WELCOME])
    got = ticks(proto, 0.0, 20 * 0.6, step=0.6)  # every tick 0.6 s late: a loaded machine
    assert got[-1:] == [Ended(f"the host has sent nothing for {IDLE_S:g} s", "silent")]


def test_a_seat_sends_keys_and_nothing_once_ended() -> None:
    _, proto = feed([WELCOME])
    proto.press(Row.PILE_B, 3)
    assert proto.messages_to_send() == [{"type": "intent", "row": "b", "slot": 3}]
    assert proto.unsent(proto.max_out + 1)[0].kind == "stuck"
    proto.press(Row.PILE_A, 0)
    assert proto.data_to_send() == b""


def test_a_seat_asks_for_a_rematch() -> None:
    _, proto = feed([WELCOME])
    proto.rematch()
    assert proto.messages_to_send() == [{"type": "rematch"}]
