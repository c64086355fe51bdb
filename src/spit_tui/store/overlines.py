"""The game-over banner's lines from the history: this game's speed beside each
player's best, and what the game changed (ratings, personal bests, the daily
deal's score). Read on the writer's thread right after the finished game is
stored, so they count it; each line fits the banner (76 cells).
"""

from __future__ import annotations

import sqlite3

from spit_tui.engine import Player
from spit_tui.store import bests
from spit_tui.store.daily import practice_note
from spit_tui.store.figures import GameFigures
from spit_tui.store.ratings import Rating
from spit_tui.store.stored import real, text

LINE_W = 76
# a game begun from a position set by hand (--position, a help position, @FILE):
# stored and replayable, never counted (store/rated.py), and said so at its end
SET_POSITION = "Begun from a set position: kept, but not counted for ratings, bests or stats"


def figures_line(
    conn: sqlite3.Connection,
    game_id: int,
    fig: GameFigures,
    names: tuple[str, str],
    play_seconds: float,
    rungs: tuple[int | None, int | None] = (None, None),
) -> str:
    """This game's speed for both players beside their best before it. The
    computer at --level auto is named as the board names it, with the level it
    ended on ("auto · level 6"), though its games are kept under one name."""
    minutes = play_seconds / 60
    parts = []
    for p in Player:
        name = names[p]
        shown = _shown(name, rungs[p])
        cpm = fig.players[p].cards / minutes if minutes > 0 else 0.0
        (best,) = conn.execute(
            "SELECT max(gp.cards * 60.0 / g.play_seconds) FROM game_players gp"
            " JOIN games g ON g.id = gp.game_id"
            " WHERE gp.name = ? AND g.finished = 1 AND g.id != ? AND g.play_seconds > 0"
            " AND g.set_start = 0",  # a 3-second finish from a set position is no best
            (name, game_id),
        ).fetchone()
        if best is None:
            parts.append(f"{shown} {cpm:.0f} cards a minute")
        elif cpm > best:
            parts.append(f"{shown} new best: {cpm:.0f} cards a minute")
        else:
            parts.append(f"{shown} {cpm:.0f} cards a minute (best {best:.0f})")
    line = "  ·  ".join(parts)
    return line if len(line) <= LINE_W else line.replace(" cards a minute", "/min")


def _shown(name: str, rung: int | None) -> str:
    from spit_tui.names import computer_name
    from spit_tui.players.auto import AUTO, auto_label

    return computer_name(auto_label(rung)) if rung and name == computer_name(AUTO) else name


# what goes first when the line is too long for the banner
_SHORTER = (
    ("  ·  ", " · "), ("new best against ", "best vs "), ("new best", "best"),
    (": scored", ""), ("rating ", ""),
)  # fmt: skip


def after_line(conn: sqlite3.Connection, game_id: int, daily: str | None) -> str:
    """What the game changed: each person's rating and the personal best it
    set, e.g. "rating 1412 (+18) · new best against level 7: 0:58"; for a
    daily deal, whether it was the day's score or practice."""
    rows = conn.execute(
        "SELECT name, mu_before, sigma_before, mu, sigma FROM game_players"
        " WHERE game_id = ? ORDER BY seat",
        (game_id,),
    ).fetchall()
    people: list[tuple[str, Rating, Rating]] = []
    for name, *values in rows:
        mb, sb, mu, sigma = (real(v) for v in values)
        who = text(name)
        if who is None or mb is None or sb is None or mu is None or sigma is None:
            continue  # not rated (a computer, an unfinished game), or a tampered row
        people.append((who, Rating(mb, sb), Rating(mu, sigma)))
    parts = []
    for name, before, after in people:
        change = round(after.display) - round(before.display)
        who = "" if len(people) == 1 else f"{name} "
        fell = bests.fallen(conn, name, game_id)
        best = f" · {who}{fell[0]}" if fell else ""
        parts.append(f"{who}rating {after.display:.0f} ({change:+d}){best}")
    if daily and len(people) == 1:
        note = practice_note(conn, people[0][0], game_id)
        parts.insert(0, note or f"daily {daily}: scored")
    line = "  ·  ".join(parts)
    for long, short in _SHORTER:
        if len(line) <= LINE_W:
            break
        line = line.replace(long, short)
    return line
