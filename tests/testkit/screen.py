"""The one headless screen reader: the text a Pilot's screen shows, once the
app has handled everything queued so far."""

from __future__ import annotations

import asyncio

from textual.pilot import Pilot


async def settle(pilot: Pilot[None]) -> None:
    """Wait until the app has handled everything queued so far (fast: a callback
    queued behind the keys, instead of waiting for the CPU to go idle)."""
    done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    pilot.app.call_later(lambda: done.set_result(None))
    await asyncio.wait_for(done, timeout=10)


class _Null:
    def write(self, _: str) -> int:
        return 0

    def flush(self) -> None:
        pass


async def screen_text(pilot: Pilot[None]) -> str:
    """The visible text of the current screen (for asserting what the players see)."""
    from rich.console import Console

    await settle(pilot)
    await pilot.pause()
    app = pilot.app
    width, height = app.size
    console = Console(width=width, height=height, record=True, file=_Null(), legacy_windows=False)
    update = app.screen._compositor.render_update(full=True)
    console.print(update)
    return console.export_text()
