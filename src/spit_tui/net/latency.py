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
`unusual`, and both players are told.

Nothing here reads a clock: every time is handed in by the caller (the
host's event loop, or a virtual clock in tests).
"""

from __future__ import annotations

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


@dataclass(slots=True)
class Rtt:
    """One seat's smoothed round trip (seconds) and its variation (the jitter)."""

    srtt: float | None = None
    rttvar: float = 0.0
    samples: int = 0
    last: float | None = None
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

    def pong(self, n: int, now: float) -> bool:
        """A pong for ping `n` arrived at `now`; False if it answers no ping of ours."""
        sent = self._sent.pop(n, None)
        if sent is None or not 0.0 <= now - sent <= RTT_MAX_S:
            return False
        self.sample(now - sent)
        return True

    def sample(self, r: float) -> None:
        self.last = r
        self.samples += 1
        if self.srtt is None:
            self.srtt, self.rttvar = r, r / 2
        else:
            self.rttvar = (1 - BETA) * self.rttvar + BETA * abs(self.srtt - r)
            self.srtt = (1 - ALPHA) * self.srtt + ALPHA * r

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


def holds(one_ways: tuple[float, float], cap: float = HOLD_CAP_S) -> tuple[float, float]:
    """How long to hold each seat: the slower seat's one-way delay less its own, capped."""
    far = max(one_ways)
    return (min(cap, far - one_ways[0]), min(cap, far - one_ways[1]))
