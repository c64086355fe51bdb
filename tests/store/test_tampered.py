"""A tampered history (issue 22, item 12): every value read back is untrusted.

A real history (finished games and one stopped in play) is changed with
SQLite the way anyone could: text where numbers belong, a BLOB record, a
dropped table, a schema version of 'abc', Rich markup and escape sequences
in names. Then `stats`, `history`, `export`, `--resume` and a new session's
writer run over it: one line at most about what was left out (exit 0), or one
line and exit 2 when the file cannot be read at all; never an internal error,
never an escape sequence or markup from the file on the terminal, and the
writer goes on storing new games wherever the file is still a history."""

from __future__ import annotations

import contextlib
import io
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_resume_store import stop_a_game
from testkit.store import rows, stored_match

from spit_tui import cli
from spit_tui.store import db
from spit_tui.store.history import HistoryWriter
from spit_tui.store.resume import find_stopped

ESC_NAME = "char(27) || ']0;owned' || char(7) || char(27) || '[2J'"

# name -> SQL; the file stays a usable history after each of these
USABLE = {
    "clock text": "UPDATE games SET clock_seconds = 'abc' WHERE finished = 0",
    "play seconds text": "UPDATE games SET play_seconds = 'abc' WHERE id = 1",
    "cards text": "UPDATE game_players SET cards = 'many' WHERE game_id = 2",
    "won text": "UPDATE game_players SET won = 'yes' WHERE game_id = 2",
    "blob record": "UPDATE games SET record = X'00ff1b5b324a'",
    "reactions text": "UPDATE game_players SET reactions = 'abc'",
    "rounds text": "UPDATE games SET rounds = 'x', finished = 'y' WHERE id = 3",
    "started blob": "UPDATE games SET started = X'1b5b324a'",
    "markup": "UPDATE games SET variant = '[/]', left_name = '[bold red]x[/]'",
    "escape names": (
        f"UPDATE games SET left_name = {ESC_NAME}, right_name = {ESC_NAME};"
        f" UPDATE game_players SET name = {ESC_NAME} || seat"
    ),
    "escape in record": "UPDATE games SET record = record || char(27) || ']52;c;owned' || char(7)",
    "huge numbers": "UPDATE games SET play_seconds = 1e308 * 10, rounds = 9223372036854775807",
    "negative": "UPDATE games SET play_seconds = -5, clock_seconds = -1",
    "names 5 MB": "UPDATE games SET left_name = printf('%.5000000c', 'x') WHERE finished = 0",
}
# the file is no longer a history this spit-tui can read
DAMAGED = {
    "dropped table": "DROP TABLE game_players",
    "schema version abc": "UPDATE schema_version SET version = 'abc'",
    "schema version blob": "UPDATE schema_version SET version = X'00'",
    "schema version float": "UPDATE schema_version SET version = 2.5",
}


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("h") / "h.sqlite3"
    for seed in range(3):
        stored_match(path, seed, names=("ANN", "BO"))
    stop_a_game(path, seed=5, after=20.0, names=("ANN", "BO"))
    return path


def tampered(base: Path, tmp_path: Path, sql: str) -> Path:
    path = tmp_path / "h.sqlite3"
    shutil.copy(base, path)
    conn = sqlite3.connect(path)
    conn.executescript(sql)
    conn.close()
    return path


def _clean(out: str, err: str) -> None:
    assert "internal error" not in err and "Traceback" not in err, err
    assert err.count("\n") <= 1, err
    for text in (out, err):
        assert "\x1b" not in text and "\x07" not in text, repr(text[:400])
    assert "x" * 100 not in out + err


def _commands(path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, tuple[int, str, str]]:
    out = {}
    for name, argv in (
        ("stats", ["stats", "--db", str(path)]),
        ("stats json", ["stats", "--json", "--db", str(path)]),
        ("stats player", ["stats", "--player", "ANN", "--vs", "BO", "--db", str(path)]),
        ("history", ["history", "--db", str(path)]),
        ("export", ["export", "1", "-", "--db", str(path)]),
        ("replay", ["replay", "1", "--db", str(path)]),
        ("resume", ["--resume", "--db", str(path)]),
    ):
        code = cli.main(argv)
        got = capsys.readouterr()
        _clean(got.out, got.err)
        out[name] = (code, got.out, got.err)
    return out


