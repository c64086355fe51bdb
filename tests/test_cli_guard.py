"""cli.main's last line of defence: whatever escapes a command becomes one line."""

from __future__ import annotations

from pathlib import Path

import pytest

from spit_tui import cli
from spit_tui.command import one_line, shown


def test_ctrl_c_before_the_board_is_one_line_and_exit_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def interrupted(_args: list[str]) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "_dispatch", interrupted)
    assert cli.main(["--seed", "1"]) == 130
    assert capsys.readouterr().err == "spit-tui: interrupted\n"


def test_an_unexpected_error_anywhere_is_one_line_and_a_report(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], user_dirs: Path
) -> None:
    def broken(_args: list[str]) -> int:
        raise ZeroDivisionError("division by zero\nsecond line")

    monkeypatch.setattr(cli, "_dispatch", broken)
    assert cli.main(["--seed", "1"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "internal error (ZeroDivisionError: division by zero second line)" in err
    (report,) = (user_dirs / "xdg_cache_home" / "spit-tui" / "crash").iterdir()
    assert "ZeroDivisionError" in report.read_text()


def test_overlong_words_are_cut_in_an_error_line() -> None:
    assert shown("x" * 41) == "x" * 40 + "... (41 characters)"
    line = one_line("bad value: '" + "7" * 5000 + "'\nmore")
    assert "\n" not in line and len(line) < 100 and "(5,002 characters)" in line
