"""A table's Scene (spit_tui.tablescene): the table's ordered state, who sits
there and the words beside the players, put together in one value."""

from __future__ import annotations

from spit_tui.clock import VirtualClock
from spit_tui.engine import EndReason, Game, Player, RoundEnd
from spit_tui.messages import MESSAGE_S
from spit_tui.scene import SCOREBOARD_ROUNDS, Said, Scored
from spit_tui.seats import Seats
from spit_tui.table import Outcome, Table


def _end(n: int) -> RoundEnd:
    return RoundEnd(
        n, EndReason.CLEARED, False, Player.LEFT, (0, 1), (3, 4), (10, 12), (n, 0), (n, 0)
    )


def test_the_scene_carries_the_seats_and_the_words_of_now() -> None:
    clock = VirtualClock()
    t = Table(Game(seed=3), clock)
    t.seat(Seats.of(("ANN", "COMPUTER"), {Player.RIGHT: "hard"}))
    t.messages.say(Player.LEFT, "wait for the spit", Outcome.IGNORED)
    s = t.scene()
    assert s.names == ("ANN", "COMPUTER") and s.computer == (None, "hard")
    assert s.messages == (Said("wait for the spit", Outcome.IGNORED), None)
    assert s.fresh and s.at == clock.now() and not s.held and s.scoreboard == ()
    clock.advance(MESSAGE_S)
    assert t.scene().messages == (None, None)  # ran out on the game clock


def test_the_room_adds_its_own_facts_when_it_asks() -> None:
    t = Table(Game(seed=3), VirtualClock())
    s = t.scene(waiting="BO", pings=(12, None), room_wins=(1, 2), watchers=3)
    assert (s.waiting, s.pings, s.room_wins, s.watchers) == ("BO", (12, None), (1, 2), 3)
    plain = t.scene()
    assert (plain.waiting, plain.pings, plain.room_wins, plain.watchers) == (None, None, None, 0)


def test_the_scoreboard_shows_the_latest_rounds_numbered_as_the_games() -> None:
    t = Table(Game(seed=3), VirtualClock())
    for n in range(1, 4):
        t.shown.rounds.append(_end(n))
    assert t.scene().scoreboard == tuple(Scored(n, (n, 0)) for n in range(1, 4))
    for n in range(4, SCOREBOARD_ROUNDS + 4):
        t.shown.rounds.append(_end(n))
    board = t.scene().scoreboard
    assert len(board) == SCOREBOARD_ROUNDS
    assert board == tuple(Scored(n, (n, 0)) for n in range(4, SCOREBOARD_ROUNDS + 4))


def test_a_side_that_did_not_move_is_the_same_view_as_before() -> None:
    """One action changes one side: the builder keeps the other's view (the
    bots and the board compare views by identity to skip work)."""
    t = Table(Game(seed=3), VirtualClock())
    a, b = t.scene(), t.scene()
    assert a.sides[0] is b.sides[0] and a.sides[1] is b.sides[1]
