"""The players' names in the game: F4 on the opening banner opens a small box
(real keys typed into it), the board, banner and feed show the names as typed
(markup too), the history stores the games under them, they are remembered;
nothing waits for the box, and after the first spit F4 only says when it works."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from testkit.app import advance, key_for_action, make_app, press, screen_text
from textual.widgets import Input

from spit_tui.app.banner import Banner
from spit_tui.app.computer import computer_app
from spit_tui.app.namescreen import NamesScreen
from spit_tui.app.screens import GameScreen
from spit_tui.engine import Player, Ready
from spit_tui.names import load
from spit_tui.store.history import HistoryWriter


async def test_f4_on_the_opening_banner_changes_the_names_everywhere(tmp_path: Path) -> None:
    app = make_app(seed=1, names=("ANN", "BO"))
    writer = HistoryWriter(tmp_path / "h.sqlite3", threaded=False)
    writer.names = app.stored_names()  # as the command line does
    app.attach_history(writer)
    async with app.run_test(size=(100, 30)) as pilot:
        assert "F4: change the players' names" in app.query_one(Banner).render().plain
        await pilot.press("f4")
        assert isinstance(app.screen, NamesScreen)
        assert app.table.paused  # the game waits under the box
        await pilot.press("end", "backspace", "backspace", "backspace", *"Cy", "tab")
        await pilot.press("end", "backspace", "backspace", *"[red]Di[/red]", "enter")
        assert isinstance(app.screen, GameScreen) and not app.table.paused
        assert app.table.seats.names == ("Cy", "[red]Di[/red]")
        assert writer.names == ("Cy", "[red]Di[/red]")  # the history stores the new names
        text = await screen_text(pilot)
        assert "Cy … press any key" in text and "[red]Di[/red] … press any key" in text
        assert load().names == ("Cy", "[red]Di[/red]")  # remembered for next time
        # the first spit: the banner stops offering F4, and F4 says when it works
        await advance(pilot, 0.5)
        await press(pilot, [key_for_action(Ready(p)) for p in Player])
        await advance(pilot, 1.0)
        assert "F4" not in app.query_one(Banner).render().plain
        await pilot.press("f4")
        assert isinstance(app.screen, GameScreen)
        assert "names change on a game's first banner" in await screen_text(pilot)
        await pilot.press("ctrl+q", "enter")
    conn = sqlite3.connect(tmp_path / "h.sqlite3")
    stored = conn.execute("SELECT left_name, right_name, record FROM games").fetchall()
    conn.close()
    assert [r[:2] for r in stored] == [("Cy", "[red]Di[/red]")]  # stored under the new names
    assert '[Left "Cy"]' in stored[0][2] and '[Right "[red]Di[/red]"]' in stored[0][2]


async def test_esc_keeps_the_names_and_a_bad_name_is_said_in_the_box() -> None:
    app = make_app(seed=1, names=("ANN", None))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("f4", *"X", "escape")
        assert isinstance(app.screen, GameScreen) and app.table.seats.names == ("ANN", "RIGHT")
        assert load().names == (None, None)  # nothing written
        await pilot.press("f4", "end", *'"q"', "enter")  # a quote: refused, the box stays
        assert isinstance(app.screen, NamesScreen)
        assert "no quotes" in await screen_text(pilot)
        box = app.screen.query_one("#name-L", Input)
        box.value = ""
        await pilot.press("tab", *"left", "enter")  # LEFT (the empty box) and "left"
        assert isinstance(app.screen, NamesScreen)
        assert "different names" in await screen_text(pilot)
        await pilot.press("backspace", "backspace", "backspace", "backspace", "enter")
        assert isinstance(app.screen, GameScreen) and app.table.seats.names == ("LEFT", "RIGHT")
        assert load().names == (None, None)


async def test_against_the_computer_only_the_person_has_a_box_and_its_level_is_its_name(
    tmp_path: Path,
) -> None:
    table = make_app(seed=1).table
    app = computer_app({Player.RIGHT: "hard"}, table=table, bot_seed=1, names=("ANN", None))
    writer = HistoryWriter(tmp_path / "h.sqlite3", threaded=False)
    app.attach_history(writer)
    assert app.table.seats.names == ("ANN", "COMPUTER")
    assert app.stored_names() == ("ANN", "computer (hard)")  # the stats know it by its level
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("f4")
        assert isinstance(app.screen, NamesScreen)
        assert [i.id for i in app.screen.query(Input)] == ["name-L"]
        await pilot.press("end", "backspace", "backspace", "backspace", "enter")
        assert app.table.seats.names == ("YOU", "COMPUTER")  # no name: spoken to as "you"
        assert writer.names == ("YOU", "computer (hard)")  # the history says what the board does
        assert app.table.seats.level(Player.RIGHT) == "hard"  # still the computer's half


async def test_a_note_from_the_start_is_shown_once_the_board_is_up() -> None:
    app = make_app(seed=1)
    app.startup_note = "the remembered names (players.toml): not a names file; using none"
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await pilot.pause()
        text = " ".join((await screen_text(pilot)).replace("▌", "").split())
        assert "not a names file" in text, text
        assert app.table.seats.names == ("LEFT", "RIGHT")


async def test_long_names_are_cut_on_the_board_so_the_counts_stay() -> None:
    app = make_app(seed=1, names=("ABCDEFGHIJKLMNOP", "WWWWWWWWWWWWWWWW"))  # 16 each
    async with app.run_test(size=(80, 24)) as pilot:
        text = await screen_text(pilot)
        assert text.count("26 cards · ▒11 spit") == 2
        assert "ABCDEFGH…" in text and "WWWWWWWW…" in text
        assert "ABCDEFGHIJKLMNOP … press any key" in text  # whole where there is room
