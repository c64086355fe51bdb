"""The computer at a room's table (net/computer.py): a dropped seat finished by
it when the player still there chooses so, "Play the computer" rooms, the
pace it plays a dropped player at, how the host's history records it, and
the lobby's list of games to watch (protocol 4's `rooms`)."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest
from testkit.join import FAST, until
from testkit.lobby import Recorder, body, join, lobby

from spit_tui.app.board import ping_words
from spit_tui.decision import Decision
from spit_tui.engine import Options, Player, Source, Variant
from spit_tui.net.client import Client, JoinRefused, play_as_bot
from spit_tui.net.computer import (
    MIN_PLAYS,
    Pace,
    SeatComputer,
    computer_seating,
    pace_of,
)
from spit_tui.net.host import Host
from spit_tui.net.joincmd import ask_room, watch_line, watchable
from spit_tui.net.protocol import MAX_LISTED, encode, first, read_frame, refused
from spit_tui.net.room import Lobby, Room
from spit_tui.net.session import Session
from spit_tui.players.bot import Bot
from spit_tui.players.ladder import PLACEMENT, TOP, start_rung
from spit_tui.store.figures import figures
from spit_tui.store.history import HistoryWriter, Seating
from spit_tui.store.queries import reaction_times
from spit_tui.store.records import record_of
from spit_tui.store.resume import TAKEOVER_TAG, takeover_seats
from spit_tui.subscription import Subscription


def steps(room: Room, until_: object, limit: int = 200_000) -> None:
    """Run the room's virtual clock until `until_()` holds."""
    n = 0
    while not until_():  # type: ignore[operator]
        assert room.table.clock.step(), "nothing left to happen"  # type: ignore[attr-defined]
        n += 1
        assert n < limit


def dropped_room(seed: int = 4) -> tuple[Lobby, Room, Session, Recorder, Session, list[Decision]]:
    """ana and ben (bots at their seats) play a few cards; then ben's line drops."""
    lob = lobby(seed)
    room = lob.new_room()
    (ana, a), (ben, _) = (join(lob, room, side, name=n)
                          for side, n in (("left", "ana"), ("right", "ben")))
    decisions: list[Decision] = []
    room.table.subscribe(Subscription(on_decision=decisions.append))
    bots = [Bot(room.table, p, "expert", rng=random.Random(seed + p)) for p in Player]
    for bot in bots:
        bot.attach()
    steps(room, lambda: len(room.table.game.log) >= 12)
    bots[Player.RIGHT].detach()  # ben's hands leave with his line
    ben.ended()
    assert room.waiting == "ben"
    return lob, room, ana, a, ben, decisions


def take_over(room: Room, rung: int) -> None:
    table = room.table
    room.on_takeover = lambda p: room.seat_computer(
        p, SeatComputer.seat(table, p, rung, table.clock.now() - table.shown.started_at)
    )


def test_a_dropped_seat_finished_by_the_computer_plays_through_the_table_to_the_end() -> None:
    _, room, ana, a, ben, decisions = dropped_room()
    token = room.seats[Player.RIGHT].token
    bens_own = reaction_times_of(room)  # his card times before he dropped
    take_over(room, 9)
    assert room.offer_takeover(Player.RIGHT, 9, "ben's pace in this game")
    assert a.sent[-1][0] == {"type": "dropped", "name": "ben", "level": 9,
                             "pace": "ben's pace in this game"}
    assert room.table.paused  # waiting for ana's choice
    before = len(room.table.game.log)
    ana.receive(body({"type": "takeover"}), room.table.clock.now())
    assert Player.RIGHT in room.computers and room.waiting is None and not room.table.paused
    views = [m for m, _ in a.sent if m["type"] == "view"]
    assert views[-1]["computer"] == [None, "level 9"]  # the board says who plays there
    assert ping_words(room._scene())[1] == "ben"  # no ping for a seat with no line
    taken = len(decisions)
    steps(room, lambda: room.table.game.over)
    # the engine's rules and the one input path: every RIGHT decision since is the
    # computer's, made through the table (so through its gate: some are refused)
    right = [d for d in decisions[taken:] if d.player is Player.RIGHT]
    assert right and all(d.source == "bot" for d in right)
    record = record_of(room.table)
    stamps = record.stamps[before:]
    mine = [s for s, act in zip(stamps, record.actions[before:], strict=True)
            if act.player is Player.RIGHT]  # fmt: skip
    assert mine and all(s is not None and s.source is Source.COMPUTER for s in mine)
    # the record and the history say the computer finished ben's seat
    names, tags, rungs = computer_seating(room.table, room.computers)
    assert names == ("ana", "ben") and rungs == (None, 9)
    seat, rung, at = dict(tags)[TAKEOVER_TAG].split()
    assert (seat, rung) == ("R", "9") and float(at[1:]) > 0
    # ben's figures (his next pace offer, his stats) are his own plays only: the
    # record's Takeover tag leaves the computer's plays of his seat out
    with_computers = figures(record).players[Player.RIGHT].reactions
    record.tags.update(tags)
    his = figures(record).players[Player.RIGHT]
    assert list(his.reactions) == bens_own and len(with_computers) > len(bens_own)
    assert his.cards > len(bens_own)  # the seat's cards count every card played there
    # ben cannot take the seat back
    assert room.take({"token": token, "seat": None}) == (
        "the computer has taken that seat: the game went on without you"
    )
    # a rematch: the computer always wants one, and plays the next game from its start
    ana.receive(body({"type": "rematch"}), room.table.clock.now())
    assert not room.table.game.over and room.games == 2
    names, tags, _ = computer_seating(room.table, room.computers)
    assert names == ("ana", "computer (level 9)") and TAKEOVER_TAG not in dict(tags)
    assert ben.closed


