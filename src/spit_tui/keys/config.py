"""The key config file (keys.toml): a preset, plus any row of either player's
keys typed out. Read with the standard tomllib; a bad file is refused with one
line naming the file, the line and the key, and the game never starts with an
ambiguous map. Written only whole (to a temporary file, then renamed), so a
failure never leaves a damaged file behind.

    # spit-tui keys
    layout = "fr"

    [right]
    bottom = "n,;:!"     # five keys, left to right (or a list of five strings)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, NamedTuple

from spit_tui.command import shown
from spit_tui.engine import Player
from spit_tui.keys.layout import DEFAULT, ROW_NAMES, Layout, preset, preset_names
from spit_tui.paths import config_dir, write_whole
from spit_tui.userfiles import FileRefused, read_small

FILE_NAME = "keys.toml"
HALVES = {"left": Player.LEFT, "right": Player.RIGHT}
MAX_FILE_BYTES = 64 * 1024  # a full config is well under 1 KiB


def quoted(value: object) -> str:
    """A bad value as an error line may echo it: at most 40 characters, escaped."""
    return repr(shown(value)) if isinstance(value, str) else shown(repr(value))


class KeyConfigError(Exception):
    """A config that cannot be used: str() is the one line the player sees."""


def default_path() -> Path:
    return config_dir() / FILE_NAME


def _line_of(text: str, section: str | None, key: str | None) -> int:
    """The line that sets `key` in `[section]` (or the section's header), 1-based.
    tomllib keeps no positions, so find it the simple way: good enough for a
    hand-written file, and line 1 when in doubt."""
    current: str | None = None
    header_line = 1
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        m = re.fullmatch(r"\[\s*([^\]]+?)\s*\]", line)
        if m:
            current = m.group(1).strip("\"'")
            if current == section:
                header_line = n
            continue
        if key is None:
            continue
        k = line.split("=", 1)[0].strip().strip("\"'") if "=" in line else None
        if k == key and current == section:
            return n
        if section is not None and k == f"{section}.{key}" and current is None:
            return n
    return header_line


def _row_keys(value: Any) -> list[str] | None:
    if isinstance(value, str):
        return list(value)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return list(value)
    return None


def parse(text: str, name: str) -> Layout:
    """The layout a config text describes. `name` is how errors call the file."""
    import tomllib  # here: only a start that has a keys file needs the parser

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        msg = str(e)
        m = re.search(r"\(at line (\d+), column \d+\)", msg)
        line = m.group(1) if m else "1"
        reason = msg[: m.start()].strip() if m else msg
        raise KeyConfigError(f"{name}:{line}: not valid TOML: {reason}") from None
    except RecursionError:  # arrays in arrays, thousands deep
        raise KeyConfigError(f"{name}: not a key config (values nested too deeply)") from None

    def fail(section: str | None, key: str | None, what: str) -> KeyConfigError:
        where = shown(".".join(p for p in (section, key) if p))
        line = _line_of(text, section, key)
        return KeyConfigError(f"{name}:{line}: {where}: {what}")

    for top in data:
        if top != "layout" and top not in HALVES:
            raise fail(None, top, "unknown setting (known: layout, [left], [right])")
    chosen = data.get("layout", DEFAULT)
    if not isinstance(chosen, str) or chosen not in preset_names():
        raise fail(
            None,
            "layout",
            f"no preset {quoted(chosen)}"
            f" (spit-tui layouts shows them: {', '.join(preset_names())})",
        )
    layout = preset(chosen)
    for half_name, half in HALVES.items():
        rows = data.get(half_name, {})
        if not isinstance(rows, dict):
            raise fail(None, half_name, "must be a table of rows: [" + half_name + "]")
        for row_name, value in rows.items():
            if row_name not in ROW_NAMES:
                raise fail(half_name, row_name, f"unknown row (rows: {', '.join(ROW_NAMES)})")
            keys = _row_keys(value)
            if keys is None:
                raise fail(half_name, row_name, 'a row is a string of five keys, like "qwert"')
            if len(keys) != 5:
                raise fail(half_name, row_name, f"{len(keys)} keys given, a row has 5")
            layout = layout.with_row(half, ROW_NAMES.index(row_name), keys)
    problems = layout.problems()
    if problems:
        pos, what = problems[0]
        half_name = "left" if pos[1] < 5 else "right"
        row_name = ROW_NAMES[pos[0]]
        section, key = (
            (half_name, row_name) if row_name in data.get(half_name, {}) else (None, "layout")
        )
        line = _line_of(text, section, key)
        raise KeyConfigError(f"{name}:{line}: {what}")
    return layout


def load(path: Path) -> Layout:
    """Read and parse a key config file: a regular file of at most
    MAX_FILE_BYTES (never a FIFO or a device, which could hang or never end)."""
    try:
        raw = read_small(path, MAX_FILE_BYTES)
    except FileNotFoundError:
        raise KeyConfigError(f"{path}: no such file") from None
    except FileRefused as e:
        raise KeyConfigError(f"{path}: not a key config file: {e}") from None
    except OSError as e:
        raise KeyConfigError(f"{path}: cannot read it: {e.strerror or e}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        line = raw[: e.start].count(b"\n") + 1
        raise KeyConfigError(f"{path}:{line}: not UTF-8 text") from None
    return parse(text, str(path))


def render(layout: Layout) -> str:
    """A config text for `layout`: the preset, and every row that differs from it."""
    base = preset(layout.name)
    lines = [
        "# spit-tui keys: a preset (spit-tui layouts lists them), and any row of",
        "# either player's keys typed out, five keys left to right.",
        f"layout = {_toml_str(layout.name)}",
    ]
    for half_name, half in HALVES.items():
        start = 0 if half is Player.LEFT else 5
        rows = []
        for r, row_name in enumerate(ROW_NAMES):
            mine = [layout.keys[r][c] for c in range(start, start + 5)]
            theirs = [base.keys[r][c] for c in range(start, start + 5)]
            if [k[0] for k in mine] != [k[0] for k in theirs]:
                rows.append(f"{row_name} = [{', '.join(_toml_str(k[0]) for k in mine)}]")
        if rows:
            lines += ["", f"[{half_name}]", *rows]
    return "\n".join(lines) + "\n"


def _toml_str(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def save(layout: Layout, path: Path | None = None) -> Path:
    """Write `layout` as a config file, whole or not at all (OSError on failure)."""
    path = default_path() if path is None else path
    path.parent.mkdir(parents=True, exist_ok=True)
    write_whole(path, render(layout))
    return path


class Choice(NamedTuple):
    layout: Layout
    configured: bool  # False: nothing chose a layout (the first-run check may ask)
    source: str  # where it came from, for the help page


def choose(layout_name: str | None, keys_file: str | None, env: Mapping[str, str]) -> Choice:
    """The layout for this run: --keys FILE, else --layout NAME, else SPIT_LAYOUT,
    else the user's config file, else US QWERTY (not configured)."""
    if layout_name is not None and keys_file is not None:
        raise KeyConfigError("choose one of --layout and --keys (a key file names its layout)")
    if keys_file is not None:
        return Choice(load(Path(keys_file)), True, keys_file)
    named = ((layout_name, "--layout"), (env.get("SPIT_LAYOUT") or None, "SPIT_LAYOUT"))
    for name, source in named:
        if name is not None:
            if name not in preset_names():
                raise KeyConfigError(
                    f"{source}: no layout {quoted(name)} (spit-tui layouts shows them: "
                    f"{', '.join(preset_names())})"
                )
            return Choice(preset(name), True, source)
    path = default_path()
    if path.exists():
        return Choice(load(path), True, str(path))
    return Choice(preset(DEFAULT), False, "default")
