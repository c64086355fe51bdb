"""Resume (issue 13, item 5): a game stopped at any point and continued from
its record reaches the same final position, with the same record (stamps
included), story and clocks, as the same game played straight through with
the same actions at the same moments of play."""

from __future__ import annotations

import random
from typing import NamedTuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spit_tui.clock import VirtualClock
from spit_tui.engine import PLAYERS, Action, Game, Options, Phase, Refusal, Variant
from spit_tui.store.records import record_of
from spit_tui.table import Table


def new_table(game: Game, clock: VirtualClock | None = None) -> Table:
    """A table whose timed rules (countdown, stale keys, stuck banner) fall 0.3 ms
    off the whole milliseconds the presses come at: stamps keep whole ms, so a
    press can never land exactly on a threshold in one run and beside it in
    the other (real key presses never land exactly on one either)."""
    return Table(
        game, clock or VirtualClock(), countdown_s=0.6003, stale_s=0.2003, stuck_delay_s=0.3503
    )


class Press(NamedTuple):
    at: float  # seconds of play since the game began
    action: Action


def script(seed: int, options: Options, limit: int = 400) -> list[Press]:
    """A game's submissions: random legal actions by either player at random
    gaps, some too soon (the table ignores those, as it would a real key)."""
    rng = random.Random(seed)
    table = new_table(Game(options=options, seed=seed))
    clock = table.clock
    assert isinstance(clock, VirtualClock)
    out: list[Press] = []
    while table.position.phase is not Phase.OVER and len(out) < limit:
        clock.advance(rng.randint(30, 900) / 1000)
        if table.counting_down:
            continue
        p = rng.choice(PLAYERS)
        moves = table.game.legal_actions(p) or table.game.legal_actions(p.other)
        if not moves:
            continue
        action = rng.choice(moves)
        out.append(Press(clock.now() - table.shown.started_at, action))
        table.submit(action)
    return out


def play(
    table: Table, presses: list[Press], until: float | None = None, base: float = 0.0
) -> None:
    """Submit `presses` at their moments of play: `base` on the table's clock is
    the moment play began (for a resumed game: when it resumed, less the play
    it had before, which the test knows without asking the table)."""
    clock = table.clock
    assert isinstance(clock, VirtualClock)
    for press in presses:
        clock.run(until=base + press.at)
        table.submit(press.action)
    if until is not None:
        clock.run(until=base + until)
    else:
        clock.advance(2.0)  # the last countdown and banners


def straight_and_resumed(
    seed: int, options: Options, k: int, extra: float, clock_start: float
) -> tuple[Table, Table] | None:
    presses = script(seed, options)
    k = min(k, len(presses))
    stop_at = presses[k - 1].at + extra if k else extra
    # Stopped after the last press, both games run on to the same moment (the
    # script may end in play, where the play clock runs on).
    end = None if k < len(presses) else stop_at + 2.0
    if k < len(presses):
        stop_at = min(stop_at, presses[k].at - 0.001)
    straight = new_table(Game(options=options, seed=seed))
    play(straight, presses, until=end)
    first = new_table(Game(options=options, seed=seed))
    play(first, presses[:k], until=stop_at)
    if first.counting_down:
        return None  # a quit then loses that last ready: its player presses again
    record = record_of(first)
    elapsed = first.clock.now() - first.shown.started_at
    later = VirtualClock()
    later.advance(clock_start)  # another process: its clock started elsewhere
    resumed = new_table(Game(options=options, seed=seed + 1), later)  # whatever it showed before
    resumed.resume(record, elapsed)
    assert resumed.position == first.position
    assert record_of(resumed) == record
    rounds = len(first.shown.rounds)
    assert abs(resumed.play_seconds() - first.play_seconds()) < 0.001 * (1 + rounds)
    play(resumed, presses[k:], base=clock_start - stop_at, until=end)
    return straight, resumed


def same_game(a: Table, b: Table) -> None:
    assert b.position == a.position
    assert record_of(b) == record_of(a)  # one record, stamps and all
    assert b.game.rng.getstate() == a.game.rng.getstate()  # the next deals too
    assert b.shown.rounds == a.shown.rounds
    assert b.shown.story.played == a.shown.story.played and b.shown.story.held == a.shown.story.held
    assert b.shown.story.owners == a.shown.story.owners
    for t in (a, b):
        assert t.shown.ended_at is not None or t.position.phase is not Phase.OVER
    if a.shown.ended_at is not None and b.shown.ended_at is not None:
        took_a = a.shown.ended_at - a.shown.started_at
        took_b = b.shown.ended_at - b.shown.started_at
        assert abs(took_a - took_b) < 1e-6  # the game's time ran on
    assert abs((a.shown.round_started_at - a.shown.started_at)
               - (b.shown.round_started_at - b.shown.started_at)) < 1e-6  # fmt: skip
    # the play clock (the round clock, the game-over line) ran on too; the
    # stamps keep whole milliseconds, so to within a millisecond a spit
    assert abs(a.play_seconds() - b.play_seconds()) < 0.001 * (1 + len(a.shown.rounds))
    assert abs(a.round_play_seconds() - b.round_play_seconds()) < 0.002


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    points=st.booleans(),
    k=st.integers(0, 400),
    extra=st.integers(0, 3000).map(lambda ms: ms / 1000 + 0.0005),
    clock_start=st.integers(0, 10**6).map(lambda ms: ms / 1000),
)
def test_a_game_stopped_anywhere_and_resumed_ends_as_the_game_played_straight_through(
    seed: int, points: bool, k: int, extra: float, clock_start: float
) -> None:
    options = Options(variant=Variant.POINTS, target=15) if points else Options()
    both = straight_and_resumed(seed, options, k, extra, clock_start)
    if both is not None:
        same_game(*both)


def test_resume_twice_over_is_still_the_same_game() -> None:
    options = Options(variant=Variant.POINTS, target=15)
    presses = script(7, options)
    straight = new_table(Game(options=options, seed=7))
    play(straight, presses)
    table = new_table(Game(options=options, seed=7))
    done = last_stop = 0
    stops = 0
    base = 0.0
    for k in range(len(presses) // 3, len(presses)):
        if k < last_stop + len(presses) // 3:
            continue
        stop_at = presses[k].at - 0.0005  # just before press k
        play(table, presses[done:k], until=stop_at, base=base)
        done = k
        if table.counting_down:
            continue  # stop a moment later
        record, elapsed = record_of(table), table.clock.now() - table.shown.started_at
        assert abs(elapsed - stop_at) < 1e-6
        table = new_table(Game())
        table.resume(record, elapsed)
        base = -stop_at  # a new clock starts at 0
        stops += 1
        last_stop = k
    play(table, presses[done:], base=base)
    assert stops >= 2
    same_game(straight, table)
    assert table.position.phase is Phase.OVER


def test_a_record_that_does_not_fit_its_start_leaves_the_table_as_it_was() -> None:
    table = Table(Game(seed=3), VirtualClock())
    presses = script(4, Options())
    played = new_table(Game(seed=4))
    play(played, presses[:20])
    record = record_of(played)
    record.seed = 5  # another deal: the log does not fit
    before = table.position, table.shown
    with pytest.raises(Refusal):
        table.resume(record, 12.0)
    assert (table.position, table.shown) == before
