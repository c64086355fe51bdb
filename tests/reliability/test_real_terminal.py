"""Process signals and odd terminals in a real terminal (issue 6): tmux on a
private socket, a shell in the pane, the game started from it as a player
would. Slow: run with --run-slow.

- Ctrl+C and Ctrl+Q ask before quitting (Escape goes back).
- SIGTERM and SIGHUP quit cleanly and restore the terminal: cursor visible,
  no mouse reporting, main screen, line mode and echo back, and in the raw
  output every mode switched on (kitty keyboard, bracketed paste, mouse,
  focus events) switched off again. Closing the window (tmux kill-pane) ends
  the process.
- Ctrl+Z suspends (terminal restored, the shell says "Stopped") and `fg`
  brings back the same board.
- NO_COLOR=1: no colour codes at all, suits by symbol. TERM=dumb and a C
  locale: one clear line. Inside GNU screen (nested in tmux) the board draws
  and keys work; screen is installed with apt-get only if SPIT_APT_SCREEN=1.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from testkit.app import wait_for_text
from testkit.tmux import TmuxServer, gone

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux"),
]

ROOT = Path(__file__).resolve().parents[2]
GAME = f"{sys.executable} -m spit_tui"
FLAGS = (
    "cursor=#{cursor_flag} mouse_any=#{mouse_any_flag} mouse_button=#{mouse_button_flag} "
    "mouse_standard=#{mouse_standard_flag} mouse_sgr=#{mouse_sgr_flag} alt=#{alternate_on}"
)
RESTORED = "cursor=1 mouse_any=0 mouse_button=0 mouse_standard=0 mouse_sgr=0 alt=0"


class Shell(TmuxServer):
    """A bash prompt in a tmux pane of its own server; `raw` collects every byte
    the pane's programs write."""

    def __init__(self, tmp: Path, size: tuple[int, int] = (100, 30)) -> None:
        super().__init__("spit-rel")
        self.raw = tmp / "raw.out"
        w, h = size
        self.tmux("new-session", "-d", "-x", str(w), "-y", str(h), "bash --norc --noprofile -i")
        self.tmux("pipe-pane", "-o", f"cat >> {self.raw}")
        self.bash = int(self.tmux("display", "-p", "#{pane_pid}").strip())
        self.type(f"PS1='$ '; cd {ROOT}; clear")
        self.wait_for("$")

    def type(self, line: str) -> None:
        self.tmux("send-keys", "-l", line)
        self.tmux("send-keys", "Enter")

    def keys(self, *keys: str) -> None:
        for k in keys:
            self.tmux("send-keys", k)
            time.sleep(0.08)

    def screen(self, escapes: bool = False) -> str:
        return self.tmux("capture-pane", "-p", *(["-e"] if escapes else []))

    def flags(self) -> str:
        return self.tmux("display", "-p", FLAGS).strip()

    def wait_for(self, text: str, timeout: float = 15.0) -> str:
        return wait_for_text(self.screen, text, timeout)

    def game_pid(self) -> int:
        out = subprocess.run(
            ["ps", "-o", "pid=", "--ppid", str(self.bash)], capture_output=True, text=True
        ).stdout.split()
        assert len(out) == 1, out
        return int(out[0])

    def start(self, args: str = "--seed 1", env: str = "") -> int:
        self.type(f'clear; {env} {GAME} {args}; echo "[rc=$?]"')
        self.wait_for("pile a")
        time.sleep(0.4)  # past the stale-key guard
        return self.game_pid()

    def line_mode(self) -> str:
        self.type("stty -a | grep -o -e ' -\\?icanon' -e ' -\\?echo ' | tr -d '\\n'; echo")
        time.sleep(0.4)
        return self.screen()


@pytest.fixture
def shell(tmp_path: Path) -> Iterator[Shell]:
    sh = Shell(tmp_path)
    yield sh
    sh.close()


