"""Whole random games: they end, and a record replays to the same game.

The rules set no bound on a standard game; the harness caps a game at 1,000
rounds (ROUND_CAP) and reports any game that hits the cap with a warning,
failing only if that happens absurdly often.
"""

from __future__ import annotations

import random
import warnings

from hypothesis import given
from hypothesis import strategies as st
from testkit.engine import ROUND_CAP, play_out

from spit_tui.engine import (
    Game,
    Options,
    Phase,
    Record,
    Variant,
    format_position,
    format_record,
    parse_record,
    replay,
)

CAPPED: list[tuple[Variant, bool, int, int]] = []


def run(variant: Variant, manual_flip: bool, seed: int, agent: int, *, check: bool) -> Game:
    g = Game(options=Options(variant=variant, manual_flip=manual_flip), seed=seed)
    if not play_out(g, random.Random(agent), round_cap=ROUND_CAP, check=check):
        CAPPED.append((variant, manual_flip, seed, agent))
        warnings.warn(
            f"game hit the {ROUND_CAP}-round cap: {variant} manual_flip={manual_flip} "
            f"seed={seed} agent={agent}",
            stacklevel=2,
        )
    return g


@given(
    variant=st.sampled_from(list(Variant)),
    manual_flip=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
    agent=st.integers(0, 2**32 - 1),
)
def test_random_games_end_within_the_cap(
    variant: Variant, manual_flip: bool, seed: int, agent: int
) -> None:
    g = run(variant, manual_flip, seed, agent, check=True)
    if g.over:
        p = g.position
        assert p.phase is Phase.OVER and p.winner is not None
        if variant is Variant.STANDARD:
            # R19: the winner holds no cards; the game ended with a single-pile round
            assert sum(len(s.cards) for s in p.sides[p.winner].slots) == 0
            assert p.sides[p.winner].spit == () and p.single_pile
        else:
            # R20/D10: someone reached the target and the winner is strictly lowest
            assert max(p.scores) >= g.options.target
            assert p.scores[p.winner] < p.scores[1 - p.winner]


def test_the_cap_is_rarely_hit() -> None:
    """Many seeded games per variant; at most a small share may hit the cap."""
    games = 0
    capped_before = len(CAPPED)
    for variant in Variant:
        for manual_flip in (False, True):
            for seed in range(12):
                run(variant, manual_flip, seed, 1000 + seed, check=False)
                games += 1
    capped = len(CAPPED) - capped_before
    assert capped <= games // 10, f"{capped} of {games} games hit the round cap"


def test_record_replays_to_the_same_final_position() -> None:
    for variant in Variant:
        for manual_flip in (False, True):
            opts = Options(variant=variant, manual_flip=manual_flip, target=80)
            g = Game(options=opts, seed=42)
            play_out(g, random.Random(7))
            text = format_record(Record(options=opts, seed=42, actions=list(g.log)))
            rec = parse_record(text)
            assert rec.options == opts and rec.seed == 42 and rec.actions == g.log
            h = Game(options=rec.options, seed=rec.seed)
            replay(h, rec.actions)
            assert format_position(h.position) == format_position(g.position)
            assert h.position == g.position and h.over


def test_record_with_a_start_position_replays() -> None:
    start = Game(seed=3).position  # any start: the record carries it
    opts = Options()
    g = Game(options=opts, seed=11, position=start)
    play_out(g, random.Random(5))
    rec = parse_record(
        format_record(Record(options=opts, seed=11, actions=list(g.log), start=start))
    )
    assert rec.start == start
    h = Game(options=rec.options, seed=rec.seed, position=rec.start)
    replay(h, rec.actions)
    assert h.position == g.position
