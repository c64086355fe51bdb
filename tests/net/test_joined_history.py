"""Each player's own history gets a room's game (issue 20 item 3): the joined
seat asks the host for the finished game's record at game over (the host
sends none before), checks it against what its board showed, and keeps it,
so `spit-tui stats` on the joiner's machine counts the game too. A record
that disagrees is refused in one line and nothing is stored. Real sockets on
127.0.0.1 and real SQLite files; the rooms deal a game one card from its end."""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from test_room_history import NEAR_END, NearEndHost, rows
from testkit.join import FAST, until
from testkit.lobby import body, join, lobby
from testkit.store import count_set_starts

from spit_tui.clock import RealClock
from spit_tui.engine import Game, Options, Play, Player, format_record, parse_position
from spit_tui.net.client import Client, play_as_bot
from spit_tui.net.protocol import ProtocolError
from spit_tui.net.remote import RemoteSeat
from spit_tui.net.room import Room
from spit_tui.net.seat import NetSeat, Tokens
from spit_tui.net.seatproto import Recorded, SeatProtocol
from spit_tui.scene import Scene
from spit_tui.seats import Seats
from spit_tui.store.history import HistoryWriter
from spit_tui.store.joined import check_joined
from spit_tui.store.records import record_of

GAME_S = 20.0


async def _room_game(
    host: NearEndHost, joiner_db: Path, tmp: Path, lines: bool = False
) -> NetSeat:
    """ana (left) and ben (right, keeping his own history in `joiner_db`) play one game."""
    room = host.new_room()
    left = await Client.join("127.0.0.1", host.port, room.code, "left", name="ana")
    right = await Client.join("127.0.0.1", host.port, room.code, "right", name="ben")
    mine = HistoryWriter(joiner_db)
    net = NetSeat(right, "127.0.0.1", host.port, room.code, Tokens(tmp / "seats.json"),
                  keep=mine.keep_joined)
    seat = RemoteSeat(right.seat, net.press, RealClock(), right.stale_s)
    ended: list[str] = []
    feeding = asyncio.create_task(net.run(seat, ended.append))
    try:
        async with asyncio.timeout(GAME_S):
            await asyncio.gather(
                play_as_bot(left, random.Random(1), think_s=(0.0, 0.001)),
                play_as_bot(right, random.Random(2), think_s=(0.0, 0.001)),
            )
        await until(lambda: mine.writes > 0 or bool(net.notes), "the record is kept or refused")
        if lines:  # the board shows what our own history says of the game
            await until(lambda: "rating" in seat.scene().figures, "the rating line on the board")
    finally:
        feeding.cancel()
        await left.close()
        await right.close()
        mine.close()
    return net


