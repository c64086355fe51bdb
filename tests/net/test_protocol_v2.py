"""Protocol version 2: each seat's name crosses the wire in its hello, quick
matches pair the next two players, and a version 1 client is told plainly to
update (docs/protocol.md, Versions)."""

from __future__ import annotations

import re

import pytest
from testkit.lobby import Recorder, body, join, lobby

from spit_tui.net.protocol import VERSION, ProtocolError, check_client_message, first, hello
from spit_tui.net.session import Session


def v1_hello(code: str) -> dict[str, object]:
    return {"type": "hello", "version": 1, "code": code, "seat": None, "token": None}


def test_a_version_1_hello_is_refused_with_what_to_do() -> None:
    assert VERSION == 5
    with pytest.raises(ProtocolError) as e:
        check_client_message(body(v1_hello("k3f9q-2x7mz")))
    assert str(e.value) == (
        "this host speaks protocol version 5, your spit-tui speaks 1: "
        "update your spit-tui (pip install -U spit-tui)"
    )
    lob = lobby()
    room = lob.new_room()
    conn = Recorder(lob)
    s = Session(lob, conn, 0.0)
    s.receive(body(v1_hello(room.code)), 0.0)
    assert conn.closed is not None and "update your spit-tui" in conn.closed
    assert all(seat.token is None for seat in room.seats.values())


def test_a_newer_client_is_told_the_host_is_older() -> None:
    with pytest.raises(ProtocolError, match="update this host"):
        check_client_message(body({**hello("k3f9q-2x7mz"), "version": 6}))


def test_older_clients_are_told_to_update() -> None:
    """Version 3 added `moved` (a room on another host of a directory), which a
    version 2 client would take for a broken host; version 4 a version in every
    first message: an older client's new_room, quick or watch has none;
    version 5 `ends` in a closing `refused`, which a version 4 client would
    take for a broken host."""
    for version in (2, 3, 4):
        with pytest.raises(ProtocolError, match=f"speaks {version}: update your spit-tui"):
            check_client_message(body({**hello("k3f9q-2x7mz"), "version": version}))
    for old in ({"type": "new_room"}, {"type": "quick"}, {"type": "watch", "code": "k3f9q"}):
        with pytest.raises(ProtocolError, match="speaks an older one: update your spit-tui"):
            check_client_message(body(old))


def test_names_cross_the_wire_and_reach_both_views() -> None:
    lob = lobby()
    room = lob.new_room()
    _, left = join(lob, room, name="ana")
    _, right = join(lob, room, name="ben")
    assert left.closed is None and right.closed is None
    assert room.table.seats.names == ("ana", "ben")
    for conn in (left, right):
        views = [m for m, _ in conn.sent if m["type"] == "view"]
        assert views[-1]["names"] == ["ana", "ben"]


def test_the_same_name_twice_is_told_apart() -> None:
    lob = lobby()
    room = lob.new_room()
    join(lob, room, name="ana")
    join(lob, room, name="ana")
    assert room.table.seats.names == ("ana", "ana 2")


def test_no_name_leaves_the_seat_name() -> None:
    lob = lobby()
    room = lob.new_room()
    join(lob, room, name="ana")
    join(lob, room)
    assert room.table.seats.names == ("ana", "RIGHT")


@pytest.mark.parametrize("name", ["", " ", 'a"b', "x" * 21, "日本", "e\u0301", " ana"])
def test_a_bad_name_is_refused(name: str) -> None:
    lob = lobby()
    room = lob.new_room()
    _, conn = join(lob, room, name=name)
    assert conn.closed == "a hello message with a bad name"
    assert room.table.seats.names == ("LEFT", "RIGHT")


def quick(lob: object, now: float = 0.0) -> tuple[Session, Recorder]:
    conn = Recorder(lob)  # type: ignore[arg-type]
    s = Session(lob, conn, now)  # type: ignore[arg-type]
    s.receive(body(first("quick")), now)
    return s, conn


def test_quick_pairs_the_next_two_and_the_third_waits_for_a_fourth() -> None:
    lob = lobby()
    codes = []
    for i in range(3):
        _, conn = quick(lob, float(i))
        (msg,) = [m for m, _ in conn.sent]
        assert msg["type"] == "room"
        codes.append(msg["code"])
        join(lob, lob.rooms[msg["code"]], name=f"p{i}")
    assert codes[0] == codes[1] != codes[2]
    assert lob.rooms[codes[0]].table.seats.names == ("p0", "p1")


def test_quick_never_pairs_with_someone_who_left() -> None:
    lob = lobby()
    _, conn = quick(lob)
    first = conn.sent[0][0]["code"]
    s, _ = join(lob, lob.rooms[first], name="ana")
    s.ended()  # ana gave up waiting
    _, conn = quick(lob, 1.0)
    assert conn.sent[0][0]["code"] != first


