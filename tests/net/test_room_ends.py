"""The host's closing line says what ended with it (protocol 5's `ends`: the
room, or the host), and each door says the right line from it: a watcher
whose room ended (its game over and its players gone, or stopped) ends with
that one line and status 0, a host stopping is status 1. Real sockets on
127.0.0.1 (a host, real clients, `watch_room` with the board run headless)."""

from __future__ import annotations

import asyncio
import random

import pytest
from test_room_history import NearEndHost
from testkit.join import FAST, HeadlessBoard, a_room_in_play, until

from spit_tui.app import SpitApp
from spit_tui.app.banner import Banner
from spit_tui.engine import Phase, Player
from spit_tui.keys.intent import Row
from spit_tui.net.client import Client, play_as_bot
from spit_tui.net.host import Host
from spit_tui.net.hostcmd import _play_seat
from spit_tui.net.protocol import decode_body, encode, hello, read_frame
from spit_tui.net.room import SILENT_S, Room
from spit_tui.net.seatproto import Ended, SeatProtocol
from spit_tui.net.watchcmd import watch_room

GAME_S = 60.0
WELCOME = encode({"type": "welcome", "version": 5, "room": "k3f9q-2x7mz", "seat": "left",
                  "token": "t", "stale_s": 0.2})


async def test_a_stopped_room_and_a_stopping_host_say_what_ended() -> None:
    async with a_room_in_play() as (host, room, ana, ben):
        watcher = await Client.watch("127.0.0.1", host.port, room.code)
        await ben.close(leave=True)  # ben quits mid-game: the room stops, the host goes on
        await until(lambda: ana.ended is not None and watcher.ended is not None, "told")
        line = "ben left the game: the game is stopped"
        assert (ana.ended, ana.end_kind, ana.ends) == (line, "host", "room")
        # the watcher is told why too (it used to hear "the game has ended ...")
        assert (watcher.ended, watcher.ends) == (line, "room")
        assert not ana.host_gone("127.0.0.1", host.port)
        await watcher.close()

        other = host.new_room()
        cleo = await Client.join("127.0.0.1", host.port, other.code, "left", name="cleo")
        watcher = await Client.watch("127.0.0.1", host.port, other.code)
        await host.close()
        await until(lambda: cleo.ended is not None and watcher.ended is not None, "told")
        for client in (cleo, watcher):
            assert (client.ended, client.ends) == ("the host is stopping", "host")
            assert client.host_gone("127.0.0.1", host.port)
            assert not client.host_gone("127.0.0.1", host.port + 1)  # another host's lobby
            await client.close()


async def test_a_refusal_before_a_welcome_has_no_ends_so_a_version_4_client_reads_it() -> None:
    """A version 4 client knows no `ends`: the refusal that tells it to update
    (as every refusal before a welcome) must be the shape it reads."""
    host = Host(port=0, timings=FAST)
    await host.start()
    try:
        for first in ({**hello("k3f9q-2x7mz"), "version": 4}, hello("k3f9q-2x7mz")):
            reader, writer = await asyncio.open_connection("127.0.0.1", host.port)
            writer.write(encode(first))
            async with asyncio.timeout(10):
                frame = await read_frame(reader)
            writer.close()
            assert frame is not None
            msg = decode_body(frame)
            assert msg.keys() == {"type", "reason"}, msg
        assert "speaks 4: update your spit-tui" not in msg["reason"]  # the last: no room
    finally:
        await host.close()


def test_the_seat_reads_ends_only_after_its_welcome_and_only_a_known_one() -> None:
    proto = SeatProtocol(0.0)
    proto.hello("k3f9q-2x7mz")
    proto.receive_data(WELCOME, 0.1)
    refused = {"type": "refused", "reason": "the room is closed", "ends": "room"}
    assert proto.receive_data(encode(refused), 0.2) == [
        Ended("the room is closed", "host", "room")
    ]
    proto = SeatProtocol(0.0)
    proto.hello("k3f9q-2x7mz")
    proto.receive_data(WELCOME, 0.1)
    [ended] = proto.receive_data(encode({**refused, "ends": "everything"}), 0.2)
    assert ended.kind == "broke" and ended.ends is None


async def watched(host: Host, room: Room) -> asyncio.Task[int]:
    """`spit-tui watch 127.0.0.1:PORT CODE` on this loop (the board headless)."""
    task = asyncio.create_task(
        watch_room("127.0.0.1", host.port, room.code, HeadlessBoard())  # type: ignore[arg-type]
    )
    await until(lambda: room.watchers or task.done(), "watching")
    return task


