"""`spit-tui serve` with no game given: every page opens on the lobby of a game
host, the same lobby as `join HOST` and the SSH door (quick match, new room,
join by code, ...), so two pages play each other in a room.

Each page runs `spit-tui join 127.0.0.1:PORT` against serve's own host (one
`Host` on 127.0.0.1, in serve's process, started before the first page and
stopped after the last), or against `--host`'s. A room made on a page shows
the line that brings the other player: on our own host, this server's address
with `?join=CODE`, which opens a page straight in that room (`join HOST
CODE`); on `--host`'s, the `join` line for that host. `?name=NAME` in a
page's address is that player's name on both boards (`join --name`).

Every page is the same person's (one machine, one user), but each page's game
keeps its seat tokens in a state folder of its own (the lowest free page
number's, as the SSH door does per guest): with one shared file, a page
joining a room first tries the kept token of the other page's seat, which
takes that seat over whenever the other page's game has not answered pings
for a moment (a busy machine). A page opened again after one closed gets
that folder, so its tokens take its seat back.
"""

from __future__ import annotations

import contextlib
import shlex
import socket
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING

from aiohttp import web

from spit_tui.command import PROG, UsageError, shown
from spit_tui.store.stored import escaped

from .serve import ADDRESS, NAME, GameServer

if TYPE_CHECKING:
    from spit_tui.engine import Options
    from spit_tui.net.host import Host

JOIN_QUERY = "join"  # the page address's ?join=CODE: straight into that room
NAME_QUERY = "name"  # ?name=NAME: the player's name on both boards
PAGES_FOLDER = "serve-pages"  # in the user's state folder: a folder per open page
PAGE = web.RequestKey("page", int)  # the page's number while it is open


def checked_name(name: str) -> str:
    """A player's name from a page's address; UsageError saying why not."""
    from spit_tui.names import as_name, name_problem

    name = as_name(name)
    problem = name_problem(name)
    if problem is not None:
        raise UsageError(f"the name {shown(name)!r}: {problem}")
    return name.strip()


class LobbyServer(GameServer):
    """Pages on a host's lobby (`game_host`, else a host of our own)."""

    def __init__(
        self,
        sock: socket.socket,
        pages: int,
        game_host: tuple[str, int] | None = None,
        options: Options | None = None,
        first_to: int | None = None,
    ) -> None:
        super().__init__(sock, "", pages)
        self.game_host = game_host
        self.options = options
        self.first_to = first_to
        self.own: Host | None = None
        self.open_pages: set[int] = set()  # the page numbers in use

    async def prepare(self) -> str | None:
        if self.game_host is not None:
            return None
        from spit_tui.net.host import Host
        from spit_tui.net.limits import Limits
        from spit_tui.store.session import open_history

        # one copy of each game in this user's history: the host's (every seat
        # of its rooms is a page of this server, and each page would keep one)
        history = open_history(None, enabled=True)
        if history is not None:
            history.on_problem = lambda line: print(
                f"{NAME}: history is off: {line}", file=sys.stderr, flush=True
            )
            history.start()
        # every page's game connects from 127.0.0.1: serve counts pages per
        # address itself, so the host must not count them as one player
        self.own = Host(bind=ADDRESS, port=0, limits=Limits.relayed(), options=self.options,
                        first_to=self.first_to, history=history)
        try:
            await self.own.start()
        except OSError as e:
            if history is not None:
                history.close()
            return f"cannot start the game host: {e.strerror or e}"
        self.game_host = (ADDRESS, self.own.port)
        return None

    async def finish(self) -> None:
        if self.own is not None:
            await self.own.close()
            if self.own.history is not None:
                self.own.history.close()

    def invite(self) -> str:
        """The line a room made on a page shows ({code}: the room's code): on
        our own host (127.0.0.1 only, so the other player is on this machine)
        this server's page address for that room; on --host's, the `join`
        line, as `join` itself shows it (a friend elsewhere reaches that host,
        never this server)."""
        if self.own is None:
            assert self.game_host is not None
            host, port = self.game_host
            return f"{PROG} join {host}:{port} {{code}}"
        return f"{self.public_url}/?{JOIN_QUERY}={{code}}"

    @contextlib.contextmanager
    def page_number(self) -> Iterator[int]:
        """The lowest page number not in use, for as long as the page is open."""
        page = min(set(range(len(self.open_pages) + 1)) - self.open_pages)
        self.open_pages.add(page)
        try:
            yield page
        finally:
            self.open_pages.discard(page)

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        with self.page_number() as page:
            request[PAGE] = page
            return await super().handle_websocket(request)

    def page_command(self, request: web.Request) -> str:
        """`join HOST:PORT` (the lobby), or with the page's room code (from
        /ws/CODE, which the page asks for when its address has ?join=CODE)."""
        from spit_tui.net.joincmd import INVITE_ENV, ROOM_OPTIONS_ENV, check_code, room_options_env

        assert self.game_host is not None
        host, port = self.game_host
        game = ["join", f"{host}:{port}"]
        code, name = request.match_info.get("code"), request.query.get(NAME_QUERY)
        try:
            if code is not None:
                game.append(check_code(code))
            if name is not None:
                game += ["--name", checked_name(name)]
        except UsageError as e:
            print(f"{NAME}: a page asked for {escaped(str(e), 200)}; refused", file=sys.stderr)
            raise web.HTTPBadRequest(text=f"{e}\n") from None
        if self.own is not None:
            game.append("--no-history")  # our host keeps each game once (after CODE)
        from spit_tui.paths import state_dir

        state = state_dir() / PAGES_FOLDER / str(request.get(PAGE, 0))
        env = [f"{INVITE_ENV}={self.invite()}", f"XDG_STATE_HOME={state}"]
        if self.own is not None:  # New room on a page starts from our host's game
            env.append(f"{ROOM_OPTIONS_ENV}={room_options_env(self.own.options)}")
        return "exec " + shlex.join(["env", *env, sys.executable, "-m", "spit_tui", *game])

    async def _make_app(self) -> web.Application:
        app = await super()._make_app()
        app.router.add_get("/ws/{code}", self.handle_websocket, name="join")
        return app

    async def on_startup(self, app: web.Application) -> None:
        await super().on_startup(app)
        assert self.game_host is not None
        host, port = self.game_host
        whose = "its own" if self.own is not None else "the"
        print(f"{NAME}: each page opens on the lobby of {whose} game host at "
              f"{shown(host)}:{port}", flush=True)
