"""How a play session uses the history: which file, or none at all.

    spit-tui                      history in the user data directory
    spit-tui --db FILE            another file
    spit-tui --no-history         nothing kept (also: SPIT_NO_HISTORY=1)

Games are stored under the seats' names (spit_tui.names). Nothing here ever
stops a game from starting: a history that cannot be used turns itself off and says so.
"""

from __future__ import annotations

import os
from pathlib import Path

from spit_tui.store import db
from spit_tui.store.history import HistoryWriter

NO_HISTORY_ENV = "SPIT_NO_HISTORY"  # set (non-empty): as --no-history, for scripts


def open_history(db_path: str | None, enabled: bool) -> HistoryWriter | None:
    """The session's writer (it opens the file on its own thread), or None."""
    if not enabled or os.environ.get(NO_HISTORY_ENV):
        return None
    # the app starts the worker after its first frame (SpitApp.on_ready)
    return HistoryWriter(Path(db_path) if db_path else db.default_path(), start=False)
