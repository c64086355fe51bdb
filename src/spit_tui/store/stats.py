"""A player's figures over the stored games: games, wins and a 95% interval,
streaks, head-to-head, speed, reactions, races, slaps, best win.

One query reads every finished game of the players asked for (two rows a game
joined to the game and to the opponent's row), and the rest is arithmetic
here, so 10,000 games take a small fraction of a second.
"""

from __future__ import annotations

import sqlite3
from array import array
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from spit_tui.sim import wilson  # the one home of the win-rate interval
from spit_tui.store import db
from spit_tui.store.rated import history_by_key
from spit_tui.store.ratings import Rating
from spit_tui.store.stored import real, text, whole

SPARK = "▁▂▃▄▅▆▇█"
LAST_N = 20


class Row(NamedTuple):
    game_id: int
    name: str
    opponent: str
    won: int  # 1 or 0
    cards: int
    slaps_won: int
    races_won: int
    races_lost: int
    seconds: float


class PlayerStats(NamedTuple):
    name: str
    games: int
    wins: int
    win_rate: float
    interval: tuple[float, float]  # Wilson 95% interval of the win rate
    streak: int  # current run of wins (0 after a loss)
    best_streak: int
    cards_per_minute: float
    median_reaction_s: float | None
    races_won: int
    races_lost: int
    slaps_won: int
    best_win_s: float | None  # the shortest game won
    last: tuple[float, ...]  # cards a minute in each of the last games, oldest first
    last_won: tuple[bool, ...]
    rating: float | None = None  # the rating now (None: never rated)
    rating_spread: float | None = None  # likely within ± this
    tier: str | None = None
    rating_last: tuple[float, ...] = ()  # the rating after each of the last rated games


def sparkline(values: Iterable[float]) -> str:
    vs = list(values)
    if not vs:
        return ""
    lo, hi = min(vs), max(vs)
    span = hi - lo or 1.0
    return "".join(SPARK[min(7, int((v - lo) / span * 8))] for v in vs)


_SQL = """
SELECT gp.game_id, gp.name, {opponent}, gp.won, gp.cards, gp.slaps_won,
       coalesce(gp.races_won, 0), coalesce(gp.races_lost, 0), g.play_seconds
FROM game_players gp
JOIN games g ON g.id = gp.game_id
{join}
WHERE g.finished = 1 AND g.set_start = 0 AND gp.won IS NOT NULL {where}
ORDER BY gp.game_id
"""
_OPPONENT = "JOIN game_players opp ON opp.game_id = gp.game_id AND opp.seat != gp.seat"


def _checked(raw: tuple[object, ...]) -> Row | None:
    """A row whose every value has its column's type (see store.stored), or None."""
    game_id, won, cards, slaps, races_won, races_lost = (
        whole(v) for v in (raw[0], *raw[3:8])
    )
    name, opponent, secs = text(raw[1]), text(raw[2]), real(raw[8])
    if (
        game_id is None or won is None or cards is None or slaps is None
        or races_won is None or races_lost is None
        or name is None or opponent is None or secs is None or secs < 0
    ):
        return None
    return Row(game_id, name, opponent, int(won != 0), cards, slaps, races_won, races_lost, secs)


def rows(
    conn: sqlite3.Connection,
    player: str | None = None,
    vs: str | None = None,
    skipped: set[int] | None = None,
) -> list[Row]:
    """Every finished game's row for `player` (or everyone), oldest first; the
    opponent's name is read only when asked for (`vs`), the one costly join.
    A row with values that do not fit is left out, its game id added to `skipped`."""
    where, args = [], []
    if player is not None:
        where.append("AND gp.name = ?")
        args.append(player)
    if vs is not None:
        where.append("AND opp.name = ?")
        args.append(vs)
    sql = _SQL.format(
        opponent="opp.name" if vs is not None else "''",
        join=_OPPONENT if vs is not None else "",
        where=" ".join(where),
    )
    out = []
    for raw in conn.execute(sql, args).fetchall():
        row = _checked(raw)
        if row is not None:
            out.append(row)
        elif skipped is not None:
            skipped.add(raw[0] if type(raw[0]) is int else -1)
    return out


