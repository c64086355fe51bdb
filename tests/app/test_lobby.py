"""The lobby (`spit-tui join HOST` with no code, and the SSH door's first
screen): each choice by its key, a code asked for in a box and checked, Esc
back, Ctrl+Q leaves; and its snapshot."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from textual.widgets import Input

from spit_tui.app import SpitApp
from spit_tui.app.lobby import Choice, LobbyMode, lobby_app
from spit_tui.net.joincmd import check_code

CODE = "k3f9q-2x7mz"


def lobby() -> SpitApp:
    return lobby_app("spit-tui on 127.0.0.1:7878", check_code)


def chosen(app: SpitApp) -> Choice | None:
    assert isinstance(app.mode, LobbyMode)
    return app.mode.chosen


async def choose(*keys: str) -> Choice | None:
    app = lobby()
    async with app.run_test(size=(100, 30)) as pilot:
        for key in keys:
            await pilot.press(key)
        await pilot.pause()
    assert not app.is_running  # each choice (and leaving) ends the lobby
    return chosen(app)


@pytest.mark.parametrize(
    ("keys", "chosen"),
    [
        (["q"], Choice("quick")),
        (["n"], Choice("new")),
        (["down", "enter"], Choice("new")),  # the arrows and Enter too
        (["j", *CODE.upper(), "enter"], Choice("join", CODE)),  # any case
        (["w", *CODE, "enter"], Choice("watch", CODE)),
        (["escape"], None),
        (["ctrl+q"], None),
        (["j", "escape", "q"], Choice("quick")),  # back from the box, then a choice
    ],
)
async def test_each_choice_by_its_keys(keys: list[str], chosen: Choice | None) -> None:
    assert await choose(*keys) == chosen


async def test_a_bad_code_is_said_and_asked_again() -> None:
    app = lobby()
    async with app.run_test(size=(100, 30)) as pilot:
        for key in ["j", "z", "z", "enter"]:
            await pilot.press(key)
        await pilot.pause()
        why = app.query_one("#why")
        assert "not a room code" in str(why.render())
        assert app.is_running
        for key in ["backspace", "backspace", *CODE, "enter"]:  # mend it
            await pilot.press(key)
    assert chosen(app) == Choice("join", CODE)


async def test_f1_shows_what_each_choice_does() -> None:
    app = lobby()
    async with app.run_test(size=(100, 30)) as pilot:
        help_box = app.query_one("#help")
        assert not help_box.display
        await pilot.press("f1")
        assert help_box.display
        await pilot.press("f1")
        assert not help_box.display


def test_lobby_snapshot(snap_compare: Callable[..., bool]) -> None:
    assert snap_compare(lobby(), terminal_size=(100, 30))


async def test_the_lobby_is_the_one_app_and_the_games_own_keys_stay_out() -> None:
    """A mode of SpitApp: Ctrl+P (the game's palette), Space (pause), F4 and F5
    do nothing here, Backspace edits the code (not help), and Ctrl+C leaves."""
    app = lobby()
    assert type(app) is SpitApp
    async with app.run_test(size=(100, 30)) as pilot:
        screen = app.screen
        for key in ["ctrl+p", "space", "f4", "f5"]:
            await pilot.press(key)
        await pilot.pause()
        assert app.screen is screen and app.is_running
        await pilot.press("j", "a", "b", "backspace")
        assert app.query_one("#code", Input).value == "a"
        await pilot.press("escape", "ctrl+c")
    assert not app.is_running and chosen(app) is None
