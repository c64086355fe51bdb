"""The base of every view of a Table: a widget that keeps no game state, only
the last "state key" it drew, and repaints when that key changes."""

from __future__ import annotations

from functools import lru_cache

from rich.console import Console
from rich.style import Style
from rich.text import Text
from textual.geometry import Region, Size
from textual.strip import Strip
from textual.widget import Widget

from spit_tui.engine import Player
from spit_tui.table import Table

DIM = Style(dim=True)
NAME_STYLE = Style(bold=True)


def player_name(p: Player) -> str:
    return p.label.upper()


def clock_text(seconds: float) -> str:
    s = int(seconds)
    return f"{s // 60}:{s % 60:02d}"


class TableView(Widget):
    """A widget drawn from a Table; `sync()` repaints it only if its state changed."""

    DEFAULT_CSS = "TableView { height: auto; }"

    def __init__(self, table: Table, *, id: str | None = None, classes: str | None = None):
        super().__init__(id=id, classes=classes)
        self.table = table
        self._state: object = None

    def state(self) -> object:
        raise NotImplementedError

    def sync(self) -> None:
        s = self.state()
        if s != self._state:
            self._state = s
            self.changed()

    def changed(self) -> None:
        self.refresh()

    def set_table(self, table: Table) -> None:
        self.table = table
        self._state = None
        self.sync()


class LinesView(TableView):
    """A TableView drawn line by line from cached strips (Textual's line API).

    Turning Rich text into strips once per change, and handing the compositor
    ready strips, keeps a key press to well under a millisecond of drawing.
    """

    def __init__(self, table: Table, *, id: str | None = None, classes: str | None = None):
        super().__init__(table, id=id, classes=classes)
        self._strips: list[Strip] | None = None
        self._strips_width = -1

    def lines(self) -> list[Text | Strip]:
        raise NotImplementedError

    def changed(self) -> None:
        """Repaint only the lines that differ from what is on screen."""
        old = self._strips
        self._strips = None
        width = self.size.width
        if old is None or width <= 0 or not self.is_mounted:
            self.refresh()
            return
        new = self._get_strips(width)
        if len(new) != len(old):
            self.refresh(layout=True)
            return
        pairs = enumerate(zip(old, new, strict=True))
        dirty = [Region(0, y, width, 1) for y, (a, b) in pairs if a != b]
        if dirty:
            self.refresh(*dirty)

    def render(self) -> Text:  # the plain text, for tools and tests
        return Text("\n".join(s.text for s in self._get_strips(self.size.width or 80)))

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self.lines())

    def _get_strips(self, width: int) -> list[Strip]:
        if self._strips is None or self._strips_width != width:
            base = self.rich_style
            strips = []
            for line in self.lines():
                strip = line if isinstance(line, Strip) else to_strip(line)
                strips.append(strip.adjust_cell_length(width).apply_style(base))
            self._strips = strips
            self._strips_width = width
        return self._strips

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        strips = self._get_strips(width)
        if y < len(strips):
            return strips[y]
        return Strip.blank(width, self.rich_style)


@lru_cache(maxsize=1)
def text_console() -> Console:
    """A console only for turning text into segments (styles, widths)."""
    return Console(width=200, color_system="truecolor", legacy_windows=False)


def to_strip(text: Text) -> Strip:
    text.end = ""
    return Strip(list(text.render(text_console())), text.cell_len)
