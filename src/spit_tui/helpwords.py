"""Words the command line's --help and README both say, kept here once.

A test reads README.md and the parser's help and checks that each text below
is in both (README's line breaks aside), so the two cannot drift apart again
(README once said easy is "about 2 s a card" where the help said 2.35).
"""

from __future__ import annotations

from spit_tui.players.ladder import LADDER, LEVELS, NAMED, PLACEMENT, TOP, level_choices

DEMO = "watch two computer players; any key starts a game for two"


def level_usage() -> str:
    """The --level values for a usage line: "easy|normal|hard|expert|1-14|auto"."""
    return "|".join([*NAMED, f"1-{TOP}", "auto"])


def level_words() -> str:
    """What --level takes and does."""
    return (
        f"how good the computer is: {level_choices()} (1 the easiest; the help's "
        "computer page says what each level is like), or auto: it starts where your "
        "history puts you (a new player's level in a first game) and moves after "
        "every round to keep the game close (default normal)"
    )


def pace_words() -> str:
    """How fast the named ends of the ladder play, from the ladder itself."""
    easy, expert = LEVELS["easy"].play.mean, LEVELS["expert"].play.mean
    return f"easy about {easy:.2f} s a card, expert about {expert:.2f} s"


def react_words() -> str:
    """How fast the computer says "spit" and slaps, at the human models' rungs."""
    new, pro = PLACEMENT["new"], PLACEMENT["practised"]
    slow, quick = LADDER[new - 1].react.mean, LADDER[pro - 1].react.mean
    return (
        f"it says spit and slaps in about {slow:.2f} s at a new player's level ({new}), "
        f"{quick:.2f} s at a practised player's ({pro})"
    )


def shared() -> tuple[str, ...]:
    """Every text README and --help must both contain."""
    return (DEMO, level_words(), pace_words(), react_words())
