"""Issue 20 item 6 in a real browser (headless Chromium over the DevTools
protocol, testkit/browser.py): `spit-tui serve` opens each page on the lobby; one
page makes a room, a second joins it by its code, both play with real keys
to game over and ask a rematch, and neither page asks anything of a machine
but 127.0.0.1. Also: the board has the keys with no click, its font follows
the window (700 x 450 up to the big cards at 1280 x 800), and ? shows the
page's word on keys without the game seeing it.

The room's game starts two cards from its end (the test's own host, in a
process of its own, which `serve --host` offers), so the whole of it is three
keys. About 10 s:
Chromium, the server and a game process per page start (the two pages at
once), and each step waits for both screens."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from testkit.browser import Browser, Page, Served, chromium, outside

pytestmark = pytest.mark.skipif(
    chromium() is None,
    reason="needs Debian's chromium (apt-get install chromium; .ci/run installs it)",
)

# LEFT: q plays 7♥ on the 8♠, then w its last card, 5♣ (game over); between
# them RIGHT's o plays 6♠ on the 7♥.
NEAR_THE_END = "play 4 one:R - :7h/:5c/-/-/- - 8s :Kd/2c:Qd/:4h/:6s/Ac:Jh 6d6h 0,0"
CODE = re.compile(r"join 127\.0\.0\.1:[0-9]+ ([0-9a-z]{5}-[0-9a-z]{5})")


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    """One Chromium for this file's tests (each test opens its own tabs)."""
    exe = chromium()
    assert exe is not None
    b = Browser(exe, tmp_path_factory.mktemp("browser") / "profile")
    yield b
    b.close()


def _serve(*args: str) -> Served:
    argv = [sys.executable, "-m", "spit_tui", "serve", "--port", "0", *args]
    return Served([], env={**os.environ, "SPIT_LAYOUT": "us"}, command=argv)


async def _open(page: Page, url: str, size: tuple[int, int] = (1100, 700)) -> str:
    """The page at `url` in a window of `size` pixels, once the lobby shows."""
    w, h = size
    await page.send("Emulation.setDeviceMetricsOverride", width=w, height=h,
                    deviceScaleFactor=1, mobile=False)
    await page.send("Page.navigate", url=url)
    return await page.wait_for_text("Quick match", timeout=45)  # a game process starts


async def _both(pages: tuple[Page, Page], text: str, timeout: float = 30) -> None:
    await asyncio.gather(*(p.wait_for_text(text, timeout) for p in pages))


async def _play(page: Page, key: str, pages: tuple[Page, Page], shows: str) -> None:
    """Press `key` until both pages show `shows`: on a busy machine a board can
    be drawn late, and a key pressed before its player could have seen the
    board is refused as too early (pressed again it is what a player does;
    once played, the key finds its place empty and is refused, harmlessly)."""
    for _ in range(3):
        await asyncio.sleep(0.3)  # past the guard against keys before the board showed
        await page.press(key)
        try:
            await _both(pages, shows, timeout=8)
            return
        except AssertionError:
            continue
    await _both(pages, shows)


def _code_shown(screen: str) -> bool:
    """The line to join with, its code whole (a line half painted cuts it short)."""
    return "spit-tui join" in screen and CODE.search(screen) is not None


def _only_this_machine(page: Page) -> None:
    assert page.requests and outside(page.requests) == [], page.requests
    assert any(u.startswith("ws://127.0.0.1:") for u in page.requests), page.requests
    assert page.console == [], page.console


HOST_NEAR_THE_END = """
import asyncio, sys
from spit_tui.clock import RealClock
from spit_tui.engine import Game, complete_position, parse_position
from spit_tui.table import Table
from testkit.host import running_host

def near_the_end():
    game = Game(position=complete_position(parse_position(sys.argv[1], check=False)))
    return Table(game, RealClock(), countdown_s=0.05, stale_s=0.05, stuck_delay_s=0.05)

async def main():
    async with running_host() as host:
        host.lobby.make_table = lambda *options: near_the_end()
        print(host.port, flush=True)
        await asyncio.Event().wait()

asyncio.run(main())
"""


def _host_near_the_end() -> tuple[subprocess.Popen[str], int]:
    """A host whose rooms start two cards from the end, in a process of its
    own: in this test's process a busy machine starved it past its seats'
    patience (1.5 s without a word and a seat gives the host up)."""
    tests = Path(__file__).resolve().parent.parent
    proc = subprocess.Popen(
        [sys.executable, "-c", HOST_NEAR_THE_END, NEAR_THE_END], cwd=tests, text=True,
        stdout=subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(tests)},
    )  # fmt: skip
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line.strip().isdigit(), (line, proc.poll())
    return proc, int(line)


