"""Help (with its live pages), pausing, quit confirmation, too-small, new game."""

from __future__ import annotations

import asyncio
import re

from testkit.app import advance, make_app, press, screen_text, settle, settle_screen

from spit_tui.app import SpitApp
from spit_tui.app.dialogs import QuitScreen, TooSmallScreen
from spit_tui.app.help import HelpScreen
from spit_tui.app.screens import GameScreen
from spit_tui.app.walkthrough import PAGES
from spit_tui.clock import RealClock
from spit_tui.engine import Game, Phase
from spit_tui.table import Outcome, Table

PLAY = "play 1 two - 9c:7h/:Ks/2d3d:5c/-/:Jd 4h6h 8s/Ac :9h/4s:Qd/:2c/:6d/:Tc 5d5s 0,0"
OVER = "play 4 one:R - :7h/-/-/-/- - 8s :Kd/2c:Qd/:4h/:5s/Ac:Jh 6d6h 0,0"


async def test_help_opens_pauses_and_returns_to_the_game_as_it_was() -> None:
    app = make_app(PLAY)
    async with app.run_test(size=(80, 24)) as pilot:
        before = app.table.position
        for key in ("f1", "backspace"):
            await pilot.press(key)
            assert isinstance(app.screen, HelpScreen)
            text = await screen_text(pilot)
            assert app.table.paused and "(the game waits)" in text
            assert "Space pause" in text and "Enter new game" in text  # every app key here
            await press(pilot, "q")  # a game key goes to the help page, not the game
            assert app.table.position == before
            await pilot.press("escape")
            assert isinstance(app.screen, GameScreen)
            assert not app.table.paused
            assert app.table.position == before
        await pilot.press("f1")
        await pilot.press("f1")  # F1 again closes it
        assert isinstance(app.screen, GameScreen)


async def test_every_help_page_shows_and_its_move_can_be_tried_with_real_keys() -> None:
    app = make_app(PLAY)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f1")
        help_screen = app.screen
        assert isinstance(help_screen, HelpScreen)
        text = await screen_text(pilot)
        assert "LEFT player" in text and "Q W E R T" in text and "H J K L ;" in text
        from spit_tui.engine import format_position

        assert format_position(app.table.position)[:20] not in text  # no hidden cards
        titles = []
        for _ in range(len(PAGES) - 1):
            await pilot.press("right")
            page = PAGES[help_screen.page]
            titles.append(page.title)
            text = await screen_text(pilot)
            assert page.title in text
            # the rules' numbers are the developers' (spit-rules.md), never a player's
            assert not re.search(r"\b[RD]\d+\b", text), text
            if page.position is None:  # the computer page: one line per level, no board
                assert "misses 1 play in" in text and "expert" in text
                continue
            assert "Try it:" in text
            t = help_screen.table
            assert t is not None
            await advance_help(pilot, t, 0.31)
            await press(pilot, "q")
            assert t.decisions[-1].outcome is Outcome.APPLIED, (page.title, t.decisions[-1])
            text = await screen_text(pilot)
            assert "✓" in text
            await pilot.press("enter")  # reset the page
            assert help_screen.table is not t
        assert len(set(titles)) == len(PAGES) - 1
        await pilot.press("escape")
        assert app.table.decisions == type(app.table.decisions)()  # untouched


async def advance_help(pilot: object, table: object, seconds: float) -> None:
    from spit_tui.clock import VirtualClock
    from spit_tui.table import Table

    assert isinstance(table, Table) and isinstance(table.clock, VirtualClock)
    table.clock.advance(seconds)


async def test_race_page_says_too_late() -> None:
    app = make_app(PLAY)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f1")
        screen = app.screen
        assert isinstance(screen, HelpScreen)
        while "First touch" not in PAGES[screen.page].title:
            await pilot.press("right")
        await press(pilot, "yq")
        assert screen.table is not None
        assert screen.table.decisions[-1].outcome is Outcome.LOST_RACE
        assert "too late" in " ".join((await screen_text(pilot)).split())


