"""--level auto: long moves (halving) while the first game shows a large gap,
then one rung at most a round, up against a stronger person, down against a
weaker one; the one label it shows; and the stored card times it starts from."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from testkit.bots import table_at, vclock

from spit_tui.engine import Options, Player, Slap
from spit_tui.players.auto import AUTO, AutoLevel, auto_label, stored_reaction_times
from spit_tui.players.bot import Bot
from spit_tui.players.ladder import HUMANS, LADDER, LEVELS, PLACEMENT, TOP
from spit_tui.sim import run_auto


def _steps(rungs: list[int]) -> list[int]:
    return [b - a for a, b in itertools.pairwise(rungs)]


def test_after_the_first_game_auto_moves_at_most_one_rung_a_round() -> None:
    results, rungs = run_auto(
        HUMANS["practised"], games=3, seed=4, options=Options(), start=PLACEMENT["practised"]
    )
    assert len(results) == 3 and all(r.winner is not None for r in results)
    assert len(rungs) == 1 + sum(r.rounds for r in results)  # the start, then every round
    later = rungs[results[0].rounds :]
    assert all(abs(s) <= 1 for s in _steps(later)) and any(_steps(later))
    assert all(1 <= r <= TOP for r in rungs)


def test_while_searching_auto_moves_half_way_to_where_the_pace_places_the_person(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A round's end: half the distance to the rung the person's card times in
    this game place them on; a rung away or less ends the search (then the
    staircase: one rung by the round's outcome)."""
    slap = "slap 1 two - -/-/-/-/- - 2s3s4s/9d8d7d6d5d4d3d :Kh/:Kc/-/-/- 5c6c 0,0"
    aims = iter([12, 12, 11])
    monkeypatch.setattr(AutoLevel, "paced", lambda self: next(aims))
    moved = []
    for _ in range(3):
        table = table_at(slap)
        bot = Bot(table, Player.RIGHT, "normal")
        if not moved:
            auto = AutoLevel(bot, 4)
        else:
            auto.move_to(bot)
        auto.attach()
        vclock(table).advance(0.5)
        table.submit(Slap(Player.LEFT, 1), source="key")  # the person takes the big pile
        vclock(table).advance(0.01)  # the move waits for the round's last action to be filed
        moved.append(auto.rung)
        auto.detach()
    # 4 -> 8 (half of 8), -> 10 (half of 4); then 11 is one away: the search is over,
    # and the round (the same cards again: even) moves nothing
    assert moved == [8, 10, 10]
    assert not auto.searching


def test_auto_places_the_person_by_their_pace_in_the_game() -> None:
    """On the simulator: the pace of a game's plays places each model near its
    own rung (the middle of five games within one), whatever rung the computer
    played at."""
    from spit_tui.match import Match

    for model in HUMANS:
        for rung in (1, TOP):
            placed = []
            for seed in range(5):
                m = Match(HUMANS[model], LADDER[rung - 1], seed=seed)
                auto = AutoLevel(m.bots[1], rung)
                m.run()
                placed.append(auto.paced())
            assert abs(sorted(placed)[2] - PLACEMENT[model]) <= 1, (model, rung, placed)


def test_auto_finds_both_models_within_a_few_rounds_from_either_end() -> None:
    """On the simulator: after three rounds of a first game the rung is nearer
    the model's own than where it started, in most games."""
    for model in HUMANS:
        home = PLACEMENT[model]
        for start in (1, TOP):
            nearer = 0
            for seed in range(8):
                _, rungs = run_auto(
                    HUMANS[model], games=1, seed=50 + seed, options=Options(), start=start
                )
                after = rungs[min(3, len(rungs) - 1)]
                nearer += abs(after - home) < abs(start - home)
            assert nearer >= 6, f"{model} from {start}: nearer in {nearer} of 8"


def test_the_label_is_the_same_on_every_rung() -> None:
    assert auto_label(6) == "auto \N{MIDDLE DOT} level 6"
    assert {auto_label(r).split(" level ")[0] for r in range(1, TOP + 1)} == {"auto \N{MIDDLE DOT}"}


def test_auto_climbs_against_a_strong_person_and_drops_against_a_weak_one() -> None:
    _, up = run_auto(LEVELS["expert"], games=2, seed=1, options=Options(), start=1)
    assert up[-1] > 3
    _, down = run_auto(LADDER[0], games=2, seed=1, options=Options(), start=TOP)
    assert down[-1] < TOP - 3


def test_auto_counts_a_round_once_after_the_slap() -> None:
    """A two-pile round ends twice in the log (cleared, then slapped): one step."""
    slap = "slap 1 two - -/-/-/-/- - 2s3s4s/9d8d7d6d5d4d3d :Kh/:Kc/-/-/- 5c6c 0,0"
    table = table_at(slap)
    bot = Bot(table, Player.RIGHT, "normal")  # not attached: the person slaps first
    auto = AutoLevel(bot, 5)
    auto.searching = False  # past its first game's search: one rung a round
    auto.attach()
    moves: list[tuple[int, int]] = []
    auto.listeners.append(lambda rung, step: moves.append((rung, step)))
    vclock(table).advance(0.5)  # past the stale-key guard
    table.submit(Slap(Player.LEFT, 0), source="key")  # the person takes the small pile
    assert auto.rungs == [5, 6] and moves == [(6, 1)]  # ahead after the round: up one
    assert bot.level is LADDER[5]
    auto.detach()


def test_stored_reaction_times_come_from_the_history(tmp_path: Path) -> None:
    """A real history file: a name with stored figures, one without, and a file
    that is not a database (nothing read, no error)."""
    assert stored_reaction_times(None) == [] and stored_reaction_times("") == []
    db_file = tmp_path / "history.db"
    assert stored_reaction_times("ann", str(db_file)) == []  # no history yet
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not a database" * 100)
    assert stored_reaction_times("ann", str(junk)) == []
    assert AUTO == "auto"


def test_stored_reaction_times_read_the_store(monkeypatch: pytest.MonkeyPatch) -> None:
    from spit_tui.store import queries

    seen: list[tuple[str, object]] = []

    def fake(name: str, path: object = None) -> list[float]:
        seen.append((name, path))
        return [1.0, 1.5] if name == "ann" else []

    monkeypatch.setattr(queries, "reaction_times", fake)
    assert stored_reaction_times("ann") == [1.0, 1.5] and stored_reaction_times("bob") == []
    assert seen == [("ann", None), ("bob", None)]