def _stats(db: Path) -> dict[str, Any]:
    run = subprocess.run(
        [sys.executable, "-m", "spit_tui", "stats", "--json", "--db", str(db)],
        capture_output=True, text=True, timeout=30,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    return {p["name"]: p for p in json.loads(run.stdout)["players"]}


async def test_the_joiners_own_history_gets_the_game_and_stats_count_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    count_set_starts(monkeypatch)  # near the end, counted as if dealt (both writers are here)
    host_db, ben_db = tmp_path / "host.db", tmp_path / "ben.db"
    host = NearEndHost(port=0, timings=FAST, history=HistoryWriter(host_db))
    await host.start()
    try:
        net = await _room_game(host, ben_db, tmp_path, lines=True)
    finally:
        await host.close()
    assert net.notes == []
    sql = "SELECT left_name, right_name, finished, result, record FROM games"
    (theirs,), (mine,) = rows(host_db, sql), rows(ben_db, sql)
    assert mine == theirs  # the same game, the same record, finished
    on_host, at_ben = _stats(host_db), _stats(ben_db)
    for name in ("ana", "ben"):
        assert at_ben[name]["games"] == on_host[name]["games"] == 1
        assert at_ben[name]["wins"] == on_host[name]["wins"]
        assert at_ben[name]["rating"] == on_host[name]["rating"]  # rated alike


async def test_a_host_and_a_seat_on_one_history_file_store_the_game_once(tmp_path: Path) -> None:
    db = tmp_path / "history.db"
    host = NearEndHost(port=0, timings=FAST, history=HistoryWriter(db))
    await host.start()
    try:
        await _room_game(host, db, tmp_path)
    finally:
        await host.close()
    assert rows(db, "SELECT count(*), sum(finished) FROM games") == [(1, 1)]


async def test_a_record_that_is_not_the_game_played_is_refused_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = Room.record_parts

    def lying(room: Room) -> list[dict[str, Any]]:
        parts = real(room)
        parts[0]["lines"] = [line.replace('"ben"', '"BEN"') for line in parts[0]["lines"]]
        return parts

    monkeypatch.setattr(Room, "record_parts", lying)
    ben_db = tmp_path / "ben.db"
    host = NearEndHost(port=0, timings=FAST)
    await host.start()
    try:
        net = await _room_game(host, ben_db, tmp_path)
    finally:
        await host.close()
    assert net.notes == [
        "the host's record of the game was not kept: its players (ana v BEN) are not the board's"
    ]
    assert rows(ben_db, "SELECT count(*) FROM games") == [(0,)]


def test_the_host_sends_no_record_before_game_over_and_one_a_game_after() -> None:
    lob = lobby(1)
    room = lob.new_room()
    room.table.new_game(Game(options=Options(), position=parse_position(NEAR_END), seed=7))
    s, conn = join(lob, room, "left")
    join(lob, room, "right")
    records = lambda: [m for m, _ in conn.sent if m["type"] == "record"]  # noqa: E731
    s.receive(body({"type": "record"}), 0.0)
    assert records() == [] and conn.closed is None  # it holds every card: not in play
    t = room.table
    t.clock.advance(t.gate.stale_s + 0.01)  # type: ignore[attr-defined]
    t.submit(next(a for a in t.game.legal_actions(Player.LEFT) if isinstance(a, Play)))
    assert t.game.over
    for _ in range(3):
        s.receive(body({"type": "record"}), 1.0)
    (sent,) = records()  # once a game on a connection, however often asked
    assert sent["part"] == sent["parts"] == 1
    assert "\n".join(sent["lines"]) + "\n" == format_record(
        record_of(t, {"Left": "LEFT", "Right": "RIGHT", "Room": room.code})
    )  # (the Room tag: played at seats, never to be resumed at one keyboard)


def test_record_parts_must_come_in_order_and_asked_for() -> None:
    part = {"type": "record", "parts": 2, "lines": ["x"], "lost": [0, 0], "play_s": 1.0}
    proto = SeatProtocol(0.0)
    proto.seated(Player.RIGHT)
    (end,) = proto.receive_message({**part, "part": 1}, 0.0)
    assert "a record message not asked for" in str(end)
    proto = SeatProtocol(0.0)
    proto.seated(Player.RIGHT)
    proto.ask_record()
    assert proto.receive_message({**part, "part": 1}, 0.0) == []
    (end,) = proto.receive_message({**part, "part": 1}, 0.0)
    assert "a record message out of order" in str(end)
    proto = SeatProtocol(0.0)
    proto.seated(Player.RIGHT)
    proto.ask_record()
    proto.receive_message({**part, "part": 1}, 0.0)
    (got,) = proto.receive_message({**part, "part": 2, "lines": ["y"]}, 0.0)
    assert got == Recorded("x\ny\n", (0, 0), 1.0)
    (end,) = proto.receive_message({**part, "part": 1}, 0.0)  # once: not asked again
    assert "not asked for" in str(end)
    with pytest.raises(ProtocolError):  # a line no record has never gets this far
        from spit_tui.net.protocol import HOST_MESSAGES, check_message

        check_message({**part, "part": 1, "lines": ["\x1b]52;c;x\x07"]}, HOST_MESSAGES)


def _over() -> tuple[str, Scene]:
    """A finished game's record and the scene its seat saw at the end."""
    t = lobby(1).make_table()
    t.new_game(Game(options=Options(), position=parse_position(NEAR_END), seed=7))
    t.seat(Seats(("ana", "ben")))
    t.clock.advance(t.gate.stale_s + 0.01)  # type: ignore[attr-defined]
    t.submit(next(a for a in t.game.legal_actions(Player.LEFT) if isinstance(a, Play)))
    return format_record(record_of(t, {"Left": "ana", "Right": "ben"})), t.scene()


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (lambda text: text + "garbage!", "it does not read as a record"),
        (lambda text: text.rsplit("\n", 2)[0] + "\n", "it is not a finished game"),
        (lambda text: text.replace("L1a@", "L2a@"), "it does not replay"),
        (lambda text: text.replace('"ana"', '"eve"'), "its players (eve v ben)"),
    ],
    ids=["junk", "unfinished", "not-its-deal", "names"],
)
def test_a_bad_record_is_one_reason(change: Any, says: str) -> None:
    text, seen = _over()
    assert not isinstance(check_joined(text, (0, 0), 1.0, seen), str)  # as sent: kept
    why = check_joined(change(text), (0, 0), 1.0, seen)
    assert isinstance(why, str) and says in why and "\n" not in why
    assert check_joined(text, (0, 99), 1.0, seen) == "its figures are out of range"
    assert seen.winner is not None
    other = seen._replace(winner=seen.winner.other)
    assert "winner" in str(check_joined(text, (0, 0), 1.0, other))
    other = seen._replace(options=Options(manual_flip=True))
    assert "options" in str(check_joined(text, (0, 0), 1.0, other))