async def test_help_pauses_real_time_countdown() -> None:
    """With the real clock: the game's clock, and so the spit's countdown, stands
    still while help is open, and runs out once help is closed. (The countdown is
    3 s here, not 0.6: on a loaded machine the help could open after a short one
    had run out, and the test would fail for the machine's sake; 1.2 s did, at
    load 19 on two cores.)"""
    table = Table(Game(seed=3), RealClock(), countdown_s=3.0)
    app = SpitApp(table=table)
    async with app.run_test(size=(80, 24)) as pilot:
        await asyncio.sleep(0.35)  # past the stale-key guard
        await press(pilot, "q")
        await press(pilot, "p")
        assert table.counting_down
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)
        table.clock.update()
        stood = table.clock.now()
        await asyncio.sleep(0.4)
        table.clock.update()
        assert table.clock.now() == stood  # no game time passed under the help
        assert table.counting_down
        assert table.position.phase is Phase.SPIT
        await pilot.press("escape")
        for _ in range(300):  # the rest of the countdown, in real time (15 s at most)
            if not table.counting_down:
                break
            await asyncio.sleep(0.05)
        await settle(pilot)
        assert not table.counting_down
        assert table.position.phase is Phase.PLAY


async def test_keys_in_one_burst_close_and_ask_in_their_order() -> None:
    """Esc then Ctrl+Q in one read of the terminal (or late, on a loaded
    machine): the app took its own Ctrl+Q at once and the screen's Esc after
    it. Over help, the quit question came up and help's Esc then closed the
    top screen, the question (a tests/net loop met it); on the quit
    question, Esc (back) then Ctrl+Q (ask again) quit the game."""
    app = make_app(PLAY)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)
        await press(pilot, ["escape", "ctrl+q"])
        await settle_screen(pilot)
        assert [type(s) for s in app.screen_stack] == [GameScreen, QuitScreen]
        await press(pilot, ["escape", "ctrl+q"])
        await settle_screen(pilot)
        assert app.return_code is None, "it quit"
        assert [type(s) for s in app.screen_stack] == [GameScreen, QuitScreen]


async def test_ctrl_q_and_ctrl_c_ask_before_quitting() -> None:
    app = make_app(PLAY)
    async with app.run_test(size=(80, 24)) as pilot:
        for key in ("ctrl+q", "ctrl+c"):
            await pilot.press(key)
            assert isinstance(app.screen, QuitScreen)
            assert app.table.paused
            assert "back to the game (it is paused)" in await screen_text(pilot)
            await press(pilot, "y")  # a game key neither quits nor plays
            assert app.is_running and isinstance(app.screen, QuitScreen)
            await pilot.press("escape")
            assert isinstance(app.screen, GameScreen)
            assert not app.table.paused
        await pilot.press("ctrl+c")
        await pilot.press("enter")
        await pilot.pause()
    assert app.return_code == 0


async def test_space_pauses_both_halves_and_the_clocks_until_space_or_esc() -> None:
    """The pause key: listed in the header, not a game key, the game waits under
    it exactly as under help (the clock stands still, keys play nothing)."""
    from spit_tui.app.dialogs import PauseScreen

    app = make_app(PLAY)
    async with app.run_test(size=(80, 24)) as pilot:
        assert "Space pause" in await screen_text(pilot)
        before = app.table.position
        for close in ("space", "escape"):
            await pilot.press("space")
            assert isinstance(app.screen, PauseScreen) and app.table.paused
            text = await screen_text(pilot)
            assert "Both halves wait" in text and "not a game key" not in text
            at = app.table.clock.now()
            await advance(pilot, 5.0)  # stepping a paused game's clock moves nothing
            assert app.table.clock.now() == at
            await press(pilot, "qy")  # game keys of both halves play nothing
            assert app.table.position == before
            await pilot.press(close)
            assert isinstance(app.screen, GameScreen) and not app.table.paused
        await press(pilot, "q")
        assert app.table.decisions[-1].outcome is Outcome.APPLIED


async def test_after_game_over_there_is_nothing_to_pause() -> None:
    app = make_app(OVER)
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "q")
        assert app.table.position.phase is Phase.OVER
        await pilot.press("space")
        assert isinstance(app.screen, GameScreen)
        assert "nothing to pause" in await screen_text(pilot)
        await pilot.press("ctrl+q")  # and the quit dialog does not say the game is paused
        text = await screen_text(pilot)
        assert "Quit the game?" in text and "paused" not in text and "back to the board" in text


async def test_ctrl_q_twice_quits() -> None:
    app = make_app(PLAY)
    async with app.run_test(size=(80, 24)) as pilot:
        exits: list[object] = []
        real_exit = app.exit
        app.exit = lambda *a, **k: (exits.append(a), real_exit(*a, **k))[1]  # type: ignore[method-assign]
        await pilot.press("ctrl+q")
        assert exits == []
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert exits == [()]
    assert app.return_code == 0


