"""The board's partial updates write only the cells that changed, and only
the style changes between them (app/repaint.py): the same cells, colours and
attributes as Textual's own crop-and-render, and (in a real terminal) the same
screen after many keys as a full redraw."""

from __future__ import annotations

import itertools
import os
import random
import re
import shlex
import shutil
import sys
import time
from collections.abc import Iterator

import pyte
import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.cells import cell_len
from rich.console import Console
from rich.control import Control
from rich.segment import Segment
from rich.style import Style
from testkit.tmux import TmuxServer
from textual.strip import Strip

from spit_tui.app.repaint import CellsUpdate, sgr_change

COLOURS = [None, "red", "bright_blue", "default", "color(74)", "color(240)", "#20a0ff", "#ffffff"]
LINK = "https://example.org/"
ATTRIBUTES = ("bold", "dim", "italic", "underline", "blink", "reverse", "strike")
ATTRIBUTES += ("underline2", "overline", "frame", "conceal")


def some_styles(n: int) -> list[Style]:
    """`n` styles (the same each run), mixing colours, attributes turned on or
    off, and links; drawn from a list, as hypothesis draws them much faster."""
    pick = random.Random(19)
    styles = []
    for _ in range(n):
        attrs = {a: pick.choice([None, None, True, False]) for a in ATTRIBUTES}
        colours = {k: pick.choice(COLOURS) for k in ("color", "bgcolor")}
        link = LINK if pick.random() < 0.1 else None
        styles.append(Style(**colours, **attrs, link=link))  # type: ignore[arg-type]
    return styles


STYLE = st.sampled_from(some_styles(64))
SEGMENTS = st.builds(
    Segment,
    st.text(alphabet="ab ♠│中", min_size=0, max_size=5),
    st.one_of(st.none(), STYLE, STYLE, STYLE),  # (an empty text writes nothing to see)
    st.none(),
)
WIDTH, HEIGHT = 24, 4


@st.composite
def updates(draw: st.DrawFn) -> tuple[list[dict[int, Strip | None]], list[tuple[int, int, int]]]:
    """Lines of WIDTH cells, each cut into chops at random columns (as the
    compositor cuts a line at its widgets' edges), and the dirty runs
    (y, x1, x2) of a partial update: ordered, disjoint, not touching."""
    chops: list[dict[int, Strip | None]] = []
    spans: list[tuple[int, int, int]] = []
    for y in range(HEIGHT):
        line = Strip(draw(st.lists(SEGMENTS, max_size=12))).adjust_cell_length(WIDTH)
        cuts = sorted({0, *draw(st.lists(st.integers(1, WIDTH - 1), max_size=4)), WIDTH})
        chops.append(
            {
                x: None if draw(st.integers(0, 9)) == 0 else line.crop(x, end)
                for x, end in itertools.pairwise(cuts)
            }
        )
        edges = sorted(set(draw(st.lists(st.integers(0, WIDTH), max_size=6))))
        for x1, x2 in zip(edges[::2], edges[1::2], strict=False):
            if not spans or spans[-1][0] != y or spans[-1][2] < x1:
                spans.append((y, x1, x2))
    return chops, spans


def textual_cells(
    chops: list[dict[int, Strip | None]], spans: list[tuple[int, int, int]], console: Console
) -> str:
    """The runs as Textual writes cells: each chop's part in a run cropped and
    rendered on its own (`Strip.crop`, `Strip.render`: a full SGR and a reset
    around every segment)."""
    out = []
    for y, x1, x2 in spans:
        cuts = [*chops[y], WIDTH]
        for (x, strip), end in zip(chops[y].items(), cuts[1:], strict=True):
            lo, hi = max(x, x1), min(end, x2)
            if strip is not None and lo < hi:
                cropped = strip.crop(lo - x, hi - x)
                fresh([{0: cropped}])  # (a cut segment may be an older one, from a cache)
                out.append(Control.move_to(lo, y).segment.text)
                out.append(cropped.render(console))
    return "".join(out)


BACKDROP = "".join(
    f"\x1b[{y + 1};1H\x1b[1;38;5;2m{chr(65 + y) * WIDTH}\x1b[0m" for y in range(HEIGHT)
)
AFTER = "\x1b[4;24Hz"  # a cell written after the update, in whatever style it left


def on_pyte(text: str) -> list[list[object]]:
    """Every cell (character and attributes) of a terminal emulator (pyte)
    that was sent the backdrop, `text` and AFTER."""
    screen = pyte.Screen(WIDTH, HEIGHT)
    pyte.Stream(screen).feed(BACKDROP + text + AFTER)
    return [[screen.buffer[y][x] for x in range(WIDTH)] for y in range(HEIGHT)]


