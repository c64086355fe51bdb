"""One home for "a benchmark never touches the user's own files": every
benchmark that starts the game runs inside `temporary_user_dirs()`, so its
history, saved games, crash reports and key config go to a folder that is
thrown away afterwards, whether it runs alone or under run.py.

The folder holds a config.toml with every setting at its default, so every
start a benchmark times reads one, as a player's start does once they have
saved a setting (SPIT_BENCH_NO_CONFIG=1 leaves it out, to compare)."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

XDG_VARS = ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME")


@contextmanager
def temporary_user_dirs() -> Iterator[Path]:
    """Point the XDG variables at a fresh temporary folder, and put them back."""
    saved = {var: os.environ.get(var) for var in XDG_VARS}
    with tempfile.TemporaryDirectory(prefix="spit-bench-home-") as home:
        for var in XDG_VARS:
            os.environ[var] = str(Path(home) / var.lower())
        if not os.environ.get("SPIT_BENCH_NO_CONFIG"):
            _write_default_config()
        try:
            yield Path(home)
        finally:
            for var, value in saved.items():
                if value is None:
                    os.environ.pop(var, None)
                else:
                    os.environ[var] = value


def _write_default_config() -> None:
    """config.toml holding every setting at its default (the game's own writer)."""
    from spit_tui.settings import SETTINGS, save

    problem = save({s.key: s.default for s in SETTINGS})
    if problem is not None:
        raise RuntimeError(problem)
