"""The lobby's entries of the daily deal and the history: "Today's deal" (a
room of the host's day's deal against the computer, stored in the host's
history), "My stats" (the player's own figures and rating) and "Today's
daily deals" (the day's table of all players). On
an SSH server the history is the server's (the door names it to each guest's
game, which reads it only) and a guest is rated by their SSH key; on `join
HOST` it is this machine's own. Each page reads on a worker thread
(`LinesScreen`) and comes back to the menu."""

from __future__ import annotations

from datetime import date
from functools import partial
from pathlib import Path

from textual.screen import Screen

from .linesscreen import LinesScreen
from .lobby import Choice, Entry, LobbyMode


def history_entries(path: Path, name: str | None, today: date) -> tuple[Entry, ...]:
    """Today's deal (played on the host: chosen at once), and the two pages,
    reading `path` for `name` (None: the seat has no name) and the daily deal
    of `today` (UTC, read once by the command)."""
    from spit_tui.store.lobbylines import daily_lines, my_stats_lines

    def stats(mode: LobbyMode) -> Screen[Choice | None]:
        now = mode.you.name if mode.you is not None else name  # (a name given in the lobby)
        who = f": {now}" if now else ""
        load = partial(my_stats_lines, path, now)
        return LinesScreen[Choice](f"My stats{who}", load, classes="lobby-question")

    def daily(mode: LobbyMode) -> Screen[Choice | None]:
        day = today.isoformat()
        load = partial(daily_lines, path, today)
        return LinesScreen[Choice](f"Today's daily deals ({day})", load, classes="lobby-question")

    return (
        Entry("today", "t", "Today's deal: the daily deal against the computer",
              "Today's deal: the deal everyone plays today (spit-tui daily), against the"
              " computer at the daily's level; your first finished game is your score on"
              " today's table, later ones are practice.", None),
        Entry("stats", "s", "My stats: your games, rating and best times",
              "My stats: your games here, your rating (by your SSH key on an ssh server)"
              " and its last games, your fastest win and longest run of wins.", stats),
        Entry("daily", "d", "Today's daily deals: every player's result",
              "Today's daily deals: each player's scored attempt at today's deal (spit-tui"
              " daily), winners first, then the fastest.", daily),
    )  # fmt: skip