SGR_ON = {"1", "2", "3", "4", "5", "6", "7", "8", "9", "21", "51", "52", "53"}
SGR_OFF = {"22": "12", "23": "3", "24": "4 21", "25": "5 6", "27": "7", "28": "8"}
SGR_OFF |= {"29": "9", "54": "51 52", "55": "53"}
ESCAPES = re.compile(r"\x1b\[([0-9;]*)([mH])|\x1b\]8;[^\x1b]*\x1b\\|(.)", re.S)


def on_model(text: str) -> dict[tuple[int, int], tuple[str, frozenset[str], str, str]]:
    """Every cell (character, attributes, colours) as ECMA-48 reads `text`,
    with every SGR attribute pyte leaves out (faint, both underlines, overline,
    concealed, rapid blink); each wide character's second cell is "". Links
    (OSC 8) draw nothing."""
    cells: dict[tuple[int, int], tuple[str, frozenset[str], str, str]] = {}
    attrs: set[str] = set()
    fg = bg = ""
    x = y = 0
    for params, final, char in ESCAPES.findall(BACKDROP + text + AFTER):
        if char:
            cells[(x, y)] = (char, frozenset(attrs), fg, bg)
            if cell_len(char) == 2:
                cells[(x + 1, y)] = ("", frozenset(attrs), fg, bg)
            x += cell_len(char)
        elif final == "H":
            row, col = params.split(";")
            x, y = int(col) - 1, int(row) - 1
        elif final == "m":
            toks = params.split(";") if params else ["0"]
            while toks:
                tok = toks.pop(0)
                if tok in ("38", "48"):
                    size = 1 if toks[0] == "5" else 3
                    colour = ";".join([tok, *toks[: size + 1]])
                    del toks[: size + 1]
                    fg, bg = (colour, bg) if tok == "38" else (fg, colour)
                elif tok == "0":
                    attrs, fg, bg = set(), "", ""
                elif tok in SGR_ON:
                    attrs.add(tok)
                elif tok in SGR_OFF:
                    attrs -= {"1", "2"} if tok == "22" else set(SGR_OFF[tok].split())
                elif tok in ("39", "49"):
                    fg, bg = ("", bg) if tok == "39" else (fg, "")
                elif int(tok) // 10 in (3, 9):
                    fg = tok
                else:
                    bg = tok
    return cells


def fresh(chops: list[dict[int, Strip | None]]) -> list[dict[int, Strip | None]]:
    """New strips, and styles that know no codes yet: Textual keeps a style's
    codes, and a strip's text, for the first colour system it is written in (an
    app has one console); hypothesis may hand an example's objects again."""
    for line in chops:
        for strip in filter(None, line.values()):
            for segment in strip:
                if segment.style is not None:
                    segment.style._ansi = None
    return [
        {x: None if s is None else Strip(list(s), s.cell_length) for x, s in line.items()}
        for line in chops
    ]


@given(updates(), st.sampled_from(["truecolor", "256", "standard"]))
def test_the_runs_show_the_same_cells_as_textuals_own_writing(
    update: tuple[list[dict[int, Strip | None]], list[tuple[int, int, int]]], colours: str
) -> None:
    """Every cell of the dirty runs, and only those, as Textual's crop-and-
    render writes them, character, colours and attributes, in a terminal
    emulator and in a reading of ECMA-48 with every attribute; and the
    terminal is left as Textual leaves it (a cell written afterwards is plain)."""
    console = Console(color_system=colours, force_terminal=True)  # type: ignore[arg-type]
    chops, spans = fresh(update[0]), update[1]
    if not spans:
        return
    ends = [[*list(line)[1:], WIDTH] for line in chops]
    ours = CellsUpdate(chops, spans, ends).render_segments(console)
    theirs = textual_cells(chops, spans, console)
    assert on_pyte(ours) == on_pyte(theirs)
    assert on_model(ours) == on_model(theirs)


def test_a_style_is_written_as_a_change_from_the_one_before() -> None:
    """The board's cells share one background: a new colour, or bold turned
    off, is written as what changed."""
    bg = ";48;5;233"
    assert sgr_change("38;5;253" + bg, "1;38;5;74" + bg) == "\x1b[1;38;5;74m"
    assert sgr_change("1;38;5;74" + bg, "38;5;253" + bg) == "\x1b[22;38;5;253m"
    assert sgr_change("1;2;38;5;74" + bg, "2;38;5;74" + bg) == "\x1b[22;2m"  # (22: both off)
    assert sgr_change("1;7;38;5;253" + bg, "1;38;5;253" + bg) == "\x1b[27m"
    assert sgr_change("1;38;5;1;48;5;9", "1;48;5;9") == "\x1b[39m"
    assert sgr_change("51;38;5;1", "38;5;1") == "\x1b[0;38;5;1m"  # (no code of its own: reset)
    assert sgr_change(None, "1") == "\x1b[0;1m"  # (state not known: from a reset)
    assert sgr_change("1", "") == "\x1b[0m"
    assert sgr_change("", "1") == "\x1b[1m"
    assert sgr_change("1", "1") == ""


