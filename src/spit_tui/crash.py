"""When spit-tui itself fails: one line on the screen, the traceback in a file.

Any unexpected error (in the app or around it) ends the program with exit
status 1 and one line on stderr saying what happened and where the report
went, e.g.

    spit-tui: internal error (IndexError: tuple index out of range); the report
    is in ~/.cache/spit-tui/crash/crash-20261201-101500-4242.txt (one line)

The report (the traceback, the version, the command line, the game position
when there is one) goes to the user's cache directory, created when needed;
if it cannot be written the same line says so. The terminal is restored first:
Textual stops its driver before `App.run` returns.

Textual workaround (textual 8.2.8): an exception inside the app is caught by
`App._handle_exception`, rendered as a Rich traceback into the app's
`error_console` (stderr) when the app exits, and remembered in the private
`App._exception`; `App.run` returns normally and only `return_code` (1) tells.
`quiet_app_errors` points that console at a buffer and reads `_exception`.
Upstream would need a public hook for unhandled exceptions (or a way to turn
the printed traceback off) for this module to shrink to `write_report`.

Test hook: with SPIT_TEST_CRASH=start the command raises `DeliberateCrash`
just before the app starts; with SPIT_TEST_CRASH=key, at the first game key.
It only raises an error for the handler above to report; nothing else reads it.
"""

from __future__ import annotations

import io
import os
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from spit_tui import __version__
from spit_tui.command import PROG, one_line, shown
from spit_tui.paths import cache_dir
from spit_tui.userfiles import create_private, private_dir

TEST_ENV = "SPIT_TEST_CRASH"
MESSAGE_LIMIT = 120  # characters of the exception's message on the one line


class DeliberateCrash(RuntimeError):
    """Raised only by the SPIT_TEST_CRASH hook, to test the crash path."""


def injected(where: str) -> None:
    """Raise DeliberateCrash if SPIT_TEST_CRASH asks for a crash `where`."""
    if os.environ.get(TEST_ENV) == where:
        raise DeliberateCrash(f"deliberate crash at {where} ({TEST_ENV}={where})")


def report_dir() -> Path:
    return cache_dir() / "crash"


def _describe(exc: BaseException) -> str:
    text = one_line(str(exc))
    if len(text) > MESSAGE_LIMIT:
        text = text[:MESSAGE_LIMIT] + "..."
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _report_text(exc: BaseException, argv: Sequence[str], context: str) -> str:
    import platform  # here: only a crash needs them, never the start
    import traceback

    import textual

    lines = [
        f"{PROG} {__version__} crash report, {time.strftime('%Y-%m-%d %H:%M:%S %z')}",
        f"python {platform.python_version()} ({sys.platform}), textual {textual.__version__}",
        "command: " + " ".join([PROG, *(repr(shown(a, 200)) for a in argv)]),
    ]
    if context:
        lines.append(context)
    lines.append("")
    lines.append("".join(traceback.format_exception(exc)).rstrip())
    return "\n".join(lines) + "\n"


def write_report(exc: BaseException, argv: Sequence[str], context: str = "") -> Path:
    """Write the report file; OSError if it cannot be written."""
    folder = private_dir(report_dir())  # a report holds the game's position
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = folder / f"crash-{stamp}-{os.getpid()}.txt"
    with os.fdopen(create_private(path), "w", encoding="utf-8") as f:
        f.write(_report_text(exc, argv, context))
    return path


def report(exc: BaseException, argv: Sequence[str], context: str = "") -> int:
    """Say in one line what happened and where the report is; exit status 1."""
    try:
        where = f"the report is in {write_report(exc, argv, context)}"
    except Exception as e:  # the report is a courtesy: never fail again over it
        reason = e.strerror if isinstance(e, OSError) and e.strerror else _describe(e)
        where = f"no report could be written to {report_dir()}: {reason}"
    print(f"{PROG}: internal error ({_describe(exc)}); {where}", file=sys.stderr)
    return 1


class AppErrors:
    """What an app run left behind: its first unhandled exception, and what
    Textual would have printed over the screen (kept for the report). A plain
    class, not a dataclass, whose generated __init__ was compiled at every start."""

    def __init__(self, buffer: io.StringIO, error: BaseException | None = None) -> None:
        self.buffer = buffer
        self.error = error

    @property
    def printed(self) -> str:
        return self.buffer.getvalue()


@contextmanager
def quiet_app_errors(app: Any) -> Iterator[AppErrors]:
    """Run a Textual app with its error traceback kept off the screen (see above)."""
    from rich.console import Console

    caught = AppErrors(io.StringIO())
    app.error_console = Console(file=caught.buffer, markup=False, highlight=False, width=100)
    try:
        yield caught
    finally:
        caught.error = getattr(app, "_exception", None)


def arm(table: Any) -> None:
    """SPIT_TEST_CRASH=key: the first decision at `table` raises (inside the running app)."""
    if os.environ.get(TEST_ENV) == "key":
        from spit_tui.subscription import Subscription

        def crash(_decision: Any) -> None:
            injected("key")

        table.subscribe(Subscription(on_decision=crash))
