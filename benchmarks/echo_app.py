"""The yardstick for latency.py: the smallest Textual app that shows each key.

    python benchmarks/echo_app.py

It draws one line, "echo ready", then "echo #N: KEY" for every key press, so
every key makes a visible change. Ctrl+Q quits.
"""

from __future__ import annotations

from textual import events
from textual.app import App, ComposeResult
from textual.widgets import Static

READY = "echo ready"


class EchoApp(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def compose(self) -> ComposeResult:
        yield Static(READY, id="echo")

    def on_key(self, event: events.Key) -> None:
        self.count += 1
        self.query_one("#echo", Static).update(f"echo #{self.count}: {event.key}")


def main() -> None:
    EchoApp().run()


if __name__ == "__main__":
    main()
