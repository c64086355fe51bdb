"""An opt-in log of a table's decisions, one JSON object a line, for tools.

    spit-tui --decision-log FILE      (or SPIT_DECISION_LOG=FILE spit-tui)

Every submission to the table (a key press or a bot's move) gets exactly one
Decision (see spit_tui.decision); this writes each one as it is made, in order,
so a tool can read the file while the game runs (the burst benchmark does: it
sends 200 keys in bursts of 20 and checks that each has one line, in the order sent).
A line looks like

    {"seq": 7, "t": 1.234, "player": "left", "source": "key", "key": "q",
     "action": "L1a", "outcome": "illegal", "message": "..."}

`key` is the key pressed as in the key table ("q", ";"), "" for a bot's move;
`outcome` is one of applied, illegal, "too late" (a lost race) and ignored; at a
remote seat (`join`), a key its own limits let through is "sent": the host decides.
Nothing is written unless a log is asked for.

The log never costs a game:
- It must be a regular file, new unless the mode says otherwise (`overwrite`
  for --force, `append` for --append). A FIFO, a device (/dev/full, /dev/null),
  a terminal (/dev/tty: JSON over the board), a directory, a socket or a
  symbolic link is refused with a one-line `LogRefused` before anything is
  opened, so nothing blocks before the board (opening a FIFO without a reader
  waits for ever). The open itself uses O_NOFOLLOW and O_NONBLOCK and checks
  the type again, in case the path changed in between.
- A write that fails later (a full disk, a file size limit, a reader that went
  away) turns the log off: one message on the table, `failure` set to the one
  line the program prints at exit, and the game goes on.
"""

from __future__ import annotations

import contextlib
import errno
import os
from types import TracebackType
from typing import TYPE_CHECKING, Protocol

from spit_tui.command import DECISION_LOG_ENV, shown
from spit_tui.userfiles import not_regular as _kind

if TYPE_CHECKING:  # (a run that ends at --help reads ENV and check_path: no game code)
    from spit_tui.decision import Decision
    from spit_tui.messages import Messages
    from spit_tui.subscription import Subscription

ENV = DECISION_LOG_ENV  # the variable that asks for a log (the start reads it in command.py)
MODES = ("new", "overwrite", "append")
PATH_SHOWN = 200  # characters of a path shown in the line at exit

_OPEN_FLAGS = {
    "new": os.O_CREAT | os.O_EXCL,
    "overwrite": os.O_CREAT | os.O_TRUNC,
    "append": os.O_CREAT | os.O_APPEND,
}


class LogRefused(Exception):
    """The log cannot go there; the message is the one line the player sees."""


def decision_record(d: Decision) -> dict[str, object]:
    return {
        "seq": d.seq,
        "t": round(d.time, 6),
        "player": d.player.label,
        "source": d.source,
        "key": d.key,
        "action": d.action,
        "outcome": str(d.outcome),
        "message": d.message,
    }


def check_path(path: str, mode: str = "new") -> None:
    """Refuse a log path before anything is opened (LogRefused); no side effects."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, not {mode!r}")
    if path == "":
        raise LogRefused("the file name is empty")
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return  # a new file: whether it can be created is for the open to say
    except OSError as e:
        raise LogRefused(f"{e.strerror or e}: {shown(path)}") from None
    kind = _kind(st.st_mode)
    if kind is not None:
        raise LogRefused(f"{shown(path)} is {kind}")
    if mode == "new":
        raise LogRefused(
            f"{shown(path)} already exists: add --force to overwrite it "
            "or --append to add to it"
        )


def _open(path: str, mode: str) -> int:
    flags = os.O_WRONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC | _OPEN_FLAGS[mode]
    try:
        fd = os.open(path, flags, 0o644)
    except OSError as e:
        if e.errno == errno.ELOOP:
            raise LogRefused(
                f"{shown(path)} is a symbolic link (give the file it points to)"
            ) from None
        if e.errno == errno.ENXIO:  # a FIFO with no reader, opened without blocking
            raise LogRefused(f"{shown(path)} is a pipe (FIFO), not a regular file") from None
        if e.errno == errno.EEXIST:
            check_path(path, mode)  # says what is there now
        raise
    kind = _kind(os.fstat(fd).st_mode)
    if kind is not None:
        os.close(fd)
        raise LogRefused(f"{shown(path)} is {kind}")
    os.set_blocking(fd, True)
    return fd


class Logged(Protocol):
    """What a log attaches to: a Table, or a seat at a host's table."""

    def subscribe(self, sub: Subscription) -> Subscription: ...

    @property
    def messages(self) -> Messages: ...


class DecisionLog:
    """Writes every decision of the tables it is attached to, as it is made."""

    def __init__(self, path: str, mode: str = "new") -> None:
        check_path(path, mode)
        self.path = path
        self._fd: int | None = _open(path, mode)
        self._tables: list[Logged] = []
        self.written = 0
        self.failure: str | None = None  # why the log turned itself off, one line

    @classmethod
    def over_fd(cls, fd: int, name: str) -> DecisionLog:
        """A log over a descriptor opened elsewhere (tests, tools): no path checks.
        It takes the descriptor over and closes it."""
        log = cls.__new__(cls)
        log.path = name
        log._fd = fd
        log._tables = []
        log.written = 0
        log.failure = None
        return log

    def attach(self, table: Logged) -> None:
        from spit_tui.subscription import Subscription

        table.subscribe(Subscription(on_decision=self.write))
        self._tables.append(table)

    def write(self, d: Decision) -> None:
        fd = self._fd
        if fd is None:
            return
        import json  # here, not at the top: a game without a log never loads it

        line = (json.dumps(decision_record(d), ensure_ascii=False) + "\n").encode()
        data = line
        try:
            while data:
                data = data[os.write(fd, data) :]
        except OSError as e:
            if len(data) < len(line):  # keep only whole lines: drop the part written
                with contextlib.suppress(OSError):  # (not a file: nothing to take back)
                    os.ftruncate(fd, os.lseek(fd, 0, os.SEEK_CUR) - (len(line) - len(data)))
            self._turn_off(d, e)
            return
        self.written += 1

    def _turn_off(self, d: Decision, e: OSError) -> None:
        reason = e.strerror or type(e).__name__
        self._close_fd()
        n = self.written
        self.failure = (
            f"the decision log stopped after {n} decision{'' if n == 1 else 's'}: {reason} "
            f"({shown(self.path, PATH_SHOWN)}); the game went on without it"
        )
        for table in self._tables:
            _tell(table, d, f"decision log off: {reason}")

    def _close_fd(self) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            try:
                os.close(fd)
            except OSError as e:  # a delayed write error (NFS): the log is off anyway
                if self.failure is None:
                    self.failure = f"the decision log could not be closed: {e.strerror or e}"

    def close(self) -> None:
        self._close_fd()

    def __enter__(self) -> DecisionLog:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


def _tell(table: Logged, d: Decision, text: str) -> None:
    """Show `text` beside the player whose decision could not be logged."""
    table.messages.say(d.player, text)
