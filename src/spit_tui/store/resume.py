"""Resuming a game: the last one stopped before its end, as the history holds it.

A game quit in play (Ctrl+Q, Ctrl+C, a signal, a closed window) is stored
unfinished with its record and its seconds of play; a crash leaves it as it
stood at its last round end. `last_stopped` finds the newest such game whose
record still replays; `Table.resume` continues it, and the history writer
goes on writing the same row (`HistoryWriter.resume`), so a resumed and
finished game is one game in the history, with one record.

Who sat where is part of the game: a seat the computer played is kept in the
record's `Computer` tag (`[Computer "R normal"]`: the seat's letter and its
level), so a resumed game puts the computer back where it was.

A game played at a host's seats (`host`, `join`, the SSH and browser doors) is
stored with a `Room` tag (its room's code) and never offered: its players
were at other terminals, and its room is gone; it replays, as any game does.
"""

from __future__ import annotations

import re
import shlex
import sqlite3
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import NamedTuple

from spit_tui.engine import (
    NotationError,
    Phase,
    Player,
    Record,
    Refusal,
    parse_record,
    replay_record,
)
from spit_tui.store import db
from spit_tui.store.records import MAX_RECORD_BYTES
from spit_tui.store.stored import real, record_text, text, whole

COMPUTER_TAG = "Computer"
ROOM_TAG = "Room"  # the room code of a game played at a host's seats
TAKEOVER_TAG = "Takeover"  # "R 6 @83.250": seat, rung, game time in s (net.computer)
# SQL: whether a stored game was played in a host's room: its record's Room tag
# (a tag's text, a name, never holds a quote; the moves never a bracket), or,
# stored before that tag, a seat's SSH key (only a door's seat has one)
IN_ROOM = (
    f"(instr(record, '[{ROOM_TAG} \"') > 0 OR EXISTS (SELECT 1 FROM game_players p"
    " WHERE p.game_id = games.id AND p.identity IS NOT NULL))"
)
MAX_NAME = 40  # a stored name longer than this was not written by spit-tui
LOOK_BACK = 20  # unfinished games tried, newest first, for one whose record replays


class Stopped(NamedTuple):
    """A game stopped before its end, as stored."""

    game_id: int
    started: str  # ISO time (UTC) the game began
    names: tuple[str, str]
    record: Record
    play_seconds: float  # the play clock (the round clock, the game-over line)
    clock_seconds: float  # the game clock, waits for the spit included: the stamps go on from it
    lost_races: tuple[int, int]
    round: int  # the round in play when it stopped

    def computer(self) -> dict[Player, str]:
        """The seats the computer played, and its level there."""
        return computer_seats(self.record.tags)

    def when(self, now: datetime | None = None) -> str:
        """When it began, in the player's local time: "14:02", or "30 Nov 14:02"."""
        try:
            began = datetime.fromisoformat(self.started).astimezone()
        except ValueError:
            return self.started
        now = (now or datetime.now(UTC)).astimezone()
        clock = began.strftime("%H:%M")
        return clock if began.date() == now.date() else f"{began.day} {began:%b} {clock}"

    def offer(self) -> str:
        """The opening banner's line."""
        left, right = self.names
        return f"F5: resume the game of {self.when()}, round {self.round} ({left} v {right})"


def computer_tag(levels: Mapping[Player, str]) -> dict[str, str]:
    """The record tag that says where the computer sat (none: no tag)."""
    if not levels:
        return {}
    return {COMPUTER_TAG: " ".join(f"{p.letter} {levels[p]}" for p in sorted(levels))}


def computer_seats(tags: Mapping[str, str]) -> dict[Player, str]:
    """Where the computer sat and at what level, from the record's tag: "R hard",
    "L auto R 5", or a host room's "R level 5" (a level of two words)."""
    seats = {p.letter: p for p in Player}
    found = re.findall(r"(?:^| )([LR]) (level [0-9]+|[^ ]+)", tags.get(COMPUTER_TAG, ""))
    return {seats[seat]: level for seat, level in found}


def takeover_seats(tags: Mapping[str, str]) -> dict[Player, float]:
    """The seats the computer took over from a player who dropped, each with
    the game time (s) it took over at, from the record's tag: that seat's
    plays from then on are the computer's, not the player's. A part that is
    not a seat and a time is passed over (the record is untrusted)."""
    seats = {p.letter: p for p in Player}
    took = tags.get(TAKEOVER_TAG, "").split()
    out: dict[Player, float] = {}
    for seat, at in zip(took[::3], took[2::3], strict=False):
        try:
            since = float(at.removeprefix("@"))
        except ValueError:
            continue
        if seat in seats and since >= 0:
            out[seats[seat]] = since
    return out


