"""The daily deal (issue 23, item 3) on a real SQLite file: the day's deal from
the UTC date, the first finished attempt scored and later ones practice, the
streak of days and the line to share. Time is always passed in."""

from __future__ import annotations

import argparse
import json
from datetime import UTC, date, datetime, timedelta, timezone
from pathlib import Path

import pytest
from testkit.store import stored_match

from spit_tui import cli, dailycmd
from spit_tui.engine import Game, Player
from spit_tui.players.ladder import HUMANS
from spit_tui.store import daily

R = Player.RIGHT
WEEK = [date(2026, 12, 1) + timedelta(days=i) for i in range(7)]


def play_day(path: Path, day: date, seed: int, who: str = "practised"):  # type: ignore[no-untyped-def]
    """The person (a human model) plays the day's deal against the day's rung."""
    return stored_match(
        path, seed, (HUMANS[who], daily.LEVEL), names=("ANN", f"computer ({daily.LEVEL})"),
        rungs={R: 7}, daily=day.isoformat(), deal=daily.seed_for(day),
    )


def test_the_deal_comes_from_the_utc_date_alone() -> None:
    assert daily.seed_for(date(2026, 12, 2)) == daily.seed_for(date(2026, 12, 2))
    assert daily.seed_for(date(2026, 12, 2)) == 193231235  # the same on every machine
    assert len({daily.seed_for(d) for d in WEEK}) == 7
    late = datetime(2026, 12, 1, 23, 30, tzinfo=timezone(timedelta(hours=-5)))
    assert daily.day_of(late) == date(2026, 12, 2)  # 04:30 UTC the next day
    assert Game(seed=daily.seed_for(WEEK[0])).start == Game(seed=daily.seed_for(WEEK[0])).start


def test_first_finished_attempt_is_scored_later_ones_are_practice(tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite3"
    match, _, writer = play_day(path, WEEK[0], 1)
    first = writer.figures_for(match.table)
    assert f"daily {WEEK[0].isoformat()}: scored" in first
    match, _, writer = play_day(path, WEEK[0], 2)
    assert "practice: today's score stands" in writer.figures_for(match.table)
    import sqlite3

    conn = sqlite3.connect(path)
    (scored,) = daily.scored(conn, "ANN").values()
    assert scored.game_id == 1 and len(daily.attempts(conn, "ANN")) == 2
    conn.close()


def test_a_week_of_daily_deals_history_streak_and_share_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "h.sqlite3"
    for i, day in enumerate(WEEK[:6]):
        if i != 3:  # a day missed breaks the streak
            play_day(path, day, 10 + i)
    play_day(path, WEEK[5], 30)  # practice on the last day
    at = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)
    assert dailycmd.main(["--history", "--player", "ANN", "--db", str(path)], now=lambda: at) == 0
    out = capsys.readouterr().out
    assert "streak: 2 days" in out and "(+1 practice)" in out
    assert out.count("spit-tui daily 2026-12-") == 5
    line = next(x.strip() for x in out.splitlines() if "2026-12-06" in x)
    assert line.startswith("spit-tui daily 2026-12-06 · ")
    assert " cards/min · " in line and line.split("(")[0].strip().endswith("rounds")
    # the next day, the streak still stands until the day is over; then it is still to play
    nxt = datetime(2026, 12, 7, 9, 0, tzinfo=UTC)
    assert dailycmd.main(["--history", "--player", "ANN", "--db", str(path), "--json"],
                         now=lambda: nxt) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["streak"] == 2 and data["today"] == "2026-12-07" and len(data["days"]) == 5
    assert daily.streak({"2026-12-05", "2026-12-06"}, date(2026, 12, 8)) == 0


def test_daily_starts_the_days_deal_against_the_fixed_rung(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[argparse.Namespace] = []
    monkeypatch.setattr(cli, "_play", lambda args, argv: seen.append(args) or 0)
    at = datetime(2026, 12, 2, 8, 0, tzinfo=UTC)
    db = str(tmp_path / "h.sqlite3")
    assert dailycmd.main(["--db", db], now=lambda: at) == 0
    args = seen[-1]
    assert (args.seed, args.level, args.daily) == (193231235, "normal", "2026-12-02")
    assert args.vs_computer and args.note is None
    assert dailycmd.main(["--db", db, "--level", "hard"], now=lambda: at) == 0
    assert seen[-1].level == "hard" and seen[-1].seed == 193231235
    play_day(tmp_path / "h.sqlite3", date(2026, 12, 2), 1)
    assert dailycmd.main(["--db", db, "--left-name", "ANN"], now=lambda: at) == 0
    assert "this game is practice" in seen[-1].note


@pytest.mark.parametrize("bad", [["--seed", "3"], ["--demo"], ["--variant", "points"],
                                 ["--level", "auto"], ["--bogus"], ["--history", "--bogus"]])
def test_what_the_daily_deal_fixes_cannot_be_changed(
    bad: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert dailycmd.main(bad) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_a_daily_game_quit_and_resumed_stays_the_days_game(tmp_path: Path) -> None:
    from test_resume_store import OPTIONS, resume_and_finish, run, seated

    from spit_tui.clock import VirtualClock
    from spit_tui.store.history import HistoryWriter
    from spit_tui.store.resume import find_stopped
    from spit_tui.table import Table

    path = tmp_path / "h.sqlite3"
    day = WEEK[2].isoformat()
    table = Table(Game(options=OPTIONS, seed=daily.seed_for(WEEK[2])), VirtualClock())
    writer = HistoryWriter(path, threaded=False)
    writer.names, writer.daily, writer.tags = ("ANN", "BO"), day, {"Daily": day}
    writer.attach(table)
    seated(table, 1)
    run(table, until=30.0)
    while table.counting_down:
        table.clock.tick(table.clock.now() + 0.1)
    writer.finish(table)  # quit in play: stored unfinished, not scored
    import sqlite3

    conn = sqlite3.connect(path)
    assert daily.attempts(conn, "ANN") == []
    stopped = find_stopped(path)
    assert stopped is not None
    resume_and_finish(path, stopped, 1)  # a session that knows nothing of the daily deal
    assert [a.day for a in daily.attempts(conn, "ANN")] == [day]
    conn.close()


def test_help_says_what_the_daily_deal_is(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["daily", "--help"]) == 0
    assert "Today's deal against the computer" in capsys.readouterr().out
    assert cli.main(["daily", "--history", "--help"]) == 0
    assert "--player NAME" in capsys.readouterr().out