def modes_left_on(raw: bytes) -> list[str]:
    """Terminal modes switched on in `raw` and not switched off after."""
    left = []
    pairs = {
        "kitty keyboard": (rb"\x1b\[>\d+u", rb"\x1b\[<u"),
        "bracketed paste": (rb"\x1b\[\?2004h", rb"\x1b\[\?2004l"),
        "mouse": (rb"\x1b\[\?1000h", rb"\x1b\[\?1000l"),
        "mouse motion": (rb"\x1b\[\?1003h", rb"\x1b\[\?1003l"),
        "mouse sgr": (rb"\x1b\[\?1006h", rb"\x1b\[\?1006l"),
        "focus events": (rb"\x1b\[\?1004h", rb"\x1b\[\?1004l"),
        "alternate screen": (rb"\x1b\[\?1049h", rb"\x1b\[\?1049l"),
        "hidden cursor": (rb"\x1b\[\?25l", rb"\x1b\[\?25h"),
    }
    for name, (on, off) in pairs.items():
        ons = [m.end() for m in re.finditer(on, raw)]
        offs = [m.end() for m in re.finditer(off, raw)]
        if ons and (not offs or max(offs) < max(ons)):
            left.append(name)
    return left


def assert_restored(sh: Shell) -> None:
    sh.wait_for("[rc=")
    assert sh.flags() == RESTORED
    modes = sh.line_mode()
    assert " icanon echo" in modes.replace("  ", " "), modes
    assert modes_left_on(game_output(sh.raw.read_bytes())) == []
    assert "Traceback" not in sh.screen()


def game_output(raw: bytes) -> bytes:
    """What the game wrote: from the last switch to the alternate screen to the
    shell's "[rc=N]" after it (the shell's own prompt turns bracketed paste on)."""
    ends = [m.start() for m in re.finditer(rb"\[rc=\d+\]", raw)]
    assert ends
    start = raw.rfind(b"\x1b[?1049h", 0, ends[-1])
    assert start >= 0
    return raw[start : ends[-1]]


def test_ctrl_c_and_ctrl_q_ask_before_quitting(shell: Shell) -> None:
    pid = shell.start()
    for key in ("C-c", "C-q"):
        shell.keys(key)
        shell.wait_for("Quit the game?")
        shell.keys("Escape")
        time.sleep(0.3)
        assert "Quit the game?" not in shell.screen()
        assert not gone(pid, 0.1)
    shell.keys("C-q")
    shell.wait_for("Quit the game?")
    shell.keys("Enter")
    assert gone(pid)
    assert "[rc=0]" in shell.wait_for("[rc=")
    assert_restored(shell)


@pytest.mark.parametrize("sig", ["TERM", "HUP"])
def test_sigterm_and_sighup_quit_and_restore_the_terminal(shell: Shell, sig: str) -> None:
    pid = shell.start()
    shell.keys("q")  # mid-game: the left player is ready
    os.kill(pid, signal_number(sig))
    assert gone(pid)
    assert f"[rc={128 + signal_number(sig)}]" in shell.wait_for("[rc=")
    assert_restored(shell)


def test_a_crash_restores_the_terminal_and_says_where_the_report_is(
    shell: Shell, tmp_path: Path
) -> None:
    """Issue 10 item 2: an unexpected error in the app (injected with the
    test-only SPIT_TEST_CRASH hook at the first game key) restores the terminal,
    prints one line naming the report file, and exits with status 1."""
    cache = tmp_path / "cache"
    pid = shell.start(env=f"SPIT_TEST_CRASH=key XDG_CACHE_HOME={cache}")
    shell.keys("q")
    assert gone(pid)
    screen = shell.wait_for("[rc=")
    assert "[rc=1]" in screen
    assert "spit-tui: internal error (DeliberateCrash" in screen
    assert_restored(shell)
    (report,) = (cache / "spit-tui" / "crash").iterdir()
    assert "Traceback" in report.read_text()


def test_closing_the_window_ends_the_game(shell: Shell) -> None:
    pid = shell.start()
    shell.tmux("kill-pane")
    assert gone(pid), "the game outlived its terminal"


