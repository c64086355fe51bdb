"""Writing only the cells that changed to the terminal, and only the style
changes between them.

A key press changes a few runs of cells on the board (a card, a count, a
frame; `views.LinesView` marks just those runs dirty). Textual 8.2.8's partial
update (`ChopsUpdate.render_segments`) writes each dirty run from the left
edge of the widget under it, so a card changed at column 60 rewrote columns
10-60 as well, and it writes every segment as a full SGR sequence, its text
and a reset: on the board, where every cell has the same background, three
quarters of a key's bytes were SGR sequences. The screens that show a board
use this compositor, whose partial update starts each run at its own first
cell and writes a style only where it differs from the one before, and then
only what differs (`sgr_change`). The terminal parses every byte before it
can show the key, and the same bytes go over SSH and to the browser.
The cells and their colours are the same (tests/app/test_repaint.py feeds both
to a terminal emulator, and compares a real terminal after many keys with a
full redraw)."""

from __future__ import annotations

from collections.abc import Iterable

from rich.color import ColorSystem
from rich.console import Console
from rich.control import Control
from rich.segment import Segment
from textual._compositor import ChopsUpdate, Compositor
from textual.geometry import Region
from textual.strip import Strip

from spit_tui.app.views import WIDTHS, cells_of

RESET = "\x1b[0m"


class CellsUpdate(ChopsUpdate):
    """A partial update that writes each dirty run's own cells, and each
    style as a change from the one before."""

    def render_segments(self, console: Console) -> str:
        out: list[str] = []
        color_system = console._color_system or ColorSystem.TRUECOLOR
        chops = self.chops
        chop_ends = self.chop_ends
        spans = self.spans
        state: str | None = None  # the terminal's SGR codes now (None: not known)
        i, n = 0, len(spans)
        while i < n:  # one line at a time: its runs, each chop's segments walked once
            y = spans[i][0]
            runs = []
            while i < n and spans[i][0] == y:
                runs.append((spans[i][1], spans[i][2]))
                i += 1
            for end, (x, strip) in zip(chop_ends[y], chops[y].items(), strict=False):
                if strip is None:
                    continue
                parts = [(max(a, x) - x, min(b, end) - x) for a, b in runs if a < end and b > x]
                if parts:
                    state = _write(strip, parts, x, y, color_system, state, out)
        if state:
            out.append(RESET)  # as Textual leaves the terminal after every segment
        return "".join(out)


def _write(
    strip: Strip,
    parts: list[tuple[int, int]],
    x0: int,
    y: int,
    color_system: ColorSystem,
    state: str | None,
    out: list[str],
) -> str | None:
    """Append `strip`'s cells in each of `parts` (ordered, disjoint runs [a, b)
    of cells, relative to the strip, which starts at column `x0` of line `y`)
    to `out`: a cursor move before each run, then its text, with a style change
    where a style differs from the terminal's (`state`, as `sgr_change` takes
    it). Returns the terminal's SGR state after them. The cells written are
    those of `strip.crop(a, b)` for each run; the strip is walked once."""
    append = out.append
    move_to = Control.move_to
    render_ansi = Strip.render_ansi
    known = WIDTHS.get
    k, last = 0, len(parts) - 1
    a, b = parts[0]
    moved = False
    x = 0
    for text, style, _ in strip:
        end = x + (known(text) or cells_of(text))
        while b <= x:  # runs that ended before this segment
            if k == last:
                return state
            k += 1
            a, b = parts[k]
            moved = False
        while end > a:  # the segment has cells in the run [a, b)
            lo = a if a > x else x
            hi = b if b < end else end
            if not moved:
                append(move_to(x0 + lo, y).segment.text)
                moved = True
            piece = text
            if lo > x or hi < end:  # cut at the run's edges (as Strip.crop cuts)
                cut = Segment(text, style)
                if lo > x:
                    cut = cut.split_cells(lo - x)[1]
                if hi < end:
                    cut = cut.split_cells(hi - lo)[0]
                piece = cut.text
            if piece:
                if style is None:
                    codes = ""
                elif style._link:  # a link: written as Textual writes it, from a reset
                    if state:
                        append(RESET)
                    append(Strip.render_style(style, piece, color_system))
                    state = ""
                    codes = None
                else:
                    codes = style._ansi  # (Textual's cache of a style's codes)
                    if codes is None:
                        codes = render_ansi(style, color_system)
                if codes is not None:
                    if codes != state:
                        append(sgr_change(state, codes))
                        state = codes
                    append(piece)
            if end < b:
                break  # the run goes on into the next segment
            if k == last:
                return state
            k += 1  # the next run, perhaps still in this segment
            a, b = parts[k]
            moved = False
        x = end
    return state


