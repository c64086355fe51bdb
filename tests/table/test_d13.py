"""D13 at the table, on a virtual game clock: the 0.2 s stale-key guard with its
words ("too soon: press again", "too late: RIGHT slapped first"), and the 60 ms
repeat rule that makes a held key act at most twice."""

from __future__ import annotations

from spit_tui.clock import VirtualClock
from spit_tui.engine import Game, Phase, Player, Slap, complete_position, parse_position
from spit_tui.keys.gate import REPEAT_S, STALE_S
from spit_tui.keys.intent import Intent, Row
from spit_tui.table import Outcome, Table

STUCK = "spit 1 two - :Ks/-/-/-/:Kh 5hQh 9s/9d :Kc/-/-/-/:Kd 3cAs 0,0"
SLAP = "slap 1 two - -/-/-/-/- - 2s3s4s/9d8d7d6d5d4d3d :Kh/:Kc/-/-/- 5c6c 0,0"
PLAY = "play 1 two - :7h/4c:Kc/-/-/- TcTd 8s/3c :9d/5s:Kd/-/-/- 2h2d 0,0"


def table_at(text: str) -> tuple[Table, VirtualClock]:
    clock = VirtualClock()
    start = complete_position(parse_position(text, check=False))
    return Table(Game(position=start), clock), clock


def test_the_windows_are_as_d13_says() -> None:
    table, _ = table_at(PLAY)
    assert (STALE_S, REPEAT_S) == (0.2, 0.06)
    assert (table.gate.stale_s, table.gate.repeat_s) == (STALE_S, REPEAT_S)


def test_d13_a_press_0_25_s_after_no_plays_left_counts() -> None:
    table, clock = table_at(STUCK)
    assert table.shown.stuck_shown  # "No plays left: spit!" is up
    clock.advance(0.25)
    d = table.submit_intent(Intent(Player.LEFT, Row.PILE_A, 0))
    assert d.outcome is Outcome.APPLIED and d.action == "L!"


def test_d13_a_press_0_05_s_after_it_does_not_count_and_says_so() -> None:
    table, clock = table_at(STUCK)
    clock.advance(0.05)
    d = table.submit_intent(Intent(Player.LEFT, Row.PILE_A, 0))
    assert d.outcome is Outcome.IGNORED and d.message == "too soon: press again"
    msg = table.messages.message(Player.LEFT)
    assert msg is not None and msg.text == "too soon: press again"
    clock.advance(0.2)  # and pressing again works
    assert table.submit_intent(Intent(Player.LEFT, Row.PILE_B, 1)).outcome is Outcome.APPLIED


def test_d13_the_slap_loser_is_told_too_late() -> None:
    table, clock = table_at(SLAP)
    clock.advance(0.3)
    assert table.submit(Slap(Player.RIGHT, 0)).outcome is Outcome.APPLIED
    assert table.position.phase is Phase.SPIT
    clock.advance(0.1)  # LEFT meant a slap too, 0.1 s later
    d = table.submit_intent(Intent(Player.LEFT, Row.PILE_B, 0))
    assert d.outcome is Outcome.LOST_RACE and d.message == "too late: RIGHT slapped first"
    assert not table.ready_flags()[Player.LEFT]  # never taken as a ready
    # the winner's own second press is only too soon
    d = table.submit_intent(Intent(Player.RIGHT, Row.PILE_B, 0))
    assert d.message == "too soon: press again"


def test_d13_a_held_key_acts_at_most_twice() -> None:
    """The same key at t=0, at 0.5 s (the terminal's initial delay), then every
    30 ms for 1 s: two acting decisions, every other one "repeat"."""
    table, clock = table_at(PLAY)
    held = Intent(Player.RIGHT, Row.FILL, 1)  # fill from stockpile 2 (two cards): acts
    times = [0.0, 0.5] + [0.5 + 0.03 * i for i in range(1, 34)]
    decisions = []
    for t in times:
        clock.advance(t - clock.now())
        decisions.append(table.submit_intent(held))
    acting = [d for d in decisions if d.message != "repeat"]
    assert [d.time for d in acting] == [0.0, 0.5]
    key = decisions[0].key
    assert all(d.outcome is Outcome.IGNORED and d.key == key for d in decisions[2:])
    shown = table.messages.message(Player.RIGHT)
    assert shown is None or shown.text != "repeat"  # a repeat is logged, never shown


def test_d13_repeats_are_per_key_and_a_dropped_repeat_counts_as_an_arrival() -> None:
    table, clock = table_at(PLAY)
    left, right = Intent(Player.LEFT, Row.PILE_A, 0), Intent(Player.RIGHT, Row.PILE_A, 0)
    table.submit_intent(left)
    assert table.submit_intent(right).message != "repeat"  # another key: not a repeat
    clock.advance(0.04)
    table.ignore_repeat(right)  # a repeat the terminal reported (kitty)
    clock.advance(0.04)  # 80 ms after the press, 40 ms after the reported repeat
    assert table.submit_intent(right).message == "repeat"
    clock.advance(REPEAT_S)
    assert table.submit_intent(right).message != "repeat"
