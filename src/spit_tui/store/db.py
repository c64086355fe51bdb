"""The history database: SQLite (the standard `sqlite3`) in WAL mode, with a
schema version table and a migration for every version from the first.

Opening never damages or replaces a file: a file that is not one of ours, is
damaged, locked for more than a moment, read-only or from a newer version of
spit-tui raises `HistoryError` with one line a player can read, and the file
is left exactly as it was. Every write is one transaction.
"""

from __future__ import annotations

import os
import sqlite3
import sys
import time
from array import array
from collections.abc import Callable, Sequence
from pathlib import Path

from spit_tui import paths
from spit_tui.userfiles import PRIVATE_DIR, PRIVATE_FILE, create_private, private_dir, tighten

DB_NAME = "history.sqlite3"
BUSY_S = 1.0  # how long a write waits for another instance's transaction

# Migration i (0-based) takes a database from version i to version i + 1.
V1 = """
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    started TEXT NOT NULL,
    left_name TEXT NOT NULL,
    right_name TEXT NOT NULL,
    variant TEXT NOT NULL,
    target INTEGER NOT NULL,
    manual_flip INTEGER NOT NULL,
    seed TEXT,
    result TEXT,
    finished INTEGER NOT NULL DEFAULT 0,
    play_seconds REAL NOT NULL DEFAULT 0,
    rounds INTEGER NOT NULL DEFAULT 0,
    record TEXT NOT NULL,
    final_position TEXT NOT NULL
);
CREATE TABLE rounds (
    game_id INTEGER NOT NULL REFERENCES games(id),
    n INTEGER NOT NULL,
    reason TEXT NOT NULL,
    cleared_by TEXT,
    left_held INTEGER NOT NULL,
    right_held INTEGER NOT NULL,
    seconds REAL NOT NULL,
    PRIMARY KEY (game_id, n)
);
"""
V2 = """
CREATE TABLE game_players (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seat TEXT NOT NULL,
    name TEXT NOT NULL,
    won INTEGER,
    cards INTEGER NOT NULL,
    slaps_won INTEGER NOT NULL,
    races_won INTEGER,
    races_lost INTEGER,
    reactions BLOB NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX game_players_name ON game_players (name, game_id);
CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""
# The game clock when the game was stored: seconds since it began, pauses left
# out but the waits for the spit counted (play_seconds leaves those out too), so
# a resumed game's stamps go on exactly from where it stopped.
V3 = """
ALTER TABLE games ADD COLUMN clock_seconds REAL
"""
# Version 4: ratings, personal bests, the daily deal and matches.
# games.ended: the order in which finished games were rated (a resumed game
# finishes after games begun later); games.daily: the daily deal's UTC date;
# games.match_id/match_first_to: the match a game belongs to (its first game's
# id) and its length. Per seat: the SSH key identity where a door gives one,
# the computer's rung, the game's median reaction, and the rating before and
# after the game (NULL: not rated: a computer seat, or a game not finished).
V4 = """
ALTER TABLE games ADD COLUMN ended INTEGER;
ALTER TABLE games ADD COLUMN daily TEXT;
ALTER TABLE games ADD COLUMN match_id INTEGER;
ALTER TABLE games ADD COLUMN match_first_to INTEGER;
ALTER TABLE game_players ADD COLUMN identity TEXT;
ALTER TABLE game_players ADD COLUMN rung INTEGER;
ALTER TABLE game_players ADD COLUMN median_ms INTEGER;
ALTER TABLE game_players ADD COLUMN mu_before REAL;
ALTER TABLE game_players ADD COLUMN sigma_before REAL;
ALTER TABLE game_players ADD COLUMN mu REAL;
ALTER TABLE game_players ADD COLUMN sigma REAL;
CREATE UNIQUE INDEX games_ended ON games (ended);
CREATE INDEX games_daily ON games (daily)
"""
# Version 6: games.set_start is 1 for a game that began from a position set by
# hand (`--position`), not its seed's deal: it is kept and replays, but it is
# never rated (no `ended` number), so ratings, bests, the daily table and
# `stats` leave it out.
V6 = """
ALTER TABLE games ADD COLUMN set_start INTEGER NOT NULL DEFAULT 0
"""
Migration = Callable[[sqlite3.Connection], None]


def _script(sql: str) -> Migration:
    def run(conn: sqlite3.Connection) -> None:
        for statement in sql.split(";"):
            if statement.strip():
                conn.execute(statement)

    return run


def _backfill_players(conn: sqlite3.Connection) -> None:
    """Version 2 keeps per-player figures: work them out from the stored records."""
    from spit_tui.engine import NotationError, Refusal, parse_record
    from spit_tui.store.figures import figures
    from spit_tui.store.records import MAX_RECORD_BYTES

    rows = conn.execute(
        "SELECT id, left_name, right_name, result,"
        " CASE WHEN length(record) <= ? THEN record END FROM games",
        (MAX_RECORD_BYTES,),
    ).fetchall()
    for game_id, left, right, result, text in rows:
        if type(text) is not str:
            continue  # too big to be a game's record, or not text: no figures
        try:
            fig = figures(parse_record(text))
        except (NotationError, Refusal):
            continue  # a record that does not replay keeps its game row, without figures
        for seat, name, pf in zip("LR", (left, right), fig.players, strict=True):
            won = None if result is None else int(result == seat)
            conn.execute(
                "INSERT OR REPLACE INTO game_players VALUES (?, ?, ?, ?, ?, ?, NULL, NULL, ?)",
                (game_id, seat, name, won, pf.cards, pf.slaps_won, pack(pf.reactions)),
            )


def _v2(conn: sqlite3.Connection) -> None:
    _script(V2)(conn)
    _backfill_players(conn)


def _v4(conn: sqlite3.Connection) -> None:
    """Number the finished games in the order they were stored, and rate them."""
    from spit_tui.store import rated

    _script(V4)(conn)
    rated.backfill(conn)


def _v5(conn: sqlite3.Connection) -> None:
    """One name for an unnamed person against the computer: games stored
    before the board called them YOU kept LEFT (or RIGHT), so `stats` and
    `history` showed one person as two. Those seats become YOU, and the
    ratings (kept by name) are worked out again from the games."""
    from spit_tui.names import DEFAULT_NAMES, YOU
    from spit_tui.store import rated

    left, right = DEFAULT_NAMES
    renamed = conn.execute(
        "UPDATE game_players SET name = ? WHERE identity IS NULL AND rung IS NULL"
        " AND ((seat = 'L' AND name = ?) OR (seat = 'R' AND name = ?))"
        " AND EXISTS (SELECT 1 FROM game_players opp WHERE opp.game_id = game_players.game_id"
        " AND opp.seat != game_players.seat"
        " AND (opp.rung IS NOT NULL OR opp.name LIKE 'computer (%'))",
        (YOU, left, right),
    ).rowcount
    for seat, default in (("L", left), ("R", right)):
        column = "left_name" if seat == "L" else "right_name"
        conn.execute(
            f"UPDATE games SET {column} = ? WHERE {column} = ? AND EXISTS (SELECT 1 FROM"
            " game_players gp WHERE gp.game_id = games.id AND gp.seat = ? AND gp.name = ?)",
            (YOU, default, seat, YOU),
        )
    if renamed:
        rated.rerate(conn)


def _v6(conn: sqlite3.Connection) -> None:
    """Mark the games stored before that began from a set position, take back
    their ratings and rate the others again from the games alone."""
    from spit_tui.engine import NotationError, parse_record
    from spit_tui.store import rated
    from spit_tui.store.records import MAX_RECORD_BYTES

    _script(V6)(conn)
    rows = conn.execute(
        "SELECT id, record FROM games WHERE length(record) <= ? AND instr(record, '[Position ')",
        (MAX_RECORD_BYTES,),
    ).fetchall()
    marked = 0
    for game_id, text in rows:
        try:
            dealt = type(text) is str and parse_record(text).from_deal()
        except NotationError:
            continue  # a record that does not read keeps its row as it was
        if not dealt:
            conn.execute("UPDATE games SET set_start = 1, ended = NULL WHERE id = ?", (game_id,))
            marked += 1
    if marked:
        rated.rerate(conn)


MIGRATIONS: tuple[Migration, ...] = (_script(V1), _v2, _script(V3), _v4, _v5, _v6)
SCHEMA_VERSION = len(MIGRATIONS)
# The tables a file has from each version on (a file missing one was tampered
# with); a migration that adds a table adds an entry.
TABLES = {
    1: {"games", "rounds"},
    2: {"games", "rounds", "game_players", "settings"},
}


class HistoryError(Exception):
    """The history cannot be used this session; the message is one line for the player."""


def default_path() -> Path:
    return paths.data_dir() / DB_NAME


def pack(seconds: Sequence[float]) -> bytes:
    """Reaction times as little-endian uint32 milliseconds (compact, fast to read)."""
    a = array("I", (min(max(0, round(s * 1000)), 2**32 - 1) for s in seconds))
    if sys.byteorder == "big":  # pragma: no cover
        a.byteswap()
    return a.tobytes()


def unpack_ms(blob: bytes) -> array[int]:
    """Reaction times as stored: milliseconds."""
    a = array("I")
    a.frombytes(blob[: len(blob) - len(blob) % 4])
    if sys.byteorder == "big":  # pragma: no cover
        a.byteswap()
    return a


def unpack(blob: bytes) -> list[float]:
    return [ms / 1000 for ms in unpack_ms(blob)]


def reason(e: sqlite3.Error, path: Path) -> str:
    text = str(e)
    if "locked" in text or "busy" in text:
        return f"the history file is in use by another program: {path}"
    if "readonly" in text or "read-only" in text:
        return f"the history file cannot be written (read-only): {path}"
    if "full" in text:
        return f"the disk is full: {path}"
    if "not a database" in text or "malformed" in text or "corrupt" in text:
        return f"the history file is damaged or not a spit-tui history: {path}"
    if "unable to open" in text:
        return f"the history file cannot be opened: {path}"
    return f"the history file cannot be used ({text}): {path}"


def connect(path: Path, *, busy_s: float = BUSY_S, check: bool = True) -> sqlite3.Connection:
    """Open (creating if need be) and migrate the history at `path`.

    `check` runs SQLite's quick integrity check first, so a damaged file is
    never written to. Raises HistoryError."""
    try:
        if path.parent == paths.data_dir():
            private_dir(path.parent)
        else:
            path.parent.mkdir(mode=PRIVATE_DIR, parents=True, exist_ok=True)
    except OSError as e:
        raise HistoryError(f"cannot make the folder for the history ({e.strerror}): {path}") from e
    try:
        _private(path)
    except OSError as e:
        raise HistoryError(f"cannot make the history file ({e.strerror}): {path}") from e
    if path.exists() and not path.is_file():
        raise HistoryError(f"the history path is not a regular file: {path}")
    conn: sqlite3.Connection | None = None
    try:
        conn = sqlite3.connect(path, timeout=busy_s, isolation_level=None)
        version = _read_version(conn, path)
        if version > SCHEMA_VERSION:
            raise HistoryError(
                f"the history file was made by a newer spit-tui (schema {version}, "
                f"this one reads {SCHEMA_VERSION}): {path}"
            )
        if check:
            ok = conn.execute("PRAGMA quick_check").fetchone()
            if ok is None or ok[0] != "ok":
                raise HistoryError(f"the history file is damaged: {path}")
        if _to_wal(conn, busy_s) != "wal":
            raise HistoryError(f"the history file cannot be written (read-only): {path}")
        conn.execute("PRAGMA synchronous=NORMAL")  # WAL: a crash loses no committed round
        conn.execute("PRAGMA foreign_keys=ON")
        _migrate(conn, path)
        return conn
    except sqlite3.Error as e:
        if conn is not None:
            conn.close()
        raise HistoryError(reason(e, path)) from e
    except HistoryError:
        if conn is not None:
            conn.close()
        raise


def _private(path: Path) -> None:
    """The history holds games: 0600 (its WAL and shared-memory files too: SQLite
    gives them the database's mode), in a 0700 folder when it is the user's
    data folder (another folder given with --db keeps its mode). The file is
    made here, empty, so SQLite never makes it with the umask's looser mode."""
    if path.is_symlink() or (path.exists() and not path.is_file()):
        return  # connect refuses what is not a regular file
    try:
        os.close(create_private(path))
    except FileExistsError:
        for p in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
            tighten(p, PRIVATE_FILE)


def _to_wal(conn: sqlite3.Connection, busy_s: float) -> str:
    """Put the file in WAL mode; the journal mode it is in after. Two instances
    that open a new file at once both try to switch it, and SQLite answers one
    of them "locked" at once, without waiting (each holds the lock the other
    needs): so try again, for as long as a write would wait."""
    deadline = time.monotonic() + busy_s
    while True:
        try:
            return str(conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]).lower()
        except sqlite3.OperationalError as e:
            if "locked" not in str(e) or time.monotonic() >= deadline:
                raise
            time.sleep(0.005)


