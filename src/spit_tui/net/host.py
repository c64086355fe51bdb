"""`spit-tui host [--port P] [--bind ADDR]`: authoritative games for remote seats.

The host runs on one asyncio loop. Each room (net.room) has its own Table on
a RealClock, driven by a small task that sleeps until the clock's next timed
event or until an intent arrives; each connection is a task that reads frames
(protocol.read_frame: size cap, truncation, slow drip) and hands them to its
Session. Whatever a connection does, only that connection is closed: a bad
frame, a silence longer than the handshake or idle limit, a client that stops
reading (its send buffer passes WRITE_LIMIT). The host binds to 127.0.0.1
unless told otherwise, and prints the first room's code.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import secrets
import sys
from dataclasses import dataclass

from spit_tui.clock import RealClock
from spit_tui.command import PROG, Parser, UsageError, fail, port_number
from spit_tui.engine import Game, Options
from spit_tui.table import COUNTDOWN_S, STALE_S, STUCK_DELAY_S, Table

from .latency import PING_S
from .protocol import FRAME_S, Message, ProtocolError, encode, read_frame, refused
from .room import Lobby, Room, Session

DEFAULT_PORT = 7878
HANDSHAKE_S = 5.0  # a new connection must say hello this soon
IDLE_S = 60.0  # a seat that sends nothing (not even a ping) for this long is closed
WRITE_LIMIT = 256 * 1024  # bytes waiting to go to a client that is not reading
LINGER_S = 0.5  # after a refusal, how long what the client still sends is read and dropped
UNJOINED_S = 600.0  # a room made by `new_room` that no one has sat at by then is dropped


@dataclass(frozen=True)
class Timings:
    """The table's timed rules for every room (tests shorten them)."""

    countdown_s: float = COUNTDOWN_S
    stale_s: float = STALE_S
    stuck_delay_s: float = STUCK_DELAY_S


class StreamConn:
    """A Session's connection over an asyncio stream."""

    def __init__(self, writer: asyncio.StreamWriter) -> None:
        self.writer = writer
        self.closed = False

    def send(self, msg: Message) -> None:
        if self.closed:
            return
        if self.writer.transport.get_write_buffer_size() > WRITE_LIMIT:
            self.close("too far behind: not reading")
            return
        self.writer.write(encode(msg))

    def close(self, reason: str) -> None:
        if self.closed:
            return
        self.closed = True
        goodbye = {"type": "bye", "reason": reason} if reason == "bye" else refused(reason)
        try:
            self.writer.write(encode(goodbye))
            if self.writer.can_write_eof():
                self.writer.write_eof()
        except (OSError, RuntimeError):
            pass
        # Closing at once, with the client's unread frames still in our buffer,
        # would reset the connection and lose the line that says why.
        asyncio.get_running_loop().call_later(LINGER_S, self.writer.close)


