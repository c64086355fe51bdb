"""A headless seat at a remote table: connect, say hello, press keys, read views.

`Client.join` does the handshake (JoinRefused carries the host's one line);
then a reader task checks every frame from the host (protocol, then
seatview.scene_from_wire) and keeps the latest `Scene`, and a pinger measures
the round trip (the base for latency equalisation, issue 14 item 4). Anything
wrong from the host ends the client with a reason in `ended`, never an
exception in the reader. `play_as_bot` drives a client with the computer's
policy, deciding from the public view alone, as a person at that seat would.
"""

from __future__ import annotations

import asyncio
import random
from collections import deque
from dataclasses import replace
from typing import Any

from spit_tui.engine import Action, Fill, Flip, Phase, Play, Player, Ready, Slap
from spit_tui.players.bot import make_policy
from spit_tui.players.keymap import Row
from spit_tui.players.level import Level
from spit_tui.players.policy import Policy
from spit_tui.players.view import must_say_spit, play_actions
from spit_tui.scene import Scene

from .protocol import (
    Message,
    ProtocolError,
    check_host_message,
    encode,
    hello,
    intent,
    read_frame,
)
from .seatview import SEAT_NAMES, scene_from_wire

JOIN_S = 5.0  # the host must answer a hello this soon
PING_S = 2.0  # a ping this often keeps the seat alive and measures the round trip
RETRY_S = 0.1  # a bot whose press changed nothing it can see decides again after this


class JoinRefused(Exception):
    """The host would not seat us; the text is its reason (one line)."""


def key_for_action(action: Action) -> tuple[Row, int]:
    """The key (row, slot) of this seat's half that asks the table for `action`."""
    if isinstance(action, Play):
        return (Row.PILE_A if action.pile == 0 else Row.PILE_B), action.slot
    if isinstance(action, Fill):
        return Row.FILL, action.src  # the table fills the leftmost gap, as the bot assumes
    if isinstance(action, Flip):
        return Row.FLIP, action.slot
    if isinstance(action, Slap):
        return (Row.PILE_A if action.pile == 0 else Row.PILE_B), 0
    assert isinstance(action, Ready)
    return Row.PILE_A, 0  # any key of the half says "spit"


