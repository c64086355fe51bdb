"""The one place that decides which value of a setting is in force:

    a command-line flag  >  an environment variable  >  config.toml  >  the default

Each setting (settings/fields.py) names its flag and its variable where it has
them; the first of the four that says something wins, and `Settings.sources`
keeps which one it was (`spit-tui settings --show` prints it). A flag's value
was checked by the command line already; a variable's bad value is refused
here with one line (`SettingError`); config.toml's bad values were left out
when it was read (with its one line), so the default shows through.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spit_tui.settings.configfile import FILE_NAME, Loaded
from spit_tui.settings.fields import SETTINGS, Refused, Setting, Settings


class SettingError(Exception):
    """An environment variable with a value its setting cannot take: str() is
    the one line to print."""


def flag_dest(setting: Setting) -> str | None:
    """The flag's name in an argparse Namespace ("--theme" -> "theme")."""
    return None if setting.flag is None else setting.flag[2:].replace("-", "_")


def resolve(
    flags: Mapping[str, Any], env: Mapping[str, str], config: Loaded
) -> Settings:
    """The settings in force. `flags`: the command line's values by argparse
    name (None or absent: not given); `env`: the environment; `config`: what
    config.toml gave."""
    values: dict[str, Any] = {}
    sources: dict[str, str] = {}
    for s in SETTINGS:
        dest = flag_dest(s)
        given = None if dest is None else flags.get(dest)
        if given is not None:
            values[s.key], sources[s.key] = given, s.flag or ""
            continue
        text = None if s.env is None else env.get(s.env)
        if text:  # an empty variable counts as unset, as shells treat it
            parse = s.text or s.check
            try:
                values[s.key] = parse(text)
            except Refused as e:
                raise SettingError(f"{s.env}: {e}") from None
            sources[s.key] = s.env or ""
            continue
        if s.key in config.values:
            values[s.key], sources[s.key] = config.values[s.key], FILE_NAME
            continue
        values[s.key], sources[s.key] = s.default, "default"
    return Settings(**values, sources=sources)


def flags_of(namespace: object) -> dict[str, Any]:
    """The settings' flags as a command line's Namespace has them."""
    out = {}
    for s in SETTINGS:
        dest = flag_dest(s)
        if dest is not None and hasattr(namespace, dest):
            out[dest] = getattr(namespace, dest)
    return out


def describe(settings: Settings) -> list[str]:
    """Each setting in force and where it came from, a line each."""
    width = max(len(s.key) for s in SETTINGS)
    lines = []
    for s in SETTINGS:
        value = shown_value(getattr(settings, s.key))
        lines.append(f"{s.key:<{width}}  {value:<16}  ({settings.source(s.key)})")
    return lines


def shown_value(value: object) -> str:
    """A setting's value in words: true/false, a bell's events or "none"."""
    from spit_tui.settings.fields import toml_value

    value = toml_value(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ", ".join(value) or "none"
    return str(value)
