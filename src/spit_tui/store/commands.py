"""The history's subcommands:

    spit-tui stats [--player NAME] [--vs NAME] [--json] [--db FILE]
    spit-tui history [--limit N] [--db FILE]
    spit-tui export GAME_ID FILE [--db FILE]

Bad arguments or a history that cannot be read: one line, exit 2.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from spit_tui.clock import clock_text
from spit_tui.command import PROG, Parser, UsageError, command, fail, shown, write_out
from spit_tui.store import db
from spit_tui.store.bests import Bests, by_opponent, game_rows, group_name
from spit_tui.store.bests import shown as best_text
from spit_tui.store.resume import IN_ROOM, resume_command
from spit_tui.store.stats import PlayerStats, all_stats
from spit_tui.store.stored import escaped, real, record_text, skipped_line, whole

STATS, HISTORY, EXPORT = (f"{PROG} {name}" for name in ("stats", "history", "export"))


def _parser(prog: str, description: str, epilog: str | None = None) -> argparse.ArgumentParser:
    p = Parser(
        prog=f"spit-tui {prog}",
        description=description,
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--db", metavar="FILE", help="the history file (default: user data directory)")
    return p


def _path(args: argparse.Namespace) -> Path:
    return Path(args.db) if args.db else db.default_path()


def _open(args: argparse.Namespace) -> sqlite3.Connection | None:
    """The history to read; None when there is none yet at the default place
    (nothing played yet is not an error; a --db that does not exist is)."""
    path = _path(args)
    if not args.db and not path.exists():
        return None
    return db.connect_read(path)


def _start(
    parser: argparse.ArgumentParser, argv: list[str], empty: str
) -> tuple[argparse.Namespace, sqlite3.Connection] | int:
    """Parse and open the history; an exit status instead when there is none yet
    (then `empty` is said, or is the one-line failure if it starts with '!').
    A bad argument or a history that cannot be read: UsageError."""
    args = parser.parse_args(argv)
    try:
        conn = _open(args)
    except db.HistoryError as e:
        raise UsageError(str(e)) from None
    if conn is None:
        if empty.startswith("!"):
            raise UsageError(empty[1:])
        write_out(empty + "\n")
        return 0
    return args, conn


# -- stats --------------------------------------------------------------------------


def _mmss(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    return clock_text(seconds)


def _as_json(s: PlayerStats) -> dict[str, object]:
    d = s._asdict()
    d["interval"] = [round(x, 4) for x in s.interval]
    d["last"] = [round(x, 1) for x in s.last]
    for k in ("rating", "rating_spread"):
        d[k] = None if d[k] is None else round(d[k], 1)
    return d


@command(STATS)
def stats_main(argv: list[str]) -> int:
    from spit_tui.store.statstable import help_epilog

    p = _parser("stats", "Each player's record over the stored games.", help_epilog())
    p.add_argument("--player", metavar="NAME", help="only this player")
    p.add_argument("--vs", metavar="NAME", help="only games against this player (head to head)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    started = _start(p, argv, "No finished games yet.")
    if isinstance(started, int):
        return started
    args, conn = started
    skipped: set[int] = set()
    try:
        figures = all_stats(conn, args.player, args.vs, skipped)
        head = all_stats(conn, args.vs, args.player, skipped) if args.player and args.vs else []
    except sqlite3.Error as e:
        return fail(db.reason(e, _path(args)), STATS)
    finally:
        conn.close()
    if skipped:
        print(skipped_line("stats", sorted(skipped)), file=sys.stderr)
    found = None
    if args.player and not args.vs:
        found = _bests(args)
    if args.json:
        out: dict[str, object] = {"players": [_as_json(s) for s in figures + head]}
        if found is not None:
            out["bests"] = {
                group_name(k): {f: b and b._asdict() for f, b in v._asdict().items()}
                for k, v in found.items()
            }
        write_out(json.dumps(out, indent=2) + "\n")
        return 0
    if not figures:
        who = f" for {args.player}" if args.player else ""
        write_out(f"No finished games{who}{f' against {args.vs}' if args.vs else ''} yet.\n")
        return 0
    _print_stats(figures + head, args.player, args.vs)
    if found:
        _print_bests(args.player, found)
    return 0


def _bests(args: argparse.Namespace) -> dict[int, Bests] | None:
    """The player's personal bests, by opponent (a fresh read of the history)."""
    try:
        conn = _open(args)
    except db.HistoryError:
        return None
    if conn is None:
        return None
    try:
        return by_opponent(game_rows(conn, args.player))
    finally:
        conn.close()


def _print_bests(name: str, found: dict[int, Bests]) -> None:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    t = Table(title=Text(f"{name}'s personal bests"))
    for col in ("against", "fastest win", "most cards/min", "quickest median reaction",
                "longest win streak"):
        t.add_column(col, no_wrap=True)
    for against, b in found.items():
        t.add_row(group_name(against), *(best_text(k, getattr(b, k)) for k in Bests._fields))
    console = Console()
    if not console.is_terminal:
        console = Console(width=160)
    console.print(t)


