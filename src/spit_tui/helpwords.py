"""Words the command line's --help and README both say, kept here once.

A test reads README.md and the parser's help and checks that each text below
is in both (README's line breaks aside), so the two cannot drift apart again
(README once said easy is "about 2 s a card" where the help said 2.35).

The ladder (the computer's levels) is loaded by the words that need it, when
they are asked for: the game's start builds its parser, but only --help reads
the --level help (`LevelHelp`).
"""

from __future__ import annotations

DEMO = "watch two computer players; any key starts a game for two"


def level_usage() -> str:
    """The --level values for a usage line: "easy|normal|hard|expert|1-14|auto"."""
    from spit_tui.players.ladder import NAMED, TOP

    return "|".join([*NAMED, f"1-{TOP}", "auto"])


def level_words() -> str:
    """What --level takes and does."""
    from spit_tui.players.ladder import level_choices

    return (
        f"how good the computer is: {level_choices()} (1 the easiest; the help's "
        "computer page says what each level is like), or auto: it starts where your "
        "history puts you (a new player's level in a first game) and moves after "
        "every round to keep the game close (default normal)"
    )


def pace_words() -> str:
    """How fast the named ends of the ladder play, from the ladder itself."""
    from spit_tui.players.ladder import LEVELS

    easy, expert = LEVELS["easy"].play.mean, LEVELS["expert"].play.mean
    return f"easy about {easy:.2f} s a card, expert about {expert:.2f} s"


def react_words() -> str:
    """How fast the computer says "spit" and slaps, at the human models' rungs."""
    from spit_tui.players.ladder import LADDER, PLACEMENT

    new, pro = PLACEMENT["new"], PLACEMENT["practised"]
    slow, quick = LADDER[new - 1].react.mean, LADDER[pro - 1].react.mean
    return (
        f"it says spit and slaps in about {slow:.2f} s at a new player's level ({new}), "
        f"{quick:.2f} s at a practised player's ({pro})"
    )


def shared() -> tuple[str, ...]:
    """Every text README and --help must both contain."""
    return (DEMO, level_words(), pace_words(), react_words())


class LevelHelp:
    """--level's help, worked out when --help prints it: argparse fills the
    option's help "%(words)s" from the option's own attributes, with str()."""

    def __str__(self) -> str:
        return f"{level_words()}; the computer plays {pace_words()}; {react_words()}"
