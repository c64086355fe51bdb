"""The base of every view of a game: a widget that draws a `Scene` (spit_tui.scene)
and nothing else. Its screen hands it the latest Scene (`show`); it keeps only
that and the last "state key" it drew, and repaints when that key changes."""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from rich.cells import cell_len
from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.color import Color
from textual.geometry import Region, Size
from textual.messages import Update
from textual.strip import Strip
from textual.widget import Widget

from spit_tui.engine import Player
from spit_tui.look import DEFAULT_PALETTE
from spit_tui.names import YOU
from spit_tui.scene import Scene

DIM = Style(dim=True)
NAME_STYLE = Style(bold=True)
# Each player's colour, for their name, their keys and the cards they put on a
# pile: sky blue and orange (Okabe-Ito), a pair that colour-blind players tell
# apart. Everything is drawn in this pair; another palette (spit_tui/look.py) or a
# light theme swaps it as the screen goes out (app/themes.py). The markers ◂
# for LEFT, ▸ for RIGHT say the same without colour (NO_COLOR, or any palette).
PLAYER_COLOURS = DEFAULT_PALETTE.dark
PLAYER_STYLES = tuple(Style(color=c, bold=True) for c in PLAYER_COLOURS)
MARKS = ("◂", "▸")


def player_name(p: Player, scene: Scene) -> str:
    """The name on the board: LEFT/RIGHT, or YOU/COMPUTER against the computer."""
    return scene.names[p]


# YOU (spit_tui.names): the human's name against the computer, spoken to in the second person


def subject(p: Player, scene: Scene) -> str:
    """The player as the subject of a sentence: "You" for YOU, else the name."""
    name = player_name(p, scene)
    return "You" if name == YOU else name


def verb(p: Player, scene: Scene, you: str, other: str) -> str:
    """The verb phrase that agrees with the player: `you` for YOU, else `other`."""
    return you if player_name(p, scene) == YOU else other


def says(p: Player, scene: Scene, you: str, other: str) -> str:
    """Subject and verb: `says(p, s, "win", "wins")` gives "You win" or "LEFT wins"."""
    return f"{subject(p, scene)} {verb(p, scene, you, other)}"


class SceneView(Widget):
    """A widget drawn from a Scene; `show()` repaints it only if its state changed."""

    DEFAULT_CSS = "SceneView { height: auto; }"

    def __init__(self, scene: Scene, *, id: str | None = None, classes: str | None = None):
        super().__init__(id=id, classes=classes)
        self.scene = scene
        self._state: object = None

    def state(self) -> object:
        raise NotImplementedError

    def show(self, scene: Scene) -> None:
        """Draw `scene` (only what changed since the last one)."""
        self.scene = scene
        s = self.state()
        if s != self._state:
            self._state = s
            self.changed()

    def changed(self) -> None:
        self.refresh()

    def redraw(self) -> None:
        """Draw the scene again from scratch (the key table changed: new labels)."""
        self._state = None
        self.show(self.scene)


