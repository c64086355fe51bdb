"""The room directory in Redis: one host's side of it (`spit-tui host --directory URL`).

Each room of the host has an entry (net.directory.Entry, JSON) at
`spit:room:CODE` with an expiry; a background task renews the entries and
writes the ones that changed (seats, watchers), about once a second, and
deletes those of rooms that ended. A host that dies stops renewing, so its
rooms leave the directory within the expiry. Codes never collide across
hosts: a host keeps a few codes claimed ahead (`SET NX`) and gives its new
rooms those; only when Redis is out of reach does a new room take a code of
its own, listed once Redis is back if no other host holds it (a Lua script
writes an entry only where none is, or where it is this host's).

Quick matches across hosts share one Redis list of codes where a player
waits: one script pops the first whose room still waits (a seat free, nobody
gone), or else queues this host's next code, and the host makes that room.

Nothing here is on a key's path: the games never wait for Redis. When Redis
does not answer, the host's own rooms play on and stay joinable by code on
this host; a cross-host join or a quick match is told UNREACHABLE; the host
says once that the directory is gone and once that it is back, and then
writes everything again and deletes what ended meanwhile. What Redis returns
is untrusted: a malformed entry is skipped with a log line.

redis-py (the `redis` extra) is imported only here, and only when a host is
given `--directory`.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import math
import re
import secrets
import time
from collections.abc import Callable
from typing import Any

from spit_tui.engine import Options

from .directory import (
    KEY,
    QUEUE,
    TTL_S,
    UNREACHABLE,
    Answer,
    Entry,
    moved,
    read_entry,
    safe_url,
)
from .protocol import Message, refused
from .redisscripts import DROP, PUT, QUICK
from .room import Lobby, Room, new_code
from .session import show

POOL = 4  # codes claimed ahead for new rooms (each is an entry to renew)
TIMEOUT_S = 1.0  # a Redis call that takes longer has failed (the directory is not reachable)
CHUNK = 200  # entries per script call
QUICK_POPS = 20  # stale codes one quick match may skip
NOTICE_S = 10.0  # a malformed entry is told at most this often
SCAN_ROUNDS = 20  # SCAN calls (500 keys each) one list of rooms to watch makes, at most
SOON_S = 0.1  # a change is written this soon (rooms made, seats come and gone), at most
_CODE = re.compile(r"[0-9a-hjkmnp-tv-z]{5}-[0-9a-hjkmnp-tv-z]{5}")

class RedisDirectory:
    """One host's entries in a shared Redis, and its questions to it (net.directory.Far)."""

    def __init__(
        self,
        url: str,
        lobby: Lobby,
        host: str,
        port: int,
        *,
        options: Options | None = None,
        ttl_s: float = TTL_S,
        timeout_s: float = TIMEOUT_S,
        notice: Callable[[str], None] = lambda line: None,
    ) -> None:
        self.url = url
        self.lobby = lobby
        self.host, self.port = host, port  # where this host's players reach it
        self.id = secrets.token_hex(8)
        self.options = options or Options()  # the host's rooms' game (a claimed code's entry)
        self.ttl_s = ttl_s
        self.renew_s = ttl_s / 3
        self.tick_s = min(1.0, self.renew_s)
        self.timeout_s = timeout_s
        self.notice = notice
        self.pool: list[str] = []  # codes claimed in Redis for the next rooms
        self.written: dict[str, tuple[tuple[Any, ...], float]] = {}  # code -> (state, when)
        self.up: bool | None = None  # None until the first answer (or failure)
        self.traffic = 0  # Redis calls made (benchmarks/directory.py reads it)
        self._forced: str | None = None
        self._made = asyncio.Event()  # a room was made or a seat moved: sync now
        self._held: set[str] = set()  # codes a quick match is queueing: not ended
        self._told: dict[str, float] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._runner: asyncio.Task[None] | None = None
        self.redis: Any = None
        lobby.far = self
        lobby.take_code = self.take_code
        made = lobby.on_new_room  # the host's (it runs the room): then hear its seats

        def hear(room: Room) -> None:
            made(room)
            seats = room.on_seats

            def changed() -> None:
                seats()
                self._made.set()  # a seat came or went: a quick match must know soon

            room.on_seats = changed

        lobby.on_new_room = hear

    # -- start, run, stop -----------------------------------------------------------

    async def start(self) -> None:
        """Connect (lazily: a Redis down now is tried again), and start renewing."""
        from redis.asyncio import Redis  # the optional extra: only with --directory
        from redis.asyncio.retry import Retry
        from redis.backoff import NoBackoff

        # No CLIENT SETINFO on connecting: a Redis far away costs a round trip per
        # command, and a lookup that opens a connection should cost one or two.
        quiet: dict[str, Any] = (
            {"driver_info": None} if "driver_info" in inspect.signature(Redis).parameters
            else {"lib_name": None, "lib_version": None}
        )  # fmt: skip
        self.redis = Redis.from_url(
            self.url, socket_timeout=self.timeout_s, socket_connect_timeout=self.timeout_s,
            retry=Retry(NoBackoff(), 0), **quiet,
        )  # fmt: skip
        self._put = self.redis.register_script(PUT)
        self._drop = self.redis.register_script(DROP)
        self._quick = self.redis.register_script(QUICK)
        await self.sync()
        self._runner = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.tick_s):
                    await self._made.wait()  # a new room, a seat come or gone: at once
            self._made.clear()
            await self.sync()
            await asyncio.sleep(SOON_S)  # however many changes come, a few syncs a second

    async def close(self) -> None:
        """Stop renewing; take this host's rooms out at once (if Redis answers)."""
        if self._runner is not None:
            self._runner.cancel()
        for task in list(self._tasks):
            task.cancel()
        if self.redis is None:
            return
        codes = [*self.written, *self.pool]
        try:
            async with asyncio.timeout(self.timeout_s):
                await self._dropping(codes)
        except Exception:
            pass  # leaving: the entries expire by themselves
        await self.redis.aclose()

    def _failed(self, e: BaseException) -> None:
        if self.up is not False:
            why = type(e).__name__ if isinstance(e, TimeoutError) else str(e)[:120]
            self.notice(
                f"the directory at {safe_url(self.url)} is not reachable ({why}): "
                "this host's games and codes go on; cross-host joins wait for it"
            )
        self.up = False

    def _answered(self) -> None:
        if self.up is False:
            n = len(self.lobby.rooms)
            self.notice(f"the directory is back: {n} room{'' if n == 1 else 's'} listed again")
            self.written = {code: (state, -math.inf) for code, (state, _) in self.written.items()}
        self.up = True

    def _tell(self, kind: str, line: str) -> None:
        """A line about what Redis returned, at most once every NOTICE_S per kind."""
        now = time.monotonic()
        if now - self._told.get(kind, -math.inf) >= NOTICE_S:
            self._told[kind] = now
            self.notice(line)

    # -- the entries ------------------------------------------------------------------

    def entry(self, room: Room | None) -> Entry:
        """A room's entry now (None: a code claimed for a room not made yet)."""
        if room is None:
            free, away, watchers, options = 2, 0, 0, self.options
        else:
            seats = room.seats.values()
            free = sum(1 for s in seats if s.token is None)
            away = sum(1 for s in seats if s.token is not None and s.conn is None)
            watchers, options = len(room.watchers), room.table.game.options
        return Entry(
            self.id, self.host, self.port, free, away, watchers,
            str(options.variant), options.target, options.manual_flip, room is not None,
            None if room is None else show(room),
        )  # fmt: skip

    async def sync(self) -> None:
        """Write what changed or is due for renewal, delete what ended, refill
        the codes claimed ahead; on failure, say so once and try next tick."""
        now = asyncio.get_running_loop().time()
        rooms: dict[str, Room | None] = {code: None for code in [*self.pool, *self._held]}
        rooms.update(self.lobby.rooms)
        due: dict[str, Entry] = {}
        states: dict[str, tuple[Any, ...]] = {}
        for code, room in rooms.items():
            e = self.entry(room)
            state = states[code] = (e.free, e.away, e.watchers, e.made, e.show)
            old = self.written.get(code)
            if old is None or old[0] != state or now - old[1] >= self.renew_s:
                due[code] = e
        gone = [code for code in self.written if code not in rooms]
        try:
            async with asyncio.timeout(self.timeout_s * 2):
                taken = await self._writing(due)
                if gone:
                    await self._dropping(gone)
                if len(self.pool) < POOL:
                    await self._claim(POOL - len(self.pool))
        except Exception as e:  # redis.RedisError, OSError, a timeout: Redis is away
            self._failed(e)
            return
        self._answered()
        for code in gone:
            self.written.pop(code, None)
        for code in due:
            self.written[code] = (states[code], now)
        for code in taken:
            self.pool = [c for c in self.pool if c != code]
            self._tell(f"taken {code}", f"room {code}: another host holds that code in the "
                       "directory: this room is not listed (it is joinable on this host)")

    async def _writing(self, due: dict[str, Entry]) -> set[str]:
        """Write `due`; the codes another host holds."""
        taken: set[str] = set()
        items = list(due.items())
        ms = str(int(self.ttl_s * 1000))
        for i in range(0, len(items), CHUNK):
            part = items[i : i + CHUNK]
            self.traffic += 1
            keys = [KEY + code for code, _ in part]
            got = await self._put(keys=keys, args=[ms, self.id, *(e.wire() for _, e in part)])
            taken |= {k.decode(errors="replace")[len(KEY) :] for k in got if isinstance(k, bytes)}
        return taken

    async def _dropping(self, codes: list[str]) -> None:
        for i in range(0, len(codes), CHUNK):
            part = codes[i : i + CHUNK]
            self.traffic += 1
            await self._drop(keys=[KEY + c for c in part], args=[self.id, QUEUE, *part])

    async def _claim(self, n: int) -> None:
        """Claim `n` fresh codes (SET NX): no other host can have them."""
        codes = [new_code() for _ in range(n)]
        blank = self.entry(None).wire()
        ms = int(self.ttl_s * 1000)
        self.traffic += 1
        async with self.redis.pipeline(transaction=False) as pipe:
            for code in codes:
                pipe.set(KEY + code, blank, nx=True, px=ms)
            got = await pipe.execute()
        now = asyncio.get_running_loop().time()
        for code, ok in zip(codes, got, strict=True):
            if ok and code not in self.lobby.rooms:
                self.pool.append(code)
                self.written[code] = ((2, 0, 0, False, None), now)

    def take_code(self) -> str:
        """The code for a new room (the host's hook: Lobby.take_code)."""
        self._made.set()
        if self._forced is not None:
            code, self._forced = self._forced, None
            return code
        return self.pool.pop(0) if self.pool else new_code()

    # -- questions from the sessions (net.directory.Far) ------------------------------

    def _spawn(self, work: Any) -> None:
        task: asyncio.Task[None] = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def find(self, code: str, answer: Answer) -> None:
        self._spawn(self._find(code, answer))

    async def _find(self, code: str, answer: Answer) -> None:
        try:
            async with asyncio.timeout(self.timeout_s):
                self.traffic += 1
                raw = await self.redis.get(KEY + code)
        except Exception as e:
            self._failed(e)
            answer(refused(UNREACHABLE))
            return
        entry = None if raw is None else read_entry(raw)
        if isinstance(entry, str):
            self._tell("entry", f"directory: skipped the entry of room {code}: {entry}")
        here = isinstance(entry, Entry) and (entry.host, entry.port) == (self.host, self.port)
        if not isinstance(entry, Entry) or entry.id == self.id or here:
            # ours and gone, or left by an earlier run of a host at this address
            answer(refused("no room with that code"))
            return
        answer(moved(entry, code))

    def quick(self, now: float, address: str, answer: Answer) -> None:
        self._spawn(self._quick_match(address, answer))

    async def _quick_match(self, address: str, answer: Answer) -> None:
        for _ in range(3):
            mine: str | None = None
            try:
                async with asyncio.timeout(self.timeout_s * 2):
                    if not self.pool:
                        await self._claim(POOL)
                    if not self.pool:
                        continue
                    mine = self.pool.pop(0)
                    self._held.add(mine)
                    self.traffic += 1
                    got = await self._quick(keys=[QUEUE], args=[KEY, mine, QUICK_POPS])
            except Exception as e:
                if mine is not None:
                    self.pool.insert(0, mine)
                self._failed(e)
                answer(refused(UNREACHABLE))
                return
            finally:
                self._held.discard(mine or "")
            assert mine is not None
            if not got:  # queued: the room is made here, with that code
                self._forced = mine
                made = self.lobby.request_room(asyncio.get_running_loop().time(), address)
                self._forced = None
                if isinstance(made, str):
                    self.pool.insert(0, mine)  # still ours; the next sync takes it off the queue
                    self._spawn(self._unqueue(mine))
                    answer(refused(made))
                else:
                    answer({"type": "room", "code": made.code})
                return
            self.pool.insert(0, mine)
            code, raw = (x.decode(errors="replace") if isinstance(x, bytes) else "" for x in got)
            entry = read_entry(raw)
            if _CODE.fullmatch(code) is None or isinstance(entry, str):
                why = entry if isinstance(entry, str) else "a malformed code"
                self._tell("queue", f"directory: skipped a quick-match entry: {why}")
                continue
            answer({"type": "room", "code": code})
            return
        answer(refused("no quick match could be found: try again"))

    def rooms(self, most: int, answer: Callable[[list[Message]], None]) -> None:
        self._spawn(self._rooms(most, answer))

    async def _rooms(self, most: int, answer: Callable[[list[Message]], None]) -> None:
        """The other hosts' rooms to watch: a bounded SCAN of the entries (a
        person opening the Watch list asks, rarely), each read as untrusted."""
        keys: list[bytes] = []
        try:
            async with asyncio.timeout(self.timeout_s):
                cursor = 0
                for _ in range(SCAN_ROUNDS):
                    self.traffic += 1
                    cursor, got = await self.redis.scan(cursor, match=KEY + "*", count=500)
                    keys += got
                    if cursor == 0:
                        break
                self.traffic += 1
                raws = await self.redis.mget(keys) if keys else []
        except Exception as e:
            self._failed(e)
            answer([])  # this host's own list only
            return
        out: list[Message] = []
        for key, raw in zip(keys, raws, strict=False):
            code = key.decode(errors="replace")[len(KEY) :] if isinstance(key, bytes) else ""
            entry = None if raw is None else read_entry(raw)
            if isinstance(entry, str):
                self._tell("entry", f"directory: skipped the entry of room {code[:20]}: {entry}")
            elif entry is not None and entry.show and entry.id != self.id and _CODE.fullmatch(code):
                out.append({**entry.show, "code": code})
                if len(out) >= most:
                    break
        answer(out)

    async def _unqueue(self, code: str) -> None:
        try:
            async with asyncio.timeout(self.timeout_s):
                await self.redis.lrem(QUEUE, 0, code)
        except Exception as e:
            self._failed(e)
