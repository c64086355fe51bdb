"""Hostile input, round two (issue 10, items 2 and 14): crashes, output that
cannot be written, overlong values and bogus Textual settings, each run as a
real process (on a pseudo-terminal where the game needs one).

- Any unexpected error: the terminal restored, one line naming the error and
  the report file (traceback inside), exit status 1, no traceback on screen.
  The crash is injected with the test-only hook SPIT_TEST_CRASH (spit_tui.crash).
- `--help > /dev/full`: one line, exit status 1.
- A 5,000-digit --seed: one short line, not the whole value.
- TEXTUAL_DRIVER=bogus, TEXTUAL_COLOR_SYSTEM=bogus, TEXTUAL_THEME=bogus: one
  line, exit status 1
  (an environment that cannot show the board, as a terminal that cannot).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from testkit.ptygame import BOARD, PtyGame, game_env, run_refused

HAS_DEV_FULL = os.path.exists("/dev/full")
RESTORES = (b"\x1b[?1049l", b"\x1b[?25h")  # leave the alternate screen; show the cursor


def one_line(err: str) -> str:
    assert err.count("\n") == 1 and err.endswith("\n"), err
    assert err.startswith("spit-tui"), err
    assert "Traceback" not in err, err
    return err


def report_path(err: str) -> Path:
    m = re.search(r"the report is in (\S+\.txt)", err)
    assert m, err
    return Path(m[1])


def test_a_crash_in_the_app_exits_1_with_one_line_and_a_report(tmp_path: Path) -> None:
    env = game_env(SPIT_TEST_CRASH="key", XDG_CACHE_HOME=str(tmp_path / "cache"))
    # (no history: on a busy machine "q" may come after the opening's guard and count
    # as a spit, and a game kept to resume adds its own line after the crash's)
    game = PtyGame(["--seed", "1", "--no-history"], env)
    assert game.wait_for(BOARD), game.output[-500:]
    game.type(b"q")
    code, _ = game.finish()
    assert code == 1, (code, game.output[-2000:])
    line = one_line(game.after_board())
    assert "internal error (DeliberateCrash: deliberate crash at key" in line
    report = report_path(line)
    assert report.parent == tmp_path / "cache" / "spit-tui" / "crash"
    text = report.read_text()
    assert "Traceback (most recent call last)" in text and "DeliberateCrash" in text
    assert "position: spit 1 two" in text  # the game as it was
    after = game.output.split(BOARD, 1)[1]
    for mode_off in RESTORES:
        assert mode_off in after, mode_off
    assert b"Traceback" not in game.output  # not on the screen, before or after


def test_a_crash_before_the_board_exits_1_with_one_line_and_a_report(tmp_path: Path) -> None:
    env = game_env(SPIT_TEST_CRASH="start", XDG_CACHE_HOME=str(tmp_path / "cache"))
    code, err = run_refused(["--seed", "1"], env)
    assert code == 1, (code, err)
    line = one_line(err)
    assert "internal error (DeliberateCrash" in line
    assert "Traceback" in report_path(line).read_text()


def test_a_crash_whose_report_cannot_be_written_says_so_in_the_same_line(
    tmp_path: Path,
) -> None:
    plain = tmp_path / "a-file"
    plain.write_text("not a directory")
    env = game_env(SPIT_TEST_CRASH="start", XDG_CACHE_HOME=str(plain / "cache"))
    code, err = run_refused(["--seed", "1"], env)
    assert code == 1, (code, err)
    line = one_line(err)
    assert "internal error (DeliberateCrash" in line
    assert "no report could be written to" in line and "Not a directory" in line


@pytest.mark.skipif(not HAS_DEV_FULL, reason="this machine has no /dev/full")
@pytest.mark.parametrize(
    "args",
    [["--help"], ["--version"], ["sim", "--help"], ["layouts"], ["layouts", "--help"]],
)
def test_help_to_a_full_disk_is_one_line_and_non_zero(args: list[str]) -> None:
    """Buffered or not (PYTHONUNBUFFERED=1 makes print itself fail)."""
    for unbuffered in ("", "1"):
        check_full_disk(args, {**os.environ, "PYTHONUNBUFFERED": unbuffered})


def check_full_disk(args: list[str], env: dict[str, str]) -> None:
    with open("/dev/full", "w") as full:
        r = subprocess.run(
            [sys.executable, "-m", "spit_tui", *args],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=30,
            env=env,
        )
    assert r.returncode == 1, (args, r.returncode, r.stderr)
    assert "No space left on device" in one_line(r.stderr)
    assert "internal error" not in r.stderr


def test_a_5000_digit_seed_is_not_echoed_whole() -> None:
    for seed in ("9" * 5000, "9" * 5000 + "x", "x" * 5000):
        r = subprocess.run(
            [sys.executable, "-m", "spit_tui", "--seed", seed],
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert r.returncode == 2
        line = one_line(r.stderr)
        assert len(line) < 200, line
        assert "--seed" in line and "characters" in line


@pytest.mark.parametrize(
    ("var", "value"),
    [
        ("TEXTUAL_DRIVER", "bogus"),
        ("TEXTUAL_DRIVER", "os:path"),
        ("TEXTUAL_DRIVER", "no.such.module:Driver"),
        ("TEXTUAL_COLOR_SYSTEM", "bogus"),
        ("TEXTUAL_COLOR_SYSTEM", ""),
        ("TEXTUAL_THEME", "no-such-theme"),
    ],
)
def test_bogus_textual_driver_and_color_system_are_one_line_exit_1(var: str, value: str) -> None:
    code, err = run_refused(["--seed", "1"], game_env(**{var: value}))
    assert code == 1, (code, err)
    assert var in one_line(err)


def test_a_good_textual_color_system_still_plays() -> None:
    game = PtyGame(["--seed", "1"], game_env(TEXTUAL_COLOR_SYSTEM="256"))
    assert game.wait_for(BOARD)
    assert game.quit() == (0, "")


def test_textual_theme_may_name_the_games_own_light_theme() -> None:
    """TEXTUAL_THEME=spit-light (registered by the game after Textual read the
    variable) draws the board on white, not Textual's fallback."""
    game = PtyGame(["--seed", "1"], game_env(TEXTUAL_THEME="spit-light"))
    white = (b"48;2;255;255;255", b"48;5;231")  # truecolor or 256 colours
    # the board and its white, waited for together (a frame may come in pieces)
    assert game.wait_for(lambda out: BOARD in out and any(w in out for w in white)), (
        game.output[-300:])
    assert game.quit() == (0, "")
