"""`spit-tui layouts`: the keyboard layouts as key grids. (--layout, --keys and
SPIT_LAYOUT are resolved by the one start-up, spit_tui.startup.)"""

from __future__ import annotations

import sys

from spit_tui.command import shown
from spit_tui.keys.config import default_path
from spit_tui.keys.layout import grid, preset, preset_names

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
