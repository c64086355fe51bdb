"""A Scene goes over the wire and comes back the same: every field a seat is
sent (hypothesis), and a view that breaks the shape is refused on read
(a round with no spit pile among them: it once killed the seat's worker)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from testkit.lobby import lobby

from spit_tui.engine import (
    SLOTS,
    Card,
    EndReason,
    Options,
    Phase,
    Player,
    RoundEnd,
    Variant,
    card,
)
from spit_tui.net.protocol import ProtocolError
from spit_tui.net.seatview import scene_from_wire, scene_to_wire, seat_view
from spit_tui.players.view import SideView
from spit_tui.scene import Outcome, Said, Scene, Scored
from spit_tui.story import FeedEntry

# Every strategy is built once, here: a strategy built inside a draw is new each
# time, and hypothesis then checks it again (emptiness, recursion, validation),
# which cost most of this test's time (15 s of 300 examples) for the same scenes.
CARDS = st.sampled_from([card(r + s) for r in "23456789TJQKA" for s in "shdc"])
CARD_OR_NONE = st.none() | CARDS
PLAYERS = st.sampled_from(list(Player))
PLAYER_OR_NONE = st.none() | PLAYERS
TEXT = st.text(st.characters(codec="utf-8", exclude_categories=("C", "Z")), min_size=1,
               max_size=30).filter(str.isprintable)
TEXT_OR_NONE = st.none() | TEXT
MILLIS = st.integers(0, 10**6).map(lambda n: n / 1000)
COUNT = st.integers(0, 52)
BOOLS = st.booleans()
SLOT_SIZES = st.lists(COUNT, min_size=SLOTS, max_size=SLOTS)
PAIR = st.tuples(st.integers(0, 500), st.integers(0, 500))
ONE_OR_TWO = st.integers(1, 2)
# by the number of centre piles, n (1 or 2)
PILE_SIZES = {n: st.lists(COUNT, min_size=n, max_size=n) for n in (1, 2)}
OWNERS = {n: st.lists(PLAYER_OR_NONE, min_size=n, max_size=n) for n in (1, 2)}
LIT = {n: st.lists(st.integers(0, n - 1), max_size=n) for n in (1, 2)}
FEED_CARDS = {n: st.lists(CARDS, min_size=n, max_size=n) for n in (0, 1, 2)}


@st.composite
def sides(draw: st.DrawFn) -> SideView:
    sizes = tuple(draw(SLOT_SIZES))
    tops = tuple(draw(CARD_OR_NONE) if n else None for n in sizes)
    return SideView(tops, sizes, draw(COUNT), draw(BOOLS))


SIDES = sides()
FEED_KINDS = st.sampled_from(["play", "spit", "slap", "late"])
ZERO_TO_TWO = st.integers(0, 2)
PILE_OR_NONE = st.none() | st.integers(0, 1)


@st.composite
def feed_entries(draw: st.DrawFn) -> FeedEntry:
    kind = draw(FEED_KINDS)
    player = None if kind == "spit" else draw(PLAYERS)
    n = 1 if kind == "play" else draw(ZERO_TO_TWO)
    cards: tuple[Card, ...] = tuple(draw(FEED_CARDS[n]))
    return FeedEntry(kind, player, cards, draw(PILE_OR_NONE))


ROUND_NUMBERS = st.integers(1, 99)
REASONS = st.sampled_from(list(EndReason))
TOOK = st.tuples(PILE_OR_NONE, PILE_OR_NONE)


@st.composite
def round_ends(draw: st.DrawFn) -> RoundEnd:
    n = draw(ONE_OR_TWO)
    return RoundEnd(
        round=draw(ROUND_NUMBERS),
        reason=draw(REASONS),
        single_pile=n == 1,
        cleared_by=draw(PLAYER_OR_NONE),
        took=draw(TOOK),
        pile_sizes=tuple(draw(PILE_SIZES[n])),
        held=draw(PAIR),
        round_points=draw(PAIR),
        scores=draw(PAIR),
    )


SAID = st.none() | st.builds(Said, TEXT, st.sampled_from(list(Outcome)))
PHASES = st.sampled_from(list(Phase))
ROUNDS = st.integers(0, 999)
OPTIONS = st.builds(Options, st.sampled_from(list(Variant)), st.integers(1, 500), BOOLS)
PINGS = st.tuples(st.none() | st.integers(0, 60_000), st.none() | st.integers(0, 999))
FEED = st.lists(feed_entries(), max_size=2)
TREND = st.lists(st.tuples(PLAYERS, st.integers(1, 52)), max_size=3)
LEFT_SLOT = st.none() | st.tuples(PLAYERS, st.integers(0, 4))
LAST_ROUND = st.none() | round_ends()
SCOREBOARD = st.lists(st.builds(Scored, ROUND_NUMBERS, PAIR), max_size=10)
AT = st.integers(0, 10**5)
COUNTDOWN_S = st.integers(0, 60_000).map(lambda k: k / 1000)


@st.composite
def scenes(draw: st.DrawFn, seat: Player) -> Scene:
    """Any scene a host may send `seat`: only its own message, and none of
    what only the screen's own table knows."""
    n = draw(ONE_OR_TWO)
    sizes = tuple(draw(PILE_SIZES[n]))
    at = float(draw(AT))
    counting = draw(BOOLS)
    said = draw(SAID)
    messages: list[Said | None] = [None, None]
    messages[seat] = said
    return Scene(
        phase=draw(PHASES),
        round=draw(ROUNDS),
        sides=(draw(SIDES), draw(SIDES)),
        pile_tops=tuple(draw(CARDS) if k else None for k in sizes),
        pile_sizes=sizes,
        spitter=draw(PLAYER_OR_NONE),
        winner=draw(PLAYER_OR_NONE),
        scores=draw(PAIR),
        options=draw(OPTIONS),
        names=(draw(TEXT), draw(TEXT)),
        messages=(messages[0], messages[1]),
        pings=draw(PINGS),
        owners=tuple(draw(OWNERS[n])),
        feed=tuple(draw(FEED)),
        played=draw(PAIR),
        trend=tuple(draw(TREND)),
        lit=tuple(draw(LIT[n])),
        left_slot=draw(LEFT_SLOT),
        last_round=draw(LAST_ROUND),
        scoreboard=tuple(draw(SCOREBOARD)),
        at=at,
        game_s=draw(MILLIS),
        round_s=draw(MILLIS),
        running=draw(BOOLS),
        countdown_end=at + draw(MILLIS) if counting else None,
        countdown_s=draw(COUNTDOWN_S),
        stuck=draw(BOOLS),
        waiting=draw(TEXT_OR_NONE),
    )


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_a_scene_comes_back_from_the_wire_as_it_went(data: st.DataObject) -> None:
    seat = data.draw(PLAYERS)
    scene = data.draw(scenes(seat))
    heard = data.draw(st.integers(0, 2**53))
    msg = scene_to_wire(scene, seat, heard)
    wire = json.loads(json.dumps(msg, allow_nan=False))  # plain JSON, as framed
    assert scene_from_wire(wire, seat, scene.at) == scene


