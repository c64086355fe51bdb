"""What one more room costs the host, counted in CPU time rather than read off
a busy machine's round trips (issue 24).

    python benchmarks/room_cost.py [--rooms 20] [--seconds 60] [--json] [--profile FILE]
                                   [--memory]

`benchmarks/scale.py` measures the real thing (a host process, sockets, load
processes), but on a shared two-core machine its round trips follow the
neighbours, and even its CPU per key moves by a fifth from run to run. This
runs the host's own code for each room in one process on virtual clocks, so
the same command gives the same work: a real Lobby room (Room, two Sessions,
the Table), two expert bots whose every key goes in as the bytes of an
`intent` message through its seat's Session (decoding, checks, budgets, the
key gate, Room.submit, the holds), every view going out as the frames a
socket would be sent (seatview.WireView; counted and dropped), and each seat
pinged every PING_S and answering at once. What it leaves out is the
sockets and asyncio: `socket.send` and the stream reads, which scale.py's
profile shows beside this.

The bots cost CPU too, so the same games are played a second time by the
same bots at bare tables (no room, no session, no views): the room's cost is
the difference. Reported per room per second of play (the share of one core
one more room takes, less sockets), per key, and the messages and bytes a
room sends a second. `--memory` keeps every room alive after its play and
reports what they hold (tracemalloc: Python's own allocations, so a room's
sockets' kernel buffers are not in it), per room.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any

from spit_tui.clock import VirtualClock
from spit_tui.decision import Decision
from spit_tui.engine import Action, Game, Player
from spit_tui.keys.intent import intent_for
from spit_tui.net.latency import PING_S
from spit_tui.net.protocol import Message, encode, hello, intent
from spit_tui.net.room import Lobby, Room
from spit_tui.net.session import Session
from spit_tui.players.bot import Bot
from spit_tui.table import Table

try:  # the host's own table settings, where this version has them
    from spit_tui.net.host import DECISIONS_KEPT

    TABLE: dict[str, Any] = {"log_limit": DECISIONS_KEPT}
except ImportError:
    TABLE = {}


PING = b'{"type":"ping"'


def to_json(msg: Message) -> bytes:
    return json.dumps(msg, separators=(",", ":")).encode()


class Wire:
    """A seat's connection as a socket would be: frames counted, pings answered."""

    def __init__(self) -> None:
        self.session: Session | None = None
        self.clock: VirtualClock | None = None
        self.frames = 0
        self.bytes = 0

    def send(self, msg: Message) -> None:
        self.send_frame(encode(msg))

    def send_frame(self, data: bytes) -> None:
        self.frames += 1
        self.bytes += len(data)
        if data[4:].startswith(PING) and self.session is not None and self.clock is not None:
            ping = json.loads(data[4:])  # pings to a socket come as frames: answered alike
            self.session.receive(to_json({"type": "pong", "id": ping["id"]}), self.clock.now())

    def close(self, reason: str, ends: str | None = None) -> None:
        raise SystemExit(f"a seat was closed: {reason}")


class Keys:
    """The table as a bot sees it, except that its keys go in through its
    seat's Session as intent messages, the way a remote seat's do."""

    def __init__(self, table: Table, session: Session) -> None:
        self._table = table
        self._session = session

    def __getattr__(self, name: str) -> Any:
        return getattr(self._table, name)

    def submit(self, action: Action, source: str = "bot") -> Decision:
        key = intent_for(action)
        now = self._table.clock.now()
        self._session.wait_s(now)  # the host asks before each read
        self._session.receive(to_json(intent(str(key.row), key.slot)), now)
        return self._table.decisions[-1]


