"""A joined seat's life over the network: connect, feed the RemoteSeat, come back.

`NetSeat` owns the `Client` of one `spit-tui join`. It hands every view to the
RemoteSeat; when the line goes dead it says so on screen and tries again
with the seat's token (kept in memory), a few times a second apart; if the
host itself says why it ended (it is stopping, the room was given up), or the
host cannot be reached again, it ends with that one line. The token is also
kept in the user state directory per host and room (`Tokens`), so running
the same `join` command again takes the same seat back.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import json
import math
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from spit_tui.engine import Phase, Player
from spit_tui.keys.intent import Row
from spit_tui.paths import state_dir, write_whole
from spit_tui.scene import Scene
from spit_tui.userfiles import FileRefused, private_dir, read_small

from .client import Client, JoinRefused
from .protocol import Message
from .remote import RemoteSeat
from .room import Room, normal_code
from .seatproto import Ended, Offered, Recorded, SeatProtocol, Shown
from .seatview import SEAT_NAMES

if TYPE_CHECKING:
    from spit_tui.store.joined import Joined

CONNECTED_ALREADY = "connected already"  # the host still holds this seat's old line
RETRIES = 5  # tries to reconnect after the line went dead
RETRY_S = 1.0
FIGURES_S = 0.1  # how often a kept game's lines are looked for, and how many times
FIGURES_TRIES = 50
TOKENS_FILE = "seats.json"
LOCK_FILE = "seats.lock"
MAX_TOKENS = 64  # rooms remembered; the oldest are forgotten first


class Tokens:
    """Seat tokens by host and room code, and by seat (two terminals of one
    machine may sit at the same room), in one small JSON file.

    Two `join`s may write at once: each change is a read-change-write under an
    exclusive lock (`seats.lock` beside it), written whole through a temporary
    file of its own (never a shared name), so no reader sees half a file and no
    writer loses another's token. The tokens let anyone take the seat: the
    file is 0600 in a 0700 folder. Read back, the file is untrusted (a regular
    file of at most MAX_FILE_BYTES, JSON of the expected shape)."""

    MAX_FILE_BYTES = 64 * 1024

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or state_dir() / TOKENS_FILE

    @staticmethod
    def key(host: str, port: int, code: str) -> str:
        return f"{host}:{port} {normal_code(code)}"

    def _read(self) -> dict[str, Any]:
        try:
            data = json.loads(read_small(self.path, self.MAX_FILE_BYTES).decode("utf-8"))
        except (OSError, ValueError, FileRefused, RecursionError):
            return {}
        return data if isinstance(data, dict) else {}

    def get(self, key: str) -> dict[str, str]:
        """The tokens kept for this room, by seat ("left", "right")."""
        seats = self._read().get(key)
        if not isinstance(seats, dict):
            return {}
        return {
            s: t for s, t in seats.items()
            if s in SEAT_NAMES and isinstance(t, str) and t.isprintable()
        }

    def put(self, key: str, seat: str, token: str | None) -> None:
        """Remember (or, with None, forget) a seat's token; never fails the game."""
        try:
            private_dir(self.path.parent)
            fd = os.open(
                self.path.with_name(LOCK_FILE), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600
            )
        except OSError:
            return
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            data = self._read()
            seats = self.get(key)
            data.pop(key, None)
            seats.pop(seat, None)
            if token is not None:
                seats[seat] = token
            if seats:
                data[key] = seats
            data = dict(list(data.items())[-MAX_TOKENS:])
            write_whole(self.path, json.dumps(data))
        except OSError:
            pass
        finally:
            os.close(fd)  # and with it the lock


def host_words(ended: str | None) -> str:
    """The host's own line on why it ended a room, as a player reads it:
    "the host is stopping", "the host: ben left the game: the game is stopped"."""
    line = ended or "the host stopped"
    return line if line.startswith("the host") else f"the host: {line}"


