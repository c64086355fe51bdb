"""Where spit-tui keeps what it writes for a user: one home for the user
directories, so the key config, the history database, saved game records and
crash reports all follow the same platform rules (and the same XDG variables
that tests point at a temporary folder).

Nothing here creates a directory: the caller that writes decides what a
missing or unwritable directory means for it (a game never stops for it).
"""

from __future__ import annotations

from pathlib import Path

import platformdirs

APP_NAME = "spit-tui"


def config_dir() -> Path:
    """The key config (keys.toml) and other settings a person may edit."""
    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False))


def data_dir() -> Path:
    """The history database: what a player would be sorry to lose."""
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def state_dir() -> Path:
    """Saved game records (bug reports), unfinished games to resume."""
    return Path(platformdirs.user_state_dir(APP_NAME, appauthor=False))


def cache_dir() -> Path:
    """Crash reports and anything else that may be thrown away."""
    return Path(platformdirs.user_cache_dir(APP_NAME, appauthor=False))


def write_whole(path: Path, text: str) -> None:
    """Write `text` to `path` whole or not at all: a temporary file beside it,
    synced, then renamed over it, so a failure (a full disk, a kill) never
    leaves a damaged file. The folder must exist. Raises OSError."""
    import contextlib
    import os
    import tempfile  # here, not at the top: only a save needs it, never the start

    fd, tmp = tempfile.mkstemp(prefix=f".{path.stem}-", suffix=path.suffix, dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