def test_ctrl_z_suspends_and_fg_resumes_with_the_same_board(shell: Shell) -> None:
    pid = shell.start()
    shell.keys("q")
    before = shell.wait_for("LEFT ✓ ready")
    shell.keys("C-z")
    shell.wait_for("Stopped")  # (and the shell's line goes on: "[rc=148]")
    assert shell.flags() == RESTORED  # the shell gets a normal terminal back
    shell.type("fg")
    after = shell.wait_for("LEFT ✓ ready")
    # the same board (the header's clock line aside)
    assert before.splitlines()[1:] == after.splitlines()[1:]
    shell.keys("p")  # keys work again: the right player is ready, the spit comes
    shell.wait_for("play!")
    shell.keys("C-q", "Enter")
    assert gone(pid)
    shell.type('clear; echo "[rc=$?]"')  # fg returns the game's status
    assert "[rc=0]" in shell.wait_for("[rc=0]")
    assert_restored(shell)


def test_no_color_has_no_colour_codes_and_suits_by_symbol(shell: Shell) -> None:
    shell.start(env="NO_COLOR=1")
    shell.keys("q", "p")
    text = shell.wait_for("play!")
    coded = shell.screen(escapes=True)
    colours = re.findall(r"\x1b\[([0-9;]*)m", coded)
    assert not [c for c in colours if re.search(r"(^|;)(3[0-8]|4[0-8]|9\d|10\d)(;|$)", c)]
    assert re.search(r"[2-9JQKA0]♥|[2-9JQKA0]♦", text) and re.search(r"[2-9JQKA0][♠♣]", text)
    shell.keys("C-q", "Enter")
    assert_restored(shell)


@pytest.mark.parametrize("env", ["TERM=dumb", "LC_ALL=C", "LANG=de_DE.ISO-8859-1 LC_ALL="])
def test_dumb_terminal_and_non_utf8_locale_get_one_clear_line(shell: Shell, env: str) -> None:
    shell.type(f'clear; {env} {GAME} --seed 1; echo "[rc=$?]"')
    text = shell.wait_for("[rc=1]")
    line = next(ln for ln in text.splitlines() if ln.startswith("spit-tui: "))
    assert "TERM=dumb" in line or "UTF-8" in line
    assert shell.flags() == RESTORED
    raw = shell.raw.read_bytes()
    said = raw[raw.rfind(b"spit-tui:") : raw.rfind(b"[rc=1]")]
    assert b"\x1b" not in said, said  # no escape codes at all: nothing was drawn


def have_screen() -> bool:
    if shutil.which("screen"):
        return True
    if os.environ.get("SPIT_APT_SCREEN") == "1":
        subprocess.run(["apt-get", "install", "-y", "screen"], capture_output=True, check=False)
    return shutil.which("screen") is not None


def test_inside_gnu_screen(shell: Shell) -> None:
    if not have_screen():
        pytest.skip("GNU screen is not installed (SPIT_APT_SCREEN=1 installs it with apt-get)")
    shell.type("screen -q -S spitrel bash --norc --noprofile -i")
    time.sleep(1.0)
    shell.type(f"PS1='$ '; cd {ROOT}; clear; {GAME} --seed 1; echo \"[rc=$?]\"")
    shell.wait_for("pile a")
    time.sleep(0.4)
    shell.keys("q", "p")
    text = shell.wait_for("play!")
    assert re.search(r"[2-9JQKA0][♠♣♥♦]", text)
    shell.keys("C-q", "Enter")
    shell.wait_for("[rc=0]")
    shell.type("exit")
    time.sleep(0.5)


# -- issue 10, item 9: every ending signal restores the terminal; stop and continue

ENDING_SIGNALS = ["QUIT", "USR1", "ALRM", "INT", "USR2", "ABRT", "PROF", "XCPU", "PWR", "RTMIN"]


def signal_number(name: str) -> int:
    import signal

    return int(signal.SIGRTMIN if name == "RTMIN" else getattr(signal, f"SIG{name}"))


