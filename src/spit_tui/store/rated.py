"""Ratings in the history: each finished game rated once, in the order games
finished, and every figure recomputable from the stored games alone.

A game is rated in the same transaction that stores it finished (so a game is
never rated without being stored, nor stored finished without its rating),
and only once: `games.ended` numbers the rated games, and a game that has its
number is never rated again. An unfinished game (quit, crashed, resumed but
not finished yet) has none. A seat is rated under its SSH key identity where
a door gave one, else under its name; a computer seat is its rung's fixed
anchor (store/ratings.py) and never moves. A computer seat whose rung is not
known (a name that says "computer" with no rung stored) leaves the game unrated.

`recompute` walks the rated games in their order from nobody rated, with the
same `ratings.step` the writer uses, so its figures equal the stored ones
exactly; `mismatches` says where they differ (a test, and a check after a
migration).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from typing import NamedTuple

from spit_tui.store import db
from spit_tui.store.ratings import ANCHORS, Rating, Seat, is_computer, rung_of, step
from spit_tui.store.stored import real, whole

Change = tuple[float, float, float, float]  # mu before, sigma before, mu after, sigma after


class RatedSeat(NamedTuple):
    game_id: int
    seat: str
    name: str
    key: str
    rating: Rating  # after the game


_SEATS = """
SELECT gp.game_id, gp.seat, gp.name, coalesce(gp.identity, gp.name), gp.rung, gp.won
FROM game_players gp JOIN games g ON g.id = gp.game_id
WHERE g.ended IS NOT NULL {where}
ORDER BY g.ended, gp.seat
"""


def _seats(
    rows: list[tuple[int, str, str, str, int | None, int | None]],
) -> tuple[Seat, Seat] | None:
    """A game's two seats as the ratings take them; None when it cannot be rated."""
    if len(rows) != 2 or {r[1] for r in rows} != {"L", "R"}:
        return None
    out = []
    for _gid, _seat, name, key, rung, won in rows:
        if whole(won) is None or type(name) is not str or type(key) is not str:
            return None  # no winner, or a tampered row: not rated
        if rung is not None and (whole(rung) is None or rung not in ANCHORS):
            return None
        if rung is None and is_computer(name):
            return None
        out.append(Seat(key=key, rung=rung, won=bool(won)))
    if out[0].rung is not None and out[1].rung is not None:
        return None  # the computer against itself teaches nothing
    return out[0], out[1]


def _games(
    conn: sqlite3.Connection, where: str = "", args: tuple[object, ...] = ()
) -> Iterator[tuple[int, list[tuple[int, str, str, str, int | None, int | None]]]]:
    rows = conn.execute(_SEATS.format(where=where), args).fetchall()
    i = 0
    while i < len(rows):
        j = i
        while j < len(rows) and rows[j][0] == rows[i][0]:
            j += 1
        yield int(rows[i][0]), rows[i:j]
        i = j


def current(conn: sqlite3.Connection, key: str) -> Rating | None:
    """The rating of `key` after its latest rated game, or None (never rated)."""
    row = conn.execute(
        "SELECT gp.mu, gp.sigma FROM game_players gp JOIN games g ON g.id = gp.game_id"
        " WHERE coalesce(gp.identity, gp.name) = ? AND gp.mu IS NOT NULL"
        " ORDER BY g.ended DESC LIMIT 1",
        (key,),
    ).fetchone()
    if row is None or (mu := real(row[0])) is None or (sigma := real(row[1])) is None:
        return None  # never rated (or a tampered value: start again, as a new player)
    return Rating(mu, sigma)


def rate_game(conn: sqlite3.Connection, game_id: int) -> dict[str, Change]:
    """Rate a game just stored finished (inside the caller's transaction); the
    changes by seat letter. A game already rated, not finished, or begun from a
    set position (not a fair deal: a 3-second "win" from a help position) changes
    nothing, and gets no `ended` number: bests and the daily table leave it out too."""
    row = conn.execute(
        "SELECT finished, ended, set_start FROM games WHERE id = ?", (game_id,)
    ).fetchone()
    if row is None or not row[0] or row[1] is not None or row[2]:
        return {}
    (last,) = conn.execute("SELECT max(ended) FROM games").fetchone()
    conn.execute("UPDATE games SET ended = ? WHERE id = ?", ((last or 0) + 1, game_id))
    rows = conn.execute(_SEATS.format(where="AND g.id = ?"), (game_id,)).fetchall()
    seats = _seats(rows)
    if seats is None:
        return {}
    known = {s.key: r for s in seats if s.rung is None and (r := current(conn, s.key)) is not None}
    out: dict[str, Change] = {}
    for i, before, after in step(seats, known):
        letter = rows[i][1]
        change = (before.mu, before.sigma, after.mu, after.sigma)
        conn.execute(
            "UPDATE game_players SET mu_before = ?, sigma_before = ?, mu = ?, sigma = ?"
            " WHERE game_id = ? AND seat = ?",
            (*change, game_id, letter),
        )
        out[letter] = change
    return out