class Host:
    """The rooms and the listening socket of one host process."""

    def __init__(
        self,
        *,
        bind: str = "127.0.0.1",
        port: int = DEFAULT_PORT,
        timings: Timings | None = None,
        seed: int | None = None,
        handshake_s: float = HANDSHAKE_S,
        idle_s: float = IDLE_S,
        frame_s: float = FRAME_S,
        options: Options | None = None,
        equalise: tuple[bool, bool] = (True, True),
        room_rate: float | None = None,
    ) -> None:
        self.bind = bind
        self.port = port
        self.timings = timings or Timings()
        self.seeds = random.Random(secrets.randbits(64) if seed is None else seed)
        self.handshake_s = handshake_s
        self.idle_s = idle_s
        self.frame_s = frame_s
        self.options = options or Options()
        self.lobby = Lobby(self._make_table)
        if room_rate is not None:
            self.lobby.room_bucket = type(self.lobby.room_bucket)(room_rate, room_rate * 10)
        self.lobby.equalise = equalise  # (hold actions, hold views): net.latency
        self.lobby.on_new_room = self._start_room
        self._room_tasks: dict[str, asyncio.Task[None]] = {}
        self._pinger: asyncio.Task[None] | None = None
        self.server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self.connections = 0  # ever accepted (tests read it)

    def _make_table(self) -> Table:
        t = self.timings
        game = Game(options=self.options, rng=random.Random(self.seeds.getrandbits(64)))
        return Table(
            game,
            RealClock(),
            countdown_s=t.countdown_s,
            stale_s=t.stale_s,
            stuck_delay_s=t.stuck_delay_s,
        )

    async def start(self) -> None:
        """Listen (OSError if the address cannot be had); `port` is then the real port."""
        self.server = await asyncio.start_server(self._serve, self.bind, self.port)
        self.port = self.server.sockets[0].getsockname()[1]
        self._pinger = asyncio.get_running_loop().create_task(self._ping_seats())

    async def _ping_seats(self) -> None:
        """Ping every seat of every room, all the time: net.latency holds on it."""
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(PING_S)
            now = loop.time()
            for room in list(self.lobby.rooms.values()):
                room.ping(now)

    def new_room(self) -> Room:
        return self.lobby.new_room()

    def _spawn(self, coro: object) -> asyncio.Task[None]:
        task: asyncio.Task[None] = asyncio.get_running_loop().create_task(coro)  # type: ignore[arg-type]
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def _start_room(self, room: Room) -> None:
        wake = asyncio.Event()
        room.poke = wake.set
        self._room_tasks[room.code] = self._spawn(self._run_room(room, wake))
        if room.expires:
            asyncio.get_running_loop().call_later(UNJOINED_S, self._expire, room)

    def _expire(self, room: Room) -> None:
        """Drop a room made over the wire that no one ever sat at."""
        if all(seat.token is None for seat in room.seats.values()):
            task = self._drop(room)
            if task is not None:
                task.cancel()

    def _drop(self, room: Room) -> asyncio.Task[None] | None:
        """Forget a room; its task, if it still has one."""
        if self.lobby.rooms.get(room.code) is room:
            del self.lobby.rooms[room.code]
        return self._room_tasks.pop(room.code, None)

    async def _run_room(self, room: Room, wake: asyncio.Event) -> None:
        """Run the room's clock: everything due runs on time, between intents."""
        clock = room.table.clock
        while True:
            wake.clear()
            clock.update()
            if room.table.game.over and all(s.conn is None for s in room.seats.values()):
                self._drop(room)  # the game is over and both players have gone
                return
            wait = clock.wait_s()
            try:
                async with asyncio.timeout(wait):
                    await wake.wait()
            except TimeoutError:
                pass

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        loop = asyncio.get_running_loop()
        conn = StreamConn(writer)
        session = Session(self.lobby, conn, loop.time())
        try:
            while not conn.closed:
                limit = self.handshake_s if session.room is None else self.idle_s
                try:
                    async with asyncio.timeout(limit):
                        body = await read_frame(reader, self.frame_s)
                except TimeoutError:
                    session.close("no hello in time" if session.room is None else "silent too long")
                    break
                if body is None:
                    break
                session.receive(body, loop.time())
        except ProtocolError as e:
            session.close(str(e))
        except (ConnectionError, OSError):
            pass
        finally:
            session.ended()
            if conn.closed:  # we closed it: read what is still coming, so the reason arrives
                with contextlib.suppress(TimeoutError, ConnectionError, OSError):
                    async with asyncio.timeout(LINGER_S):
                        while await reader.read(65536):
                            pass
            conn.closed = True
            try:
                writer.close()
                await writer.wait_closed()
            except (ConnectionError, OSError):
                pass

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()
        if self._pinger is not None:
            self._pinger.cancel()
        for task in list(self._tasks):
            task.cancel()
        for room in self.lobby.rooms.values():
            for seat in room.seats.values():
                if seat.conn is not None:
                    seat.conn.close("the host is stopping")
        if self.server is not None:
            await self.server.wait_closed()


def parse_args(argv: list[str]) -> tuple[int, str, int | None]:
    p = Parser(
        prog=f"{PROG} host",
        description="Host games for players on other terminals: prints a room code to join with.",
    )
    p.add_argument("--port", default=str(DEFAULT_PORT), help=f"port to listen on ({DEFAULT_PORT})")
    p.add_argument(
        "--bind",
        default="127.0.0.1",
        metavar="ADDR",
        help="address to listen on (127.0.0.1: this machine only; 0.0.0.0: every network)",
    )
    p.add_argument("--seed", type=int, metavar="N", help="shuffle the rooms' games from N")
    args = p.parse_args(argv)
    return port_number(args.port), args.bind, args.seed


async def _run(bind: str, port: int, seed: int | None) -> int:
    host = Host(bind=bind, port=port, seed=seed)
    try:
        await host.start()
    except OSError as e:
        print(f"{PROG} host: cannot listen on {bind}:{port}: {e.strerror or e}", file=sys.stderr)
        return 1
    room = host.new_room()
    print(f"hosting on {bind}:{host.port}; room code {room.code}", flush=True)
    print(f"join with: {PROG} join {bind}:{host.port} {room.code}", flush=True)
    assert host.server is not None
    try:
        await host.server.serve_forever()
    except asyncio.CancelledError:  # Ctrl+C: asyncio.run cancels this task
        print(f"{PROG} host: stopped", file=sys.stderr)
        return 130
    finally:
        await host.close()
    return 0


def main(argv: list[str]) -> int:
    try:
        port, bind, seed = parse_args(argv)
    except UsageError as e:
        return fail(str(e), f"{PROG} host")
    except SystemExit as e:  # --help
        return int(e.code or 0)
    try:
        return asyncio.run(_run(bind, port, seed))
    except KeyboardInterrupt:
        print(f"{PROG} host: stopped", file=sys.stderr)
        return 130