@pytest.mark.parametrize("sig", ENDING_SIGNALS)
def test_sigquit_sigusr1_sigalrm_and_every_ending_signal_restore_the_terminal(
    shell: Shell, sig: str
) -> None:
    """`kill -INT` is among them: it quits at once, like SIGTERM (see app/signals.py)."""
    pid = shell.start()
    shell.keys("q")  # mid-game: the left player is ready
    num = signal_number(sig)
    os.kill(pid, num)
    assert gone(pid)
    assert f"[rc={128 + num}]" in shell.wait_for("[rc=")  # as a shell reports a signal's end
    assert "Quit the game?" not in shell.screen()
    assert_restored(shell)


def round_clock(screen: str) -> int:
    m = re.search(r"round \d+ · (\d+):(\d\d)", screen)
    assert m is not None, screen
    return int(m[1]) * 60 + int(m[2])


def wait_until(shell: Shell, test: object, timeout: float = 10.0) -> str:
    assert callable(test)
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        text = shell.screen()
        if test(text):
            return text
        time.sleep(0.05)
    raise AssertionError(f"the screen never settled:\n{shell.screen()}")


def start_playing(shell: Shell) -> tuple[int, str]:
    """A game past its first spit, its round clock running (it counts play
    only, so a stop must come during play to be seen there): pid and screen."""
    pid = shell.start()
    shell.keys("q")
    shell.wait_for("LEFT ✓ ready")
    shell.keys("p")
    shell.wait_for("play!")
    wait_until(shell, lambda s: round_clock(s) >= 1)
    time.sleep(0.8)  # the card highlight of the spit has gone
    return pid, shell.screen()


def test_sigstop_then_fg_repaints_the_board_and_the_stop_pauses_the_game(shell: Shell) -> None:
    import signal

    pid, before = start_playing(shell)
    os.kill(pid, signal.SIGSTOP)
    shell.wait_for("Stopped")  # the shell writes over the board
    time.sleep(4.0)
    shell.type("fg")
    after = wait_until(shell, lambda s: "Stopped" not in s and "pile a" in s)
    assert before.splitlines()[1:] == after.splitlines()[1:]  # the same board, all of it
    assert round_clock(after) - round_clock(before) <= 1, (before, after)  # 4 s not counted
    shell.keys("C-q")  # keys work
    shell.wait_for("Quit the game?")
    shell.keys("Enter")
    assert gone(pid)
    shell.type('clear; echo "[rc=$?]"')
    assert "[rc=0]" in shell.wait_for("[rc=0]")
    assert_restored(shell)


# -- issue 10, item 12: Ctrl+Z in the demo suspends


def test_ctrl_z_in_the_demo_suspends_and_fg_brings_the_demo_back(shell: Shell) -> None:
    shell.type(f'clear; {GAME} --demo --seed 1; echo "[rc=$?]"')
    shell.wait_for("pile a")
    shell.wait_for("Demo: two computer players")
    pid = shell.game_pid()
    shell.keys("C-z")
    shell.wait_for("Stopped")
    assert shell.flags() == RESTORED
    shell.type("fg")
    text = shell.wait_for("Demo: two computer players")  # still the demo, not a new game
    assert "Stopped" not in text
    shell.keys("C-q", "Enter")
    assert gone(pid)
    shell.type('clear; echo "[rc=$?]"')
    assert "[rc=0]" in shell.wait_for("[rc=0]")
    assert_restored(shell)


def test_ctrl_z_pauses_the_game_while_suspended(shell: Shell) -> None:
    pid, before = start_playing(shell)
    shell.keys("C-z")
    shell.wait_for("Stopped")
    time.sleep(4.0)
    shell.type("fg")
    after = wait_until(shell, lambda s: "Stopped" not in s and "pile a" in s)
    assert round_clock(after) - round_clock(before) <= 1, (before, after)  # 4 s not counted
    shell.keys("C-q", "Enter")
    assert gone(pid)
