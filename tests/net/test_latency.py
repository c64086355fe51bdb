"""Latency equalisation (issue 14 item 4, D5 at a distance) on the room's
virtual clock: the host measures each seat's round trip, holds the nearer
seat's presses (and views) for the difference, and so two presses made at
the same moment reach the engine in the order they were made."""

from __future__ import annotations

import random
from functools import partial

import pytest
from simnet import SimRoom

from spit_tui.engine import Player
from spit_tui.keys.intent import Row
from spit_tui.keys.keymap import US
from spit_tui.net.latency import HOLD_CAP_S, PING_OUTSTANDING, Rtt, holds
from spit_tui.net.protocol import Message
from spit_tui.net.race import RACE_KEYS

NEAR, FAR = 0.005, 0.080  # one-way seconds: LEFT is near, RIGHT is far
JITTER = 0.010


def test_rtt_smooths_the_round_trip_like_tcp() -> None:
    r = Rtt()
    assert r.ms() is None and r.one_way == 0.0
    r.sample(0.100)
    assert (r.srtt, r.rttvar) == (0.100, 0.050)
    r.sample(0.200)
    assert r.rttvar == pytest.approx(0.75 * 0.050 + 0.25 * 0.100)
    assert r.srtt == pytest.approx(0.875 * 0.100 + 0.125 * 0.200)
    assert r.one_way == pytest.approx(r.srtt / 2)
    assert r.ms() == 113  # 112.5 ms, rounded half to even in binary: 0.1125000...02


def test_only_a_pong_for_a_ping_we_sent_is_a_sample() -> None:
    r = Rtt()
    n = r.ping(10.0)
    assert not r.pong(n + 1, 10.1)  # never sent
    assert r.pong(n, 10.1) and r.samples == 1
    assert not r.pong(n, 10.2)  # answered already (a replayed pong)
    ids = [r.ping(11.0 + i) for i in range(PING_OUTSTANDING + 5)]
    assert not r.pong(ids[0], 30.0)  # forgotten: only the latest pings are remembered
    assert not r.pong(ids[-1], 100.0)  # a stalled link is not a round trip
    assert r.samples == 1


def test_the_nearer_seat_is_held_for_the_difference_capped() -> None:
    assert holds((0.005, 0.080)) == pytest.approx((0.075, 0.0))
    assert holds((0.080, 0.005)) == pytest.approx((0.0, 0.075))
    assert holds((0.0, 0.400)) == (HOLD_CAP_S, 0.0)
    assert holds((0.03, 0.03)) == (0.0, 0.0)


def test_the_host_measures_each_seat_and_the_views_show_both_pings() -> None:
    sim = SimRoom((NEAR, FAR), JITTER)
    sim.clock.advance(10.0)
    left, right = (sim.room.seats[p].rtt for p in Player)
    assert left.samples >= 15 and right.samples >= 15
    # the near link's jitter is clamped at 0 s, so its mean is a little over 5 ms
    assert left.srtt == pytest.approx(0.011, abs=0.004)
    assert right.srtt == pytest.approx(0.160, abs=0.006)
    assert right.rttvar > 0.002  # the jitter shows
    assert sim.room.holds()[Player.LEFT] == pytest.approx(FAR - 0.0055, abs=0.004)
    for seat in sim.seats.values():
        assert seat.latest is not None
        near_ms, far_ms = seat.latest["ping"]
        assert abs(near_ms - 11) <= 5 and abs(far_ms - 160) <= 8


def press_race(sim: SimRoom, first: Player, gap: float) -> Player | None:
    """Both press their card at known moments `gap` apart; whose card landed."""
    sim.race_position()
    t0 = sim.clock.now() + 0.3  # both have the race position on screen by then
    for p in Player:
        row, slot = RACE_KEYS[p]
        sim.clock.call_at(t0 if p is first else t0 + gap, partial(sim.seats[p].press, row, slot))
    sim.clock.advance(0.7)
    return sim.race_winner()


def races(equalise: bool, n: int, gaps: tuple[float, float], seed: int) -> list[bool]:
    """`n` races, the earlier presser picked at random: whether the earlier press won."""
    sim = SimRoom((NEAR, FAR), JITTER, seed=seed, equalise=(equalise, equalise))
    sim.clock.advance(5.0)  # the host has measured both seats
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        first = rng.choice(list(Player))
        out.append(press_race(sim, first, rng.uniform(*gaps)) is first)
    return out


