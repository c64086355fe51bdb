"""Resume and the history (issue 13, item 5): a game stopped in play is found
(the newest one whose record replays), continued in the same row, and once
finished it is one finished game whose one record replays to its final position."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest
from testkit.store import rows

from spit_tui import cli
from spit_tui.clock import VirtualClock
from spit_tui.engine import (
    Game,
    Options,
    Phase,
    Player,
    Variant,
    format_position,
    parse_record,
    replay_record,
)
from spit_tui.players.bot import Bot
from spit_tui.players.ladder import level_named
from spit_tui.store.history import HistoryWriter
from spit_tui.store.resume import Stopped, computer_seats, computer_tag, find_stopped
from spit_tui.table import Table

OPTIONS = Options(variant=Variant.POINTS, target=60)  # about two minutes of expert play


def seated(table: Table, seed: int) -> list[Bot]:
    rng = random.Random(seed)
    bots = [
        Bot(table, p, level_named("expert"), rng=random.Random(rng.getrandbits(64)))
        for p in Player
    ]
    for bot in bots:
        bot.attach()
    return bots


def run(table: Table, until: float | None = None) -> None:
    """Step the bots' clock until the game is over (or `until` seconds of play)."""
    clock = table.clock
    assert isinstance(clock, VirtualClock)
    while table.position.phase is not Phase.OVER:
        due = clock.next_time()
        assert due is not None, "stalled"
        if until is not None and due > table.shown.started_at + until:
            clock.tick(table.shown.started_at + until)
            return
        clock.step()


def stop_a_game(path: Path, seed: int, after: float, names: tuple[str, str]) -> None:
    table = Table(Game(options=OPTIONS, seed=seed), VirtualClock())
    writer = HistoryWriter(path, threaded=False)
    writer.names = names
    writer.attach(table)
    seated(table, seed)
    run(table, until=after)
    while table.counting_down:  # a quit then loses the last ready: stop just after it
        table.clock.tick(table.clock.now() + 0.1)
    writer.finish(table)  # what the app does when it ends


def resume_and_finish(path: Path, stopped: Stopped, seed: int) -> HistoryWriter:
    table = Table(Game(), VirtualClock())
    table.resume(stopped.record, stopped.clock_seconds)
    writer = HistoryWriter(path, threaded=True)
    writer.names = stopped.names
    writer.attach(table)
    writer.resume(table, stopped)
    seated(table, seed + 1)  # other bots' luck: the deals are the record's
    run(table)
    writer.close()
    return writer


def test_a_stopped_game_resumed_and_finished_is_one_finished_game_in_the_history(
    tmp_path: Path,
) -> None:
    path = tmp_path / "h.sqlite3"
    stop_a_game(path, 5, after=40.0, names=("ANA", "BEN"))
    ((n, finished, seconds, stored_text),) = rows(
        path, "SELECT count(*), finished, play_seconds, record FROM games"
    )
    assert (n, finished) == (1, 0)
    stopped = find_stopped(path)
    assert stopped is not None
    assert stopped.names == ("ANA", "BEN") and stopped.play_seconds == seconds
    assert stopped.clock_seconds == 40.0 and 0 < stopped.play_seconds < 40.0  # no spit waits
    stored = parse_record(str(stored_text))
    writer = resume_and_finish(path, stopped, 5)
    assert writer.problem is None
    ((n, finished, result, seconds, text, final, rounds),) = rows(
        path,
        "SELECT count(*), finished, result, play_seconds, record, final_position, rounds"
        " FROM games",
    )
    assert (n, finished) == (1, 1) and result in ("L", "R")
    record = parse_record(str(text))
    # one record: the stored log, stamps and all, goes on
    assert record.actions[: len(stored.actions)] == stored.actions
    assert record.stamps[: len(stored.stamps)] == stored.stamps
    stamps = [s.ms for s in record.stamps if s is not None]
    assert stamps == sorted(stamps) and len(stamps) == len(record.actions)
    assert float(str(seconds)) > 40.0  # the game's time ran on from where it stopped
    game = replay_record(record)
    assert format_position(game.position) == final and game.over
    assert rows(path, "SELECT count(*) FROM rounds") == [(rounds,)]
    assert find_stopped(path) is None  # nothing left to resume