async def test_a_game_against_the_computer_is_kept_as_the_host_keeps_it(tmp_path: Path) -> None:
    """Play the computer on a host: the seat's copy names the computer by its
    level with its rung (an anchor, as on the host), though its board says
    COMPUTER; a host and a seat on one file still store it once."""
    host_db, ana_db = tmp_path / "host.db", tmp_path / "ana.db"
    for same_file in (False, True):
        mine_db = host_db if same_file else ana_db
        host = NearEndHost(port=0, timings=FAST, history=HistoryWriter(host_db))
        await host.start()
        try:
            room = host.lobby.request_room(0.0, "127.0.0.1", None, 5)
            assert not isinstance(room, str)
            # a game of its own each time: on an idle machine the bot's two games
            # had the very same record, and the second was taken for the first
            room.table.new_game(Game(options=Options(), position=parse_position(NEAR_END),
                                     seed=7 + same_file))
            ana = await Client.join("127.0.0.1", host.port, room.code, "left", name="ana")
            mine = HistoryWriter(mine_db)
            net = NetSeat(ana, "127.0.0.1", host.port, room.code, Tokens(tmp_path / "s.json"),
                          keep=mine.keep_joined)
            seat = RemoteSeat(ana.seat, net.press, RealClock(), ana.stale_s)
            feeding = asyncio.create_task(net.run(seat, lambda line: None))
            try:
                async with asyncio.timeout(GAME_S):
                    await play_as_bot(ana, random.Random(1), think_s=(0.0, 0.001))
                await until(lambda m=mine, n=net: m.writes > 0 or bool(n.notes), "kept")
            finally:
                feeding.cancel()
                await ana.close()
                mine.close()
        finally:
            await host.close()
        assert net.notes == []
        assert ana.latest is not None and ana.latest.names == ("ana", "COMPUTER")
    sql = "SELECT g.record, gp.seat, gp.name, gp.rung FROM games g JOIN game_players gp" \
          " ON gp.game_id = g.id ORDER BY g.id, gp.seat"
    theirs, ours = rows(host_db, sql), rows(ana_db, sql)
    assert ours == theirs[:2] and len(theirs) == 4  # one game each time on the host's file
    assert [(s, n, r) for _, s, n, r in ours] == [
        ("L", "ana", None), ("R", "computer (level 5)", 5)
    ]


def test_the_computers_seats_come_from_the_records_tags() -> None:
    from spit_tui.store.joined import Joined

    text, seen = _over()
    took = text.replace('[Right "ben"]\n', '[Right "ben"]\n[Takeover "R 6 @0.100"]\n')
    kept = check_joined(took, (0, 0), 1.0, seen)
    assert isinstance(kept, Joined) and kept.rungs == (None, 6)  # ben's seat finished by it
    bad = text.replace('[Right "ben"]\n', '[Right "ben"]\n[Takeover "R 99 @0.100"]\n')
    assert check_joined(bad, (0, 0), 1.0, seen) == "its computer's level is not one the ladder has"
