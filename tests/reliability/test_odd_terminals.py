"""Odd terminals (issue 6), the fast part: NO_COLOR, TERM=dumb, non-UTF-8
locales and no terminal at all. The same in a real terminal (tmux, screen) is
in test_real_terminal.py (slow)."""

from __future__ import annotations

import io
import subprocess
import sys

import pytest
from rich.segment import Segment
from rich.style import Style
from testkit.app import make_app, settle
from testkit.board import board_problems, read_board, screen_lines
from textual.color import Color
from textual.filter import Monochrome, NoColor

from spit_tui.terminal import is_utf8_locale, locale_name, terminal_problem


class FakeTTY(io.StringIO):
    def isatty(self) -> bool:
        return True


TTY = FakeTTY()


@pytest.mark.parametrize(
    ("env", "fine"),
    [
        ({"TERM": "xterm-256color", "LANG": "en_GB.UTF-8"}, True),
        ({"TERM": "screen", "LANG": "C.UTF-8"}, True),
        ({"TERM": "tmux-256color", "LC_ALL": "de_DE.utf8", "LANG": "C"}, True),
        ({"TERM": "xterm"}, True),  # no locale at all: UTF-8, as Python takes it
        ({"TERM": "xterm", "LANG": ""}, True),
        ({"TERM": "xterm", "LC_CTYPE": "sr_RS.UTF-8@latin"}, True),
        ({"TERM": "dumb", "LANG": "C.UTF-8"}, False),
        ({"TERM": "xterm", "LC_ALL": "C"}, False),
        ({"TERM": "xterm", "LANG": "POSIX"}, False),
        ({"TERM": "xterm", "LANG": "de_DE.ISO-8859-1"}, False),
        ({"TERM": "xterm", "LANG": "en_US"}, False),  # glibc: ISO-8859-1
        ({"TERM": "xterm", "LC_ALL": "ru_RU.KOI8-R", "LANG": "ru_RU.UTF-8"}, False),
    ],
)
def test_terminal_problem(env: dict[str, str], fine: bool) -> None:
    problem = terminal_problem(env, TTY, TTY)
    assert (problem is None) == fine, problem
    if problem is not None:
        assert "\n" not in problem
        assert ("TERM=dumb" in problem) == (env["TERM"] == "dumb")
        if env["TERM"] != "dumb":
            assert locale_name(env) in problem and "UTF-8" in problem


def test_locale_names() -> None:
    assert is_utf8_locale("en_US.UTF-8") and is_utf8_locale("C.utf8")
    assert not is_utf8_locale("C") and not is_utf8_locale("en_US.ISO-8859-15")


@pytest.mark.parametrize(("stdin", "stdout"), [(subprocess.DEVNULL, None), (None, subprocess.PIPE)])
def test_no_terminal_is_one_line_not_a_stuck_process(stdin: object, stdout: object) -> None:
    """Input from /dev/null used to leave the game spinning on end-of-file forever."""
    r = subprocess.run(
        [sys.executable, "-m", "spit_tui", "--seed", "1"],
        stdin=stdin if stdin is not None else subprocess.DEVNULL,
        stdout=stdout if stdout is not None else subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        timeout=30,
    )
    err = r.stderr.decode()
    assert r.returncode == 1
    assert err.count("\n") == 1 and "needs a terminal" in err, err


async def test_no_color_board_has_no_colour_and_reads_by_symbol(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app(seed=3, spat=True)
    assert app.no_color
    assert not any(isinstance(f, Monochrome) for f in app._filters)
    assert any(isinstance(f, NoColor) for f in app._filters)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.pause()
        bad = board_problems(read_board(app), app.table.position)
        assert not bad
        text = "".join("".join(r) for r in screen_lines(app))
        assert any(s in text for s in "♠♣") and any(s in text for s in "♥♦")
        # a red card as the terminal gets it, through the app's filters
        red = [Segment("A♥", Style(color="red", bold=True))]
        for f in app.get_line_filters():
            red = f.apply(red, Color(0, 0, 0))
        (seg,) = red
        assert seg.style is not None and seg.style.bold
        assert seg.style.color is None or seg.style.color.is_default