def test_no_offer_no_takeover_and_a_player_back_in_time_withdraws_it() -> None:
    lob, room, ana, a, _, _ = dropped_room()
    take_over(room, 9)
    ana.receive(body({"type": "takeover"}), 0.0)  # nothing was offered: nothing happens
    assert not room.computers and room.waiting == "ben"
    assert room.offer_takeover(Player.RIGHT, 9, "a new player's pace: nothing stored")
    token = room.seats[Player.RIGHT].token
    join(lob, room, token=token)  # ben is back after all
    assert room.offered is None and room.waiting is None
    ana.receive(body({"type": "takeover"}), 0.0)
    assert not room.computers and a.closed is None


def test_the_pace_comes_from_stored_figures_then_this_game_then_a_new_players(
    tmp_path: Path,
) -> None:
    db = tmp_path / "history.db"
    _, room, *_ = dropped_room()
    assert pace_of(room.table, Player.RIGHT, "ben", str(db)) == Pace(
        start_rung(reaction_times_of(room)), "this game"
    )
    fresh = lobby(5).new_room()
    assert pace_of(fresh.table, Player.RIGHT, "ben", str(db)) == Pace(PLACEMENT["new"], "none")
    assert Pace(5, "none").words("ben") == "a new player's pace: nothing stored"
    # ben's figures stored in the host's history (a game he played to the end): those place him
    lob = lobby(6)
    played = lob.new_room()
    join(lob, played, name="ana")
    join(lob, played, name="ben")
    writer = HistoryWriter(db, threaded=False)
    writer.attach(played.table, lambda: Seating(("ana", "ben")))
    for bot in (Bot(played.table, p, "expert", rng=random.Random(p)) for p in Player):
        bot.attach()
    steps(played, lambda: played.table.game.over)
    writer.close()
    stored = reaction_times("ben", db)
    assert len(stored) >= MIN_PLAYS
    pace = pace_of(fresh.table, Player.RIGHT, "ben", str(db))
    assert pace == Pace(start_rung(stored), "stored") and pace.words("ben") == "ben's stored pace"


def test_a_player_whose_seat_the_computer_finished_keeps_only_their_own_card_times(
    tmp_path: Path,
) -> None:
    """The host's history (a real SQLite file) stores ben's game with the
    Takeover tag; his stored card times, which place his next pace offer, are
    his own plays, not the computer's."""
    db = tmp_path / "history.db"
    lob = lobby(4)
    room = lob.new_room()
    writer = HistoryWriter(db, threaded=False)
    writer.attach(room.table, lambda: Seating(*room.seating()))
    join(lob, room, "left", name="ana")
    join(lob, room, "right", name="ben")
    bots = [Bot(room.table, p, "expert", rng=random.Random(4 + p)) for p in Player]
    for bot in bots:
        bot.attach()
    steps(room, lambda: len(room.table.game.log) >= 12)
    bots[Player.RIGHT].detach()  # ben's hands leave
    bens_own = reaction_times_of(room)
    table = room.table
    table.clock.advance(1.0)  # type: ignore[attr-defined]  # a second later, the computer
    room.seat_computer(Player.RIGHT, SeatComputer.seat(
        table, Player.RIGHT, 9, table.clock.now() - table.shown.started_at))
    steps(room, lambda: table.game.over)
    writer.close()
    assert len(reaction_times_of(room)) > len(bens_own)  # the computer played his seat on
    assert reaction_times("ben", db) == bens_own and len(bens_own) >= MIN_PLAYS


def test_takeover_tag_parts_that_are_not_a_seat_and_a_time_are_passed_over() -> None:
    tags = {TAKEOVER_TAG: "R 9 @5.053 X 1 @2.0 L 3 @zz L 4"}
    assert takeover_seats(tags) == {Player.RIGHT: 5.053}
    assert takeover_seats({}) == {}


def reaction_times_of(room: Room) -> list[float]:
    from spit_tui.store.figures import figures

    return list(figures(record_of(room.table)).players[Player.RIGHT].reactions)


