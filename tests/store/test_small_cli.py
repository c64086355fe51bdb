"""Odd numbers and names on the history's command lines (issue 22, item 22):
Unicode digits, ids past SQLite's integers, a 3,000-character --bind. One
line, exit 2, never "internal error"; and `replay` with no terminal exits 1,
as the game does."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from testkit.store import stored_match

from spit_tui import cli

HUGE = "99999999999999999999999"


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("h") / "h.sqlite3"
    stored_match(path, 1, names=("ANN", "BO"))
    return path


CASES = [
    (["replay", "²"], "²"),
    (["replay", "①"], "①"),
    (["replay", HUGE], "no game"),
    (["replay", "0"], "no game"),
    (["export", HUGE, "-"], "at most"),
    (["export", "\u0661", "-"], "not a number"),  # ARABIC-INDIC DIGIT ONE
    (["history", "--limit", "99999999999999999999"], "at most"),
    (["history", "--limit", "²"], "not a number"),
    (["replay", "9223372036854775807"], "no game"),
    (["export", "9223372036854775807", "-"], "no game"),
]


@pytest.mark.parametrize(("argv", "words"), CASES, ids=[" ".join(a) for a, _ in CASES])
def test_odd_numbers_are_one_line_and_exit_2(
    history: Path, argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main([*argv, "--db", str(history)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1, err
    assert "internal error" not in err and words in err, err


def test_a_3000_character_bind_is_one_line_and_exit_2() -> None:
    p = subprocess.run(
        [sys.executable, "-m", "spit_tui", "host", "--port", "0", "--no-history",
         "--bind", "a" * 3000],
        capture_output=True, text=True, timeout=20, stdin=subprocess.DEVNULL,
    )
    assert p.returncode == 2, p.stderr
    assert p.stderr.count("\n") == 1 and "--bind" in p.stderr and "3,000 characters" in p.stderr
    assert "internal error" not in p.stderr and len(p.stderr) < 200


def test_replay_with_no_terminal_exits_1_as_the_game_does(history: Path) -> None:
    run = [sys.executable, "-m", "spit_tui"]
    statuses = []
    for argv in (["--seed", "1"], ["replay", "1", "--db", str(history)]):
        p = subprocess.run(
            [*run, *argv], capture_output=True, text=True, timeout=20,
            stdin=subprocess.DEVNULL, env={**os.environ, "SPIT_NO_HISTORY": "1"},
        )
        assert p.stderr.count("\n") == 1 and "terminal" in p.stderr, p.stderr
        statuses.append(p.returncode)
    assert statuses == [1, 1]


@pytest.mark.parametrize("name", ["stats", "history", "export"])
def test_a_bad_argument_names_the_command_and_its_help(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """`spit-tui stats nobody` said "spit-tui: ... (try spit-tui --help)", whose
    help does not know the command's own options."""
    assert cli.main([name, "--no-such-option"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"spit-tui {name}: ") and f"(try spit-tui {name} --help)" in err, err
