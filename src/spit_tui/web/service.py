"""One page's game process, for a game that runs more than one Textual app in
turn: `join HOST` runs the lobby, then the board, then the lobby again.

textual-serve's AppService takes the first app's end (its "exit" message) for
the end of the page, and reads what the next app writes (its "__GANGLION__"
start line, then its frames) as garbage. Here an app's end ends nothing: the
next app's start line is read as such, and the page's latest size is sent to
it (the driver would start it at the size the page first had), or "quit" once
the page has gone (the lobby would wait for ever for it); the page ends
when the process does, with the game's last line (a game that ends with one,
such as "nothing is listening at ...") shown on the page as well as on the
server's console.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys

from textual_serve.app_service import AppService

from spit_tui.store.stored import escaped

START = b"__GANGLION__\n"  # what Textual's web driver writes as an app starts
RESEND_S = 0.3
STOP_S = 5.0  # a game told to quit that still runs after this is killed
MAX_PACKET = 64 * 1024 * 1024
STDERR_WAIT_S = 1.0  # for the rest of a game's error output once its screen has ended
STDERR_KEPT = 4096  # characters of the game's own error output passed to the console
ENDED_KEPT = 300  # characters of the game's last line the page shows when it ends


class PageService(AppService):
    """The process behind one page (textual-serve's, with apps in turn)."""

    size: tuple[int, int] = (80, 24)
    stopping = False  # the page has gone
    _resizing: asyncio.Task[None] | None = None

    async def start(self, width: int, height: int) -> None:
        self.size = (width, height)
        await super().start(width, height)

    async def set_terminal_size(self, width: int, height: int) -> None:
        self.size = (width, height)
        await super().set_terminal_size(width, height)

    async def on_meta(self, data: bytes) -> None:
        try:
            kind = json.loads(data).get("type")
        except (ValueError, AttributeError):
            return
        if kind != "exit":  # one app ended: another may follow; the process's end ends the page
            await super().on_meta(data)

    async def _tell_new_app(self) -> None:
        """The page's size to the app that starts, or, once the page has gone,
        "quit" (the lobby would wait for ever for a page that is not there):
        now and once the app before it has surely stopped reading (its input
        thread reads for up to 0.1 s after its end, and what it reads then is
        lost)."""
        for wait in (0.0, RESEND_S):
            await asyncio.sleep(wait)
            if self.stopping:
                await self.send_meta({"type": "quit"})
            else:
                await super().set_terminal_size(*self.size)

    async def stop(self) -> None:
        """The page has gone: the game is told to quit (every app it starts
        from now on, too); a game still running after STOP_S is ended."""
        self.stopping = True
        task, process = self._task, self._process
        if task is None:
            return
        await self._download_manager.cancel_app_downloads(app_service_id=self.app_service_id)
        await self.send_meta({"type": "quit"})
        try:
            await asyncio.wait_for(asyncio.shield(task), STOP_S)
        except TimeoutError:
            if process is not None and process.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    process.kill()
            await task
        self._task = None

    async def _to_page(self, kind: bytes, payload: bytes) -> None:
        try:
            if kind == b"D":
                await self.on_data(payload)
            elif kind == b"M":
                await self.on_meta(payload)
            else:
                await self.on_packed(payload)
        except ConnectionResetError:  # the page has gone: the game is still read to its end
            self.stopping = True

    async def run(self) -> None:
        assert self._process is not None
        stdout, stderr = self._process.stdout, self._process.stderr
        assert stdout is not None and stderr is not None
        said = asyncio.create_task(stderr.read())
        try:
            while True:
                kind = await stdout.readexactly(1)
                if kind not in b"DMP":  # a line of text: an app's start line, or stray output
                    line = kind + await stdout.readline()
                    if line == START:
                        self._resizing = asyncio.create_task(self._tell_new_app())
                    continue
                size = int.from_bytes(await stdout.readexactly(4), "big")
                if size > MAX_PACKET:
                    break
                payload = await stdout.readexactly(size)
                if not self.stopping:  # once the page has gone, the rest is read and dropped
                    await self._to_page(kind, payload)
        except (asyncio.IncompleteReadError, ConnectionResetError, asyncio.CancelledError):
            pass
        finally:
            if self._resizing is not None:
                self._resizing.cancel()
            await asyncio.wait([said], timeout=STDERR_WAIT_S)  # the process is ending
            text = said.result() if said.done() and not said.cancelled() else b""
            said.cancel()
            said_text = text.decode("utf-8", "replace").strip()
            if said_text:
                print(escaped(said_text, STDERR_KEPT), file=sys.stderr, flush=True)
                last = said_text.splitlines()[-1]
                with contextlib.suppress(Exception):  # the page may be gone already
                    await self.remote_write_str(json.dumps(["ended", escaped(last, ENDED_KEPT)]))
            await self.remote_close()
