"""The lobby's pages from the history (issue 23 item 3, issue 20 item 2): "My
stats" (s) and "Today's daily deals" (d), read from a real SQLite file of
bot-played daily games (one player rated by an SSH key, as the door stores
guests), on a worker; Esc comes back to the menu; and their snapshots."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from spit_tui.app import SpitApp
from spit_tui.app.linesscreen import LinesScreen
from spit_tui.app.lobby import ENTRIES, LobbyMode, lobby_app
from spit_tui.app.lobbypages import history_entries
from spit_tui.engine import Player
from spit_tui.match import Match
from spit_tui.net.joincmd import check_code
from spit_tui.players.ladder import HUMANS
from spit_tui.store import daily
from spit_tui.store.history import HistoryWriter

DAY = date(2026, 12, 2)
TITLE = "spit-tui on 127.0.0.1:7878"


def history(path: Path) -> Path:
    """ann (by her key) and bo each play the day's deal against its level."""
    for seed, name, key in ((1, "ann", "SHA256:ann"), (2, "bo", None)):
        match = Match(HUMANS["practised"], daily.LEVEL, seed=seed, deal=daily.seed_for(DAY))
        writer = HistoryWriter(path, threaded=False)
        writer.names = (name, f"computer ({daily.LEVEL})")
        writer.rungs = {Player.RIGHT: 7}
        writer.daily = DAY.isoformat()
        writer.identities = (key, None)
        writer.attach(match.table)
        match.run()
        writer.close()
    return path


def app_for(path: Path, name: str | None = "ann") -> SpitApp:
    return lobby_app(TITLE, check_code, None, (*ENTRIES, *history_entries(path, name, DAY)))


async def _page(pilot: Any, app: SpitApp) -> LinesScreen[Any]:
    for _ in range(200):
        await pilot.pause(0.02)
        page = app.screen
        if isinstance(page, LinesScreen) and page.lines is not None:
            return page
    raise AssertionError(f"no page read: {app.screen}")


async def test_my_stats_and_the_days_table_then_back_to_the_menu(tmp_path: Path) -> None:
    app = app_for(history(tmp_path / "h.sqlite3"))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("s")
        page = await _page(pilot, app)
        assert page.heading == "My stats: ann"
        assert page.lines is not None and page.lines[0].startswith("ann: 1 game")
        assert page.lines[1].startswith("rating ")  # kept by her key, shown by her name
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, LinesScreen) and app.is_running  # the menu again
        await pilot.press("d")
        page = await _page(pilot, app)
        assert page.lines is not None
        assert page.lines[0] == "The daily deal of 2026-12-02: 2 players"
        assert {line.split()[1] for line in page.lines[1:]} == {"ann", "bo"}
        await pilot.press("escape")
        await pilot.press("ctrl+q")
        await pilot.pause()
    assert not app.is_running
    assert isinstance(app.mode, LobbyMode) and app.mode.chosen is None  # pages choose nothing


async def test_with_no_history_a_page_says_so(tmp_path: Path) -> None:
    app = app_for(tmp_path / "none.sqlite3", name=None)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("s")
        page = await _page(pilot, app)
        assert page.lines is not None and "--name" in page.lines[0]


@pytest.mark.parametrize("key", ["s", "d"], ids=["my-stats", "daily-table"])
def test_lobby_page_snapshot(snap_compare: Callable[..., bool], tmp_path: Path, key: str) -> None:
    async def read(pilot: Any) -> None:
        await pilot.press(key)
        await _page(pilot, pilot.app)
        await pilot.pause()

    app = app_for(history(tmp_path / "h.sqlite3"))
    assert snap_compare(app, run_before=read, terminal_size=(80, 24))


async def test_todays_deal_is_chosen_at_once(tmp_path: Path) -> None:
    from spit_tui.app.lobby import Choice

    app = app_for(tmp_path / "none.sqlite3")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("t")
        await pilot.pause()
    assert isinstance(app.mode, LobbyMode) and app.mode.chosen == Choice("today")


async def test_my_stats_are_for_the_name_given_in_the_lobby(tmp_path: Path) -> None:
    """A player named in the lobby's question (not on the command line) sees
    their own stats under that name."""
    from spit_tui.app.lobby import YourName

    path = history(tmp_path / "h.sqlite3")
    you = YourName(None, lambda name: None)
    app = lobby_app(TITLE, check_code, None, (*ENTRIES, *history_entries(path, None, DAY)),
                    you=you)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press(*"bo", "enter", "s")
        page = await _page(pilot, app)
        assert page.heading == "My stats: bo", page.heading
        assert "bo" in "\n".join(page.lines or [])  # (her figures, read for that name)