async def test_too_small_then_bigger_brings_the_game_back_intact() -> None:
    app = make_app(PLAY)
    async with app.run_test(size=(60, 20)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, TooSmallScreen)
        assert app.table.paused
        text = await screen_text(pilot)
        assert "80 x 24" in text and "60 x 20" in text and "the game is paused" in text
        await press(pilot, "q")
        assert all(d.outcome is not Outcome.APPLIED for d in app.table.decisions)
        await pilot.press("f1")  # no help over the too-small message
        assert isinstance(app.screen, TooSmallScreen)
        await pilot.resize_terminal(100, 30)
        await pilot.pause(0.1)
        assert isinstance(app.screen, GameScreen)
        assert not app.table.paused
        await press(pilot, "q")
        assert app.table.decisions[-1].outcome is Outcome.APPLIED
        await pilot.resize_terminal(79, 24)
        await pilot.pause(0.1)
        assert isinstance(app.screen, TooSmallScreen)
        await pilot.resize_terminal(80, 24)
        await pilot.pause(0.1)
        assert isinstance(app.screen, GameScreen)


async def test_game_over_then_enter_starts_a_new_game() -> None:
    app = make_app(OVER)
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "q")  # the last card
        t = app.table
        assert t.position.phase is Phase.OVER
        text = await screen_text(pilot)
        assert "GAME OVER" in text and "LEFT wins" in text and "Enter: new game" in text
        await pilot.press("enter")  # too soon after the last card: ignored
        assert t.position.phase is Phase.OVER
        await advance(pilot, 1.1)
        await pilot.press("enter")
        assert t.position.phase is Phase.SPIT and t.position.round == 1
        assert t.shown.rounds == []
        assert sum(s.total for s in t.position.sides) == 52


async def test_a_key_of_neither_half_gets_a_hint_in_the_header() -> None:
    app = make_app(PLAY)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("tab")
        text = await screen_text(pilot)
        assert "Tab is not a game key" in text
        before = len(app.table.decisions)
        await pilot.press("left_square_bracket")
        assert "[ is not a game key" in await screen_text(pilot)
        assert len(app.table.decisions) == before  # neither key reached the table


async def test_the_header_hint_runs_out_on_the_game_clock() -> None:
    app = make_app(PLAY)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("tab")
        assert "Tab is not a game key" in await screen_text(pilot)
        await advance(pilot, 2.0)
        assert "Tab is not a game key" in await screen_text(pilot)
        await advance(pilot, 0.6)  # 2.5 s of game time: gone, without any real wait
        text = await screen_text(pilot)
        assert "Tab is not a game key" not in text and "F1 help" in text



async def test_a_long_header_stays_one_line_and_keeps_f1_at_80_columns() -> None:
    from spit_tui.engine import Options, Variant

    opts = Options(variant=Variant.POINTS, target=100, manual_flip=True)
    late = PLAY.replace("play 1 ", "play 12 ", 1)  # a late round: the longest left part
    app = make_app(late, options=opts)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        header = app.screen.query_one("#header")
        line = header.render()
        assert "points to 100" in line.plain and "manual flip" in line.plain
        assert line.cell_len <= 80 and "F1 help" in line.plain
        await pilot.press("tab")  # a hint beside the longest left part
        line = header.render()
        assert "Tab is not a game key · F1: help" in line.plain, line.plain
        assert line.cell_len <= 80 and "round 12" in line.plain, line.plain


async def test_the_app_finds_live_tables_through_the_shows_table_protocol() -> None:
    from spit_tui.app.screens import ShowsTable, as_table_screen

    app = make_app(PLAY)
    async with app.run_test(size=(80, 24)) as pilot:
        game = app.screen
        assert isinstance(game, ShowsTable) and as_table_screen(game) is game
        assert app.shown_table() is app.table
        await pilot.press("f1")
        help_screen = app.screen
        assert isinstance(help_screen, HelpScreen) and as_table_screen(help_screen) is help_screen
        await pilot.press("escape", "ctrl+q")
        assert isinstance(app.screen, QuitScreen)
        assert as_table_screen(app.screen) is None and app.shown_table() is None


def test_every_try_it_line_fits_the_help_at_80_columns() -> None:
    """The help's "Try it" line is 78 cells inside its padding, at 80 columns and
    (the help stays 80 wide) at 100: a line longer than that loses its end."""
    from rich.text import Text

    from spit_tui.keys.keymap import KeyMap
    from spit_tui.keys.layout import preset, preset_names

    for keys in (KeyMap.of(preset(name)) for name in preset_names()):
        for page in PAGES:  # a key's label is one character on every layout
            assert Text(f"Try it: {page.try_line(keys)}").cell_len <= 78, (keys.name, page.title)
