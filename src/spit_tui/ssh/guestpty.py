"""One guest's game: a `spit-tui` process in a pseudo-terminal of its own.

Why a process per guest rather than the app in the server's own loop: a
guest's crash, hang or runaway output touches nobody else; Textual drives a
real terminal as it does on any machine (its Linux driver, our kitty parser,
SIGWINCH on a resize); the kitty keyboard protocol passes through as plain
bytes; and the door stays a thin shell over the `join` everyone else runs.
The price is memory (a Python process each; the notes give the figures).

The bridge has no buffer of its own that can grow: while the guest's SSH
channel is full, the pseudo-terminal is not read, so the game's writes wait
in the kernel's small buffer (and the door drops a guest that stays so).
Input to the game is bounded too (INPUT_LIMIT): a paste beyond it is dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import pty
import signal
import struct
import sys
import termios
from collections.abc import Callable, Mapping

READ_BYTES = 65536
INPUT_LIMIT = 64 * 1024  # bytes of guest input waiting for the game, at most
GRACE_S = 3.0  # after a hang-up, how long the game has to restore the terminal
IUTF8 = getattr(termios, "IUTF8", 0o40000)  # Linux's value; Python 3.11 lacks the name
MAX_CELLS = 1000  # a terminal size beyond this (or 0) is taken as this (or 1)


def clamp_size(cols: int, rows: int) -> tuple[int, int]:
    """A size a pseudo-terminal can take, whatever the guest's client claims."""
    return max(1, min(MAX_CELLS, cols)), max(1, min(MAX_CELLS, rows))


class GuestPty:
    """Start with `start`; output goes to `on_output`, the end (exit status)
    to `on_exit`, once, after the last output."""

    program: tuple[str, ...] = ("-m", "spit_tui.ssh.guest")  # run by this Python, then argv

    def __init__(
        self,
        argv: list[str],
        env: Mapping[str, str],
        size: tuple[int, int],
        on_output: Callable[[bytes], None],
        on_exit: Callable[[int], None],
    ) -> None:
        self.argv = argv
        self.env = dict(env)
        self.size = clamp_size(*size)
        self.on_output = on_output
        self.on_exit = on_exit
        self.master = -1
        self.proc: asyncio.subprocess.Process | None = None
        self._pending = bytearray()  # guest input the game has not taken yet
        self._reading = False
        self._paused = False
        self._eof = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    @property
    def pid(self) -> int | None:
        return None if self.proc is None else self.proc.pid

    async def start(self) -> None:
        """Start the game (OSError if it cannot be started)."""
        master, slave = pty.openpty()
        try:
            self._set_size(slave)
            attrs = termios.tcgetattr(slave)
            attrs[0] |= IUTF8
            termios.tcsetattr(slave, termios.TCSANOW, attrs)
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable, *self.program, *self.argv,
                stdin=slave, stdout=slave, stderr=slave, env=self.env, close_fds=True,
            )  # fmt: skip
        except BaseException:
            os.close(master)
            raise
        finally:
            os.close(slave)
        self.master = master
        os.set_blocking(master, False)
        self._read_on()
        self._task = asyncio.get_running_loop().create_task(self._wait())

    def _set_size(self, fd: int) -> None:
        cols, rows = self.size
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))

    def resize(self, cols: int, rows: int) -> None:
        """The guest's window changed: the kernel tells the game (SIGWINCH)."""
        self.size = clamp_size(cols, rows)
        if self.master >= 0:
            with contextlib.suppress(OSError):
                self._set_size(self.master)

    def _read_on(self) -> None:
        if not self._reading and not self._paused and self.master >= 0 and not self._eof.is_set():
            asyncio.get_running_loop().add_reader(self.master, self._readable)
            self._reading = True

    def _read_off(self) -> None:
        if self._reading:
            asyncio.get_running_loop().remove_reader(self.master)
            self._reading = False

    def pause(self) -> None:
        """The guest's channel is full: leave the game's output in the kernel."""
        self._paused = True
        self._read_off()

    def resume(self) -> None:
        self._paused = False
        self._read_on()

    def _readable(self) -> None:
        try:
            data = os.read(self.master, READ_BYTES)
        except BlockingIOError:
            return
        except OSError:  # EIO: every holder of the terminal's other side is gone
            data = b""
        if not data:
            self._read_off()
            self._eof.set()
            return
        self.on_output(data)

    def write(self, data: bytes) -> None:
        """Guest input for the game; beyond INPUT_LIMIT waiting, dropped."""
        if self.master < 0 or self._eof.is_set():
            return
        room = INPUT_LIMIT - len(self._pending)
        had = bool(self._pending)
        self._pending += data[: max(0, room)]
        if not had:
            self._flush()

    def _flush(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            while self._pending:
                n = os.write(self.master, self._pending)
                del self._pending[:n]
        except BlockingIOError:
            loop.add_writer(self.master, self._writable)
            return
        except OSError:
            self._pending.clear()
        loop.remove_writer(self.master)

    def _writable(self) -> None:
        self._flush()

    async def _wait(self) -> None:
        assert self.proc is not None
        status = await self.proc.wait()
        # what the game wrote last (the terminal restored, its last line) is
        # still in the terminal: read on until its end, for a bounded time
        self.resume()
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(1.0):
                await self._eof.wait()
        self._close_master()
        self.on_exit(status if status >= 0 else 128 - status)

    def _close_master(self) -> None:
        if self.master >= 0:
            self._read_off()
            loop = asyncio.get_running_loop()
            loop.remove_writer(self.master)
            os.close(self.master)
            self.master = -1

    def hang_up(self) -> None:
        """End the game as a closed terminal window would: SIGHUP (the app
        restores the terminal and stops), then SIGKILL after GRACE_S."""
        self._signal(signal.SIGHUP)
        asyncio.get_running_loop().call_later(GRACE_S, self._signal, signal.SIGKILL)

    def kill(self) -> None:
        self._signal(signal.SIGKILL)

    def _signal(self, sig: int) -> None:
        if self.proc is None or self.proc.returncode is not None:
            return
        try:
            os.killpg(self.proc.pid, sig)  # its own session: the game and anything it started
        except ProcessLookupError:  # not yet in a session of its own
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.proc.pid, sig)

    async def ended(self) -> None:
        if self._task is not None:
            await asyncio.shield(self._task)
