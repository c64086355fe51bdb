"""spit-tui in a pseudo-terminal that speaks the kitty keyboard protocol: it
answers the query CSI ? u, records the flags the app sets, and sends kitty key
sequences. For the kitty tests and the kitty latency benchmark."""

from __future__ import annotations

import contextlib
import fcntl
import os
import pty
import re
import select
import signal
import struct
import sys
import termios
import time
from collections.abc import Callable


class KittyPty:
    def __init__(self, args: list[str], env: dict[str, str], flags: int | None = 25) -> None:
        """`flags`: what the terminal answers to CSI ? u (None: it never answers)."""
        self.answer = flags
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: the game
            os.execvpe(sys.executable, [sys.executable, "-m", "spit_tui", *args], env)
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
        self.out = b""
        self.set_flags: list[int] = []

    def pump(self, seconds: float) -> bytes:
        """Read what the app writes for `seconds`, answering its kitty queries."""
        end = time.monotonic() + seconds
        got = b""
        while (left := end - time.monotonic()) > 0:
            r, _, _ = select.select([self.fd], [], [], left)
            if not r:
                break
            try:
                chunk = os.read(self.fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            got += chunk
            self._answer(chunk)
        self.out += got
        return got

    def _answer(self, chunk: bytes) -> None:
        for m in re.finditer(rb"\x1b\[=(\d+);1u", chunk):
            self.set_flags.append(int(m.group(1)))
            if self.answer is not None:
                self.answer = int(m.group(1))
        if b"\x1b[?u" in chunk and self.answer is not None:
            os.write(self.fd, f"\x1b[?{self.answer}u".encode())

    def wait_for(self, text: bytes, timeout: float = 15.0) -> None:
        self.pump_until(lambda: text in self.out, f"never saw {text!r}", timeout)

    def pump_until(self, done: Callable[[], bool], what: str, timeout: float = 15.0) -> None:
        """Read (and answer) what the app writes until `done()` holds (a bound,
        not a speed: a busy machine is slow to draw and to log)."""
        end = time.monotonic() + timeout
        while not done():
            if time.monotonic() > end:
                raise AssertionError(what)
            self.pump(0.05)

    def send(self, data: str) -> None:
        os.write(self.fd, data.encode())

    def close(self) -> int:
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGTERM)
        self.pump(1.0)
        _, status = os.waitpid(self.pid, 0)
        os.close(self.fd)
        return status
