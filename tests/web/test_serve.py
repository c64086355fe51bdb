"""`spit-tui serve` without a browser: bad command lines, the checks on who may
ask it for a game, stopping with games open, and the game under Textual's web
driver (the pipes textual-serve gives it) instead of a terminal."""

from __future__ import annotations

import asyncio
import io
import json
import os
import shlex
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlencode

import aiohttp
import pytest
from testkit.browser import Served

from spit_tui.terminal import terminal_problem, uses_web_driver
from spit_tui.web.servecmd import game_args_problem

WEB_DRIVER = "textual.drivers.web_driver:WebDriver"


def serve(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "spit_tui", "serve", *args],
        capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL,
    )  # fmt: skip


def one_line(r: subprocess.CompletedProcess[str], code: int, words: str) -> None:
    assert r.returncode == code, r
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr, r.stderr
    assert words in r.stderr, r.stderr
    assert r.stdout == ""


@pytest.mark.parametrize("pages", ["0", "65", "x", "²", "9" * 5000])
def test_a_bad_number_of_pages_is_one_line_and_exit_2(pages: str) -> None:
    one_line(serve("--pages", pages), 2, "--pages")


@pytest.mark.parametrize("port", ["http", "-1", "65536", "8000x", ""])
def test_a_bad_port_is_one_line_and_exit_2(port: str) -> None:
    one_line(serve("--port", port), 2, "--port: not a port number (0-65535)")


def test_a_port_in_use_is_one_line_and_exit_1() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        one_line(serve("--port", str(port)), 1, f"cannot listen on 127.0.0.1:{port}")


@pytest.mark.parametrize(
    ("game", "words"),
    [
        (["--variant", "chess"], "invalid choice: 'chess'"),
        (["--level", "hard"], "--level needs --vs-computer or --demo"),
        (["sim"], "'sim' does not show the board"),
        (["play"], "'play' is not a spit-tui command the browser can run"),
        (["--help"], "nothing to serve"),
        (["join", "127.0.0.1:99999", "abcde-fghjk"], "join: not a port number"),
        (["join", "127.0.0.1", "--new-room"], "prints a room code and ends"),
        (["join", "127.0.0.1", "abcde-fghjk", "--seat", "up"], "join: --seat: invalid choice"),
    ],
)
def test_bad_game_arguments_are_refused_before_serving(game: list[str], words: str) -> None:
    one_line(serve("--port", "0", "--", *game), 2, words)


def test_game_arguments_that_play_are_accepted() -> None:
    assert game_args_problem([]) is None
    assert game_args_problem(["--vs-computer", "--level", "hard", "--seed", "3"]) is None
    assert game_args_problem(["join", "127.0.0.1:7878", "abcde-fghjk", "--seat", "right"]) is None


def test_the_terminal_check_takes_pipes_under_the_web_driver_and_refuses_a_terminal() -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    web = {"TEXTUAL_DRIVER": WEB_DRIVER, "TERM": "dumb", "LANG": "C"}
    assert uses_web_driver(web)
    assert terminal_problem(web, io.StringIO(), io.StringIO()) is None
    problem = terminal_problem(web, Tty(), Tty())
    assert problem is not None and "web driver" in problem and "\n" not in problem
    assert not uses_web_driver({"TEXTUAL_DRIVER": "textual.drivers.linux_driver:LinuxDriver"})
    assert not uses_web_driver({"TEXTUAL_DRIVER": "no.such:Thing"})
    assert "not one" in (terminal_problem({"TERM": "xterm"}, io.StringIO(), io.StringIO()) or "")


def _packet(kind: bytes, payload: bytes) -> bytes:
    return kind + len(payload).to_bytes(4, "big") + payload


def _web_game(*args: str) -> subprocess.Popen[bytes]:
    env = {**os.environ, "TEXTUAL_DRIVER": WEB_DRIVER, "COLUMNS": "100", "ROWS": "30"}
    return subprocess.Popen(
        [sys.executable, "-m", "spit_tui", "--seed", "1", *args],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
    )  # fmt: skip


def _read_until(proc: subprocess.Popen[bytes], marker: bytes, timeout: float = 15) -> bytes:
    assert proc.stdout is not None
    os.set_blocking(proc.stdout.fileno(), False)
    seen = b""
    end = time.monotonic() + timeout
    while marker not in seen:
        assert time.monotonic() < end, seen[-500:]
        chunk = proc.stdout.read()
        if chunk:
            seen += chunk
        elif proc.poll() is not None:
            err = proc.stderr.read() if proc.stderr else b""
            raise AssertionError(f"ended: {proc.returncode} {err!r}")
        else:
            time.sleep(0.02)
    return seen


