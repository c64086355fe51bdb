"""The --demo at full speed: two computer players on a virtual clock that is
stepped as fast as the screen can show it, so a whole game takes seconds.

    TEXTUAL_FPS=1000 python benchmarks/fast_demo.py [--seed N] [--level hard] [--stats FILE]

It is the real app (SpitApp in spit_tui.app.computer.ComputerMode, both seats taken,
as `spit-tui --demo` runs it) with two changes only: time is a VirtualClock
that jumps to the next bot move instead of waiting for it, and each board
update is timed. One step of the clock is one bot move (or a timed effect:
the countdown, a message fading); after a step that changed the screen the
driver waits for that frame to be drawn before stepping again, so every board
update gets its own frame.

A frame's time is what the update costs the app: the table listeners' sync
(each view works out whether its state changed and, if so, rebuilds its lines)
plus the screen update that puts it on the terminal (layout if needed, the
compositor's render of the changed regions, encoding and handing the bytes to
the driver). The bots' own thinking and the engine's move are not in it.
Textual paces screen updates at TEXTUAL_FPS (60 by default); set it high so
the demo is not held to 60 frames a second.

When the first game is over it writes the frame times (and the game's length)
as JSON to --stats, shows a "DEMO OVER" notice and stays up, idle, until
Ctrl+Q (which asks first, as always) so its memory can be read.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from pathlib import Path, PurePath
from typing import Any, ClassVar

import spit_tui.app
from spit_tui.app import SpitApp
from spit_tui.app.computer import ComputerMode
from spit_tui.app.screens import GameScreen
from spit_tui.clock import VirtualClock
from spit_tui.engine import Options, Phase, Player
from spit_tui.table import Table

OVER_MARK = "DEMO OVER"
STEP_CAP = 200_000  # a game that needs more steps than this is stuck


class TimedGameScreen(GameScreen):
    """The game screen, timing each screen update (Textual's update timer)."""

    def __init__(self, table: Table) -> None:
        super().__init__(table)
        self.updates: list[float] = []
        self.updates_cpu: list[float] = []
        self.layouts: list[bool] = []  # did the update lay the screen out again?
        self.drawn = asyncio.Event()

    def _on_timer_update(self) -> None:
        layout = bool(self._layout_required)
        t0, c0 = time.perf_counter(), time.thread_time()
        super()._on_timer_update()
        self.updates.append(time.perf_counter() - t0)
        self.updates_cpu.append(time.thread_time() - c0)
        self.layouts.append(layout)
        self.drawn.set()

    def pending(self) -> bool:
        """Is a repaint waiting for the next update? (Textual 8.2 internals.)"""
        return bool(
            self._dirty_widgets
            or self._layout_required
            or self._repaint_required
            or self._scroll_required
        )


class FastDemo(SpitApp):
    """`spit-tui --demo` (both seats taken by `level`) on a virtual clock at full speed."""

    # the app's own look (SpitApp adds its mode's stylesheets to this list)
    CSS_PATH: ClassVar[list[str | PurePath]] = [Path(spit_tui.app.__file__).parent / "app.tcss"]

    def __init__(self, *, seed: int = 1, level: str = "hard", stats: str | None = None) -> None:
        self.clock_v = VirtualClock()
        super().__init__(
            mode=ComputerMode({Player.LEFT: level, Player.RIGHT: level}, demo=True, bot_seed=seed),
            options=Options(),
            seed=seed,
            clock=self.clock_v,
        )
        self.stats_path = stats
        self.screen_t = TimedGameScreen(self.table)
        self.game_screen = self.screen_t
        self._sync_s = 0.0
        self._sync_cpu = 0.0
        self.frames: list[dict[str, Any]] = []
        self.steps = 0
        self.done = asyncio.Event()

    def _on_change(self) -> None:
        t0, c0 = time.perf_counter(), time.thread_time()
        super()._on_change()
        self._sync_s += time.perf_counter() - t0
        self._sync_cpu += time.thread_time() - c0

    def on_mount(self) -> None:
        # Textual runs every class's on_mount along the MRO by itself: no super() here
        self.run_worker(self._drive(), exclusive=True)

    async def _drive(self) -> None:
        await asyncio.sleep(0.2)  # the first frame and the demo notice
        screen = self.screen_t
        clock = self.clock_v
        table = self.table
        started = time.perf_counter()
        while table.position.phase is not Phase.OVER and self.steps < STEP_CAP:
            self._sync_s = self._sync_cpu = 0.0
            screen.drawn.clear()
            n_updates = len(screen.updates)
            if not clock.step():
                break
            self.steps += 1
            if self.screen is not screen:
                await asyncio.sleep(0)
                continue
            if screen.pending():
                try:
                    await asyncio.wait_for(screen.drawn.wait(), 1.0)
                except TimeoutError:
                    continue
                update = sum(screen.updates[n_updates:])
                cpu = self._sync_cpu + sum(screen.updates_cpu[n_updates:])
                layout = any(screen.layouts[n_updates:])
                self.frames.append(
                    {"sync": self._sync_s, "update": update, "cpu": cpu, "layout": layout}
                )
            else:
                await asyncio.sleep(0)
        wall = time.perf_counter() - started
        self.write_stats(wall)
        self.notify(OVER_MARK, timeout=24 * 3600)
        self.done.set()

    def write_stats(self, wall: float) -> None:
        out: dict[str, Any] = {
            "steps": self.steps,
            "frames_ms": [round(1000 * (f["sync"] + f["update"]), 4) for f in self.frames],
            "sync_ms": [round(1000 * f["sync"], 4) for f in self.frames],
            "update_ms": [round(1000 * f["update"], 4) for f in self.frames],
            "cpu_ms": [round(1000 * f["cpu"], 4) for f in self.frames],
            "layout": [bool(f["layout"]) for f in self.frames],
            "wall_s": round(wall, 3),
            "over": self.table.position.phase is Phase.OVER,
            "rounds": self.table.position.round,
            "simulated_s": round(self.clock_v.now(), 1),
            "fps_cap": os.environ.get("TEXTUAL_FPS", "60"),
            "pid": os.getpid(),
        }
        if self.stats_path:
            tmp = self.stats_path + ".tmp"
            with open(tmp, "w", encoding="utf-8") as f:
                json.dump(out, f)
            os.replace(tmp, self.stats_path)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--level", default="hard")
    ap.add_argument("--stats", help="write the frame times here (JSON) when the game is over")
    ap.add_argument(
        "--history", metavar="FILE", help="store the game in this history file, as a game is"
    )
    args = ap.parse_args(argv)
    app = FastDemo(seed=args.seed, level=args.level, stats=args.stats)
    if args.history:
        from spit_tui.store.history import HistoryWriter

        writer = HistoryWriter(Path(args.history))
        writer.names = (args.level, args.level)
        app.attach_history(writer)
    app.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