async def test_a_room_made_on_one_page_is_joined_by_code_on_another_played_and_played_again(
    browser: Browser,
) -> None:
    host, port = _host_near_the_end()
    try:
        served = _serve("--host", f"127.0.0.1:{port}")
        try:
            async with browser.page() as ana, browser.page() as ben:
                await asyncio.gather(_open(ana, f"{served.url}/?name=ana"),
                                     _open(ben, f"{served.url}/?name=ben"))
                # no click, no focus call: the page gave the board the keys
                assert await ana.js("document.activeElement.className") == "xterm-helper-textarea"
                await ana.press("n")  # New room: its options as they are, Enter makes it
                await ana.wait_for_text("make the room")
                await ana.press("Enter")
                found = CODE.search(await ana.wait_for_text(_code_shown))
                assert found is not None
                code = found.group(1)

                await ben.press("j")
                await ben.wait_for_text("room code")
                await ben.type(code.replace("-", ""))  # as typed, without the dash
                await ben.press("Enter")
                pages = (ana, ben)
                await _both(pages, "7♥")
                await _both(pages, "ben ping")  # the names crossed: ?name= on each page
                await _both(pages, "ana ping")
                await _play(ana, "q", pages, "ana 7♥")
                await _play(ben, "o", pages, "ben 6♠")
                await _play(ana, "w", pages, "GAME OVER · ana wins")

                await ana.press("Enter")
                await ben.wait_for_text("wants a rematch")
                await ben.press("Enter")
                await _both(pages, "match 1 : 0")
                await _both(pages, "press any key")  # a new game's first spit
                for page in pages:
                    _only_this_machine(page)
        finally:
            output = served.close()
    finally:
        host.terminate()
        host.wait(10)
    assert "Traceback" not in output, output


async def _grid(page: Page) -> tuple[int, int, float]:
    cols, rows, font = await page.js(
        "[window.spitPage.term.cols, window.spitPage.term.rows, window.spitPage.font]")
    return int(cols), int(rows), float(font or 0)


async def _resize(
    page: Page, w: int, h: int, least: tuple[int, int] | None
) -> tuple[int, int, float]:
    """The window made w x h pixels; the grid once it holds `least` (cols, rows)."""
    await page.send("Emulation.setDeviceMetricsOverride", width=w, height=h,
                    deviceScaleFactor=1, mobile=False)
    end = time.monotonic() + 20
    while time.monotonic() < end:
        grid = await _grid(page)
        if least is None or (grid[0] >= least[0] and grid[1] >= least[1]):
            return grid
        await asyncio.sleep(0.05)
    raise AssertionError(f"at {w}x{h} the board is {grid}, not at least {least}")


async def test_the_page_fits_the_board_to_the_window_and_keeps_the_keys_for_it(
    browser: Browser, tmp_path: Path
) -> None:
    """700 x 450 (a phone held sideways) still holds the whole board; 1280 x 800
    gets the big cards; only far below that the game's own "too small" screen.
    ? shows the page's word on keys; a key pressed while the board does not
    have the keys (a click elsewhere) still goes to it."""
    import json

    log = tmp_path / "decisions.jsonl"
    served = Served(["--seed", "1", "--no-history", "--decision-log", str(log)],
                    env={**os.environ, "SPIT_LAYOUT": "us"})
    try:
        async with browser.page() as page:
            await page.send("Emulation.setDeviceMetricsOverride", width=700, height=450,
                            deviceScaleFactor=1, mobile=False)
            await page.send("Page.navigate", url=served.url)
            shown = await page.wait_for_text("pile a", timeout=45)
            cols, rows, font = await _resize(page, 700, 450, (80, 24))
            assert "too small" not in shown and font >= 10, (cols, rows, font)
            cols, rows, big = await _resize(page, 1280, 800, (120, 36))
            assert big > font
            await page.wait_for_text("╭─────╮", 30)  # the big cards
            await _resize(page, 340, 240, None)
            await page.wait_for_text("too small", 30)
            await _resize(page, 700, 450, (80, 24))
            await page.wait_for_text("pile a", 30)

            panel = "document.getElementById('page-keys').offsetHeight > 0"
            await page.press("?")
            assert await page.js(panel)
            await page.press("Escape")
            assert not await page.js(panel)
            await page.js("document.getElementById('keys').click()")  # no keyboard: a tap
            assert await page.js(panel)
            await page.js("document.getElementById('page-keys').click()")
            assert not await page.js(panel)
            await page.js("document.activeElement.blur()")  # the keys are elsewhere now
            await asyncio.sleep(0.3)  # past the guard against keys before the board showed
            await page.press("q")
            await page.wait_for_text("LEFT ✓", 30)
            assert await page.js("document.activeElement.className") == "xterm-helper-textarea"
            keys = [json.loads(line)["key"] for line in log.read_text().splitlines()]
            assert keys == ["q"], keys  # the game never saw the ? nor the Esc
            _only_this_machine(page)
    finally:
        output = served.close()
    assert "Traceback" not in output, output