# -- SGR changes --------------------------------------------------------------------

# The code that turns off each attribute code Textual writes (strip.SGR_STYLES):
# 22 turns off both bold and faint, 25 both blinks, 24 both underlines.
_OFF = {"1": "22", "2": "22", "3": "23", "4": "24", "5": "25", "6": "25", "7": "27"}
_OFF |= {"8": "28", "9": "29", "21": "24", "53": "55"}
_changes: dict[tuple[str | None, str], str] = {}


def sgr_change(old: str | None, new: str) -> str:
    """The shortest SGR sequence that takes a terminal whose SGR state was set
    by the codes `old` (`Strip.render_ansi`'s; "" reset; None: not known) to
    the state `new` sets after a reset: a full reset and `new`, or only the
    attributes turned on or off and the colours that differ. Cached: a board
    has a few dozen styles."""
    got = _changes.get((old, new))
    if got is None:
        got = _sgr_change(old, new)
        if len(_changes) > 4096:
            _changes.clear()
        _changes[(old, new)] = got
    return got


def _sgr_change(old: str | None, new: str) -> str:
    if old == new:
        return ""
    full = f"\x1b[0;{new}m" if new else RESET
    if old is None or not new:
        return full
    if not old:
        return f"\x1b[{new}m"
    attrs0, fg0, bg0 = _split(old)
    attrs1, fg1, bg1 = _split(new)
    gone = [c for c in attrs0 if c not in attrs1]
    if any(c not in _OFF for c in gone):
        return full
    offs = list(dict.fromkeys(_OFF[c] for c in gone))
    codes = offs + [c for c in attrs1 if c not in attrs0 or _OFF.get(c) in offs]
    if fg1 != fg0:
        codes.append(fg1 or "39")
    if bg1 != bg0:
        codes.append(bg1 or "49")
    change = f"\x1b[{';'.join(codes)}m" if codes else ""
    return change if len(change) < len(full) else full


def _split(codes: str) -> tuple[list[str], str | None, str | None]:
    """SGR codes as (attribute codes, foreground, background)."""
    attrs: list[str] = []
    fg = bg = None
    toks = codes.split(";")
    i = 0
    while i < len(toks):
        tok = toks[i]
        if tok in ("38", "48"):
            size = 3 if toks[i + 1] == "5" else 5  # 38;5;N or 38;2;R;G;B
            colour = ";".join(toks[i : i + size])
            i += size
            if tok == "38":
                fg = colour
            else:
                bg = colour
            continue
        v = int(tok)
        if 30 <= v <= 39 or 90 <= v <= 97:
            fg = tok
        elif 40 <= v <= 49 or 100 <= v <= 107:
            bg = tok
        else:
            attrs.append(tok)
        i += 1
    return attrs, fg, bg


class CellsCompositor(Compositor):
    """Textual's compositor, with `CellsUpdate` for its partial updates, and
    each widget asked only for its lines in the rows an update touches."""

    def render_partial_update(self) -> ChopsUpdate | None:
        update = super().render_partial_update()
        if update is None:
            return None
        return CellsUpdate(update.chops, update.spans, update.chop_ends)

    def _get_renders(
        self, crop: Region | None = None
    ) -> Iterable[tuple[Region, Region, list[Strip]]]:
        """Textual 8.2.8 asks every widget that meets `crop` for all its lines:
        a key that changed a few board rows had the screen (its background,
        30 lines and more) and the whole board filtered and cut at every frame.
        Here a widget is asked for the rows of `crop` only, with each row as
        wide as before (the compositor cuts rows at widgets' edges, never at
        the crop's); a full redraw asks for every row, as Textual does."""
        if crop is None or crop.height >= self.size.height:
            yield from super()._get_renders(crop)
            return
        top, bottom = crop.y, crop.bottom
        overlaps = crop.overlaps
        for widget, (region, clip) in self.visible_widgets.items():
            if not overlaps(clip):
                continue
            x, y, width, height = region.intersection(clip)
            y0 = max(y, top)
            y1 = min(y + height, bottom)
            if width and y1 > y0:  # the rows of the widget's visible part in the crop
                rows = Region(region.x, y0, region.width, y1 - y0)
                lines = Region(x - region.x, y0 - region.y, width, y1 - y0)
                yield rows, clip, widget.render_lines(lines)
