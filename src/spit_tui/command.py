"""What every spit-tui command shares: how it parses, fails and writes.

- `Parser`: an argparse parser that raises `UsageError` instead of printing
  usage and exiting, and whose --help reports a failed write (argparse itself
  swallows OSError from its own prints, so `--help > /dev/full` exited 0).
- `fail`: the one line on stderr for a bad command line (exit status 2).
- `command`: wraps a subcommand's `main(argv)` so that a `UsageError` raised
  anywhere in it is that one line, and --help/--version end it with their
  status (`ParserExit`): the one place that turns a parse into an exit status.
- `write_out` / `flush_out` / `guarded_stdout`: stdout that says when it
  could not be written (a full disk, a closed pipe) by raising `OutputError`,
  instead of an OSError traceback or Python's "Exception ignored" at exit.
  `cli.main` runs every command under `guarded_stdout`, so a subcommand's
  plain `print` gets the same one line.
- `port_number`: a --port value (every server command takes one).
- `level_argument`: a computer level on the command line (--level, and sim's
  --left/--right), checked once for both commands.
- `shown`: a value cut short for echoing back in an error line, so a
  5,000-digit argument does not fill the screen.

A subcommand (`spit-tui sim`, and the ones that follow it) builds its parser
from `Parser`, reports bad arguments with `fail` and prints with `write_out`.
"""

from __future__ import annotations

import argparse
import functools
import io
import os
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, NoReturn, ParamSpec, TextIO, cast

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

PROG = "spit-tui"
ECHO_LIMIT = 40  # characters of a user's value echoed back in an error line
DECISION_LOG_ENV = "SPIT_DECISION_LOG"  # decision_log.ENV: here, read at every start
_LONG_WORD = re.compile(r"\S{" + str(ECHO_LIMIT + 20) + ",}")


class UsageError(Exception):
    """A bad command line: the message is the one line the player sees."""


class OutputError(Exception):
    """stdout could not be written; the message says why (one line)."""


class ParserExit(Exception):
    """--help or --version has said its piece: the command ends with `status`.
    (argparse would raise SystemExit, which nothing should have to catch.)"""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(message.replace("argument ", ""))

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        if message:
            self._print_message(message, sys.stderr)
        raise ParserExit(status)

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        if not message:
            return
        if file is None or file is sys.stdout:
            write_out(message)
        else:
            file.write(message)


def shown(text: str, limit: int = ECHO_LIMIT) -> str:
    """`text` as it may be echoed back: cut to `limit` characters, with its length."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text):,} characters)"


def port_number(text: str, option: str = "--port") -> int:
    """A TCP port given on the command line (0: any free port); UsageError if not."""
    if not text.isdigit() or not 0 <= int(text) <= 65535:
        raise UsageError(f"{option}: not a port number (0-65535): {text[:40]!r}")
    return int(text)


LOCAL_BINDS = ("127.0.0.1", "::1", "localhost")


def add_bind_argument(p: argparse.ArgumentParser) -> None:
    """--bind for a command that listens: this machine only unless told."""
    p.add_argument(
        "--bind",
        default="127.0.0.1",
        metavar="ADDR",
        help="address to listen on (127.0.0.1: this machine only; 0.0.0.0: every network)",
    )


def exposure_note(bind: str, what: str) -> str | None:
    """The line a listening command says at start when `bind` reaches beyond
    this machine (None when it does not)."""
    if bind in LOCAL_BINDS or bind.startswith("127."):
        return None
    return (
        f"note: {what} listens on {bind}, beyond this machine: anyone who can reach "
        "this address can connect"
    )


def level_argument(text: str) -> str:
    """A computer level as given (lower case): a level's name, a rung, random
    or auto; an argparse type, so a bad one is argparse's one line."""
    # here: only a command with a level needs them (not auto.py: the history's reader)
    from spit_tui.players.ladder import AUTO, level_choices, level_named

    level = text.strip().lower()
    if level == AUTO:
        return AUTO
    try:
        level_named(level)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"unknown level {shown(text)!r} (choose {level_choices()}, random or auto)"
        ) from None
    return level


def one_line(message: str) -> str:
    """A message as one line: no line breaks, and no overlong word echoed whole."""
    flat = " ".join(message.split())
    return _LONG_WORD.sub(lambda m: shown(m[0]), flat)


def fail(message: str, prog: str = PROG) -> int:
    """A bad command line: one line on stderr, exit status 2."""
    print(f"{prog}: {one_line(message)} (try {prog} --help)", file=sys.stderr)
    return 2


P = ParamSpec("P")


def command(prog: str = PROG) -> Callable[[Callable[P, int]], Callable[P, int]]:
    """A subcommand's `main`, with a bad command line (a `UsageError` raised
    anywhere in it) as one line and exit status 2, and --help or --version
    ending it with their own status."""

    def wrap(main: Callable[P, int]) -> Callable[P, int]:
        @functools.wraps(main)
        def run(*args: P.args, **kwargs: P.kwargs) -> int:
            try:
                return main(*args, **kwargs)
            except UsageError as e:
                return fail(str(e), prog)
            except ParserExit as e:
                return e.status

        return run

    return wrap


def write_out(text: str) -> None:
    """Write to stdout now (flushed); OutputError if it cannot be written."""
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except OSError as e:  # (under guarded_stdout it is already an OutputError)
        silence_stdout()
        raise OutputError(e.strerror or str(e)) from None


def flush_out() -> str | None:
    """Flush stdout before exit: None if fine, else why it failed (one line)."""
    try:
        sys.stdout.flush()
    except OSError as e:
        silence_stdout()
        return e.strerror or str(e)
    except ValueError:  # stdout already closed
        return None
    return None


def silence_stdout(stream: TextIO | None = None) -> None:
    """After a failed write, point stdout at /dev/null, so the interpreter's own
    flush at exit neither fails again nor prints "Exception ignored"."""
    try:
        fd = (stream or sys.stdout).fileno()
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, fd)
        os.close(null)
    except (OSError, ValueError, AttributeError):
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115  (lives as long as the process)


class _GuardedOut(io.TextIOBase):
    """stdout whose failed writes raise OutputError (everything else passes through)."""

    def __init__(self, real: TextIO) -> None:
        self._real = real

    def write(self, text: str) -> int:
        try:
            return self._real.write(text)
        except OSError as e:
            silence_stdout(self._real)
            raise OutputError(e.strerror or str(e)) from None

    def flush(self) -> None:
        try:
            self._real.flush()
        except OSError as e:
            silence_stdout(self._real)
            raise OutputError(e.strerror or str(e)) from None

    def close(self) -> None:
        """Never close (or flush, as IOBase would when collected) the real stdout."""

    def fileno(self) -> int:
        return self._real.fileno()

    def isatty(self) -> bool:
        return self._real.isatty()

    def writable(self) -> bool:
        return True

    def __getattr__(self, name: str) -> Any:  # encoding, errors, buffer, ...
        return getattr(self._real, name)


@contextmanager
def guarded_stdout() -> Iterator[None]:
    """While inside, a write to stdout that fails raises OutputError."""
    real = sys.stdout
    if real is None or isinstance(real, _GuardedOut):
        yield
        return
    sys.stdout = cast(TextIO, _GuardedOut(real))
    try:
        yield
    finally:
        if isinstance(sys.stdout, _GuardedOut):
            sys.stdout = real
