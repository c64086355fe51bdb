"""Notation round trips (Hypothesis) and a few malformed inputs."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from testkit.engine import pos
from testkit.positions import reached

from spit_tui.engine import (
    Fill,
    Flip,
    Game,
    NotationError,
    Options,
    Phase,
    Play,
    Player,
    Position,
    Ready,
    Record,
    Side,
    Slap,
    Slot,
    format_action,
    format_position,
    format_record,
    full_deck,
    parse_action,
    parse_position,
    parse_record,
    position_problem,
)

players = st.sampled_from(list(Player))
slots5 = st.integers(0, 4)

actions = st.one_of(
    st.builds(Play, players, slots5, st.integers(0, 1)),
    st.builds(Fill, players, slots5, slots5),
    st.builds(Flip, players, slots5),
    st.builds(Ready, players),
    st.builds(Slap, players, st.integers(0, 1)),
)


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """All 52 cards spread over ten slots, two spit stacks and one or two piles."""
    deck = draw(st.permutations(full_deck()))
    spitter = draw(st.sampled_from([None, Player.LEFT, Player.RIGHT]))
    npiles = 2 if spitter is None else 1
    nbins = 10 + 2 + npiles
    where = draw(st.lists(st.integers(0, nbins - 1), min_size=52, max_size=52))
    bins: list[list] = [[] for _ in range(nbins)]
    for c, b in zip(deck, where, strict=True):
        bins[b].append(c)
    ups = draw(st.lists(st.booleans(), min_size=10, max_size=10))
    ready = draw(st.tuples(st.booleans(), st.booleans()))
    sides = []
    for p in range(2):
        slots = tuple(
            Slot(tuple(bins[p * 5 + i]), bool(bins[p * 5 + i]) and ups[p * 5 + i])
            for i in range(5)
        )
        sides.append(Side(slots=slots, spit=tuple(bins[10 + p]), ready=ready[p]))
    phase = draw(st.sampled_from(list(Phase)))
    winner = draw(players) if phase is Phase.OVER else None
    return Position(
        phase=phase,
        round=draw(st.integers(1, 5000)),
        sides=(sides[0], sides[1]),
        piles=tuple(tuple(b) for b in bins[12:]),
        spitter=spitter,
        scores=(draw(st.integers(0, 999)), draw(st.integers(0, 999))),
        winner=winner,
    )


@given(positions())
def test_position_round_trip(p: Position) -> None:
    """The notation alone (check=False): any layout of the cards reads back as written."""
    assert sorted(p.all_cards()) == sorted(full_deck())
    text = format_position(p)
    assert parse_position(text, check=False) == p
    assert format_position(parse_position(text, check=False)) == text
    assert len(text.split()) == 10


@given(reached())
def test_reached_position_round_trip(reached_pos: tuple[Options, Position]) -> None:
    """Every position a game reaches is accepted by the checked parser, as written."""
    opts, p = reached_pos
    text = format_position(p)
    assert parse_position(text) == p
    assert position_problem(p, opts) is None
    assert Game(options=opts, position=p).position == p  # nothing to settle


@given(actions)
def test_action_round_trip(a: Play | Fill | Flip | Ready | Slap) -> None:
    text = format_action(a)
    assert parse_action(text) == a
    assert text[0] == a.player.letter


@st.composite
def records(draw: st.DrawFn) -> Record:
    opts, start = draw(reached())
    return Record(
        options=opts,
        seed=draw(st.one_of(st.none(), st.integers(-(2**63), 2**63))),
        actions=draw(st.lists(actions, max_size=60)),
        start=draw(st.sampled_from([None, start])),
    )


@given(records())
def test_record_round_trip(rec: Record) -> None:
    text = format_record(rec)
    assert parse_record(text) == rec
    assert format_record(parse_record(text)) == text


def test_position_helper_examples_read_as_written() -> None:
    p = pos("spit 2 one:R R :8h/4c3c:2d/-/-/- - *7s :Jh/-/-/-/- 9d 3,4")
    assert p.phase is Phase.SPIT and p.round == 2 and p.spitter is Player.RIGHT
    assert not p.sides[0].ready and p.sides[1].ready
    assert [len(s) for s in p.sides[0].slots] == [1, 3, 0, 0, 0]
    assert p.sides[0].slots[1].face_up is not None and str(p.sides[0].slots[1].face_up) == "2d"
    assert p.scores == (3, 4) and len(p.piles[0]) == 52 - 4 - 2


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("play 1 two - :8h/-/-/-/- - 7s/8h :Jh/-/-/-/- - 0,0", "twice"),
        ("play 0 two - :8h/-/-/-/- - 7s/Kc :Jh/-/-/-/- - 0,0", "round"),
        ("play 1 one:R - :8h/-/-/-/- - 7s/Kc :Jh/-/-/-/- - 0,0", "spit piles"),
        ("play 1 two - :8h/-/-/- - 7s/Kc :Jh/-/-/-/- - 0,0", "left stockpiles"),
        ("over 1 two - :8h/-/-/-/- - 7s/Kc :Jh/-/-/-/- - 0,0", "winner"),
        ("play 1 two - :8h/-/-/-/- - 7s/Kc :Jh/-/-/-/- - 0", "scores"),
        ("play 1 two - :8h/-/-/-/- - 7s/Kc :1h/-/-/-/- - 0,0", "right stockpiles"),
    ],
)
def test_malformed_positions_name_the_bad_field(text: str, field: str) -> None:
    with pytest.raises(NotationError, match=field):
        parse_position(text)


@pytest.mark.parametrize("text", ["L6a", "L1c", "X1a", "L1>", "L!!", "L*", ""])
def test_malformed_actions_are_refused(text: str) -> None:
    with pytest.raises(NotationError):
        parse_action(text)
