"""The command line: one-line reasons and exit status 2 for bad arguments."""

from __future__ import annotations

import subprocess
import sys

import pytest

from spit_tui import __version__, cli

BAD = [
    (["--variant", "poker"], "invalid choice"),
    (["--target", "0"], "more than 0"),
    (["--target", "-5", "--variant", "points"], "more than 0"),
    (["--target", "ten", "--variant", "points"], "not a number"),
    (["--target", "50"], "--target only applies to --variant points"),
    (["--seed", "abc"], "not a whole number"),
    (["--position", "play 1 two"], "--position"),
    (["--position", "play 1 two - :7h/-/-/-/- - 8s/9s :Kd/-/-/-/- - 0,0"], "52 cards"),
    (["--frobnicate"], "unrecognized"),
]


@pytest.mark.parametrize(("argv", "reason"), BAD)
def test_bad_arguments_one_line_and_exit_2(
    argv: list[str], reason: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("spit-tui: ")
    assert reason in err
    assert "Traceback" not in err


def test_help_and_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--version"]) == 0
    assert __version__ in capsys.readouterr().out
    assert cli.main(["--help"]) == 0
    out = capsys.readouterr().out
    for flag in ("--variant", "--target", "--seed", "--manual-flip", "--position"):
        assert flag in out


def test_sim_is_dispatched_lazily(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[list[str]] = []

    class FakeSim:
        @staticmethod
        def main(argv: list[str]) -> int:
            seen.append(argv)
            return 0

    monkeypatch.setitem(sys.modules, "spit_tui.sim", FakeSim)  # type: ignore[arg-type]
    import spit_tui

    monkeypatch.setattr(spit_tui, "sim", FakeSim, raising=False)
    assert cli.main(["sim", "--games", "3"]) == 0
    assert seen == [["--games", "3"]]


def test_sim_missing_says_so(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "spit_tui.sim", None)  # type: ignore[arg-type]
    import spit_tui

    monkeypatch.delattr(spit_tui, "sim", raising=False)
    assert cli.main(["sim"]) == 2
    assert "sim is not available" in capsys.readouterr().err


def test_python_dash_m_bad_argument_has_no_traceback() -> None:
    r = subprocess.run(
        [sys.executable, "-m", "spit_tui", "--variant", "x"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert r.returncode == 2
    assert "Traceback" not in r.stderr and r.stderr.count("\n") == 1
