"""`spit-tui host [--port P] [--bind ADDR]`: authoritative games for remote seats.

The host runs on one asyncio loop. Each room (net.room) has its own Table on
a RealClock, run by one timer handle on the loop (net.ticker) at the clock's
next timed event or when the room changes; each connection is a task that reads frames
(protocol.read_frame: size cap, truncation, slow drip) and hands them to its
Session. Whatever a connection does, only that connection is closed: a bad
frame, a silence longer than the handshake or idle limit, a client that stops
reading (net.stream). What one address or all strangers may take is bounded
(net.limits). The host binds to 127.0.0.1 unless told otherwise, and prints
the first room's code.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import random
import secrets
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

from spit_tui.clock import RealClock
from spit_tui.decision import Decision
from spit_tui.engine import Game, Options, Player
from spit_tui.keys.gate import STALE_S
from spit_tui.subscription import Subscription
from spit_tui.table import COUNTDOWN_S, STUCK_DELAY_S, Outcome, Table

from .computer import Pace, SeatComputer, pace_from
from .latency import PING_S, LoopLag
from .limits import Addresses, Limits
from .protocol import FRAME_S, ProtocolError, encode, read_frame, refused
from .room import Lobby, Room
from .session import Session
from .stream import ABORT_S, LINGER_S, StreamConn
from .ticker import Ticker

if TYPE_CHECKING:
    from spit_tui.store.history import HistoryWriter

DEFAULT_PORT = 7878
HANDSHAKE_S = 5.0  # a new connection must say hello this soon
IDLE_S = 60.0  # a seat that sends nothing (not even a ping) for this long is closed
STALL_S = 1.0  # a time-out this late means the host stood still, not that the seat did
WAIT_S = 120.0  # a room whose seat dropped waits this long for it, then stops
PING_SLICES = 10  # the rooms are pinged a tenth at a time
NOTICE_S = 10.0  # a condition worth a line on the console is told at most this often
STOPPING = "the host is stopping"  # the line every seat and watcher gets as the host stops
# decisions each room's table keeps: nothing of the host reads back more than the
# last few, and at ~120 bytes each a room's memory grew all game (room_cost.py --memory)
DECISIONS_KEPT = 200


@dataclass(frozen=True)
class Timings:
    """The table's timed rules for every room (tests shorten them)."""

    countdown_s: float = COUNTDOWN_S
    stale_s: float = STALE_S
    stuck_delay_s: float = STUCK_DELAY_S