# a record too big to be a game's never reaches Python (NULL: passed over)
_SELECT = (
    "SELECT id, started, left_name, right_name,"
    " CASE WHEN length(record) <= ? THEN record END, play_seconds, clock_seconds"
    " FROM games"
)


def last_stopped(conn: sqlite3.Connection) -> Stopped | None:
    """The newest unfinished game whose record replays to a game still in play
    (a row whose values do not fit is passed over: the file is untrusted)."""
    rows = conn.execute(
        _SELECT + f" WHERE finished = 0 AND NOT {IN_ROOM} ORDER BY id DESC LIMIT ?",
        (MAX_RECORD_BYTES, LOOK_BACK),
    ).fetchall()
    for row in rows:
        stopped = _stopped(conn, row)
        if stopped is not None:
            return stopped
    return None


def _stopped(conn: sqlite3.Connection, row: tuple[object, ...]) -> Stopped | None:
    """One stored row as a game to resume, or None if it is not one."""
    game_id, started, left, right = whole(row[0]), text(row[1]), text(row[2]), text(row[3])
    seconds, clock = real(row[5]), row[6]
    if (
        game_id is None or started is None or left is None or right is None
        or seconds is None or seconds < 0
        or (clock is not None and (real(clock) is None or (real(clock) or 0) < 0))
    ):
        return None
    if not all(n.isprintable() and 0 < len(n) <= MAX_NAME for n in (left, right)):
        return None  # names go back on screen: no escape sequence, no screenful
    try:
        record = parse_record(record_text(row[4], game_id))
        game = replay_record(record)
    except (NotationError, Refusal, db.HistoryError):
        return None  # a damaged record is kept as it is, and not offered
    if not record.actions or game.position.phase is Phase.OVER:
        return None
    lost = {
        seat: whole(n) or 0
        for seat, n in conn.execute(
            "SELECT seat, races_lost FROM game_players WHERE game_id = ?", (game_id,)
        ).fetchall()
    }
    return Stopped(
        game_id=game_id,
        started=started,
        names=(left, right),
        record=record,
        play_seconds=seconds,
        clock_seconds=(real(clock) or 0.0) if clock is not None else _last_stamp(record),
        lost_races=(max(0, lost.get("L", 0)), max(0, lost.get("R", 0))),
        round=game.position.round,
    )


def _last_stamp(record: Record) -> float:
    """A game stored before the game clock was: it goes on from its last action."""
    return max((s.seconds for s in record.stamps if s is not None), default=0.0)


def stopped_game(conn: sqlite3.Connection, game_id: int) -> Stopped:
    """Game `game_id`, to resume; db.HistoryError saying why it cannot be."""
    row = conn.execute(_SELECT + " WHERE id = ?", (MAX_RECORD_BYTES, game_id)).fetchone()
    if row is None:
        raise db.HistoryError(f"no game {game_id} in the history ('spit-tui history' lists them)")
    finished, in_room = conn.execute(
        f"SELECT finished, {IN_ROOM} FROM games WHERE id = ?", (game_id,)
    ).fetchone()
    if finished != 0:
        raise db.HistoryError(f"game {game_id} was played to its end: there is nothing to resume")
    if in_room:
        raise db.HistoryError(
            f"game {game_id} was played in a room of a host, at two terminals:"
            " only a game played at this keyboard can be resumed (spit-tui replay"
            f" {game_id} shows it)"
        )
    stopped = _stopped(conn, row)
    if stopped is None:
        raise db.HistoryError(
            f"game {game_id} cannot be resumed: what the history holds of it does not replay"
        )
    return stopped


def resume_command(game_id: int, path: Path | None = None) -> str:
    """The command that continues a stored game (naming the file unless it is
    the default one)."""
    where = "" if path is None or path == db.default_path() else f" --db {shlex.quote(str(path))}"
    return f"spit-tui --resume {game_id}{where}"


def find_stopped(path: Path, game_id: int | None = None) -> Stopped | None:
    """The game `spit-tui --resume [ID]` continues: game `game_id`, or the newest
    stopped one (None if there is none). Raises db.HistoryError for a history
    that cannot be read, or a game that cannot be resumed (one line for the player)."""
    if not path.exists():
        if game_id is not None:
            raise db.HistoryError(f"no history yet: {path}")
        return None
    conn = db.connect_read(path)
    try:
        return last_stopped(conn) if game_id is None else stopped_game(conn, game_id)
    except sqlite3.Error as e:
        raise db.HistoryError(db.reason(e, path)) from e
    finally:
        conn.close()
