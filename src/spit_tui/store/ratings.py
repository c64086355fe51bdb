"""Ratings: one number (with its uncertainty) per player, from the games they
finished, on a scale where the computer's rungs are fixed points.

The model is OpenSkill's Weng-Lin (Plackett-Luce) rating, from the `openskill`
library. It keeps a mean and an uncertainty (sigma) per player and updates
both after every game, so a new player (large sigma) moves fast and a settled
one slowly, with no rating periods to batch games into (Glicko-2 wants
periods of 10-15 games each; a player here may play two games a week). It is
also a small pure-Python library, fast (about 15 microseconds a game), MIT
licensed and kept up to date, and its model takes fixed opponents directly:
a computer rung is a rating whose update we throw away.

Figures are shown on an Elo-like scale: `display` maps the mean so that a
difference of 400 points means the stronger wins 10 games to 1 (between two
settled players), and the uncertainty is shown as two sigmas ("1412 ±96").

The rungs' anchors come from the ladder's measured win rates (store/anchors.py,
made by benchmarks/anchors.py): each step up the ladder is the rating
difference that predicts the measured rate. The rung where the modelled new
player lands (players/ladder.py's PLACEMENT) sits at START, the rating every
player starts from, so a first game against it is predicted even.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import NamedTuple

from openskill.models import PlackettLuce

from spit_tui.players.ladder import LADDER, PLACEMENT
from spit_tui.store.anchors import STEPS

MODEL = PlackettLuce()  # mu 25, sigma 25/3, beta 25/6, tau 25/300: the library's defaults
MU0 = float(MODEL.mu)
SIGMA0 = float(MODEL.sigma)
ANCHOR_SIGMA = 1.0  # a rung's strength is measured over hundreds of games: nearly certain
_C = math.sqrt(2 * (MODEL.beta**2 + ANCHOR_SIGMA**2))
SCALE = 400 / (math.log(10) * _C)  # display points per unit of mean: differences read as Elo's
START = 1500  # every player's first rating, and the rung new players land on

# (lowest display rating, name): the tiers, lowest first, about two rungs
# each (with today's anchors: rung 1; 2-3; 4-5, where new players land; 6-7;
# 8-9; 10-11, where practised players land; 12-14)
TIERS: tuple[tuple[float, str], ...] = (
    (-math.inf, "Shuffler"),
    (900, "Dealer"),
    (1250, "Snapper"),
    (1600, "Quick Hands"),
    (1950, "Spitfire"),
    (2250, "Slammer"),
    (2600, "Blur"),
)


class Rating(NamedTuple):
    mu: float
    sigma: float

    @property
    def display(self) -> float:
        return START + (self.mu - MU0) * SCALE

    @property
    def spread(self) -> float:
        """Two sigmas in display points: the rating is likely within ± this."""
        return 2 * self.sigma * SCALE

    @property
    def tier(self) -> str:
        return tier_of(self.display)

    def text(self) -> str:
        """ "1412 ±96"."""
        return f"{self.display:.0f} ±{self.spread:.0f}"


NEW = Rating(MU0, SIGMA0)


def tier_of(display: float) -> str:
    name = TIERS[0][1]
    for low, tier in TIERS:
        if display >= low:
            name = tier
    return name


def from_display(display: float, sigma: float = ANCHOR_SIGMA) -> Rating:
    return Rating(MU0 + (display - START) / SCALE, sigma)


def _elo_step(rate: float) -> float:
    r = min(0.99, max(0.01, rate))
    return 400 * math.log10(r / (1 - r))


def anchors_from(steps: Iterable[tuple[int, int, int, float, float, float]]) -> dict[int, float]:
    """Display ratings per rung from each rung's measured rate against the one below."""
    rungs = {1: 0.0}
    for upper, _games, _wins, rate, _lo, _hi in sorted(steps):
        rungs[upper] = rungs[upper - 1] + _elo_step(rate)
    shift = START - rungs[PLACEMENT["new"]]
    return {n: round(v + shift, 1) for n, v in rungs.items()}


ANCHORS: dict[int, float] = anchors_from(STEPS)
RUNG_OF_LEVEL: dict[str, int] = {lv.name: lv.rung for lv in LADDER}


def anchor(rung: int) -> Rating:
    return from_display(ANCHORS[rung])


def is_computer(name: str) -> bool:
    return name.startswith("computer (") and name.endswith(")")


def rung_of(name: str) -> int | None:
    """The rung a stored computer name played at ("computer (hard)" -> 12), or
    None (a person; or `--level auto`, whose rung the writer stores itself)."""
    if not is_computer(name):
        return None
    return RUNG_OF_LEVEL.get(name[len("computer (") : -1])


def rate(a: Rating, b: Rating, a_won: bool) -> tuple[Rating, Rating]:
    """Both ratings after a game between a and b (a draw is not a game here)."""
    ra = MODEL.rating(mu=a.mu, sigma=a.sigma)
    rb = MODEL.rating(mu=b.mu, sigma=b.sigma)
    teams = [[ra], [rb]] if a_won else [[rb], [ra]]
    (w,), (lo,) = MODEL.rate(teams)
    na, nb = (w, lo) if a_won else (lo, w)
    return Rating(float(na.mu), float(na.sigma)), Rating(float(nb.mu), float(nb.sigma))


class Seat(NamedTuple):
    """One seat of a finished game, as the ratings need it."""

    key: str  # who is rated: the SSH key identity where a door gave one, else the name
    rung: int | None  # the computer's rung in this seat (None: a person)
    won: bool


def step(
    seats: tuple[Seat, Seat], current: Mapping[str, Rating]
) -> list[tuple[int, Rating, Rating]]:
    """The rating changes one finished game makes: (seat index, before, after)
    for each person in it. A computer seat is its rung's anchor and never moves."""
    before = [anchor(s.rung) if s.rung is not None else current.get(s.key, NEW) for s in seats]
    a, b = seats
    if a.won == b.won:  # no winner: nothing to learn
        return []
    after = rate(before[0], before[1], a.won)
    return [(i, before[i], after[i]) for i in (0, 1) if seats[i].rung is None]
