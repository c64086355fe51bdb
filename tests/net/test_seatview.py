"""Each seat sees only what its player may see: every message of whole games,
the hidden cards shuffled without a change, and only its own messages."""

from __future__ import annotations

import random

import pytest
from testkit.lobby import cards_in, join, lobby, visible_cards

from spit_tui.clock import VirtualClock
from spit_tui.engine import Game, Options, Phase, Player, Ready, Slot, Variant
from spit_tui.keys.intent import Row
from spit_tui.net.seatview import scene_from_wire, seat_view
from spit_tui.players.bot import Bot
from spit_tui.table import Table


@pytest.mark.parametrize("frames", [False, True], ids=["messages", "frames"])
def test_every_message_of_whole_games_shows_only_public_cards(frames: bool) -> None:
    for seed, options in ((1, Options()), (5, Options(variant=Variant.POINTS, target=30))):
        lob = lobby(seed, options)
        room = lob.new_room()
        _left, lrec = join(lob, room, "left", frames=frames)
        _right, rrec = join(lob, room, "right", frames=frames)
        table = room.table
        bots = [Bot(table, p, "expert", rng=random.Random(seed + p)) for p in Player]
        for b in bots:
            b.attach()
        clock = table.clock
        steps = 0
        while not table.game.over and steps < 200_000:
            assert clock.step()  # type: ignore[attr-defined]
            steps += 1
        assert table.game.over
        for rec, me in ((lrec, Player.LEFT), (rrec, Player.RIGHT)):
            views = rec.views()
            assert len(views) > 100  # the whole game went by, change by change
            rounds = set()
            seen: set[str] = set()  # every card that has been face up so far
            for msg, pos in views:
                shown = cards_in(msg)
                now = {str(c) for c in visible_cards(pos)}
                seen |= now
                # the cards on show, and in the feed cards shown face up before
                assert shown <= seen, (msg, pos)
                assert cards_in({k: v for k, v in msg.items() if k != "story"}) <= now
                scene = scene_from_wire(msg, me)  # and the client can read every one
                assert scene.sides[0].sizes == tuple(len(s.cards) for s in pos.sides[0].slots)
                assert scene.pile_sizes == tuple(len(p) for p in pos.piles)
                rounds.add(scene.round)
            assert views[-1][0]["phase"] == "over"
            assert views[-1][0]["winner"] == ("left", "right")[table.position.winner or 0]
            assert len(rounds) >= 2
        assert lrec.closed is None and rrec.closed is None


def _shuffle_hidden(table: Table, rng: random.Random) -> Table:
    """The same table with every face-down stockpile card and spit card shuffled."""
    pos = table.position
    hidden = [c for side in pos.sides for s in side.slots for c in s.cards[: s.face_down]]
    hidden += [c for side in pos.sides for c in side.spit]
    rng.shuffle(hidden)
    it = iter(hidden)
    sides = []
    for side in pos.sides:
        slots = tuple(
            Slot(tuple(next(it) for _ in range(s.face_down)) + s.cards[s.face_down:], s.up)
            for s in side.slots
        )
        sides.append(side._replace(slots=slots))
    sides = [s._replace(spit=tuple(next(it) for _ in s.spit)) for s in sides]
    new = pos._replace(sides=(sides[0], sides[1]))
    return Table(Game(position=new, seed=0), VirtualClock())


def test_shuffling_the_hidden_cards_changes_no_view() -> None:
    lob = lobby(3)
    room = lob.new_room()
    table = room.table
    for p in Player:
        table.game.apply(Ready(p))
    assert table.position.phase is Phase.PLAY
    rng = random.Random(0)
    table = Table(Game(position=table.position, seed=0), VirtualClock())  # its play clock runs
    for _ in range(5):
        other = _shuffle_hidden(table, rng)
        assert other.position != table.position
        for p in Player:
            assert seat_view(other, p) == seat_view(table, p)


def test_a_seat_gets_its_own_messages_only() -> None:
    lob = lobby(2)
    room = lob.new_room()
    _, lrec = join(lob, room, "left")
    _, rrec = join(lob, room, "right")
    room.submit(Player.LEFT, Row.PILE_B, 0)  # too soon to say spit (D13): a message for LEFT
    lmsg, rmsg = lrec.sent[-1][0], rrec.sent[-1][0]
    assert lmsg["message"] is not None and "too soon" in lmsg["message"]["text"]
    assert rmsg["message"] is None
    assert room.table.decisions[-1].player is Player.LEFT
