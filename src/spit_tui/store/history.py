"""The history writer: a table's games stored at every round end, at game end
and when the player quits, each write one transaction, all of it on a worker
thread so no write ever stalls a frame.

The UI thread only takes a snapshot (the game's log, its stamps and a few
counts: immutable values, copied in well under a millisecond); the worker
formats the record, replays it for the figures and writes. If the database
cannot be used (see `db.connect`), or a write fails (a full disk, a lock held
too long), the writer says so once through `on_problem` and keeps nothing
more this session: the game plays on, the file is left as it was.
"""

from __future__ import annotations

import contextlib
import queue
import sqlite3
import threading
from array import array
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from spit_tui.decision import Decision
from spit_tui.engine import Event, Phase, Player, Record, format_position, format_record
from spit_tui.store import db
from spit_tui.store.figures import GameFigures, figures
from spit_tui.store.records import MAX_RECORD_BYTES, record_of
from spit_tui.store.resume import Stopped, last_stopped
from spit_tui.subscription import Subscription
from spit_tui.table import Outcome, Table

if TYPE_CHECKING:
    from spit_tui.store.joined import Joined

Problem = Callable[[str], None]


class Snapshot(NamedTuple):
    """What the worker needs to store one game as it stands (all immutable)."""

    key: int  # this session's number for the game
    started: str
    names: tuple[str, str]
    record: Record
    lost_races: tuple[int, int]
    play_seconds: float
    finished: bool
    clock_seconds: float = 0.0  # the game clock since the game began (resume goes on from it)
    identities: tuple[str | None, str | None] = (None, None)  # SSH key per seat, where known
    rungs: tuple[int | None, int | None] = (None, None)  # the computer's rung per seat
    daily: str | None = None  # the daily deal's date (UTC), for a daily game
    in_match: tuple[int | str, int] | None = None  # (this session's match key, first to N)
    joined: bool = False  # a host's record of a game this seat played (store.joined)


class Seating(NamedTuple):
    """Who sits at one table, for its stored games: a host's room says it per
    room (its seats' names and key identities, its match), where a game at one
    keyboard has the writer's own (`HistoryWriter.names` and the rest)."""

    names: tuple[str, str]
    identities: tuple[str | None, str | None] = (None, None)
    in_match: tuple[int | str, int] | None = None
    tags: tuple[tuple[str, str], ...] = ()  # the record's own tags (where the computer sat)
    rungs: tuple[int | None, int | None] = (None, None)  # the computer's rung per seat
    daily: str | None = None  # the daily deal's day (UTC), for a daily game


