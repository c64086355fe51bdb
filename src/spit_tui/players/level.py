"""What makes one computer player better than another: its `Level`.

A level is a person's hands, eyes and head written down: how long a card
takes (`play`), how long saying "spit" or slapping takes (`react`), how often
a possible play goes unseen (`overlook`), how much faster a play onto its own
card comes (`chain`), how much its pace swings from round to round (`form`)
and which strategy picks among its plays (`policy`, players/policy.py).
Nothing here lets a computer do what a person could not: it still sees only
public cards and plays one card at a time (players/bot.py).

Levels are built with keywords only, so a reader never counts fields.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple, Protocol

POLICIES = ("easy", "normal", "full", "random")


class Delays(Protocol):
    """Seconds a hand takes: drawn afresh for every decision."""

    @property
    def mean(self) -> float: ...

    def draw(self, rng: random.Random) -> float: ...


class Timing(NamedTuple):
    """A triangular distribution of seconds: low, most likely, high."""

    low: float
    mode: float
    high: float

    @property
    def mean(self) -> float:
        return (self.low + self.mode + self.high) / 3

    def draw(self, rng: random.Random) -> float:
        return rng.triangular(self.low, self.high, self.mode)


class Samples:
    """A person's measured seconds per card, drawn from as they came (a bootstrap)."""

    def __init__(self, seconds: Sequence[float]) -> None:
        good = tuple(float(s) for s in seconds if 0.0 < s < 30.0)
        if not good:
            raise ValueError("no usable reaction times (each between 0 and 30 s)")
        self.seconds = good

    @property
    def mean(self) -> float:
        return sum(self.seconds) / len(self.seconds)

    @property
    def median(self) -> float:
        s = sorted(self.seconds)
        n = len(s)
        return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2

    def draw(self, rng: random.Random) -> float:
        return self.seconds[rng.randrange(len(self.seconds))]

    def __repr__(self) -> str:
        return f"Samples({len(self.seconds)} times, median {self.median:.2f} s)"


@dataclass(frozen=True, kw_only=True)
class Level:
    """How good a bot is: its hands (timings), its eyes (overlook) and its head (policy)."""

    name: str
    play: Delays  # per card played, filled or flipped
    react: Delays  # saying "spit" and slapping
    overlook: float  # chance of missing a possible action when looking
    chain: float = 0.8  # delay factor for a play onto the card it just played
    form: float = 0.0  # spread (log scale) of a pace factor drawn afresh each round
    policy: str = "full"  # "easy", "normal", "full" or "random"
    rung: int = 0  # its place on the ladder, 1 = the easiest (0: not on the ladder)

    def __post_init__(self) -> None:
        if self.policy not in POLICIES:
            raise ValueError(f"unknown policy {self.policy!r} (choose {', '.join(POLICIES)})")
        if not 0.0 <= self.overlook < 1.0 + 1e-9:
            raise ValueError(f"overlook is a chance between 0 and 1, not {self.overlook}")

    def replace(self, **changes: object) -> Level:
        """The same level with some fields changed (e.g. `overlook=0.0` for a test)."""
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]

    @property
    def cards_per_minute(self) -> float:
        """Its pace while it has a play to make: 60 s over the mean seconds a card."""
        return 60.0 / self.play.mean
