"""`spit-tui daily`: today's deal against the computer; `spit-tui daily
--history`: your days, your streak of days played, and a line to share.

    spit-tui daily [--level LEVEL] [any option of a game: --layout, --left-name, --db ...]
    spit-tui daily --history [--player NAME] [--db FILE]

The deal and the rung are store/daily.py's. Time comes in as an argument
(`now`), read once at the door, so tests and the bots' week pass their own.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from spit_tui.command import Parser, command, fail, write_out
from spit_tui.store import daily, db

Now = Callable[[], datetime]

# what the daily deal fixes: none of these go with it
FIXED = ("variant", "target", "seed", "manual_flip", "position", "demo", "resume",
         "computer_side", "vs_computer", "match")  # fmt: skip


def _utc_now() -> datetime:
    return datetime.now(UTC)


@command("spit-tui daily")
def main(argv: list[str], now: Now = _utc_now) -> int:
    if "--history" in argv:
        return history_main([a for a in argv if a != "--history"], now)
    return play_main(argv, now)


def play_main(argv: list[str], now: Now = _utc_now) -> int:
    from spit_tui import cli

    parser = cli.build_parser()
    parser.prog = "spit-tui daily"
    parser.description = (
        "Today's deal against the computer: the same cards for everyone (from the UTC "
        f"date), against level {daily.LEVEL} unless --level says otherwise. The first game "
        "you finish today is your score; later ones are practice. "
        "'spit-tui daily --history': your days, your streak and a line to share."
    )
    parser.epilog = None
    args = parser.parse_args(argv)  # a bad argument: one line (command())
    for name in FIXED:
        value = getattr(args, name, None)
        if value is not None and value is not False:
            return fail(f"the daily deal is the same for everyone: drop --{name.replace('_', '-')}")
    if args.level == "auto":
        return fail("the daily deal is against one level all game: drop --level auto")
    day = daily.day_of(now())
    args.vs_computer = True
    args.variant = "standard"  # the same game for everyone, whatever a player's settings say
    args.level = args.level or daily.LEVEL
    args.seed = daily.seed_for(day)
    args.daily = day.isoformat()
    args.note = _practice_note(args, day.isoformat())
    return cli._play(args, ["daily", *argv])


def _person(args: argparse.Namespace) -> str:
    """The name the day's games are stored under (the left seat's, as remembered)."""
    from spit_tui.names import DEFAULT_NAMES, choose

    given, _ = choose((getattr(args, "left_name", None), None))
    return given[0] or DEFAULT_NAMES[0]


def _practice_note(args: argparse.Namespace, day: str) -> str | None:
    path = Path(args.db) if args.db else db.default_path()
    if args.no_history or not path.exists():
        return None
    try:
        conn = db.connect_read(path)
    except db.HistoryError:
        return None
    try:
        first = daily.scored(conn, _person(args)).get(day)
    except sqlite3.Error:
        return None
    finally:
        conn.close()
    if first is None:
        return None
    return f"Today's deal is played ({first.share()}): this game is practice."


def history_main(argv: list[str], now: Now = _utc_now) -> int:
    p = Parser(prog="spit-tui daily --history", description="Your daily deals.")
    p.add_argument("--player", metavar="NAME", help="whose days (default: the left player's name)")
    p.add_argument("--db", metavar="FILE", help="the history file (default: user data directory)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    args = p.parse_args(argv)
    name = args.player or _person(argparse.Namespace(left_name=None))
    path = Path(args.db) if args.db else db.default_path()
    if not path.exists():
        write_out("No daily deals played yet: spit-tui daily\n")
        return 0
    try:
        conn = db.connect_read(path)
        try:
            days = daily.scored(conn, name)
            tries = daily.attempts(conn, name)
        finally:
            conn.close()
    except db.HistoryError as e:
        return fail(str(e))
    except sqlite3.Error as e:
        return fail(db.reason(e, path))
    today = daily.day_of(now())
    run = daily.streak(set(days), today)
    if args.json:
        out = {
            "player": name,
            "today": today.isoformat(),
            "streak": run,
            "days": [{**a._asdict(), "share": a.share()} for a in days.values()],
        }
        write_out(json.dumps(out, indent=2) + "\n")
        return 0
    if not days:
        write_out(f"No daily deals played by {name} yet: spit-tui daily\n")
        return 0
    practice = {d: sum(1 for t in tries if t.day == d) - 1 for d in days}
    lines = [f"Daily deals of {name} · streak: {run} day{'s' if run != 1 else ''}"]
    for d, a in sorted(days.items(), reverse=True):
        extra = f"  (+{practice[d]} practice)" if practice[d] else ""
        lines.append(f"  {a.share()}{extra}")
    if today.isoformat() not in days:
        lines.append(f"Today's deal ({today.isoformat()}) is still to play: spit-tui daily")
    write_out("\n".join(lines) + "\n")
    return 0