async def test_a_game_that_ends_with_a_line_shows_it_on_the_page(browser: Browser) -> None:
    """The lobby's host is not there: the page says the game's own line (not
    only "The game has ended"; the lobby does not open first), the console has
    it once."""
    import socket

    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]  # nothing listens there
        served = _serve("--host", f"127.0.0.1:{port}")
        try:
            async with browser.page() as page:
                await page.send("Page.navigate", url=served.url)
                # the line comes in a message of its own, and the page shows its
                # "ended" box when the socket closes: wait for both at once (and
                # for the page itself: a busy machine's navigation is not done
                # when its command returns)
                why, shown = "", False
                async with asyncio.timeout(20):
                    while not (why and shown):
                        await asyncio.sleep(0.05)
                        why, shown = await page.js(
                            "[document.getElementById('ended-why')?.textContent ?? '',"
                            " (document.getElementById('ended')?.offsetHeight ?? 0) > 0]")
                assert f"nothing is listening at 127.0.0.1:{port}" in why, why
                _only_this_machine(page)
        finally:
            output = served.close()
    assert output.count("nothing is listening") == 1 and "Traceback" not in output, output


@pytest.mark.slow
async def test_two_pages_play_a_whole_game_from_a_real_deal_and_a_rematch(
    browser: Browser,
) -> None:
    """The long form of the first test (opt-in: a whole game takes minutes):
    `serve`'s own kind of room, a real deal, every key chosen from the host's
    table and pressed on the page whose seat it is, to game over on both
    pages, then the rematch."""
    from testkit.host import running_host
    from testkit.terminals import choose, phase_mark

    from spit_tui.engine import Player
    from spit_tui.keys.intent import intent_for
    from spit_tui.keys.keymap import US

    async with running_host() as host:
        served = _serve("--host", f"127.0.0.1:{host.port}")
        try:
            async with browser.page() as ana, browser.page() as ben:
                await asyncio.gather(_open(ana, f"{served.url}/?name=ana"),
                                     _open(ben, f"{served.url}/?name=ben"))
                await ana.press("n")
                await ana.wait_for_text("make the room")
                await ana.press("Enter")
                found = CODE.search(await ana.wait_for_text(_code_shown))
                assert found is not None
                await ben.press("j")
                await ben.wait_for_text("room code")
                await ben.type(found.group(1).replace("-", ""))
                await ben.press("Enter")
                pages = (ana, ben)
                await _both(pages, "both press")
                room = next(iter(host.lobby.rooms.values()))
                seat_page = {Player.LEFT: ana, Player.RIGHT: ben}
                mark: tuple[object, ...] = ()
                since = 0.0
                end = time.monotonic() + 600
                while not room.table.game.over:
                    assert time.monotonic() < end, "the game did not end in time"
                    pressed = False
                    for p in Player:
                        now_mark = phase_mark(room)
                        if now_mark[:3] != mark:
                            mark, since = now_mark[:3], now_mark[3]
                        action = choose(room, p, since)
                        if action is None:
                            continue
                        before = room.table.decided
                        await seat_page[p].press(US.key(intent_for(action)))
                        give_up = time.monotonic() + 5
                        while room.table.decided == before and time.monotonic() < give_up:
                            await asyncio.sleep(0.01)
                        await asyncio.sleep(0.07)  # past the repeat rule for the same key
                        pressed = True
                    if not pressed:
                        await asyncio.sleep(0.05)
                winner = room.table.position.winner
                assert winner is not None
                who = ("ana", "ben")[winner]
                await _both(pages, f"GAME OVER · {who} wins")
                keys = [d for d in room.table.decisions if d.source == "key"]
                assert {d.player for d in keys} == {Player.LEFT, Player.RIGHT}
                await ana.press("Enter")
                await ben.wait_for_text("wants a rematch")
                await ben.press("Enter")
                await _both(pages, "match 1 : 0" if winner == 0 else "match 0 : 1")
                for page in pages:
                    _only_this_machine(page)
        finally:
            output = served.close()
    assert "Traceback" not in output, output