class NetSeat:
    """The network side of one joined seat."""

    def __init__(
        self,
        client: Client,
        host: str,
        port: int,
        code: str,
        tokens: Tokens,
        retries: int = RETRIES,
        retry_s: float = RETRY_S,
        keep: Callable[[Joined], Callable[[], str]] | None = None,
    ) -> None:
        """`keep`: where this player's own history takes each finished game
        (its record asked of the host at game over, and checked first)."""
        self.client = client
        self.keep = keep
        self.notes: list[str] = []  # lines for after the board (a record not kept)
        # the host's line when it ended the room itself (the other left, did
        # not come back, the host is stopping, ...), not a line gone dead
        self.stopped: str | None = None
        self.host_gone = False  # and it said that it is stopping itself (HOST:PORT's host)
        self._tasks: set[asyncio.Task[None]] = set()
        self.host = host
        self.port = port
        self.code = code
        self.tokens = tokens
        self.key = Tokens.key(host, port, code)
        self.retries = retries
        self.retry_s = retry_s
        tokens.put(self.key, SEAT_NAMES[client.seat], client.token)

    @property
    def end_status(self) -> int:
        """The command's exit status once the seat has ended: 0 when the host
        ended it by its own word (the room stopped, the host stopping: not the
        player's error), 1 when it was lost, silent or broken."""
        return 0 if self.stopped is not None else 1

    def press(self, row: Row, slot: int) -> None:
        self.client.press(row, slot)

    def rematch(self) -> None:
        self.client.rematch()

    def takeover(self) -> None:
        """Enter while the host offers the dropped seat to the computer: take it."""
        self.client.takeover()

    async def run(self, table: RemoteSeat, finish: Callable[[str], None]) -> None:
        """Feed `table` until the end; then `finish(line)` says why (never raises)."""
        shown = None
        over: Scene | None = None  # the game-over scene whose record was asked for
        seen: Offered | None = None  # the host's last offer of the other seat to the computer
        while True:
            client = self.client
            while client.ended is None:
                rv = client.latest
                offered = client.offered
                if offered is not None and offered is not seen:
                    seen = offered
                    table.offer(*offered)
                if rv is not None and rv is not shown:
                    shown = rv
                    table.show(rv)
                    if rv.phase is Phase.OVER:
                        # nothing left to come back to
                        self.tokens.put(self.key, SEAT_NAMES[client.seat], None)
                        if over is None and self.keep is not None:
                            over = rv
                            client.ask_record()
                    else:
                        over = None  # a new game (a rematch)
                        if table.figures:
                            table.show_figures("")
                if client.record is not None:
                    got, client.record = client.record, None
                    if over is not None:
                        await self._take_record(got, over, table)
                await client.changed()
            if client.ended_by_host:
                self.stopped = client.ended
                self.host_gone = client.host_gone(self.host, self.port)
                finish(host_words(client.ended))
                return
            if client.end_kind != "lost":  # silent, broken or not reading: not worth a retry
                finish(self._gave_up(client))
                return
            table.connection_lost("Connection to the host lost: trying again…")
            why = await self._reconnect()
            if why is not None:
                finish(why)
                return

    async def _take_record(self, got: Recorded, seen: Scene, table: RemoteSeat) -> None:
        """Keep the host's record in our own history if it is the game this
        seat saw end; else one line, said once the board is gone. Checked on
        a thread: replaying a long record must not hold up the board."""
        from spit_tui.store.joined import check_joined

        checked = await asyncio.to_thread(check_joined, got.text, got.lost, got.play_s, seen)
        if isinstance(checked, str):
            self.notes.append(f"the host's record of the game was not kept: {checked}")
        elif self.keep is not None:
            lines = self.keep(checked)
            task = asyncio.get_running_loop().create_task(self._show_figures(lines, table))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    @staticmethod
    async def _show_figures(lines: Callable[[], str], table: RemoteSeat) -> None:
        """The game-over lines our own history gives the game just kept (the
        rating change, a best that fell), on the board while it is over."""
        for _ in range(FIGURES_TRIES):
            await asyncio.sleep(FIGURES_S)
            text = lines()
            if text:
                if table.latest is not None and table.latest.phase is Phase.OVER:
                    table.show_figures(text)
                return

    def _gave_up(self, client: Client) -> str:
        """The one line for a host this seat gives up on."""
        if client.end_kind == "silent":
            where = self._where()
            idle = client.proto.idle_s
            return f"the host at {where} has sent nothing for {idle:g} s: is it still running?"
        return client.ended or "the host stopped"

    async def _reconnect(self) -> str | None:
        """Take the seat back with its token; None when back, else the line to end with.
        "Connected already" is tried again: the host has not yet seen that our
        old line is dead (it gives the seat to the newer line, or times it out)."""
        last = "no answer"
        for _ in range(self.retries):
            await asyncio.sleep(self.retry_s)
            try:
                self.client = await Client.join(
                    *self._at(), self.code, token=self.client.token
                )
                return None
            except JoinRefused as e:
                if e.kind == "refused" and CONNECTED_ALREADY in str(e):
                    last = str(e)
                    continue
                if e.kind == "refused":
                    return f"the host would not take the seat back: {e}"
                return str(e)
            except OSError as e:
                last = e.strerror or str(e) or type(e).__name__
        return f"lost the host at {self._where()}: {last}"

    def _at(self) -> tuple[str, int]:
        """The host that holds the room: where the client was seated (another
        host than the one asked, if a directory sent it there: net.directory)."""
        return (self.client.host or self.host, self.client.port or self.port)

    def _where(self) -> str:
        host, port = self._at()
        return f"{host}:{port}"

    async def close(self, leave: bool = False) -> None:
        """Close the connection; `leave`: the player quit (Client.close)."""
        with contextlib.suppress(Exception):
            await self.client.close(leave)


