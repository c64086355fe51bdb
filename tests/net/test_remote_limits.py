"""The host applies a person's limits to a remote seat's keys, whatever its
client does (issue 22 item 2): the repeat rule per key, measured where the
keys arrive, and D13's stale-key guard from the moment the seat can have seen
the phase (the view's way there and the key's way back, and the holds)."""

from __future__ import annotations

import asyncio
import itertools
import time

from simnet import SimRoom
from testkit.cheat import RawSeat

from spit_tui.engine import Game, Player, complete_position, parse_position
from spit_tui.keys.gate import REPEAT_S, STALE_S
from spit_tui.net.host import Host
from spit_tui.table import Outcome

# LEFT's first stockpile plays five cards in a row onto pile a (5d 6s 7h 8c 9d on 4s)
CHAIN = "play 1 two - 9d8c7h6s:5d/:2c/-/-/- Tc 4s/Kh :Qd/-/-/-/- 2h 0,0"
SLAP = "slap 1 two - -/-/-/-/- - 2s3s4s/9d8d7d6d5d4d3d :Kh/:Kc/-/-/- 5c6c 0,0"


def game(text: str) -> Game:
    return Game(position=complete_position(parse_position(text, check=False)), seed=1)


async def _five_presses(gap_s: float) -> list[tuple[str, Outcome, str]]:
    """What the host made of five presses of one key `gap_s` apart. A busy
    machine can oversleep a short gap past the repeat rule (a 5 ms sleep that
    took 70 ms is a second press at any keyboard): such a try is played again,
    a few times at most, and the gaps of the one returned held."""
    for _ in range(4):
        got, gaps = await _five_presses_once(gap_s)
        if gap_s >= REPEAT_S or max(gaps) < REPEAT_S / 2:
            return got
    raise AssertionError(f"the machine never kept gaps of {gap_s} s: {gaps}")


async def _five_presses_once(gap_s: float) -> tuple[list[tuple[str, Outcome, str]], list[float]]:
    h = Host(port=0, seed=1)
    await h.start()
    try:
        room = h.new_room()
        left = await RawSeat.sit(h, room.code, "left", 0.0)
        right = await RawSeat.sit(h, room.code, "right", 0.0)
        for _ in range(200):
            if all(s.conn is not None for s in room.seats.values()):
                break
            await asyncio.sleep(0.01)
        table = room.table
        table.clock.update()
        table.new_game(game(CHAIN))
        room.poke()
        await asyncio.sleep(0.3)
        seq = table.decisions[-1].seq if table.decisions else 0
        sent: list[float] = []
        for _ in range(5):  # the same key (LEFT's stockpile 1 onto pile a), gap_s apart
            sent.append(time.monotonic())
            left.press("a", 0)
            if gap_s:
                await asyncio.sleep(gap_s)
        await asyncio.sleep(0.4)
        left.close()
        right.close()
        got = [(d.action, d.outcome, d.message) for d in table.decisions
               if d.seq > seq and d.player is Player.LEFT]
        return got, [b - a for a, b in itertools.pairwise(sent)]
    finally:
        await h.close()


def test_five_intents_at_once_from_a_raw_seat_play_one_card() -> None:
    """At one keyboard a held key plays one card; a client that skips its own
    repeat rule and sends five intents 5 ms apart played five before. Here
    they go back to back (a loaded machine overslept 5 ms sleeps to 44 ms)."""
    got = asyncio.run(_five_presses(0.0))
    applied = [d for d in got if d[1] is Outcome.APPLIED]
    assert [a for a, _, _ in applied] == ["L1a"], got
    assert [m for _, o, m in got if o is Outcome.IGNORED] == ["repeat"] * 4, got


def test_the_same_key_again_after_the_repeat_gap_plays_again() -> None:
    got = asyncio.run(_five_presses(REPEAT_S + 0.04))
    assert [a for a, o, _ in got if o is Outcome.APPLIED] == ["L1a"] * 5, got


def _slap_after(seat_delay_s: float, press_after_s: float) -> tuple[Outcome, str]:
    """A seat `seat_delay_s` from the host (one way) slaps `press_after_s` after
    the slap phase reached its screen; what the host's table made of it."""
    sim = SimRoom((seat_delay_s, seat_delay_s), 0.0, seed=3)
    sim.clock.advance(3.0)  # pings: both seats measured, their transport proven
    table = sim.room.table
    seat = sim.seats[Player.LEFT]
    shown: list[float] = []

    def on_view(msg: dict[str, object]) -> None:
        if msg.get("phase") == "slap" and not shown:
            shown.append(sim.clock.now())
            sim.clock.call_later(press_after_s, lambda: seat.press("a", 0))

    seat.on_view = on_view
    seq = table.decisions[-1].seq if table.decisions else 0
    table.new_game(game(SLAP))
    sim.room.flush()
    sim.clock.advance(1.0)
    assert shown, "the slap phase never reached the seat"
    d = next(d for d in table.decisions if d.seq > seq and d.player is Player.LEFT)
    return d.outcome, d.message


def test_a_far_seat_cannot_slap_sooner_than_a_person_could() -> None:
    """50 ms away, a slap 0.15 s after the phase reached the seat arrives 0.25 s
    after the host showed it: past the host's own 0.2 s, yet sooner than anyone
    there could react. The host counts the way there and back."""
    assert _slap_after(0.050, 0.15) == (Outcome.IGNORED, "too soon: press again")
    assert _slap_after(0.050, STALE_S + 0.01)[0] is Outcome.APPLIED
    assert _slap_after(0.001, STALE_S + 0.01)[0] is Outcome.APPLIED
