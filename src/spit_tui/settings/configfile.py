"""config.toml in the user config directory: the settings a player saved.

Read with care (userfiles.read_small: a regular file of at most
MAX_FILE_BYTES; never a FIFO, a device or a directory), parsed with the
standard tomllib, or without it when it holds only the lines the game writes
(settings/plaintoml.py). A file that cannot be used gives one line (shown on screen)
and the defaults for what it could not give, and it is never written over:
a save re-reads the file first and refuses while anything in it is wrong, so
a player's file is left exactly as it was until they mend or remove it.

A save is whole or nothing (paths.write_whole: a temporary file renamed over
the old one), the file 0600 in a 0700 folder. Keys this version does not know
(a newer version's, a typo) are kept. Written with tomli-w: the kept keys may
hold any TOML value (tables, arrays of tables, dates), which it writes right;
comments in the file are not kept (the file says so at its top).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, NamedTuple

from spit_tui.paths import config_dir, write_whole
from spit_tui.settings.fields import BY_KEY, SETTINGS, Refused, toml_value
from spit_tui.settings.plaintoml import plain
from spit_tui.userfiles import FileRefused, private_dir, read_small

FILE_NAME = "config.toml"
MAX_FILE_BYTES = 64 * 1024  # the whole file is a few hundred bytes
HEADER = (
    "# spit-tui settings: written by the settings screen (F6, or: spit-tui settings).\n"
    "# A command-line flag or an environment variable wins over what is here\n"
    "# (spit-tui settings --show says where each setting in force comes from).\n"
    "# Comments added here are not kept when the screen saves.\n"
)


def default_path() -> Path:
    return config_dir() / FILE_NAME


class Loaded(NamedTuple):
    """What config.toml gave: each known setting it set (checked), the whole
    table as read (unknown keys too), and one line if anything could not be
    used (None: all of it was)."""

    values: Mapping[str, Any]
    table: Mapping[str, Any]
    problem: str | None  # the line for the screen
    why: str | None = None  # the same, short: why a save is refused


NOTHING = Loaded({}, {}, None)


def load(path: Path | None = None) -> Loaded:
    """config.toml's settings. A missing file is no settings and no problem."""
    path = default_path() if path is None else path
    try:
        raw = read_small(path, MAX_FILE_BYTES)
    except FileNotFoundError:
        return NOTHING
    except FileRefused as e:
        return _unusable(path, f"not a settings file ({e})")
    except OSError as e:
        return _unusable(path, f"cannot read it: {e.strerror or e}")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return _unusable(path, "not UTF-8 text")
    table = plain(text)  # the file as the game wrote it: no parser to import
    if table is None:
        import tomllib  # here: only a file the game did not write needs the parser

        try:
            table = tomllib.loads(text)
        except tomllib.TOMLDecodeError as e:
            return _unusable(path, f"not valid TOML ({e})")
        except RecursionError:
            return _unusable(path, "not valid TOML (values nested too deeply)")
    values: dict[str, Any] = {}
    wrong: list[str] = []
    for key, value in table.items():
        setting = BY_KEY.get(key)
        if setting is None:
            continue  # another version's setting: kept, unused
        try:
            values[key] = setting.check(value)
        except Refused as e:
            wrong.append(f"{key}: {e}")
    if wrong:
        more = f" (and {len(wrong) - 1} more)" if len(wrong) > 1 else ""
        why = f"{path.name}: {wrong[0]}{more}"
        return Loaded(values, table, f"{why}; the default is used, the file left as it is", why)
    return Loaded(values, table, None)


def _unusable(path: Path, why: str) -> Loaded:
    from spit_tui.command import one_line

    why = one_line(f"{path.name}: {why}")
    return Loaded({}, {}, f"{why}; using the defaults (the file is left as it is)", why)


def save(changes: Mapping[str, Any], path: Path | None = None) -> str | None:
    """Set `changes` (setting key -> value) in config.toml, keeping everything
    else in it; None when saved, else the one line saying why not (a file that
    cannot be used is never written over)."""
    path = default_path() if path is None else path
    if path.is_symlink():  # a dotfiles manager's link: write where it points
        path = Path(os.path.realpath(path))
        own_folder = False
    else:
        own_folder = True
    now = load(path)
    if now.why is not None:
        return f"not saved (mend or remove the file first): {now.why}"
    for key, value in changes.items():
        BY_KEY[key].check(toml_value(value))  # a bad value here is the caller's bug
    table: dict[str, Any] = {k: v for k, v in now.table.items()}
    table.update({k: toml_value(v) for k, v in changes.items()})
    ordered = {s.key: table.pop(s.key) for s in SETTINGS if s.key in table}
    ordered.update(table)  # unknown keys after ours, as they were
    import tomli_w  # here: only a save needs the writer

    text = HEADER + tomli_w.dumps(ordered)
    try:
        if own_folder:
            private_dir(path.parent)
        write_whole(path, text)
    except OSError as e:
        return f"not saved: {path.name}: {e.strerror or e}"
    return None
