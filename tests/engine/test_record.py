"""Game records with stamps (time and source per action) and free tags: round
trips, the old unstamped format still read as before, malformed stamps refused."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_notation_props import actions  # every kind of action, both players
from testkit.engine import play_out

from spit_tui.engine import (
    Game,
    NotationError,
    Options,
    Player,
    Ready,
    Record,
    Source,
    Stamp,
    Stamps,
    Variant,
    format_record,
    parse_record,
    replay_record,
)

stamps = st.one_of(
    st.none(), st.builds(Stamp, st.integers(0, 10**9 - 1), st.sampled_from(list(Source)))
)
free_tags = st.dictionaries(
    st.sampled_from(["Left", "Right", "Date", "Result", "Event", "Note"]),
    st.from_regex(r"[A-Za-z0-9 .:+-]{0,20}", fullmatch=True),
    max_size=4,
)


@st.composite
def records(draw: st.DrawFn) -> Record:
    acts = draw(st.lists(actions, max_size=40))
    sts = draw(st.lists(stamps, min_size=len(acts), max_size=len(acts)))
    start = draw(st.one_of(st.none(), st.integers(0, 100).map(lambda s: Game(seed=s).position)))
    return Record(
        options=Options(
            variant=draw(st.sampled_from(list(Variant))),
            target=draw(st.integers(1, 1000)),
            manual_flip=draw(st.booleans()),
        ),
        seed=draw(st.one_of(st.none(), st.integers(-(2**63), 2**63))),
        actions=acts,
        start=start,
        stamps=sts,
        tags=draw(free_tags),
    )


@given(records())
def test_stamped_record_round_trip(rec: Record) -> None:
    text = format_record(rec)
    assert parse_record(text) == rec
    assert format_record(parse_record(text)) == text


def test_an_unstamped_record_reads_as_before() -> None:
    text = '[Variant "standard"]\n[Target "100"]\n[ManualFlip "no"]\n[Seed "7"]\nL1a R2>1 L!\n'
    rec = parse_record(text)
    assert rec.stamps == [None, None, None] and rec.tags == {}
    assert format_record(rec) == text


def test_stamps_read_as_milliseconds_and_source() -> None:
    rec = parse_record('[Seed "1"]\n[Left "ANN"]\nL1a@1.204k R2>1@2c L!@0.05k R!\n')
    assert rec.stamps == [
        Stamp(1204, Source.KEY), Stamp(2000, Source.COMPUTER), Stamp(50, Source.KEY), None,
    ]
    assert rec.tags == {"Left": "ANN"}
    assert "L1a@1.204k R2>1@2c L!@0.05k R!" in format_record(rec)


@pytest.mark.parametrize(
    "token", ["L1a@", "L1a@1.2345k", "L1a@1.2", "L1a@-1k", "L1a@1.2x", "L1a@\uff11k", "L1a@1e3k"]
)
def test_a_malformed_stamp_is_refused_with_its_line(token: str) -> None:
    with pytest.raises(NotationError, match=r"line 2: .*(time and source|plain ASCII)"):
        parse_record(f'[Seed "1"]\n{token}\n')


def test_a_free_tag_cannot_hold_a_quote_or_take_an_option_name() -> None:
    with pytest.raises(NotationError):
        Record(options=Options(), seed=1, actions=[], tags={"Left": 'A"B'})
    with pytest.raises(NotationError):
        Record(options=Options(), seed=1, actions=[], tags={"Seed": "3"})


def test_stamps_must_match_the_actions() -> None:
    with pytest.raises(ValueError, match="stamps"):
        Record(options=Options(), seed=1, actions=[Ready(Player.LEFT)], stamps=[])


def test_a_stamped_record_replays_to_the_same_final_position() -> None:
    g = Game(seed=5)
    play_out(g, random.Random(3))
    sts = [Stamp(100 * i, Source.KEY if i % 2 else Source.COMPUTER) for i in range(len(g.log))]
    rec = Record(options=g.options, seed=5, actions=list(g.log), stamps=sts, tags={"Left": "A"})
    h = replay_record(parse_record(format_record(rec)))
    assert h.position == g.position and h.over


def test_the_walk_applies_each_action_once_and_times_it() -> None:
    """`Record.walk`: one Step per action (the position before it, the event,
    the time: its stamp's, else the last stamp's before), lazily, and a spit
    lands a countdown after the ready that brought it."""
    g = Game(seed=5)
    play_out(g, random.Random(3))
    n = len(g.log)
    sts: list[Stamp | None] = [
        None if i % 3 == 0 else Stamp(100 * i, Source.KEY) for i in range(n)
    ]
    rec = Record(options=g.options, seed=5, actions=list(g.log), stamps=sts)
    steps = list(rec.walk())
    assert [s.action for s in steps] == g.log and [s.n for s in steps] == list(range(n))
    assert steps[-1].event.position == g.position
    assert all(a.event.position == b.before for a, b in itertools.pairwise(steps))
    assert steps[0].at == 0.0 and steps[3].at == steps[2].at == 0.2
    for s in steps:
        spit = bool(s.event.spat)
        assert spit == (isinstance(s.action, Ready) and bool(s.event.spat))
        assert s.lands(0.6) == (s.at + 0.6 if spit else s.at)
    assert any(s.event.spat for s in steps)
    # lazy: a game walked part way stands after exactly those actions
    part = rec.game()
    for _ in zip(range(10), rec.walk(part), strict=False):
        pass
    assert part.log == g.log[:10]


@given(st.lists(stamps))
def test_a_tables_compact_stamps_read_back_as_they_were_given(given: list[Stamp | None]) -> None:
    kept = Stamps()
    for s in given:
        kept.append(s)
    assert list(kept) == given and len(kept) == len(given)
    assert kept == given and kept == Stamps(given) and kept[1:3] == given[1:3]
    if given:
        assert kept[-1] == given[-1]
        assert kept != [*given[:-1], Stamp(10**9, Source.KEY)]
