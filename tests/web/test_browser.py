"""Issue 14 item 6 in a real browser: `spit-tui serve` and Debian's headless
Chromium, driven over the DevTools protocol (testkit/browser.py). The page loads
nothing from outside 127.0.0.1, the board shows, keys from both halves of the
keyboard play cards, and each key's key-to-screen time is recorded (the
figures with more keys: benchmarks/browser_latency.py). About 3 s."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from testkit.browser import Browser, Page, Served, chromium, open_game, outside

pytestmark = pytest.mark.skipif(
    chromium() is None,
    reason="needs Debian's chromium (apt-get install chromium; .ci/run installs it)",
)

# Left "q" plays 7♥ on pile a's 8♠; right "k" plays 2♣ on pile b's A♣.
POSITION = "play 1 two - 9c:7h/:Ks/2d3d:5c/-/:Jd 4h6h 8s/Ac :9h/4s:Qd/:2c/:6d/:Tc 5d5s 0,0"


def full_position() -> str:
    from spit_tui.engine import complete_position, format_position, parse_position

    return format_position(complete_position(parse_position(POSITION, check=False)))


def decisions(log: Path, count: int, timeout: float = 5) -> list[dict[str, object]]:
    end = time.monotonic() + timeout
    found: list[dict[str, object]] = []
    while time.monotonic() < end:
        if log.exists():
            found = [json.loads(line) for line in log.read_text().splitlines() if line]
            if len(found) >= count:
                return found
        time.sleep(0.05)
    raise AssertionError(f"{count} decisions expected, the log has {found}")


@pytest.fixture
def browser(tmp_path: Path) -> object:
    exe = chromium()
    assert exe is not None
    b = Browser(exe, tmp_path / "profile")
    yield b
    b.close()


async def test_two_players_play_at_one_browser_keyboard(
    browser: Browser, tmp_path: Path, record_property: object
) -> None:
    log = tmp_path / "decisions.jsonl"
    served = Served(["--position", full_position(), "--decision-log", str(log)])
    try:
        async with browser.page() as page:
            # the board is painted in parts: wait for all of it at once
            await open_game(page, served.url, ("LEFT", "RIGHT", "pile a", "pile b", "7♥", "8♠",
                                               "A♣", "2♣"))
            time.sleep(0.3)  # past the guard against keys pressed before the board showed
            times = {"q": (await page.timed_press("q")).screen_ms}
            await page.wait_for_text("LEFT 7♥ → a")
            times["k"] = (await page.timed_press("k")).screen_ms
            await page.wait_for_text("RIGHT 2♣ → b")
            got = [(d["player"], d["key"], d["action"], d["outcome"]) for d in decisions(log, 2)]
            assert got == [("left", "q", "L1a", "applied"), ("right", "k", "R3b", "applied")]
            png = await page.screenshot(tmp_path / "board.png")
            assert png.startswith(b"\x89PNG") and len(png) > 20_000  # a drawn board, not blank
            assert page.console == []
            _only_this_machine(page, served.url)
    finally:
        output = served.close()
    assert "Traceback" not in output, output
    print(f"key-to-screen in the browser: {times} ms")
    record_property("key_to_screen_ms", times)  # type: ignore[operator]


async def test_a_player_joins_a_host_from_the_browser(browser: Browser) -> None:
    """`serve -- join HOST CODE`: the page takes a seat at a game that a host
    runs, and shows that table (the other seat still empty)."""
    host = Served.host()
    try:
        address, code = host.url.split()
        served = Served(["join", address, code])
        try:
            async with browser.page() as page:
                await page.send("Page.navigate", url=served.url)
                await page.wait_for_text(("Waiting for RIGHT", "LEFT ping", "pile a"), timeout=20)
                _only_this_machine(page, served.url)
        finally:
            output = served.close()
        assert "Traceback" not in output, output
    finally:
        host.close()


def _only_this_machine(page: Page, url: str) -> None:
    assert outside(page.requests) == [], page.requests
    paths = {u.removeprefix(url).split("?")[0] for u in page.requests}
    assert {"/", "/static/js/textual.js", "/static/css/xterm.css"} <= paths, page.requests
    assert any(u.startswith(url.replace("http:", "ws:") + "/ws") for u in page.requests)


async def test_the_request_check_sees_a_page_that_reaches_outside(browser: Browser) -> None:
    """The check above can fail: textual-serve's own page (which asks for a
    font from the internet) is caught by it."""
    from importlib.resources import files

    stock = files("textual_serve").joinpath("templates/app_index.html").read_text()
    async with browser.page() as page:
        frame = (await page.send("Page.getFrameTree"))["frameTree"]["frame"]["id"]
        await page.send("Page.setDocumentContent", frameId=frame, html=stock)
        end = time.monotonic() + 5
        while not outside(page.requests) and time.monotonic() < end:
            await page.js("1")
        assert any("fonts.googleapis.com" in u for u in outside(page.requests)), page.requests
