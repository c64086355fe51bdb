"""Process signals while the board is up: every one that would end the process
ends the game cleanly instead, and a stop from outside is paused and repainted.

Ending signals. By default most signals kill the process on the spot, leaving
the terminal in raw mode with the alternate screen, a hidden cursor and mouse
reporting on (Textual's driver handles none of them). Here each catchable one
whose default is to end the process (HUP, INT, QUIT, ABRT, USR1, USR2, ALRM,
TERM, STKFLT, XCPU, VTALRM, PROF, IO, PWR and the real-time signals) quits
through Textual's normal exit, which restores the terminal first; the exit
status is 128 + the signal's number, as a shell reports a signal's end.
SIGPIPE and SIGXFSZ stay ignored (Python ignores them: a write fails instead).
The fault signals (SEGV, BUS, FPE, ILL, TRAP, SYS) are left at their default:
after a real fault, a handler that returns runs the faulting instruction again,
forever. The named signals are handled before the first frame; the 31 real-time
ones (which only an explicit `kill -RTMIN+n` sends) right after it: asyncio
checks each signal it is given against the whole list of valid signals, about
70 µs a signal, and the start's first frame should not wait 2 ms for them (that
list is made once for all the signals added together: `end_on_signals`).

SIGINT from outside (`kill -INT`, `timeout -s INT`) quits at once like SIGTERM,
without the question Ctrl+C asks: Ctrl+C at the keyboard reaches the game as a
key (the terminal is in raw mode), so a SIGINT always comes from another
process, and nobody there can answer "Quit the game?".

Stop and continue. SIGSTOP cannot be caught, so the game learns of a stop only
at SIGCONT. Textual 8.2.8's driver (`LinuxDriver._sigcont_application`)
restarts application mode on every SIGCONT: right after its own SIGTSTP path
(Ctrl+Z), which suspended application mode first, but after a SIGSTOP from
outside it starts a second input and writer thread over the running ones and
repaints nothing. `watch_continue` wraps that handler: Textual's runs only when
Textual suspended the terminal itself (its `_must_signal_resume` flag), and in
every case the app is told, on its event loop, so it can take the stopped time
out of the game and draw the screen again. Upstream would need the driver to
tell the two apart (or to post a resume message for both).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from collections.abc import Callable, Iterable, Iterator
from types import FrameType

from textual.driver import Driver

ENDING = (
    "SIGHUP", "SIGINT", "SIGQUIT", "SIGABRT", "SIGUSR1", "SIGUSR2", "SIGALRM", "SIGTERM",
    "SIGSTKFLT", "SIGXCPU", "SIGVTALRM", "SIGPROF", "SIGIO", "SIGPWR",
)  # fmt: skip


def ending_signals() -> list[int]:
    """The catchable signals that would end the process and that nobody else
    handles yet (still at their default). SIGINT always: Python's handler
    (KeyboardInterrupt) or asyncio's (which cancels the main task) would end the
    game from wherever the code happens to be."""
    sigs = [int(getattr(signal, name)) for name in ENDING if hasattr(signal, name)]
    if hasattr(signal, "SIGRTMIN"):
        sigs += range(signal.SIGRTMIN, signal.SIGRTMAX + 1)
    out = []
    for sig in dict.fromkeys(sigs):
        with contextlib.suppress(ValueError, OSError):
            if sig == signal.SIGINT or signal.getsignal(sig) is signal.SIG_DFL:
                out.append(sig)
    return out


def realtime(sig: int) -> bool:
    """A real-time signal (SIGRTMIN..SIGRTMAX)?"""
    return hasattr(signal, "SIGRTMIN") and signal.SIGRTMIN <= sig <= signal.SIGRTMAX


def end_on_signals(
    loop: asyncio.AbstractEventLoop,
    end: Callable[[int], object],
    sigs: Iterable[int] | None = None,
) -> list[int]:
    """Call `end(signum)` on the event loop for each ending signal (or each of
    `sigs`, some of them); the signals handled."""
    handled = []
    with _valid_signals_once():
        for sig in ending_signals() if sigs is None else sigs:
            with contextlib.suppress(ValueError, NotImplementedError, RuntimeError, OSError):
                loop.add_signal_handler(sig, end, sig)
                handled.append(sig)
    return handled


@contextlib.contextmanager
def _valid_signals_once() -> Iterator[None]:
    """asyncio checks each signal it is given against `signal.valid_signals()`,
    which makes a new set of every valid signal as Signals members at each call
    (about 70 µs); while the handlers are added, it is the one set made once."""
    valid = frozenset(signal.valid_signals())
    made = signal.valid_signals
    setattr(signal, "valid_signals", lambda: valid)  # noqa: B010
    try:
        yield
    finally:
        setattr(signal, "valid_signals", made)  # noqa: B010


def stop_ending_on_signals(loop: asyncio.AbstractEventLoop, sigs: Iterable[int]) -> None:
    """Give `sigs` back to their default (SIGINT to Python's), for the next app
    on this loop: the lobby and the game it starts are two apps on one loop,
    and the game takes only the signals nobody handles (`ending_signals`). A
    lobby that kept them kept SIGHUP for itself, ended: the game then never
    ended when its terminal closed, and spun on the dead terminal."""
    for sig in sigs:
        with contextlib.suppress(ValueError, NotImplementedError, RuntimeError, OSError):
            loop.remove_signal_handler(sig)


def owns_terminal() -> bool:
    """Is this process in the terminal's foreground (not continued in the
    background, and the terminal not hung up)?"""
    out = sys.__stdout__
    if out is None:
        return False
    try:
        return os.tcgetpgrp(out.fileno()) == os.getpgrp()
    except (OSError, ValueError):
        return False


def watch_continue(
    driver: Driver | None,
    loop: asyncio.AbstractEventLoop,
    continued: Callable[[bool], object],
) -> None:
    """On SIGCONT, call `continued(own_stop)` on the loop: `own_stop` is True
    when Textual suspended the terminal for the stop (Ctrl+Z, SIGTSTP) and
    brings it back itself; False after a SIGSTOP from outside."""
    if not hasattr(signal, "SIGCONT"):
        return
    textual = signal.getsignal(signal.SIGCONT)

    def on_sigcont(signum: int, frame: FrameType | None) -> None:
        own_stop = bool(getattr(driver, "_must_signal_resume", False))
        if own_stop and callable(textual):
            textual(signum, frame)
        with contextlib.suppress(RuntimeError):  # the loop is closing: nothing to draw
            loop.call_soon_threadsafe(continued, own_stop)

    signal.signal(signal.SIGCONT, on_sigcont)
