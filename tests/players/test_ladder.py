"""The computer ladder: levels built with keywords, rungs that get faster and
sharper, the four names as points on it, the help's one-line descriptions,
and where --level auto starts for a person's card times."""

from __future__ import annotations

import itertools
import random

import pytest
from testkit.bots import R, table_at

from spit_tui.engine import Options, Player
from spit_tui.keys.gate import earliest_reaction
from spit_tui.players.bot import Bot
from spit_tui.players.ladder import (
    HUMANS,
    LADDER,
    LEVELS,
    NAMED,
    PLACEMENT,
    REACT_FLOOR,
    STORED_S,
    TOP,
    describe,
    level_named,
    like,
    start_rung,
)
from spit_tui.players.level import Level, Samples, Timing
from spit_tui.sim import run_games

# One play for each side, onto pile a only.
RACE = "play 1 two - 2c:7c/-/-/-/- 3c Ts6s/Qh 2d:5d/-/-/-/- 3d 0,0"


def test_levels_take_keywords_only() -> None:
    with pytest.raises(TypeError):
        Level("x", Timing(1, 1, 1), Timing(1, 1, 1), 0.1)  # type: ignore[misc]
    lv = Level(name="x", play=Timing(1.0, 1.2, 1.5), react=Timing(0.5, 0.6, 0.7), overlook=0.1)
    assert lv.policy == "full" and lv.form == 0.0 and lv.rung == 0
    assert lv.replace(overlook=0.0).overlook == 0.0 and lv.overlook == 0.1
    with pytest.raises(ValueError, match="policy"):
        lv.replace(policy="psychic")


def test_at_least_eight_rungs_each_faster_and_no_less_sharp() -> None:
    assert TOP == len(LADDER) >= 8
    assert [lv.rung for lv in LADDER] == list(range(1, TOP + 1))
    for lower, upper in itertools.pairwise(LADDER):
        assert upper.play.mean < lower.play.mean
        assert upper.overlook <= lower.overlook
        assert upper.react.mean <= lower.react.mean  # quicker to say "spit" and slap


def test_a_rungs_slap_comes_from_the_human_models_it_lies_between() -> None:
    """At the rung each model lands on, the computer reacts as that model does;
    a new player takes 0.8-1.2 s to slap, a practised one 0.35-0.6 s; the top
    rung is quick but no quicker than the floor, the bottom slower than a new player."""
    assert HUMANS["new"].react == Timing(0.8, 0.95, 1.2)
    assert HUMANS["practised"].react == Timing(0.35, 0.45, 0.6)
    for model, rung in PLACEMENT.items():
        assert LADDER[rung - 1].react == HUMANS[model].react
    assert LADDER[0].react.mean > HUMANS["new"].react.mean
    assert LADDER[-1].react == REACT_FLOOR
    assert len({lv.react for lv in LADDER}) >= TOP - 1


def test_the_four_names_are_points_on_the_ladder() -> None:
    assert list(NAMED) == ["easy", "normal", "hard", "expert"]
    assert [LEVELS[n].rung for n in NAMED] == sorted(NAMED.values())
    assert LEVELS["expert"] is LADDER[-1]
    for name, rung in NAMED.items():
        assert level_named(name) is level_named(str(rung)) is LADDER[rung - 1]
    assert level_named(" Hard ") is LEVELS["hard"]
    assert level_named("random").policy == "random"
    for bad in ("0", str(TOP + 1), "godlike", "", "1.5"):
        with pytest.raises(ValueError, match="choose easy, normal, hard, expert"):
            level_named(bad)


def test_each_level_is_described_in_one_line() -> None:
    lines = [describe(lv) for lv in LADDER]
    assert all("a minute" in s and "misses 1 play in" in s and "\n" not in s for s in lines)
    assert len(set(lines)) == TOP
    assert "about 26 a minute" in describe(LEVELS["easy"])  # 60 s over 2.35 s


