"""Snapshots of the join screen: a seat at a host's room (in play, with a
card just played and both pings), and the same seat while the other one is
away. The room runs on a virtual clock, in process; the seat is drawn from
the public view only, as over the wire."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from testkit.lobby import Recorder, join, lobby
from textual.pilot import Pilot

from spit_tui.app import SpitApp
from spit_tui.app.join import seat_app as _seat_app
from spit_tui.clock import VirtualClock
from spit_tui.engine import Play, Player, Ready
from spit_tui.net.remote import RemoteSeat
from spit_tui.net.seat import LocalSeat

Snap = Callable[..., bool]


def seat_app(drop_right: bool, watching: bool = False) -> SpitApp:
    lob = lobby(1)
    room = lob.new_room()
    local = LocalSeat(room, Player.LEFT)
    table = RemoteSeat(Player.LEFT, local.press, VirtualClock(), room.table.gate.stale_s,
                       watching=watching)  # fmt: skip
    _session, rec = join(lob, room, "right")
    room.seats[Player.RIGHT].shown_ms = 42  # as the host's pings would have measured it

    async def start(app: SpitApp) -> None:
        local.attach(table, lambda line: app.finish(line))
        t = room.table
        clock = t.clock
        assert isinstance(clock, VirtualClock)
        for p in Player:
            clock.advance(t.gate.stale_s + 0.01)
            t.submit(Ready(p))
        clock.advance(t.countdown_s + 0.01)
        plays = [a for a in t.game.legal_actions(Player.LEFT) if isinstance(a, Play)]
        if plays:
            t.submit(plays[0])
        if drop_right:
            _session.ended()

    assert isinstance(rec, Recorder)
    return _seat_app(table, start, watching=watching)


async def _settle(pilot: Pilot[Any]) -> None:
    await pilot.pause()
    await pilot.pause()


@pytest.mark.parametrize("drop", [False, True], ids=["play", "waiting"])
def test_join_screen(snap_compare: Snap, drop: bool) -> None:
    assert snap_compare(seat_app(drop), terminal_size=(100, 30), run_before=_settle)


@pytest.mark.parametrize("watching", [False, True], ids=["seat", "watcher"])
async def test_a_seat_labels_only_its_own_halfs_keys(watching: bool) -> None:
    """The LEFT seat's board labels LEFT's keys from its own layout; RIGHT's
    half is played at another keyboard, with keys this one does not know: it
    shows RIGHT's player instead (it showed this keyboard's right half, keys
    that do nothing here). A watcher's board labels neither half."""
    from testkit.screen import screen_text

    from spit_tui.keys.intent import Row
    from spit_tui.keys.keymap import US

    app = seat_app(False, watching)
    async with app.run_test(size=(100, 30)) as pilot:
        await _settle(pilot)
        text = await screen_text(pilot)
    for p in Player:
        labels = [f"[{US.label_for(p, row, slot)}]" for row in (Row.PILE_A, Row.PILE_B)
                  for slot in range(5)]  # fmt: skip
        shown = p is Player.LEFT and not watching
        assert all((label in text) is shown for label in labels), (p, text)
    assert "RIGHT · their keys" in text, text
    assert ("LEFT · their keys" in text) is watching, text


def match_over_app(figures: str = "") -> SpitApp:
    """A seat in a match room (first to 2) whose game just ended, winning the match."""
    from spit_tui.engine import Game, Options, parse_position
    from spit_tui.matchscore import MatchScore

    near_end = (  # docs/rules.md, the R19 example: each player one card left
        "play 9 one:L - :Td/-/-/-/- - 2d8c4h5hKsKcAs6hQd6dJc9d7dJs2s6cTh2hQh5cQcKhAc8d4c9h3s2c"
        "7hAdTs9c4d5d7s4s3hJdTc3cAh8sKd6s5s7c3dQsJh9s :8h/-/-/-/- - 0,0"
    )
    lob = lobby(1)
    room = lob.new_room()
    room.match = MatchScore(2, wins=[1, 0], games=1)
    room.table.new_game(Game(options=Options(), position=parse_position(near_end), seed=7))
    local = LocalSeat(room, Player.LEFT)
    table = RemoteSeat(Player.LEFT, local.press, VirtualClock(), room.table.gate.stale_s)
    join(lob, room, "right")
    room.name_seat(Player.LEFT, "ana")
    room.name_seat(Player.RIGHT, "ben")

    async def start(app: SpitApp) -> None:
        local.attach(table, lambda line: app.finish(line))
        t = room.table
        assert isinstance(t.clock, VirtualClock)
        t.clock.advance(t.gate.stale_s + 0.01)
        t.submit(next(a for a in t.game.legal_actions(Player.LEFT) if isinstance(a, Play)))
        if figures:  # what the seat's own history says once it has kept the game
            table.show_figures(figures)

    return _seat_app(table, start, lambda: None)


@pytest.mark.parametrize("size", [(80, 24), (100, 30)], ids=["80x24", "100x30"])
def test_join_screen_a_match_won(snap_compare: Snap, size: tuple[int, int]) -> None:
    """The game-over banner says the match is won, and the rematch key begins the next."""
    assert snap_compare(match_over_app(), terminal_size=size, run_before=_settle)


def test_join_screen_a_match_won_with_the_seats_own_rating(snap_compare: Snap) -> None:
    """The seat's own history kept the game: its lines join the banner, the
    match line and the rematch keys still whole at 80x24."""
    lines = "ana 12 cards a minute · ben 0 cards a minute\nrating 1545 (+45)"
    assert snap_compare(match_over_app(lines), terminal_size=(80, 24), run_before=_settle)


def test_the_other_halfs_player_fits_its_half_with_the_longest_name() -> None:
    from rich.cells import cell_len

    from spit_tui.app.board import SIDE_W, computer_seats
    from spit_tui.names import MAX_CELLS
    from spit_tui.net.remote import EMPTY

    scene = EMPTY._replace(names=("ana", "Ŵ" * MAX_CELLS), keyed=(True, False))
    left, right = computer_seats(scene)
    assert left is None and right is not None and right.endswith(" · their keys"), right
    assert cell_len(right) <= SIDE_W - 1, right


def test_a_room_not_yet_begun_is_never_said_to_be_paused() -> None:
    """A watcher of a new room (or a seat with no line to send) while the
    other seat has not come yet: the game has not begun, so nothing is
    "paused" and nothing "goes on where it stopped"; once both have been
    there and one is gone, it is."""
    from spit_tui.net.remote import EMPTY

    seat = RemoteSeat(Player.LEFT, lambda row, slot: None, VirtualClock(), 0.2, watching=True)
    seat.latest = EMPTY._replace(waiting="RIGHT")
    scene = seat.scene()
    assert scene.away == "Waiting for RIGHT to join"
    assert scene.away_hint == "The game begins when they come."
