"""The server of `spit-tui serve` (its command line: servecmd.py): the game in
a browser, through textual-serve.

Each page that connects gets its own game: textual-serve starts
`python -m spit_tui ...` with Textual's web driver (the terminal check in
spit_tui.terminal accepts it) and carries the screen and the keys over a
websocket. With no `--`, that is the lobby of a game host (`join HOST:PORT`:
quick match, new room, join by code, ...; lobby.py), as for `join HOST` and the
SSH door; after `--`, the game those arguments give, the same for every page
(`-- --vs-computer --level hard`, or `--` alone: two players at one browser
keyboard, left half and right half).

What textual-serve does not do, and this module does:
- listen on 127.0.0.1 only, on a socket bound here, so a port in use or not
  ours is one line and exit 1 (and `--port 0` takes any free port and prints
  the real one);
- give the browser our page (templates/app_index.html), which loads textual-serve's
  own script, style sheet and font from this server and nothing from outside;
- answer only requests for this server by its own name (a Host header of
  127.0.0.1:P or localhost:P, so no other name can be pointed at it), and open
  a game only for a page of its own (the websocket's Origin, which must be
  there: a request with none, such as an <img> on another site, gets no
  game), so a web page from elsewhere open in the same browser cannot start
  games or press keys;
- check every message a page sends before its game sees it (pagemsg.py): a
  malformed one closes that page's connection, in one line, not a traceback;
  whatever a page sent is printed escaped (a page cannot write escape
  sequences into this console);
- start at most MAX_PAGES games at once (`--pages`), PAGES_PER_ADDRESS for one client
  address (each is a process of about 40 MB): a page beyond that gets a
  page saying so, and the console one line (at most every NOTICE_S);
- stop on Ctrl+C (or SIGTERM) within a second or two: each game is told to
  quit, so it ends as it would on Ctrl+Q.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import socket
import sys
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path

import aiohttp_jinja2
from aiohttp import WSCloseCode, WSMsgType, web
from aiohttp.web_runner import GracefulExit
from textual_serve.app_service import AppService
from textual_serve.server import Server

from spit_tui.command import PROG
from spit_tui.store.stored import escaped

from .pagemsg import BadPageMessage, page_message, start_size
from .servecmd import ADDRESS, MAX_PAGES, NAME, ServeArgs, game_command, listen
from .service import PageService

__all__ = ["ADDRESS", "MAX_PAGES", "NAME", "GameServer", "listen", "make_server"]

TEMPLATES = Path(__file__).resolve().parent / "templates"
SHUTDOWN_S = 1.0  # how long open pages may keep their games after Ctrl+C
PAGES_PER_ADDRESS = 4  # of which one client address may have
NOTICE_S = 10.0  # the "too many pages" line is printed at most this often
FULL_PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>{title}</title></head>
<body style="font-family: monospace; background: #000; color: #ddd; padding: 2em">
<h1>{title}: too many games open</h1>
<p>{why}. Close a tab with a game in it, then reload this page.</p>
</body></html>
"""


def _served_names(port: int) -> frozenset[str]:
    return frozenset(f"{host}:{port}" for host in (ADDRESS, "localhost"))


def board_sizes() -> str:
    """The board's sizes the page fits its font to, "COLSxROWS COLSxROWS": the
    least the board needs, and the least it draws its big cards at by itself
    (the page takes the second where its font stays readable)."""
    from spit_tui.app.screens import MIN_H, MIN_W
    from spit_tui.look import LARGE_FROM

    return f"{MIN_W}x{MIN_H} {LARGE_FROM[0]}x{LARGE_FROM[1]}"


def make_server(sock: socket.socket, args: ServeArgs) -> GameServer:
    if args.game is None:
        from .lobby import LobbyServer

        return LobbyServer(sock, args.pages, args.host, args.options, args.first_to)
    return GameServer(sock, game_command(args.game), args.pages)


