"""The board's partial updates write only the cells that changed
(app/repaint.py): the same terminal text for those cells as Textual's own
crop-and-render, and (in a real terminal) the same screen after many keys as
a full redraw."""

from __future__ import annotations

import os
import shlex
import shutil
import sys
import time
from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.color import ColorSystem
from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from testkit.tmux import TmuxServer
from textual.strip import Strip

from spit_tui.app.repaint import _cells

STYLES = [None, Style(color="red"), Style(bold=True, bgcolor="black"), Style(color="#20a0ff")]
SEGMENTS = st.builds(  # (never empty: an empty one writes nothing to see either way)
    Segment, st.text(alphabet="ab ♠│中", min_size=1, max_size=5), st.sampled_from(STYLES), st.none()
)


@given(st.lists(SEGMENTS, max_size=10), st.integers(0, 30), st.integers(0, 30))
def test_a_runs_text_is_the_cropped_strips(segments: list[Segment], a: int, b: int) -> None:
    strip = Strip(segments)
    x1, x2 = sorted(x % (strip.cell_length + 1) for x in (a, b))
    console = Console(color_system="truecolor", force_terminal=True)
    if x1 == x2:
        return  # (no run is empty)
    want = strip.crop(x1, x2).render(console)
    assert _cells(strip, x1, x2, ColorSystem.TRUECOLOR) == want


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
    time.sleep(1.0)  # the last highlights fade (partial updates too)

    def board() -> list[str]:  # with colours; the header's clock left out
        return server.tmux("capture-pane", "-p", "-e").splitlines()[1:]

    partial = board()
    server.tmux("resize-window", "-x", "104", "-y", "30")  # the board moves: all drawn anew
    server.wait_for(lambda s: s != "" and board() != partial, timeout=5)
    server.tmux("resize-window", "-x", "100", "-y", "30")
    deadline = time.monotonic() + 5
    while board() != partial and time.monotonic() < deadline:
        time.sleep(0.1)
    assert board() == partial