def test_the_game_runs_under_the_web_driver_and_quits_when_told() -> None:
    """What textual-serve does, by hand: the prelude, the board in data packets
    at the size the server gave, then a quit message ends the game cleanly."""
    proc = _web_game()
    try:
        seen = _read_until(proc, b"pile a")
        assert seen.startswith(b"__GANGLION__\n")
        assert proc.stdin is not None
        proc.stdin.write(_packet(b"M", b'{"type": "quit"}'))
        proc.stdin.flush()
        assert proc.wait(timeout=10) == 0
        assert proc.stderr is not None and proc.stderr.read() == b""
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_the_game_quits_when_the_server_goes_away() -> None:
    """End of input (the server died) ends the game, not a game nobody sees."""
    proc = _web_game("--no-history")
    try:
        _read_until(proc, b"pile a")
        assert proc.stdin is not None
        proc.stdin.close()
        assert proc.wait(timeout=10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


async def _status(url: str, headers: dict[str, str]) -> int:
    async with aiohttp.ClientSession() as http, http.get(url, headers=headers) as r:
        return r.status


def test_only_this_servers_own_name_and_pages_get_a_game() -> None:
    served = Served(["--no-history"])
    try:
        url = served.url
        port = url.rsplit(":", 1)[1]

        async def check() -> None:
            assert await _status(url, {}) == 200
            assert await _status(url, {"Host": f"localhost:{port}"}) == 200
            assert await _status(url, {"Host": f"rebound.example:{port}"}) == 421
            evil = {"Origin": "http://elsewhere.example", "Upgrade": "websocket"}
            assert await _status(f"{url}/ws", evil) == 403
            # no Origin at all (an <img> on any site sends none): no game either
            assert await _status(f"{url}/ws", {"Upgrade": "websocket"}) == 403

        asyncio.run(check())
    finally:
        served.close()


def test_ctrl_c_stops_the_server_and_its_open_games() -> None:
    served = Served(["--no-history"])

    async def open_a_game() -> aiohttp.ClientWebSocketResponse:
        http = aiohttp.ClientSession()
        ws = await http.ws_connect(f"{served.url}/ws?width=100&height=30", origin=served.url)
        async for msg in ws:  # the game draws: it is running
            if msg.type == aiohttp.WSMsgType.BINARY and b"pile a" in msg.data:
                break
        served.proc.send_signal(signal.SIGINT)
        await asyncio.get_running_loop().run_in_executor(None, served.proc.wait, 10)
        await ws.close()
        await http.close()
        return ws

    try:
        asyncio.run(asyncio.wait_for(open_a_game(), 30))
        assert served.proc.returncode == 128 + signal.SIGINT
        output = served.close()
        assert "stopped" in output and "Traceback" not in output, output
        end = time.monotonic() + 5
        while _running_in_group(served.proc.pid):  # no game left running
            assert time.monotonic() < end, _running_in_group(served.proc.pid)
            time.sleep(0.1)
    finally:
        served.close()


def _running(field: int, value: int) -> list[str]:
    """The processes that still run (not zombies) whose /proc stat field
    (after the name: 1 parent, 2 process group) is `value`."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[field]) == value and fields[0] != "Z":
            found.append(stat.parent.name)
    return found


def _running_in_group(pgid: int) -> list[str]:
    return _running(2, pgid)


def _children(pid: int) -> list[str]:
    return _running(1, pid)


async def _game_socket(
    http: aiohttp.ClientSession, url: str, query: str = "width=100&height=30"
) -> aiohttp.ClientWebSocketResponse:
    ws = await http.ws_connect(f"{url}/ws?{query}", origin=url)
    async for msg in ws:  # the game draws: it is running
        if msg.type == aiohttp.WSMsgType.BINARY and b"pile a" in msg.data:
            break
    return ws


def test_a_bad_message_closes_that_page_only_in_one_line() -> None:
    """textual-serve alone printed a traceback for these, and a size of "x"
    crashed the game; now the page that sent it is closed, the other plays on."""
    served = Served(["--no-history"])
    bad = ["not json", '["resize", {"width": "x", "height": 5}]', '["stdin", 5]']

    async def check() -> None:
        async with aiohttp.ClientSession() as http:
            other = await _game_socket(http, served.url)
            for text in bad:
                ws = await _game_socket(http, served.url)
                await ws.send_str(text)
                async with asyncio.timeout(5):  # frames drawn before the close may come first
                    msg = await ws.receive()
                    while msg.type == aiohttp.WSMsgType.BINARY:
                        msg = await ws.receive()
                assert msg.type == aiohttp.WSMsgType.CLOSE, msg
                await ws.close()
            await other.send_str('["stdin", "q"]')  # the other page's game still answers
            async with asyncio.timeout(5):
                async for msg in other:
                    if msg.type == aiohttp.WSMsgType.BINARY and b"ready" in msg.data:
                        break
                else:
                    raise AssertionError("the other page's game ended")
            with pytest.raises(aiohttp.WSServerHandshakeError) as e:
                await http.ws_connect(f"{served.url}/ws?width=100000&height=100000",
                                      origin=served.url)
            assert e.value.status == 400
            await other.close()

    try:
        asyncio.run(asyncio.wait_for(check(), 60))
    finally:
        output = served.close()
    assert "Traceback" not in output and "Error" not in output, output
    lines = [line for line in output.splitlines() if "a page" in line]
    assert len(lines) == 4, output
    assert "not JSON" in lines[0] and "x x 5 cells" in lines[1] and "100000" in lines[3]


def test_what_a_page_sends_reaches_the_console_escaped() -> None:
    """A size with escape sequences in it went to the console line as sent:
    a page could clear the screen, retitle the window or write the clipboard."""
    served = Served(["--no-history"])
    evil = "\x1b[2J\x1b]0;owned\x07"

    async def check() -> None:
        async with aiohttp.ClientSession() as http:
            ws = await _game_socket(http, served.url)
            await ws.send_str(json.dumps(["resize", {"width": evil, "height": 5}]))
            await asyncio.wait_for(ws.receive(), 5)
            await ws.close()
            query = urlencode({"width": evil, "height": "5"})
            with pytest.raises(aiohttp.WSServerHandshakeError):
                await http.ws_connect(f"{served.url}/ws?{query}", origin=served.url)

    try:
        asyncio.run(asyncio.wait_for(check(), 60))
    finally:
        output = served.close()
    lines = [line for line in output.splitlines() if "a page" in line]
    assert len(lines) == 2, output
    assert all("\x1b" not in line and "\\x1b]0;owned\\x07" in line for line in lines), lines


def test_games_are_capped_with_a_clear_page_and_one_line() -> None:
    """Each page started a game process (40 MB) without limit: 24 pages, 24
    games. At the cap (`--pages 2` here) a page is told so, the console says
    it once."""
    served = Served([], command=[sys.executable, "-m", "spit_tui", "serve", "--port", "0",
                                 "--pages", "2", "--", "--no-history"])

    async def check() -> None:
        async with aiohttp.ClientSession() as http:
            games = [await _game_socket(http, served.url) for _ in range(2)]
            for _ in range(3):
                with pytest.raises(aiohttp.WSServerHandshakeError) as e:
                    await http.ws_connect(f"{served.url}/ws", origin=served.url)
                assert e.value.status == 503
            async with http.get(served.url) as r:
                assert r.status == 503 and "too many games open" in await r.text()
            await games[0].close()
            async with asyncio.timeout(10):  # its game gone, a new page gets one
                while True:
                    async with http.get(served.url) as r:
                        if r.status == 200:
                            break
                    await asyncio.sleep(0.1)
            games[0] = await _game_socket(http, served.url)
            for ws in games:
                await ws.close()

    try:
        asyncio.run(asyncio.wait_for(check(), 90))
    finally:
        output = served.close()
    lines = [line for line in output.splitlines() if "refused a game" in line]
    assert len(lines) == 1 and "2 games open" in lines[0], output


def test_one_address_gets_only_its_share_of_the_games() -> None:
    from spit_tui.web import serve as module

    with socket.socket() as sock:
        server = module.GameServer(sock, "true")
        server.pages["127.0.0.1"] = module.PAGES_PER_ADDRESS
        assert "from this address" in (server._full("127.0.0.1") or "")
        assert server._full("127.0.0.2") is None
        server.pages["127.0.0.3"] = module.MAX_PAGES - module.PAGES_PER_ADDRESS
        assert "the most it runs" in (server._full("127.0.0.2") or "")


def _lobby(*args: str) -> Served:
    argv = [sys.executable, "-m", "spit_tui", "serve", "--port", "0", *args]
    return Served([], env={**os.environ, "SPIT_LAYOUT": "us"}, command=argv)


async def _screen_with(ws: aiohttp.ClientWebSocketResponse, text: bytes) -> bytes:
    """What the page's game sent until `text` was in it (its frames, as sent)."""
    seen = b""
    try:
        async with asyncio.timeout(40):
            async for msg in ws:
                if msg.type == aiohttp.WSMsgType.BINARY:
                    seen += msg.data
                    if text in seen:
                        return seen
    except TimeoutError:
        pass
    raise AssertionError(f"{text!r} never came: {seen[-1500:]!r}")


def test_with_no_game_each_page_opens_on_the_lobby_and_a_room_shows_its_page_address() -> None:
    """`serve` alone: the lobby of its own host; New room shows the address
    that opens a page in that room (?join=CODE), and that page is seated; a
    third page watches the room from the lobby."""
    served = _lobby()

    async def check() -> None:
        async with aiohttp.ClientSession() as http:
            first = await http.ws_connect(f"{served.url}/ws?width=100&height=30",
                                          origin=served.url)
            await _screen_with(first, b"Quick match")
            await first.send_str('["stdin", "n"]')  # New room: Enter makes it as it is
            await _screen_with(first, b"make the room")
            await first.send_str('["stdin", "\\r"]')
            seen = await _screen_with(first, b"?join=")
            code = seen.split(b"?join=", 1)[1][:11].decode()
            second = await http.ws_connect(
                f"{served.url}/ws/{code}?width=100&height=30&name=Ben%20B", origin=served.url
            )
            await _screen_with(second, b"pile a")
            await _screen_with(first, b"both press")  # the room has both seats
            await _screen_with(first, b"Ben B")  # ?name=: the page's player's name
            watcher = await http.ws_connect(f"{served.url}/ws?width=100&height=30",
                                            origin=served.url)
            await _screen_with(watcher, b"Quick match")
            await watcher.send_str(json.dumps(["stdin", "w"]))  # the host's games: by code
            await _screen_with(watcher, b"by code")
            await watcher.send_str(json.dumps(["stdin", "c"]))
            await _screen_with(watcher, b"room code")
            await watcher.send_str(json.dumps(["stdin", code + "\r"]))
            await _screen_with(watcher, b"watching")  # the lobby's Watch, from a page
            await _screen_with(first, b"1 watching")
            for ws in (first, second, watcher):
                await ws.close()

    try:
        asyncio.run(asyncio.wait_for(check(), 150))
    finally:
        output = served.close()
    assert "lobby of its own game host at 127.0.0.1:" in output, output
    assert "Traceback" not in output, output


def test_a_page_asking_for_a_room_that_is_no_code_or_a_name_that_is_none_is_refused() -> None:
    """Before a game starts: 400, and one console line with what was sent, escaped."""
    served = _lobby()

    async def check() -> None:
        async with aiohttp.ClientSession() as http:
            for code in ("nope", "\x1b[2J"):
                with pytest.raises(aiohttp.WSServerHandshakeError) as e:
                    await http.ws_connect(f"{served.url}/ws/{code}", origin=served.url)
                assert e.value.status in (400, 404)
            for name in ("\x1b]0;owned\x07", "x" * 300, " "):
                query = urlencode({"width": "100", "height": "30", "name": name})
                with pytest.raises(aiohttp.WSServerHandshakeError) as e:
                    await http.ws_connect(f"{served.url}/ws?{query}", origin=served.url)
                assert e.value.status == 400

    try:
        asyncio.run(asyncio.wait_for(check(), 60))
    finally:
        output = served.close()
    lines = [line for line in output.splitlines() if "a page asked" in line]
    assert len(lines) == 5 and "\x1b" not in output and "Traceback" not in output, output
    assert "the name" in lines[2] and "\\x1b]0;owned\\x07" in lines[2], lines


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--host", "127.0.0.1:99999"], "not a port number"),
        (["--host", "127.0.0.1:7878", "--variant", "points"], "for our own host"),
        (["--target", "x"], "--target: a number"),
        (["--variant", "points", "--", "--seed", "1"], "for the lobby"),
        (["--host", "127.0.0.1:7878", "--match", "3"], "for our own host"),
        (["--match", "x"], "--match: a number"),
    ],
)
def test_bad_lobby_options_are_one_line_and_exit_2(args: list[str], words: str) -> None:
    one_line(serve("--port", "0", *args), 2, words)