def test_rooms_lists_only_games_with_both_seats_taken_newest_first() -> None:
    lob = lobby(2)
    full = []
    for i in range(MAX_LISTED + 2):
        room = lob.new_room()
        join(lob, room, name=f"a{i}")
        join(lob, room, name=f"b{i}")
        full.append(room)
    waiting = lob.new_room()
    join(lob, waiting, name="alone")  # someone's invitation: never listed
    conn = Recorder(lob)
    Session(lob, conn, 0.0).receive(body(first("rooms")), 0.0)
    (answer, _), = conn.sent
    listed = answer["rooms"]
    assert len(listed) == MAX_LISTED
    assert [r["code"] for r in listed] == [r.code for r in reversed(full)][:MAX_LISTED]
    assert listed[0] == {"code": full[-1].code, "names": [f"a{MAX_LISTED + 1}",
                         f"b{MAX_LISTED + 1}"], "variant": "standard", "target": 100,
                         "computer": False, "watchers": 0, "match": None}  # fmt: skip
    assert waiting.code not in {r["code"] for r in listed}
    conn2 = Recorder(lob)
    s = Session(lob, conn2, 0.0)
    s.receive(body(first("rooms")), 0.0)
    s.receive(body(first("rooms")), 0.0)  # one list a connection
    assert conn2.closed == "one list of rooms per connection, before anything else"
    assert watch_line({**listed[0], "match": [2, 1], "variant": "points", "target": 50,
                       "watchers": 3}) == (f"a{MAX_LISTED + 1} 2 : 1 b{MAX_LISTED + 1}"
                                           " · points to 50 · 3 watching")  # fmt: skip


async def test_the_lobby_entries_over_real_sockets_options_computer_and_the_list() -> None:
    host = Host(port=0, timings=FAST, seed=3)
    await host.start()
    try:
        # New room with its own options: every game in it plays them
        points = Options(Variant.POINTS, 50, manual_flip=True)
        code = await Client.new_room("127.0.0.1", host.port, options=points)
        assert host.lobby.rooms[code].table.game.options == points
        # Play the computer, as the lobby asks it (a level, no options): it sits
        # in the RIGHT chair and plays through the gate
        code = await ask_room("127.0.0.1", host.port, computer=TOP)
        assert code is not None
        room = host.lobby.rooms[code]
        assert room.waiting == "LEFT" and room.table.seats.names[Player.RIGHT] == "COMPUTER"
        with pytest.raises(JoinRefused, match=f"no computer level {TOP + 1} on this host"):
            await Client.new_room("127.0.0.1", host.port, options=Options(), computer=TOP + 1)
        assert await watchable("127.0.0.1", host.port) == []  # a seat free: not a show yet
        ana = await Client.join("127.0.0.1", host.port, code, name="ana")
        await until(lambda: room.table.seats.names[Player.LEFT] == "ana", "ana named")
        assert room.table.seats.level(Player.RIGHT) == f"level {TOP}"  # kept by her name
        bot = asyncio.create_task(play_as_bot(ana, random.Random(1)))
        await until(lambda: any(d.player is Player.RIGHT and d.source == "bot"
                                and d.outcome.name == "APPLIED"
                                for d in room.table.decisions), "the computer plays")
        listed = await watchable("127.0.0.1", host.port)
        assert [(w.code, w.line) for w in listed] == [(code, "ana v COMPUTER · standard")]
        names, tags, rungs = room.seating()[0], room.seating()[3], room.seating()[4]
        assert names == ("ana", f"computer (level {TOP})") and rungs == (None, TOP)
        assert dict(tags) == {"Computer": f"R level {TOP}", "Room": code}
        bot.cancel()
        await ana.close()
    finally:
        await host.close()


async def test_an_older_client_and_an_older_host_are_told_what_to_update() -> None:
    host = Host(port=0, timings=FAST, seed=3)
    await host.start()
    try:
        with pytest.raises(JoinRefused, match="your spit-tui speaks an older one"):
            await Client.ask("127.0.0.1", host.port, {"type": "new_room"}, "room")
    finally:
        await host.close()

    async def older(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await read_frame(reader)  # a version 3 host knows no `rooms`
        writer.write(encode(refused("a message of no known type")))
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(older, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        assert await watchable("127.0.0.1", port) == (
            "the host refused: this host speaks an older protocol than version 5: "
            "update the host (pip install -U spit-tui)"
        )
    finally:
        server.close()


@pytest.mark.parametrize("source", ["stored", "this game", "none"])
def test_the_offer_fits_the_banner_with_the_longest_name(source: str) -> None:
    """The offer's lines each fit a banner at 80 columns (76 cells) beside a
    20-character name at the ladder's top: the pace has a line of its own (said
    after the level, it wrapped even for "ben")."""
    from rich.text import Text

    from spit_tui.clock import VirtualClock
    from spit_tui.net.remote import RemoteSeat

    name = "Zoë Ана-Łukasz ★ Ünï"
    assert len(name) == 20
    seat = RemoteSeat(Player.LEFT, lambda row, slot: None, VirtualClock(), 0.2)
    seat.offered = (name, 14, Pace(14, source).words(name))
    lines = seat.scene().away_hint.split("\n")
    assert lines[0] == f"Enter: the computer plays {name}'s seat (level 14)"
    assert lines[-1] == "Ctrl+Q: stop the game"
    for line in lines:
        assert Text(line).cell_len <= 76, line
