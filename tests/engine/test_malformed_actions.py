"""The engine API does not trust its callers: every public entry point of
`Game` refuses a malformed action with a `Refusal`, the state unchanged, and
raises TypeError for something that is not an action at all."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from testkit.engine import L, R, game

from spit_tui.engine import (
    Action,
    Fill,
    Flip,
    Game,
    Options,
    Phase,
    Play,
    Player,
    Ready,
    Refusal,
    RefusalKind,
    Slap,
    format_position,
    parse_position,
)

# docs/rules.md, the R19 example: round 9, one pile, each player one card left.
R19 = (
    "play 9 one:L - :Td/-/-/-/- - 2d8c4h5hKsKcAs6hQd6dJc9d7dJs2s6cTh2hQh5cQcKhAc8d4c9h3s2c"
    "7hAdTs9c4d5d7s4s3hJdTc3cAh8sKd6s5s7c3dQsJh9s :8h/-/-/-/- - 0,0"
)
MANUAL_PLAY = "play 1 two - 9c5d/:Ks/2d3d:5c/-/:Jd 4h6h 8s/Ac :9h/4s:Qd/:2c/:6d/:Tc * 0,0"


def _refused_everywhere(g: Game, action: Any) -> Refusal:
    """Every entry point refuses `action` and nothing changes."""
    before, log = g.position, list(g.log)
    assert g.problem(action) is not None
    assert g.can(action) is False
    with pytest.raises(Refusal):
        g.verify(action)
    with pytest.raises(Refusal):
        g.apply(action)
    out = g.try_apply(action)
    assert isinstance(out, Refusal)
    assert out.kind is RefusalKind.ILLEGAL
    assert out.position == format_position(before)
    assert str(out)  # a refusal formats, whatever the action held
    assert g.position == before and g.log == log
    return out


def test_flip_with_player_minus_one_is_refused() -> None:
    """Once acted for RIGHT (sides[-1]) in a manual-flip play phase."""
    g = game(MANUAL_PLAY, manual_flip=True)
    assert g.can(Flip(R, 0)) is False and g.can(Flip(L, 0))  # slot 1 of the left is face down
    r = _refused_everywhere(g, Flip(player=-1, slot=0))  # type: ignore[arg-type]
    assert "not a player" in r.reason


def test_flip_with_player_minus_one_in_a_fresh_spit_phase_is_refused() -> None:
    """Once raised IndexError."""
    _refused_everywhere(Game(seed=1, options=Options(manual_flip=True)), Flip(-1, 4))  # type: ignore[arg-type]


def test_an_int_or_bool_player_is_not_applied_as_a_player() -> None:
    g = Game(seed=1)
    assert g.position.phase is Phase.SPIT
    for player in (0, 1, True, False):
        _refused_everywhere(g, Ready(player))  # type: ignore[arg-type]
    assert g.position.sides[0].ready is False and g.position.sides[1].ready is False


def test_player_two_is_refused_in_every_phase() -> None:
    """Once IndexError or AttributeError, depending on the phase."""
    spit = Game(seed=1)
    play = game(MANUAL_PLAY, manual_flip=True)
    for g in (spit, play):
        for action in (Play(2, 0, 0), Fill(2, 0, 3), Flip(2, 0), Ready(2), Slap(2, 0)):  # type: ignore[arg-type]
            _refused_everywhere(g, action)


def test_refusal_of_an_int_player_in_the_r19_example_does_not_crash() -> None:
    """Once AttributeError while formatting the refusal."""
    g = Game(position=parse_position(R19))
    r = _refused_everywhere(g, Play(player=-1, slot=0, pile=0))  # type: ignore[arg-type]
    assert r.action == "Play(player=-1, slot=0, pile=0)"


def test_slots_and_piles_of_the_wrong_type_are_refused() -> None:
    g = game(MANUAL_PLAY, manual_flip=True)
    for action in (
        Play(L, True, 0), Play(L, 0, False), Play(L, 1.0, 0), Play(L, "1", 0), Play(L, None, 1),  # type: ignore[arg-type]
        Fill(L, 1.0, 3), Fill(L, 1, True), Flip(L, 0.0), Slap(L, 0.5),  # type: ignore[arg-type]
    ):
        r = _refused_everywhere(g, action)
        assert r.reason.startswith("not a move")


def test_slots_and_piles_out_of_range_are_refused() -> None:
    g = game(MANUAL_PLAY, manual_flip=True)
    for action in (
        Play(L, -1, 0), Play(L, 5, 0), Play(L, 1, 2), Play(L, 1, -1), Play(L, 10**30, 0),
        Fill(L, 1, -2), Fill(L, 9, 3), Fill(L, 1, 5), Flip(L, -1), Flip(L, 5),
    ):
        _refused_everywhere(g, action)
    slap = game("slap 1 two - -/-/-/-/- - 2s3s4s/9d8d7d6d5d4d3d :Kh/:Kc/-/-/- * 0,0")
    for action in (Slap(L, 2), Slap(R, -1), Slap(L, 10**30)):
        _refused_everywhere(slap, action)


@pytest.mark.parametrize("thing", [None, "L1a", 3, (L, 0, 0), Player.LEFT, object()])
def test_a_non_action_is_a_type_error_at_every_entry_point(thing: object) -> None:
    g = game(MANUAL_PLAY, manual_flip=True)
    before = g.position
    calls: list[Callable[[Any], object]] = [g.problem, g.can, g.verify, g.apply, g.try_apply]
    for call in calls:
        with pytest.raises(TypeError, match="not an action"):
            call(thing)
    assert g.position == before and g.log == []


def test_the_named_methods_refuse_a_malformed_player_or_slot() -> None:
    g = game(MANUAL_PLAY, manual_flip=True)
    before = g.position
    bad: list[Callable[[], object]] = [
        lambda: g.play(-1, 0, 0),  # type: ignore[arg-type]
        lambda: g.play(L, 1.0, 0),  # type: ignore[arg-type]
        lambda: g.fill(True, 1, 3),  # type: ignore[arg-type]
        lambda: g.flip(-1, 0),  # type: ignore[arg-type]
        lambda: g.ready(1),  # type: ignore[arg-type]
        lambda: g.slap(L, "a"),  # type: ignore[arg-type]
    ]
    for call in bad:
        with pytest.raises(Refusal):
            call()
    assert g.position == before


@pytest.mark.parametrize("player", [-1, 0, 1, 2, True, None, "L"])
def test_legal_actions_for_a_non_player_is_a_type_error(player: object) -> None:
    for g in (Game(seed=1), game(MANUAL_PLAY, manual_flip=True)):
        with pytest.raises(TypeError, match="not a player"):
            g.legal_actions(player)  # type: ignore[arg-type]
        with pytest.raises(TypeError, match="not a player"):
            g.can_act(player)  # type: ignore[arg-type]


def test_well_formed_actions_still_work_beside_the_checks() -> None:
    g = game(MANUAL_PLAY, manual_flip=True)
    assert g.can(Flip(L, 0))
    ev = g.flip(L, 0)
    assert ev.card is not None
    assert g.legal_actions(L) and g.legal_actions(R)


# -- hypothesis: malformed actions thrown at games in many positions -----------

_players = st.one_of(
    st.sampled_from(list(Player)),
    st.integers(-3, 3),
    st.booleans(),
    st.none(),
    st.text(max_size=2),
    st.floats(allow_nan=True),
)
_indices = st.one_of(
    st.integers(-6, 7),
    st.integers(),
    st.booleans(),
    st.floats(allow_nan=True),
    st.none(),
    st.text(max_size=2),
    st.just(Player.RIGHT),
)
_actions = st.one_of(
    st.builds(Play, _players, _indices, _indices),
    st.builds(Fill, _players, _indices, _indices),
    st.builds(Flip, _players, _indices),
    st.builds(Ready, _players),
    st.builds(Slap, _players, _indices),
)


def _well_formed(a: Action) -> bool:
    fields = [getattr(a, f) for f in a.__match_args__ if f != "player"]
    return a.player in (Player.LEFT, Player.RIGHT) and type(a.player) is Player and all(
        type(v) is int for v in fields
    )


@settings(max_examples=300, deadline=None)
@given(
    seed=st.integers(0, 2**16),
    steps=st.integers(0, 120),
    manual_flip=st.booleans(),
    actions=st.lists(_actions, min_size=1, max_size=6),
)
def test_malformed_actions_never_crash_or_change_a_game(
    seed: int, steps: int, manual_flip: bool, actions: list[Action]
) -> None:
    g = Game(seed=seed, options=Options(manual_flip=manual_flip))
    rng = random.Random(seed)
    for _ in range(steps):
        legal = g.legal_actions(L) + g.legal_actions(R)
        if not legal:
            break
        g.apply(rng.choice(legal))
    for a in actions:
        before, n = g.position, len(g.log)
        ok = g.problem(a) is None
        assert g.can(a) is ok
        out = g.try_apply(a)
        if isinstance(out, Refusal):
            assert not ok
            assert g.position == before and len(g.log) == n
            str(out)
        else:
            assert ok and _well_formed(a), a
            assert out.position == g.position and g.log[-1] == a
