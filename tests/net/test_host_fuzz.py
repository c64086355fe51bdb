"""A hypothesis fuzz of the host's message handler (session.Session): whatever
strangers send, the host raises nothing, the game does not change and the
seated players stay connected; whatever a seated client sends, the host
raises nothing and changes the game only through the table."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st
from testkit.lobby import Recorder, join, lobby

from spit_tui.net.session import Session

TYPES = ["hello", "intent", "ping", "bye", "welcome", "view", ""]
FIELDS = ["type", "version", "code", "seat", "token", "row", "slot", "id", "x"]
scalars = (
    st.none() | st.booleans() | st.integers(-3, 2**40) | st.floats(allow_nan=False)
    | st.sampled_from(["a", "b", "fill", "flip", "left", "right", "", "\n", "x" * 300])
)
CODE = "CODE"  # replaced by the room's real code, so the right code is tried too


def bodies() -> st.SearchStrategy[bytes]:
    structured = st.dictionaries(
        st.sampled_from(FIELDS), scalars | st.sampled_from([*TYPES, CODE]), max_size=6
    ).map(lambda d: json.dumps(d).encode())
    return st.one_of(st.binary(max_size=64), structured)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 2), bodies(), st.floats(0, 0.05)), max_size=30))
def test_strangers_change_nothing_and_never_crash_the_host(
    frames: list[tuple[int, bytes, float]],
) -> None:
    lob = lobby(4)
    room = lob.new_room()
    _, lrec = join(lob, room, "left")
    _, rrec = join(lob, room, "right")
    table = room.table
    before = (table.position, len(table.decisions))
    strangers = [Session(lob, Recorder(lob), 0.0) for _ in range(3)]
    now = 0.0
    for who, raw, dt in frames:
        now += dt
        strangers[who].receive(raw.replace(b"CODE", room.code.encode()), now)
    assert (table.position, len(table.decisions)) == before
    assert lrec.closed is None and rrec.closed is None
    assert all(s.conn is not None for s in room.seats.values())
    for s in strangers:
        conn = s.conn
        assert isinstance(conn, Recorder)
        if conn.closed is not None:
            assert conn.closed and "\n" not in conn.closed


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(bodies(), st.floats(0, 0.05)), max_size=40))
def test_a_seated_client_sending_anything_only_plays_through_the_table(
    frames: list[tuple[bytes, float]],
) -> None:
    lob = lobby(6, stale_s=0.0)
    room = lob.new_room()
    left, lrec = join(lob, room, "left")
    _, rrec = join(lob, room, "right")
    table = room.table
    now = 0.0
    for raw, dt in frames:
        now += dt
        n = len(table.decisions)
        left.receive(raw, now)
        assert len(table.decisions) - n <= 1  # one message is at most one key press
        if left.closed:
            assert lrec.closed is not None
            assert room.seats[left.seat or 0].conn is None
            break
    assert rrec.closed is None
    assert sum(table.counts.values()) == len(table.decisions)
