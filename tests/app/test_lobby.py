"""The lobby (`spit-tui join HOST` with no code, and the SSH door's first
screen): each entry by its keys, with what it asks (a code checked, a new
room's options, the computer's level, a game from the host's list), Esc
back, Ctrl+Q leaves; and snapshots of the menu and of each question."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from textual.widgets import Input, Static

from spit_tui.app import SpitApp
from spit_tui.app.lobby import (
    ENTRIES,
    Choice,
    LobbyMode,
    LobbyScreen,
    Rooms,
    Watchable,
    YourName,
    lobby_app,
)
from spit_tui.app.namescreen import YourNameScreen
from spit_tui.engine import Options, Variant
from spit_tui.net.joincmd import ROOM_OPTIONS_ENV, check_code, door_room_options, room_options_env

CODE = "k3f9q-2x7mz"
OTHER = "7aaaa-bbbbb"
TITLE = "spit-tui on 127.0.0.1:7878"
POINTS = Options(Variant.POINTS)


def listing(*games: Watchable) -> Rooms:
    async def rooms() -> list[Watchable] | str:
        return list(games)

    return rooms


GAMES = listing(
    Watchable(CODE, "ana 1 : 0 ben · points to 50 · 2 watching"),
    Watchable(OTHER, "carl v COMPUTER · standard"),
)


def chosen(app: SpitApp) -> Choice | None:
    assert isinstance(app.mode, LobbyMode)
    return app.mode.chosen


async def choose(*keys: str, rooms: Rooms | None = GAMES) -> Choice | None:
    app = lobby_app(TITLE, check_code, rooms)
    async with app.run_test(size=(100, 30)) as pilot:
        for key in keys:
            await pilot.press(key)
            await pilot.pause()
        await pilot.pause()
    assert not app.is_running  # each choice (and leaving) ends the lobby
    return chosen(app)


@pytest.mark.parametrize(
    ("keys", "chosen"),
    [
        (["q"], Choice("quick")),
        (["n", "enter"], Choice("new")),  # the host's own game (no options sent)
        (["down", "enter", "enter"], Choice("new")),  # arrows and Enter
        (["n", "v", "enter"], Choice("new", options=POINTS)),
        (["n", "t", "t", "m", "enter"], Choice("new", options=POINTS._replace(target=150,
                                                                          manual_flip=True))),
        (["n", "v", "v", "enter"], Choice("new", options=Options())),  # and back to standard
        (["j", *CODE.upper(), "enter"], Choice("join", CODE)),  # any case
        (["w", "enter"], Choice("watch", CODE)),  # the first game listed
        (["w", "down", "enter"], Choice("watch", OTHER)),
        (["w", "c", *CODE, "enter"], Choice("watch", CODE)),  # a code typed instead
        (["c", "enter"], Choice("computer", level="5")),  # where a new player lands
        (["c", "down", "down", "enter"], Choice("computer", level="7")),
        (["escape"], None),
        (["ctrl+q"], None),
        (["j", "escape", "q"], Choice("quick")),  # back from the box, then a choice
        (["n", "escape", "c", "escape", "w", "escape", "q"], Choice("quick")),
    ],
)
async def test_each_choice_by_its_keys(keys: list[str], chosen: Choice | None) -> None:
    assert await choose(*keys) == chosen


async def test_new_room_says_the_hosts_own_game_where_the_lobby_does_not_know_it() -> None:
    """`join HOST` (another's host): New room opens on "the host's own", and
    Enter asks for a room with no options of its own (the host plays its game);
    the first of v, t, m starts from the standard game."""
    app = lobby_app(TITLE, check_code)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("n")
        await pilot.pause()
        assert "the host's own" in str(app.screen.query_one("#options").render())
        await pilot.press("m")
        await pilot.pause()
        text = str(app.screen.query_one("#options").render())
        assert "standard: first to play every card" in text and "on: each" in text
        await pilot.press("enter")
    assert chosen(app) == Choice("new", options=Options(manual_flip=True))


async def test_new_room_starts_from_the_hosts_own_game() -> None:
    """A door whose own host plays points to 75 with manual flip (ssh-serve's,
    serve's `--variant/--target/--manual-flip`): New room opens on those."""
    hosts = Options(Variant.POINTS, 75, True)
    app = lobby_app(TITLE, check_code, options=hosts)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("n")
        await pilot.pause()
        text = str(app.screen.query_one("#options").render())
        assert "points: rounds are scored" in text and "75 points" in text and "on: each" in text
        await pilot.press("enter")
    assert chosen(app) == Choice("new", options=hosts)


def test_the_doors_room_options_reach_the_lobby_and_anything_else_is_ignored(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    hosts = Options(Variant.POINTS, 75, True)
    monkeypatch.setenv(ROOM_OPTIONS_ENV, room_options_env(hosts))
    assert door_room_options() == hosts
    for bad in ["", "{", "[]", '{"variant":"chess","target":5,"manual_flip":false,"computer":null}',
                '{"variant":"points","target":50,"manual_flip":false,"computer":3}', "x" * 300]:
        monkeypatch.setenv(ROOM_OPTIONS_ENV, bad)
        assert door_room_options() is None, bad


async def test_a_bad_code_is_said_and_asked_again() -> None:
    app = lobby_app(TITLE, check_code)
    async with app.run_test(size=(100, 30)) as pilot:
        for key in ["j", "z", "z", "enter"]:
            await pilot.press(key)
        await pilot.pause()
        why = app.screen.query_one("#why")
        assert "not a room code" in str(why.render())
        assert app.is_running
        for key in ["backspace", "backspace", *CODE, "enter"]:  # mend it
            await pilot.press(key)
    assert chosen(app) == Choice("join", CODE)


async def test_the_watch_list_says_when_nothing_is_played_or_the_host_cannot_list() -> None:
    async def refused() -> list[Watchable] | str:
        return "nothing is listening at 127.0.0.1:7878: is the host running?"

    for rooms, said in [
        (listing(), "No game is being played here now"),
        (refused, "nothing is listening"),
        (None, "c to type a code"),
    ]:
        app = lobby_app(TITLE, check_code, rooms)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.press("w")
            await pilot.pause()
            await pilot.pause()
            assert said in str(app.screen.query_one("#why").render())
            await pilot.press("escape")  # back to the menu, still in the lobby
            await pilot.pause()
            assert app.is_running and isinstance(app.screen, LobbyScreen)


@pytest.mark.parametrize("size", [(80, 24), (100, 30)], ids=["80x24", "100x30"])
async def test_f1_shows_what_each_choice_does_all_of_it_on_screen(size: tuple[int, int]) -> None:
    """F1's page scrolls with the keys: every paragraph comes onto the screen
    (the text is taller than 80x24; it was cut off under the menu), then Esc
    or F1 is the menu again. The SSH door's lobby, with its three more entries."""
    from datetime import date
    from pathlib import Path

    from testkit.screen import screen_text
    from textual.containers import VerticalScroll

    from spit_tui.app.lobbypages import history_entries
    from spit_tui.app.lobbyscreens import LobbyHelpScreen

    entries = ENTRIES + history_entries(Path("no-such.db"), "ana", date(2026, 1, 1))
    app = lobby_app(TITLE, check_code, entries=entries)
    async with app.run_test(size=size) as pilot:
        for back in ("escape", "f1"):
            await pilot.press("f1")
            await pilot.pause()
            assert isinstance(app.screen, LobbyHelpScreen)
            seen = " ".join((await screen_text(pilot)).split())
            box = app.screen.query_one("#lobby-help", VerticalScroll)
            for _ in range(12):
                await pilot.press("pagedown")
                seen += " ".join((await screen_text(pilot)).split())
            assert box.scroll_y == box.max_scroll_y  # the end of the text was reached
            for e in entries:  # each paragraph's words, wrapped as they may be
                assert " ".join(e.help.split()[:6]) in seen, (size, e.key)
            await pilot.press(back)
            await pilot.pause()
            assert isinstance(app.screen, LobbyScreen) and app.is_running
        await pilot.press("q")  # the menu's keys work again
        await pilot.pause()
    assert chosen(app) == Choice("quick")


def test_lobby_snapshot(snap_compare: Callable[..., bool]) -> None:
    assert snap_compare(lobby_app(TITLE, check_code), terminal_size=(100, 30))


def test_new_room_of_a_host_whose_game_is_unknown_snapshot(
    snap_compare: Callable[..., bool],
) -> None:
    assert snap_compare(lobby_app(TITLE, check_code), press=["n"], terminal_size=(100, 30))


def test_new_room_snapshot(snap_compare: Callable[..., bool]) -> None:
    assert snap_compare(lobby_app(TITLE, check_code), press=["n", "v", "t"],
                        terminal_size=(100, 30))


def test_watch_list_snapshot(snap_compare: Callable[..., bool]) -> None:
    assert snap_compare(lobby_app(TITLE, check_code, GAMES), press=["w"],
                        terminal_size=(100, 30))


def test_computer_level_snapshot(snap_compare: Callable[..., bool]) -> None:
    assert snap_compare(lobby_app(TITLE, check_code), press=["c"], terminal_size=(100, 30))


def test_lobby_help_snapshot(snap_compare: Callable[..., bool]) -> None:
    """F1 at the smallest size: the page's top, with the scroll bar that says there is more."""
    assert snap_compare(lobby_app(TITLE, check_code), press=["f1"], terminal_size=(80, 24))


async def test_the_lobby_is_the_one_app_and_the_games_own_keys_stay_out() -> None:
    """A mode of SpitApp: Ctrl+P (the game's palette), Space (pause), F4 and F5
    do nothing here, Backspace edits the code (not help), and Ctrl+C leaves."""
    app = lobby_app(TITLE, check_code)
    assert type(app) is SpitApp
    async with app.run_test(size=(100, 30)) as pilot:
        screen = app.screen
        for key in ["ctrl+p", "space", "f4", "f5"]:
            await pilot.press(key)
        await pilot.pause()
        assert app.screen is screen and app.is_running
        await pilot.press("j", "a", "b", "backspace")
        assert app.screen.query_one("#code", Input).value == "a"
        await pilot.press("escape")
        assert app.screen is screen
        await pilot.press("ctrl+c")
    assert not app.is_running and chosen(app) is None


def your_name(name: str | None = None, fails: str | None = None) -> tuple[YourName, list[str]]:
    """A player's name as `join HOST`'s lobby holds it, and the names it kept."""
    kept: list[str] = []

    def keep(new: str) -> str | None:
        kept.append(new)
        return fails

    return YourName(name, keep), kept


async def test_the_lobby_asks_a_name_once_keeps_it_and_f4_changes_it() -> None:
    """With no name yet, the question comes first; Enter keeps what was typed
    (a bad name says why and stays), the heading shows it, F4 changes it, and
    the name the lobby ends with is the one the seat sends."""
    you, kept = your_name()
    app = lobby_app(TITLE, check_code, you=you)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, YourNameScreen)
        await pilot.press(*'A"b', "enter")
        assert isinstance(app.screen, YourNameScreen)  # a quote: refused, with the reason
        assert "quotes" in str(app.screen.query_one("#names-problem", Static).render())
        await pilot.press("backspace", "backspace", "n", "a", "enter")
        assert isinstance(app.screen, LobbyScreen) and kept == ["Ana"]
        assert "You: Ana" in str(app.screen.query_one("#you", Static).render())
        assert isinstance(app.screen, LobbyScreen) and "F4: your name" in app.screen.help_text()
        await pilot.press("f4")
        assert app.screen.query_one(Input).value == "Ana"  # the box starts from it
        await pilot.press("backspace", "backspace", "backspace", *"Ben", "enter")
        await pilot.press("q")
    assert kept == ["Ana", "Ben"] and you.name == "Ben" and chosen(app) == Choice("quick")


async def test_a_name_skipped_stays_unnamed_and_a_named_lobby_does_not_ask() -> None:
    """Esc: no name (the seat's default), nothing kept; a name the door gave
    (ssh user, --name) is neither asked, shown again nor changed (F4 does nothing);
    a name that could not be kept is said in the heading and used anyway."""
    you, kept = your_name()
    app = lobby_app(TITLE, check_code, you=you)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("escape")
        assert isinstance(app.screen, LobbyScreen) and app.is_running
        assert "no name" in str(app.screen.query_one("#you", Static).render())
        await pilot.press("q")
    assert kept == [] and you.name is None and chosen(app) == Choice("quick")

    given = YourName("ben")
    app = lobby_app(TITLE, check_code, you=given)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, LobbyScreen)
        await pilot.press("f4")
        await pilot.pause()
        assert app.screen is screen and given.name == "ben"
        assert not screen.query("#you")  # (the SSH door's heading names the guest)

    you, kept = your_name(fails="your name is used, but could not be remembered: full")
    app = lobby_app(TITLE, check_code, you=you)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press(*"Cy", "enter")
        assert "could not be remembered" in str(app.screen.query_one("#you", Static).render())
    assert you.name == "Cy"


def test_your_name_question_snapshot(snap_compare: Callable[..., bool]) -> None:
    assert snap_compare(lobby_app(TITLE, check_code, you=your_name()[0]), press=[*"Ana"],
                        terminal_size=(100, 30))


def test_your_name_in_the_lobby_snapshot(snap_compare: Callable[..., bool]) -> None:
    assert snap_compare(lobby_app(TITLE, check_code, you=your_name("Ana")[0]),
                        terminal_size=(100, 30))


NOTICE = "ben left the game: the game is stopped"


async def test_the_lobby_says_why_the_last_room_ended() -> None:
    """A room the host stopped brings its player back here: the host's line
    under the heading, the menu as ever; the next run of the lobby (after the
    next choice) has no notice."""
    app = lobby_app(TITLE, check_code, you=your_name("Ana")[0], notice=NOTICE)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        notice = app.screen.query_one("#notice", Static)
        assert str(notice.render()) == NOTICE
        assert notice.region.y < app.screen.query_one("#choices").region.y
        await pilot.press("q")
        await pilot.pause()
    assert chosen(app) == Choice("quick")
    app = lobby_app(TITLE, check_code)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert not app.screen.query("#notice")


def test_lobby_with_a_notice_snapshot(snap_compare: Callable[..., bool]) -> None:
    assert snap_compare(lobby_app(TITLE, check_code, you=your_name("Ana")[0], notice=NOTICE),
                        terminal_size=(100, 30))


def test_join_asks_the_name_kept_in_players_toml(monkeypatch: pytest.MonkeyPatch) -> None:
    """`join HOST`'s lobby: --name (or the ssh door's) is shown, not asked;
    without one, the name remembered as `me` (the seats' names of the local
    game kept beside it); SPIT_ASK_NAME=no: not asked."""
    from spit_tui import names
    from spit_tui.net.joincmd import your_name as joins

    assert joins("ben") == YourName("ben")
    assert joins(None).name is None and not joins(None).ask  # (the suite's conftest)
    monkeypatch.delenv("SPIT_ASK_NAME")
    names.save(("ANN", "BO"))
    you = joins(None)
    assert you.name is None and you.ask and you.keep is not None
    assert you.keep("Ana") is None
    assert joins(None).name == "Ana" and names.load().names == ("ANN", "BO")
    names.save(("CY", None))  # F4 of a local game keeps the lobby's name
    assert names.load() == names.Remembered(("CY", None), None, "Ana")


async def test_join_with_a_code_sends_the_name_the_lobby_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`join HOST CODE` (no lobby): the name given once in a lobby is the seat's
    name on the host too; --name still comes first."""
    from types import SimpleNamespace

    from spit_tui import names
    from spit_tui.net import joincmd

    names.remember_me("Ana")
    seen: list[str | None] = []

    async def take_seat(args: SimpleNamespace, board: object) -> int:
        seen.append(args.name)
        return 0

    monkeypatch.setattr(joincmd, "_take_seat", take_seat)
    for given in (None, "ben"):
        args = SimpleNamespace(code=CODE, quick=False, name=given)
        assert await joincmd._join(args, None) == 0  # type: ignore[arg-type]
    assert seen == ["Ana", "ben"]


async def test_the_lobby_and_its_questions_fit_a_60_column_terminal() -> None:
    """The board needs 80 x 24, the lobby does not: at 60 x 20 its box, the name
    question and New room's box stay inside the terminal (they were cut off)."""
    app = lobby_app(TITLE, check_code, you=your_name()[0])
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        assert app.screen.query_one("#names-box").region.right <= 60
        await pilot.press("escape")
        assert app.screen.query_one("#lobby").region.right <= 60
        await pilot.press("n")
        await pilot.pause()
        assert app.screen.query_one(".lobby-question > Vertical").region.right <= 60


async def test_join_says_a_host_that_is_not_there_before_the_lobby_opens(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`join HOST` with nothing listening there: one line and exit 1 before the
    lobby (it used to open, ask the name, and say so only after a choice)."""
    import asyncio
    import socket
    from types import SimpleNamespace

    from spit_tui.app import lobby
    from spit_tui.net import joincmd

    with socket.socket() as s:  # a free port, closed again: nothing listens there
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]

    async def no_lobby(*a: object, **k: object) -> None:
        raise AssertionError("the lobby opened")

    monkeypatch.setattr(lobby, "choose_in_lobby", no_lobby)
    board = SimpleNamespace(check_terminal=lambda: None)
    args = SimpleNamespace(code=None, quick=False, name=None, host="127.0.0.1", port=port)
    assert await joincmd._join(args, board) == 1  # type: ignore[arg-type]
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"nothing is listening at 127.0.0.1:{port}" in err, err

    server = await asyncio.start_server(lambda r, w: w.close(), "127.0.0.1", 0)
    async with server:
        assert await joincmd.no_host("127.0.0.1", server.sockets[0].getsockname()[1]) is None


@pytest.mark.parametrize("size", [(60, 20), (80, 24), (100, 30)], ids=["60x20", "80x24", "100x30"])
async def test_the_computers_levels_are_one_line_each(size: tuple[int, int]) -> None:
    """Play the computer's list shows each level on one line, its pace and
    misses whole, from the first to the last, under the line on where a new
    player lands (they wrapped at 80 x 24 and 100 x 30; at 60 x 20 the box cut
    the list, and the levels below 5 and that line were never seen)."""
    from testkit.screen import screen_text

    from spit_tui.players.ladder import LADDER, describe_short

    app = lobby_app(TITLE, check_code)
    async with app.run_test(size=size) as pilot:
        await pilot.press("c")
        await pilot.press("home")
        seen = set()
        for key in ("pagedown", "pagedown", "end"):
            seen |= {line for line in (await screen_text(pilot)).splitlines() if "level" in line}
            await pilot.press(key)
        last = await screen_text(pilot)
        seen |= {line for line in last.splitlines() if "level" in line}
        assert "A new player beats level 5 about half the time." in last, last
        for i, level in enumerate(LADDER, start=1):
            line = f"level {i:>2}  {describe_short(level)}"
            assert any(line in s for s in seen), (size, line, "\n".join(sorted(seen)))
