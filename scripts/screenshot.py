"""Regenerate the README's picture of the board (docs/board.svg) with the app's
own screenshot support, from a seeded game a few moves in.

    python scripts/screenshot.py [--out docs/board.svg]
"""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path

from textual import events
from textual.keys import _character_to_key

from spit_tui.app import SpitApp
from spit_tui.clock import VirtualClock
from spit_tui.engine import PLAYERS, Game, Ready
from spit_tui.table import Table

ROOT = Path(__file__).resolve().parent.parent
SEED = 1
KEYS = "wy"  # left plays A♦ on 2♦ (highlighted); right tries 10♦ on A♦ (refused)


async def shoot(out: Path) -> None:
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
        app.save_screenshot(filename=out.name, path=str(out.parent))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "board.svg")
    args = ap.parse_args()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    asyncio.run(shoot(args.out))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
