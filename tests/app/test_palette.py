"""The command palette (Ctrl+P): the game's commands beside Textual's, pressed
as a player would (Ctrl+P, a name typed, Enter), and the themes it offers."""

from __future__ import annotations

import pytest
from rich.segment import Segment
from rich.style import Style
from testkit.app import advance, make_app, press, screen_text
from textual import events
from textual.color import Color
from textual.command import CommandPalette
from textual.pilot import Pilot
from textual.screen import Screen

from spit_tui.app import SpitApp
from spit_tui.app.dialogs import PauseScreen
from spit_tui.app.modes import Mode
from spit_tui.app.palette import palette_commands
from spit_tui.app.screens import GameScreen
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


@pytest.mark.parametrize("theme", ["textual-light", "spit-light", "ansi-dark", "nord"])
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


def _contrast(a: Color, b: Color) -> float:
    """WCAG contrast ratio of two colours."""

    def lum(c: Color) -> float:
        def ch(v: int) -> float:
            x = v / 255
            return x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4

        return 0.2126 * ch(c.r) + 0.7152 * ch(c.g) + 0.0722 * ch(c.b)

    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_the_players_colours_read_on_every_light_theme() -> None:
    """Over 4.5:1 against each light theme's background (today's pair is under 2.5)."""
    from textual.theme import BUILTIN_THEMES

    from spit_tui.app.themes import LIGHT_GREEN, LIGHT_YELLOW, SPIT_LIGHT, pair_for

    light = [t for t in (*BUILTIN_THEMES.values(), SPIT_LIGHT) if not t.dark and not t.ansi]
    assert SPIT_LIGHT.background == "#ffffff" and len(light) > 3
    for theme in light:
        bg = Color.parse(theme.background or "#ffffff")
        for colour in (*pair_for(theme), LIGHT_YELLOW, LIGHT_GREEN):
            ratio = _contrast(Color.parse(colour), bg)
            assert ratio > 4.5, (theme.name, colour, round(ratio, 2))


async def _segment_after_filters(app: SpitApp, style: Style) -> Style:
    segs = [Segment("LEFT", style)]
    for f in app.get_line_filters():
        segs = f.apply(segs, Color(0, 0, 0))
    (seg,) = segs
    assert seg.style is not None
    return seg.style


@pytest.mark.parametrize(
    ("theme", "left", "right"),
    [
        ("textual-dark", "#56b4e9", "#e69f00"),  # as drawn
        ("spit-light", "#005a8c", "#9a4a00"),  # darker, for a white background
        ("ansi-dark", "cyan", "yellow"),  # the terminal's own colours
        ("ansi-light", "blue", "magenta"),
    ],
)
async def test_each_theme_gives_the_players_its_own_colours(
    theme: str, left: str, right: str
) -> None:
    from rich.color import Color as RichColor

    from spit_tui.app.views import PLAYER_STYLES

    app = make_app(PLAY)
    async with app.run_test(size=(80, 24)) as pilot:
        app.theme = theme
        await pilot.pause()
        for style, want in zip(PLAYER_STYLES, (left, right), strict=True):
            got = await _segment_after_filters(app, style + Style(bgcolor="#202020"))
            assert got.bold
            assert got.color == RichColor.parse(want)
        highlight = await _segment_after_filters(app, Style(color="yellow", bold=True))
        assert highlight.color is not None
        dark_on_light = theme == "spit-light"
        assert (highlight.color.triplet == RichColor.parse("#7a5c00").triplet) is dark_on_light


async def test_spit_light_is_offered_in_the_theme_picker() -> None:
    app = make_app(PLAY)
    async with app.run_test(size=(80, 24)) as pilot:
        await run_command(pilot, "theme")
        await pilot.press(*"spit-light")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await pilot.pause()
        assert app.theme == "spit-light" and app.current_theme.background == "#ffffff"
        text = await screen_text(pilot)
        assert "LEFT" in text and "RIGHT" in text


async def test_ctrl_p_in_the_demo_opens_the_palette_and_the_demo_goes_on() -> None:
    """Ctrl+P is the app's own key: the demo does not take it for "play yourselves"."""
    from spit_tui.app.computer import ComputerMode, computer_app
    from spit_tui.clock import VirtualClock
    from spit_tui.engine import Game, Player
    from spit_tui.table import Table

    table = Table(Game(seed=3), VirtualClock())
    app = computer_app(
        computer={Player.LEFT: "hard", Player.RIGHT: "hard"}, demo=True, table=table, bot_seed=2
    )
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("ctrl+p")
        assert CommandPalette.is_open(app)
        assert isinstance(app.mode, ComputerMode) and app.mode.demo
        shown = titles(app, app.game_screen)
        assert "New game" not in shown and "Help" in shown  # the demo deals its own games


def _screen_colours(app: SpitApp) -> set[str]:
    """Every colour on screen as it goes to the terminal (after the filters)."""
    import re

    return set(re.findall(r"fill: (#[0-9a-f]{6})", app.export_screenshot()))


async def test_spit_light_draws_no_colour_made_for_a_dark_background() -> None:
    """On screen, not just through the filter: the players' dark-theme pair and
    Textual's light yellow (2.8:1 on white) are gone, the darker ones there."""
    app = make_app(PLAY)
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "q")  # a card played: highlighted
        dark = _screen_colours(app)
        assert {"#56b4e9", "#e69f00"} <= dark
        app.theme = "spit-light"
        await pilot.pause()
        light = _screen_colours(app)
        assert {"#005a8c", "#9a4a00", "#7a5c00"} <= light, light
        assert not light & {"#56b4e9", "#e69f00", "#cb9000"}


def test_the_theme_filter_is_off_on_the_default_dark_theme() -> None:
    """The default path pays nothing for themes: no filter runs over each line."""
    app = make_app(PLAY)
    assert app.theme == "textual-dark" and not app.player_colours.enabled
    assert app.player_colours not in app.get_line_filters()