def test_presses_20_ms_apart_are_taken_in_the_order_made_with_equalisation() -> None:
    won = races(True, 40, (0.020, 0.050), seed=3)
    assert sum(won) >= 38  # target 95%; jitter is +/-20 ms on the difference at most


def test_without_equalisation_the_far_player_loses_close_races() -> None:
    sim = SimRoom((NEAR, FAR), JITTER, seed=4, equalise=(False, False))
    sim.clock.advance(5.0)
    rng = random.Random(4)
    # RIGHT (80 ms away) presses first, up to 50 ms before LEFT: LEFT's card lands
    assert all(press_race(sim, Player.RIGHT, rng.uniform(0, 0.050)) is Player.LEFT
               for _ in range(12))
    sim.room.hold_actions = True  # the same room, now equalised: RIGHT's card lands
    assert all(press_race(sim, Player.RIGHT, rng.uniform(0.025, 0.050)) is Player.RIGHT
               for _ in range(12))


def test_a_seats_presses_keep_their_order_while_its_hold_shrinks() -> None:
    sim = SimRoom((NEAR, FAR), 0.0, seed=5)
    sim.clock.advance(5.0)
    room = sim.room
    assert room.holds()[Player.LEFT] > 0.07
    room.submit(Player.LEFT, Row.PILE_A, 1)
    room.seats[Player.RIGHT].rtt.srtt = 0.02  # the far seat comes closer
    assert room.holds()[Player.LEFT] < 0.01
    room.submit(Player.LEFT, Row.PILE_B, 2)
    sim.clock.advance(0.2)
    keys = [d.key for d in room.table.decisions if d.player is Player.LEFT]
    left = Player.LEFT
    assert keys[-2:] == [US.key_for(left, Row.PILE_A, 1), US.key_for(left, Row.PILE_B, 2)]


def test_with_views_held_both_players_see_a_card_land_together() -> None:
    for hold_views, most in ((True, 0.025), (False, 1.0)):
        sim = SimRoom((NEAR, FAR), JITTER, seed=6, equalise=(True, hold_views))
        sim.clock.advance(5.0)
        seen: dict[Player, float] = {}
        for p, seat in sim.seats.items():
            seat.on_view = partial(_first_race_view, seen, p, sim)
        sim.race_position()
        sim.clock.advance(0.5)
        apart = abs(seen[Player.LEFT] - seen[Player.RIGHT])
        if hold_views:
            assert apart < most
        else:
            assert apart > 0.05  # the near seat sees it about 75 ms sooner


def _first_race_view(seen: dict[Player, float], p: Player, sim: SimRoom, msg: Message) -> None:
    if msg["piles"][0]["top"] == "9s" and p not in seen:
        seen[p] = sim.clock.now()


def reaction_races(equalise: tuple[bool, bool], n: int, seed: int) -> int:
    """`n` races in which each seat presses REACT_S after its own screen showed
    the race, RIGHT (the far seat) 20-40 ms sooner: how many RIGHT won."""
    sim = SimRoom((NEAR, FAR), JITTER, seed=seed, equalise=equalise)
    sim.clock.advance(5.0)
    rng = random.Random(seed)
    wins = 0
    for _ in range(n):
        gap = rng.uniform(0.020, 0.040)
        for p, seat in sim.seats.items():
            delay = REACT_S + (0.0 if p is Player.RIGHT else gap)
            seat.on_view = partial(_react, sim, p, delay, [])
        sim.race_position()
        sim.clock.advance(1.0)
        wins += sim.race_winner() is Player.RIGHT
    return wins


REACT_S = 0.150


def _react(sim: SimRoom, p: Player, delay: float, done: list[bool], msg: Message) -> None:
    if not done and msg["piles"][0]["top"] == "9s" and msg["phase"] == "play":
        done.append(True)
        row, slot = RACE_KEYS[p]
        sim.clock.call_later(delay, partial(sim.seats[p].press, row, slot))


def test_reaction_races_need_the_views_held_too() -> None:
    """Issue 19 item 10: this ran on the wall clock through the delay proxy and
    failed about one run in five on a loaded machine; on the virtual clock it
    is exact (benchmarks/fairness.py keeps the wall-clock table)."""
    actions_only = reaction_races((True, False), 100, seed=7)
    both = reaction_races((True, True), 100, seed=7)
    assert actions_only <= 5  # LEFT saw the race 75 ms sooner and wins though later
    assert both >= 90