def play(rooms: int, seconds: float, through_room: bool,
         keep: list[object] | None = None) -> dict[str, float]:
    """`rooms` rooms, each played for `seconds` of game time (a new game when
    one ends); the process's CPU seconds, keys decided, frames and bytes sent.
    Each room is put in `keep`, if given, when its play ends (its bots gone)."""
    keys = frames = sent = 0
    cpu = 0.0
    for r in range(rooms):
        clock = VirtualClock()
        game_seed = 1000 + r

        def make(clock: VirtualClock = clock, seed: int = game_seed) -> Table:
            return Table(Game(seed=seed), clock, **TABLE)

        wires: list[Wire] = []
        t0 = time.process_time()
        if through_room:
            lobby = Lobby(make)
            room: Room | None = lobby.new_room()
            assert room is not None
            table = room.table
            tables: list[Any] = []
            for seat in ("left", "right"):
                wire = Wire()
                session = Session(lobby, wire, 0.0)
                wire.session, wire.clock = session, clock
                session.receive(to_json(hello(room.code, seat)), 0.0)
                wires.append(wire)
                tables.append(Keys(table, session))

            def ping(room: Room = room, clock: VirtualClock = clock) -> None:
                room.ping(clock.now())
                clock.call_later(PING_S, ping)

            ping()
        else:
            room = None
            table = make()
            tables = [table, table]
        bots = [Bot(tables[p], p, "expert", rng=random.Random(game_seed * 2 + p))
                for p in Player]
        for b in bots:
            b.attach()
        end = seconds
        while clock.now() < end:
            if table.game.over:  # the next game at the same table, as a rematch
                table.new_game(Game(seed=random.Random(clock.now()).getrandbits(63)))
            if not clock.step():
                break
            if clock.now() > end:
                break
        cpu += time.process_time() - t0
        if keep is not None:  # the room as the host holds it: the bots are the clients'
            for b in bots:
                b.detach()
            keep.append((room, table, wires))
        keys += table.decided  # every key decided (the table keeps only its last decisions)
        frames += sum(w.frames for w in wires)
        sent += sum(w.bytes for w in wires)
    return {"cpu_s": cpu, "keys": keys, "frames": frames, "bytes": sent}


def memory_per_room(rooms: int, seconds: float) -> float:
    """KiB that each of `rooms` played rooms, all kept alive, holds (tracemalloc)."""
    import gc
    import tracemalloc

    keep: list[object] = []
    play(1, 1.0, through_room=True)  # what the first room allocates once (caches, imports)
    gc.collect()
    tracemalloc.start()
    before, _ = tracemalloc.get_traced_memory()
    play(rooms, seconds, through_room=True, keep=keep)
    gc.collect()
    after, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return round((after - before) / 1024 / rooms, 1)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rooms", type=int, default=20)
    ap.add_argument("--seconds", type=float, default=60.0, help="game seconds per room")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--profile", metavar="FILE", help="profile the rooms' run (cProfile)")
    ap.add_argument("--memory", action="store_true", help="what each room holds (tracemalloc)")
    args = ap.parse_args()
    if not (1 <= args.rooms <= 1000 and 1 <= args.seconds <= 3600):
        ap.error("--rooms 1-1000, --seconds 1-3600")
    bare = play(args.rooms, args.seconds, through_room=False)
    if args.profile:
        import cProfile

        prof = cProfile.Profile()
        hosted = prof.runcall(play, args.rooms, args.seconds, True)
        prof.dump_stats(args.profile)
    else:
        hosted = play(args.rooms, args.seconds, through_room=True)
    room_s = args.rooms * args.seconds
    host_cpu = hosted["cpu_s"] - bare["cpu_s"]
    row = {
        "rooms": args.rooms,
        "game_seconds_per_room": args.seconds,
        "host_cpu_pct_per_room": round(100 * host_cpu / room_s, 4),
        "host_cpu_ms_per_key": round(1000 * host_cpu / max(1, hosted["keys"]), 4),
        "keys_per_room_s": round(hosted["keys"] / room_s, 2),
        "bare_keys_per_room_s": round(bare["keys"] / room_s, 2),
        "frames_per_room_s": round(hosted["frames"] / room_s, 2),
        "bytes_per_room_s": round(hosted["bytes"] / room_s),
        "bots_cpu_s": round(bare["cpu_s"], 3),
        "rooms_cpu_s": round(hosted["cpu_s"], 3),
    }
    if args.memory:
        row["kib_per_room"] = memory_per_room(args.rooms, args.seconds)
    print(json.dumps(row, indent=None if not args.json else 1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
