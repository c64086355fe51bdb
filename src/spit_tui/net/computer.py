"""The computer in a room's seat, on the host: for "Play the computer" from
the lobby (a room whose RIGHT seat it takes from the start), and for a seat
whose player dropped and did not come back, when the other player chooses
to finish the game against it.

It is the same `Bot` that plays at one keyboard, seated at the room's own
table: it decides from the public view, waits its rung's reaction times on
the room's clock, and submits through `Table.submit(source="bot")`, so the
engine's rules and the table's key gate (D13's stale guard, a lost race, the
spit countdown) apply to it exactly as to a key; its actions are stamped as
the computer's in the record.

A dropped player's pace: the ladder rung nearest their reaction figures
stored in the host's history (players/ladder.start_rung, the same placing as
`--level auto`); with none stored there (no history, a first game, a name
never seen), their card times in this game so far, once there are at least
`MIN_PLAYS` of them; with fewer, the rung where the new-player model lands
(`PLACEMENT["new"]`), since nearly everyone without figures is new.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

from spit_tui.engine import Player
from spit_tui.players.ladder import LADDER, PLACEMENT, TOP, start_rung

if TYPE_CHECKING:  # the host loads these when a computer first sits (join never does)
    from spit_tui.players.bot import Bot
    from spit_tui.table import Table

MIN_PLAYS = 5  # card times of this game that place a player with nothing stored


@dataclass(frozen=True)
class Pace:
    """The rung that plays like a player, and what it was measured from."""

    rung: int
    source: str  # "stored", "this game" or "none"

    def words(self, name: str) -> str:
        """How the board says it: "ana's stored pace", "a new player's pace"."""
        if self.source == "stored":
            return f"{name}'s stored pace"
        if self.source == "this game":
            return f"{name}'s pace in this game"
        return "a new player's pace: nothing stored"


def pace_of(table: Table, p: Player, name: str | None, db: str | None) -> Pace:
    """Where player `p` (called `name`) sits on the ladder, by the module doc's
    rule (this reads the history: the host does so in a thread, then `pace_from`)."""
    from spit_tui.players.auto import stored_reaction_times

    return pace_from(table, p, stored_reaction_times(name, db) if name else [])


def pace_from(table: Table, p: Player, stored: list[float]) -> Pace:
    """`pace_of` with the player's stored card times already read."""
    if stored:
        return Pace(start_rung(stored), "stored")
    times = _this_game(table, p)
    if len(times) >= MIN_PLAYS:
        return Pace(start_rung(times), "this game")
    return Pace(PLACEMENT["new"], "none")


def _this_game(table: Table, p: Player) -> list[float]:
    """Player `p`'s card times in the game so far (as the history would store them)."""
    from spit_tui.engine import Refusal
    from spit_tui.store.figures import figures
    from spit_tui.store.records import record_of

    try:
        return list(figures(record_of(table)).players[p].reactions)
    except (Refusal, ValueError):
        return []


def level_words(rung: int) -> str:
    """The computer's level as the board and the history name it."""
    return f"level {rung}"


@dataclass
class SeatComputer:
    """The computer playing one seat of a room (`since_s`: the game time it
    took over at; None: it has played the seat from the start)."""

    bot: Bot
    rung: int
    since_s: float | None = None

    @classmethod
    def seat(cls, table: Table, p: Player, rung: int, since_s: float | None = None) -> SeatComputer:
        """Seat the computer at rung `rung` (clamped to the ladder) in `p`'s chair and start it."""
        from spit_tui.players.bot import Bot

        rung = max(1, min(TOP, rung))
        bot = Bot(table, p, LADDER[rung - 1], rng=random.Random())
        bot.attach()
        return cls(bot, rung, since_s)

    def tag(self, p: Player) -> str | None:
        """The record's Takeover tag value, for a computer that took a dropped seat."""
        if self.since_s is None:
            return None
        return f"{p.letter} {self.rung} @{self.since_s:.3f}"

    def stop(self) -> None:
        self.bot.detach()



Tags = tuple[tuple[str, str], ...]
Rungs = tuple[int | None, int | None]


def computer_seating(
    table: Table, computers: dict[Player, SeatComputer]
) -> tuple[tuple[str, str], Tags, Rungs]:
    """How the host's history stores a room's game where the computer sat: a
    seat it played from the start under the computer's name and level
    ("computer (level 5)"); a seat it took over under its player's name, with
    its rung (so that player's rating does not move for a game they did not
    finish) and the record's Takeover tag saying from when the computer
    played it. The names, the record's tags, the rung per seat."""
    from spit_tui.names import computer_name
    from spit_tui.store.resume import TAKEOVER_TAG, computer_tag

    names = list(table.seats.names)
    start = {p: level_words(c.rung) for p, c in computers.items() if c.since_s is None}
    for p, words in start.items():
        names[p] = computer_name(words)
    tags = computer_tag(start)
    took = [t for p, c in sorted(computers.items()) if (t := c.tag(p)) is not None]
    if took:
        tags[TAKEOVER_TAG] = " ".join(took)
    rungs = [computers[p].rung if p in computers else None for p in Player]
    return (names[0], names[1]), tuple(tags.items()), (rungs[0], rungs[1])
