"""A stored game as an asciinema recording (asciicast v2): the replay, drawn
frame by frame by the replay's own widgets, so any asciinema player (or a web
page embedding one) shows the game as the board drew it.

    spit-tui export GAME_ID FILE.cast [--size 80x24]

The replay runs headless at the given size; after each action the screen is
rendered as the terminal would draw it (colours, the same characters), and
only the lines that changed are written, each behind a cursor move, so a
whole game stays a few hundred kilobytes. Each frame's time is its action's
stamp in the record; a wait longer than MAX_GAP_S (a player who stopped, a
pause) is cut to MAX_GAP_S, and the header says so too (`idle_time_limit`).
"""

from __future__ import annotations

import asyncio
import io
import json
from collections.abc import Iterator
from typing import IO

from rich.console import Console

from spit_tui.app import SpitApp
from spit_tui.app.replay import ReplayMode, replay_app
from spit_tui.engine import Record

MAX_GAP_S = 2.0
HOLD_END_S = 3.0  # the game-over banner stays this long before the recording ends


def _screen_lines(app: SpitApp) -> list[str]:
    """The screen as ANSI text, one string a line (as Textual's screenshot renders it)."""
    width, height = app.size
    console = Console(
        width=width,
        height=height,
        file=io.StringIO(),
        force_terminal=True,
        color_system="truecolor",
        record=True,
        legacy_windows=False,
        safe_box=False,
    )
    console.print(app.screen._compositor.render_update(full=True, simplify=True))
    lines = console.export_text(styles=True).split("\n")
    return lines[:height]


def _changes(before: list[str], after: list[str]) -> str:
    """The bytes that turn a terminal showing `before` into one showing `after`."""
    out = []
    for row, line in enumerate(after):
        if row >= len(before) or before[row] != line:
            out.append(f"\x1b[{row + 1};1H\x1b[0m\x1b[2K{line}")
    return "".join(out) + ("\x1b[0m" if out else "")


def cap_gaps(times: list[float], cap: float = MAX_GAP_S) -> list[float]:
    """The frames' times with every gap longer than `cap` cut to `cap`."""
    out: list[float] = []
    last = prev = 0.0
    for t in times:
        last += min(cap, max(0.0, t - prev))
        prev = t
        out.append(round(last, 3))
    return out


async def _frames(record: Record, title: str, size: tuple[int, int]) -> list[tuple[float, str]]:
    app = replay_app(record, title, playing=False)
    replay = app.mode
    assert isinstance(replay, ReplayMode)
    frames: list[tuple[float, str]] = []
    async with app.run_test(size=size) as pilot:
        for keys in app.screen.query("#replay-keys"):
            keys.display = False  # the replay's own keys: nothing a recording's viewer can press
        await pilot.pause()
        shown = _screen_lines(app)
        frames.append((0.0, "\x1b[?25l\x1b[H\x1b[2J" + _changes([], shown)))
        for i in range(len(record.actions)):
            replay.step(1)
            await pilot.pause()
            now = _screen_lines(app)
            change = _changes(shown, now)
            shown = now
            if change:
                frames.append((replay.times[i], change))
    return frames


def events(record: Record, title: str, size: tuple[int, int]) -> Iterator[tuple[float, str]]:
    """The recording's output events: (seconds since the start, text)."""
    frames = asyncio.run(_frames(record, title, size))
    times = cap_gaps([t for t, _ in frames])
    for t, (_, data) in zip(times, frames, strict=True):
        yield t, data
    end = (times[-1] if times else 0.0) + HOLD_END_S
    yield end, f"\x1b[{size[1]};1H\x1b[?25h"  # the cursor back, below the board


def write_cast(
    out: IO[str], record: Record, title: str, size: tuple[int, int], timestamp: int | None = None
) -> None:
    """Write the asciicast v2 file: a header line, then one JSON array an event."""
    header: dict[str, object] = {
        "version": 2,
        "width": size[0],
        "height": size[1],
        "idle_time_limit": MAX_GAP_S,
        "title": title,
        "env": {"TERM": "xterm-256color"},
    }
    if timestamp is not None:
        header["timestamp"] = timestamp
    out.write(json.dumps(header) + "\n")
    for t, data in events(record, title, size):
        out.write(json.dumps([t, "o", data]) + "\n")