def reactions_ms(conn: sqlite3.Connection, name: str, vs: str | None = None) -> array[int]:
    """Every stored reaction of `name` (against `vs`), in milliseconds."""
    sql = "SELECT gp.reactions FROM game_players gp JOIN games g ON g.id = gp.game_id"
    args: list[str] = [name]
    if vs is not None:
        sql += f" {_OPPONENT} WHERE g.set_start = 0 AND gp.name = ? AND opp.name = ?"
        args.append(vs)
    else:
        sql += " WHERE g.set_start = 0 AND gp.name = ?"
    return db.unpack_ms(b"".join(b for (b,) in conn.execute(sql, args) if type(b) is bytes))


def median_s(ms: array[int]) -> float | None:
    """The median in seconds, by counting (whole milliseconds have few distinct
    values, so this is much cheaper than sorting a million of them)."""
    n = len(ms)
    if not n:
        return None
    counts = Counter(ms)
    want = ((n - 1) // 2, n // 2)  # the middle one, or the middle two
    found: list[int] = []
    seen = 0
    for value in sorted(counts):
        seen += counts[value]
        while len(found) < 2 and seen > want[len(found)]:
            found.append(value)
        if len(found) == 2:
            break
    return (found[0] + found[1]) / 2000


def player_stats(
    name: str, games: list[Row], reaction_s: float | None, ratings: Sequence[Rating] = ()
) -> PlayerStats:
    """`games`: this player's rows, oldest first; `ratings`: after each rated game."""
    wins = sum(r.won for r in games)
    n = len(games)
    streak = best = 0
    for r in games:
        streak = streak + 1 if r.won else 0
        best = max(best, streak)
    minutes = sum(r.seconds for r in games) / 60
    cards = sum(r.cards for r in games)
    won_times = [r.seconds for r in games if r.won and r.seconds > 0]
    last = games[-LAST_N:]
    return PlayerStats(
        name=name,
        games=n,
        wins=wins,
        win_rate=wins / n if n else 0.0,
        interval=wilson(wins, n),
        streak=streak,
        best_streak=best,
        cards_per_minute=cards / minutes if minutes > 0 else 0.0,
        median_reaction_s=reaction_s,
        races_won=sum(r.races_won for r in games),
        races_lost=sum(r.races_lost for r in games),
        slaps_won=sum(r.slaps_won for r in games),
        best_win_s=min(won_times) if won_times else None,
        last=tuple(r.cards / (r.seconds / 60) if r.seconds > 0 else 0.0 for r in last),
        last_won=tuple(bool(r.won) for r in last),
        rating=ratings[-1].display if ratings else None,
        rating_spread=ratings[-1].spread if ratings else None,
        tier=ratings[-1].tier if ratings else None,
        rating_last=tuple(round(r.display, 1) for r in ratings[-LAST_N:]),
    )


def key_of_names(conn: sqlite3.Connection, player: str | None = None) -> dict[str, str]:
    """The SSH key each name last played under (games through the door are
    rated by key: the name alone proves nothing); names never seen with one
    are left out."""
    sql = "SELECT name, identity FROM game_players WHERE identity IS NOT NULL"
    found = conn.execute(
        sql + (" AND name = ?" if player is not None else "") + " ORDER BY game_id",
        () if player is None else (player,),
    ).fetchall()
    return {n: k for n, k in found if type(n) is str and type(k) is str}


def all_stats(
    conn: sqlite3.Connection,
    player: str | None = None,
    vs: str | None = None,
    skipped: set[int] | None = None,
) -> list[PlayerStats]:
    """Every player's figures (or one player's, against `vs` if given), most games
    first; the ids of damaged games left out are added to `skipped`."""
    by_name: dict[str, list[Row]] = {}
    for r in rows(conn, player, vs, skipped):
        by_name.setdefault(r.name, []).append(r)
    ratings = history_by_key(conn, player)
    keys = key_of_names(conn, player)  # a name an SSH door vouched a key for: rated by the key
    if player is not None and player in keys:
        ratings.update(history_by_key(conn, keys[player]))
    out = [
        player_stats(
            name, games, median_s(reactions_ms(conn, name, vs)),
            ratings.get(name) or ratings.get(keys.get(name, ""), []),
        )
        for name, games in by_name.items()
    ]
    return sorted(out, key=lambda s: (-s.games, s.name))