def connect_read(path: Path) -> sqlite3.Connection:
    """Open an existing history to read it (stats, history, replay). Raises HistoryError."""
    if not path.is_file():
        raise HistoryError(f"no history yet: {path}")
    try:
        conn = sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True, timeout=BUSY_S)
    except sqlite3.Error as e:
        raise HistoryError(reason(e, path)) from e
    try:
        version = _read_version(conn, path)
    except (sqlite3.Error, HistoryError) as e:
        conn.close()
        raise HistoryError(reason(e, path) if isinstance(e, sqlite3.Error) else str(e)) from e
    if version > SCHEMA_VERSION:
        conn.close()
        raise HistoryError(f"the history file was made by a newer spit-tui: {path}")
    if version < SCHEMA_VERSION:  # an older file: bring it up to date first
        conn.close()
        connect(path).close()
        return connect_read(path)
    return conn


def _read_version(conn: sqlite3.Connection, path: Path) -> int:
    """The file's schema version, its tables checked against it; HistoryError
    for a file that is not (or no longer) a history. Read in one transaction,
    so another instance's migration cannot land between the two reads."""
    if conn.in_transaction:
        return _version_now(conn, path)
    conn.execute("BEGIN")
    try:
        return _version_now(conn, path)
    finally:
        if conn.in_transaction:
            conn.execute("COMMIT")


