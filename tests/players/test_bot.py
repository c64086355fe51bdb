"""The bot at a real table on a virtual clock: timing, the arrival-order race,
the stale-key guard, and that it never reads a face-down card."""

from __future__ import annotations

import random

import pytest
from testkit.bots import L, R, run_until_decision, seat, sharp, table_at, vclock

from spit_tui.engine import Game, Phase, Play, Player, Position, Ready, Side, Slot, full_deck
from spit_tui.players.bot import Bot
from spit_tui.players.ladder import LEVELS
from spit_tui.players.level import Level, Timing
from spit_tui.table import Outcome, Table


def _rest(used: str) -> list[str]:
    return [str(c) for c in full_deck() if str(c) not in used]


def slap_position(small: int, big: int) -> str:
    """A slap-phase position holding all 52 cards, pile a with `small`, b with `big`
    (the 9s on top, so neither stock card plays: the round is really over)."""
    used = "5h2h9d9c"
    rest = _rest(used)
    a, b = [*rest[: small - 1], "9d"], [*rest[small - 1 : small + big - 2], "9c"]
    spit = rest[small + big - 2 :]
    return (
        f"slap 1 two - :5h/-/-/-/- {''.join(spit) or '-'} {''.join(a)}/{''.join(b)} "
        ":2h/-/-/-/- - 0,0"
    )


@pytest.mark.parametrize(("sizes", "pile"), [((21, 29), 0), ((29, 21), 1)])
def test_bot_slaps_the_smaller_pile_after_the_stale_guard(
    sizes: tuple[int, int], pile: int
) -> None:
    table = table_at(slap_position(*sizes))
    seat(table, R, "expert")
    d = run_until_decision(table)
    assert d.action == "R*" + "ab"[pile]
    assert d.outcome is Outcome.APPLIED
    assert d.time >= table.gate.stale_s  # D13: a slap inside the guard would be thrown away


def test_bot_says_spit_and_the_round_starts() -> None:
    game = Game(seed=4)
    table = Table(game, table_at(game.position).clock)
    seat(table, L, "hard", seed=1)
    seat(table, R, "easy", seed=2)
    first = run_until_decision(table)
    assert first.action.endswith("!") and first.outcome is Outcome.APPLIED
    assert first.time >= table.gate.stale_s
    clock = vclock(table)
    while game.position.phase is Phase.SPIT:
        assert clock.now() < 10
        clock.step()
    assert game.position.phase is Phase.PLAY


# Both players can play onto pile a only (7c on the 6s, 5d on the 6s).
RACE = "play 1 two - 2c:7c/-/-/-/- 3c Ts6s/Qh 2d:5d/-/-/-/- 3d 0,0"


def test_a_faster_human_wins_and_the_bot_thinks_again() -> None:
    table = table_at(RACE)
    bot = seat(table, R, sharp("normal"))
    assert bot.plan is not None and bot.plan.action == Play(R, 0, 0)
    vclock(table).advance(0.2)
    d = table.submit(Play(L, 0, 0), source="key")
    assert d.outcome is Outcome.APPLIED
    # The bot's card no longer fits: it saw it in time and called the reach off.
    assert bot.plan is None or bot.plan.action != Play(R, 0, 0)
    vclock(table).advance(5)
    assert not [x for x in table.decisions if x.source == "bot" and x.action == "R1a"]


def test_a_bot_already_reaching_loses_the_race_as_too_late() -> None:
    table = table_at(RACE)
    bot = seat(table, R, sharp("normal"))
    plan = bot.plan
    assert plan is not None and plan.action == Play(R, 0, 0)
    table.clock.tick(plan.commit_at + 0.01)
    assert table.submit(Play(L, 0, 0), source="key").outcome is Outcome.APPLIED
    d = run_until_decision(table)
    assert d.action == "R1a"
    assert d.outcome is Outcome.LOST_RACE


def test_bot_moves_go_through_the_table_as_bot_submissions() -> None:
    table = table_at(RACE)
    seat(table, R, sharp("expert"))
    d = run_until_decision(table)
    assert d.source == "bot" and d.player is R and d.outcome is Outcome.APPLIED
    play = LEVELS["expert"].play
    assert isinstance(play, Timing)
    lo, hi = play.low, play.high
    assert lo <= d.time <= hi


def _shuffle_face_down(pos: Position, seed: int) -> Position:
    """The same table as a person sees it, with every face-down card changed."""
    down = [c for side in pos.sides for s in side.slots for c in s.cards[: len(s.cards) - s.up]] + [
        c for side in pos.sides for c in side.spit
    ]
    visible = set(pos.all_cards()) - set(down)
    unused = [c for c in full_deck() if c not in visible and c not in down]
    pool = down + unused
    random.Random(seed).shuffle(pool)
    it = iter(pool)

    def side(sd: Side) -> Side:
        slots = tuple(
            Slot(tuple(next(it) for _ in range(s.face_down)) + s.cards[len(s.cards) - s.up :], s.up)
            for s in sd.slots
        )
        return sd._replace(slots=slots, spit=tuple(next(it) for _ in sd.spit))

    new = pos._replace(sides=(side(pos.sides[0]), side(pos.sides[1])))
    assert new != pos
    return new


@pytest.mark.parametrize("seed", range(8))
def test_bot_never_reads_a_face_down_card(seed: int) -> None:
    game = Game(seed=seed)
    game.apply(Ready(L))
    game.apply(Ready(R))  # the spit: a position in play with many cards face down
    changed = _shuffle_face_down(game.position, seed)

    def first_moves(pos: Position) -> list[tuple[float, str, Player]]:
        table = table_at(pos)
        for p in (L, R):
            seat(table, p, "hard", seed=seed * 10 + p)
        out = []
        while len(out) < 6 and vclock(table).step():
            out = [(d.time, d.action, d.player) for d in table.decisions]
            ev = table.shown.last_event
            if ev is not None and ev.revealed is not None:
                break  # from here on the tables differ to a person's eye too
        return out

    a, b = first_moves(game.position), first_moves(changed)
    assert a and a == b


def test_a_bot_that_overlooks_everything_still_looks_again() -> None:
    blind = Level(
        name="blind", play=Timing(0.5, 0.6, 0.7), react=Timing(0.4, 0.5, 0.6), overlook=1.0
    )
    table = table_at(RACE)
    bot = Bot(table, R, blind, rng=random.Random(0))
    bot.attach()
    assert bot.plan is not None and bot.plan.action is None  # a look, not a reach
    vclock(table).advance(10)
    assert not [d for d in table.decisions if d.source == "bot"]
    assert table.clock.pending >= 1  # it keeps looking: nothing stalls


def test_detach_stops_the_bot() -> None:
    table = table_at(RACE)
    bot = seat(table, R, "expert")
    bot.detach()
    vclock(table).advance(5)
    assert not table.decisions