class HistoryWriter:
    """Stores the games played at the tables it is attached to."""

    def __init__(
        self,
        path: Path,
        *,
        on_problem: Problem | None = None,
        threaded: bool = True,
        busy_s: float = db.BUSY_S,
        start: bool = True,
    ) -> None:
        """`start=False` (threaded only): the worker, and so the opening of the
        file, waits for `start()`; the app starts it once its first frame is up,
        so opening the history never delays the board (snapshots queue meanwhile)."""
        self.path = path
        self.on_problem = on_problem
        self.problem: str | None = None  # set once history is off for this session
        self._told = False
        self.names: tuple[str, str] = ("LEFT", "RIGHT")
        self.tags: dict[str, str] = {}  # kept in every stored record (where the computer sat)
        # Told by the app, like the names: the seats' SSH key identities (a door
        # that has them), the computer's rung per seat, the daily deal's date,
        # and the match in play as (number, first to N).
        self.identities: tuple[str | None, str | None] = (None, None)
        self.rungs: dict[Player, int] = {}
        self.daily: str | None = None
        self.in_match: tuple[int | str, int] | None = None
        self._match_ids: dict[int | str, int] = {}  # match key -> its first game's id (worker)
        self._seating: dict[int, Callable[[], Seating]] = {}  # id(table) -> its room's seating
        self.stopped: Stopped | None = None  # the last game stopped in play (the worker finds it)
        self.game_ids: dict[int, int] = {}  # snapshot key -> games.id (worker side)
        self.writes = 0  # transactions committed (for tests and the benchmark)
        self._busy_s = busy_s
        self._conn: sqlite3.Connection | None = None
        self._tables: list[Table] = []
        # id(table) -> (its game's key, its start), dropped when the table says it has a new game
        self._keys: dict[int, tuple[int, str]] = {}
        self._lost: dict[int, list[int]] = {}
        self._next_key = 0
        self._due: set[int] = set()  # tables whose round just ended
        self._figures: dict[int, str] = {}  # snapshot key -> the game-over figures line
        self._too_big: set[int] = set()  # snapshot keys of games past MAX_RECORD_BYTES
        self._queue: queue.Queue[Snapshot | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._threaded = threaded
        if threaded:
            self._thread = threading.Thread(target=self._run, name="history", daemon=True)
            if start:
                self.start()
        else:
            self._open()

    def start(self) -> None:
        """Start the worker (it opens the file first); starting it again does nothing."""
        if self._thread is not None and self._thread.ident is None:
            self._thread.start()

    # -- UI thread -----------------------------------------------------------------

    @property
    def on(self) -> bool:
        return self.problem is None

    def attach(self, table: Table, seating: Callable[[], Seating] | None = None) -> None:
        """Store `table`'s games; `seating`: who sits there (a host's room),
        asked at each save, instead of the writer's own names."""
        self._tables.append(table)
        if seating is not None:
            self._seating[id(table)] = seating
        table.subscribe(
            Subscription(
                on_change=lambda: self._on_change(table),
                on_event=lambda ev: self._on_event(table, ev),
                on_decision=lambda d: self._on_decision(table, d),
                on_new_game=lambda: self._new_game(table),
            )
        )

    def detach(self, table: Table) -> None:
        """Forget `table` (its room ended): the writer must not keep every
        table it ever stored alive (a host makes rooms all day)."""
        if table in self._tables:
            self._tables.remove(table)
        self._keys.pop(id(table), None)
        self._lost.pop(id(table), None)
        self._due.discard(id(table))
        self._seating.pop(id(table), None)

    def _new_game(self, table: Table) -> None:
        """The table has a new game (the table says so): it gets a key of its
        own when it is first heard of or saved."""
        self._keys.pop(id(table), None)

    def _game_key(self, table: Table) -> tuple[int, str]:
        known = self._keys.get(id(table))
        if known is None:
            self._next_key += 1
            started = datetime.now(UTC).isoformat(timespec="seconds")
            known = (self._next_key, started)
            self._keys[id(table)] = known
            self._lost[id(table)] = [0, 0]
        return known

    def resume(self, table: Table, stopped: Stopped) -> None:
        """The table's game goes on from `stopped` (see Table.resume): store it
        in the same row, with the start time and lost races it had."""
        key, _ = self._game_key(table)
        self._keys[id(table)] = (key, stopped.started)
        self._lost[id(table)] = list(stopped.lost_races)
        self.game_ids[key] = stopped.game_id  # before any snapshot of it is queued
        self.stopped = None
        self.daily = stopped.record.tags.get("Daily") or self.daily  # a daily game stays one

    def _on_decision(self, table: Table, d: Decision) -> None:
        self._game_key(table)
        if d.outcome is Outcome.LOST_RACE:
            self._lost[id(table)][d.player] += 1

    def _on_event(self, table: Table, ev: Event) -> None:
        """A round (or the game) ended: save once the table has logged the
        decision that did it (it tells its listeners right after)."""
        if ev.round_over is not None or ev.position.phase is Phase.OVER:
            self._due.add(id(table))

    def _on_change(self, table: Table) -> None:
        if id(table) in self._due:
            self._due.discard(id(table))
            self.save(table)

    def save(self, table: Table) -> None:
        """Queue the table's game as it stands now (round end, game end, quit).
        Never raises: the game goes on whatever happens here."""
        if not self.on:
            return
        try:
            self._save(table)
        except Exception as e:
            self._off(f"could not store a game ({type(e).__name__}: {e})")

    def _save(self, table: Table) -> None:
        key, started = self._game_key(table)
        lost = self._lost[id(table)]
        seating = self._seating.get(id(table))
        seats = (
            Seating(self.names, self.identities, self.in_match, tuple(self.tags.items()),
                    (self.rungs.get(Player.LEFT), self.rungs.get(Player.RIGHT)), self.daily)
            if seating is None else seating()
        )  # fmt: skip
        names = seats.names
        snap = Snapshot(
            key=key,
            started=started,
            names=names,
            record=record_of(table, {"Left": names[0], "Right": names[1], **dict(seats.tags)}),
            lost_races=(lost[0], lost[1]),
            play_seconds=table.play_seconds(),  # the game-over line's figure
            finished=table.position.phase is Phase.OVER,
            clock_seconds=(table.shown.ended_at or table.clock.now()) - table.shown.started_at,
            identities=seats.identities,
            rungs=seats.rungs,
            daily=seats.daily,
            in_match=seats.in_match,
        )
        if self._threaded:
            self._queue.put(snap)
        else:
            self._write(snap)

    def keep_joined(self, joined: Joined) -> Callable[[], str]:
        """Store a game played at another's host, from its checked record
        (store.joined): finished, once (a record this history holds already,
        the host's own row in a file both use, is not stored again). What it
        returns gives the game-over lines once the worker has them ("" till then)."""
        if not self.on:
            return str
        self._next_key += 1
        key = self._next_key
        stamps = [s.seconds for s in joined.record.stamps if s is not None]
        clock_s = max(stamps, default=joined.play_s)
        began = datetime.now(UTC) - timedelta(seconds=clock_s)
        snap = Snapshot(
            key=self._next_key,
            started=began.isoformat(timespec="seconds"),
            names=joined.names,
            record=joined.record,
            lost_races=joined.lost,
            play_seconds=joined.play_s,
            finished=True,
            clock_seconds=clock_s,
            rungs=joined.rungs,
            joined=True,
        )
        if self._threaded:
            self._queue.put(snap)
        else:
            self._write(snap)
        return lambda: self._figures.get(key, "")

    def figures_for(self, table: Table) -> str:
        """The figures line of the table's finished game, once the worker has it."""
        known = self._keys.get(id(table))  # None: a new game not heard of yet
        return "" if known is None else self._figures.get(known[0], "")

    def stored_id(self, table: Table) -> int | None:
        """The history's id of the table's game, once the worker has stored it."""
        known = self._keys.get(id(table))  # None: a new game not heard of yet
        return None if known is None else self.game_ids.get(known[0])

    def take_problem(self) -> str | None:
        """The reason history went off, once (the app polls this on its tick)."""
        if self.problem is None or self._told:
            return None
        self._told = True
        return self.problem

    def finish(self, table: Table) -> None:
        """The app is ending: store the game in play (unfinished, to resume), then close."""
        if table.game.log and table.position.phase is not Phase.OVER:
            self.save(table)
        self.close()

    def close(self, timeout: float = 5.0) -> None:
        """Store what is queued (the game in play is saved by the caller first)."""
        if self._thread is not None:
            self.start()  # never started (the app ended before its first frame): store the queue
            self._queue.put(None)
            self._thread.join(timeout)
            self._thread = None
        elif self._conn is not None:
            self._conn.close()
            self._conn = None

    # -- worker thread -------------------------------------------------------------

    def _run(self) -> None:
        try:
            self._open()
            _storing_parts()  # here, on the worker: the game's start never waits for them
            while True:
                snap = self._queue.get()
                if snap is None:
                    break
                self._write(snap)
        except Exception as e:  # a bug: say so (history off), never die silently
            self._off(f"could not store games ({type(e).__name__}: {e})")
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def _open(self) -> None:
        try:
            self._conn = db.connect(self.path, busy_s=self._busy_s)
        except db.HistoryError as e:
            self._off(str(e))
            return
        # Only the offer to resume can be lost here, never the writer: last_stopped
        # passes over rows that do not fit, and anything else is a bug to survive.
        with contextlib.suppress(Exception):
            self.stopped = last_stopped(self._conn)

    def _off(self, reason: str) -> None:
        if self.problem is None:
            self.problem = reason
            if self.on_problem is not None:
                self.on_problem(reason)

    def _write(self, snap: Snapshot) -> None:
        conn = self._conn
        if conn is None or self.problem is not None:
            return
        text = format_record(snap.record)
        if len(text) > MAX_RECORD_BYTES:  # a game nobody could replay or resume in time
            if snap.key not in self._too_big:
                self._too_big.add(snap.key)
                if self.on_problem is not None:
                    self.on_problem(
                        f"a game's record grew past {MAX_RECORD_BYTES:,} characters:"
                        " it is stored no further"
                    )
            return
        fig: GameFigures | None = None
        note = ""
        try:
            fig = figures(snap.record)
        except Exception as e:  # a record that does not replay is a bug: keep it anyway
            note = f"{type(e).__name__}: {e}"
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                self._store(conn, snap, fig, text)
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:  # SQLite rolls back by itself on a full disk
                    conn.execute("ROLLBACK")
                raise
        except sqlite3.Error as e:
            self._off(db.reason(e, self.path))
            return
        except Exception as e:  # never let a history bug reach the game
            self._off(f"could not store a game ({type(e).__name__}: {e})")
            return
        self.writes += 1
        if snap.finished and fig is not None:
            with contextlib.suppress(Exception):  # the game is stored; only the line is not
                game_id = self.game_ids[snap.key]
                from spit_tui.store.overlines import SET_POSITION, after_line, figures_line

                lines = [SET_POSITION] if not snap.record.from_deal() else [
                    figures_line(
                        conn, game_id, fig, snap.names, snap.play_seconds, snap.rungs
                    ),
                    after_line(conn, game_id, snap.daily),
                ]  # fmt: skip
                self._figures[snap.key] = "\n".join(line for line in lines if line)
        if note and self.on_problem is not None:
            self.on_problem(f"a stored game does not replay ({note})")

    def _store(
        self, conn: sqlite3.Connection, snap: Snapshot, fig: GameFigures | None, text: str
    ) -> None:
        from spit_tui.store import rated
        from spit_tui.store.stats import median_s

        rec = snap.record
        o = rec.options
        set_start = not rec.from_deal()  # kept and replayable, never rated nor counted
        final = "" if fig is None else format_position(fig.final)
        winner = None if fig is None else fig.winner
        result = None if winner is None else winner.letter
        n_rounds = 0 if fig is None else len(fig.rounds)
        match_id = None if snap.in_match is None else self._match_ids.get(snap.in_match[0])
        row = (
            snap.started, snap.names[0], snap.names[1], str(o.variant), o.target,
            int(o.manual_flip), None if rec.seed is None else str(rec.seed), result,
            int(snap.finished),
            round(snap.play_seconds, 3), n_rounds, text, final, round(snap.clock_seconds, 3),
            snap.daily, match_id, None if snap.in_match is None else snap.in_match[1],
            int(set_start),
        )
        game_id = self.game_ids.get(snap.key)
        if game_id is None:
            game_id = _same_game(conn, rec.seed, text, snap.joined)
            if game_id is not None and snap.joined:
                return  # the host stores this game in this very file: once is enough
            if game_id is not None:  # a seat's copy of this game came first: the host's wins
                self.game_ids[snap.key] = game_id
        if game_id is None:
            cur = conn.execute(
                "INSERT INTO games (started, left_name, right_name, variant, target,"
                " manual_flip, seed, result, finished, play_seconds, rounds, record,"
                " final_position, clock_seconds, daily, match_id, match_first_to, set_start)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                row,
            )
            assert cur.lastrowid is not None
            game_id = cur.lastrowid
            self.game_ids[snap.key] = game_id
            if snap.in_match is not None and match_id is None:  # a match's first game names it
                self._match_ids[snap.in_match[0]] = game_id
                conn.execute("UPDATE games SET match_id = id WHERE id = ?", (game_id,))
        else:
            conn.execute(
                "UPDATE games SET started=?, left_name=?, right_name=?, variant=?, target=?,"
                " manual_flip=?, seed=?, result=?, finished=?, play_seconds=?, rounds=?,"
                " record=?, final_position=?, clock_seconds=?, daily=coalesce(?, daily),"
                " match_id=coalesce(?, match_id), match_first_to=coalesce(?, match_first_to),"
                " set_start=? WHERE id=?",
                (*row, game_id),
            )
        if fig is None:
            return
        for n, (end, secs) in enumerate(zip(fig.rounds, fig.round_seconds, strict=True), 1):
            cleared = None if end.cleared_by is None else end.cleared_by.letter
            conn.execute(
                "INSERT OR REPLACE INTO rounds VALUES (?, ?, ?, ?, ?, ?, ?)",
                (game_id, n, str(end.reason), cleared, end.held[0], end.held[1], secs),
            )
        for p in Player:
            pf = fig.players[p]
            won = None if winner is None else int(winner is p)
            median = median_s(array("I", (round(s * 1000) for s in pf.reactions)))
            # an upsert, not a replace: a rated game's ratings stay with it
            conn.execute(
                "INSERT INTO game_players (game_id, seat, name, won, cards, slaps_won,"
                " races_won, races_lost, reactions, identity, rung, median_ms)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (game_id, seat) DO UPDATE SET name=excluded.name,"
                " won=excluded.won, cards=excluded.cards, slaps_won=excluded.slaps_won,"
                " races_won=excluded.races_won, races_lost=excluded.races_lost,"
                " reactions=excluded.reactions, identity=excluded.identity,"
                " rung=excluded.rung, median_ms=excluded.median_ms",
                (
                    game_id, p.letter, snap.names[p], won, pf.cards, pf.slaps_won,
                    snap.lost_races[1 - p], snap.lost_races[p], db.pack(pf.reactions),
                    snap.identities[p], snap.rungs[p],
                    None if median is None else round(median * 1000),
                ),
            )
        if snap.finished:
            rated.rate_game(conn, game_id)


def _same_game(
    conn: sqlite3.Connection, seed: int | None, text: str, joined: bool
) -> int | None:
    """A stored game that is this one (two seats at one machine keep one
    history file: the host's game and the seat's copy of it are one game).
    For a seat's copy: any stored game whose record this record goes on from
    (the host's row, stored at each round end); for a new row of the host's:
    a seat's copy with the very same record."""
    if seed is None:
        return None
    if joined:
        row = conn.execute(
            "SELECT id FROM games WHERE seed = ? AND substr(?, 1, length(rtrim(record, char(10))))"
            " = rtrim(record, char(10)) LIMIT 1",
            (str(seed), text),
        ).fetchone()
    else:
        row = conn.execute(
            "SELECT id FROM games WHERE seed = ? AND finished = 1 AND record = ? LIMIT 1",
            (str(seed), text),
        ).fetchone()
    return None if row is None else int(row[0])


def _storing_parts() -> None:
    """Import what storing a finished game needs (the ratings, the figures'
    lines, the stats: about 25 ms of imports, openskill and the bots among
    them), on the history's worker once it runs, not on the game's start."""
    from spit_tui.store import overlines, rated, stats  # noqa: F401
