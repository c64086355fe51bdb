"""A seat that answers pings late must not win races by it (issue 22 item 1).

A modified client that holds every pong 290 ms is measured far away; built
on pings alone, the holds then delay the *honest* seat's presses and views
by up to 150 ms, and the cheater wins every close race. The host now builds
holds on no more distance than the transport proves (net.latency.distance):
here on the room's virtual clock (simnet: its `proven_rtt` stands for the
host's TCP stack), and through real sockets on 127.0.0.1 (the kernel's
tcp_info), for a joined seat and for the host's own seat (`host --seat`)."""

from __future__ import annotations

import asyncio
import json
import random
from functools import partial

import pytest
from simnet import SimRoom

from spit_tui.engine import Player
from spit_tui.net.latency import PROOF_SLACK_S, UNPROVEN_HOLD_S, distance, unusual
from spit_tui.net.race import RACE_KEYS

NEAR = 0.005  # both seats are truly this far from the host, one way
LATE = 0.290  # how late the cheater answers each ping
RACES = 100


def test_a_claimed_distance_is_cut_to_what_the_transport_proves() -> None:
    assert distance(0.160, 0.150) == 0.080  # honest and far: the pings stand
    assert distance(0.300, 0.010) == (0.010 + PROOF_SLACK_S) / 2  # pings 290 ms late
    assert distance(0.300, None) == UNPROVEN_HOLD_S  # nothing proves it: capped
    assert distance(0.020, None) == 0.010
    assert unusual(0.300, 0.010) and not unusual(0.160, 0.150) and not unusual(0.3, None)


def _race(sim: SimRoom, first: Player, gap: float) -> Player | None:
    sim.race_position()
    t0 = sim.clock.now() + 0.4  # both have the race on screen by then, held or not
    for p in Player:
        row, slot = RACE_KEYS[p]
        sim.clock.call_at(t0 if p is first else t0 + gap, partial(sim.seats[p].press, row, slot))
    sim.clock.advance(0.8)
    return sim.race_winner()


def right_wins(cheat: bool, plan: list[tuple[Player, float]]) -> int:
    """Races RIGHT won of `plan`, RIGHT answering pings LATE late if `cheat`."""
    sim = SimRoom((NEAR, NEAR), 0.002, seed=11, pong_delays=(0.0, LATE if cheat else 0.0))
    sim.clock.advance(5.0)  # ten pings: both seats measured
    return sum(_race(sim, first, gap) is Player.RIGHT for first, gap in plan)


def test_answering_pings_late_wins_no_more_races_than_honesty() -> None:
    rng = random.Random(22)
    # the race: the honest seat presses first, the cheater up to 120 ms later
    later = [(Player.LEFT, rng.uniform(0.010, 0.120)) for _ in range(RACES)]
    mixed = [(rng.choice(list(Player)), rng.uniform(0.010, 0.120)) for _ in range(RACES)]
    got = {(name, cheat): right_wins(cheat, plan)
           for name, plan in (("later", later), ("mixed", mixed)) for cheat in (False, True)}
    print(f"\nRIGHT's wins of {RACES}: " + ", ".join(
        f"{name} {'cheating' if cheat else 'honest'} {n}" for (name, cheat), n in got.items()))
    assert got["later", True] <= got["later", False] + 2  # the virtual clock: exact
    assert got["mixed", True] <= got["mixed", False] + 2
    assert got["mixed", False] >= 40  # and the races themselves are fair


def test_both_players_are_told_when_a_seats_pings_are_unusual() -> None:
    sim = SimRoom((NEAR, NEAR), 0.002, seed=12, pong_delays=(0.0, LATE))
    told: list[str] = []
    for seat in sim.seats.values():
        seat.on_view = lambda msg: told.append(json.dumps(msg["message"]))
    sim.clock.advance(3.0)
    assert any("RIGHT: pings" in t and "ms late" in t for t in told)
    left_view = sim.seats[Player.LEFT].latest
    assert left_view is not None and left_view["ping"][1] < 40  # the distance held on


@pytest.mark.long(12)
async def test_through_real_sockets_the_kernel_proves_the_cheater_near() -> None:
    from testkit.cheat import cheat_races

    wins, holds = await cheat_races(own_seat=False)
    assert holds[Player.LEFT] <= 0.015, holds  # was 0.145: pings 290 ms late
    assert wins <= 3, wins  # of 20 races the honest seat pressed 20-120 ms sooner


@pytest.mark.long(12)
async def test_the_hosts_own_seat_is_not_held_for_a_cheater() -> None:
    from testkit.cheat import cheat_races

    wins, holds = await cheat_races(own_seat=True)
    assert holds[Player.LEFT] <= 0.015, holds
    assert wins <= 3, wins


_ = asyncio
