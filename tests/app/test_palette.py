"""The command palette (Ctrl+P): the game's commands beside Textual's, pressed
as a player would (Ctrl+P, a name typed, Enter), and the themes it offers."""

from __future__ import annotations

import pytest
from appkit import advance, make_app, press, screen_text
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.color import Color
from textual.command import CommandPalette
from textual.pilot import Pilot
from textual.screen import Screen

from spit_tui.app import SpitApp
from spit_tui.app.modes import Mode
from spit_tui.app.palette import palette_commands
from spit_tui.app.screens import GameScreen, PauseScreen
from spit_tui.engine import Phase
from spit_tui.keys.keymap import KeyMap
from spit_tui.keys.layout import preset, preset_names
from spit_tui.keys.reserved import RESERVED_KEYS
from spit_tui.keys.terminal import game_intent

PLAY = "play 1 two - 9c:7h/:Ks/2d3d:5c/-/:Jd 4h6h 8s/Ac :9h/4s:Qd/:2c/:6d/:Tc 5d5s 0,0"
OVER = "play 4 one:R - :7h/-/-/-/- - 8s :Kd/2c:Qd/:4h/:5s/Ac:Jh 6d6h 0,0"


async def run_command(pilot: Pilot[None], words: str) -> None:
    """Ctrl+P, `words` typed into the palette, Enter: as a player does it."""
    await pilot.press("ctrl+p")
    assert CommandPalette.is_open(pilot.app)
    await pilot.press(*words)
    await pilot.pause(0.3)  # the palette searches in a worker
    await pilot.press("enter")
    await pilot.pause()


def titles(app: SpitApp, screen: Screen[object]) -> list[str]:
    return [c.title for c in palette_commands(app, screen, app.get_system_commands(screen))]


async def test_opening_the_palette_stops_the_clocks_and_keeps_game_keys_out() -> None:
    app = make_app(PLAY)
    async with app.run_test(size=(80, 24)) as pilot:
        before = app.table.position
        await pilot.press("ctrl+p")
        assert CommandPalette.is_open(app)
        assert app.table.paused  # as for help: the game screen is covered
        await press(pilot, "q")  # typed into the palette's search, not played
        assert app.table.position == before
        await pilot.press("escape", "escape")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen) and not app.table.paused


async def test_new_game_from_the_palette_deals_the_next_game() -> None:
    app = make_app(OVER)
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "q")  # the last card
        t = app.table
        assert t.position.phase is Phase.OVER
        await advance(pilot, 1.1)
        await run_command(pilot, "new game")
        assert isinstance(app.screen, GameScreen)
        assert t.position.phase is Phase.SPIT and t.position.round == 1


async def test_pause_and_help_from_the_palette_run_their_keys_actions() -> None:
    from spit_tui.app.help import HelpScreen

    app = make_app(PLAY)
    async with app.run_test(size=(80, 24)) as pilot:
        await run_command(pilot, "pause")
        assert isinstance(app.screen, PauseScreen) and app.table.paused
        await pilot.press("space")
        assert isinstance(app.screen, GameScreen) and not app.table.paused
        await run_command(pilot, "help")
        assert isinstance(app.screen, HelpScreen)


async def test_quit_from_the_palette_asks_first_in_play() -> None:
    app = make_app(PLAY)
    async with app.run_test(size=(80, 24)) as pilot:
        await run_command(pilot, "quit")
        text = await screen_text(pilot)
        assert "Quit the game?" in text and app.is_running


class _Seat(Mode):
    """A mode like a seat at a host's game: no new games, pause or names here."""

    new_games = False

    def names_refused(self) -> str:
        return "the names are the host's to set"

    def pause_refused(self) -> str:
        return "a game over the network cannot be paused"


async def test_the_palette_offers_only_what_the_mode_allows() -> None:
    local = make_app(PLAY)
    async with local.run_test(size=(80, 24)):
        shown = titles(local, local.game_screen)
        for title in ("Help", "New game", "Pause", "Names", "Keys", "Save record", "Theme"):
            assert title in shown
        assert shown.count("Quit") == 1 and shown.count("Keys") == 1  # ours, not Textual's
    seat = SpitApp(table=make_app(PLAY).table, mode=_Seat())
    async with seat.run_test(size=(80, 24)):
        shown = titles(seat, seat.game_screen)
        assert "New game" not in shown and "Pause" not in shown and "Names" not in shown
        assert "Help" in shown and "Theme" in shown


def test_ctrl_p_is_no_game_key_in_any_layout() -> None:
    """Kept by the app (so no key file can take it), and no layout reads it."""
    assert "ctrl+p" in RESERVED_KEYS
    for name in preset_names():
        keys = KeyMap.of(preset(name))
        assert game_intent(events.Key("ctrl+p", "\x10"), keys) == (None, False), name


async def test_a_theme_chosen_from_the_palette_is_used() -> None:
    app = make_app(PLAY)
    async with app.run_test(size=(80, 24)) as pilot:
        await run_command(pilot, "theme")  # Textual's picker, then a theme's name
        await pilot.press(*"ansi-light")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await pilot.pause()
        assert app.theme == "ansi-light"
        assert isinstance(app.screen, GameScreen) and not app.table.paused


@pytest.mark.parametrize("theme", ["textual-light", "ansi-dark", "nord"])
async def test_no_color_stays_without_colour_whatever_the_theme(
    monkeypatch: pytest.MonkeyPatch, theme: str
) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app(PLAY)
    async with app.run_test(size=(80, 24)) as pilot:
        app.theme = theme
        await pilot.pause()
        red = [Segment("A♥", Style(color="red", bold=True, bgcolor="#ffffff"))]
        for f in app.get_line_filters():
            red = f.apply(red, Color(255, 255, 255))
        (seg,) = red
        assert seg.style is not None and seg.style.bold
        assert seg.style.color is None or seg.style.color.is_default
        assert seg.style.bgcolor is None or seg.style.bgcolor.is_default