async def test_watch_ends_with_one_line_and_status_0_when_the_room_ends(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A game to its end (dealt one card from it), then both players go: the
    room ends as rooms do."""
    host = NearEndHost(port=0, timings=FAST, seed=5)
    await host.start()
    try:
        room = host.new_room()
        left = await Client.join("127.0.0.1", host.port, room.code, "left")
        right = await Client.join("127.0.0.1", host.port, room.code, "right")
        status = await watched(host, room)
        async with asyncio.timeout(GAME_S):
            await asyncio.gather(
                play_as_bot(left, random.Random(1), think_s=(0.0, 0.001)),
                play_as_bot(right, random.Random(2), think_s=(0.0, 0.001)),
            )
        assert room.table.game.over
        await left.close(leave=True)
        await right.close(leave=True)
        async with asyncio.timeout(15):
            assert await status == 0
    finally:
        await host.close()
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["spit-tui watch: the game has ended and its players have gone"], err


async def test_watch_of_a_stopped_room_and_of_a_stopping_host_is_status_0(
    capsys: pytest.CaptureFixture[str],
) -> None:
    async with a_room_in_play() as (host, room, _ana, ben):
        status = await watched(host, room)
        await ben.close(leave=True)
        async with asyncio.timeout(15):
            assert await status == 0
        assert capsys.readouterr().err.strip().splitlines() == [
            "spit-tui watch: ben left the game: the game is stopped"
        ]
        other = host.new_room()
        cleo = await Client.join("127.0.0.1", host.port, other.code, "left", name="cleo")
        status = await watched(host, other)
        await host.close()
        async with asyncio.timeout(15):
            assert await status == 0  # the host's own end: not the watcher's error
        await cleo.close()
        assert capsys.readouterr().err.strip().splitlines() == [
            "spit-tui watch: the host is stopping"
        ]


class QuittingBoard(HeadlessBoard):
    """The host's own board (`host --seat left`), run under Pilot: once the
    game is in play, its player quits with their own keys (Ctrl+Q, Enter)."""

    def __init__(self, room: Room, other: Client) -> None:
        self.room, self.other = room, other

    async def run(self, app: SpitApp) -> int:
        async with app.run_test(size=(100, 32)) as pilot:
            await until(lambda: self.other.latest is not None, "both seated")
            await pilot.pause(FAST.stale_s + 0.05)
            await pilot.press("q")  # LEFT's spit
            self.other.press(Row.PILE_A, 0)
            await until(lambda: self.room.table.position.phase is Phase.PLAY, "in play")
            await pilot.press("ctrl+q", "enter")
        return app.return_code or 0


async def test_the_hosts_own_seat_quitting_is_a_leave_the_other_is_told_who() -> None:
    """`host --seat left`, its player quits mid-game: the other player is told
    at once who left (the host stops with them: `ends` "host", no lobby of
    it to go back to), not "the host is stopping" after a wait."""
    host = Host(port=0, timings=FAST, seed=3, wait_s=120.0)
    await host.start()
    try:
        room = host.new_room()
        ben = await Client.join("127.0.0.1", host.port, room.code, "right", name="ben")
        invite = f"spit-tui join 127.0.0.1:{host.port} {room.code}"
        board = QuittingBoard(room, ben)
        async with asyncio.timeout(30):
            assert await _play_seat(host, room, Player.LEFT, invite, board) == 0  # type: ignore[arg-type]
        await until(lambda: ben.ended is not None, "ben is told", timeout=5)
        assert (ben.ended, ben.ends) == ("LEFT left the game and stopped the host", "host")
        assert room.code not in host.lobby.rooms
        await ben.close()
    finally:
        await host.close()


class LookingBoard(HeadlessBoard):
    """A watcher's board under Pilot: what its banner says at the opening spit."""

    def __init__(self) -> None:
        self.said = ""

    async def run(self, app: SpitApp) -> int:
        def said() -> str:
            return str(app.screen.query_one(Banner).render())

        async with app.run_test(size=(100, 32)) as pilot:
            await until(lambda: "Round 1" in said(), "the opening banner")
            self.said = said()
            await pilot.press("ctrl+q")  # a watcher's only key
        return app.return_code or 0


async def test_a_watchers_banner_tells_what_the_players_do_not_keys_to_press() -> None:
    host = Host(port=0, timings=FAST, seed=3)
    await host.start()
    try:
        room = host.new_room()
        ana = await Client.join("127.0.0.1", host.port, room.code, "left", name="ana")
        ben = await Client.join("127.0.0.1", host.port, room.code, "right", name="ben")
        board = LookingBoard()
        async with asyncio.timeout(30):
            assert await watch_room("127.0.0.1", host.port, room.code, board) == 0  # type: ignore[arg-type]
        assert "Round 1: both players spit to begin" in board.said, board.said
        assert "ana … not yet" in board.said and "ben … not yet" in board.said
        assert "press" not in board.said and "your half" not in board.said  # it said both
        await ana.close()
        await ben.close()
    finally:
        await host.close()


async def test_a_seat_that_stops_answering_pauses_the_room_until_it_answers() -> None:
    """A joiner whose machine stands still (Ctrl+Z, a laptop lid) keeps its
    connection but answers no ping: the room waits for them after SILENT_S
    (it played on for the host's 60 s idle limit, the other alone at the
    table), and goes on once they answer again."""
    async with a_room_in_play() as (_host, room, ana, ben):
        send = ben.proto._send
        stopped = True

        def pongs_held(msg: dict[str, object]) -> None:
            if not (stopped and msg["type"] == "pong"):
                send(msg)

        ben.proto._send = pongs_held  # type: ignore[method-assign]
        await until(lambda: ana.latest is not None and ana.latest.waiting == "ben",
                    "ana sees the room wait for ben", timeout=SILENT_S + 3)  # fmt: skip
        assert room.table.clock.paused and room.seats[Player.RIGHT].conn is not None
        stopped = False
        await until(lambda: ana.latest is not None and ana.latest.waiting is None,
                    "the room goes on", timeout=5)  # fmt: skip
        assert not room.table.clock.paused