def test_each_open_page_keeps_its_seats_in_a_folder_of_its_own() -> None:
    """Pages of one server shared one seat-token file: a page joining a room
    tried the other page's kept token first, which takes that seat over when
    the other page's game is slow to answer pings. Each open page gets the
    lowest free page number and its folder; a page opened after one closed
    gets that one's."""
    from aiohttp.test_utils import make_mocked_request

    from spit_tui.paths import state_dir
    from spit_tui.web.lobby import PAGE, LobbyServer

    with socket.socket() as sock:
        server = LobbyServer(sock, 8, ("127.0.0.1", 7878))
        with server.page_number() as a:
            with server.page_number() as b:
                assert (a, b) == (0, 1)
            with server.page_number() as c, server.page_number() as d:
                assert (c, d) == (1, 2)
        with server.page_number() as e:
            assert e == 0
        request = make_mocked_request("GET", "/ws")
        request[PAGE] = 2
        command = server.page_command(request)
    assert f"XDG_STATE_HOME={state_dir() / 'serve-pages' / '2'} " in command, command



def test_a_page_closed_during_a_room_game_ends_its_game_process() -> None:
    """Closing a page in a room's game left its game running: the game went
    back to the lobby, where it waited for ever for the page (and the page's
    place in the per-address count was never given back). It is told to quit
    again as the lobby starts; the process ends."""
    served = _lobby()

    async def check() -> None:
        async with aiohttp.ClientSession() as http:
            page = await http.ws_connect(f"{served.url}/ws?width=100&height=30",
                                         origin=served.url)
            await _screen_with(page, b"Quick match")
            await page.send_str('["stdin", "n"]')  # New room: Enter makes it as it is
            await _screen_with(page, b"make the room")
            await page.send_str('["stdin", "\\r"]')
            await _screen_with(page, b"?join=")  # the board of a room
            assert len(_children(served.proc.pid)) == 1
            await page.close()
            end = time.monotonic() + 10
            while _children(served.proc.pid):
                assert time.monotonic() < end, [
                    Path(f"/proc/{pid}/cmdline").read_bytes() for pid in _children(served.proc.pid)
                ]
                await asyncio.sleep(0.1)

    try:
        asyncio.run(asyncio.wait_for(check(), 90))
    finally:
        output = served.close()
    assert "Traceback" not in output, output