def taken_over_words(name: str) -> str:
    """Beside the player still there once the computer plays `name`'s seat
    (the board shows its level there): fits their message line with the
    longest name."""
    from .room import fitted

    return fitted(f"{name}: the computer plays", f"{name}: computer plays")


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
        wait_s: float = WAIT_S,
        history: HistoryWriter | None = None,
        trust_pongs: bool = False,
        limits: Limits | None = None,
        first_to: int | None = None,
    ) -> None:
        """`first_to`: every room plays matches, first to that many games.
        `trust_pongs`: build holds on pings alone, as if every seat were honest;
        only for seats behind a relay TCP cannot see (benchmarks/fairness.py's
        delay proxy), never for a real host (net.latency)."""
        self.bind = bind
        self.port = port
        self.timings = timings or Timings()
        self.seeds = random.Random(secrets.randbits(64) if seed is None else seed)
        self.handshake_s = handshake_s
        self.idle_s = idle_s
        self.frame_s = frame_s
        self.options = options or Options()
        self.limits = limits or Limits()
        self.lobby = Lobby(self._make_table, limits=self.limits)
        self.lobby.first_to = first_to
        self.addresses = Addresses(self.limits)
        self.on_notice: Callable[[str], None] = lambda line: print(
            f"host: {line}", file=sys.stderr, flush=True
        )
        self._noticed: dict[str, tuple[float, int]] = {}  # kind -> (last told, since then)
        if room_rate is not None:
            self.lobby.room_bucket = type(self.lobby.room_bucket)(room_rate, room_rate * 10)
        self.lobby.equalise = equalise  # (hold actions, hold views): net.latency
        self.lobby.trust_pongs = trust_pongs
        self.lobby.on_new_room = self._start_room
        self._tickers: dict[str, Ticker] = {}  # each room's clock, run from the loop
        self._pinger: asyncio.Task[None] | None = None
        self._serving: set[asyncio.Task[Any]] = set()  # one task per open connection
        self.server: asyncio.Server | None = None
        self.connections = 0  # ever accepted (tests read it)
        self.wait_s = wait_s  # how long a room waits for a seat that dropped
        self.history = history  # where the rooms' games are stored, if anywhere
        self._giving_up: dict[str, asyncio.TimerHandle] = {}
        self._paces: dict[str, Pace] = {}  # the pace offered for a room's dropped seat
        self._reads: set[asyncio.Task[None]] = set()  # stored paces being read
        self.on_room_stopped: Callable[[Room, str], None] = lambda room, line: None
        self._outer_handler: Any = None
        self.loop_lag = LoopLag()  # how late this host's own loop runs (net.latency)

    def _make_table(self, options: Options | None = None) -> Table:
        """A room's table: the host's options, or the room's own (the lobby's New room)."""
        t = self.timings
        # a seed, not only a Random: the stored game replays from it (history, export)
        game = Game(options=options or self.options, seed=self.seeds.getrandbits(63))
        return Table(
            game,
            RealClock(),
            countdown_s=t.countdown_s,
            stale_s=t.stale_s,
            stuck_delay_s=t.stuck_delay_s,
            log_limit=DECISIONS_KEPT,
        )

    def _notice(self, kind: str, line: str) -> None:
        """Tell `line` on the console at most once every NOTICE_S per kind,
        with how many times it happened since (a flood is one line, not
        thousands)."""
        now = time.monotonic()
        told, since = self._noticed.get(kind, (-math.inf, 0))
        if now - told < NOTICE_S:
            self._noticed[kind] = (told, since + 1)
            return
        more = f" ({since} more in the last {NOTICE_S:g} s)" if since else ""
        self._noticed[kind] = (now, 0)
        self.on_notice(f"{line}{more}")

    def _loop_problem(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        """asyncio logs a traceback for every accept that fails for want of
        descriptors; we say it in one line, once in a while."""
        message = str(context.get("message", ""))
        if message.startswith("socket.accept() out of system resource"):
            e = context.get("exception")
            why = e.strerror if isinstance(e, OSError) and e.strerror else message
            self._notice("accept", f"cannot accept connections: {why}")
            return
        if self._outer_handler is not None:
            self._outer_handler(loop, context)
        else:
            loop.default_exception_handler(context)

    async def start(self) -> None:
        """Listen (OSError if the address cannot be had); `port` is then the real port."""
        loop = asyncio.get_running_loop()
        self._outer_handler = loop.get_exception_handler()
        loop.set_exception_handler(self._loop_problem)
        self.server = await asyncio.start_server(self._serve, self.bind, self.port)
        self.port = self.server.sockets[0].getsockname()[1]
        self._pinger = asyncio.get_running_loop().create_task(self._ping_seats())

    async def _ping_seats(self) -> None:
        """Ping every seat of every room every PING_S, all the time (net.latency
        holds on it), a slice of the rooms at a time: pinging them all at once
        would bring every pong back at once, and a key arriving behind that
        burst would wait for it (benchmarks/scale.py measured it). Its own
        wake-ups measure how late the host's loop runs (`loop_lag`)."""
        loop = asyncio.get_running_loop()
        step = PING_S / PING_SLICES
        k = 0
        while True:
            self.loop_lag.expect(loop.time() + step)
            await asyncio.sleep(step)
            self.loop_lag.woke(loop.time())
            k = (k + 1) % PING_SLICES
            self._ping_slice(k, loop.time())
            if k == 0:
                self._sweep(loop.time())

    def _ping_slice(self, k: int, now: float) -> None:
        """Ping slice `k` of the rooms (its own frame: a room ended since is not
        kept alive by this loop's last variable)."""
        for i, room in enumerate(list(self.lobby.rooms.values())):
            if i % PING_SLICES == k:
                room.ping(now)

    def new_room(self) -> Room:
        return self.lobby.new_room()

    def _start_room(self, room: Room) -> None:
        ticker = Ticker(asyncio.get_running_loop(), partial(self._run_room, room))
        room.poke = ticker.poke
        room.on_seats = partial(self._seats_changed, room)
        room.loop_late = self.loop_lag.late_s
        room.on_takeover = partial(self._take_over, room)
        if self.history is not None:
            from spit_tui.store.history import Seating

            self.history.attach(room.table, lambda: Seating(*room.seating()))
        self._tickers[room.code] = ticker
        ticker.poke()
        room.played_at = asyncio.get_running_loop().time()
        room.table.subscribe(Subscription(on_decision=partial(self._played, room)))

    @staticmethod
    def _played(room: Room, d: Decision) -> None:
        if d.source == "key" and d.outcome is Outcome.APPLIED:
            room.played_at = asyncio.get_running_loop().time()

    def _sweep(self, now: float) -> None:
        """Stop each room made over the wire in which no card was played for
        `limits.no_play_s` (sitting in it, or pinging from it, is not play)."""
        quiet = self.limits.no_play_s
        for room in [r for r in self.lobby.rooms.values() if r.expires]:
            if now - room.played_at >= quiet:
                self._stop(room, f"no card played for {quiet:g} s: the room is closed")

    def _seats_changed(self, room: Room) -> None:
        """A seat came or went: a seat that dropped has `wait_s` to come back
        (the computer's seats never drop); a seat whose player left (said
        `bye`) stops a game in play at once. Once the other player was offered
        the computer for it, that player leaving stops the game."""
        dropped = any(
            s.token is not None and s.conn is None and p not in room.computers
            for p, s in room.seats.items()
        )
        timer = self._giving_up.pop(room.code, None)
        if timer is not None:
            timer.cancel()
        if room.offered is not None and room.waiting is not None:
            if all(s.conn is None for s in room.seats.values()):
                self._give_up(room)  # the player who was asked left: stop (their choice)
            return
        gone = room.left
        if gone is not None and room.seats[gone].conn is None and not room.table.game.over:
            # a player who quit is not coming back: the other is told now, not in wait_s
            self._stop(room, f"{room.table.seats.names[gone]} left the game: the game is stopped")
            return
        if dropped and not room.table.game.over:  # a played-out room goes by itself
            loop = asyncio.get_running_loop()
            self._giving_up[room.code] = loop.call_later(self.wait_s, self._give_up, room)

    def _give_up(self, room: Room, stored: list[float] | None = None) -> None:
        """A seat did not come back in time: the player still there chooses
        (the computer finishes that seat, or they stop: net.computer); with
        nobody there, or once chosen so, the game is stored as it stands and
        the room stopped. The pace offered comes from the dropped player's
        `stored` card times, read from the history in a thread first (a
        SQLite query never holds up every room on this loop)."""
        who = room.waiting or "a player"
        if room.offered is not None:  # the one asked has left since: the dropped seat is why
            who = room.table.seats.names[room.offered]
        gone = [p for p, s in room.seats.items() if s.conn is None and p not in room.computers]
        if room.offered is None and len(gone) == 1 and not room.table.game.over:
            p = gone[0]
            if stored is None and self.history is not None:
                self._read_pace(room, p)  # then here again, with what is stored
                return
            pace = pace_from(room.table, p, stored or [])
            if room.offer_takeover(p, pace.rung, pace.words(room.table.seats.names[p])):
                self._paces[room.code] = pace  # the level offered is the level that plays
                return  # the room waits for their choice (or for the seat, still)
        self._stop(room, f"{who} did not come back within {self.wait_s:g} s: the game is stopped")

    def _read_pace(self, room: Room, p: Player) -> None:
        """Read seat `p`'s player's stored card times in a thread, then offer
        (unless the room has ended, an offer was made, or they came back since)."""
        from spit_tui.players.auto import stored_reaction_times

        assert self.history is not None
        name, db = room.table.seats.names[p], str(self.history.path)

        async def read() -> None:
            stored = await asyncio.to_thread(stored_reaction_times, name, db)
            if self.lobby.rooms.get(room.code) is not room or room.offered is not None:
                return
            if any(s.conn is None and q not in room.computers for q, s in room.seats.items()):
                self._give_up(room, stored)

        task = asyncio.get_running_loop().create_task(read())
        self._reads.add(task)
        task.add_done_callback(self._reads.discard)

    def _take_over(self, room: Room, p: Player) -> None:
        """The player still there chose the computer for seat `p`: it plays
        from here at that player's pace, and the game goes on."""
        # as offered (none offered: never through the protocol) the pace of this game
        pace = self._paces.pop(room.code, None) or pace_from(room.table, p, [])
        table = room.table
        since = table.clock.now() - table.shown.started_at
        name = table.seats.names[p]
        room.seat_computer(p, SeatComputer.seat(table, p, pace.rung, since))
        table.messages.say(Player(1 - p), taken_over_words(name))
        line = f"the computer plays {name}'s seat from here: level {pace.rung}"
        self.on_notice(f"room {room.code}: {line} ({pace.words(name)})")

    def own_seat_left(self, room: Room, p: Player) -> None:
        """The host's own seat's player quit with their own key (`host
        --seat`): a leave, as a joined player's `bye` is, and the host stops
        with them (its process ends), so the room stops at once and its
        other player and watchers are told by name, with `ends` "host" (no
        lobby of this host to go back to)."""
        if self.lobby.rooms.get(room.code) is not room:
            return  # stopped already (the other left first, did not come back, ...)
        name = room.table.seats.names[p]
        what = "the room" if room.table.game.over else "the game"
        self._stop(room, f"{name} left {what} and stopped the host", "host")

    def _stop(self, room: Room, line: str, ends: str = "room") -> None:
        """Store the room's game as it stands, drop the room, tell who is there
        (seats and watchers) why, and that the room ended (`ends` "host": the
        host is stopping with it)."""
        timer = self._giving_up.pop(room.code, None)
        if timer is not None:
            timer.cancel()
        self._store(room)
        self._drop(room, line, ends)
        room.on_seats = lambda: None  # the seats leaving now start no wait
        for seat in room.seats.values():
            if seat.conn is not None:
                seat.conn.close(line, ends)
        self.on_room_stopped(room, line)

    def _store(self, room: Room) -> None:
        table = room.table
        if self.history is not None and table.game.log and not table.game.over:
            self.history.save(table)  # a finished game was stored at its end

    def _drop(
        self, room: Room, why: str = "the game has ended and its players have gone",
        ends: str = "room",
    ) -> None:
        """Forget a room, and stop its clock; its watchers are told `why`."""
        if self.lobby.rooms.get(room.code) is room:
            del self.lobby.rooms[room.code]
            self._paces.pop(room.code, None)  # an offer withdrawn, or never taken
        room.send_watchers_away(why, ends)
        if self.history is not None:
            self.history.detach(room.table)
        ticker = self._tickers.pop(room.code, None)
        if ticker is not None:
            ticker.stop()

    def _run_room(self, room: Room) -> float | None:
        """Run the room's clock: everything due runs on time, between intents;
        the seconds until its next timed event (net.ticker), None if none."""
        clock = room.table.clock
        clock.update()
        if room.table.game.over and all(s.conn is None for s in room.seats.values()):
            self._drop(room)  # the game is over and both players have gone
            return None
        return clock.wait_s()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """One connection, to its end. When the host stops, asyncio cancels what is
        still running; a connection ends quietly then (asyncio's streams on
        Python 3.11 would print the cancellation as a traceback)."""
        try:
            await self._connection(reader, writer)
        except asyncio.CancelledError:
            writer.close()

    async def _connection(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        self.connections += 1
        peer = writer.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple) and peer else ""
        why = self.addresses.admit(address)
        if why is not None:
            # Said and closed at once: lingering would hold the descriptor
            # the limit is there to keep free.
            self._notice("refused", f"refusing connections: {why}")
            with contextlib.suppress(OSError, RuntimeError):
                writer.write(encode(refused(why)))
            writer.close()
            return
        try:
            await self._admitted(reader, writer, address)
        finally:
            self.addresses.release(address)

    async def _admitted(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, address: str
    ) -> None:
        loop = asyncio.get_running_loop()
        me = asyncio.current_task()
        if me is not None:
            self._serving.add(me)
            me.add_done_callback(self._serving.discard)
        conn = StreamConn(writer)
        session = Session(self.lobby, conn, loop.time(), address)
        try:
            while not conn.closed:
                while (wait := session.wait_s(loop.time())) > 0.0:
                    await asyncio.sleep(wait)  # a stranger over its budget (net.limits)
                limit = self.handshake_s if session.room is None else self.idle_s
                deadline = loop.time() + limit
                try:
                    body = await read_frame(reader, self.frame_s, deadline)
                except TimeoutError:
                    if loop.time() - deadline > STALL_S:
                        # The host itself stood still (stopped, a laptop lid) past
                        # the limit: what the client sent meanwhile is waiting to
                        # be read, and the silence was ours. Read before judging.
                        continue
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
            writer.close()
            try:
                async with asyncio.timeout(LINGER_S + ABORT_S):
                    await writer.wait_closed()
            except (ConnectionError, OSError, TimeoutError):
                writer.transport.abort()  # the client reads nothing: cut it off

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()
        if self._pinger is not None:
            self._pinger.cancel()
        for ticker in self._tickers.values():
            ticker.stop()
        self._tickers.clear()
        for timer in self._giving_up.values():
            timer.cancel()
        self._giving_up.clear()
        for task in list(self._reads):
            task.cancel()
        for room in list(self.lobby.rooms.values()):
            room.on_seats = lambda: None
            self._store(room)
            room.send_watchers_away(STOPPING, "host")
            for seat in room.seats.values():
                if seat.conn is not None:
                    seat.conn.close(STOPPING, "host")
        if self._serving:  # let each connection finish its goodbye, not be cut off
            await asyncio.wait(list(self._serving), timeout=LINGER_S + 1.0)
        if self.server is not None:
            await self.server.wait_closed()
        if self.history is not None:
            self.history.close()