class Client:
    """One seat's connection to a host."""

    def __init__(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, welcome: Message
    ) -> None:
        self.reader = reader
        self.writer = writer
        self.seat = Player(SEAT_NAMES.index(welcome["seat"]))
        self.token: str = welcome["token"]
        self.room: str = welcome["room"]
        self.stale_s: float = welcome["stale_s"]
        self.latest: Scene | None = None
        self.heard = 0  # this connection's keys the table has decided, as of the latest view
        self.views = 0  # views received
        self.ended: str | None = None  # why the connection ended
        self.ended_by_host = False  # the host said why (rather than the line going dead)
        self.rtts: deque[float] = deque(maxlen=64)
        self._changed = asyncio.Event()
        self._pings: dict[int, float] = {}
        self._tasks = [asyncio.create_task(self._read()), asyncio.create_task(self._ping())]

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
    ) -> Client:
        """Connect and take a seat; JoinRefused (with the host's reason) or OSError.

        `local_addr` fixes our end's address and port (the fairness benchmark
        tells seats apart by port to delay them with tc netem)."""
        reader, writer = await asyncio.open_connection(host, port, local_addr=local_addr)
        try:
            writer.write(encode(hello(code, seat, token, name)))
            async with asyncio.timeout(timeout):
                body = await read_frame(reader)
            if body is None:
                raise JoinRefused("the host closed the connection")
            msg = check_host_message(body)
        except TimeoutError:
            writer.close()
            raise JoinRefused("the host did not answer") from None
        except (ProtocolError, JoinRefused) as e:
            writer.close()
            raise JoinRefused(str(e)) from None
        if msg["type"] != "welcome":
            writer.close()
            raise JoinRefused(str(msg.get("reason", "the host did not seat us")))
        return cls(reader, writer, msg)

    @staticmethod
    async def new_room(
        host: str, port: int, timeout: float = JOIN_S, kind: str = "new_room"
    ) -> str:
        """Ask the host for a new room (or, with kind "quick", a quick match's
        room); its code, or JoinRefused (the host's reason) or OSError."""
        reader, writer = await asyncio.open_connection(host, port)
        try:
            writer.write(encode({"type": kind}))
            async with asyncio.timeout(timeout):
                body = await read_frame(reader)
            if body is None:
                raise JoinRefused("the host closed the connection")
            msg = check_host_message(body)
            if msg["type"] != "room":
                raise JoinRefused(str(msg.get("reason", "the host made no room")))
            writer.write(encode({"type": "bye"}))
            return str(msg["code"])
        except TimeoutError:
            raise JoinRefused("the host did not answer") from None
        except ProtocolError as e:
            raise JoinRefused(str(e)) from None
        finally:
            writer.close()

    async def _read(self) -> None:
        try:
            while True:
                body = await read_frame(self.reader)
                if body is None:
                    self.ended = self.ended or "the host closed the connection"
                    break
                self._take(check_host_message(body))
        except ProtocolError as e:
            self.ended = f"the host sent {e}"
        except (ConnectionError, OSError):
            self.ended = "the connection to the host was lost"
        finally:
            self._tasks[1].cancel()
            self.writer.close()
            self._changed.set()

    def _take(self, msg: Message) -> None:
        kind = msg["type"]
        if kind == "view":
            self.latest = scene_from_wire(msg, self.seat, asyncio.get_running_loop().time())
            self.heard = msg["heard"]
            self.views += 1
            self._changed.set()
        elif kind == "pong":
            sent = self._pings.pop(msg["id"], None)
            if sent is not None:
                self.rtts.append(asyncio.get_running_loop().time() - sent)
        elif kind == "ping":  # the host measures our distance (latency equalisation)
            self._send({"type": "pong", "id": msg["id"]})
        elif kind in ("refused", "bye"):
            self.ended = str(msg["reason"])
            self.ended_by_host = True
        else:
            raise ProtocolError(f"a {kind} message after the welcome")

    async def _ping(self) -> None:
        loop = asyncio.get_running_loop()
        n = 0
        while True:
            await asyncio.sleep(PING_S)
            n += 1
            self._pings = {k: v for k, v in self._pings.items() if k > n - 8}
            self._pings[n] = loop.time()
            self._send({"type": "ping", "id": n})

    def _send(self, msg: Message) -> None:
        if self.ended is None and not self.writer.is_closing():
            self.writer.write(encode(msg))

    def press(self, row: Row, slot: int) -> None:
        """A key of this seat's half."""
        self._send(intent(row.value, slot))

    def rematch(self) -> None:
        """Ask for another game in this room (after game over; both must ask)."""
        self._send({"type": "rematch"})

    async def changed(self, timeout: float | None = None) -> bool:
        """Wait for a new view (or the end); False if `timeout` passed first."""
        try:
            async with asyncio.timeout(timeout):
                await self._changed.wait()
        except TimeoutError:
            return False
        self._changed.clear()
        return True

    async def close(self) -> None:
        self._send({"type": "bye"})
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self.writer.close()


def _phase_mark(scene: Scene) -> tuple[Any, ...]:
    slap = scene.pile_sizes if scene.phase is Phase.SLAP else ()
    return (scene.phase, scene.round, scene.stuck, slap)


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
        if _phase_mark(scene) != mark:
            mark, shown_at = _phase_mark(scene), loop.time()
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
                delay = max(delay, shown_at + client.stale_s + 0.02 - loop.time())
        if action is None:
            await client.changed()
            continue
        await asyncio.sleep(delay)
        client.press(*key_for_action(action))
        # The host answers every key with a view (its `heard` count): decide again
        # when the table changed, or after RETRY_S if the key changed nothing.
        before = _gist(client.latest)
        end = loop.time() + RETRY_S
        while client.ended is None and await client.changed(max(0.0, end - loop.time())):
            if _gist(client.latest) != before:
                break
    return client.latest


def _gist(scene: Scene | None) -> Scene | None:
    """A scene less what changes without a move: pings and clocks."""
    if scene is None:
        return None
    end = None if scene.countdown_end is None else 0.0
    return replace(scene, pings=None, at=0.0, game_s=0.0, round_s=0.0, countdown_end=end)