def _print_stats(figures: list[PlayerStats], player: str | None, vs: str | None) -> None:
    from rich.console import Console

    from spit_tui.store.statstable import stats_table

    title = "spit-tui stats" + (f" · {player} against {vs}" if player and vs else "")
    console = Console()
    if not console.is_terminal and "COLUMNS" not in os.environ:
        console = Console(width=160)  # piped: the whole row, as on a wide terminal
    table, legend = stats_table(figures, console.width, title)
    console.print(table)
    console.print(legend, markup=False, highlight=False, soft_wrap=True)


# -- history ------------------------------------------------------------------------


@command(HISTORY)
def history_main(argv: list[str]) -> int:
    p = _parser("history", "The stored games, newest first.")
    p.add_argument("--limit", type=_count, default=20, metavar="N", help="at most N games (20)")
    started = _start(p, argv, "No games stored yet.")
    if isinstance(started, int):
        return started
    args, conn = started
    try:
        games = conn.execute(
            "SELECT id, started, left_name, right_name, result, finished, play_seconds, rounds,"
            " variant, match_id, match_first_to, daily,"
            " (SELECT count(*) FROM games g2 WHERE g2.match_id = games.match_id"
            f"  AND g2.id <= games.id), set_start, {IN_ROOM}"
            " FROM games ORDER BY id DESC LIMIT ?",
            (args.limit,),
        ).fetchall()
    except sqlite3.Error as e:
        return fail(db.reason(e, _path(args)), HISTORY)
    finally:
        conn.close()
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text  # everything from the file as plain text, never markup

    t = Table(title="spit-tui history")
    # Fixed columns keep their width; on a narrow terminal the players and the
    # result wrap onto a second line instead of being cut (or the id dropped).
    id_width = max((len(str(row[0])) for row in games), default=2)
    parts = [_part_of(*row[9:14]) for row in games]  # a column only when a game has one
    for col, width, wraps in (
        ("id", id_width, False), ("date", 12, False), ("players", 10, True),
        ("result", 10, True), ("play time", 9, False), ("rounds", 6, False),
        ("variant", 8, False), *([("part of", 7, True)] if any(parts) else []),
    ):
        t.add_column(col, no_wrap=not wraps, min_width=width, overflow="fold")
    skipped: list[int] = []
    unfinished: list[int] = []
    for row, part in zip(games, parts, strict=True):
        cells = _history_cells(row[:9])
        if cells is None:
            skipped.append(row[0] if type(row[0]) is int else -1)
            continue
        t.add_row(*(Text(c) for c in [*cells, *([part] if any(parts) else [])]))
        if cells[3] == UNFINISHED and row[14] == 0:  # (a room's game: resumed nowhere)
            unfinished.append(int(cells[0]))
    if skipped:
        print(skipped_line("history", skipped), file=sys.stderr)
    if games:
        console = Console()
        if not console.is_terminal:  # piped: the whole row, as on a wide terminal
            console = Console(width=160)
        console.print(t)
        for game in unfinished:  # each on a line of its own: never cut
            write_out(f"game {game} is unfinished: {resume_command(game, _path(args))}\n")
    else:
        write_out("No games stored yet.\n")
    return 0


def _part_of(
    match_id: object, first_to: object, day: object, nth: object, set_start: object
) -> str:
    """What a game was part of: "match 12 game 2/3" (its game 2, first to 3),
    "daily 2026-12-02", or "set position" (begun from a position set by hand:
    not rated, not in bests or stats)."""
    if set_start == 1:
        return "set position"
    if whole(match_id) is not None and whole(first_to) is not None and whole(nth) is not None:
        return f"match {match_id} game {nth}/{first_to}"
    if type(day) is str:
        return f"daily {escaped(day, 10)}"
    return ""


UNFINISHED = "unfinished"


def _when(started: object) -> str:
    """When a game began, in the player's local time: "1 Dec 23:23" (the year
    too when it is not this one); a stored value that is no time, escaped."""
    from datetime import datetime

    try:
        began = datetime.fromisoformat(str(started)).astimezone()
    except (ValueError, OverflowError, OSError):
        return escaped(started)
    year = "" if began.year == datetime.now().year else f" {began.year}"
    return f"{began.day} {began:%b}{year} {began:%H:%M}"


def _history_cells(row: tuple[object, ...]) -> list[str] | None:
    """A history row's cells, stored text escaped; None if its values do not fit."""
    gid, started, left, right, result, finished, secs, rounds, variant = row
    seconds, game = real(secs), whole(gid)
    if (
        game is None or whole(finished) is None or whole(rounds) is None
        or seconds is None or seconds < 0
    ):
        return None
    names = (escaped(left), escaped(right))
    if not finished:
        outcome = UNFINISHED
    elif result in ("L", "R"):
        outcome = f"{names[0] if result == 'L' else names[1]} won"
    else:
        outcome = "-"
    date = _when(started)
    return [
        str(gid), date, f"{names[0]} v {names[1]}", outcome, _mmss(seconds), str(rounds),
        escaped(variant),
    ]


