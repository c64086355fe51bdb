"""A player's settings: what they are (fields.py), where they are kept
(configfile.py: config.toml in the user config directory) and which value is
in force (resolve.py: flag > environment > config.toml > default).

    settings, note = settings_for_start(flags, os.environ)

The settings screen (app/settingsscreen.py, F6, `spit-tui settings`) shows
and saves them; the start-up (startup.Board) resolves them once and hands
them to the app, like the keys.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spit_tui.settings.configfile import Loaded, load, save
from spit_tui.settings.fields import BELL_EVENTS, SETTINGS, Setting, Settings
from spit_tui.settings.resolve import SettingError, describe, flags_of, resolve

__all__ = [
    "BELL_EVENTS",
    "SETTINGS",
    "Loaded",
    "Setting",
    "SettingError",
    "Settings",
    "describe",
    "flags_of",
    "load",
    "resolve",
    "save",
    "settings_for_start",
]


def settings_for_start(
    flags: Mapping[str, Any], env: Mapping[str, str]
) -> tuple[Settings, str | None]:
    """The settings in force at start, and config.toml's one line if it could
    not all be used (shown on screen; the game starts all the same).
    SettingError for an environment variable that cannot be used."""
    loaded = load()
    return resolve(flags, env, loaded), loaded.problem
