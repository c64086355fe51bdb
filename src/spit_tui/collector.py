"""Python's cycle collector waits while the game starts.

Starting the game allocates about 80,000 objects that live as long as the
process (modules, classes, the stylesheet, the widgets), and Python's cycle
collector runs a hundred or more times over them on the way to the first
frame: 10-20 ms of a start's CPU, and none of those collections finds much
(under a thousand objects of garbage). So the `spit-tui` command (and `python
-m spit_tui`) holds the collector from its first line until the board's first
frame; the app then freezes what exists (`gc.freeze`: those objects stay out of
every later collection) and lets the collector run again.

Only a process started by the command is held (`hold` runs there, not on
import), so tests and tools that import the package keep their collector. Every
command that does not show the game's board lets it go at once (`release`), and
so does the end of any board's run, so nothing runs long with it held."""

from __future__ import annotations

import gc

_held = False


def hold() -> None:
    """Stop the cycle collector until `release` (unless someone else stopped it)."""
    global _held
    if gc.isenabled():
        gc.disable()
        _held = True


def release() -> None:
    """Let the collector run again, if `hold` stopped it; otherwise nothing."""
    global _held
    if _held:
        _held = False
        gc.enable()


def held() -> bool:
    """Whether `hold` stopped the collector and `release` has not let it go yet."""
    return _held
