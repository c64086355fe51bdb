"""A host's rooms in its history (issues 20 and 23): each room's games are
stored under the names its seats gave and, where the SSH door vouched for a
guest, under that guest's key; a match room (`host --match N`) shows the
match on both boards, groups its games in the history, and every game is
rated. Real sockets on 127.0.0.1 and a real SQLite file; the rooms deal a
position one card from the end, so each game takes a moment."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from pathlib import Path

import pytest
from testkit.join import FAST, until
from testkit.store import count_set_starts

from spit_tui.engine import Game, Options, Phase, Player, parse_position
from spit_tui.net.client import Client, JoinRefused, play_as_bot
from spit_tui.net.host import Host
from spit_tui.net.room import Room
from spit_tui.store.history import HistoryWriter
from spit_tui.table import Table

GAME_S = 20.0  # a bound, not a speed
# docs/rules.md, the R19 example: round 9, one pile, each player one card left.
NEAR_END = (
    "play 9 one:L - :Td/-/-/-/- - 2d8c4h5hKsKcAs6hQd6dJc9d7dJs2s6cTh2hQh5cQcKhAc8d4c9h3s2c"
    "7hAdTs9c4d5d7s4s3hJdTc3cAh8sKd6s5s7c3dQsJh9s :8h/-/-/-/- - 0,0"
)


class NearEndHost(Host):
    """A host whose rooms deal a game one card from the end."""

    def _make_table(self) -> Table:
        table = super()._make_table()
        table.new_game(near_end(Options()))
        return table

    def new_room(self) -> Room:
        room = super().new_room()
        room.deal = near_end  # each rematch too
        return room


def near_end(options: Options) -> Game:
    return Game(options=options, position=parse_position(NEAR_END), seed=7)


def rows(path: Path, sql: str) -> list[tuple[object, ...]]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


async def _play(left: Client, right: Client) -> None:
    async with asyncio.timeout(GAME_S):
        await asyncio.gather(
            play_as_bot(left, random.Random(1), think_s=(0.0, 0.001)),
            play_as_bot(right, random.Random(2), think_s=(0.0, 0.001)),
        )


async def test_a_match_room_stores_its_games_by_name_and_key_grouped_and_rated(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    count_set_starts(monkeypatch)  # near the end, counted as if dealt
    db = tmp_path / "history.db"
    host = NearEndHost(port=0, timings=FAST, history=HistoryWriter(db), first_to=2)
    await host.start()
    try:
        room = host.new_room()
        given = host.lobby.vouch("SHA256:ana-key")
        left = await Client.join("127.0.0.1", host.port, room.code, "left", name="ana",
                                 door=given)
        right = await Client.join("127.0.0.1", host.port, room.code, "right", name="ben")
        await until(lambda: left.latest is not None and left.latest.waiting is None, "both here")
        assert left.latest is not None and left.latest.match == "match ana 0 : 0 ben, first to 2"
        winners = []
        for _ in range(2):
            await _play(left, right)
            winner = room.table.position.winner
            assert winner is not None
            winners.append(room.table.seats.names[winner])
            for seat in (left, right):  # both boards carry the match state at game over
                await until(lambda s=seat: s.latest is not None and s.latest.winner is not None,
                            "the game-over view")
            wins = [winners.count("ana"), winners.count("ben")]
            if max(wins) == 2:
                who = "ana" if wins[0] == 2 else "ben"
                line = f"{who} wins the match 2 : {min(wins)}"
            else:
                line = f"match ana {wins[0]} : {wins[1]} ben, first to 2"
            await until(lambda line=line: right.latest is not None and right.latest.match == line,
                        f"right's board says {line!r}")
            left.rematch()
            right.rematch()
            await until(lambda: not room.table.game.over, "the rematch begins")
            for seat in (left, right):  # and each board has it, or its bot sees the old end
                await until(
                    lambda s=seat: s.latest is not None and s.latest.phase is not Phase.OVER,
                    "the new game on each board",
                )
        await left.close()
        await right.close()
    finally:
        await host.close()
    games = rows(db, "SELECT id, left_name, right_name, finished, match_id, match_first_to"
                     " FROM games ORDER BY id")
    first = games[0][0]
    assert games == [(first, "ana", "ben", 1, first, 2), (first + 1, "ana", "ben", 1, first, 2)]
    seats = rows(db, "SELECT game_id, seat, name, identity, mu IS NOT NULL FROM game_players"
                     " ORDER BY game_id, seat")
    assert seats == [
        (first, "L", "ana", "SHA256:ana-key", 1), (first, "R", "ben", None, 1),
        (first + 1, "L", "ana", "SHA256:ana-key", 1), (first + 1, "R", "ben", None, 1),
    ]  # each game rated, ana under her key


async def test_a_door_pass_the_host_did_not_give_is_refused() -> None:
    host = Host(port=0, timings=FAST)
    await host.start()
    try:
        room = host.new_room()
        given = host.lobby.vouch("SHA256:k")
        host.lobby.revoke(given)  # the guest's session ended
        for bad in ("made-up", given):
            with pytest.raises(JoinRefused, match="a door pass this host did not give"):
                await Client.join("127.0.0.1", host.port, room.code, door=bad)
        assert all(s.token is None for s in room.seats.values())  # no seat was taken
    finally:
        await host.close()


async def test_todays_deal_is_a_room_of_the_daily_and_fills_the_days_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`daily` (the lobby's Today's deal): a room dealt from the host's UTC day
    against the computer at the daily's level; its games are stored as that
    day's, so the day's table of the host's history (the SSH lobby's) has the
    player, by their key."""
    count_set_starts(monkeypatch)  # near the end, counted as if dealt
    from datetime import date

    from spit_tui.store import daily

    db = tmp_path / "history.db"
    day = date(2026, 12, 2)
    host = Host(port=0, timings=FAST, history=HistoryWriter(db))
    host.lobby.today = lambda: day
    await host.start()
    try:
        code = await Client.new_room("127.0.0.1", host.port, kind="daily")
        room = host.lobby.rooms[code]
        assert room.daily == "2026-12-02" and room.table.game.seed == daily.seed_for(day)
        assert [(p, c.rung) for p, c in room.computers.items()] == [(Player.RIGHT, 7)]
        assert room.deal(Options()).seed == daily.seed_for(day)  # a rematch: the same deal
        room.table.new_game(near_end(Options()))  # (the test's: to the end at once)
        given = host.lobby.vouch("SHA256:ana-key")
        ana = await Client.join("127.0.0.1", host.port, code, "left", name="ana", door=given)
        async with asyncio.timeout(GAME_S):
            await play_as_bot(ana, random.Random(1), think_s=(0.0, 0.001))
        await ana.close()
    finally:
        await host.close()
    conn = sqlite3.connect(db)
    try:
        table = daily.day_table(conn, "2026-12-02")
        record = conn.execute("SELECT record FROM games").fetchone()[0]
    finally:
        conn.close()
    assert [name for name, _ in table] == ["ana"]  # the computer is nobody's row
    assert '[Daily "2026-12-02"]' in record
