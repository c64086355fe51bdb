"""The settings screen (F6, the palette's "Settings", `spit-tui settings`),
pressed as a player would: arrows change a setting, it is used and kept at
once; the links open the names box and the key setup; the game waits."""

from __future__ import annotations

import os
import tomllib
from typing import Any

import pytest
from testkit.app import advance, make_app, press, screen_text
from textual.pilot import Pilot

from spit_tui.app import SpitApp
from spit_tui.app.keysetup import KeySetupScreen
from spit_tui.app.namescreen import NamesScreen
from spit_tui.app.screens import GameScreen
from spit_tui.app.settingsscreen import SettingsMode, SettingsScreen
from spit_tui.settings import Settings, settings_for_start
from spit_tui.settings.configfile import default_path

PLAY = "play 1 two - 9c:7h/:Ks/2d3d:5c/-/:Jd 4h6h 8s/Ac :9h/4s:Qd/:2c/:6d/:Tc 5d5s 0,0"


def kept() -> dict[str, Any]:
    return tomllib.loads(default_path().read_text("utf-8"))


def started(app: SpitApp, flags: dict[str, Any] | None = None) -> SpitApp:
    settings, note = settings_for_start(flags or {}, os.environ)
    app.use_settings(settings, note)
    return app


async def open_settings(pilot: Pilot[None]) -> SettingsScreen:
    await pilot.press("f6")
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, SettingsScreen)
    return screen


async def test_f6_opens_the_settings_and_the_game_waits() -> None:
    app = started(make_app(PLAY))
    async with app.run_test(size=(80, 24)) as pilot:
        before = app.table.position
        await open_settings(pilot)
        assert app.table.paused
        await press(pilot, "qwy")  # letters do nothing here: no card is played
        assert app.table.position == before
        text = await screen_text(pilot)
        assert "Theme" in text and "Reduced motion" in text and "Key setup" in text
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen) and not app.table.paused


async def test_a_change_is_used_and_kept_at_once() -> None:
    app = started(make_app(PLAY))
    async with app.run_test(size=(100, 30)) as pilot:
        await open_settings(pilot)
        await pilot.press("right")  # the theme: the next one
        await pilot.pause()
        assert app.theme == "textual-light"
        assert kept()["theme"] == "textual-light"
        # down to reduced motion: palette, suits, cards, markers, three bells, then it
        await pilot.press(*["down"] * 8, "right")
        assert app.game_screen.still and kept()["reduced_motion"] is True
        await pilot.press("up", "enter")  # the slap's bell on
        await pilot.press("up", "up", "space")  # and the lost race's
        assert app.settings is not None and app.settings.bell == {"slap", "lost-race"}
        assert kept()["bell"] == ["lost-race", "slap"]
        assert app.game_screen.bell is not None
        await pilot.press("left")  # the lost race's bell off again
        assert kept()["bell"] == ["slap"]
        await pilot.press(*["down"] * 5, "right")  # the points target: 100 -> 150
        assert kept()["target"] == 150
    again, _ = settings_for_start({}, os.environ)
    assert (again.theme, again.reduced_motion, again.bell, again.target) == (
        "textual-light", True, frozenset({"slap"}), 150,
    )


async def test_a_setting_a_flag_decides_says_so() -> None:
    app = started(make_app(PLAY), {"theme": "nord", "level": "hard"})
    async with app.run_test(size=(100, 30)) as pilot:
        await open_settings(pilot)
        text = await screen_text(pilot)
        assert "(--theme, this run)" in text and "(--level, this run)" in text
        assert "(--variant" not in text


async def test_a_bad_file_is_not_saved_over_and_the_screen_says_why() -> None:
    default_path().parent.mkdir(parents=True)
    default_path().write_text("theme = [\n", encoding="utf-8")
    before = default_path().read_bytes()
    app = started(make_app(PLAY))
    async with app.run_test(size=(100, 30)) as pilot:
        await open_settings(pilot)
        await pilot.press(*["down"] * 5, "right")  # a bell on
        await pilot.pause()
        assert app.game_screen.bell is not None  # used for this run
        text = " ".join((await screen_text(pilot)).split())
        assert "not saved (mend or remove the file first): config.toml: not valid TOML" in text
        await pilot.press(*["up"] * 5, "right")  # a theme: used, not saved, and said so
        await pilot.pause()
        assert app.theme == "textual-light"
        text = " ".join((await screen_text(pilot)).split())
        assert "not saved (mend or remove the file first)" in text
    assert default_path().read_bytes() == before


async def test_the_links_open_the_names_box_and_the_key_setup() -> None:
    app = started(make_app(seed=1))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_settings(pilot)
        await pilot.press(*["down"] * 12, "enter")  # Players' names
        await pilot.pause()
        assert isinstance(app.screen, NamesScreen)
        await pilot.press("escape", "down", "enter")  # back; Key setup
        await pilot.pause()
        assert isinstance(app.screen, KeySetupScreen)
        await pilot.press("escape", "escape")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)


async def test_names_change_on_a_games_first_banner_only() -> None:
    app = started(make_app(PLAY))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_settings(pilot)
        await pilot.press(*["down"] * 12, "enter")
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen)
        assert "names change on a game's first banner" in await screen_text(pilot)


async def test_the_palette_offers_the_settings() -> None:
    app = started(make_app(PLAY))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+p", *"settings")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen)


async def test_the_header_offers_f6_between_games_and_pause_in_play() -> None:
    app = started(make_app(seed=1))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        first = (await screen_text(pilot)).splitlines()[0]
        assert "F6 settings" in first and "Space pause" not in first
        await advance(pilot, 0.5)
        await pilot.press("q", "y")  # both spit
        await advance(pilot, 1.0)
        first = (await screen_text(pilot)).splitlines()[0]
        assert "Space pause" in first and "F6" not in first


async def test_spit_tui_settings_shows_the_screen_alone_and_esc_ends_it() -> None:
    app = SpitApp(mode=SettingsMode())
    app.use_settings(Settings())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen)
        await pilot.press(*["down"] * 9, "right")  # the game's variant: points
        assert kept()["variant"] == "points"
        await pilot.press("escape")
        await pilot.pause()
    assert app.return_code == 0


# -- snapshots ------------------------------------------------------------------------


async def _open(pilot: Pilot[Any]) -> None:
    await pilot.press("f6", *["down"] * 5, "right")  # a bell on, focus on it


@pytest.mark.parametrize("size", [(80, 24), (100, 30)], ids=["80x24", "100x30"])
def test_settings_screen_snapshot(snap_compare: Any, size: tuple[int, int]) -> None:
    def app() -> SpitApp:
        made = make_app(seed=1)
        made.use_settings(Settings())
        return made

    assert snap_compare(app(), terminal_size=size, run_before=_open)
