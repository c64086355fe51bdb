"""Headless matches: reproducible from the seed, never stalled, fair at ties."""

from __future__ import annotations

import random

from spit_tui.clock import VirtualClock
from spit_tui.engine import Options, Variant
from spit_tui.match import Match, play_match
from spit_tui.table import Outcome


def test_a_seeded_match_is_reproducible() -> None:
    a = Match("hard", "normal", seed=11, keep_decisions=True)
    b = Match("hard", "normal", seed=11, keep_decisions=True)
    ra, rb = a.run(), b.run()
    assert ra == rb
    assert a.decisions == b.decisions
    assert a.game.log == b.game.log
    assert ra.winner is not None and not ra.capped
    c = Match("hard", "normal", seed=12, keep_decisions=True)
    c.run()
    assert c.decisions != a.decisions


def test_matches_finish_and_bots_never_try_an_illegal_move() -> None:
    for seed, (left, right) in enumerate(
        [("easy", "expert"), ("random", "hard"), ("normal", "normal")]
    ):
        m = Match(left, right, seed=seed, keep_decisions=True)
        r = m.run()
        assert r.winner is not None
        assert m.decisions is not None
        assert all(d.source == "bot" for d in m.decisions)
        assert not [d for d in m.decisions if d.outcome is Outcome.ILLEGAL]
        assert r.seconds > 0 and sum(r.plays) > 0


def test_points_variant_match() -> None:
    r = play_match("expert", "hard", seed=3, options=Options(variant=Variant.POINTS, target=30))
    assert r.winner is not None and r.rounds >= 1


def test_manual_flip_match() -> None:
    m = Match("hard", "easy", seed=4, options=Options(manual_flip=True), keep_decisions=True)
    r = m.run()
    assert r.winner is not None
    assert m.decisions is not None and any(d.action.endswith("^") for d in m.decisions)


def test_round_cap_is_reported_not_scored() -> None:
    r = play_match("normal", "normal", seed=5, round_cap=1)
    assert r.capped and r.winner is None


def test_same_instant_ties_are_decided_by_a_seeded_coin() -> None:
    def first(clock: VirtualClock) -> str:
        order: list[str] = []
        clock.call_later(1.0, lambda: order.append("left"))
        clock.call_later(1.0, lambda: order.append("right"))
        clock.run()
        return order[0]

    # Without a coin, scheduling order decides (the behaviour before bots).
    assert {first(VirtualClock()) for _ in range(20)} == {"left"}
    firsts = [first(VirtualClock(tiebreak=random.Random(s))) for s in range(200)]
    assert 70 < firsts.count("left") < 130
    assert firsts == [first(VirtualClock(tiebreak=random.Random(s))) for s in range(200)]
