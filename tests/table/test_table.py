"""The Table's API for what others need of it: `say`, `pause`, `seat` and
`new_game` (which replaces the per-game display state whole)."""

from __future__ import annotations

import dataclasses

from spit_tui.clock import VirtualClock
from spit_tui.engine import (
    Game,
    Play,
    Player,
    Ready,
    Record,
    complete_position,
    format_action,
    parse_position,
)
from spit_tui.keys.keymap import US
from spit_tui.messages import MESSAGE_S
from spit_tui.seats import Seats
from spit_tui.showing import Showing
from spit_tui.subscription import Subscription
from spit_tui.table import Outcome, Table

RACE = "play 1 two - 2c:7c/-/-/-/- 3c Ts6s/Qh 2d:5d/-/-/-/- 3d 0,0"


def race_table() -> Table:
    start = complete_position(parse_position(RACE, check=False))
    return Table(Game(position=start), VirtualClock())


def vclock(t: Table) -> VirtualClock:
    assert isinstance(t.clock, VirtualClock)
    return t.clock


def test_say_shows_a_message_that_runs_out_on_the_game_clock() -> None:
    t = race_table()
    repaints: list[None] = []
    t.subscribe(Subscription(on_change=lambda: repaints.append(None)))
    t.messages.say(Player.RIGHT, "hello")
    m = t.messages.message(Player.RIGHT)
    assert m is not None and m.text == "hello" and m.kind is Outcome.IGNORED
    assert repaints and not t.decisions  # a word, not a decision
    vclock(t).advance(MESSAGE_S - 0.1)
    assert t.messages.message(Player.RIGHT) is not None
    n = len(repaints)
    vclock(t).advance(0.2)
    assert t.messages.message(Player.RIGHT) is None and len(repaints) > n  # repainted as it went


def test_a_paused_table_ignores_submissions_and_its_messages_wait() -> None:
    t = race_table()
    t.messages.say(Player.LEFT, "wait")
    t.pause("help", True)
    assert t.paused and t.clock.paused
    d = t.submit(Play(Player.LEFT, 0, 0))
    assert d.outcome is Outcome.IGNORED and d.message == "paused"
    vclock(t).advance(10 * MESSAGE_S)
    assert t.messages.message(Player.LEFT) is not None  # still showing: no game time passed
    t.pause("help", False)
    assert not t.paused
    assert t.submit(Play(Player.LEFT, 0, 0)).outcome is Outcome.APPLIED


def test_seat_names_the_players_and_refuses_the_computers_keys() -> None:
    t = race_table()
    t.seat(Seats.of(("YOU", "COMPUTER"), [Player.RIGHT]))
    assert t.seats.names == ("YOU", "COMPUTER")
    intent = US.intent_for("y", "y")
    assert intent is not None and intent.player is Player.RIGHT
    d = t.submit_intent(intent)
    assert d.outcome is Outcome.IGNORED and d.message == "computer's half: use the left half"
    assert t.messages.message(Player.RIGHT) is not None  # said, the first time
    assert t.seats.level(Player.RIGHT) == "" and t.seats.level(Player.LEFT) is None
    assert str(t.position.pile_top(0)) == "6s"  # nothing played
    assert t.submit(Play(Player.RIGHT, 0, 0), source="bot").outcome is Outcome.APPLIED


def test_new_game_replaces_the_display_state_whole() -> None:
    t = Table(Game(seed=3), VirtualClock(), stale_s=0.0)
    t.submit(Ready(Player.LEFT))
    t.submit(Ready(Player.RIGHT))  # the countdown starts
    t.messages.say(Player.LEFT, "x")
    assert t.counting_down and t.messages.message(Player.LEFT) is not None
    old = t.shown
    vclock(t).advance(0.1)
    t.new_game(Game(seed=4))
    assert t.shown is not old
    fresh = Showing.start(t.game, t.clock.now())
    assert dataclasses.astuple(t.shown) == dataclasses.astuple(fresh)
    assert not t.counting_down and t.messages.message(Player.LEFT) is None and t.shown.rounds == []
    vclock(t).advance(5)  # the old countdown never spits into the new game
    assert t.position.round == 1 and not any(t.position.piles)


def test_one_subscription_hears_changes_events_decisions_and_new_games() -> None:
    """The table's one typed subscription: each part is told in order (the
    event, then the decision, then the change), a new game and a resumed one
    are news of their own, and a party that leaves while being told leaves
    the others to hear it."""
    t = Table(Game(seed=3), VirtualClock(), stale_s=0.0)
    heard: list[str] = []
    sub = t.subscribe(
        Subscription(
            on_change=lambda: heard.append("change"),
            on_event=lambda e: heard.append(f"event {format_action(e.action)}"),
            on_decision=lambda d: heard.append(f"decision {d.action}"),
            on_new_game=lambda: heard.append("new game"),
        )
    )
    t.submit(Ready(Player.LEFT))
    assert heard == ["event L!", "decision L!", "change"]
    heard.clear()
    record = Record(options=t.game.options, seed=3, actions=list(t.game.log))
    t.new_game(Game(seed=4))
    assert heard == ["new game", "change"]
    heard.clear()
    t.resume(record, 1.0)
    assert heard[-2:] == ["new game", "change"] and not any("event" in h for h in heard)
    leaving = Subscription(on_change=lambda: t.unsubscribe(leaving))
    t.unsubscribe(sub)
    t.subscribe(leaving)
    t.subscribe(sub)
    heard.clear()
    t.messages.say(Player.LEFT, "hello")
    assert heard == ["change"]  # told although the one before it left mid-way
    heard.clear()
    t.messages.say(Player.LEFT, "again")
    assert heard == ["change"]
