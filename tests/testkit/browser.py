"""A real browser for the browser tests and benchmarks/browser_latency.py:
Debian's headless Chromium, driven over the DevTools protocol (aiohttp's
websocket client, which textual-serve brings), and `spit-tui serve` beside it.

What the page is watched with (HOOK, added before any of the page's scripts):
- every request the page makes (the Network domain): its URLs;
- the board as the browser holds it: textual.js keeps its xterm.js terminal in
  a field named `terminal`, so a setter of that name on Object.prototype sees
  it being stored and keeps a reference (`__spit.term`); the screen's text is
  read from xterm's own buffer, which is what its renderer draws;
- when a key goes in and when the screen it changes is drawn: a keydown
  listener (capture phase, before xterm's) takes the time of each key, and
  xterm's onRender event the time the changed rows were painted (same clock:
  the page's performance.now()).

Everything is bounded: each wait has a timeout, and the processes started
here are ended (by their own ids) in `close`.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import urlsplit

import aiohttp

from testkit.tmux import shows

FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--mute-audio",
    "--remote-debugging-address=127.0.0.1",
    "--remote-debugging-port=0",
)
WINDOW = (1100, 700)

HOOK = """
(() => {
  const spit = (window.__spit = { term: null, keys: [], before: null, drawn: null });
  Object.defineProperty(Object.prototype, "terminal", {
    configurable: true,
    get() { return undefined; },
    set(value) {
      Object.defineProperty(this, "terminal", {
        value, writable: true, configurable: true, enumerable: true,
      });
      if (spit.term === null && value && typeof value.onRender === "function") {
        spit.term = value;
        value.onRender(() => {
          const waiting = spit.before !== null && spit.drawn === null;
          if (waiting && spit.screen(spit.from) !== spit.before) {
            spit.drawn = performance.now();
          }
        });
      }
    },
  });
  spit.screen = (from = 0) => {
    const term = spit.term;
    if (term === null) return "";
    const buf = term.buffer.active;
    const rows = [];
    for (let y = from; y < term.rows; y++) {
      const line = buf.getLine(buf.viewportY + y);
      rows.push(line ? line.translateToString(true) : "");
    }
    return rows.join("\\n");
  };
  // rows above `from` are left out (the game's header clock changes by itself)
  spit.arm = (from) => { spit.from = from; spit.before = spit.screen(from); spit.drawn = null; };
  window.addEventListener("keydown", (e) => spit.keys.push(performance.now()), true);
  // when the server's bytes arrive (before xterm.js parses and paints them)
  spit.arrivals = [];
  const PageSocket = window.WebSocket;
  window.WebSocket = class extends PageSocket {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", () => spit.arrivals.push(performance.now()));
    }
  };
  spit.timing = () => {
    if (spit.drawn === null) return null;
    const key = spit.keys[spit.keys.length - 1];
    const first = spit.arrivals.find((t) => t >= key);
    return [spit.drawn - key, first === undefined ? null : first - key];
  };
})();
"""

# key -> (code, Windows virtual key code) as a US keyboard sends them
KEYS = {
    **{c: (f"Key{c.upper()}", ord(c.upper())) for c in "abcdefghijklmnopqrstuvwxyz"},
    **{d: (f"Digit{d}", ord(d)) for d in "0123456789"},
    ";": ("Semicolon", 186),
    ",": ("Comma", 188),
    ".": ("Period", 190),
    "/": ("Slash", 191),
    "?": ("Slash", 191),  # with Shift
    "Enter": ("Enter", 13),
    "Escape": ("Escape", 27),
    "Backspace": ("Backspace", 8),
}
TEXT = {"Enter": "\r", "Escape": "", "Backspace": ""}  # what a key types, where not its name
SHIFTED = frozenset("?")


def chromium() -> str | None:
    """The Chromium to drive, or None (the browser tests then skip, saying so)."""
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path is not None:
            return path
    return None


def _wait(what: str, timeout: float, ready: Any) -> Any:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = ready()
        if value:
            return value
        time.sleep(0.05)
    raise TimeoutError(f"{what} within {timeout} s")


def _stop(proc: subprocess.Popen[bytes], sig: int = signal.SIGTERM) -> None:
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            proc.send_signal(sig)
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)


class Served:
    """`spit-tui serve --port 0 -- ARGS` in a process of its own (`url`: the
    address it printed); `Served.host()`: `spit-tui host --port 0` instead
    (`url`: "ADDRESS CODE", as join takes them)."""

    def __init__(
        self, game: list[str], env: dict[str, str] | None = None, command: list[str] | None = None
    ) -> None:
        argv = command or [sys.executable, "-m", "spit_tui", "serve", "--port", "0", "--", *game]
        self.proc = subprocess.Popen(
            argv,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            env=env,
            start_new_session=True,  # its games are its children: stopped with it
        )
        assert self.proc.stdout is not None
        os.set_blocking(self.proc.stdout.fileno(), False)
        self.output = b""
        self.url: str = _wait(f"{shlex.join(argv)[-60:]} printing its address", 20, self._address)

    def _address(self) -> str | None:
        assert self.proc.stdout is not None
        chunk = self.proc.stdout.read()
        if chunk:
            self.output += chunk
        if self.proc.poll() is not None and not chunk:
            raise RuntimeError(f"spit-tui serve ended: {self.output.decode(errors='replace')}")
        text = self.output.decode(errors="replace")
        for word in text.split():
            if word.startswith("http://127.0.0.1:"):
                return word
        for line in text.splitlines():  # spit-tui host: "join with: spit-tui join ADDR CODE"
            if line.startswith("join with:"):
                return " ".join(line.split()[-2:])
        return None

    @classmethod
    def host(cls) -> Served:
        return cls([], command=[sys.executable, "-m", "spit_tui", "host", "--port", "0"])

    def close(self) -> str:
        """Stop the server (as Ctrl+C would); what it printed."""
        _stop(self.proc, signal.SIGINT)
        assert self.proc.stdout is not None
        with contextlib.suppress(Exception):
            self.output += self.proc.stdout.read() or b""
        return self.output.decode(errors="replace")


class Timing(NamedTuple):
    """One key, in ms from its keydown: to the paint that changed the screen,
    and to the first bytes from the server after it (None: none came)."""

    screen_ms: float
    bytes_ms: float | None


@dataclass
class Page:
    """One tab, over its DevTools websocket."""

    ws: aiohttp.ClientWebSocketResponse
    requests: list[str] = field(default_factory=list)
    console: list[str] = field(default_factory=list)
    _next: int = 0
    _pending: dict[int, asyncio.Future[dict[str, Any]]] = field(default_factory=dict)
    _reader: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for msg in self.ws:
            if msg.type != aiohttp.WSMsgType.TEXT:
                continue
            data = json.loads(msg.data)
            if "id" in data:
                fut = self._pending.pop(data["id"], None)
                if fut is not None and not fut.done():
                    fut.set_result(data)
                continue
            method, params = data.get("method"), data.get("params", {})
            if method == "Network.requestWillBeSent":
                self.requests.append(params["request"]["url"])
            elif method == "Network.webSocketCreated":
                self.requests.append(params["url"])
            elif method == "Runtime.exceptionThrown":
                self.console.append(json.dumps(params["exceptionDetails"])[:500])

    async def send(self, method: str, timeout: float = 10, **params: Any) -> dict[str, Any]:
        self._next += 1
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[self._next] = fut
        await self.ws.send_str(json.dumps({"id": self._next, "method": method, "params": params}))
        reply = await asyncio.wait_for(fut, timeout)
        if "error" in reply:
            raise RuntimeError(f"{method}: {reply['error']}")
        result: dict[str, Any] = reply.get("result", {})
        return result

    async def js(self, expression: str) -> Any:
        r = await self.send("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in r:
            raise RuntimeError(f"{expression}: {r['exceptionDetails']}")
        return r["result"].get("value")

    async def screen(self) -> str:
        text: str = await self.js("window.__spit ? window.__spit.screen() : ''")
        return text

    async def wait_for_text(
        self, text: str | tuple[str, ...] | Callable[[str], bool], timeout: float = 15
    ) -> str:
        """The screen once it shows `text` (a tuple: all of them at once, as a
        screen may be read half painted), or `text(screen)` holds."""
        ok = shows(text)
        end = time.monotonic() + timeout
        shown = ""
        while time.monotonic() < end:
            shown = await self.screen()
            if ok(shown):
                return shown
            await asyncio.sleep(0.05)
        raise AssertionError(f"{text!r} never showed in the browser:\n{shown}")

    async def press(self, key: str) -> None:
        """A key as a US keyboard sends it: down (with its text), then up."""
        code, vk = KEYS[key]
        common = {"key": key, "code": code, "windowsVirtualKeyCode": vk,
                  "modifiers": 8 if key in SHIFTED else 0}
        text = TEXT.get(key, key)
        down = {"type": "keyDown", "text": text} if text else {"type": "rawKeyDown"}
        await self.send("Input.dispatchKeyEvent", **down, **common)
        await self.send("Input.dispatchKeyEvent", type="keyUp", **common)

    async def type(self, text: str) -> None:
        for key in text:
            await self.press(key)

    async def timed_press(self, key: str, timeout: float = 5, skip_rows: int = 1) -> Timing:
        """Press `key`; how long from its keydown until the screen changed below
        its first `skip_rows` rows (1: the game's header, whose clock changes by
        itself), and until the first bytes after it came."""
        await self.js(f"window.__spit.arm({int(skip_rows)})")
        await self.press(key)
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            got = await self.js("window.__spit.timing()")
            if got is not None:
                return Timing(float(got[0]), None if got[1] is None else float(got[1]))
            await asyncio.sleep(0.01)
        raise AssertionError(f"the screen did not change within {timeout} s of {key!r}")

    async def screenshot(self, path: Path) -> bytes:
        r = await self.send("Page.captureScreenshot", format="png")
        data = base64.b64decode(r["data"])
        path.write_bytes(data)
        return data

    async def close(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader
        await self.ws.close()


class Browser:
    """Headless Chromium with a fresh profile, its DevTools on 127.0.0.1."""

    def __init__(self, exe: str, profile: Path) -> None:
        w, h = WINDOW
        self.proc = subprocess.Popen(
            [exe, *FLAGS, f"--user-data-dir={profile}", f"--window-size={w},{h}", "about:blank"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        port_file = profile / "DevToolsActivePort"
        text = _wait("Chromium's DevTools port", 20, lambda: self._read(port_file))
        self.devtools = f"http://127.0.0.1:{text.split()[0]}"

    def _read(self, path: Path) -> str | None:
        if self.proc.poll() is not None:
            raise RuntimeError(f"Chromium ended at start (exit {self.proc.returncode})")
        try:
            text = path.read_text()
        except OSError:
            return None
        return text if len(text.split()) >= 2 else None

    @contextlib.asynccontextmanager
    async def page(self) -> AsyncIterator[Page]:
        """A new tab at about:blank, watched with HOOK and the Network domain."""
        async with aiohttp.ClientSession() as http:
            async with http.put(f"{self.devtools}/json/new?about:blank") as r:
                target = await r.json()
            ws = await http.ws_connect(target["webSocketDebuggerUrl"], max_msg_size=0)
            page = Page(ws)
            page.start()
            try:
                await page.send("Page.enable")
                await page.send("Runtime.enable")
                await page.send("Network.enable")
                await page.send("Page.addScriptToEvaluateOnNewDocument", source=HOOK)
                yield page
            finally:
                await page.close()

    def close(self) -> None:
        _stop(self.proc)


async def open_game(page: Page, url: str, ready: str | tuple[str, ...] = "pile a") -> str:
    """Load the served page, wait for `ready` to show (a tuple: all of it at
    once), give the board the keys."""
    await page.send("Page.navigate", url=url)
    shown = await page.wait_for_text(ready, timeout=20)
    await page.js("window.__spit.term.focus()")
    return shown


def outside(urls: list[str]) -> list[str]:
    """The URLs of these that go anywhere but this machine's 127.0.0.1 (data:,
    about: and blob: URLs go nowhere)."""
    local = ("data", "about", "blob")
    parts = [(u, urlsplit(u)) for u in urls]
    return [u for u, p in parts if p.scheme not in local and p.hostname != "127.0.0.1"]
