"""`spit-tui join` as a player meets it: the app seated at a real host on
127.0.0.1, keys pressed with Pilot going over the wire, only public cards on
the client, a drop that pauses both and a token that resumes exactly, and a
host that stops or dies ending the app with one line."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path

import pytest
from testkit.join import FAST, public_cards, seated, shown_cards, until
from textual.pilot import Pilot

from spit_tui.app import SpitApp
from spit_tui.app.banner import Banner
from spit_tui.engine import Phase, Play, Player
from spit_tui.keys.intent import Row, intent_for
from spit_tui.keys.keymap import US
from spit_tui.net.client import Client
from spit_tui.net.host import Host
from spit_tui.net.remote import RemoteSeat
from spit_tui.net.room import Room
from spit_tui.subscription import Subscription
from spit_tui.table import Outcome

SIZE = (100, 32)


def banner_text(app: object) -> str:
    from textual.app import App

    assert isinstance(app, App)
    return str(app.screen.query_one(Banner).render())


async def test_keys_go_over_the_wire_and_the_client_holds_only_public_cards(
    tmp_path: Path,
) -> None:
    slow = replace(FAST, stale_s=2.0)  # Pilot's key inside the stale-key window, under load too
    host = Host(port=0, timings=slow, seed=3)
    await host.start()
    try:
        room = host.new_room()
        app, _net, table = await seated(host, room.code, "left", tmp_path)
        ever_public = set(public_cards(room.table.position))
        room.table.subscribe(
            Subscription(on_change=lambda: ever_public.update(public_cards(room.table.position)))
        )
        strays = []  # cards the client held that the host never showed anyone
        table.subscribe(
            Subscription(on_change=lambda: strays.extend(shown_cards(table.scene()) - ever_public))
        )
        right = await Client.join("127.0.0.1", host.port, room.code)
        async with app.run_test(size=SIZE) as pilot:
            await until(lambda: table.latest is not None and table.away is None, "both seated")
            assert "both press any key" in banner_text(app)
            await pilot.press("q")  # inside the stale-key window: the client's own guard
            said = table.scene().messages[Player.LEFT]
            assert said is not None and said.text == "too soon: press again"
            assert not room.table.position.sides[0].ready  # it never left this terminal
            await pilot.pause(slow.stale_s + 0.05)
            await pilot.press("q")
            await until(lambda: room.table.position.sides[0].ready, "LEFT's spit reached the host")
            right.press(Row.PILE_A, 0)
            await until(lambda: table.scene().phase is Phase.PLAY, "the round is on the screen")
            plays = [a for a in room.table.game.legal_actions(Player.LEFT) if isinstance(a, Play)]
            assert plays  # seed 3 deals LEFT a play at once
            before = len(room.table.decisions)
            row, slot = intent_for(plays[0])[1:]
            await pilot.press(US.key_for(Player.LEFT, row, slot))
            await until(lambda: len(room.table.decisions) > before, "the key reached the host")
            d = room.table.decisions[-1]
            assert (d.player, d.source, d.outcome) == (Player.LEFT, "key", Outcome.APPLIED)
            await until(
                lambda: table.scene().pile_tops[plays[0].pile]
                == room.table.position.piles[plays[0].pile][-1],
                "the client shows the card on the pile",
            )
            assert table.scene().owners[plays[0].pile] is Player.LEFT
            sent = len(room.table.decisions)
            await pilot.press("y")  # the other half's key: said here, never sent
            said = table.scene().messages[Player.LEFT]
            assert said is not None and "left half" in said.text
            await pilot.pause(0.1)
            assert len(room.table.decisions) == sent
        await right.close()
        assert not strays
    finally:
        await host.close()


async def test_a_drop_pauses_both_and_the_same_token_resumes_exactly(tmp_path: Path) -> None:
    host = Host(port=0, timings=FAST, seed=3)
    await host.start()
    try:
        room = host.new_room()
        app, _net, table = await seated(host, room.code, "left", tmp_path)
        right = await Client.join("127.0.0.1", host.port, room.code)
        async with app.run_test(size=SIZE) as pilot:
            await until(lambda: table.away is None and table.latest is not None, "both seated")
            await pilot.pause(FAST.stale_s + 0.05)
            await pilot.press("q")
            await pilot.pause(FAST.stale_s)
            right.press(Row.PILE_A, 0)
            await until(lambda: table.scene().phase is Phase.PLAY, "in play")
            await right.close()  # RIGHT's terminal goes away
            line = "Waiting for RIGHT: reconnect with the same command"
            await until(lambda: table.away == line, "LEFT is told")
            await pilot.pause(0.05)
            assert line in banner_text(app)
            kept = room.table.position
            before = len(room.table.decisions)
            await pilot.press("w")  # nothing moves while the game waits
            await pilot.pause(0.2)
            assert room.table.position == kept
            later = list(room.table.decisions)[before:]
            assert all(d.outcome is not Outcome.APPLIED for d in later)
            back = await Client.join("127.0.0.1", host.port, room.code, token=right.token)
            assert back.seat is Player.RIGHT
            await until(lambda: table.away is None, "the game goes on")
            assert room.table.position == kept  # exactly where it stopped
            await back.close()
    finally:
        await host.close()


async def test_a_host_that_stops_ends_the_seat_with_its_line(tmp_path: Path) -> None:
    host = Host(port=0, timings=FAST, seed=3)
    await host.start()
    room = host.new_room()
    app, _net, table = await seated(host, room.code, "left", tmp_path)
    async with app.run_test(size=SIZE):
        await until(lambda: table.latest is not None, "seated")
        await host.close()
        await until(lambda: app.end_line is not None, "the app ends")
    assert app.end_line == "spit-tui join: the host is stopping"
    assert app.return_code == 0  # the host's own end is not the player's error


async def test_a_host_that_dies_ends_the_seat_after_trying_again(tmp_path: Path) -> None:
    host = Host(port=0, timings=FAST, seed=3)
    await host.start()
    room = host.new_room()
    app, net, table = await seated(host, room.code, "left", tmp_path)
    net.retries, net.retry_s = 3, 0.05
    async with app.run_test(size=SIZE):
        await until(lambda: table.latest is not None, "seated")
        assert host.server is not None
        host.server.close()
        for ticker in host._tickers.values():  # its rooms' clocks stop with it
            ticker.stop()
        for seat in room.seats.values():  # the process dies: no goodbye, the line drops
            conn = seat.conn
            if conn is not None:
                conn.writer.transport.abort()  # type: ignore[attr-defined]
        await until(lambda: table.lost is not None or app.end_line is not None, "noticed")
        await until(lambda: app.end_line is not None, "the app ends")
    assert app.end_line is not None
    # the dropped line is noticed and tried again; on a starved loop the
    # silence (no ping for three intervals) can be noticed first: one line too
    assert app.end_line.startswith(
        (
            f"spit-tui join: lost the host at 127.0.0.1:{host.port}: ",
            f"spit-tui join: the host at 127.0.0.1:{host.port} has sent nothing for ",
        )
    ), app.end_line
    assert "\n" not in app.end_line and app.return_code == 1


async def test_the_host_plays_a_seat_in_process_and_shows_the_join_line() -> None:
    from spit_tui.app.join import seat_app
    from spit_tui.clock import RealClock
    from spit_tui.net.remote import RemoteSeat
    from spit_tui.net.seat import LocalSeat

    host = Host(port=0, timings=FAST, seed=3, wait_s=0.3)
    await host.start()
    try:
        room = host.new_room()
        local = LocalSeat(room, Player.LEFT)
        table = RemoteSeat(Player.LEFT, local.press, RealClock(), room.table.gate.stale_s)
        table.invite = f"spit-tui join 127.0.0.1:{host.port} {room.code}"

        async def start(app: SpitApp) -> None:
            local.attach(table, lambda line: app.finish(f"spit-tui host: {line}"))

        app = seat_app(table, start, takeover=local.takeover)
        async with app.run_test(size=SIZE) as pilot:
            await until(lambda: table.latest is not None, "seated")
            await pilot.pause(0.05)
            text = banner_text(app)
            assert "Waiting for RIGHT to join" in text
            assert f"For the other player: {table.invite}" in text
            right = await Client.join("127.0.0.1", host.port, room.code)
            await until(lambda: table.away is None, "RIGHT came")
            await pilot.pause(FAST.stale_s + 0.05)
            await pilot.press("q")  # the host's own key, into the room with no socket
            await until(lambda: room.table.position.sides[0].ready, "LEFT said spit")
            assert room.table.decisions[-1].source == "key"
            await right.close()  # and never comes back: after --wait the computer is offered
            await until(lambda: table.offered is not None, "the computer is offered")
            await pilot.pause(0.05)
            text = banner_text(app)
            assert "RIGHT did not come back" in text
            assert "Enter: the computer plays RIGHT's seat (level 5)" in text
            assert "at a new player's pace: nothing stored" in text
            await pilot.press("enter")  # chosen: the computer finishes RIGHT's game
            await until(lambda: Player.RIGHT in room.computers, "the computer took the seat")
            await until(lambda: table.away is None, "the game goes on")
            assert room.table.seats.level(Player.RIGHT) == "level 5"
            await until(lambda: room.table.position.phase is Phase.PLAY, "RIGHT said spit",
                        timeout=5)
            assert any(d.source == "bot" and d.player is Player.RIGHT
                       for d in room.table.decisions)  # fmt: skip
            assert "Waiting" not in banner_text(app)
    finally:
        await host.close()


async def test_the_same_command_run_again_takes_the_same_seat_back(tmp_path: Path) -> None:
    from spit_tui.net.joincmd import connect
    from spit_tui.net.seat import NetSeat, Tokens

    host = Host(port=0, timings=FAST, seed=3)
    await host.start()
    try:
        room = host.new_room()
        tokens = Tokens(tmp_path / "seats.json")  # two terminals of one machine share it
        seated_at = {}
        for seat in ("left", None):  # `join ... --seat left`, then `join ...` on another
            client = await connect("127.0.0.1", host.port, room.code, seat, tokens)
            assert isinstance(client, Client)
            NetSeat(client, "127.0.0.1", host.port, room.code, tokens)  # keeps the token
            seated_at[seat] = client
        assert seated_at[None].seat is Player.RIGHT
        kept = room.table.position
        await seated_at[None].close()  # RIGHT's terminal closes; its command is run again
        await until(lambda: room.waiting == "RIGHT", "the room waits")
        back = await connect("127.0.0.1", host.port, room.code, None, tokens)
        assert isinstance(back, Client) and back.seat is Player.RIGHT
        assert back.token == seated_at[None].token and room.table.position == kept
        # the same for LEFT, asked for by name
        await seated_at["left"].close()
        again = await connect("127.0.0.1", host.port, room.code, "left", Tokens(tokens.path))
        assert isinstance(again, Client) and again.seat is Player.LEFT
        for c in (back, again):
            await c.close()
    finally:
        await host.close()


@asynccontextmanager
async def seated_left(tmp: Path) -> AsyncIterator[tuple[SpitApp, Pilot[None], Room, RemoteSeat]]:
    """LEFT's app seated at a host's new room on 127.0.0.1, its first view in."""
    host = Host(port=0, timings=FAST, seed=3)
    await host.start()
    try:
        room = host.new_room()
        app, _net, table = await seated(host, room.code, "left", tmp)
        async with app.run_test(size=SIZE) as pilot:
            await until(lambda: table.latest is not None, "seated")
            yield app, pilot, room, table
    finally:
        await host.close()


async def test_the_names_are_the_hosts(tmp_path: Path) -> None:
    async with seated_left(tmp_path) as (app, pilot, room, table):
        await pilot.pause(0.05)
        assert "F4" not in banner_text(app)
        await pilot.press("f4")
        await pilot.pause(0.05)
        assert app.screen is app.game_screen  # no names box
        assert table.scene().names == room.table.seats.names


async def test_an_error_in_the_seats_own_task_ends_the_app_in_one_line_with_a_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 22 item 17: whatever kills the seat's task (it was a view the
    board could not draw) ends the app as any error does, never a frozen board."""
    from textual.worker import WorkerFailed

    from spit_tui import crash
    from spit_tui.app.join import seat_app
    from spit_tui.clock import VirtualClock
    from spit_tui.net.remote import RemoteSeat

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    seat = RemoteSeat(Player.LEFT, lambda row, slot: None, VirtualClock(), 0.2)

    async def start(app: SpitApp) -> None:
        raise ZeroDivisionError("division by zero")

    app = seat_app(seat, start)
    with crash.quiet_app_errors(app) as caught, pytest.raises(WorkerFailed):
        async with app.run_test(size=SIZE) as pilot:  # (run_test raises it again)
            await pilot.pause(0.3)
    assert isinstance(caught.error, WorkerFailed) and app.return_code == 1
    assert isinstance(caught.error.error, ZeroDivisionError)
    assert crash.report(caught.error, ["join"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "internal error (WorkerFailed" in err
    assert "ZeroDivisionError" in err
    assert list((tmp_path / "cache").rglob("crash-*.txt"))


async def test_a_seat_is_not_told_the_game_waits_while_it_goes_on(tmp_path: Path) -> None:
    """A seat's clock is the host's: help, the quit question and the too-small
    screen say the game goes on (a game at one keyboard is paused under them,
    and they say so: test_app_screens.py), and help's key page leaves out the
    keys a seat does not take (pause, names, resume, a new game)."""
    from testkit.screen import screen_text
    from testkit.sizes import TOO_SMALL
    from textual.widgets import Static

    from spit_tui.app.dialogs import QuitScreen, TooSmallScreen
    from spit_tui.app.help import HelpScreen

    async with seated_left(tmp_path) as (app, pilot, _room, _table):
        await pilot.press("f1")
        await until(lambda: isinstance(app.screen, HelpScreen), "help")
        text = await screen_text(pilot)
        assert "(the game goes on)" in text and "the game waits" not in text
        # the key page lists only the app's keys that do something here
        assert "Ctrl+Q / Ctrl+C quit" in text and "F6 settings" in text
        for idle in ("Space pause", "F4 on a game's", "F5 on the opening", "Enter new game"):
            assert idle not in text, idle
        await pilot.press("escape")
        await pilot.press("ctrl+q")
        await until(lambda: isinstance(app.screen, QuitScreen), "the quit question")
        text = str(app.screen.query_one("#quit-box", Static).render())
        assert "back to the game (it goes on)" in text and "paused" not in text
        await pilot.press("escape")
        await pilot.resize_terminal(*TOO_SMALL)
        await until(lambda: isinstance(app.screen, TooSmallScreen), "too small")
        text = " ".join((await screen_text(pilot)).split())
        assert "the game goes on meanwhile" in text and "paused" not in text, text
