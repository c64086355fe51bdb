"""What one client address, and all strangers together, may take from a host.

A room code keeps strangers out of a game, but not off the host: with no
code at all, a client can make rooms, sit in them, open connections and send
messages. Each of those is bounded here per client address, and the host
keeps a share of everything for the players it is really there for:

- connections: at most `connections_per_address` open from one address, and
  never more than the descriptors allow less a reserve (`max_connections`),
  so the host can always accept, say no in one line, and close;
- rooms: `new_room` is rate-limited per address (a bucket each, so one
  address asking fast does not deny others), at most `rooms_per_address`
  live rooms made by one address, and the last `reserve_share` of the host's
  rooms only for addresses that hold none;
- play: a room made over the wire with no card played for `no_play_s` is
  stopped (sitting in it, or pinging from it, is not play);
- traffic: every message from a *stranger* (a connection with no seat, or
  a seat in a room that is not playing) is charged three times: to its
  connection (`stranger_conn_*`: a waiting seat sends about 3 a second), to
  its address (`stranger_address_*`: reconnecting starts no fresh budget)
  and to all strangers together (`stranger_*`). Over any of them the host
  reads nothing more from that connection until the budget refills, so a
  flood is paced by its own socket's buffers at no cost to the host (closing
  it would only bring it back on a new connection, which costs more).
  Seated players in playing rooms are never charged, so a flood of
  strangers cannot raise their latency.

Sans-I/O: every time is handed in.
"""

from __future__ import annotations

import resource
from collections import Counter
from dataclasses import dataclass, replace

FD_RESERVE = 32  # descriptors kept free: accept, answer, close; history; logs
PLAYING_S = 60.0  # a full room with a card played this recently is playing


class Bucket:
    """A token bucket: `take(now)` is False when the sender is over the rate."""

    def __init__(self, rate: float, burst: float, now: float = 0.0) -> None:
        self.rate = rate
        self.burst = burst
        self.level = burst
        self.last = now

    def take(self, now: float) -> bool:
        self.level = min(self.burst, self.level + max(0.0, now - self.last) * self.rate)
        self.last = max(self.last, now)
        if self.level < 1.0:
            return False
        self.level -= 1.0
        return True

    def wait_s(self, now: float) -> float:
        """Seconds until `take` would succeed (0.0: now)."""
        level = min(self.burst, self.level + max(0.0, now - self.last) * self.rate)
        return 0.0 if level >= 1.0 else (1.0 - level) / self.rate

    def full(self, now: float) -> bool:
        return self.level + max(0.0, now - self.last) * self.rate >= self.burst


@dataclass(frozen=True)
class Limits:
    """The host's limits (tests and benchmarks change them)."""

    connections_per_address: int = 32
    max_connections: int | None = None  # None: the descriptor limit less FD_RESERVE
    rooms_per_address: int = 8
    new_room_rate: float = 0.2  # rooms a second one address may make, on average
    new_room_burst: float = 5.0
    reserve_share: float = 0.1  # of max_rooms, kept for addresses holding no room
    no_play_s: float = 600.0
    stranger_rate: float = 1000.0  # messages a second from all strangers together
    stranger_burst: float = 2000.0
    stranger_conn_rate: float = 10.0  # and from one stranger (a waiting seat sends ~3)
    stranger_conn_burst: float = 20.0
    stranger_address_rate: float = 30.0  # and from all strangers at one address
    stranger_address_burst: float = 60.0

    @staticmethod
    def relayed() -> Limits:
        """For a host whose clients all come through a door on this machine
        (ssh-serve: every guest's game connects from 127.0.0.1), which counts
        sessions per real address itself: no per-address limit here, the
        host-wide ones as they are."""
        big = 10**9
        return replace(Limits(), connections_per_address=big, rooms_per_address=big,
                       new_room_rate=1e9, new_room_burst=1e9, reserve_share=0.0,
                       stranger_address_rate=1e9, stranger_address_burst=1e9)

    @staticmethod
    def open() -> Limits:
        """No limit worth the name: for a benchmark's thousand rooms from one address."""
        big = 10**9
        return Limits(big, big, big, 1e9, 1e9, 0.0, 1e9, 1e9, 1e9, 1e9, 1e9, 1e9, 1e9)


def descriptor_budget(reserve: int = FD_RESERVE) -> int:
    """How many connections the descriptor limit leaves room for."""
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return 1_000_000
    return max(1, soft - reserve)


class Addresses:
    """Open connections, per client address and in all."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.cap = (
            limits.max_connections
            if limits.max_connections is not None
            else descriptor_budget()
        )
        self.open: Counter[str] = Counter()
        self.total = 0

    def admit(self, address: str) -> str | None:
        """Count a new connection in, or say why not (it is then not counted)."""
        if self.total >= self.cap:
            return "this host is full: try again later"
        if self.open[address] >= self.limits.connections_per_address:
            return "too many connections from your address"
        self.open[address] += 1
        self.total += 1
        return None

    def release(self, address: str) -> None:
        self.total -= 1
        self.open[address] -= 1
        if self.open[address] <= 0:
            del self.open[address]


class RoomAsks:
    """Who may make a room now: a bucket per address, a cap per address, and
    the reserve for addresses with none."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.buckets: dict[str, Bucket] = {}

    def refuse(self, address: str, held: int, rooms: int, max_rooms: int,
               now: float) -> str | None:
        """Why `address`, holding `held` of the host's `rooms`, may not make one now."""
        lim = self.limits
        if held >= lim.rooms_per_address:
            return f"your address has {held} rooms open already: use one of them"
        reserved = int(max_rooms * lim.reserve_share)
        if held and rooms >= max_rooms - reserved:
            return "this host has no room for another game"
        if len(self.buckets) > 4096:  # forget full buckets (they would not refuse)
            self.buckets = {a: b for a, b in self.buckets.items() if not b.full(now)}
        bucket = self.buckets.get(address)
        if bucket is None:
            bucket = self.buckets[address] = Bucket(lim.new_room_rate, lim.new_room_burst, now)
        if not bucket.take(now):
            return "too many new rooms: try again in a moment"
        return None


class Strangers:
    """The budgets strangers' messages are charged to: per address, and all
    together (a connection's own is the Session's)."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.all = Bucket(limits.stranger_rate, limits.stranger_burst)
        self.addresses: dict[str, Bucket] = {}
        self.waits = 0  # times a stranger was made to wait

    def charge(self, own: Bucket, address: str, now: float) -> float:
        """Charge one message from a stranger at `address` (`own`: its
        connection's bucket) to all three budgets: 0.0, or, if any is empty,
        the seconds until it is not (nothing is charged then)."""
        lim = self.limits
        if len(self.addresses) > 4096:  # forget full buckets (they would not refuse)
            self.addresses = {a: b for a, b in self.addresses.items() if not b.full(now)}
        mine = self.addresses.get(address)
        if mine is None:
            mine = self.addresses[address] = Bucket(
                lim.stranger_address_rate, lim.stranger_address_burst, now
            )
        buckets = (own, mine, self.all)
        wait = max(b.wait_s(now) for b in buckets)
        if wait > 0.0:
            self.waits += 1
            return wait
        for b in buckets:
            b.take(now)
        return 0.0