def test_a_line_writes_fewer_sgr_bytes_than_textual() -> None:
    """A board line as a play repaints it: well under Textual's SGR bytes."""
    base = Style(color="color(253)", bgcolor="color(233)")
    blue = Style(bold=True, color="color(74)", bgcolor="color(233)")
    grey = Style(color="color(246)", bgcolor="color(233)")
    segs = [Segment(" 14 ", base), Segment("█" * 6, blue), Segment("·" * 6, grey)]
    segs += [Segment(" ", base), Segment("│", blue), Segment(" ", base), Segment("7♣", blue)]
    line = Strip(segs)
    console = Console(color_system="256", force_terminal=True)
    ends = [[line.cell_length]]
    spans = [(0, 0, line.cell_length)]
    ours = CellsUpdate([{0: line}], spans, ends).render_segments(console)
    theirs = textual_cells([{0: line}], spans, console)
    assert on_pyte(ours) == on_pyte(theirs)
    sgr = re.compile(r"\x1b\[[0-9;]*m")
    assert sum(map(len, sgr.findall(ours))) < 0.6 * sum(map(len, sgr.findall(theirs)))


@pytest.fixture
def server() -> Iterator[TmuxServer]:
    made = TmuxServer("spit-repaint", env=dict(os.environ))
    yield made
    made.close()


@pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")
def test_after_many_keys_the_screen_is_what_a_full_redraw_shows(server: TmuxServer) -> None:
    """Plays, each repainting only its changed cells, and the highlights fading
    after them: then the whole screen is drawn again (a resize), and every
    cell, colours included, is as it was. A run of cells left out of a partial
    update would show here as a stale cell. About 3 s: a real process."""
    from latency import bench_position, spit_keys  # benchmarks/: every key plays a card

    cmd = f"{shlex.quote(sys.executable)} -m spit_tui --no-history --position "
    cmd += f"{shlex.quote(bench_position())}; sleep 30"
    server.tmux("new-session", "-d", "-x", "100", "-y", "30", cmd)
    server.tmux("set-option", "-g", "window-size", "manual")
    server.wait_for(lambda s: "pile a" in s)
    time.sleep(0.3)  # the stale-key guard after the first frame
    keys = spit_keys()[:14]
    for key in keys:
        server.tmux("send-keys", "-l", "\\;" if key == ";" else key)
        time.sleep(0.07)  # (a key again within 60 ms would be a repeat)
    server.wait_for(lambda s: "8 cards   8 cards" in s)  # each pile: one card and seven plays

    def board() -> list[str]:  # with colours; the header's clock left out
        return server.tmux("capture-pane", "-p", "-e").splitlines()[1:]

    # the last highlights fade (partial updates too): the board once it has stood
    # still for longer than a highlight lasts (a busy machine fades them late)
    deadline = time.monotonic() + 20
    partial, still_since = board(), time.monotonic()
    while time.monotonic() - still_since < 1.5:
        assert time.monotonic() < deadline, "the board never stood still"
        time.sleep(0.1)
        now = board()
        if now != partial:
            partial, still_since = now, time.monotonic()
    server.tmux("resize-window", "-x", "104", "-y", "30")  # the board moves: all drawn anew
    server.wait_for(lambda s: s != "" and board() != partial, timeout=15)
    server.tmux("resize-window", "-x", "100", "-y", "30")
    deadline = time.monotonic() + 15
    while board() != partial and time.monotonic() < deadline:
        time.sleep(0.1)
    assert board() == partial


def test_a_link_is_written_as_textual_writes_it() -> None:
    """A link's text comes with its own reset (OSC 8, as Textual writes it):
    the style after it is written again."""
    blue = Style(bold=True, color="color(74)")
    line = Strip([Segment("ab", blue), Segment("c", Style(link=LINK)), Segment("d", blue)])
    console = Console(color_system="256", force_terminal=True)
    chops, spans, ends = [{0: line}], [(0, 0, 4)], [[4]]
    ours = CellsUpdate(chops, spans, ends).render_segments(console)
    theirs = textual_cells(chops, spans, console)
    assert on_model(ours) == on_model(theirs)
    assert "\x1b]8;" in ours