class LocalSeat:
    """The host's own seat, in its own process: a shell over the same
    `SeatProtocol` a remote seat's socket feeds, with the room's messages for
    bytes: the same public view (built, then read back strictly), and keys
    into the room exactly as a remote seat's intents go."""

    def __init__(self, room: Room, seat: Player) -> None:
        self.room = room
        self.seat = seat
        self.table: RemoteSeat | None = None
        self.finish: Callable[[str], None] = lambda line: None
        self.closed = False
        self.proto = SeatProtocol(room.table.clock.now(), idle_s=math.inf)
        self.proto.seated(seat)

    def press(self, row: Row, slot: int) -> None:
        if not self.closed:
            self.proto.press(row, slot)
            self._deliver()

    def _deliver(self) -> None:
        """What the seat has to say, straight into the room: no wire."""
        for msg in self.proto.messages_to_send():
            if msg["type"] == "intent":
                self.room.submit(self.seat, Row(msg["row"]), msg["slot"])
            elif msg["type"] == "rematch":
                self.room.want_rematch(self.seat)
            elif msg["type"] == "takeover":
                self.room.take_offer(self.seat)
            elif msg["type"] == "pong":
                # No wire: answered at once, so the host measures this seat as 0 ms
                # away and holds it for the remote seat's distance (net.latency).
                # Unanswered, neither seat would ever be held.
                self.room.pong(self.seat, msg["id"], asyncio.get_running_loop().time())

    def rematch(self) -> None:
        if not self.closed:
            self.proto.rematch()
            self._deliver()

    def takeover(self) -> None:
        if not self.closed and self.table is not None and self.table.offered is not None:
            self.proto.takeover()
            self._deliver()

    def attach(self, table: RemoteSeat, finish: Callable[[str], None]) -> None:
        """Take the seat and start showing the room on `table`."""
        taken = self.room.take({"token": None, "seat": SEAT_NAMES[self.seat]})
        if isinstance(taken, str):
            finish(taken)
            return
        self.table = table
        self.finish = finish
        table.own_rtt_ms = 0  # no wire between this seat and the host
        self.room.attach(self.seat, self)

    def send(self, msg: Message) -> None:
        now = self.room.table.clock.now()
        for event in self.proto.receive_message(msg, now):
            if isinstance(event, Shown) and self.table is not None:
                self.table.show(event.scene)
            elif isinstance(event, Offered) and self.table is not None:
                self.table.offer(*event)
            elif isinstance(event, Ended):
                self.close(event.reason)
        self._deliver()

    def proven_rtt(self) -> float:
        """No wire between this seat and the host: it is 0 s away, proven."""
        return 0.0

    def close(self, reason: str, ends: str | None = None) -> None:
        if not self.closed:
            self.closed = True
            self.finish(reason)

    def leave(self) -> None:
        self.closed = True
        self.room.detach(self.seat, self)
