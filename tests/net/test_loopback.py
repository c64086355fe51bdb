"""Two bot clients play a whole game through a real host on 127.0.0.1, each
deciding from the views it is sent and pressing keys over the wire."""

from __future__ import annotations

import asyncio
import random

import pytest

from spit_tui.engine import Fill, Phase, Play, Player, Ready, Slap
from spit_tui.keys.intent import Row, intent_for
from spit_tui.net.client import Client, JoinRefused, play_as_bot
from spit_tui.net.host import Host, Timings

FAST = Timings(countdown_s=0.05, stale_s=0.02, stuck_delay_s=0.02)
QUICK = (0.0, 0.001)  # seconds a bot thinks before each key
GAME_S = 60.0  # a bound, not a speed: the game takes a few seconds


@pytest.mark.long(9)
async def test_two_bot_clients_play_a_whole_game_through_the_host() -> None:
    host = Host(port=0, timings=FAST, seed=3)
    await host.start()
    try:
        room = host.new_room()
        left = await Client.join("127.0.0.1", host.port, room.code, "left")
        right = await Client.join("127.0.0.1", host.port, room.code.upper().replace("-", ""))
        assert (left.seat, right.seat) == (Player.LEFT, Player.RIGHT)
        async with asyncio.timeout(GAME_S):
            ends = await asyncio.gather(
                play_as_bot(left, random.Random(1), think_s=QUICK),
                play_as_bot(right, random.Random(2), think_s=QUICK),
            )
        table = room.table
        assert table.game.over
        for end in ends:
            assert end is not None and end.phase is Phase.OVER
            assert end.winner == table.position.winner
        assert table.position.round >= 2
        keys = [d for d in table.decisions if d.source == "key"]
        # every move came over the wire (the host keeps its last decisions only)
        assert len(keys) == len(table.decisions) and table.decided > 100
        assert {d.player for d in keys} == {Player.LEFT, Player.RIGHT}
        assert left.views > 50 and right.views > 50
        await left.close()
        await right.close()
        async with asyncio.timeout(5.0):  # the game is over and both have gone: dropped
            while room.code in host.lobby.rooms:
                await asyncio.sleep(0.02)
    finally:
        await host.close()


async def test_join_refusals_and_a_host_that_goes_away_are_one_line() -> None:
    host = Host(port=0, timings=FAST)
    await host.start()
    room = host.new_room()
    with pytest.raises(JoinRefused, match="no room"):
        await Client.join("127.0.0.1", host.port, "00000-00000")
    client = await Client.join("127.0.0.1", host.port, room.code)
    await client.changed(3.0)
    assert client.latest is not None and client.latest.waiting == "RIGHT"
    await host.close()
    while client.ended is None:
        assert await client.changed(3.0)
    assert client.ended == "the host is stopping"


def test_each_action_has_the_key_that_asks_for_it() -> None:
    L = Player.LEFT
    assert intent_for(Play(L, 3, 1))[1:] == (Row.PILE_B, 3)
    assert intent_for(Fill(L, 2, 0))[1:] == (Row.FILL, 2)
    assert intent_for(Slap(L, 0))[1:] == (Row.PILE_A, 0)
    assert intent_for(Ready(L))[1:][0] in Row