class LinesView(SceneView):
    """A SceneView drawn line by line (Textual's line API).

    `lines()` gives each line as a tuple of segments. Only lines whose segments
    changed become new strips and are marked dirty, so a key press turns a few
    lines into strips and repaints only those.
    """

    def __init__(self, scene: Scene, *, id: str | None = None, classes: str | None = None):
        super().__init__(scene, id=id, classes=classes)
        self._segs: list[Line] = []
        self._strips: list[Strip] = []
        self._width = -1
        self._stale = True
        self._base: Style | None = None
        self._plain: tuple[bool, Color] | None = None  # (see `_drawn_as_is`)
        self._handed: dict[int, Strip] = {}  # the lines last handed to the compositor

    def notify_style_update(self) -> None:
        self._base = None
        self._plain = None
        self._width = -1  # repaint every line in the new style
        super().notify_style_update()

    def lines(self) -> list[Line]:
        """Each line's segments, with `self.base` (the widget's colours) applied."""
        raise NotImplementedError

    @property
    def base(self) -> Style:
        """The widget's own style (background), to bake into cached lines."""
        if self._base is None:
            self._base = self.rich_style
        return self._base

    def changed(self) -> None:
        """Repaint only the lines that differ from what is on screen."""
        self._stale = True
        width = self.size.width
        if not self._strips or width <= 0 or not self.is_mounted:
            self.refresh()
            return
        height = len(self._strips)
        dirty = self._update(width)
        if len(self._strips) != height:
            self.refresh(layout=True)
        elif dirty:
            self.repaint(dirty)

    def repaint(self, regions: list[Region]) -> None:
        """Have the screen repaint `regions` of this view (same size, same
        styles): what `refresh(*regions)` ends in, without its first hop (it
        asks this view's own message loop to go idle, which then tells the
        screen) and without dropping the size and style caches a repaint
        keeps. One message a key instead of three."""
        self._set_dirty(*regions)
        if self.display:
            self.screen.post_message(Update(self))

    def _update(self, width: int) -> list[Region]:
        """Bring the strips up to date; where the lines changed (only the runs of
        cells that differ, so a play repaints a card and a count, not the whole
        row between the first and the last change: fewer bytes to the terminal
        and less for the compositor to cut and encode)."""
        self._stale = False
        new = self.lines()
        old = self._segs
        if width != self._width:
            old = []
            self._width = width
        base = self.base
        strips = self._strips[: len(new)]
        dirty: dict[tuple[int, int, int], int] = {}  # (x0, x1, last line): first line
        known = min(len(old), len(strips))
        for y, segs in enumerate(new):
            if y < known:
                before = old[y]
                if before == segs:
                    continue
                spans, length = _diff(before, segs, width, SPAN_GAP)
            else:
                spans, length = [(0, width)], line_length(segs)
            strip = Strip(segs, length)
            if length != width:
                strip = strip.adjust_cell_length(width, base)
            if y < len(strips):
                strips[y] = strip
            else:
                strips.append(strip)
            for x0, x1 in spans:  # the same cells as a line up: one region, taller
                dirty[(x0, x1, y)] = dirty.pop((x0, x1, y - 1), y)
        self._segs = new
        self._strips = strips
        return [Region(x0, top, x1 - x0, y + 1 - top) for (x0, x1, y), top in dirty.items()]

    def _get_strips(self, width: int) -> list[Strip]:
        if self._stale or width != self._width:
            self._update(width)
        return self._strips

    def render(self) -> Text:  # the plain text, for tools and tests
        return Text("\n".join(s.text for s in self._get_strips(self.size.width or 80)))

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self.lines())

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        strips = self._get_strips(width)
        if y < len(strips):
            return strips[y]
        return Strip.blank(width, self.rich_style)

    def render_lines(self, crop: Region) -> list[Strip]:
        """The lines for the compositor. A view with no border, padding,
        outline, tint, hatch or opacity (the board) hands out its own lines
        with the app's filters applied: Textual's styles cache would copy every
        changed line into a new strip first (about 20 µs a line, eight lines a
        key), and measure the widget's colours again at every frame. Each line
        handed out before and now replaced is unlinked (`unlink`), so it is
        freed at once."""
        width = self.size.width
        plain, background = self._drawn_as_is()
        if plain:
            lines = self._get_strips(width)
            filters = self.get_line_filters()
            blank = None
            strips = []
            for y in crop.line_range:
                if y < len(lines):
                    strip = lines[y]
                else:
                    strip = blank = blank or Strip.blank(width, self.rich_style)
                for line_filter in filters:
                    strip = strip.apply_filter(line_filter, background)
                strips.append(strip)
            if crop.column_span != (0, width):
                strips = [strip.crop(crop.x, crop.right) for strip in strips]
        else:
            strips = super().render_lines(crop)
        self._dirty_regions.clear()  # (read only by Widget.render_line, not used here)
        if crop.x == 0 and crop.width == width:  # whole lines: the usual case
            handed = self._handed
            for y, strip in enumerate(strips, crop.y):
                old = handed.get(y)
                if old is not strip:
                    if old is not None:
                        unlink(old)
                    handed[y] = strip
        return strips

    def _drawn_as_is(self) -> tuple[bool, Color]:
        """Whether Textual's styles would leave this view's lines as they are,
        and the background its filters see; kept until the styles change."""
        if self._plain is None:
            styles = self.styles
            plain = (
                not any(styles.gutter)  # no border, no padding
                and not any(edge for edge, _ in styles.outline)
                and not styles.tint.a
                and styles.text_opacity == 1.0
                and self.opacity == 1.0
                and not (styles.has_rule("hatch") and styles.hatch != "none")
            )
            self._plain = plain, self.background_colors[1]
        return self._plain


def unlink(strip: Strip) -> None:
    """Break the reference cycle a drawn line keeps in Textual 8.2.8: the
    compositor divides each widget's line at the widget's edges, and a line cut
    only at its own end caches a list holding itself (`Strip.divide`). Such a
    line, with its segments and caches (about 100 objects), outlives its last
    use until Python's cycle collector runs: a board line changed on every key
    made that collector run on every key (about 0.13 ms each). Unlinked, the
    line is freed when the screen drops it. Clearing a cache is always safe:
    at worst Textual divides the line again."""
    cache = getattr(strip, "_divide_cache", None)
    if cache is not None:
        cache.clear()


Line = tuple[Segment, ...]

# Each text's width in cells, by text: the board's texts recur from key to key,
# and a dict lookup costs about a third of `cell_len` (which runs for every
# segment of every changed line, twice: ~300 times a key). Cleared when large.
WIDTHS: dict[str, int] = {}


def cells_of(text: str) -> int:
    """`cell_len(text)`, remembered in WIDTHS. In a hot loop, look the text up
    first: `WIDTHS.get(text) or cells_of(text)`."""
    width = WIDTHS.get(text)
    if width is None:
        if len(WIDTHS) >= 4096:
            WIDTHS.clear()
        width = WIDTHS[text] = cell_len(text)
    return width


def line_length(segs: Line) -> int:
    return sum(seg.cell_length for seg in segs)