def test_auto_starts_where_the_persons_card_times_put_them() -> None:
    """A first game (no figures) starts where a new player lands; stored figures
    are placed as the models' own stored figures are (their medians)."""
    assert start_rung(None) == start_rung([]) == PLACEMENT["new"]
    for model, rung in PLACEMENT.items():
        assert start_rung([STORED_S[model]] * 9) == rung
    assert start_rung([0.2] * 30) == TOP and start_rung([9.0] * 30) == 1
    assert start_rung([-1.0, 60.0]) == PLACEMENT["new"]  # nothing usable
    # 17.7 cards a minute over a game is a card every 3.4 s: a new player or below
    assert start_rung([3.4] * 20) <= PLACEMENT["new"]


def test_samples_draw_only_what_was_measured() -> None:
    s = Samples([1.0, 2.0, 4.0, -3.0])
    assert s.seconds == (1.0, 2.0, 4.0) and s.median == 2.0
    rng = random.Random(1)
    assert {s.draw(rng) for _ in range(100)} == {1.0, 2.0, 4.0}
    with pytest.raises(ValueError):
        Samples([])
    me = like([0.9, 1.1], name="like ann")
    assert me.name == "like ann" and isinstance(me.play, Samples) and me.rung == 0


def test_form_changes_the_pace_from_round_to_round() -> None:
    """With form, a card's time can fall outside the level's own range; without, never."""

    def first_delays(level: Level) -> list[float]:
        out = []
        for seed in range(60):
            table = table_at(RACE)
            bot = Bot(table, R, level, rng=random.Random(seed))
            bot.attach()
            assert bot.plan is not None and bot.plan.action is not None
            out.append(bot.plan.due)
        return out

    steady = LEVELS["hard"].replace(overlook=0.0, form=0.0)
    play = steady.play
    assert isinstance(play, Timing)
    assert all(play.low <= d <= play.high for d in first_delays(steady))
    swinging = first_delays(steady.replace(form=0.4))
    assert any(not play.low <= d <= play.high for d in swinging)


def test_set_level_changes_hands_and_head() -> None:
    table = table_at(RACE)
    bot = Bot(table, R, "easy", rng=random.Random(1))
    assert bot.policy.name == "easy"
    bot.set_level(LEVELS["expert"])
    assert bot.level is LEVELS["expert"] and bot.policy.name == "full"


def test_the_top_of_the_ladder_beats_the_bottom() -> None:
    """A quick sanity check; the 60-80% band per step is the slow test's."""
    results = run_games(LADDER[-1], LADDER[0], games=6, seed=2, options=Options())
    assert [r.winner for r in results] == [Player.LEFT] * 6


@pytest.mark.parametrize("level", [LADDER[0], LEVELS["expert"]], ids=["bottom", "top"])
def test_the_slap_comes_at_the_rungs_reaction_scaled_by_its_form(level: Level) -> None:
    """On the virtual clock: the slap lands within the rung's own reaction range
    times the round's form factor (the same factor its cards get)."""
    from test_bot import slap_position

    react = level.react
    assert isinstance(react, Timing)
    swung = []
    for seed in range(12):
        table = table_at(slap_position(21, 29))
        bot = Bot(table, R, level, rng=random.Random(seed))
        bot.attach()
        plan = bot.plan
        assert plan is not None and plan.action is not None
        pace = bot._pace
        assert react.low * pace - 1e-9 <= plan.due <= react.high * pace + 1e-9 or (
            plan.due == pytest.approx(earliest_reaction(0.0, table.gate.stale_s))
        )
        swung.append(plan.due)
    assert any(not react.low <= d <= react.high for d in swung)  # the form counts
    steady = level.replace(form=0.0)
    dues = []
    for seed in range(12):
        table = table_at(slap_position(21, 29))
        bot = Bot(table, R, steady, rng=random.Random(seed))
        bot.attach()
        assert bot.plan is not None
        dues.append(bot.plan.due)
    assert all(max(react.low, table.gate.stale_s) <= d <= react.high for d in dues)