def test_serves_own_host_keeps_each_game_once_and_its_pages_none() -> None:
    """Two pages of one serve are one user: each page's game kept the room's
    game in that user's history, so a game between them was stored twice.
    serve's own host keeps it (once); its pages keep none. With --host the
    pages keep their own (that host is someone else's)."""
    from aiohttp.test_utils import make_mocked_request

    from spit_tui.web.lobby import LobbyServer

    async def commands() -> tuple[str, str, bool]:
        with socket.socket() as a, socket.socket() as b:
            own, theirs = LobbyServer(a, 8), LobbyServer(b, 8, ("127.0.0.1", 7878))
            assert await own.prepare() is None and await theirs.prepare() is None
            try:
                assert own.own is not None
                kept = own.own.history is not None
                request = make_mocked_request("GET", "/ws")
                return own.page_command(request), theirs.page_command(request), kept
            finally:
                await own.finish()
                await theirs.finish()

    own, theirs, kept = asyncio.run(commands())
    assert kept
    assert " --no-history" in own and "--no-history" not in theirs, (own, theirs)


def test_a_page_of_serves_own_host_starts_new_room_from_its_game() -> None:
    """serve --variant points --target 75: each page's lobby gets that game
    for New room; a page of --host's lobby does not (that host's is unknown)."""
    from aiohttp.test_utils import make_mocked_request

    from spit_tui.engine import Options, Variant
    from spit_tui.net.joincmd import ROOM_OPTIONS_ENV, room_options_env
    from spit_tui.web.lobby import LobbyServer

    points = Options(Variant.POINTS, 75)

    async def commands() -> tuple[str, str]:
        with socket.socket() as a, socket.socket() as b:
            own = LobbyServer(a, 8, options=points)
            theirs = LobbyServer(b, 8, ("127.0.0.1", 7878))
            assert await own.prepare() is None and await theirs.prepare() is None
            try:
                request = make_mocked_request("GET", "/ws")
                return own.page_command(request), theirs.page_command(request)
            finally:
                await own.finish()
                await theirs.finish()

    own, theirs = asyncio.run(commands())
    assert shlex.quote(f"{ROOM_OPTIONS_ENV}={room_options_env(points)}") in own, own
    assert ROOM_OPTIONS_ENV not in theirs
