"""The word beside each player (spit_tui.messages): it runs out on the game
clock, a newer word replaces it and its timer, and the refusal words name
whose card won."""

from __future__ import annotations

from spit_tui.clock import VirtualClock
from spit_tui.engine import Event, Game, Phase, Play, Player, Slap, card
from spit_tui.messages import (
    FOREVER,
    MESSAGE_S,
    Messages,
    computers_half,
    idle,
    too_late,
)
from spit_tui.scene import Outcome, Said


def _messages() -> tuple[Messages, VirtualClock, list[int]]:
    clock = VirtualClock()
    changes: list[int] = []
    return Messages(clock, lambda: changes.append(1)), clock, changes


def test_a_word_runs_out_on_the_game_clock_and_its_end_repaints() -> None:
    m, clock, changes = _messages()
    m.say(Player.LEFT, "too soon: press again")
    assert changes == [1]  # said: a repaint now
    assert m.said(clock.now()) == (Said("too soon: press again", Outcome.IGNORED), None)
    clock.advance(MESSAGE_S - 0.1)
    assert m.message(Player.LEFT) is not None
    clock.advance(0.2)
    assert m.message(Player.LEFT) is None and m.said(clock.now()) == (None, None)
    assert changes == [1, 1]  # and one when it ran out


def test_a_word_waits_while_the_clock_is_paused() -> None:
    m, clock, _ = _messages()
    m.put(Player.RIGHT, "wait for the spit", Outcome.IGNORED)
    clock.pause("help", True)
    clock.advance(10 * MESSAGE_S)
    assert m.message(Player.RIGHT) is not None


def test_a_newer_word_replaces_the_word_and_its_timer() -> None:
    m, clock, changes = _messages()
    for i in range(50):  # refused keys on a paused table: one timer, not fifty
        m.put(Player.LEFT, f"paused {i}", Outcome.IGNORED)
    assert clock.pending == 1
    clock.advance(0.5)
    m.put(Player.LEFT, "again", Outcome.ILLEGAL)
    assert clock.pending == 1
    msg = m.message(Player.LEFT)
    assert msg is not None and msg.text == "again" and msg.kind is Outcome.ILLEGAL
    assert msg.until == clock.now() + MESSAGE_S
    clock.advance(MESSAGE_S)
    assert m.message(Player.LEFT) is None and changes == [1]


def test_a_word_that_stays_until_the_next_and_clearing_and_forgetting() -> None:
    m, clock, _ = _messages()
    m.put(Player.RIGHT, "from the host", Outcome.IGNORED, FOREVER)
    assert clock.pending == 0  # nothing to run out
    clock.advance(1000.0)
    assert m.said(clock.now())[Player.RIGHT] == Said("from the host", Outcome.IGNORED)
    m.clear(Player.RIGHT)
    assert m.message(Player.RIGHT) is None
    m.put(Player.LEFT, "a", Outcome.IGNORED)
    m.put(Player.RIGHT, "b", Outcome.IGNORED)
    m.forget()
    assert m.said(clock.now()) == (None, None)


def test_the_refusal_words() -> None:
    game = Game(seed=1)
    c = card("9d")
    names = ("ANN", "BO")
    pos = game.position
    played = Event(action=Play(Player.RIGHT, 0, 0), position=pos, card=c)
    assert too_late(played, Player.LEFT, names, "x") == f"too late: BO played {c.face} first"
    unseen = Event(action=Play(Player.RIGHT, 0, 0), position=pos)  # no card: no face to name
    assert too_late(unseen, Player.LEFT, names, "x") == "too late: BO was first"
    slapped = Event(action=Slap(Player.LEFT, 0), position=pos)
    assert too_late(slapped, Player.RIGHT, names, "x") == "too late: ANN slapped first"
    assert too_late(slapped, Player.LEFT, names, "the engine's") == "the engine's"
    assert too_late(None, Player.LEFT, names, "the engine's") == "the engine's"
    assert idle(Phase.SLAP) == "slap a pile: top or middle row"
    assert idle(Phase.OVER) == "the game is over"
    assert idle(Phase.PLAY) == "that key does nothing now"
    assert computers_half(Player.RIGHT) == "computer's half: use the left half"
