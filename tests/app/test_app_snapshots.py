"""Snapshots of every screen at 100x30 and 80x24 (pytest-textual-snapshot).
Regenerate with `pytest tests/app --snapshot-update` and look at the report."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from testkit.app import advance, make_app, press
from textual.pilot import Pilot

from spit_tui.app import SpitApp
from spit_tui.engine import Options, Variant

SLAP = "slap 1 two - -/-/-/-/- - 2s3s4s/9d8d7d6d5d4d3d :Kh/:Kc/-/-/- 5c6c 0,0"
OUT = (  # LEFT holds no card at all, and the two-pile round still ends in a slap
    "slap 1 two - -/-/-/-/- - 2s3s4s5s6s7s8s9sTs9d/JsQsKsAs3h4h5h6h7h8h9hThJhQhKhAh2d3d4d5d9c"
    " :2h/-/-/-/- 6d7d8dTdJdQdKdAd2c3c4c5c6c7c8cTcJcQcKcAc 0,0"
)
OVER = "play 4 one:R - :7h/-/-/-/- - 8s :Kd/2c:Qd/:4h/:5s/Ac:Jh 6d6h 0,0"
SIZES = [pytest.param((100, 30), id="100x30"), pytest.param((80, 24), id="80x24")]

Snap = Callable[..., bool]
Before = Callable[[Pilot[Any]], Awaitable[None]]


async def _board(pilot: Pilot[Any]) -> None:
    await press(pilot, "w")  # left: A♦ on 2♦ (highlighted)
    await press(pilot, "y")  # right: 10♦ on A♦: refused, with its reason


async def _help(pilot: Pilot[Any]) -> None:
    await pilot.press("f1", "right")


async def _help_keys(pilot: Pilot[Any]) -> None:
    await pilot.press("f1")  # the key page: no hidden card, F2 to save the game


async def _help_computer(pilot: Pilot[Any]) -> None:
    await pilot.press("f1", "left")  # the last page: what each computer level is like


async def _help_winning(pilot: Pilot[Any]) -> None:
    await pilot.press("f1", "left", "left")  # the page that explains the bar and its trend


async def _summary(pilot: Pilot[Any]) -> None:
    await advance(pilot, 0.31)
    await press(pilot, "q")  # left slaps pile a


async def _over(pilot: Pilot[Any]) -> None:
    await press(pilot, "q")


async def _nothing(pilot: Pilot[Any]) -> None:
    await pilot.pause()


async def _key_setup(pilot: Pilot[Any]) -> None:
    await pilot.press("f1", "f3", "a")  # the key setup screen, one key already taken


async def _names_box(pilot: Pilot[Any]) -> None:
    await pilot.press("f4", "end", "backspace", "backspace", "backspace", *"Cy")  # BO -> Cy


def _first_run_app() -> SpitApp:
    app = make_app(seed=1)
    app.first_run = True  # as on a machine where nothing chose a keyboard yet
    return app


def _vs_computer() -> SpitApp:
    """Against the computer (hard, on the right): its side shows its level, no keys."""
    from spit_tui.app.computer import computer_app
    from spit_tui.engine import Player

    table = make_app(seed=1, spat=True).table
    return computer_app(computer={Player.RIGHT: "hard"}, table=table, bot_seed=1)


async def _computers_key(pilot: Pilot[Any]) -> None:
    await pilot.pause()
    pilot.app.clear_notifications()  # the opening note (8 s) would cover the message line
    await press(pilot, "y")  # the computer's key: said once, beside its side
    await pilot.pause()


async def _offer(pilot: Pilot[Any]) -> None:
    app = pilot.app
    assert isinstance(app, SpitApp)
    app.show_notes(offer="F5: resume the game of 14:02, round 3 (ANA v BEN)")  # the history's
    await pilot.pause()


async def _resumed(pilot: Pilot[Any]) -> None:
    from spit_tui.store.records import record_of

    app = pilot.app
    assert isinstance(app, SpitApp)
    await press(pilot, "w")  # a card played, then the game stopped and resumed
    app.resume_game(record_of(app.table), 12.0)  # held: Enter plays on
    await pilot.pause()


def _kept_app() -> SpitApp:
    """A session with a history: quitting a game in play keeps it to resume."""
    import tempfile
    from pathlib import Path

    from spit_tui.store.history import HistoryWriter

    app = make_app(seed=1, spat=True)
    app.attach_history(HistoryWriter(Path(tempfile.mkdtemp()) / "h.sqlite3", threaded=False))
    return app


async def _quit_kept(pilot: Pilot[Any]) -> None:
    await press(pilot, "w")  # a card played: the game is worth keeping
    await pilot.press("ctrl+q")  # the dialog says how to resume it


async def _palette(pilot: Pilot[Any]) -> None:
    """The palette over the board: the game's commands first. It lists them from a
    worker, a few at a time on a busy machine: wait until every one is listed (its
    search box's cursor held still, so the time taken does not show)."""
    from textual.command import CommandList
    from textual.widgets import Input

    app = pilot.app
    await pilot.press("ctrl+p")
    app.screen.query_one(Input).cursor_blink = False
    expected = len(list(app.get_system_commands(app.screen_stack[0])))
    for _ in range(50):
        await pilot.pause(0.1)
        listed = app.screen.query(CommandList)
        if listed and listed.first().option_count == expected:
            break
    await pilot.pause(0.1)


def _light_app() -> SpitApp:
    app = make_app(seed=1, spat=True)
    app.theme = "spit-light"  # the light theme on white (Ctrl+P, Theme): darker player colours
    return app


SCREENS: dict[str, tuple[Callable[[], SpitApp], Before]] = {
    "board": (lambda: make_app(seed=1, spat=True), _board),
    "help": (lambda: make_app(seed=1, spat=True), _help),
    "help_keys": (lambda: make_app(seed=1, spat=True), _help_keys),
    "help_computer": (lambda: make_app(seed=1, spat=True), _help_computer),
    "help_winning": (lambda: make_app(seed=1, spat=True), _help_winning),
    "slap": (lambda: make_app(SLAP), _nothing),
    "slap_out": (lambda: make_app(OUT), _nothing),
    "summary": (lambda: make_app(SLAP), _summary),
    "opening_offer": (lambda: make_app(seed=1), _offer),
    "resumed": (lambda: make_app(seed=1, spat=True), _resumed),
    "over": (lambda: make_app(OVER), _over),
    "quit_kept": (_kept_app, _quit_kept),
    "first_run": (_first_run_app, _nothing),
    # the opening banner with names (markup in a name shows as typed), and F4's box
    "names": (lambda: make_app(seed=1, names=("ANN", "[b]BO[/b]")), _nothing),
    "names_box": (lambda: make_app(seed=1, names=("ANN", "BO")), _names_box),
    "key_setup": (lambda: make_app(seed=1, spat=True), _key_setup),
    "palette": (lambda: make_app(seed=1, spat=True), _palette),
    "board_light": (_light_app, _board),
    "vs_computer": (_vs_computer, _computers_key),
    "points": (
        lambda: make_app(seed=2, spat=True, options=Options(variant=Variant.POINTS, target=50)),
        _nothing,
    ),
}


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("name", list(SCREENS))
def test_screen(snap_compare: Snap, name: str, size: tuple[int, int]) -> None:
    factory, before = SCREENS[name]
    assert snap_compare(factory(), terminal_size=size, run_before=before)


@pytest.mark.parametrize("size", [(60, 20), (79, 24)], ids=["60x20", "79x24"])
def test_too_small(snap_compare: Snap, size: tuple[int, int]) -> None:
    assert snap_compare(make_app(seed=1), terminal_size=size, run_before=_nothing)
