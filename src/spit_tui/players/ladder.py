"""The ladder of computer levels, the two scripted human models, and where
the human models land on it.

Spit snowballs: the faster player wins the round, starts the next with fewer
cards and usually wins that too, so between two bots a few per cent of speed
decides most games. A ladder worth climbing therefore has small steps: each
rung beats the one below in about 70% of games (60-80% in 200 games, checked
by benchmarks/bots.py and a slow test). The rungs differ in card time,
overlook chance and strategy, and in how fast they say "spit" and slap: a rung's reaction comes
from the two human models (a new player takes about a second to slap, a
practised one about half that), placed where those models land and spread
over the other rungs the way the card times are (by the log of the time), so
the computer at a new player's rung slaps about as fast as a new player.
Every rung has the same round-to-round form (players/level.py), which scales
its reactions as well as its card times.

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

FORM = 0.35  # every rung's and every human model's round-to-round spread
REACT_FLOOR = Timing(0.25, 0.3, 0.4)  # no rung says "spit" or slaps faster than this

# (seconds a card, most likely), found by climbing (see the module docstring)
_CARD_S = (3.5, 3.0, 2.57, 2.2, 1.883, 1.627, 1.429, 1.259, 1.045, 0.908, 0.792, 0.67, 0.577, 0.49)
NAMED = {"easy": 4, "normal": 7, "hard": 12, "expert": 14}  # name -> rung
AUTO = "auto"  # the level that follows the person (players/auto.py)


# The two scripted people of issue 15, by their measured timings: a new player
# who still looks for the keys (and takes 0.8-1.2 s to slap), and a practised
# one whose hands know them (0.35-0.6 s).
REACT_NEW = Timing(0.8, 0.95, 1.2)
REACT_PRACTISED = Timing(0.35, 0.45, 0.6)
HUMANS: dict[str, Level] = {
    "new": Level(
        name="new player",
        play=Timing(1.3, 1.7, 2.3),
        react=REACT_NEW,
        overlook=0.15,
        form=FORM,
        policy="easy",
    ),
    "practised": Level(
        name="practised player",
        play=Timing(0.8, 1.05, 1.4),
        react=REACT_PRACTISED,
        overlook=0.08,
        form=FORM,
        policy="normal",
    ),
}
# Where each human model lands: the rung it beats about half the time, as
# measured by benchmarks/bots.py (which prints the figures and says whether
# these still hold). A slow test checks both.
PLACEMENT = {"new": 5, "practised": 10}
# The median card time the history stores for each human model (store/figures:
# from the moment a card could be played to the moment it was), in games at
# its rung: what a person's own stored figures are compared with. Measured by
# benchmarks/bots.py (40 games a model), which says whether these still hold.
STORED_S = {"new": 1.62, "practised": 0.96}


def _react(rung: int) -> Timing:
    """Saying "spit" and slapping at a rung: the human models' reactions at the
    rungs they land on, spread over the ladder by the log of the time (as the
    card times are), never faster than REACT_FLOOR."""
    a, b = REACT_NEW, REACT_PRACTISED
    f = (rung - PLACEMENT["new"]) / (PLACEMENT["practised"] - PLACEMENT["new"])
    return Timing(
        *(
            round(max(lo, math.exp(math.log(x) + f * (math.log(y) - math.log(x)))), 3)
            for x, y, lo in zip(a, b, REACT_FLOOR, strict=True)
        )
    )


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
        react=_react(n),
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


def _misses(level: Level) -> str:
    return f"misses 1 play in {round(1 / level.overlook)}" if level.overlook else "never misses"


def describe(level: Level) -> str:
    """One line about what a level is like: its pace and how often it misses a play."""
    pace = f"{level.play.mean:.2f} s a card (about {level.cards_per_minute:.0f} a minute)"
    return f"{pace}, {_misses(level)}"


def describe_short(level: Level) -> str:
    """`describe` in at most 34 cells, for a list a 60-column lobby shows whole."""
    return f"{level.play.mean:.2f} s a card, {_misses(level)}"


def like(seconds: Sequence[float], name: str = "like you") -> Level:
    """A bot with a person's own card times (drawn from them as measured) and
    the practised model's eyes and reactions: the person, as a computer."""
    base = HUMANS["practised"]
    return base.replace(name=name, play=Samples(seconds))


def start_rung(seconds: Sequence[float] | None) -> int:
    """Where `--level auto` starts for a person with these stored card times.

    With no figures (a first game): where the new-player model lands, since
    nearly everyone without a history is new, and --level auto moves fast
    while the gap is large. Otherwise the person is placed the way the human
    models are: their median stored card time is set between the models' own
    stored medians (`STORED_S`, measured from the same figures the history
    keeps), by the log of the time as the rungs are spaced, and rounded to a
    rung on the ladder.
    """
    if not seconds:
        return PLACEMENT["new"]
    try:
        median = Samples(seconds).median
    except ValueError:
        return PLACEMENT["new"]
    new_t = STORED_S["new"]
    pro_t = STORED_S["practised"]
    new_r, pro_r = PLACEMENT["new"], PLACEMENT["practised"]
    frac = (math.log(new_t) - math.log(median)) / (math.log(new_t) - math.log(pro_t))
    return max(1, min(TOP, round(new_r + frac * (pro_r - new_r))))
