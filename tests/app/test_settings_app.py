"""Settings in the app: the theme chosen in the palette kept in config.toml and
used at the next start; the light, the terminal's-16-colours and NO_COLOR
themes through the settings; a bad config.toml as one line on screen."""

from __future__ import annotations

import os
import re
import tomllib

import pytest
from rich.segment import Segment
from rich.style import Style
from testkit.app import make_app
from textual.color import Color
from textual.pilot import Pilot

from spit_tui.app import SpitApp
from spit_tui.settings import settings_for_start
from spit_tui.settings.configfile import default_path

PLAY = "play 1 two - 9c:7h/:Ks/2d3d:5c/-/:Jd 4h6h 8s/Ac :9h/4s:Qd/:2c/:6d/:Tc 5d5s 0,0"


def started(position: str = PLAY) -> SpitApp:
    """An app given the settings as the start-up gives them (flags none)."""
    app = make_app(position)
    settings, note = settings_for_start({}, os.environ)
    app.use_settings(settings, note)
    return app


def write_config(text: str) -> None:
    path = default_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


async def pick_theme(pilot: Pilot[None], name: str) -> None:
    """Ctrl+P, "theme", Enter, the theme's name, Enter: as a player does it."""
    for step in ("theme", name):
        if step == "theme":
            await pilot.press("ctrl+p")
        await pilot.press(*step)
        await pilot.pause(0.3)  # the palette searches in a worker
        await pilot.press("enter")
        await pilot.pause()


async def test_a_theme_picked_in_the_palette_is_kept_for_the_next_start() -> None:
    app = started()
    async with app.run_test(size=(80, 24)) as pilot:
        await pick_theme(pilot, "ansi-light")
        assert app.theme == "ansi-light"
    assert tomllib.loads(default_path().read_text("utf-8"))["theme"] == "ansi-light"
    again = started()
    async with again.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert again.theme == "ansi-light" and again.current_theme.ansi
        assert again.settings is not None and again.settings.source("theme") == "config.toml"


async def test_a_bad_config_is_one_line_on_screen_and_never_saved_over() -> None:
    write_config('theme = "nord"\nbell = "loud"\n')
    before = default_path().read_bytes()
    app = started()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.2)
        shown = [n.message for n in app._notifications]
        assert any(m.startswith("config.toml: bell: 'loud' is not a list") for m in shown), shown
        assert app.theme == "nord"  # what the file could give, it gave
        await pick_theme(pilot, "dracula")
        assert app.theme == "dracula"  # used for this run
        shown = [n.message for n in app._notifications]
        assert any(m.startswith("not saved (mend or remove the file first)") for m in shown)
    assert default_path().read_bytes() == before


def _screen_colours(app: SpitApp) -> set[str]:
    return set(re.findall(r"fill: (#[0-9a-f]{6})", app.export_screenshot()))


async def test_the_light_theme_from_config_draws_on_white() -> None:
    write_config('theme = "spit-light"\n')
    app = started()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.current_theme.background == "#ffffff"
        colours = _screen_colours(app)
        assert {"#005a8c", "#9a4a00"} <= colours
        assert not colours & {"#56b4e9", "#e69f00"}


async def test_the_terminals_own_colours_from_config() -> None:
    write_config('theme = "ansi-dark"\n')
    app = started()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.theme == "ansi-dark" and app.current_theme.ansi
        assert app.player_colours.enabled  # the players get the terminal's cyan and yellow


@pytest.mark.parametrize("theme", ["spit-light", "nord", "ansi-light"])
async def test_no_color_wins_over_the_theme_in_config(
    monkeypatch: pytest.MonkeyPatch, theme: str
) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    write_config(f'theme = "{theme}"\n')
    app = started()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.theme == theme
        blue = [Segment("LEFT", Style(color="#56b4e9", bold=True, bgcolor="#ffffff"))]
        for f in app.get_line_filters():
            blue = f.apply(blue, Color(255, 255, 255))
        (seg,) = blue
        assert seg.style is not None and seg.style.bold
        assert seg.style.color is None or seg.style.color.is_default


async def test_the_flag_wins_over_the_theme_in_config() -> None:
    write_config('theme = "nord"\n')
    app = make_app(PLAY)
    settings, _ = settings_for_start({"theme": "dracula"}, os.environ)
    app.use_settings(settings)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.theme == "dracula"