MAX_ID = 2**63 - 1  # SQLite's largest integer: no game id or limit is bigger


def _count(text: str) -> int:
    """A whole number from 1 to MAX_ID written in ASCII digits (int() would take
    '١٢' and 10**30 alike; SQLite cannot take the second)."""
    digits = text.strip()
    if not (digits.isascii() and digits.isdigit()):
        raise argparse.ArgumentTypeError(f"not a number: {shown(text)!r}")
    if len(digits) > 19 or int(digits) > MAX_ID:
        raise argparse.ArgumentTypeError(f"must be at most {MAX_ID:,}, not {shown(digits)}")
    n = int(digits)
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {n}")
    return n


def game_id(text: str) -> int | None:
    """`text` as a game id if it is one (ASCII digits, 1 to MAX_ID), else None."""
    try:
        return _count(text)
    except argparse.ArgumentTypeError:
        return None


# -- export -------------------------------------------------------------------------


def game_record(conn: sqlite3.Connection, game_id: int) -> str | None:
    """The stored record of a game; None if there is no such game. HistoryError
    if what is stored is not a record's text (a BLOB, a number)."""
    row = conn.execute("SELECT record FROM games WHERE id = ?", (game_id,)).fetchone()
    return None if row is None else record_text(row[0], game_id)


@command(EXPORT)
def export_main(argv: list[str]) -> int:
    p = _parser(
        "export",
        "Write a stored game's record to a file (replay it with 'replay FILE'), or, for a "
        "FILE ending in .cast, an asciinema recording of its replay (asciinema play FILE).",
    )
    p.add_argument("game_id", type=_count, metavar="GAME_ID")
    p.add_argument("file", metavar="FILE", help="a new file ('-' for standard output)")
    p.add_argument(
        "--size", type=_size, default=(80, 24), metavar="WxH",
        help="a recording's terminal size (default 80x24, the smallest the board fits)",
    )
    started = _start(p, argv, "!no games stored yet")
    if isinstance(started, int):
        return started
    args, conn = started
    try:
        record = game_record(conn, args.game_id)
    except db.HistoryError as e:
        return fail(str(e), EXPORT)
    except sqlite3.Error as e:
        return fail(db.reason(e, _path(args)), EXPORT)
    finally:
        conn.close()
    if record is None:
        return fail(f"no game {args.game_id} in the history ('{HISTORY}' lists them)", EXPORT)
    if args.file == "-":
        write_out(record)
        return 0
    if args.file.endswith(".cast"):
        return _export_cast(args, record)
    problem = _write_new(args.file, lambda f: f.write(record))
    if problem is not None:
        return fail(problem, EXPORT)
    write_out(f"Game {args.game_id} written to {args.file}\n")
    return 0


def _write_new(path: str, write: Callable[[TextIO], object]) -> str | None:
    """Write a file that must not exist yet (an export never replaces a file);
    the one line to print when that cannot be done, else None."""
    try:
        with open(path, "x", encoding="utf-8") as f:
            write(f)
    except FileExistsError:
        return f"{path} already exists: choose a new file name"
    except OSError as e:
        return f"cannot write {path}: {e.strerror or e}"
    return None


def _size(text: str) -> tuple[int, int]:
    from spit_tui.app.screens import MIN_H, MIN_W

    w, _, h = text.lower().partition("x")
    if not (w.isascii() and w.isdigit() and h.isascii() and h.isdigit()):
        raise argparse.ArgumentTypeError(f"not a size like 80x24: {shown(text)!r}")
    if not (MIN_W <= int(w) <= 400 and MIN_H <= int(h) <= 200):
        raise argparse.ArgumentTypeError(f"from {MIN_W}x{MIN_H} to 400x200, not {shown(text)}")
    return int(w), int(h)


def _export_cast(args: argparse.Namespace, text: str) -> int:
    """The game's replay as an asciinema recording in a new file."""
    from spit_tui.app.cast import write_cast
    from spit_tui.engine import NotationError, parse_record

    try:
        record = parse_record(text)
    except NotationError as e:
        return fail(f"game {args.game_id}'s record cannot be read: {e}", EXPORT)
    names = f"{record.tags.get('Left', 'LEFT')} v {record.tags.get('Right', 'RIGHT')}"
    title = f"spit-tui game {args.game_id}: {names}"
    problem = _write_new(args.file, lambda f: write_cast(f, record, title, args.size))
    if problem is not None:
        return fail(problem, EXPORT)
    write_out(f"Game {args.game_id} recorded to {args.file} (asciinema play {args.file})\n")
    return 0
