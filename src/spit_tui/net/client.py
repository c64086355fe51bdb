"""A headless seat at a remote table: connect, say hello, press keys, read views.

`Client` is the TCP shell over `seatproto.SeatProtocol`, which judges
everything the host sends: `Client.join` does the handshake (JoinRefused
carries one printable line), then a reader task feeds the protocol the
host's bytes and keeps the latest `Scene`, and a watch task gives it the time
(a silent host, a dripped frame). Anything wrong from the host ends the
client with a reason in `ended` and its kind in `end_kind`, never an
exception in the reader; the host's pings are answered, and the seat sends
none of its own (the host measures the round trip both ways need).
`play_as_bot` drives a client with the computer's policy, deciding from the
public view alone, as a person at that seat would.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

from spit_tui.engine import Action, Options, Phase, Ready, Slap
from spit_tui.keys.gate import earliest_reaction
from spit_tui.keys.intent import Row, intent_for
from spit_tui.players.bot import make_policy
from spit_tui.players.level import Level
from spit_tui.players.policy import Policy
from spit_tui.players.view import must_say_spit, play_actions
from spit_tui.scene import Scene

from .protocol import (
    VERSION,
    Message,
    ProtocolError,
    check_host_message,
    encode,
    first,
    older_host,
    options_to_wire,
    read_frame,
)
from .remote import phase_mark
from .seatproto import Ended, Event, Offered, Recorded, SeatProtocol, Shown, Welcomed

JOIN_S = 5.0  # the host must answer a hello this soon
READ_SIZE = 64 * 1024
# how often the seat looks at the time (a dripped frame, a silent host): under
# seatproto.STILL_S, so a tick on time counts all of its gap as the host's silence.
# Every 0.1 s this woke a seated guest's process 10 times a second, a third of its
# wake-ups and about a fifth of its CPU between keys (benchmarks/ssh_guests.py)
WATCH_S = 0.2
MAX_MOVES = 2  # `moved` answers followed in one join (a directory's host, then the room's)
RETRY_S = 0.1  # a bot whose press changed nothing it can see decides again after this


class JoinRefused(Exception):
    """The host would not seat us, or broke the protocol doing so; the text is
    one printable line (a refusal's reason passed the message check)."""

    def __init__(self, line: str, kind: str = "refused") -> None:
        super().__init__(line)
        self.kind = kind  # "refused" (the host's reason) or an Ended kind (seatproto)


class Client:
    """One seat's connection to a host: a TCP shell over `SeatProtocol`."""

    def __init__(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        proto: SeatProtocol,
        welcome: Welcomed,
        early: list[Event],
    ) -> None:
        self.reader = reader
        self.writer = writer
        self.proto = proto
        self.seat = welcome.seat
        self.token = welcome.token
        self.room = welcome.room
        self.stale_s = welcome.stale_s
        self.host, self.port = "", 0  # the host that seated us (after any `moved`)
        self.latest: Scene | None = None
        self.heard = 0  # this connection's keys the table has decided, as of the latest view
        self.views = 0  # views received
        self.ended: str | None = None  # why the connection ended
        self.end_kind: str | None = None  # seatproto.Ended.kind
        self.ends: str | None = None  # seatproto.Ended.ends: what the host's end ended
        self.record: Recorded | None = None  # the host's record of the game just over, if asked
        self.offered: Offered | None = None  # the other seat dropped: the computer may take it
        self._changed = asyncio.Event()
        self._apply(early)
        self._tasks = [asyncio.create_task(self._read()), asyncio.create_task(self._watch())]

    @property
    def ended_by_host(self) -> bool:
        """The host said why (rather than the line going dead)."""
        return self.end_kind == "host"

    def host_gone(self, host: str, port: int) -> bool:
        """The host at HOST:PORT (a lobby's) is stopping, by its own word: the
        host this client was seated at said so, and it is that one (a room on
        another host of a directory ending says nothing of the lobby's)."""
        return self.ends == "host" and (self.host or host, self.port or port) == (host, port)

    @classmethod
    async def join(
        cls,
        host: str,
        port: int,
        code: str,
        seat: str | None = None,
        token: str | None = None,
        timeout: float = JOIN_S,
        local_addr: tuple[str, int] | None = None,
        name: str | None = None,
        door: str | None = None,
    ) -> Client:
        """Connect and take a seat; JoinRefused (with the host's reason) or OSError.

        `door`: the pass an SSH door gave this guest's game (its key).
        `local_addr` fixes our end's address and port (the fairness benchmark
        tells seats apart by port to delay them with tc netem)."""

        def start(proto: SeatProtocol, moves: int) -> None:
            # a door's pass is for the door's own host: never handed to another
            proto.hello(code, seat, token, name, door if moves == 0 else None)

        return await cls._handshake(host, port, start, timeout, local_addr)

    @classmethod
    async def watch(cls, host: str, port: int, code: str, timeout: float = JOIN_S) -> Client:
        """Connect and watch room `code` (its public board, drawn as LEFT's
        side; no keys); JoinRefused (with the host's reason) or OSError."""
        return await cls._handshake(host, port, lambda proto, _: proto.watch(code), timeout)

    @classmethod
    async def _handshake(
        cls,
        host: str,
        port: int,
        start: Callable[[SeatProtocol, int], None],
        timeout: float,
        local_addr: tuple[str, int] | None = None,
    ) -> Client:
        """Connect, say what `start` makes the protocol say (told how many
        moves came before), and wait for the welcome; a host that answers
        `moved` (the room is on another host of its directory) is left for
        that one, at most MAX_MOVES times. The client's `host` and `port` are
        where it ended up."""
        loop = asyncio.get_running_loop()
        for moves in range(MAX_MOVES + 1):
            proto = SeatProtocol(loop.time())
            start(proto, moves)
            try:
                client = await cls._meet(host, port, proto, timeout, local_addr)
            except JoinRefused as e:
                if e.kind != "moved" or proto.moved is None:
                    raise
                host, port, _ = proto.moved
                continue
            client.host, client.port = host, port
            return client
        raise JoinRefused("the hosts sent this room from one to another: try again", "broke")

    @classmethod
    async def _meet(
        cls,
        host: str,
        port: int,
        proto: SeatProtocol,
        timeout: float,
        local_addr: tuple[str, int] | None = None,
    ) -> Client:
        """Connect, send what `proto` has to send, and wait for the welcome."""
        loop = asyncio.get_running_loop()
        reader, writer = await asyncio.open_connection(host, port, local_addr=local_addr)
        writer.write(proto.data_to_send())
        events: list[Event] = []
        try:
            async with asyncio.timeout(timeout):
                while not any(isinstance(e, Welcomed | Ended) for e in events):
                    data = await reader.read(READ_SIZE)
                    now = loop.time()
                    events += proto.receive_data(data, now) if data else proto.receive_eof()
        except TimeoutError:
            writer.transport.abort()
            raise JoinRefused("the host did not answer", "silent") from None
        except BaseException:
            writer.transport.abort()
            raise
        first = next(e for e in events if isinstance(e, Welcomed | Ended))
        if isinstance(first, Ended):
            writer.transport.abort()
            raise JoinRefused(first.reason, first.kind)
        return cls(reader, writer, proto, first, events[events.index(first) + 1 :])

    @staticmethod
    async def new_room(
        host: str, port: int, timeout: float = JOIN_S, kind: str = "new_room",
        options: Options | None = None, computer: int | None = None,
    ) -> str:
        """Ask the host for a new room (with its own `options`, and the
        computer at level `computer` in the RIGHT seat, if given), or with
        kind "quick" a quick match's room; its code, or JoinRefused (the
        host's reason) or OSError."""
        if kind in ("quick", "daily"):
            msg = first(kind)
        else:
            if computer is not None and options is None:
                options = Options()  # the computer rides in the options: a room of its own
            wire = None if options is None else options_to_wire(options, computer)
            msg = first("new_room", options=wire)
        return str((await Client.ask(host, port, msg, "room", timeout))["code"])

    @staticmethod
    async def rooms(host: str, port: int, timeout: float = JOIN_S) -> list[Message]:
        """The games in play on the host that may be watched (protocol 4's
        `rooms`: each checked), or JoinRefused or OSError."""
        return list((await Client.ask(host, port, first("rooms"), "rooms", timeout))["rooms"])

    @staticmethod
    async def ask(
        host: str, port: int, msg: Message, answer: str, timeout: float = JOIN_S
    ) -> Message:
        """One question on a connection of its own, and the host's checked
        answer of type `answer`; JoinRefused (the host's reason, or what it
        broke) or OSError. A host older than this client says so plainly."""
        reader, writer = await asyncio.open_connection(host, port)
        try:
            writer.write(encode(msg))
            async with asyncio.timeout(timeout):
                body = await read_frame(reader)
            if body is None:
                raise JoinRefused("the host closed the connection")
            got = check_host_message(body)
            if got["type"] == "refused":  # its reason passed the check: one printable line
                if older_host(got["reason"]):
                    raise JoinRefused(
                        f"this host speaks an older protocol than version {VERSION}: "
                        "update the host (pip install -U spit-tui)"
                    )
                raise JoinRefused(got["reason"])
            if got["type"] != answer:
                raise JoinRefused(f"the host sent a {got['type']} message, not {answer}", "broke")
            writer.write(encode({"type": "bye"}))
            return got
        except TimeoutError:
            raise JoinRefused("the host did not answer", "silent") from None
        except ProtocolError as e:
            raise JoinRefused(f"the host sent {e}", "broke") from None
        finally:
            writer.close()

    async def _read(self) -> None:
        loop = asyncio.get_running_loop()
        proto = self.proto
        try:
            while proto.ended is None:
                data = await self.reader.read(READ_SIZE)
                self._apply(proto.receive_data(data, loop.time()) if data else proto.receive_eof())
                self._flush()
        except (ConnectionError, OSError):
            self._apply(proto.connection_lost())
        finally:
            self._tasks[1].cancel()
            self.writer.transport.abort()
            self._changed.set()

    async def _watch(self) -> None:
        """Time for the protocol: a dripped frame, a silent host."""
        loop = asyncio.get_running_loop()
        proto = self.proto
        while proto.ended is None:
            await asyncio.sleep(WATCH_S)
            if loop.time() - proto.heard_at > proto.idle_s:
                # after a stop of our own, let the reader take what came first
                for _ in range(3):
                    await asyncio.sleep(0)
            self._apply(proto.tick(loop.time()))

    def _apply(self, events: list[Event]) -> None:
        for ev in events:
            if isinstance(ev, Shown):
                self.latest = ev.scene
                self.heard = ev.heard
                self.views += 1
            elif isinstance(ev, Ended):
                self.ended, self.end_kind, self.ends = ev
                self.writer.transport.abort()  # nothing more to say to this host
            elif isinstance(ev, Recorded):
                self.record = ev
            elif isinstance(ev, Offered):
                self.offered = ev
            self._changed.set()

    def _flush(self) -> None:
        data = self.proto.data_to_send()
        if data and not self.writer.is_closing():
            self.writer.write(data)
            self._apply(self.proto.unsent(self.writer.transport.get_write_buffer_size()))

    def press(self, row: Row, slot: int) -> None:
        """A key of this seat's half."""
        self.proto.press(row, slot)
        self._flush()

    def rematch(self) -> None:
        """Ask for another game in this room (after game over; both must ask)."""
        self.proto.rematch()
        self._flush()

    def ask_record(self) -> None:
        """Ask for the finished game's record (the host sends it after game over only)."""
        self.proto.ask_record()
        self._flush()
    def takeover(self) -> None:
        """The computer finishes the seat of the player who did not come back
        (what the host offered: `offered`)."""
        if self.offered is not None:
            self.offered = None
            self.proto.takeover()
            self._flush()

    def gist(self) -> object:
        """The latest view less what changes without a move (pings, clocks):
        equal gists mean nothing was played (a bot decides again on a change)."""
        return _gist(self.latest)

    async def changed(self, timeout: float | None = None) -> bool:
        """Wait for a new view (or the end); False if `timeout` passed first."""
        try:
            async with asyncio.timeout(timeout):
                await self._changed.wait()
        except TimeoutError:
            return False
        self._changed.clear()
        return True

    async def close(self, leave: bool = False) -> None:
        """End the connection as a dropped line would (the seat stays theirs
        for the host's wait, to take back), or, `leave`, with `bye`: the
        player quit, and the host stops a game in play at once."""
        if leave:
            self.proto.bye()
        self._flush()
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self.writer.close()


async def play_as_bot(
    client: Client,
    rng: random.Random,
    *,
    policy: Policy | None = None,
    think_s: tuple[float, float] = (0.001, 0.004),
    level: Level | None = None,
) -> Scene | None:
    """Play the seat to the end of the game from what the seat is shown; the last view.

    It thinks `think_s` (uniform) before each key, or, given a `level`, as long
    as that level's hands take (its play and react timings; players/ladder.py)."""
    policy = policy or make_policy(level.policy if level is not None else "full")
    loop = asyncio.get_running_loop()
    mark: tuple[Any, ...] = ()
    shown_at = loop.time()
    while client.ended is None:
        scene = client.latest
        if scene is None:
            await client.changed()
            continue
        view = scene.view(client.seat)
        if view.phase is Phase.OVER:
            return scene
        if phase_mark(scene) != mark:
            mark, shown_at = phase_mark(scene), loop.time()
        action: Action | None = None
        delay = rng.uniform(*think_s) if level is None else level.play.draw(rng)
        if scene.waiting is None:
            if view.phase is Phase.PLAY:
                candidates = play_actions(view)
                if candidates:
                    action = policy.choose(view, candidates, rng)
            elif view.phase is Phase.SPIT and must_say_spit(view):
                action = Ready(client.seat)
            elif view.phase is Phase.SLAP:
                action = policy.slap(view, rng)
            if isinstance(action, Ready | Slap):  # D13: not inside the stale-key window
                if level is not None:
                    delay = level.react.draw(rng)
                delay = max(delay, earliest_reaction(shown_at, client.stale_s) - loop.time())
        if action is None:
            await client.changed()
            continue
        await asyncio.sleep(delay)
        key = intent_for(action)
        client.press(key.row, key.slot)
        # The host answers every key with a view (its `heard` count): decide again
        # when the table changed, or after RETRY_S if the key changed nothing.
        before = client.gist()
        end = loop.time() + RETRY_S
        while client.ended is None and await client.changed(max(0.0, end - loop.time())):
            if client.gist() != before:
                break
    return client.latest


def _gist(scene: Scene | None) -> Scene | None:
    """A scene less what changes without a move: pings and clocks."""
    if scene is None:
        return None
    end = None if scene.countdown_end is None else 0.0
    return scene._replace(pings=None, at=0.0, game_s=0.0, round_s=0.0, countdown_end=end)
