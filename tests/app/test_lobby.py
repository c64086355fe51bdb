"""The lobby (`spit-tui join HOST` with no code, and the SSH door's first
screen): each choice by its key, a code asked for in a box and checked, Esc
back, Ctrl+Q leaves; and its snapshot."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from spit_tui.app.lobby import Choice, LobbyApp
from spit_tui.net.joincmd import check_code

CODE = "k3f9q-2x7mz"


async def choose(*keys: str) -> Choice | None:
    app = LobbyApp("spit-tui on 127.0.0.1:7878", check_code)
    async with app.run_test(size=(100, 30)) as pilot:
        for key in keys:
            await pilot.press(key)
        await pilot.pause()
    return app.return_value


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
    app = LobbyApp("spit-tui on 127.0.0.1:7878", check_code)
    async with app.run_test(size=(100, 30)) as pilot:
        for key in ["j", "z", "z", "enter"]:
            await pilot.press(key)
        await pilot.pause()
        why = app.query_one("#why")
        assert "not a room code" in str(why.render())
        assert app.is_running
        for key in ["backspace", "backspace", *CODE, "enter"]:  # mend it
            await pilot.press(key)
    assert app.return_value == Choice("join", CODE)


async def test_f1_shows_what_each_choice_does() -> None:
    app = LobbyApp("spit-tui on 127.0.0.1:7878", check_code)
    async with app.run_test(size=(100, 30)) as pilot:
        help_box = app.query_one("#help")
        assert not help_box.display
        await pilot.press("f1")
        assert help_box.display
        await pilot.press("f1")
        assert not help_box.display


def test_lobby_snapshot(snap_compare: Callable[..., bool]) -> None:
    assert snap_compare(LobbyApp("spit-tui on 127.0.0.1:7878", check_code), terminal_size=(100, 30))