@pytest.mark.parametrize("sql", USABLE.values(), ids=USABLE.keys())
def test_commands_over_a_tampered_history_say_one_line_at_most(
    base: Path, tmp_path: Path, sql: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tampered(base, tmp_path, sql)
    results = _commands(path, capsys)
    for name in ("stats", "stats json", "history"):
        code, _out, err = results[name]
        assert code == 0, (name, err)
        assert not err or "damaged" in err, (name, err)
    assert results["export"][0] in (0, 2)
    assert results["replay"][0] in (1, 2)  # no terminal here, or the record said why
    assert results["resume"][0] == 1  # no terminal here: it got as far as that check, or said why
    stopped = find_stopped(path)  # a game to resume, or none: never an exception
    assert stopped is None or all(n.isprintable() for n in stopped.names)


@pytest.mark.parametrize("sql", USABLE.values(), ids=USABLE.keys())
def test_a_new_session_still_stores_its_games_over_a_tampered_history(
    base: Path, tmp_path: Path, sql: str
) -> None:
    path = tampered(base, tmp_path, sql)
    before = rows(path, "SELECT count(*) FROM games")[0][0]
    _, _, writer = stored_match(path, 7, names=("CY", "DI"), threaded=True)
    assert writer.problem is None, writer.problem
    assert rows(path, "SELECT count(*) FROM games")[0][0] == before + 1
    assert rows(path, "SELECT finished FROM games WHERE left_name = 'CY'") == [(1,)]


@pytest.mark.parametrize("sql", DAMAGED.values(), ids=DAMAGED.keys())
def test_a_history_that_is_no_longer_one_is_one_line_and_left_as_it_was(
    base: Path, tmp_path: Path, sql: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tampered(base, tmp_path, sql)
    was = path.read_bytes()
    for name, (code, _, err) in _commands(path, capsys).items():
        assert code in (1, 2) if name == "resume" else code == 2, (name, code, err)
        assert "damaged" in err, (name, err)
    with pytest.raises(db.HistoryError):
        find_stopped(path)
    told: list[str] = []
    writer = HistoryWriter(path, on_problem=told.append)
    writer.close()
    assert len(told) == 1 and "damaged" in told[0] and "\n" not in told[0]
    assert path.read_bytes() == was


# -- any column, any value -----------------------------------------------------------

COLUMNS = {
    "games": [
        "started", "left_name", "right_name", "variant", "target", "manual_flip", "seed",
        "result", "finished", "play_seconds", "rounds", "record", "final_position",
        "clock_seconds",
    ],
    "game_players": [
        "seat", "name", "won", "cards", "slaps_won", "races_won", "races_lost", "reactions",
    ],
}
VALUES = st.one_of(
    st.none(),
    st.integers(min_value=-(2**63), max_value=2**63 - 1),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=30),
    st.sampled_from(["[/]", "[bold]x", "\x1b[2J\x1b]0;t\x07", "abc", "", "L", "R", "1e400"]),
    st.binary(max_size=30),
)
EDITS = st.lists(
    st.tuples(
        st.sampled_from(sorted(COLUMNS)).flatmap(
            lambda table: st.tuples(st.just(table), st.sampled_from(COLUMNS[table]))
        ),
        st.integers(min_value=1, max_value=4),  # which game
        VALUES,
    ),
    min_size=1,
    max_size=4,
)


@settings(max_examples=25, deadline=None, database=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(edits=EDITS)
def test_any_value_in_any_column_is_never_an_internal_error(
    base: Path, tmp_path_factory: pytest.TempPathFactory, edits: list[tuple[Any, int, object]]
) -> None:
    path = tmp_path_factory.mktemp("any") / "h.sqlite3"
    shutil.copy(base, path)
    conn = sqlite3.connect(path)
    for (table, column), game, value in edits:
        key = "id" if table == "games" else "game_id"
        with contextlib.suppress(sqlite3.IntegrityError):  # NOT NULL: the file refuses it
            conn.execute(f"UPDATE {table} SET {column} = ? WHERE {key} = ?", (value, game))
    conn.commit()
    conn.close()
    for argv in (
        ["stats"], ["stats", "--json"], ["history"], ["export", "1", "-"], ["--resume"],
    ):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = cli.main([*argv, "--db", str(path)])
        _clean(out.getvalue(), err.getvalue())
        assert code in (0, 1, 2), (argv, code, err.getvalue())
    find_stopped(path)  # a game or None, never an exception
    _, _, writer = stored_match(path, 7, names=("CY", "DI"))
    assert writer.problem is None, writer.problem
