"""The game as a real process on a pseudo-terminal, for command-line tests that
need a terminal (the game refuses to start without one) but no tmux.

`PtyGame` starts `python -m spit_tui ARGS` (or `python PYTHON... ARGS`) on a
pty, collects everything written to the terminal on a thread (so the pty never
fills), and can type keys into it. Textual draws on stderr, so stderr is the
pty too (as in a real terminal) unless `stderr_pipe` asks for a pipe (for runs
that must stop before the board). `after_board()` is what was printed once the
app had left the alternate screen, escape codes removed. Every wait is bounded.
"""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

BOARD = b"pile a"  # on the board once it is drawn
LEAVE_ALT_SCREEN = b"\x1b[?1049l"
_ESCAPE = re.compile(rb"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[=>78NOMDEHc])")


def game_env(**extra: str) -> dict[str, str]:
    env = {**os.environ, "TERM": "xterm-256color", "LANG": "C.UTF-8", "LC_ALL": ""}
    env.pop("SPIT_DECISION_LOG", None)
    env.update(extra)
    return env


class PtyGame:
    def __init__(
        self,
        args: list[str],
        env: Mapping[str, str] | None = None,
        size: tuple[int, int] = (100, 30),
        preexec_fn: Callable[[], Any] | None = None,
        cwd: str | None = None,
        stderr_pipe: bool = False,
        python: Sequence[str] = ("-m", "spit_tui"),
    ) -> None:
        import fcntl
        import struct
        import termios

        self.master, sub = os.openpty()
        w, h = size
        fcntl.ioctl(sub, termios.TIOCSWINSZ, struct.pack("HHHH", h, w, 0, 0))
        self.proc = subprocess.Popen(
            [sys.executable, *python, *args],
            stdin=sub,
            stdout=sub,
            stderr=subprocess.PIPE if stderr_pipe else sub,
            env=dict(env if env is not None else game_env()),
            preexec_fn=preexec_fn,
            start_new_session=True,
            cwd=cwd,
        )
        os.close(sub)
        self._out = bytearray()
        self._lock = threading.Lock()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        while True:
            try:
                chunk = os.read(self.master, 65536)
            except OSError:
                return
            if not chunk:
                return
            with self._lock:
                self._out += chunk

    @property
    def output(self) -> bytes:
        with self._lock:
            return bytes(self._out)

    def wait_for(self, text: bytes | Callable[[bytes], bool], timeout: float = 20.0) -> bool:
        """Whether the terminal got `text` (or `text(output)` held) within `timeout`."""
        ok = text if callable(text) else (lambda out: text in out)
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if ok(self.output):
                return True
            if self.proc.poll() is not None:
                time.sleep(0.1)
                return ok(self.output)
            time.sleep(0.05)
        return False

    def type(self, data: bytes, gap: float = 0.08) -> None:
        for i in range(len(data)):
            os.write(self.master, data[i : i + 1])
            time.sleep(gap)

    def finish(self, timeout: float = 20.0) -> tuple[int | None, str]:
        """Wait for the exit; (status, stderr). A process still running after
        `timeout` is killed and reported with status None."""
        try:
            _, err = self.proc.communicate(timeout=timeout)
            code: int | None = self.proc.returncode
        except subprocess.TimeoutExpired:
            self.proc.kill()
            _, err = self.proc.communicate(timeout=10)
            code = None
        err = err or b""
        self._reader.join(timeout=2)
        with contextlib.suppress(OSError):
            os.close(self.master)
        return code, err.decode("utf-8", "replace")

    def after_board(self) -> str:
        """What the terminal showed after the app left the alternate screen:
        plain text, one "\\n" a line ("" if it never left it)."""
        out = self.output
        if LEAVE_ALT_SCREEN not in out:
            return ""
        tail = out.rsplit(LEAVE_ALT_SCREEN, 1)[1]
        return _ESCAPE.sub(b"", tail).replace(b"\r\n", b"\n").decode("utf-8", "replace")

    def quit(self) -> tuple[int | None, str]:
        """Ctrl+Q, then Enter in the quit dialog once it shows (a fixed wait once
        sent the Enter to the board of a busy machine, before the dialog had
        opened): (status, what was printed after)."""
        mark = len(self.output)
        self.type(b"\x11")
        self.wait_for(lambda out: b"Quit the game?" in out[mark:])
        self.type(b"\r")
        code, _ = self.finish()
        return code, self.after_board()


def run_refused(args: list[str], env: Mapping[str, str] | None = None) -> tuple[int | None, str]:
    """A command that should stop before the board: (status, stderr)."""
    return PtyGame(args, env, stderr_pipe=True).finish(timeout=20)
