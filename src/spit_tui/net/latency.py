"""How far away each seat is, and how long the host holds the nearer one.

D5 says the game takes actions in the order they reach it. Across a network
that order is unfair: a press made 80 ms from the host arrives 75 ms after a
press made at the same moment 5 ms away, and loses every close race. So the
host pings each seat continuously (host-initiated, so the host's own clock
measures), smooths the round trips the way TCP does (RFC 6298: SRTT with
gain 1/8, RTTVAR with gain 1/4), and takes half the smoothed round trip as
the seat's one-way delay. Each seat's actions are then held for the
difference between the slower seat's one-way delay and its own, capped at
`HOLD_CAP_S`, so two presses made at the same moment reach the engine in the
order they were made. The same hold can be put on the views sent to the
nearer seat, so both players see a card land at the same moment (docs:
protocol.md, "Fair races").

A seat measures itself, though, and a modified client can answer pings late
on purpose: measured far away, it would have the *other* seat held, and
win every close race (issue 22: 290 ms late pongs won 100 races of 100). So
a seat's answers never decide alone what the other seat is held: the
distance a hold is built on is the smaller of what the pings measure and what
the transport proves, the lowest round trip the host's own TCP stack has
seen on that connection (its ACKs come from the client's kernel, which a
client program does not delay) plus a little slack for jitter. Where nothing
proves a distance (no TCP_INFO), a claim costs the other seat at most
UNPROVEN_HOLD_S. A seat whose pings say much more than its transport is
`unusual`, and both players are told; but not for the host's own delay: a
host whose loop runs late (a busy machine) reads every pong late, so the
lateness of its own loop (`LoopLag`) is taken off each sample before a seat
is called unusual.

Nothing here reads a clock: every time is handed in by the caller (the
host's event loop, or a virtual clock in tests).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

ALPHA = 1 / 8  # SRTT gain (RFC 6298)
BETA = 1 / 4  # RTTVAR gain
HOLD_CAP_S = 0.150  # never hold a seat longer than this, however far the other is
PING_S = 0.5  # how often the host pings each seat (SRTT settles in about 8 pings)
PING_OUTSTANDING = 16  # pings remembered while waiting for their pong
RTT_MAX_S = 5.0  # a round trip longer than this is not a sample (a stalled link)
PROOF_SLACK_S = 0.010  # round trip allowed above the transport's lowest (jitter, the client's loop)
UNPROVEN_HOLD_S = 0.040  # the most an unproven claim of distance can cost the other seat
UNUSUAL_S = 0.030  # pings this much slower (round trip) than the transport: worth telling
LAG_WINDOW_S = 1.0  # how long a lateness of the host's own loop is remembered


@dataclass(slots=True)
class Rtt:
    """One seat's smoothed round trip (seconds) and its variation (the jitter)."""

    srtt: float | None = None
    rttvar: float = 0.0
    samples: int = 0
    last: float | None = None
    excused: float = 0.0  # of srtt, smoothed alike: the host's own loop lateness (LoopLag)
    _sent: dict[int, float] = field(default_factory=dict)
    _next_id: int = 0

    def ping(self, now: float) -> int:
        """The id of a new ping sent at `now`."""
        self._next_id += 1
        n = self._next_id
        self._sent[n] = now
        if len(self._sent) > PING_OUTSTANDING:
            del self._sent[min(self._sent)]
        return n

    def pong(self, n: int, now: float, host_late: float = 0.0) -> bool:
        """A pong for ping `n` was read at `now`, by a host whose loop ran
        `host_late` seconds late then; False if it answers no ping of ours."""
        sent = self._sent.pop(n, None)
        if sent is None or not 0.0 <= now - sent <= RTT_MAX_S:
            return False
        self.sample(now - sent, host_late)
        return True

    def sample(self, r: float, host_late: float = 0.0) -> None:
        """One round trip `r`, of which at most `host_late` was the host's own delay."""
        self.last = r
        self.samples += 1
        excused = min(r, max(0.0, host_late))
        if self.srtt is None:
            self.srtt, self.rttvar, self.excused = r, r / 2, excused
        else:
            self.rttvar = (1 - BETA) * self.rttvar + BETA * abs(self.srtt - r)
            self.srtt = (1 - ALPHA) * self.srtt + ALPHA * r
            self.excused = (1 - ALPHA) * self.excused + ALPHA * excused

    @property
    def seats_own(self) -> float | None:
        """The smoothed round trip less the host's own share of it: what a seat
        may be called unusual on (None before any sample)."""
        return None if self.srtt is None else self.srtt - self.excused

    @property
    def one_way(self) -> float:
        """The seat's one-way delay: half the smoothed round trip (0 before any sample)."""
        return 0.0 if self.srtt is None else self.srtt / 2

    def ms(self) -> int | None:
        """The round trip in whole milliseconds, as a player's ping is shown."""
        return None if self.srtt is None else round(self.srtt * 1000)


def distance(claimed_rtt: float, proven_rtt: float | None) -> float:
    """The one-way delay a hold may be built on: what the pings measured
    (`claimed_rtt`), never more than the transport proves (`proven_rtt`, its
    lowest round trip), and with no proof at all, at most UNPROVEN_HOLD_S."""
    if proven_rtt is None:
        return min(claimed_rtt / 2, UNPROVEN_HOLD_S)
    return min(claimed_rtt, proven_rtt + PROOF_SLACK_S) / 2


def unusual(claimed_rtt: float, proven_rtt: float | None) -> bool:
    """Whether a seat's pings claim much more distance than its transport shows."""
    return proven_rtt is not None and claimed_rtt - proven_rtt > UNUSUAL_S


class LoopLag:
    """How late the host's own event loop runs: the lateness of its own timed
    wake-ups (the ping loop's), the worst of the last LAG_WINDOW_S, and of the
    wake-up that is overdue now. A pong that waited in the socket while the
    loop was busy elsewhere is read that much late; that is the host's delay,
    not the seat's, and no player is told it is theirs."""

    def __init__(self, window_s: float = LAG_WINDOW_S) -> None:
        self.window_s = window_s
        self._seen: deque[tuple[float, float]] = deque()  # (when, lateness)
        self._due: float | None = None

    def expect(self, due: float) -> None:
        """The loop means to wake at `due`."""
        self._due = due

    def woke(self, now: float) -> float:
        """It woke at `now`: how late that was (seconds)."""
        late = 0.0 if self._due is None else max(0.0, now - self._due)
        self._due = None
        self._seen.append((now, late))
        self._forget(now)
        return late

    def late_s(self, now: float) -> float:
        """The worst lateness of the last window, the overdue wake-up included."""
        self._forget(now)
        overdue = 0.0 if self._due is None else max(0.0, now - self._due)
        return max(overdue, max((late for _, late in self._seen), default=0.0))

    def _forget(self, now: float) -> None:
        seen = self._seen
        while seen and seen[0][0] < now - self.window_s:
            seen.popleft()


def holds(one_ways: tuple[float, float], cap: float = HOLD_CAP_S) -> tuple[float, float]:
    """How long to hold each seat: the slower seat's one-way delay less its own, capped."""
    far = max(one_ways)
    return (min(cap, far - one_ways[0]), min(cap, far - one_ways[1]))
