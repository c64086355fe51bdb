"""The lobby's pages of lines ("My stats", the day's daily table): read on a
worker thread, shown, and Esc comes back (Pilot, real keys)."""

from __future__ import annotations

import threading

from textual.app import App

from spit_tui.app.linesscreen import LinesScreen


class Host(App[None]):
    def __init__(self, page: LinesScreen[None]) -> None:
        super().__init__()
        self.page = page
        self.back = False

    def on_mount(self) -> None:
        self.push_screen(self.page, lambda _: setattr(self, "back", True))


async def test_a_page_reads_off_the_ui_thread_and_esc_comes_back() -> None:
    threads: list[threading.Thread] = []

    def load() -> list[str]:
        threads.append(threading.current_thread())
        return ["ann: 3 games, 2 won (67%)", "rating 1512 ±120 (Quick Hands)"]

    page: LinesScreen[None] = LinesScreen("My stats", load)
    app = Host(page)
    async with app.run_test() as pilot:
        for _ in range(50):
            await pilot.pause(0.02)
            if page.lines is not None:
                break
        assert page.lines == load()[:2] and threads[0] is not threading.main_thread()
        shown = str(page.query_one("#page-lines").render())
        assert "rating 1512" in shown
        await pilot.press("escape")
        assert app.back


async def test_a_page_whose_reading_fails_says_so_in_one_line() -> None:
    def load() -> list[str]:
        raise RuntimeError("boom")

    page: LinesScreen[None] = LinesScreen("Today's daily deals", load)
    async with Host(page).run_test() as pilot:
        for _ in range(50):
            await pilot.pause(0.02)
            if page.lines is not None:
                break
        assert page.lines == ["could not read the history (RuntimeError)"]
