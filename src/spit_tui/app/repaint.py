"""Writing only the cells that changed to the terminal.

A key press changes a few runs of cells on the board (a card, a count, a
frame; `views.LinesView` marks just those runs dirty). Textual 8.2.8's partial
update (`ChopsUpdate.render_segments`) writes each dirty run from the left
edge of the widget under it, so a card changed at column 60 rewrote columns
10-60 as well: about 3.8 KB a key instead of a few hundred bytes, all of it
encoded by us and parsed by the terminal. The screens that show a board use
this compositor, whose partial update starts each run at its own first cell.
The bytes on the terminal's cells are the same (tests/app/test_repaint.py
compares the screen after many keys with a full redraw, in a real terminal)."""

from __future__ import annotations

from rich.cells import cell_len
from rich.color import ColorSystem
from rich.console import Console
from rich.control import Control
from rich.segment import Segment
from textual._compositor import ChopsUpdate, Compositor
from textual.strip import Strip


class CellsUpdate(ChopsUpdate):
    """A partial update that writes each dirty run's own cells only."""

    def render_segments(self, console: Console) -> str:
        out: list[str] = []
        append = out.append
        move_to = Control.move_to
        chops = self.chops
        chop_ends = self.chop_ends
        last_y = self.spans[-1][0]
        color_system = console._color_system or ColorSystem.TRUECOLOR
        for y, x1, x2 in self.spans:
            for end, (x, strip) in zip(chop_ends[y], chops[y].items(), strict=False):
                if strip is None or x >= x2 or end <= x1:
                    continue
                if x >= x1 and end <= x2:  # the whole chop (its text is cached)
                    append(move_to(x, y).segment.text)
                    append(strip.render(console))
                else:  # the chop's cells inside the run
                    start = max(x, x1)
                    append(move_to(start, y).segment.text)
                    append(_cells(strip, start - x, min(end, x2) - x, color_system))
            if y != last_y:
                append("\n")
        return "".join(out)


def _cells(strip: Strip, x1: int, x2: int, color_system: ColorSystem) -> str:
    """The terminal text of `strip`'s cells [x1, x2): what `strip.crop(x1,
    x2).render(...)` writes, without making the cropped strip (a strip is
    about 16 objects, and this runs for every changed run of every key)."""
    render = Strip.render_style
    out = []
    x = 0
    for segment in strip:
        text, style, _ = segment
        width = cell_len(text)
        end = x + width
        if end <= x1:
            x = end
            continue
        if x >= x2:
            break
        if x < x1 or end > x2:  # cut at the run's edges (as Strip.crop cuts)
            if x < x1:
                text = Segment(text, style).split_cells(x1 - x)[1].text
                x = x1
            if end > x2:
                text = Segment(text, style).split_cells(x2 - x)[0].text
        out.append(text if style is None else render(style, text, color_system))
        x = end
    return "".join(out)


class CellsCompositor(Compositor):
    """Textual's compositor, with `CellsUpdate` for its partial updates."""

    def render_partial_update(self) -> ChopsUpdate | None:
        update = super().render_partial_update()
        if update is None:
            return None
        return CellsUpdate(update.chops, update.spans, update.chop_ends)
