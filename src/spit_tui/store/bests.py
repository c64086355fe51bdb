"""Personal bests: per player, against anyone and against each computer rung:
the fastest win, the most cards a minute in a game, the quickest median
reaction in a game and the longest run of wins.

Worked out from the stored games (finished ones, in the order they finished),
never kept apart from them, so they cannot disagree with the history. The
game-over screen asks `fallen(conn, game_id)` which bests that game set.
"""

from __future__ import annotations

import sqlite3
from typing import NamedTuple

from spit_tui.clock import clock_text
from spit_tui.store.stored import real, whole

MIN_REACTIONS = 5  # a game's median reaction counts from this many cards on
ANYONE = 0  # the group of every game, whoever the opponent


class GameRow(NamedTuple):
    game_id: int
    won: bool
    seconds: float
    cards: int
    median_ms: int | None
    reactions: int  # how many reaction times the game's median is of
    against: int  # the opponent's rung, or ANYONE's 0 for a person


class Best(NamedTuple):
    value: float
    game_id: int


class Bests(NamedTuple):
    fastest_win: Best | None  # seconds
    cards_per_minute: Best | None
    median_reaction: Best | None  # seconds
    win_streak: Best | None  # games; game_id: the game that made it that long


_SQL = """
SELECT g.id, gp.won, g.play_seconds, gp.cards, gp.median_ms, length(gp.reactions) / 4,
       coalesce(opp.rung, 0)
FROM game_players gp
JOIN games g ON g.id = gp.game_id
JOIN game_players opp ON opp.game_id = gp.game_id AND opp.seat != gp.seat
WHERE gp.name = ? AND g.finished = 1 AND gp.won IS NOT NULL AND g.ended IS NOT NULL
ORDER BY g.ended
"""


def game_rows(conn: sqlite3.Connection, name: str) -> list[GameRow]:
    """The player's finished games, in the order they finished (a row whose
    values do not fit their columns, from a tampered file, is left out)."""
    out = []
    for g, w, s, c, m, n, a in conn.execute(_SQL, (name,)).fetchall():
        gid, won, secs, cards, against = whole(g), whole(w), real(s), whole(c), whole(a)
        if gid is None or won is None or secs is None or cards is None or against is None:
            continue
        out.append(GameRow(gid, bool(won), secs, cards, whole(m), whole(n) or 0, against))
    return out


def _better(old: Best | None, value: float, game_id: int, lower: bool) -> Best | None:
    if old is None or (value < old.value if lower else value > old.value):
        return Best(value, game_id)
    return old


def bests_of(rows: list[GameRow]) -> Bests:
    fastest = cpm = reaction = streak = None
    run = 0
    for r in rows:
        if r.won and r.seconds > 0:
            fastest = _better(fastest, r.seconds, r.game_id, lower=True)
        if r.seconds > 0:
            cpm = _better(cpm, r.cards * 60 / r.seconds, r.game_id, lower=False)
        if r.median_ms is not None and r.reactions >= MIN_REACTIONS:
            reaction = _better(reaction, r.median_ms / 1000, r.game_id, lower=True)
        run = run + 1 if r.won else 0
        if run:
            streak = _better(streak, run, r.game_id, lower=False)
    return Bests(fastest, cpm, reaction, streak)


def by_opponent(rows: list[GameRow]) -> dict[int, Bests]:
    """ANYONE's bests, then each rung played, lowest first."""
    out = {ANYONE: bests_of(rows)}
    for rung in sorted({r.against for r in rows if r.against}):
        out[rung] = bests_of([r for r in rows if r.against == rung])
    return out


def group_name(against: int) -> str:
    return "anyone" if against == ANYONE else f"level {against}"


def shown(kind: str, best: Best | None) -> str:
    if best is None:
        return "-"
    if kind == "fastest_win":
        return clock_text(best.value)
    if kind == "cards_per_minute":
        return f"{best.value:.1f} cards/min"
    if kind == "median_reaction":
        return f"{best.value:.2f} s"
    return f"{best.value:.0f} win{'' if best.value == 1 else 's'}"


def fallen(conn: sqlite3.Connection, name: str, game_id: int) -> list[str]:
    """The bests `game_id` set for `name` (it has to have been the first to
    reach them: a tie is no new best), as the game-over screen says them, e.g.
    "new best against level 7: 0:58". Only against the game's own opponent
    group (a rung; or anyone, for a game against a person)."""
    rows = game_rows(conn, name)
    this = next((r for r in rows if r.game_id == game_id), None)
    if this is None:
        return []
    group = [r for r in rows if r.against == this.against]
    upto = group[: group.index(this) + 1]  # the games that ended up to this one
    if len(upto) == 1:
        return []  # a first game sets every best: nothing to celebrate yet
    old, new = bests_of(upto[:-1]), bests_of(upto)
    where = "" if this.against == ANYONE else f" against {group_name(this.against)}"
    out = []
    for kind in Bests._fields:
        b = getattr(new, kind)
        if b is not None and b.game_id == game_id and getattr(old, kind) != b:
            out.append(f"new best{where}: {shown(kind, b)}")
    return out