class GameServer(Server):
    """textual-serve's Server on a socket of ours, with our page and checks."""

    def __init__(self, sock: socket.socket, command: str, pages: int = MAX_PAGES) -> None:
        self.sock = sock
        self.max_pages = pages
        self.port_bound: int = sock.getsockname()[1]
        super().__init__(
            command,
            host=ADDRESS,
            port=self.port_bound,
            title=PROG,
            templates_path=TEMPLATES,
        )
        self.names = _served_names(self.port_bound)
        self.origins = frozenset(f"http://{name}" for name in self.names)
        self.stopped_by: int | None = None
        self.problem: str | None = None  # why it could not start
        self.pages: Counter[str] = Counter()  # games open, by client address
        self._told = (-NOTICE_S, 0)  # the last "too many pages" line, and refusals since

    async def _make_app(self) -> web.Application:
        app: web.Application = await super()._make_app()
        aiohttp_jinja2.get_env(app).globals["board"] = board_sizes()
        app.on_cleanup.append(lambda app: self.finish())
        only_ours = self._only_ours

        @web.middleware
        async def middleware(
            request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
        ) -> web.StreamResponse:
            return await only_ours(request, handler)

        app.middlewares.append(middleware)
        return app

    async def _only_ours(
        self,
        request: web.Request,
        handler: Callable[[web.Request], Awaitable[web.StreamResponse]],
    ) -> web.StreamResponse:
        """A request for this server by another name, or a game asked for by
        another site's page, is refused before textual-serve sees it."""
        if request.host not in self.names:
            raise web.HTTPMisdirectedRequest(text=f"this server is {self.public_url}\n")
        address = request.remote or ""
        if request.path == "/" and self._full(address) is not None:
            why = self._full(address) or ""
            raise web.HTTPServiceUnavailable(
                text=FULL_PAGE.format(title=PROG, why=why.capitalize()), content_type="text/html"
            )
        if request.path != "/ws" and not request.path.startswith("/ws/"):
            return await handler(request)
        if request.headers.get("Origin") not in self.origins:
            raise web.HTTPForbidden(text="games open only from this server's own page\n")
        try:
            start_size(request.query.get("width"), request.query.get("height"))
        except BadPageMessage as e:
            print(f"{NAME}: a page asked for {escaped(str(e), 200)}; refused", file=sys.stderr)
            raise web.HTTPBadRequest(text=f"{e}\n") from None
        full = self._full(address)
        if full is not None:
            self._notice(full)
            raise web.HTTPServiceUnavailable(text=f"{full}\n")
        self.pages[address] += 1
        try:
            return await handler(request)
        finally:
            self.pages[address] -= 1
            if self.pages[address] <= 0:
                del self.pages[address]

    def _full(self, address: str) -> str | None:
        """Why no game may open for `address` now, or None."""
        if self.pages.total() >= self.max_pages:
            return f"this server has {self.max_pages} games open, the most it runs at once"
        if self.pages[address] >= PAGES_PER_ADDRESS:
            return f"{PAGES_PER_ADDRESS} games are open from this address already"
        return None

    def _notice(self, why: str) -> None:
        """One console line for refused pages, at most every NOTICE_S."""
        told, since = self._told
        now = time.monotonic()
        if now - told < NOTICE_S:
            self._told = (told, since + 1)
            return
        more = f" ({since} more since the last notice)" if since else ""
        print(f"{NAME}: a page was refused a game: {why}{more}", file=sys.stderr, flush=True)
        self._told = (now, 0)

    def page_command(self, request: web.Request) -> str:
        """The command that runs this page's game (web.HTTPException if none may)."""
        return self.command

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """A page's game, from its websocket opening to its closing (as
        textual-serve's own handler, with the command chosen per page)."""
        command = self.page_command(request)
        width, height = start_size(request.query.get("width"), request.query.get("height"))
        websocket = web.WebSocketResponse(heartbeat=15)
        await websocket.prepare(request)

        async def close() -> None:
            await websocket.close()

        service = PageService(
            command,
            write_bytes=websocket.send_bytes,
            write_str=websocket.send_str,
            close=close,
            download_manager=self.download_manager,
            debug=self.debug,
        )
        try:
            await service.start(width, height)
            await self._process_messages(websocket, service)
        except asyncio.CancelledError:
            await websocket.close()
        finally:
            await service.stop()
        return websocket

    async def _process_messages(
        self, websocket: web.WebSocketResponse, app_service: AppService
    ) -> None:
        """textual-serve's loop over a page's messages, with each message
        checked first (pagemsg.py): a bad one closes this page only, in one line."""
        async for message in websocket:
            if message.type != WSMsgType.TEXT:
                continue
            try:
                kind, data = page_message(message.data)
            except BadPageMessage as e:
                print(f"{NAME}: a page sent {escaped(str(e), 200)}; its game is closed",
                      file=sys.stderr)
                await websocket.close(code=WSCloseCode.POLICY_VIOLATION, message=b"bad message")
                return
            if kind == "stdin":
                await app_service.send_bytes(data.encode("utf-8", "replace"))
            elif kind == "resize":
                await app_service.set_terminal_size(*data)
            elif kind == "ping":
                await websocket.send_json(["pong", data])
            elif kind == "blur":
                await app_service.blur()
            else:
                await app_service.focus()

    async def on_startup(self, app: web.Application) -> None:
        print(f"{NAME}: open {self.public_url} in a browser to play", flush=True)
        print(f"{NAME}: each page is its own game; Ctrl+C stops the server", flush=True)

    async def prepare(self) -> str | None:
        """What must run before the first page comes; why it cannot, or None."""
        return None

    async def finish(self) -> None:
        """What prepare started, stopped (once the pages' games are told to quit)."""

    def serve(self, debug: bool = False) -> None:
        """Serve until Ctrl+C or SIGTERM (`stopped_by` then says which), or
        not at all (`problem` then says why)."""
        self.debug = debug
        self.initialize_logging()
        logging.getLogger("aiohttp.access").setLevel(logging.WARNING)
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        self.problem = loop.run_until_complete(self.prepare())
        if self.problem is not None:
            return

        def stop(signum: int) -> None:
            self.stopped_by = signum
            raise GracefulExit()

        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(sig, stop, sig)
        # The loop is left open when this returns: a game that is still quitting
        # reports its exit to it (asyncio's child watcher), and a closed loop would
        # log a warning for each; the process ends right after.
        web.run_app(
            self._make_app(),
            sock=self.sock,
            handle_signals=False,
            loop=loop,
            print=None,
            shutdown_timeout=SHUTDOWN_S,
        )
