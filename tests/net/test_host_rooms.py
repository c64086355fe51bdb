"""A room's life on the host (issue 14 item 5): a seat that drops has the
wait to come back, then the room stops with one line to whoever is still
there and the game is stored; a finished game is stored in the host's
history like a game at one keyboard. Real sockets on 127.0.0.1."""

from __future__ import annotations

import asyncio
import random
import sqlite3
import threading
from pathlib import Path

import pytest
from testkit.join import FAST, until

from spit_tui.engine import Phase, Play, Player
from spit_tui.keys.intent import Row, intent_for
from spit_tui.net.client import Client, play_as_bot
from spit_tui.net.host import Host
from spit_tui.net.room import Room
from spit_tui.net.seatproto import Offered
from spit_tui.players.ladder import start_rung
from spit_tui.store.history import HistoryWriter

GAME_S = 60.0


def games(path: Path) -> list[tuple[object, ...]]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("SELECT finished, rounds, left_name, right_name FROM games").fetchall()
    finally:
        conn.close()


async def _into_play(left: Client, right: Client) -> None:
    await asyncio.sleep(FAST.stale_s + 0.05)
    left.press(Row.PILE_A, 0)
    right.press(Row.PILE_A, 0)


async def _playing(host: Host) -> tuple[Room, Client, Client]:
    """A new room on `host`, both seats taken, in play."""
    room = host.new_room()
    left = await Client.join("127.0.0.1", host.port, room.code, "left")
    right = await Client.join("127.0.0.1", host.port, room.code, "right")
    await _into_play(left, right)
    await until(lambda: room.table.position.phase is Phase.PLAY, "in play")
    return room, left, right


def _stops_told(db: Path, wait_s: float) -> tuple[Host, list[str]]:
    """A host keeping its history in `db`, and the lines of the rooms it stops."""
    stopped: list[str] = []
    host = Host(port=0, timings=FAST, seed=3, wait_s=wait_s, history=HistoryWriter(db))
    host.on_room_stopped = lambda room, line: stopped.append(line)
    return host, stopped


async def _a_card_played(room: Room, left: Client) -> None:
    """LEFT plays a card (right after its spit key: not a repeat here)."""
    plays = [a for a in room.table.game.legal_actions(Player.LEFT) if isinstance(a, Play)]
    left.press(*intent_for(plays[0])[1:])
    await until(lambda: len(room.table.game.log) >= 3, "a card is played")


async def test_a_seat_that_never_comes_back_stops_the_room_and_the_game_is_kept(
    tmp_path: Path,
) -> None:
    db = tmp_path / "history.db"
    host, stopped = _stops_told(db, wait_s=0.4)
    await host.start()
    try:
        room, left, right = await _playing(host)
        await _a_card_played(room, left)
        # RIGHT drops and comes back within the wait: nothing stops
        await right.close()
        await asyncio.sleep(0.2)
        right = await Client.join("127.0.0.1", host.port, room.code, token=right.token)
        await asyncio.sleep(0.4)
        assert room.code in host.lobby.rooms and left.ended is None and not stopped
        # RIGHT drops for good: LEFT is offered the computer for that seat, and
        # chooses to stop (leaves): the game stops as before the offer existed
        await right.close()
        await until(lambda: left.offered is not None, "LEFT is offered the computer", timeout=5)
        assert left.offered == Offered("RIGHT", 5, "a new player's pace: nothing stored")
        assert room.code in host.lobby.rooms and not stopped  # waiting for LEFT's choice
        await left.close()
        line = "RIGHT did not come back within 0.4 s: the game is stopped"
        await until(lambda: bool(stopped), "the room stops", timeout=5)
        assert stopped == [line]
        assert room.code not in host.lobby.rooms
    finally:
        await host.close()
    assert games(db) == [(0, 0, "LEFT", "RIGHT")]  # kept unfinished (no round over yet)


async def test_a_player_who_quits_mid_game_is_a_leave_the_other_is_told_at_once(
    tmp_path: Path,
) -> None:
    """Quitting (the quit key: the seat says `bye` before closing) is not a
    dropped line: the host stops the game at once, with the whole wait still
    to run, and the player still there is told in one line who left (their
    board then ends, as any stopped room's, back to where they came from)."""
    db = tmp_path / "history.db"
    host, stopped = _stops_told(db, wait_s=120.0)
    await host.start()
    try:
        room, left, right = await _playing(host)
        await _a_card_played(room, left)
        await right.close(leave=True)  # RIGHT's player quits: a leave
        line = "RIGHT left the game: the game is stopped"
        await until(lambda: left.ended is not None, "LEFT is told", timeout=5)
        assert left.ended == line and left.offered is None  # no wait, no takeover offer
        assert stopped == [line] and room.code not in host.lobby.rooms
    finally:
        await host.close()
    assert games(db) == [(0, 0, "LEFT", "RIGHT")]  # stored stopped, as a drop's game is


async def test_the_stored_pace_is_read_off_the_loop_and_the_level_offered_plays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The dropped player's stored card times come from the host's history in a
    thread (a SQLite query never holds up the rooms on the loop); the level
    offered from them is the level the computer then plays at."""
    import spit_tui.players.auto as auto

    stored = [0.9] * 12
    read_in: list[threading.Thread] = []

    def reading(name: str | None, db: str | None = None) -> list[float]:
        read_in.append(threading.current_thread())
        return stored if name == "RIGHT" else []

    monkeypatch.setattr(auto, "stored_reaction_times", reading)
    host = Host(port=0, timings=FAST, seed=3, wait_s=0.3, history=HistoryWriter(tmp_path / "h.db"))
    await host.start()
    try:
        room, left, right = await _playing(host)
        await right.close()
        await until(lambda: left.offered is not None, "LEFT is offered the computer", timeout=5)
        rung = start_rung(stored)
        assert left.offered == Offered("RIGHT", rung, "RIGHT's stored pace")
        assert read_in and all(t is not threading.main_thread() for t in read_in)
        left.takeover()
        await until(lambda: Player.RIGHT in room.computers, "the computer sits", timeout=5)
        assert room.computers[Player.RIGHT].rung == rung
        await left.close()
    finally:
        await host.close()


@pytest.mark.long(7)
async def test_a_finished_game_is_stored_in_the_hosts_history(tmp_path: Path) -> None:
    db = tmp_path / "history.db"
    host = Host(port=0, timings=FAST, seed=3, history=HistoryWriter(db))
    await host.start()
    try:
        room = host.new_room()
        left = await Client.join("127.0.0.1", host.port, room.code, "left")
        right = await Client.join("127.0.0.1", host.port, room.code, "right")
        async with asyncio.timeout(GAME_S):
            await asyncio.gather(
                play_as_bot(left, random.Random(1), think_s=(0.0, 0.001)),
                play_as_bot(right, random.Random(2), think_s=(0.0, 0.001)),
            )
        assert room.table.game.over
        await left.close()
        await right.close()
        await until(lambda: room.code not in host.lobby.rooms, "a played-out room is let go")
    finally:
        await host.close()
    stored = games(db)
    assert len(stored) == 1 and stored[0][0] == 1
    assert stored[0][1] == room.table.position.round
