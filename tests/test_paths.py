"""The user directories follow the XDG variables (the suite's own fixture sets them)."""

from __future__ import annotations

import os
from pathlib import Path

from spit_tui import paths


def test_user_dirs_follow_xdg(user_dirs: Path) -> None:
    assert paths.config_dir() == Path(os.environ["XDG_CONFIG_HOME"]) / "spit-tui"
    assert paths.data_dir() == Path(os.environ["XDG_DATA_HOME"]) / "spit-tui"
    assert paths.state_dir() == Path(os.environ["XDG_STATE_HOME"]) / "spit-tui"
    assert paths.cache_dir() == Path(os.environ["XDG_CACHE_HOME"]) / "spit-tui"
    assert str(paths.config_dir()).startswith(str(user_dirs))