def test_the_newest_stopped_game_is_found_and_finished_or_damaged_ones_are_not(
    tmp_path: Path,
) -> None:
    path = tmp_path / "h.sqlite3"
    assert find_stopped(path) is None  # no history yet: nothing to resume
    stop_a_game(path, 1, after=10.0, names=("ANA", "BEN"))
    stop_a_game(path, 2, after=12.0, names=("CY", "DI"))
    stopped = find_stopped(path)
    assert stopped is not None and stopped.names == ("CY", "DI") and stopped.game_id == 2
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("UPDATE games SET record = 'L9z junk' WHERE id = 2")  # does not replay
    conn.close()
    stopped = find_stopped(path)
    assert stopped is not None and stopped.game_id == 1 and stopped.round >= 1
    assert "(ANA v BEN)" in stopped.offer() and stopped.offer().startswith("F5: resume the game")
    resume_and_finish(path, stopped, 1)
    assert find_stopped(path) is None
    assert rows(path, "SELECT record FROM games WHERE id = 2") == [("L9z junk",)]  # kept as is


def test_lost_races_and_the_start_time_carry_over(tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite3"
    stop_a_game(path, 9, after=60.0, names=("ANA", "BEN"))
    (started, lost) = rows(
        path,
        "SELECT g.started, sum(gp.races_lost) FROM games g JOIN game_players gp"
        " ON gp.game_id = g.id",
    )[0]
    stopped = find_stopped(path)
    assert stopped is not None and sum(stopped.lost_races) == lost
    resume_and_finish(path, stopped, 9)
    assert rows(path, "SELECT started FROM games") == [(started,)]
    ((lost_after,),) = rows(path, "SELECT sum(races_lost) FROM game_players")
    assert int(str(lost_after)) >= int(str(lost))


def test_where_the_computer_sat_is_kept_in_a_tag() -> None:
    levels = {Player.RIGHT: "hard"}
    tags = computer_tag(levels)
    assert tags == {"Computer": "R hard"}
    assert computer_seats(tags) == levels
    assert computer_seats({}) == {} and computer_tag({}) == {}
    both = {Player.LEFT: "easy", Player.RIGHT: "auto"}
    assert computer_seats(computer_tag(both)) == both


@pytest.mark.parametrize(
    "flag",
    [
        ["--seed", "0"],
        ["--variant", "points"],
        ["--left-name", "ANA"],
        ["--vs-computer"],
        ["--position", "x"],
        ["--manual-flip"],
    ],
)
def test_resume_with_an_option_of_its_own_game_is_one_line_and_status_2(
    flag: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["--resume", *flag]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"drop {flag[0]}" in err


def test_resume_with_nothing_to_resume_says_so_and_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A player who asked to go on with a game expects that game: a new one they
    did not ask for would hide that it is gone. One line, status 1."""
    path = tmp_path / "h.sqlite3"
    assert cli.main(["--resume", "--db", str(path)]) == 1
    err = capsys.readouterr().err
    assert err == f"spit-tui: no game to resume: none was quit in play ({path})\n"
    assert not path.exists()  # looking made no file
    stop_a_game(path, 3, after=5.0, names=("ANA", "BEN"))
    stopped = find_stopped(path)
    assert stopped is not None
    resume_and_finish(path, stopped, 3)
    assert cli.main(["--resume", "--db", str(path)]) == 1  # finished: nothing to resume
    assert "no game to resume" in capsys.readouterr().err
    assert cli.main(["--resume", "--no-history"]) == 2
    assert "--resume reads the history" in capsys.readouterr().err
    monkeypatch.setenv("SPIT_NO_HISTORY", "1")
    assert cli.main(["--resume", "--db", str(path)]) == 1
    assert "SPIT_NO_HISTORY is set" in capsys.readouterr().err


def test_resume_from_a_damaged_history_is_one_line_and_the_file_is_untouched(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "h.sqlite3"
    path.write_bytes(b"not a database" * 200)
    assert cli.main(["--resume", "--db", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("spit-tui: --resume: ") and err.count("\n") == 1
    assert path.read_bytes() == b"not a database" * 200


@pytest.mark.parametrize("names", [("ANA", "BEN"), ("LEFT", "RIGHT")])
def test_a_resumed_game_keeps_its_own_players_whatever_names_are_remembered(
    tmp_path: Path, names: tuple[str, str]
) -> None:
    from spit_tui.names import load, save

    path = tmp_path / "h.sqlite3"
    stop_a_game(path, 4, after=5.0, names=names)
    save(("CY", "DI"))  # the names the next new game would get
    args = cli.build_parser().parse_args(["--resume", "--db", str(path)])
    stopped = cli._stopped_game(args)
    assert stopped is not None
    app = cli._make_app(args, stopped.record.options, None, args.level or "normal")
    assert app.stored_names() == names
    assert load().names == ("CY", "DI")  # and they are still remembered