def test_a_tables_own_scene_goes_over_as_the_seat_may_see_it() -> None:
    lob = lobby(4)
    room = lob.new_room()
    table = room.table
    msg = seat_view(table, Player.RIGHT, "LEFT", (12, None), 3)
    back = scene_from_wire(msg, Player.RIGHT, table.clock.now())
    own = table.scene()
    assert back.sides == own.sides and back.pile_sizes == own.pile_sizes
    assert back.waiting == "LEFT" and back.pings == (12, None)
    assert back.away is None and back.offer == ""  # the host's own screen's words stay home


def _view() -> dict[str, object]:
    lob = lobby(4)
    room = lob.new_room()
    return json.loads(json.dumps(seat_view(room.table, Player.LEFT)))


@pytest.mark.parametrize(
    "change",
    [
        {"piles": []},
        {"piles": [{"top": None, "size": 0}] * 3},
        {"piles": [{"top": "7h", "size": 0}, {"top": None, "size": 0}]},
        {"lit": [1], "piles": [{"top": None, "size": 0}]},
        {"names": ["\x1b[2J", "RIGHT"]},
        {"message": {"text": "\x1b]52;c;AAAA\x07", "kind": "ignored"}},
        {"waiting": "\x07"},
        {"seat": "right"},
        {"round": -1},
        {"times": {"round": 0, "game": 0, "countdown": float("inf"), "countdown_s": 0.6,
                   "running": False}},
        {"extra": 1},
    ],
)
def test_a_bad_view_is_refused_on_read(change: dict[str, object]) -> None:
    msg = _view() | change
    with pytest.raises(ProtocolError):
        scene_from_wire(msg, Player.LEFT)


def test_a_good_view_reads() -> None:
    scene = scene_from_wire(_view(), Player.LEFT, 5.0)
    assert scene.at == 5.0 and scene.pile_sizes == (0, 0)
    assert scene._replace(at=0.0).taken_at(5.0) == scene
