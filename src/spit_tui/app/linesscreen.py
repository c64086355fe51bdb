"""A lobby page of lines read from the history ("My stats", the day's daily
table): read on a worker thread (a history of thousands of games takes a
moment; the lobby never waits for it), shown with Esc, Enter or q to come
back to the menu."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar, Generic, TypeVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

Result = TypeVar("Result")


class LinesScreen(ModalScreen[Result | None], Generic[Result]):
    """A title and the lines `load` gives (called on a worker thread), in a
    box over what was there; it dismisses with None (a lobby entry's page:
    back to the menu). `classes`: the lobby's own box look."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "back"),
        Binding("enter", "back", "back", show=False),
        Binding("q", "back", "back", show=False),
    ]
    DEFAULT_CSS = """
    LinesScreen { align: center middle; }
    LinesScreen > Vertical { width: auto; max-width: 100%; height: auto; border: round $accent;
                             padding: 1 2; background: $surface; }
    LinesScreen .title { text-style: bold; margin-bottom: 1; }
    """

    def __init__(
        self, title: str, load: Callable[[], list[str]], classes: str | None = None
    ) -> None:
        super().__init__(classes=classes)
        self.heading = title
        self.load = load
        self.lines: list[str] | None = None  # once read

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.heading, classes="title", markup=False)
            yield Static("reading the history…", id="page-lines", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self._read()

    @work(thread=True, exit_on_error=False)
    def _read(self) -> None:
        try:
            lines = self.load()
        except Exception as e:  # a bug: say it in one line, the lobby goes on
            lines = [f"could not read the history ({type(e).__name__})"]
        self.app.call_from_thread(self._show, lines)

    def _show(self, lines: list[str]) -> None:
        self.lines = lines
        self.query_one("#page-lines", Static).update("\n".join(lines))

    def action_back(self) -> None:
        self.dismiss(None)
