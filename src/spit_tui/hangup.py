"""A terminal that hung up (its window closed, its ssh session or tmux server
gone): how to tell, and how to stop writing to it. The key driver reads a
hang-up's end of input (keys/terminal.py); the app, a SIGHUP; the start-up,
a terminal gone before the next board opened."""

from __future__ import annotations

import errno
import os


def hung_up(fd: int) -> bool:
    """Has the terminal on `fd` hung up (its window closed, its ssh session or
    tmux server gone)? Every control call on a hung-up terminal fails with
    EIO (isatty() says it is no terminal at all); its reads return nothing.
    A terminal only given to another job (the game in the background) is not
    hung up, nor is a pipe or a file."""
    try:
        os.tcgetpgrp(fd)
    except OSError as e:
        return e.errno == errno.EIO
    except ValueError:
        return False
    return False


def let_go_of_terminal() -> None:
    """The terminal hung up: stdout and stderr, where they are that terminal,
    write to /dev/null from now on. So nothing more is written to a terminal
    that is gone: not Textual's restoring codes, not a line printed after the
    board (it failed with EIO: a game with a history crashed on its "kept"
    line, status 1)."""
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        for fd in (1, 2):
            if hung_up(fd):
                os.dup2(null, fd)
    finally:
        os.close(null)
