"""The daily deal: one deal a day, the same on every machine, against the
computer at one rung for everyone; the first finished attempt of a day is
the day's score, later ones are practice.

The deal (and the computer's luck) comes from the UTC date alone: a hash of
"spit-tui daily YYYY-MM-DD", so every player meets the same cards and the
same opponent that day. The rung is `normal` (rung 7): two rungs above where
a new player lands and three below a practised one, so a newcomer wins it on
a good day and a practised player wins most days and competes on time and
cards a minute, which the shared line shows.

Nothing here reads a clock: every function takes the day (or the moment) it
is asked about, so tests and the bots' week pass their own.
"""

from __future__ import annotations

import hashlib
import sqlite3
from datetime import UTC, date, datetime, timedelta
from typing import NamedTuple

from spit_tui.clock import clock_text
from spit_tui.store.stored import real, text, whole

LEVEL = "normal"  # rung 7, for everyone (see the module docstring)
PREFIX = "spit-tui daily"


def day_of(moment: datetime) -> date:
    """The daily deal's day at `moment` (UTC, whatever the local zone)."""
    return moment.astimezone(UTC).date() if moment.tzinfo else moment.date()


def seed_for(day: date) -> int:
    """The day's deal: the same on every machine."""
    digest = hashlib.sha256(f"{PREFIX} {day.isoformat()}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


class Attempt(NamedTuple):
    game_id: int
    day: str
    won: bool
    seconds: float
    cards: int
    rounds: int

    @property
    def cards_per_minute(self) -> float:
        return self.cards * 60 / self.seconds if self.seconds > 0 else 0.0

    def share(self) -> str:
        """The line to share: "spit-tui daily 2026-12-02 · won 2:41 · 31 cards/min · 6 rounds"."""
        how = "won" if self.won else "lost"
        rounds = f"{self.rounds} round{'s' if self.rounds != 1 else ''}"
        return (
            f"{PREFIX} {self.day} · {how} {clock_text(self.seconds)} · "
            f"{self.cards_per_minute:.0f} cards/min · {rounds}"
        )


_SQL = """
SELECT g.id, g.daily, gp.won, g.play_seconds, gp.cards, g.rounds
FROM games g JOIN game_players gp ON gp.game_id = g.id
WHERE g.daily IS NOT NULL AND g.ended IS NOT NULL AND gp.name = ? AND gp.won IS NOT NULL
{where}
ORDER BY g.ended
"""


def attempts(conn: sqlite3.Connection, name: str, day: str | None = None) -> list[Attempt]:
    """`name`'s finished daily games (of `day`, if given), in the order they finished."""
    where, args = ("AND g.daily = ?", (name, day)) if day else ("", (name,))
    out = []
    for gid, d, won, secs, cards, rounds in conn.execute(_SQL.format(where=where), args):
        values = (whole(gid), text(d), whole(won), real(secs), whole(cards), whole(rounds))
        if any(v is None for v in values):
            continue  # a tampered row is no attempt
        out.append(Attempt(gid, d, bool(won), float(secs), cards, rounds))
    return out


def scored(conn: sqlite3.Connection, name: str) -> dict[str, Attempt]:
    """Each day's scored attempt: the first one finished that day."""
    out: dict[str, Attempt] = {}
    for a in attempts(conn, name):
        out.setdefault(a.day, a)
    return out


def streak(days: set[str], today: date) -> int:
    """Days played in a row up to today (or up to yesterday, while today is
    still to play)."""
    day = today if today.isoformat() in days else today - timedelta(days=1)
    n = 0
    while day.isoformat() in days:
        n += 1
        day -= timedelta(days=1)
    return n


def practice_note(conn: sqlite3.Connection, name: str, game_id: int) -> str | None:
    """For a daily game just finished: None if it is the day's scored attempt,
    else the line that says it was practice."""
    row = conn.execute("SELECT daily FROM games WHERE id = ?", (game_id,)).fetchone()
    day = None if row is None else text(row[0])
    if day is None:
        return None
    first = scored(conn, name).get(day)
    if first is None or first.game_id == game_id:
        return None
    return f"practice: today's score stands ({'won' if first.won else 'lost'} " + (
        f"{clock_text(first.seconds)})"
    )


_DAY_SQL = """
SELECT g.id, g.daily, gp.won, g.play_seconds, gp.cards, g.rounds, gp.name,
       coalesce(gp.identity, gp.name)
FROM games g JOIN game_players gp ON gp.game_id = g.id
WHERE g.daily = ? AND g.ended IS NOT NULL AND gp.won IS NOT NULL AND gp.rung IS NULL
ORDER BY g.ended
"""


def day_table(conn: sqlite3.Connection, day: str) -> list[tuple[str, Attempt]]:
    """The day's table of all players (an SSH server's lobby shows it): each
    player's scored attempt (their first finished one; a player is their SSH
    key where the door gave one, else their name), winners first, then the
    fastest, then the most cards a minute."""
    firsts: dict[str, tuple[str, Attempt]] = {}
    for gid, d, won, secs, cards, rounds, name, key in conn.execute(_DAY_SQL, (day,)):
        values = (whole(gid), text(d), whole(won), real(secs), whole(cards), whole(rounds),
                  text(name), text(key))
        if any(v is None for v in values):
            continue  # a tampered row is no attempt
        firsts.setdefault(key, (name, Attempt(gid, d, bool(won), float(secs), cards, rounds)))
    return sorted(
        firsts.values(), key=lambda na: (not na[1].won, na[1].seconds, -na[1].cards_per_minute)
    )


def table_lines(table: list[tuple[str, Attempt]], day: str) -> list[str]:
    """The day's table as lines to show: place, name, and the shared result."""
    if not table:
        return [f"Nobody has played the daily deal of {day} yet."]
    out = [f"The daily deal of {day}: {len(table)} player{'s' if len(table) != 1 else ''}"]
    for i, (name, a) in enumerate(table, 1):
        out.append(f"{i:>3}. {name:<16} {a.share().removeprefix(f'{PREFIX} {day} · ')}")
    return out
