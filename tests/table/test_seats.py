"""Who sits at a table (spit_tui.seats): a value the table keeps and the
scene, the rooms and the key gate read."""

from __future__ import annotations

from spit_tui.clock import VirtualClock
from spit_tui.engine import Game, Player
from spit_tui.keys.keymap import US
from spit_tui.seats import Seats
from spit_tui.table import Outcome, Table


def test_a_table_nobody_seated_has_two_people_named_left_and_right() -> None:
    s = Seats()
    assert s.names == ("LEFT", "RIGHT") and s.levels == (None, None)
    assert s.people == frozenset(Player) and s.computer == {}


def test_the_computers_halves_with_or_without_their_level() -> None:
    named = Seats.of(("YOU", "COMPUTER"), {Player.RIGHT: "hard"})
    assert named.level(Player.RIGHT) == "hard" and named.level(Player.LEFT) is None
    assert named.people == {Player.LEFT} and named.computer == {Player.RIGHT: "hard"}
    bare = Seats.of(("COMPUTER", "YOU"), [Player.LEFT])
    assert bare.levels == ("", None) and bare.people == {Player.RIGHT}
    both = Seats.of(("A", "B"), (Player.LEFT, Player.RIGHT))
    assert both.people == frozenset() and both.computer == {Player.LEFT: "", Player.RIGHT: ""}


def test_seating_a_table_shows_on_its_scene_and_closes_the_computers_half() -> None:
    t = Table(Game(seed=1), VirtualClock())
    repaints: list[int] = []
    from spit_tui.subscription import Subscription

    t.subscribe(Subscription(on_change=lambda: repaints.append(1)))
    t.seat(Seats.of(("ANN", "COMPUTER"), {Player.RIGHT: "normal"}))
    assert repaints  # a repaint: the board shows the new names
    scene = t.scene()
    assert scene.names == ("ANN", "COMPUTER") and scene.computer == (None, "normal")
    right = next(i for i in US.keys.values() if i.player is Player.RIGHT)
    assert t.submit_intent(right).outcome is Outcome.IGNORED  # not a person's half
    t.seat(Seats(("ANN", "BO")))  # a person sits down there: the half takes keys again
    assert t.scene().computer == (None, None) and t.gate.takes(Player.RIGHT)