def test_one_quick_per_connection() -> None:
    lob = lobby()
    s, conn = quick(lob)
    s.receive(body(first("quick")), 0.1)
    assert conn.closed == "one new room per connection"


async def test_quick_and_names_over_real_sockets() -> None:
    from spit_tui.net.client import Client
    from spit_tui.net.host import Host

    host = Host(port=0)
    await host.start()
    try:
        codes = [await Client.new_room("127.0.0.1", host.port, kind="quick") for _ in range(2)]
        assert codes[0] == codes[1]
        ana = await Client.join("127.0.0.1", host.port, codes[0], name="ana")
        ben = await Client.join("127.0.0.1", host.port, codes[1], name="ben")
        assert host.lobby.rooms[codes[0]].table.seats.names == ("ana", "ben")
        await ana.close()
        await ben.close()
    finally:
        await host.close()


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["127.0.0.1", "k3f9q-2x7mz", "--quick"], "--quick takes only HOST[:PORT]"),
        (["127.0.0.1", "--quick", "--new-room"], "takes only HOST[:PORT]"),
        (["127.0.0.1", "k3f9q-2x7mz", "--name", 'a"b'], "--name: a name has no quotes"),
    ],
)
def test_join_quick_and_name_arguments(argv: list[str], says: str) -> None:
    from spit_tui.command import UsageError
    from spit_tui.net.joincmd import parse_args

    with pytest.raises(UsageError, match=re.escape(says)):
        parse_args(argv)


def played_out(seed: int = 4) -> tuple[object, object, list[Session], list[Recorder]]:
    """A room whose game two expert bots have played to its end (virtual clock)."""
    import random

    from spit_tui.engine import Player
    from spit_tui.players.bot import Bot

    lob = lobby(seed)
    room = lob.new_room()
    seated = [join(lob, room, side, name=n) for side, n in (("left", "ana"), ("right", "ben"))]
    table = room.table
    for p in Player:
        Bot(table, p, "expert", rng=random.Random(seed + p)).attach()
    steps = 0
    while not table.game.over and steps < 200_000:
        assert table.clock.step()  # type: ignore[attr-defined]
        steps += 1
    assert table.game.over
    return lob, room, [s for s, _ in seated], [c for _, c in seated]


def test_both_asking_for_a_rematch_starts_a_new_game_in_the_room() -> None:
    _, room, (ana, ben), (a, b) = played_out()
    first = room.table.game  # type: ignore[attr-defined]
    winner = room.table.position.winner  # type: ignore[attr-defined]
    won = [1, 0] if winner == 0 else [0, 1]
    assert [m for m, _ in a.sent if m["type"] == "view"][-1]["match"] == won  # at game over
    ana.receive(body({"type": "rematch"}), 1e6)
    assert room.table.game is first  # type: ignore[attr-defined]
    views = [m for m, _ in b.sent if m["type"] == "view"]
    assert views[-1]["message"]["text"] == "ana wants a rematch"
    views = [m for m, _ in a.sent if m["type"] == "view"]
    assert views[-1]["message"]["text"] == "rematch: waiting for ben"
    ben.receive(body({"type": "rematch"}), 1e6)
    game = room.table.game  # type: ignore[attr-defined]
    assert game is not first and not game.over and room.games == 2  # type: ignore[attr-defined]
    assert game.options == first.options
    assert room.table.seats.names == ("ana", "ben")  # type: ignore[attr-defined]
    assert all(s.conn is not None for s in room.seats.values())  # type: ignore[attr-defined]
    assert a.closed is None and b.closed is None
    assert room.rematch == set()  # type: ignore[attr-defined]
    assert [m for m, _ in b.sent if m["type"] == "view"][-1]["match"] == won  # kept


def test_a_rematch_before_game_over_does_nothing() -> None:
    lob = lobby()
    room = lob.new_room()
    s, conn = join(lob, room, name="ana")
    join(lob, room, name="ben")
    game = room.table.game
    s.receive(body({"type": "rematch"}), 0.0)
    assert room.table.game is game and room.rematch == set() and conn.closed is None


def test_one_leaving_after_game_over_tells_the_other_and_takes_back_their_rematch() -> None:
    _, room, (ana, ben), (a, _) = played_out()
    ben.receive(body({"type": "rematch"}), 1e6)
    ben.ended()  # ben leaves after asking
    assert room.rematch == set()  # type: ignore[attr-defined]
    views = [m for m, _ in a.sent if m["type"] == "view"]
    assert views[-1]["message"]["text"] == "ben has left the room"
    ana.receive(body({"type": "rematch"}), 1e6)  # alone: no new game
    assert room.table.game.over  # type: ignore[attr-defined]