def _version_now(conn: sqlite3.Connection, path: Path) -> int:
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if "schema_version" not in tables:
        if tables:
            raise HistoryError(f"the file holds other data, not a spit-tui history: {path}")
        return 0
    row = conn.execute("SELECT max(version) FROM schema_version").fetchone()
    version = row[0] if row[0] is not None else 0
    if type(version) is not int or version < 0:  # text, a float, a BLOB: tampered with
        raise HistoryError(
            f"the history file is damaged (its schema version is not a number): {path}"
        )
    known = max((v for v in TABLES if v <= version), default=0)
    missing = TABLES.get(known, set()) - tables
    if missing:
        raise HistoryError(
            f"the history file is damaged (table {sorted(missing)[0]} is missing): {path}"
        )
    return version


def _migrate(conn: sqlite3.Connection, path: Path) -> None:
    """Bring the schema up to date, each step in its own transaction."""
    while True:
        conn.execute("BEGIN IMMEDIATE")
        try:
            version = _read_version(conn, path)
            if version >= SCHEMA_VERSION:
                # A real write, so a file we may not write is found now, not mid-game.
                conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                conn.execute("COMMIT")
                return
            if version == 0:
                conn.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
            MIGRATIONS[version](conn)
            conn.execute("INSERT INTO schema_version VALUES (?)", (version + 1,))
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:  # SQLite rolls back by itself on a full disk
                conn.execute("ROLLBACK")
            raise