SPAN_GAP = 8  # cells: two changed runs closer than this are sent as one (a cursor
# move costs about as many bytes as the unchanged cells between them)


def changed_spans(old: Line, new: Line, width: int, gap: int = SPAN_GAP) -> list[tuple[int, int]]:
    """The runs of cells [x0, x1) in which two lines differ, in order, each at
    least one cell and within `width` (runs less than `gap` cells apart are
    joined). Both lines are walked segment by segment; a segment equal to the
    one at the same cell in the other line is unchanged, anything else (a new
    text, a new style, segments cut at other cells) is changed up to the next
    cell where both lines have a segment boundary, so no changed cell is ever
    left out. Cells past the shorter line's end count as changed."""
    return _diff(old, new, width, gap)[0]


def _diff(old: Line, new: Line, width: int, gap: int) -> tuple[list[tuple[int, int]], int]:
    """`changed_spans`, and the new line's length in cells (it runs on every
    changed line of every key: one walk gives both)."""
    spans: list[tuple[int, int]] = []
    add = spans.append
    known = WIDTHS.get
    n_old, n_new = len(old), len(new)
    i = j = 0
    xo = xn = 0  # where old[i] and new[j] start
    start = -1  # the start of the changed run being walked (-1: none)
    while i < n_old and j < n_new:
        if xo == xn:
            a = old[i]
            b = new[j]
            i += 1
            j += 1
            w = known(b[0]) or cells_of(b[0])
            if a is b or a == b:
                if start >= 0:
                    add((start, xo))
                    start = -1
                xo = xn = xo + w
                continue
            if start < 0:
                start = xo
            xo += known(a[0]) or cells_of(a[0])
            xn += w
        elif xo < xn:
            xo += known(old[i][0]) or cells_of(old[i][0])
            i += 1
        else:
            xn += known(new[j][0]) or cells_of(new[j][0])
            j += 1
    if i < n_old or j < n_new or xo != xn:  # one line is longer: its tail changed
        if start < 0:
            start = min(xo, xn)
        xn += sum(cell_len(seg[0]) for seg in new[j:])
        xo += sum(cell_len(seg[0]) for seg in old[i:])
        add((start, max(xo, xn, start + 1)))
    elif start >= 0:
        add((start, xo))
    out: list[tuple[int, int]] = []
    for x0, x1 in spans:
        if x0 >= width:
            break  # past the edge: never drawn
        if x1 > width:
            x1 = width
        if x1 <= x0:
            continue  # (segments of no cells: nothing to see)
        if out and x0 - out[-1][1] < gap:
            out[-1] = (out[-1][0], x1)
        else:
            out.append((x0, x1))
    return out or [(0, 1)], xn  # (a change past the edge only: one cell, harmless)


Piece = tuple[str, Style | None]  # a run of text and its style (None: the widget's own)


def pieces_line(pieces: Iterable[Piece], width: int, base: Style, centre: bool = False) -> Line:
    """Runs of text as one line of exactly `width` cells in the widget's colours:
    cut at `width`, then padded on the right (both sides, `centre`). The same
    cells and colours as Rich's `Text.assemble(*pieces)` cut, padded and
    `styled`, without building a Text: parts of the board redrawn on every play
    are made this way (a Text costs about ten times as much)."""
    segs = [Segment(text, base + style if style else base) for text, style in pieces if text]
    cells = sum(seg.cell_length for seg in segs)
    if cells > width:
        segs = Segment.adjust_line_length(segs, width, base)
        cells = width
    lead = (width - cells) // 2 if centre else 0
    tail = width - cells - lead
    if lead:
        segs.insert(0, Segment(" " * lead, base))
    if tail:
        segs.append(Segment(" " * tail, base))
    return tuple(segs)


def styled(lines: list[Line], base: Style) -> tuple[Line, ...]:
    """Lines in the widget's colours (done once, when a cached part is built)."""
    return tuple(tuple(Segment.apply_style(line, base)) for line in lines)


def to_line(text: Text, width: int | None = None, right: bool = False) -> Line:
    """A Rich text as one line of segments, padded to `width` cells if given."""
    segs = _segments(text)
    if width is None:
        return segs
    pad = width - text.cell_len
    if pad <= 0:
        return segs
    blank = (Segment(" " * pad),)
    return blank + segs if right else segs + blank


@lru_cache(maxsize=1)
def text_console() -> Console:
    """A console only for turning text into segments (styles, widths)."""
    return Console(width=200, color_system="truecolor", legacy_windows=False)


def _segments(text: Text) -> Line:
    """The text's segments with its own style under its spans' (Text.render
    leaves the text's own style to the console, which never sees these: a
    refusal's red, a dimmed legend came out plain)."""
    text.end = ""
    console = text_console()
    segs = tuple(text.render(console))
    if not text.style:
        return segs
    base = console.get_style(text.style) if isinstance(text.style, str) else text.style
    return tuple(Segment.apply_style(segs, base))


def to_strip(text: Text) -> Strip:
    return Strip(list(_segments(text)), text.cell_len)
