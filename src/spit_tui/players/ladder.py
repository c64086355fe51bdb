"""The ladder of computer levels, the two scripted human models, and where
the human models land on it.

Spit snowballs: the faster player wins the round, starts the next with fewer
cards and usually wins that too, so between two bots a few per cent of speed
decides most games. A ladder worth climbing therefore has small steps: each
rung beats the one below in about 70% of games (60-80% in 200 games, checked
by benchmarks/bots.py and a slow test). The rungs differ in card time,
overlook chance and strategy only; every rung has the same reaction time for
"spit" and slaps (a simple reaction, about the same for every person) and the
same round-to-round form (players/level.py).

The card times below were found by climbing: from rung 1, the next rung's
card time was searched until it won about 70% of 200 games against the rung
below, and so on up; then the rungs were respaced to equal steps of measured
strength (the log-odds of winning, summed up the ladder), since a search that
stops at the first 200-game result inside the band picks lucky results.
The four names of the earlier levels are points on it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from .level import Level, Samples, Timing

FORM = 0.25  # every rung's and every human model's round-to-round spread
REACT = Timing(0.5, 0.56, 0.75)  # saying "spit" and slapping, the same for every rung

# (seconds a card, most likely), found by climbing (see the module docstring)
_CARD_S = (3.5, 3.0, 2.57, 2.2, 1.883, 1.627, 1.429, 1.259, 1.045, 0.908, 0.792, 0.67, 0.577, 0.49)
NAMED = {"easy": 4, "normal": 7, "hard": 12, "expert": 14}  # name -> rung


def _policy(card_s: float) -> str:
    return "easy" if card_s >= 1.6 else "normal" if card_s >= 0.9 else "full"


def _overlook(card_s: float) -> float:
    """One play in six missed on the lowest rung, one in twenty on the top."""
    return round(0.05 + 0.07 * (card_s - 0.45) / 1.75, 3)


def _rung(n: int, card_s: float) -> Level:
    names = {r: name for name, r in NAMED.items()}
    return Level(
        name=names.get(n, f"level {n}"),
        play=Timing(round(0.82 * card_s, 3), card_s, round(1.38 * card_s, 3)),
        react=REACT,
        overlook=_overlook(card_s),
        chain=0.8,
        form=FORM,
        policy=_policy(card_s),
        rung=n,
    )


LADDER: tuple[Level, ...] = tuple(_rung(i + 1, c) for i, c in enumerate(_CARD_S))
TOP = len(LADDER)
LEVELS: dict[str, Level] = {name: LADDER[n - 1] for name, n in NAMED.items()}
LEVEL_NAMES = tuple(LEVELS)

# The two scripted people of issue 15, by their measured timings: a new player
# who still looks for the keys, and a practised one whose hands know them.
HUMANS: dict[str, Level] = {
    "new": Level(
        name="new player",
        play=Timing(1.3, 1.7, 2.3),
        react=Timing(0.55, 0.65, 0.9),
        overlook=0.15,
        form=FORM,
        policy="easy",
    ),
    "practised": Level(
        name="practised player",
        play=Timing(0.8, 1.05, 1.4),
        react=Timing(0.45, 0.52, 0.7),
        overlook=0.08,
        form=FORM,
        policy="normal",
    ),
}
# Where each human model lands: the rung it beats about half the time, as
# measured by benchmarks/bots.py (which prints the figures and says whether
# these still hold). A slow test checks both.
PLACEMENT = {"new": 4, "practised": 10}


def with_random_policy(level: Level) -> Level:
    """The same hands and eyes, choosing uniformly at random: the strategy baseline."""
    return level.replace(name=f"{level.name}/random", policy="random", rung=0)


def level_named(text: str) -> Level:
    """A level by name ("easy" ... "expert"), by rung ("1" ... str(TOP)), or
    "random" (hard's hands choosing at random)."""
    t = text.strip().lower()
    if t == "random":
        return with_random_policy(LEVELS["hard"])
    if t in LEVELS:
        return LEVELS[t]
    if t.isdigit() and 1 <= int(t) <= TOP:
        return LADDER[int(t) - 1]
    raise ValueError(f"unknown level {text!r} (choose {level_choices()})")


def level_choices() -> str:
    return f"{', '.join(LEVEL_NAMES)}, 1-{TOP}"


def describe(level: Level) -> str:
    """One line about what a level is like: its pace and how often it misses a play."""
    miss = f"misses 1 play in {round(1 / level.overlook)}" if level.overlook else "never misses"
    return f"{level.play.mean:.2f} s a card (about {level.cards_per_minute:.0f} a minute), {miss}"


def like(seconds: Sequence[float], name: str = "like you") -> Level:
    """A bot with a person's own card times (drawn from them as measured) and
    the practised model's eyes and reactions: the person, as a computer."""
    base = HUMANS["practised"]
    return base.replace(name=name, play=Samples(seconds))


def start_rung(seconds: Sequence[float] | None) -> int:
    """Where `--level auto` starts for a person with these card times.

    With no figures: where the practised model lands. Otherwise the person's
    median card time is placed between the two human models (by the log of the
    time, as the rungs are spaced) and rounded to a rung on the ladder.
    """
    if not seconds:
        return PLACEMENT["practised"]
    try:
        median = Samples(seconds).median
    except ValueError:
        return PLACEMENT["practised"]
    new_t = HUMANS["new"].play.mean
    pro_t = HUMANS["practised"].play.mean
    new_r, pro_r = PLACEMENT["new"], PLACEMENT["practised"]
    frac = (math.log(new_t) - math.log(median)) / (math.log(new_t) - math.log(pro_t))
    return max(1, min(TOP, round(new_r + frac * (pro_r - new_r))))
