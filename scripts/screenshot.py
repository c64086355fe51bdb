"""Regenerate the README's pictures of the board from a seeded game a few moves
in: docs/board.svg (the app's own screenshot) and the text picture in README.md
(between the `board picture` markers), for people reading in a terminal.

    python scripts/screenshot.py [--out docs/board.svg]

tests/test_readme.py checks that the README's text picture is what the app draws.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import re
from pathlib import Path

from rich.console import Console
from textual import events
from textual.keys import _character_to_key

from spit_tui.app import SpitApp
from spit_tui.clock import VirtualClock
from spit_tui.engine import PLAYERS, Game, Ready
from spit_tui.table import Table

ROOT = Path(__file__).resolve().parent.parent
SEED = 1
KEYS = "wy"  # left plays A♦ on 2♦ (highlighted); right tries 10♦ on A♦ (refused)
README = ROOT / "README.md"
PICTURE = re.compile(r"(<!-- board picture -->\n```text\n)(.*?)(```\n)", re.S)


def screen_text(app: SpitApp) -> str:
    """The screen as plain text, trailing spaces off."""
    width, height = app.size
    console = Console(width=width, height=height, record=True, file=io.StringIO())
    console.print(app.screen._compositor.render_update(full=True))
    lines = console.export_text().splitlines()
    return "\n".join(line.rstrip() for line in lines).rstrip("\n") + "\n"


async def shoot(out: Path | None) -> str:
    """Save the SVG to `out` (if given) and return the screen as text."""
    game = Game(seed=SEED)
    for p in PLAYERS:
        game.apply(Ready(p))
    app = SpitApp(table=Table(game, VirtualClock()))
    async with app.run_test(size=(80, 24)) as pilot:
        for ch in KEYS:
            ev = events.Key(_character_to_key(ch), ch)
            ev.set_sender(app)
            app.post_message(ev)
        await pilot.pause()
        await pilot.pause()
        if out is not None:
            app.save_screenshot(filename=out.name, path=str(out.parent))
        return screen_text(app)


def readme_picture(readme: str) -> str:
    """The text picture of the board in the README."""
    m = PICTURE.search(readme)
    if m is None:
        raise SystemExit("README.md has no board picture block")
    return m[2]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "board.svg")
    args = ap.parse_args()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    text = asyncio.run(shoot(args.out))
    readme = README.read_text(encoding="utf-8")
    readme_picture(readme)  # the block must be there
    README.write_text(PICTURE.sub(lambda m: m[1] + text + m[3], readme), encoding="utf-8")
    print(f"wrote {args.out} and the picture in {README.name}")


if __name__ == "__main__":
    main()
