"""What the lobby shows from a history (`spit-tui join HOST` and the SSH
door): "My stats" (a player's figures and rating) and the day's daily-deal
table of all players. On an SSH server the history is the server's (the
door gives its path to each guest's game, read only) and a guest is rated by
the key SSH checked; elsewhere it is this machine's own.

Each function opens the file read only, reads, and closes it; a missing or
damaged history is one line, never an error the lobby has to catch.
"""

from __future__ import annotations

import sqlite3
from datetime import date
from pathlib import Path

from spit_tui.clock import clock_text
from spit_tui.store import db


def _reading(path: Path) -> sqlite3.Connection | str:
    try:
        return db.connect_read(path)
    except db.HistoryError as e:
        return "No games are stored here yet." if "no history yet" in str(e) else str(e)


def my_stats_lines(path: Path, name: str | None) -> list[str]:
    """`name`'s figures over the stored games (rated by their SSH key where
    the door gave one: `stats.all_stats` finds it), a few short lines."""
    from spit_tui.store.stats import all_stats, sparkline

    if name is None:
        return ["Your games are kept under your name: this seat has none (join with --name)."]
    conn = _reading(path)
    if isinstance(conn, str):
        return [conn]
    try:
        found = all_stats(conn, name)
    except sqlite3.Error as e:
        return [db.reason(e, path)]
    finally:
        conn.close()
    if not found:
        return [f"No finished games of {name} are stored here yet."]
    s = found[0]
    lines = [
        f"{s.name}: {s.games} game{'s' if s.games != 1 else ''}, {s.wins} won"
        f" ({s.win_rate:.0%}), {s.cards_per_minute:.1f} cards a minute",
    ]
    if s.rating is not None and s.rating_spread is not None:
        lines.append(
            f"rating {s.rating:.0f} ±{s.rating_spread:.0f} ({s.tier})"
            f"  {sparkline(s.rating_last)}"
        )
    else:
        lines.append("rating: none yet (a finished game against a person or a level rates you)")
    best = "none yet" if s.best_win_s is None else clock_text(s.best_win_s)
    reaction = "-" if s.median_reaction_s is None else f"{s.median_reaction_s:.2f} s"
    lines.append(f"fastest win: {best}  ·  median reaction: {reaction}")
    lines.append(f"wins in a row: {s.streak} (best {s.best_streak})")
    return lines


def daily_lines(path: Path, today: date) -> list[str]:
    """The day's daily-deal table of all players (store.daily.day_table)."""
    from spit_tui.store.daily import day_table, table_lines

    conn = _reading(path)
    if isinstance(conn, str):
        return [conn]
    try:
        return table_lines(day_table(conn, today.isoformat()), today.isoformat())
    except sqlite3.Error as e:
        return [db.reason(e, path)]
    finally:
        conn.close()