def recompute(conn: sqlite3.Connection) -> dict[tuple[int, str], Change]:
    """Every rating change, worked out again from the stored games alone."""
    ratings: dict[str, Rating] = {}
    out: dict[tuple[int, str], Change] = {}
    for game_id, rows in _games(conn):
        seats = _seats(rows)
        if seats is None:
            continue
        for i, before, after in step(seats, ratings):
            ratings[seats[i].key] = after
            out[(game_id, rows[i][1])] = (before.mu, before.sigma, after.mu, after.sigma)
    return out


def stored(conn: sqlite3.Connection) -> dict[tuple[int, str], Change]:
    rows = conn.execute(
        "SELECT game_id, seat, mu_before, sigma_before, mu, sigma FROM game_players"
        " WHERE mu IS NOT NULL"
    ).fetchall()
    return {(int(g), str(s)): (mb, sb, m, sg) for g, s, mb, sb, m, sg in rows}


def mismatches(conn: sqlite3.Connection) -> list[tuple[int, str]]:
    """The seats whose stored rating is not what the stored games give."""
    again, kept = recompute(conn), stored(conn)
    return sorted(k for k in again.keys() | kept.keys() if again.get(k) != kept.get(k))


def backfill(conn: sqlite3.Connection) -> None:
    """Schema 4 on a history that has games: number the finished games in the
    order they were stored (their ids), place the computer seats on their
    rungs, each game's median reaction, and rate them all."""
    from spit_tui.store.stats import median_s

    conn.execute(
        "UPDATE games SET ended = (SELECT count(*) FROM games g2"
        " WHERE g2.finished = 1 AND g2.id <= games.id) WHERE finished = 1"
    )
    rows = conn.execute("SELECT game_id, seat, name, reactions FROM game_players").fetchall()
    for game_id, seat, name, blob in rows:
        median = median_s(db.unpack_ms(blob))
        conn.execute(
            "UPDATE game_players SET rung = ?, median_ms = ? WHERE game_id = ? AND seat = ?",
            (rung_of(name), None if median is None else round(median * 1000), game_id, seat),
        )
    rerate(conn)


def rerate(conn: sqlite3.Connection) -> None:
    """Rate every finished game again from the stored games alone (inside the
    caller's transaction): after the players' names or rungs were mended."""
    conn.execute(
        "UPDATE game_players SET mu_before = NULL, sigma_before = NULL, mu = NULL, sigma = NULL"
    )
    for (game_id, seat), change in recompute(conn).items():
        conn.execute(
            "UPDATE game_players SET mu_before = ?, sigma_before = ?, mu = ?, sigma = ?"
            " WHERE game_id = ? AND seat = ?",
            (*change, game_id, seat),
        )


def history_by_key(conn: sqlite3.Connection, name: str | None = None) -> dict[str, list[Rating]]:
    """Each rated player's ratings after each game, oldest first (one player's: `name`)."""
    sql = (
        "SELECT coalesce(gp.identity, gp.name), gp.mu, gp.sigma FROM game_players gp"
        " JOIN games g ON g.id = gp.game_id WHERE gp.mu IS NOT NULL {where} ORDER BY g.ended"
    )
    if name is None:
        rows = conn.execute(sql.format(where="")).fetchall()
    else:
        rows = conn.execute(
            sql.format(where="AND coalesce(gp.identity, gp.name) = ?"), (name,)
        ).fetchall()
    out: dict[str, list[Rating]] = {}
    for key, mu, sigma in rows:
        m, sg = real(mu), real(sigma)
        if type(key) is str and m is not None and sg is not None:  # else: a tampered row
            out.setdefault(key, []).append(Rating(m, sg))
    return out
