"""The command line's part in choosing keys: `spit-tui layouts`, and --layout,
--keys and SPIT_LAYOUT resolved into the one key table before the app starts
(one line on stderr and exit 2 for anything wrong)."""

from __future__ import annotations

import os
import sys

from spit_tui.command import shown
from spit_tui.keys.config import Choice, KeyConfigError, choose, default_path
from spit_tui.keys.layout import grid, preset, preset_names
from spit_tui.players import keymap

PROG = "spit-tui"


def layouts_command(args: list[str]) -> int:
    """Print every preset as a key grid (or only the ones named)."""
    if any(a in ("-h", "--help") for a in args):
        print(f"usage: {PROG} layouts [NAME ...]\n\nShow the keyboard layout presets as key grids.")
        return 0
    names = args or preset_names()
    unknown = [n for n in names if n not in preset_names()]
    if unknown:
        print(
            f"{PROG}: layouts: no layout {shown(unknown[0])!r}"
            f" (known: {', '.join(preset_names())})",
            file=sys.stderr,
        )
        return 2
    out = [
        "Keyboard layouts: choose one with --layout NAME (or SPIT_LAYOUT=NAME).",
        "Left player: the five keys on the left of each row; right player: the five on the right.",
        f"Key config file: {default_path()}",
        "",
    ]
    for name in names:
        layout = preset(name)
        out.append(f"{name:<8} {layout.description}")
        out += [f"         {line}" for line in grid(layout)]
        out.append("")
    try:
        sys.stdout.write("\n".join(out))
        sys.stdout.flush()
    except OSError as e:
        print(f"{PROG}: layouts: cannot write: {e.strerror or e}", file=sys.stderr)
        return 1
    return 0


def choose_keys(layout_name: str | None, keys_file: str | None) -> Choice | None:
    """Resolve and activate the layout, or print one line and return None."""
    try:
        choice = choose(layout_name, keys_file, os.environ)
    except KeyConfigError as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return None
    keymap.activate(choice.layout)
    return choice
